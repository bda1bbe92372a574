#!/usr/bin/env bash
# metrics.sh CUTUNE SOURCE_DIR - hardware counters without a GPU: `cutune metrics` (the default set
# beside nvprof's names, a chip's list through CUPTI's host API) and the checks of
# --metric/--metrics before a run (a typo, a SASS-patched metric, a bad count: usage
# errors, exit 2). Skipped (77) when CUPTI cannot be loaded here.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$cutune" metrics warps_active -q >"$tmp/list" 2>"$tmp/err"
rc=$?
if [ $rc -eq 4 ]; then
    echo "SKIP: CUPTI cannot be loaded here: $(cat "$tmp/err")"
    exit 77
fi
check "a pattern lists the chip's metrics containing it" grep -qE '^counter +sm__warps_active$' "$tmp/list"
check "every listed metric contains the pattern" bash -c '! grep -v warps_active "$1"' _ "$tmp/list"

"$cutune" metrics >"$tmp/defaults"; check "the default set: exit 0" test $? -eq 0
check "achieved occupancy is in the default set" \
    grep -qE '^achieved_occupancy +sm__warps_active\.avg\.pct_of_peak_sustained_active$' "$tmp/defaults"
check "warp execution efficiency is in the default set" \
    grep -qE '^warp_execution_efficiency +smsp__thread_inst_executed_per_inst_executed\.ratio$' "$tmp/defaults"
check "no SASS-patched metric in the default set" bash -c '! grep -q __sass_ "$1"' _ "$tmp/defaults"
# Every default counter's base metric is one CUPTI lists for GH100 (its own list, not ours).
"$cutune" metrics --all --arch sm_90 -q >"$tmp/all" 2>/dev/null
check "--all lists thousands of GH100 metrics" test "$(wc -l <"$tmp/all")" -gt 1000
"$cutune" metrics -q | awk '{print $2}' | while read -r name; do
    base=${name%%.*}
    grep -qE " $base\$" "$tmp/all" || echo "missing: $base"
done >"$tmp/missing"
check "every default counter's base metric is in CUPTI's list" test ! -s "$tmp/missing"
cat "$tmp/missing"

"$cutune" metrics no_such_metric_anywhere >/dev/null 2>&1; check "a pattern that matches nothing: exit 2" test $? -eq 2
"$cutune" metrics --arch sm_1 >/dev/null 2>&1; check "an unknown architecture: exit 2" test $? -eq 2
"$cutune" metrics a b >/dev/null 2>&1; check "two patterns: exit 2" test $? -eq 2

spec=$src/examples/sweep.tune
"$cutune" "$spec" --metric sm__warps_activ.avg.pct_of_peak_sustained_active -q >"$tmp/out" 2>"$tmp/err"
check "a mistyped --metric is a usage error before anything runs" test $? -eq 2
check "... naming it" grep -q "'sm__warps_activ.avg.pct_of_peak_sustained_active' is not a metric of GH100" "$tmp/err"
"$cutune" "$spec" --metric smsp__sass_average_branch_targets_threads_uniform.pct -q >/dev/null 2>"$tmp/err"
check "a SASS-patched metric is refused (exit 2)" test $? -eq 2
check "... saying why" grep -q "SASS-patched" "$tmp/err"
"$cutune" "$spec" --metrics 0 -q >/dev/null 2>&1; check "--metrics 0: exit 2" test $? -eq 2
"$cutune" "$spec" --metrics some -q >/dev/null 2>&1; check "--metrics some: exit 2" test $? -eq 2
# Valid names pass the check; without a GPU the run then says what needs one (exit 4).
CUDA_VISIBLE_DEVICES=-1 "$cutune" "$spec" --metric default --metric dram__bytes_read.sum --metrics 2 --limit 2 -q \
    >/dev/null 2>"$tmp/err"
check "valid names, no GPU: exit 4 (not tuned)" test $? -eq 4
check "... and no complaint about the names" bash -c '! grep -q -- "--metric" "$1"' _ "$tmp/err"
finish
