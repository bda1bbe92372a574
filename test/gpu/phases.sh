#!/usr/bin/env bash
# phases.sh CUTUNE SOURCE_DIR - where a run's time goes, on a GPU: tunes test/gpu/race.tune
# (verified against a configuration, L2 flushed) and examples/sweep.tune (--limit 24),
# each timed from outside, and checks the account: the phases' table on stderr and the
# results file's summary.phases add up to their wall, which is no more than the process's
# own time measured around it and no less than the run's (summary.wall_seconds); the
# driver, the reference and the GPU work each took some; summary.gpu_work's kinds (L2
# flushes apart) add up to the GPU time the summary counts (every entry's and the
# reference's: a fresh run on one GPU), its warm-ups and samples to the timing, and
# the flushes were measured. Exits 77 (ctest: skipped) when there is no GPU.
set -u
cutune=$1
src=$2
. "$src/test/gpu/lib.sh.inc"
gpu_probe phases
gpu_tmp
status=0
run() { # name spec [options...]
    local name=$1 spec=$2
    shift 2
    local t0 t1
    t0=$(date +%s.%N)
    "$cutune" --color never "$spec" --results "$tmp/$name.json" --header "$tmp/$name.h" --fresh "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    local rc=$?
    t1=$(date +%s.%N)
    cat "$tmp/$name.err"
    [ $rc -eq 0 ] || { echo "FAIL: $name: cutune exited $rc"; status=1; return; }
    python3 - "$tmp/$name.json" "$tmp/$name.err" "$t0" "$t1" "$name" <<'PY' || status=1
import json, re, sys
path, err, t0, t1, name = sys.argv[1:]
d = json.load(open(path))
s = d["summary"]
fails = []
def check(what, ok):
    if not ok:
        fails.append(what)
outside = float(t1) - float(t0)
ph = s.get("phases")
check("summary.phases present", isinstance(ph, dict))
ph = ph or {}
keys = ["start", "device", "inputs", "reference", "compile", "gpu", "race", "profile", "write", "other"]
check("every phase, a number >= 0 (%s)" % ph, all(isinstance(ph.get(k), (int, float)) and ph[k] >= 0 for k in keys))
total = sum(ph.get(k) or 0 for k in keys)
wall = ph.get("wall") or 0
check("the phases (%.6f) add up to their wall (%.6f)" % (total, wall), abs(total - wall) <= 1e-6 * max(wall, 1))
check("their wall (%.3f) no more than the process's time from outside (%.3f)" % (wall, outside), wall <= outside + 0.02)
check("their wall (%.3f) no less than the run's (%.3f)" % (wall, s["wall_seconds"]), wall >= s["wall_seconds"] - 1e-6)
for k in ("device", "gpu", "reference"):
    check("some time in %s (%s)" % (k, ph.get(k)), (ph.get(k) or 0) > 0)
# the account on stderr: its table's rows add up to its total
text = open(err).read()
m = re.search(r"where the time went: ([0-9.]+) s", text)
check("the account's phase table on stderr", m is not None)
if m:
    rows = re.findall(r"^  (.+?)\s+([0-9.]+) s\s+([0-9.]+) %$", text[m.end():].split("GPU workers' time")[0], re.M)
    shown = sum(float(v) for _, v, _ in rows)
    check("the table's rows (%.3f) add up to its total (%s)" % (shown, m.group(1)),
          abs(shown - float(m.group(1))) <= 0.0005 * (len(rows) + 1))
    check("the table has an 'other' row", any(label.strip() == "other" for label, _, _ in rows))
# the GPU workers' time by kind
w = s.get("gpu_work")
check("summary.gpu_work present", isinstance(w, dict))
w = w or {}
kinds = ["reference", "arguments", "poison", "load", "reset", "check", "compare", "warmup", "samples", "energy", "other"]
work = sum(w.get(k) or 0 for k in kinds)
check("the GPU work's kinds (%.4f) add up to the summary's GPU time (%.4f)" % (work, s["gpu_seconds"]),
      abs(work - s["gpu_seconds"]) <= 0.001 + 0.001 * s["gpu_seconds"])
timing = (w.get("warmup") or 0) + (w.get("samples") or 0)
check("warm-ups and samples (%.4f) are the timing (%.4f)" % (timing, s["timing_seconds"]),
      abs(timing - s["timing_seconds"]) <= 0.001 + 0.01 * s["timing_seconds"])
for k in ("load", "check", "compare", "poison"):
    check("some GPU time in %s (%s)" % (k, w.get(k)), (w.get(k) or 0) > 0)
if d["settings"].get("flush_l2"):
    check("the L2 flushes measured (%s)" % w.get("flush"), (w.get("flush") or 0) > 0)
for f in fails:
    print("FAIL: %s: %s" % (name, f))
print("%s: phases %s; gpu_work %s" % (name, json.dumps(ph), json.dumps(w)))
sys.exit(1 if fails else 0)
PY
}
run race "$src/test/gpu/race.tune" --jobs 1
run sweep "$src/examples/sweep.tune" --limit 24
[ $status -eq 0 ] && echo "ok: the phases add up to the wall, the GPU work to the GPU time"
exit $status
