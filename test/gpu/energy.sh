#!/usr/bin/env bash
# energy.sh CUTUNE SOURCE_DIR - energy per variant on a GPU: tunes
# test/gpu/energy.tune with every variant timed in full. Each must have its energy per
# launch and mean power from NVML, finite and plausible: power between 20 W and 1.5 kW
# (an H100 SXM's limit is 700 W); energy per launch at least power x the kernel's
# median time x 0.5 (launched back to back, a launch cannot cost less than its own
# time at that power, give or take the window's edges) and at most 3x it; and the
# variant doing 16x the work costs more energy per launch than the one doing 1x. The
# results file and the summary line carry it. Then test/gpu/energy_objective.tune, whose
# objective is the energy: every variant timed in full and measured, the winner the one
# of least energy per launch. Exits 77 when there is no GPU.
set -u
cutune=$1
src=$2
. "$src/test/gpu/lib.sh.inc"
gpu_probe energy
gpu_tmp
"$cutune" --color never "$src/test/gpu/energy.tune" --prune -1 --results "$tmp/r.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out" "$tmp/err"
[ $rc -eq 0 ] || { echo "FAIL: cutune exited $rc"; exit 1; }
grep -q 'energy .* mJ per launch at .* W' "$tmp/out" || { echo "FAIL: no energy line for the winner"; exit 1; }
python3 - "$tmp/r.json" <<'PY' || { echo "FAIL: the checks above"; exit 1; }
import json, math, sys
d = json.load(open(sys.argv[1]))
fails = []
def check(what, ok):
    if not ok:
        fails.append(what)
per = {}
for r in d["results"]:
    tag = "WORK=%s" % r["params"]["WORK"]
    e = r.get("energy")
    check(tag + " has energy (%s)" % e, isinstance(e, dict) and "J_per_launch" in e)
    if not isinstance(e, dict) or "J_per_launch" not in e:
        continue
    j, w, s, n = e["J_per_launch"], e["W"], e["window_s"], e["launches"]
    med_s = r["time_ms"]["median"] / 1e3
    print("%s: %.4g mJ per launch, %.1f W, %d launches in %.3f s, median %.4f ms" % (tag, j * 1e3, w, n, s, med_s * 1e3))
    check(tag + " finite", all(math.isfinite(v) for v in (j, w, s)))
    check(tag + " power plausible (%.1f W)" % w, 20 <= w <= 1500)
    check(tag + " window at least 0.3 s (%.3f)" % s, s >= 0.3)
    check(tag + " energy per launch within [0.5, 3] x power x median (%.3g vs %.3g)" % (j, w * med_s),
          0.5 * w * med_s <= j <= 3 * w * med_s)
    per[r["params"]["WORK"]] = j
check("16x the work costs more energy per launch (%s)" % per, 1 in per and 16 in per and per[16] > per[1])
for f in fails:
    print("FAIL:", f)
print("%d checks failed" % len(fails))
sys.exit(1 if fails else 0)
PY
# The objective is the energy (energy_objective.tune): every variant timed in full and
# measured, the winner the least energy per launch, the metrics read the same energy.
"$cutune" --color never "$src/test/gpu/energy_objective.tune" --results "$tmp/o.json" >"$tmp/out2" 2>"$tmp/err2"
rc=$?
cat "$tmp/out2" "$tmp/err2"
[ $rc -eq 0 ] || { echo "FAIL: cutune (energy objective) exited $rc"; exit 1; }
python3 - "$tmp/o.json" <<'PY' || { echo "FAIL: the energy objective's checks above"; exit 1; }
import json, sys
d = json.load(open(sys.argv[1]))
fails = []
def check(what, ok):
    if not ok:
        fails.append(what)
res = d["results"]
check("6 variants (%d)" % len(res), len(res) == 6)
check("none pruned or provisional: the race is off", all(not r["pruned"] and not r.get("provisional") for r in res))
have = [r for r in res if isinstance(r.get("energy"), dict) and "J_per_launch" in r["energy"]]
check("every variant has its energy (%d of %d)" % (len(have), len(res)), len(have) == len(res))
best = res[d["summary"]["best"]] if d["summary"]["best"] is not None else None
check("a winner", best is not None)
if best and have:
    least = min(r["energy"]["J_per_launch"] for r in have)
    print("winner: %s, %.4g J per launch (least: %.4g)" % (best["params"], best["energy"]["J_per_launch"], least))
    check("the winner has the least energy per launch", best["energy"]["J_per_launch"] == least)
    check("its objective is that energy", abs(best["objective"] - least) <= 1e-12 * least)
for r in have:
    check("metric joules = J_per_launch (%s)" % r["params"], abs(r["metrics"]["joules"] - r["energy"]["J_per_launch"]) <= 1e-12 * r["metrics"]["joules"])
for f in fails:
    print("FAIL:", f)
print("%d checks failed" % len(fails))
sys.exit(1 if fails else 0)
PY
echo "energy test passed"
