#!/usr/bin/env bash
# race.sh CUTUNE SOURCE_DIR - the race on a GPU: tunes test/gpu/race.tune,
# where WORK = 1 (the first variant) is fast and WORK = 8 and 16 are clear losers. The
# losers must be stopped on their checked run (launches 1, pruned, figures from that
# one sample), the winner timed in full (launches >= warm-up + repeat, reps >= repeat,
# not pruned, verified, not tied: the final race's only contender), and the summary must
# say when the first variant ran.
# One compile thread (--jobs 1): variants reach the GPU as they are compiled, so only
# then is the listing order the order they run in. Exits 77 (ctest: skipped) when there
# is no GPU.
set -u
cutune=$1
src=$2
. "$src/test/gpu/lib.sh.inc"
gpu_probe race
gpu_tmp
"$cutune" --color never "$src/test/gpu/race.tune" --jobs 1 --results "$tmp/r.json" --csv "$tmp/r.csv" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out" "$tmp/err"
[ $rc -eq 0 ] || { echo "FAIL: cutune exited $rc"; exit 1; }
python3 - "$tmp/r.json" "$tmp/r.csv" <<'PY' || { echo "FAIL: the checks of $tmp/r.json (above)"; exit 1; }
import csv, json, sys
d = json.load(open(sys.argv[1]))
fails = []
def check(what, ok):
    if not ok:
        fails.append(what)
res = d["results"]
check("3 variants (got %d)" % len(res), len(res) == 3)
warmup, repeat = d["settings"]["warmup"], d["settings"]["repeat"]
check("settings as the spec says (%s, %s)" % (warmup, repeat), warmup == 3 and repeat == 3)
for r in res:
    tag = "#%d WORK=%s" % (r["index"], r["params"]["WORK"])
    check(tag + " ok and verified (%s)" % r["status"], r["status"] == "ok" and r["verified"] is True)
    t = r["time_ms"]
    check(tag + " timed", t is not None and 0 < t["min"] <= t["median"] <= t["max"])
    if r["params"]["WORK"] == 1:
        check(tag + " the winner", d["summary"]["best"] == res.index(r))
        check(tag + " not pruned", r["pruned"] is False)
        check(tag + " not tied (the race's only contender: none to be level with)", "tied" not in r)
        check(tag + " launches %s >= warm-up + repeat" % r["launches"], r["launches"] >= warmup + repeat)
        check(tag + " reps %s >= repeat" % r["reps"], r["reps"] >= repeat)
    else:
        check(tag + " pruned", r["pruned"] is True)
        check(tag + " one launch (got %s)" % r["launches"], r["launches"] == 1)
        check(tag + " one sample (reps %s, batch %s)" % (r["reps"], r["batch"]), r["reps"] == 1 and r["batch"] == 1)
        check(tag + " its figures are that sample's", t["min"] == t["median"] == t["max"])
        w = res[d["summary"]["best"]] if d["summary"]["best"] is not None else None
        if w:
            check(tag + " clearly slower than the winner (%s vs %s ms)" % (t["median"], w["time_ms"]["median"]),
                  t["median"] > 4 * w["time_ms"]["median"])
s = d["summary"]
check("pruned count 2 (got %s)" % s["pruned"], s["pruned"] == 2)
check("no entry tied (the losers stop on their checked run, in the run)", not any("tied" in r for r in res))
first = s.get("first_variant_seconds")
check("first_variant_seconds (%s) within the run (%s s)" % (first, s["wall_seconds"]),
      first is not None and 0 < first < s["wall_seconds"])
rows = list(csv.DictReader(open(sys.argv[2], newline="")))
check("the CSV has launches", len(rows) == 3 and all(int(row["launches"]) == r["launches"] for row, r in zip(rows, res)))
for f in fails:
    print("FAIL:", f)
print("%d checks failed" % len(fails))
sys.exit(1 if fails else 0)
PY
echo "race test passed"
