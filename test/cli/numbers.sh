#!/usr/bin/env bash
# numbers.sh CUTUNE SOURCE_DIR - every numeric option, and the environment numbers the
# CLI and the compile pool read, refuse what is not a number in their range (docs/cli.md,
# "Numbers"): garbage, negative, past 2^64, inf, nan, blanks, hex are usage errors (2)
# naming the option, never saturated or wrapped (before: --seed 2^64 ran with the seed
# 2^64 - 1 and the JSON said -1; --timeout inf and --prune inf were taken; --top 2^32
# wrapped). The limits themselves are taken.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
cli_tmp
spec=$src/examples/sweep.tune
rec=$src/test/data/report-sum_matrix-h100.json

# refused CMD OPTION VALUE...: `cutune CMD ... OPTION VALUE` exits 2 naming OPTION, each VALUE.
refused() {
    local cmd=$1 opt=$2
    shift 2
    local v
    for v in "$@"; do
        case $cmd in
        tune | analyze | list) "$cutune" "$cmd" "$spec" "$opt" "$v" -q >"$tmp/out" 2>"$tmp/err" ;;
        simulate) "$cutune" simulate "$spec" --results "$rec" "$opt" "$v" >"$tmp/out" 2>"$tmp/err" ;;
        occupancy) "$cutune" occupancy --arch sm_90 --regs 32 --threads 256 "$opt" "$v" >"$tmp/out" 2>"$tmp/err" ;;
        esac
        local rc=$?
        check "$cmd $opt '$v': exit 2 (not $rc)" test $rc -eq 2
        check "$cmd $opt '$v': the option named" grep -q -- "$opt" "$tmp/err"
    done
}
big=18446744073709551616 # 2^64
bad_counts=(x 5x -1 "$big" 99999999999999999999999 inf nan " 5" 0x10 "" 1.5)
refused tune --limit "${bad_counts[@]}" 9223372036854775808
refused analyze --limit "${bad_counts[@]}"
refused list --limit "${bad_counts[@]}"
refused tune --seed "${bad_counts[@]}" 9223372036854775808
refused simulate --seed "${bad_counts[@]}" 9223372036854775808
refused simulate --patience "${bad_counts[@]}" 0 9223372036854775808
refused simulate --budget "${bad_counts[@]}" 0 9223372036854775808 inf% nan% -5% 0% 101% 1e400%
refused tune --budget "$big" inf% nan%
refused simulate --repeat "${bad_counts[@]}" 0 100001
refused simulate --time-budget x -1 0 inf nan 1e400 1e306h 5days " 5" 0x10 -inf
refused tune --time-budget inf nan 1e400
refused tune --timeout x -1 0 inf nan 1e400 1000001 0x10 " 5" -inf
refused tune --prune x 1 0.5 -2 inf nan -inf 1e400 0x10
refused tune --top x -1 "$big" 2147483648 inf nan 1.5
refused tune --device x -1 "$big" 4097 inf nan " 0"
refused tune --devices x -1 "0,$big" 4097 inf nan "0,,1" "0," ",0" "0, 1"
refused tune --metrics x -1 0 "$big" 1000001 inf nan
refused tune --jobs x -1 "$big" 257 inf nan " 4"
refused analyze --jobs x -1 "$big" inf nan
refused tune --shard x "-1/2" "1/$big" "$big/2" "inf/2" "1/nan" "1/2x" " 1/2" "1/ 2" "0x1/2"
refused occupancy --regs x -1 256 "$big" inf nan
refused occupancy --threads x 0 -1 1048577 "$big" inf nan
refused occupancy --smem x -1 1099511627777 "$big" inf nan
refused occupancy --device x -1 "$big" 4097 inf nan

# The limits are taken, and reported as given (the JSON seed is the seed).
"$cutune" simulate "$spec" --results "$rec" --seed 9223372036854775807 --budget 9223372036854775807 --format json \
    >"$tmp/sim.json" 2>"$tmp/err"
check "--seed 2^63-1 and --budget 2^63-1: taken (exit $?)" test $? -eq 0
check "... the JSON's seed is 2^63-1 (before: --seed 2^64 said -1)" python3 -c "import json,sys
d = json.load(open(sys.argv[1])); assert d['seed'] == 2**63 - 1, d['seed']" "$tmp/sim.json"
"$cutune" simulate "$spec" --results "$rec" --seed 9223372036854775807 --repeat 2 >/dev/null 2>"$tmp/err"
check "--seed 2^63-1 with --repeat 2 (seeds past 2^63-1): 2" test $? -eq 2
check "... said" grep -q -- "--seed 9223372036854775807 with --repeat 2" "$tmp/err"
"$cutune" list "$spec" --limit 9223372036854775807 >/dev/null 2>&1
check "list --limit 2^63-1: taken" test $? -eq 0
"$cutune" simulate "$spec" --results "$rec" --budget 2.5% --time-budget 1e3 --repeat 100000 --patience 1 -q >/dev/null 2>&1
check "--budget 2.5% --time-budget 1e3 --repeat 100000 --patience 1: taken" test $? -eq 0
"$cutune" occupancy --arch sm_90 --regs 255 --threads 1024 --smem 0 >/dev/null 2>&1
check "occupancy --regs 255 --threads 1024 --smem 0: taken" test $? -eq 0

# Environment numbers. CUTUNE_COMPILE_TIMEOUT that is not seconds above 0 and at most
# 10^6: refused with a warning naming it, the default kept, the run goes on.
for v in inf nan -5 0 1e400 5x 0x10 " 5" 1000001; do
    CUTUNE_COMPILE_TIMEOUT=$v "$cutune" analyze "$spec" --limit 1 >/dev/null 2>"$tmp/err"
    check "CUTUNE_COMPILE_TIMEOUT='$v': the run goes on (exit $?)" test $? -eq 0
    check "CUTUNE_COMPILE_TIMEOUT='$v': refused, said" grep -q "warning: CUTUNE_COMPILE_TIMEOUT='$v' is not a number of seconds" "$tmp/err"
done
CUTUNE_COMPILE_TIMEOUT=120.5 "$cutune" analyze "$spec" --limit 1 >/dev/null 2>"$tmp/err"
check "CUTUNE_COMPILE_TIMEOUT=120.5: taken, nothing said" bash -c '! grep -q CUTUNE_COMPILE_TIMEOUT "$1"' _ "$tmp/err"
# A launcher's rank or size that is not a number in range is no launcher's.
for v in "$big" inf nan -1 " 1" 1x; do
    env -u SLURM_PROCID -u PMI_RANK -u SLURM_ARRAY_TASK_ID OMPI_COMM_WORLD_RANK="$v" OMPI_COMM_WORLD_SIZE=2 \
        "$cutune" analyze "$spec" --shard auto >/dev/null 2>"$tmp/err"
    check "OMPI_COMM_WORLD_RANK='$v': not a launcher's, exit 2 ($?)" test $? -eq 2
done
env -u SLURM_PROCID -u PMI_RANK -u SLURM_ARRAY_TASK_ID OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE="$big" \
    "$cutune" analyze "$spec" --shard auto >/dev/null 2>&1
check "OMPI_COMM_WORLD_SIZE=2^64: not a launcher's, exit 2" test $? -eq 2
finish
