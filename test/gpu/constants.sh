#!/usr/bin/env bash
# constants.sh CUTUNE SOURCE_DIR - constant arguments on a GPU (test/gpu/constants.tune):
# the variants whose module declares `__constant__ float coef[64]` get it filled from the
# argument's ramp before they run, and match a reference that computes the ramp itself
# (a coef left at zero would be wrong); a module without the symbol, or with one too
# small (32 floats), is a `load error` per variant whose reason names the symbol and both
# sizes. Exits 77 (ctest: skipped) when there is no GPU.
set -u
cutune=$1
src=$2
. "$src/test/gpu/lib.sh.inc"
gpu_probe constants
gpu_tmp
"$cutune" --color never "$src/test/gpu/constants.tune" --results "$tmp/r.json" --run-twins >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out" "$tmp/err"
[ $rc -eq 0 ] || { echo "FAIL: cutune exited $rc"; exit 1; }
python3 - "$tmp/r.json" <<'PY' || { echo "FAIL: the checks above"; exit 1; }
import json, sys
fails = []
def check(what, ok):
    if not ok:
        fails.append(what)
rs = json.load(open(sys.argv[1]))["results"]
check("8 variants (%d)" % len(rs), len(rs) == 8)
for r in rs:
    p, st, why = r["params"], r["status"], r.get("reason") or ""
    tag = "%s: %s (%s)" % (p, st, why)
    if p["HAVE"] == 0:
        check(tag + ": no symbol", st == "load error" and "no __constant__ symbol 'coef'" in why
              and "256 bytes" in why)
    elif p["LEN"] == 32:
        check(tag + ": too small", st == "load error" and "has 256 bytes" in why and "has only 128" in why)
    else:
        check(tag + ": filled and verified", st == "ok")
for f in fails:
    print("FAIL:", f)
print("%d checks failed" % len(fails))
sys.exit(1 if fails else 0)
PY
