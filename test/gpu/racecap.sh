#!/usr/bin/env bash
# racecap.sh CUTUNE SOURCE_DIR - the final race's limit on a GPU: test/gpu/racecap.tune
# has 24 variants of one speed. The race times at most 16 contenders in full (the
# likeliest first); the others must stay provisional (placed by their few samples, never
# the winner), the winner must be one timed in full, and the run must say how many were
# not timed in full. Exits 77 (ctest: skipped) when there is no GPU.
set -u
cutune=$1
src=$2
. "$src/test/gpu/lib.sh.inc"
gpu_probe racecap
gpu_tmp
"$cutune" --color never "$src/test/gpu/racecap.tune" --results "$tmp/r.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out" "$tmp/err"
[ $rc -eq 0 ] || { echo "FAIL: cutune exited $rc"; exit 1; }
python3 - "$tmp/r.json" "$tmp/err" <<'PY' || { echo "FAIL: the checks of $tmp/r.json (above)"; exit 1; }
import json, re, sys
d = json.load(open(sys.argv[1]))
err = open(sys.argv[2]).read()
fails = []
def check(what, ok):
    if not ok:
        fails.append(what)
res = d["results"]
check("24 variants (got %d)" % len(res), len(res) == 24)
check("all ok and verified", all(r["status"] == "ok" and r["verified"] is True for r in res))
best = min(r["time_ms"]["min"] for r in res)
near = [r for r in res if r["time_ms"]["min"] <= 1.05 * best]
check("at least 17 within 5 %% of the best (got %d): else the test shows nothing" % len(near), len(near) >= 17)
prov = [r for r in res if r.get("provisional")]
full = [r for r in res if not r.get("provisional") and not r["pruned"]]
check("%d provisional: the near ones past the race's 16 (%d near)" % (len(prov), len(near)),
      len(prov) == max(0, len(near) - 16))
check("at most 16 timed in full (got %d)" % len(full), 0 < len(full) <= 16)
w = d["summary"]["best"]
check("a winner", w is not None)
if w is not None:
    check("the winner was timed in full", not res[w].get("provisional") and not res[w]["pruned"])
    check("no provisional variant is faster at its median than the winner's by more than 5 %",
          all(r["time_ms"]["median"] >= 0.95 * res[w]["time_ms"]["median"] for r in prov))
m = re.search(r"note: (\d+) more variants? within 5 % of the best (was|were) not timed in full", err)
check("the note says how many were not timed in full", m is not None and int(m.group(1)) == len(prov))
for f in fails:
    print("FAIL:", f)
print("%d checks failed" % len(fails))
sys.exit(1 if fails else 0)
PY
