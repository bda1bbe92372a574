#!/usr/bin/env bash
# screen.sh CUTUNE SOURCE_DIR - the final race's screening on one GPU (tuner/fleet.c,
# tuner/goal.c goal_screen): tunes bench/speed/sum_matrix.tune (104 configurations, a
# kernel of about 1 ms, many contenders within 5 % of the best) twice on GPU 0: as it
# is (contenders after the first screened after 3 samples against the best timed in
# full: stopped when clearly behind it, or tied when level with it) and with --prune -1
# (every variant timed in full, no race at all). The first run's winner must be timed
# in full and, as the second run timed it, within 2 % of that run's best; no contender
# the first run screened out or tied may be, in the second run, more than 1 % faster
# than the first run's winner; each of them has 3 samples in its race run and is
# pruned; a tied one is not more than 1 % faster than the winner in the first run
# either; and every entry has its time. Prints how many were screened out and tied.
# Exits 77 (ctest: skipped) when there is no GPU.
set -u
cutune=$1
src=$2
. "$src/test/gpu/lib.sh.inc"
gpu_probe screen
gpu_tmp
spec=$src/bench/speed/sum_matrix.tune
for run in raced full; do
    opts=()
    [ $run = full ] && opts=(--prune -1)
    CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-0} "$cutune" --color never "$spec" "${opts[@]}" \
        --results "$tmp/$run.json" >"$tmp/$run.out" 2>"$tmp/$run.err"
    rc=$?
    tail -n 5 "$tmp/$run.out" "$tmp/$run.err"
    [ $rc -eq 0 ] || { echo "FAIL: cutune ($run) exited $rc"; exit 1; }
done
python3 - "$tmp/raced.json" "$tmp/full.json" <<'PY' || { echo "FAIL: the checks above"; exit 1; }
import json, sys
raced, full = (json.load(open(p)) for p in sys.argv[1:3])
fails = []
def check(what, ok):
    if not ok:
        fails.append(what)
def key(r):
    return tuple(sorted(r["params"].items()))
res = raced["results"]
repeat = raced["settings"]["repeat"]
check("104 entries (got %d)" % len(res), len(res) == 104)
check("every ok entry has a time", all(r["time_ms"] is not None for r in res if r["status"] == "ok"))
best = raced["summary"]["best"]
check("a winner", best is not None)
if best is None:
    sys.exit(1)
w = res[best]
check("the winner timed in full (reps %s >= %s, not pruned)" % (w["reps"], repeat), w["reps"] >= repeat and not w["pruned"])
# raced and stopped: its race run's launches (a checked run and 3 samples, one launch
# each: the kernel is over 1 ms) added to its provisional run's; an entry stopped during
# the run has its own checked run and samples only (launches = reps + 1)
screened = [r for r in res if r["status"] == "ok" and r["pruned"] and r["reps"] == 3 and r["launches"] > r["reps"] + 1]
tied = [r for r in res if r.get("tied")]
print("screened out after 3 samples: %d of %d entries, of them tied: %d" % (len(screened), len(res), len(tied)))
for r in tied:
    check("tied %s pruned, after 3 samples, in the race (reps %s, launches %s)" % (r["params"], r["reps"], r["launches"]),
          r["pruned"] and r in screened)
    check("tied %s not 1 %% faster than the winner (%.4f vs %.4f ms)" % (
        r["params"], r["time_ms"]["median"], w["time_ms"]["median"]), r["time_ms"]["median"] * 1.01 >= w["time_ms"]["median"])
by = {key(r): r for r in full["results"] if r["status"] == "ok" and r["time_ms"]}
fb = full["results"][full["summary"]["best"]]
fw = by.get(key(w))
check("the winner timed in the full run", fw is not None)
if fw:
    ratio = fw["time_ms"]["median"] / fb["time_ms"]["median"]
    print("winner %s: %.4f ms in the full run, whose best %s is %.4f ms (x%.4f)" % (
        w["params"], fw["time_ms"]["median"], fb["params"], fb["time_ms"]["median"], ratio))
    check("the winner within 2 %% of the full run's best (x%.4f)" % ratio, ratio <= 1.02)
    for r in screened:
        f = by.get(key(r))
        if f and f["time_ms"]["median"] * 1.01 < fw["time_ms"]["median"]:
            check("screened-out %s is faster than the winner in the full run (%.4f < %.4f ms)" % (
                r["params"], f["time_ms"]["median"], fw["time_ms"]["median"]), False)
for f in fails:
    print("FAIL:", f)
print("%d checks failed" % len(fails))
sys.exit(1 if fails else 0)
PY
echo "screen test passed"
