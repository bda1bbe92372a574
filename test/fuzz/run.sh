#!/usr/bin/env bash
# run.sh [BIN_DIR] [SPEC_RUNS] [FILES_RUNS] [MERGE_RUNS] [JOURNAL_RUNS] - fuzzes the
# targets (docs/fuzzing.md) with one worker per core, each worker SPEC_RUNS (default
# 650,000), FILES_RUNS (default 400,000), MERGE_RUNS and JOURNAL_RUNS (default 650,000)
# inputs of up to 1 MB, from copies of the committed corpora. Prints each target's
# executions (summed over the workers), time and findings; findings are left in ./art/,
# the grown corpora in ./c1 (spec), ./c2 (files), ./c3 (merge), ./c4 (journal), logs in
# ./logs-*. BIN_DIR holds the fuzz_* programs (default build-fuzz); a target whose
# program is not there is skipped. Run from any folder.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "${1:-build-fuzz}" && pwd)
jobs=$(nproc)
mkdir -p c1 c2 c3 c4 art
cp "$src"/test/fuzz/corpus/* c1/
cp "$src"/test/fuzz/corpus-files/* c2/
cp "$src"/test/fuzz/corpus-merge/* "$src"/test/fuzz/regressions-merge/* c3/
cp "$src"/test/fuzz/corpus-journal/* "$src"/test/fuzz/regressions-journal/* c4/
run() { # TARGET CORPUS RUNS_PER_JOB
    local t=$1 c=$2 r=$3 t0 execs
    [ -x "$bin/$t" ] || { echo "$t: not built, skipped"; return; }
    t0=$(date +%s)
    mkdir -p "logs-$t"
    (cd "logs-$t" && "$bin/$t" -jobs="$jobs" -workers="$jobs" -runs="$r" -max_len=1048576 -timeout=10 \
        -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$PWD/../art/$t-" "../$c" >/dev/null 2>&1)
    execs=$(cat "logs-$t"/fuzz-*.log | awk '/stat::number_of_executed_units/ {s += $2} END {print s + 0}')
    echo "$t: $jobs jobs x $r runs: executed $execs in $(($(date +%s) - t0)) s; corpus $(ls "$c" | wc -l) files"
}
run fuzz_spec c1 "${2:-650000}"
run fuzz_files c2 "${3:-400000}"
run fuzz_merge c3 "${4:-650000}"
run fuzz_journal c4 "${5:-650000}"
echo "findings: $(ls art | wc -l)"
ls art
grep -h -E "ERROR|SUMMARY|runtime error" logs-*/fuzz-*.log | sort | uniq -c | head -20
