#!/usr/bin/env bash
# metrics.sh CUTUNE SOURCE_DIR - hardware counters on a GPU. Tunes
# test/gpu/metrics_sum.tune and metrics_div.tune with --metrics all: every variant that
# ran ok has every default counter, finite and plausible: achieved occupancy at most the
# theoretical (the model's, +2 points of noise) and above 0; DRAM and SM throughput
# 0..100 %; 4 sectors per load request for the coalesced 4-byte loads of the matrix add;
# threads per warp instruction 1..32, under 20 where every warp runs both branches
# (GRAN 1) and at least 30 where each runs one (GRAN 32); the profiled launch's own
# duration within 0.3x..3x the timed median. The counters are never part of the times
# (the summary says how long profiling took). A second run on the same journal reads
# them back instead of profiling again. With CUTUNE_CUPTI naming no library, the run
# still succeeds, with its times, and says why no counters were read. Exits 77 without
# a GPU.
set -u
cutune=$1
src=$2
. "$src/test/gpu/lib.sh.inc"
gpu_probe metrics
gpu_tmp
fail() { echo "FAIL: $*"; exit 1; }
for k in sum div; do
    "$cutune" --color never "$src/test/gpu/metrics_$k.tune" --metrics all --results "$tmp/$k.json" \
        >"$tmp/$k.out" 2>"$tmp/$k.err"
    rc=$?
    cat "$tmp/$k.out" "$tmp/$k.err"
    [ $rc -eq 0 ] || fail "cutune ($k) exited $rc"
    grep -q '^hardware counters' "$tmp/$k.out" || fail "no counters table ($k)"
    grep -q '^profiling: [0-9]* variants' "$tmp/$k.err" || fail "no profiling line ($k)"
done
python3 - "$tmp/sum.json" "$tmp/div.json" <<'PY' || fail "the checks above"
import json, math, sys
fails = []
def check(what, ok):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        fails.append(what)
OCC = "sm__warps_active.avg.pct_of_peak_sustained_active"
for path in sys.argv[1:]:
    d = json.load(open(path))
    prof = d["settings"].get("profile", {})
    names = prof.get("metrics", [])
    check("%s: settings.profile names the default counters (%d)" % (path, len(names)), len(names) == 8)
    ok = [r for r in d["results"] if r["status"] == "ok"]
    check("%s: summary.profiled = the variants that ran ok (%s of %d)" % (path, d["summary"].get("profiled"), len(ok)),
          d["summary"].get("profiled") == len(ok) and len(ok) > 0)
    for r in ok:
        tag = "%s %s" % (path.split("/")[-1], r["params"])
        hw = r.get("hw", {}).get("metrics")
        check(tag + " has counters", isinstance(hw, dict))
        if not isinstance(hw, dict):
            continue
        check(tag + " every counter finite", all(isinstance(hw.get(n), float) and math.isfinite(hw[n]) for n in names))
        theo = r["occupancy"]["theoretical"] * 100
        ach = hw[OCC]
        check(tag + " achieved occupancy %.1f%% in (0, theoretical %.1f%% + 2]" % (ach, theo), 0 < ach <= theo + 2)
        for n in ("dram__throughput.avg.pct_of_peak_sustained_elapsed", "sm__throughput.avg.pct_of_peak_sustained_elapsed"):
            check(tag + " %s in [0, 100] (%.1f)" % (n.split(".")[0], hw[n]), 0 <= hw[n] <= 100.5)
        w = hw["smsp__thread_inst_executed_per_inst_executed.ratio"]
        check(tag + " threads per warp instruction in [1, 32] (%.2f)" % w, 1 <= w <= 32.001)
        dur_ms = hw["gpu__time_duration.sum"] / 1e6
        med = r["time_ms"]["median"]
        check(tag + " profiled duration %.4f ms within 0.3x..3x the median %.4f ms" % (dur_ms, med),
              0.3 * med <= dur_ms <= 3 * med)
        req = hw["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]
        sec = hw["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]
        if "sum" in path:
            check(tag + " 4 sectors per load request (%.3f)" % (sec / req if req else float("nan")),
                  req > 0 and abs(sec / req - 4) < 0.01)
        else:
            gran = r["params"]["GRAN"]
            check(tag + " divergence shows: %.2f threads per instruction" % w, w < 20 if gran == 1 else w >= 30)
    check(path + ": profiling took a time of its own", d["summary"].get("profile_seconds", 0) > 0)
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
PY
# Resumed on the same journal: the counters are read back, not profiled again.
"$cutune" --color never "$src/test/gpu/metrics_div.tune" --metrics all --results "$tmp/div2.json" \
    --journal "$tmp/div.json.journal" >"$tmp/out2" 2>"$tmp/err2" || fail "the resumed run failed"
python3 - "$tmp/div.json" "$tmp/div2.json" <<'PY' || fail "the resumed counters differ"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
ha = {json.dumps(r["params"]): r["hw"] for r in a["results"] if "hw" in r}
hb = {json.dumps(r["params"]): r["hw"] for r in b["results"] if "hw" in r}
print("resumed:", b["summary"]["resumed"], "profiled:", b["summary"].get("profiled"))
assert ha == hb and ha, "the counters read back are the ones measured"
assert b["summary"]["resumed"] == len(b["results"]), "every variant resumed"
PY
# No CUPTI: the run succeeds with its times and says why there are no counters.
CUTUNE_CUPTI=/nonexistent/libcupti.so "$cutune" --color never "$src/test/gpu/metrics_div.tune" --metrics 1 \
    --fresh --results "$tmp/none.json" >"$tmp/out3" 2>"$tmp/err3"
rc=$?
cat "$tmp/err3"
[ $rc -eq 0 ] || fail "without CUPTI the run exited $rc"
grep -q 'no hardware counters were read: CUPTI (libcupti, part of the CUDA toolkit) was not found' "$tmp/err3" ||
    fail "without CUPTI: no plain message"
python3 - "$tmp/none.json" <<'PY' || fail "without CUPTI: the results"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["summary"]["best"] is not None, "a winner, from its times"
assert d["summary"]["profiled"] == 0
assert "not found" in (d["summary"]["profile_note"] or "")
best = d["results"][d["summary"]["best"]]
assert "not_measured" in best["hw"], best.get("hw")
PY
echo "metrics test passed"
