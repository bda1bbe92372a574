#!/usr/bin/env bash
# config.sh CUTUNE SOURCE_DIR - `--config` on a GPU (test/gpu/tiny.tune): tuning times
# exactly the configurations given, a whole one and a partial one (threads=128,ITEMS=1
# leaves HEAVY free, BUG is 0 by the spec's require: two), verified against the
# spec's reference configuration although it is not among them; the best is one of
# them. Exits 77 (ctest: skipped) when there is no GPU.
set -u
cutune=$1
src=$2
. "$src/test/gpu/lib.sh.inc"
gpu_probe config
gpu_tmp
"$cutune" --color never "$src/test/gpu/tiny.tune" --results "$tmp/r.json" --header "$tmp/h.h" \
    --config threads=1024,ITEMS=4,BUG=0,HEAVY=0 --config threads=128,ITEMS=1 >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out" "$tmp/err"
[ $rc -eq 0 ] || { echo "FAIL: cutune --config exited $rc"; exit 1; }
python3 - "$tmp/r.json" <<'PY' || { echo "FAIL: the checks above"; exit 1; }
import json, sys
d = json.load(open(sys.argv[1]))
rs = d["results"]
got = sorted((r["params"]["threads"], r["params"]["ITEMS"], r["params"]["BUG"], r["params"]["HEAVY"]) for r in rs)
want = [(128, 1, 0, 0), (128, 1, 0, 1), (1024, 4, 0, 0)]
fails = []
if got != want:
    fails.append("configurations %s, expected %s" % (got, want))
for r in rs:
    if r["status"] != "ok":
        fails.append("%s: %s" % (r["params"], r["status"]))
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
PY
grep -q '^best: #' "$tmp/out" || { echo "FAIL: no best line"; exit 1; }
echo "config test passed"
