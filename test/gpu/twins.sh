#!/usr/bin/env bash
# twins.sh CUTUNE SOURCE_DIR - twins on a GPU (test/gpu/twins.tune): variants whose
# machine code, launch and arguments equal an earlier one's are not run but share its
# figures, and --run-twins runs them all. Checked: every twin names an earlier variant
# that ran, differs from it in the register cap alone, has its status and times and no
# launches; the summary counts them; with --run-twins nothing is a twin, every variant
# launched, and each former twin's median, timed in full, is within 10 % of the variant
# it was a twin of, timed in full too (the premise: the same code times the same). Exits 77 (ctest: skipped) when there is no GPU.
# FLEET=1 (several GPUs; ctest's *-fleet variant): the tuning runs get --devices with two GPUs
# (test/gpu/fleet_args.sh: GPUs 0 and 1, or two workers sharing GPU 0): the same checks
# with two GPU workers fed by one compile pool.
set -u
cutune=$1
src=$2
. "$src/test/gpu/lib.sh.inc"
gpu_probe twins
FLEET_ARGS=""
[ "${FLEET:-0}" = 1 ] && FLEET_ARGS=$(bash "$src/test/gpu/fleet_args.sh" "$cutune") && echo "fleet: $FLEET_ARGS"
gpu_tmp
spec=$src/test/gpu/twins.tune
"$cutune" --color never "$spec" ${FLEET_ARGS:-} --results "$tmp/a.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out" "$tmp/err"
[ $rc -eq 0 ] || { echo "FAIL: cutune exited $rc"; exit 1; }
grep -q 'variants not run: the same machine code' "$tmp/err" || { echo "FAIL: no twins line in the summary"; exit 1; }
"$cutune" --color never "$spec" ${FLEET_ARGS:-} --results "$tmp/b.json" --run-twins --prune -1 --fresh >"$tmp/out2" 2>"$tmp/err2"
rc=$?
cat "$tmp/err2"
[ $rc -eq 0 ] || { echo "FAIL: cutune --run-twins exited $rc"; exit 1; }
python3 - "$tmp/a.json" "$tmp/b.json" <<'PY' || { echo "FAIL: the checks above"; exit 1; }
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
fails = []
def check(what, ok):
    if not ok:
        fails.append(what)
ra, rb = a["results"], b["results"]
check("12 variants in each run (%d, %d)" % (len(ra), len(rb)), len(ra) == len(rb) == 12)
by_ord = {r["index"]: r for r in ra}
pos = {r["index"]: i for i, r in enumerate(ra)}  # results are in the order the variants ran
twins = [r for r in ra if "same_code_as" in r]
check("some twins (%d)" % len(twins), len(twins) >= 4)
check("summary.twins %s == %d" % (a["summary"].get("twins"), len(twins)), a["summary"].get("twins") == len(twins))
for r in twins:
    o = by_ord.get(r["same_code_as"])
    tag = "#%d (twin of %s)" % (r["index"], r["same_code_as"])
    check(tag + " names a variant that ran before it", o is not None and pos[o["index"]] < pos[r["index"]])
    if o is None:
        continue
    check(tag + " which ran", "same_code_as" not in o and o["launches"] >= 1)
    diff = [k for k in r["params"] if r["params"][k] != o["params"][k]]
    check(tag + " differs in the cap alone (%s)" % diff, diff == ["maxrreg"])
    check(tag + " shares status and times", r["status"] == o["status"] and r["time_ms"] == o["time_ms"])
    check(tag + " no launches, no GPU time", r["launches"] == 0 and r["gpu_seconds"] == 0)
    check(tag + " the same resources", r["resources"] == o["resources"])
check("--run-twins: no twins", all("same_code_as" not in r for r in rb) and b["summary"].get("twins") == 0)
check("--run-twins: every variant launched", all(r["launches"] >= 1 for r in rb))
rb_ord = {r["index"]: r for r in rb}
# The premise, timed in full (--prune -1): each twin, run, against the variant it was a twin of.
for r in twins:
    own, orig = rb_ord[r["index"]]["time_ms"], rb_ord[r["same_code_as"]]["time_ms"]
    check("#%d and #%d timed in full" % (r["index"], r["same_code_as"]), own is not None and orig is not None)
    if own and orig:
        ratio = own["median"] / orig["median"]
        print("#%d: median %.4f ms run, %.4f ms its twin #%d (x%.3f)" % (r["index"], own["median"], orig["median"],
                                                                       r["same_code_as"], ratio))
        check("#%d times like its twin (x%.3f)" % (r["index"], ratio), 0.9 < ratio < 1.1)
for f in fails:
    print("FAIL:", f)
print("%d checks failed" % len(fails))
sys.exit(1 if fails else 0)
PY
echo "twins test passed"
