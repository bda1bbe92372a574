#!/usr/bin/env bash
# run.sh [BIN_DIR] [RUNS] - fuzzes every target (docs/fuzzing.md) with one worker per
# core, each worker RUNS inputs (default 650,000) of up to 1 MB, from copies of the
# committed corpora and past findings. Prints each target's executions (summed over the
# workers), time and findings; findings are left in ./art/, the grown corpora in
# ./c-TARGET, logs in ./logs-TARGET. BIN_DIR holds the fuzz_* programs (default
# build-fuzz); a target whose program is not there is named and skipped. Run from any
# folder. With FUZZ_SECONDS set, each target also stops after that many seconds
# (libFuzzer's -max_total_time), whichever comes first; with FUZZ_TARGETS set (names
# separated by spaces), only those targets run. The targets, and the corpus folders (under test/fuzz/) each starts from:
#   fuzz_spec     corpus regressions
#   fuzz_files    corpus-files regressions-files
#   fuzz_header   corpus-header regressions-header
#   fuzz_merge    corpus-merge regressions-merge
#   fuzz_journal  corpus-journal regressions-journal
#   fuzz_report   corpus-report regressions-report
#   fuzz_npy      corpus-npy regressions-npy
#   fuzz_kt       corpus-kt regressions-kt
#   fuzz_t1       corpus-t1 regressions-t1
# A target with a dictionary test/fuzz/NAME.dict (NAME without fuzz_) is given it.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
bin=$(cd "${1:-build-fuzz}" && pwd)
runs=${2:-650000}
time_limit=()
[ -n "${FUZZ_SECONDS:-}" ] && time_limit=(-max_total_time="$FUZZ_SECONDS")
jobs=$(nproc)
mkdir -p art
run() { # TARGET CORPUS-FOLDER...
    local t=$1 c="c-$1" d t0 execs dict=()
    shift
    [ -f "$src/test/fuzz/${t#fuzz_}.dict" ] && dict=(-dict="$src/test/fuzz/${t#fuzz_}.dict")
    [ -z "${FUZZ_TARGETS:-}" ] || [[ " $FUZZ_TARGETS " == *" $t "* ]] || return 0
    [ -x "$bin/$t" ] || { echo "$t: not built, skipped"; return; }
    mkdir -p "$c" "logs-$t"
    for d in "$@"; do
        [ -d "$src/test/fuzz/$d" ] && find "$src/test/fuzz/$d" -maxdepth 1 -type f -exec cp {} "$c/" \;
    done
    t0=$(date +%s)
    (cd "logs-$t" && "$bin/$t" -jobs="$jobs" -workers="$jobs" -runs="$runs" -max_len=1048576 -timeout=10 \
        -rss_limit_mb=4096 -print_final_stats=1 "${time_limit[@]}" "${dict[@]}" -artifact_prefix="$PWD/../art/$t-" "../$c" >/dev/null 2>&1)
    execs=$(cat "logs-$t"/fuzz-*.log | awk '/stat::number_of_executed_units/ {s += $2} END {print s + 0}')
    echo "$t: $jobs jobs x $runs runs: executed $execs in $(($(date +%s) - t0)) s; corpus $(ls "$c" | wc -l) files"
}
run fuzz_spec corpus regressions
run fuzz_files corpus-files regressions-files
run fuzz_header corpus-header regressions-header
run fuzz_merge corpus-merge regressions-merge
run fuzz_journal corpus-journal regressions-journal
run fuzz_report corpus-report regressions-report
run fuzz_npy corpus-npy regressions-npy
run fuzz_kt corpus-kt regressions-kt
run fuzz_t1 corpus-t1 regressions-t1
echo "findings: $(ls art | wc -l)"
ls art
grep -h -E "ERROR|SUMMARY|runtime error" logs-*/fuzz-*.log | sort | uniq -c | head -20
