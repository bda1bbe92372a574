#!/usr/bin/env bash
# run.sh [BIN_DIR] [SPEC_RUNS] [FILES_RUNS] [REPORT_RUNS] - fuzzes the three targets
# (docs/fuzzing.md) with one worker per core, each worker SPEC_RUNS (default 650,000),
# FILES_RUNS (default 400,000) and REPORT_RUNS (default 650,000) inputs of up to 1 MB,
# from copies of the committed corpora. Prints each target's executions (summed over the
# workers), time and findings; findings are left in ./art/, the grown corpora in ./c1
# (spec), ./c2 (files) and ./c3 (report), logs in ./logs-*. BIN_DIR holds fuzz_spec,
# fuzz_files and fuzz_report (default build-fuzz). Run from any folder.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "${1:-build-fuzz}" && pwd)
jobs=$(nproc)
mkdir -p c1 c2 c3 art
cp "$src"/test/fuzz/corpus/* c1/
cp "$src"/test/fuzz/corpus-files/* c2/
cp "$src"/test/fuzz/corpus-report/* c3/
run() { # TARGET CORPUS RUNS_PER_JOB
    local t=$1 c=$2 r=$3 t0 execs
    t0=$(date +%s)
    mkdir -p "logs-$t"
    (cd "logs-$t" && "$bin/$t" -jobs="$jobs" -workers="$jobs" -runs="$r" -max_len=1048576 -timeout=10 \
        -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$PWD/../art/$t-" "../$c" >/dev/null 2>&1)
    execs=$(cat "logs-$t"/fuzz-*.log | awk '/stat::number_of_executed_units/ {s += $2} END {print s + 0}')
    echo "$t: $jobs jobs x $r runs: executed $execs in $(($(date +%s) - t0)) s; corpus $(ls "$c" | wc -l) files"
}
run fuzz_spec c1 "${2:-650000}"
run fuzz_files c2 "${3:-400000}"
run fuzz_report c3 "${4:-650000}"
echo "findings: $(ls art | wc -l)"
ls art
grep -h -E "ERROR|SUMMARY|runtime error" logs-*/fuzz-*.log | sort | uniq -c | head -20
