# D13 as run, except that the two specs then lay in .devrun/ (ignored) and are filed in d13/ with their kernel path changed to match
. .devrun/setup.sh D13
export CUTUNE_CACHE_DIR=/tmp/c13
build/cutune tune docs/results/data/gpu-2026-11-28b/d13/inpoly_diag.tune --strategy exhaustive -q --results /tmp/diag.json > $OUT/diag.log 2>&1; echo "diag rc=$?"
python3 - /tmp/diag.json <<'PY' | tee $OUT/diag.txt
import json, sys
d = json.load(open(sys.argv[1]))
for x in d["results"]:
    p = x["params"]
    print(p["block_x"], p["stage"], p["unroll"], repr(p["opt"]), x["status"], (x.get("reason") or "")[:60])
PY
cp /tmp/diag.json $OUT/
timeout 300 compute-sanitizer --tool racecheck --racecheck-report all build/cutune tune docs/results/data/gpu-2026-11-28b/d13/inpoly_race.tune --strategy exhaustive -q --results /tmp/race.json > $OUT/racecheck.log 2>&1; echo "racecheck rc=$?"
tail -15 $OUT/racecheck.log
timeout 200 compute-sanitizer --tool synccheck build/cutune tune docs/results/data/gpu-2026-11-28b/d13/inpoly_race.tune --strategy exhaustive -q --no-cache --results /tmp/race2.json > $OUT/synccheck.log 2>&1; echo "synccheck rc=$?"; tail -5 $OUT/synccheck.log
