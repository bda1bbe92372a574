#!/usr/bin/env bash
# faults.sh CUTUNE SOURCE_DIR - the fault suite: tunes examples/faults.tune, whose
# variants write out of bounds, trap, hang, cannot launch, fail to compile, give a
# wrong answer or read misaligned data; every fault must be recorded against its
# variant with its cause, and a correct variant must still win. Skipped without a GPU.
# FLEET=1 (several GPUs; ctest's *-fleet variant): the tuning runs get --devices with two GPUs
# (test/gpu/fleet_args.sh: GPUs 0 and 1, or two workers sharing GPU 0): the same checks
# with two GPU workers fed by one compile pool.
set -u
cutune=$1
src=$2
. "$src/test/gpu/lib.sh.inc"
gpu_probe
FLEET_ARGS=""
[ "${FLEET:-0}" = 1 ] && FLEET_ARGS=$(bash "$src/test/gpu/fleet_args.sh" "$cutune") && echo "fleet: $FLEET_ARGS"
gpu_tmp
"$cutune" --color never "$src/examples/faults.tune" ${FLEET_ARGS:-} --results "$tmp/f.json" --header "$tmp/f.h" --fresh >"$tmp/out" 2>&1
rc=$?
cat "$tmp/out"
[ $rc -eq 0 ] || { echo "FAIL: exit status $rc"; exit 1; }
python3 - "$tmp/f.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
# An out-of-bounds write far from any allocation is reported by the H100 as an illegal
# address or, for some addresses, an invalid address space: both are its cause.
expect = {0: ("ok", ""), 1: (("launch error",), "ADDRESS"), 2: (("launch error",), "LAUNCH_FAILED"),
          3: (("timeout",), "no answer"), 4: (("cannot launch",), "shared memory"),
          5: (("compile error",), "deliberate"), 6: (("wrong",), "differ"),
          7: (("launch error",), "MISALIGNED")}
fails = 0
for r in d["results"]:
    fault = r["params"]["FAULT"]
    statuses, word = expect[fault]
    statuses = (statuses,) if isinstance(statuses, str) else statuses
    ok = r["status"] in statuses and word in (r["reason"] or "")
    print("FAULT %d threads %3d: %-13s %s" % (fault, r["params"]["threads"], r["status"], (r["reason"] or "")[:110]))
    if not ok:
        print("   FAIL: expected %s with '%s'" % (statuses, word))
        fails += 1
best = d["summary"]["best"]
if best is None or d["results"][best]["params"]["FAULT"] != 0:
    print("FAIL: the winner is not a correct variant")
    fails += 1
print("%d checks failed" % fails)
sys.exit(1 if fails else 0)
PY
