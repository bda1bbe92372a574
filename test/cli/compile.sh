#!/usr/bin/env bash
# compile.sh CUTUNE SOURCE_DIR - analyze and occupancy from the command line, and the
# cache under two concurrent runs. No GPU needed. Run by ctest.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
cli_tmp
spec=$src/examples/sweep.tune

# Two runs at once on an empty cache: both succeed, and then nothing is left to compile.
"$cutune" analyze --format csv "$spec" >"$tmp/a.csv" 2>"$tmp/a.err" &
"$cutune" analyze --format csv "$spec" >"$tmp/b.csv" 2>"$tmp/b.err" &
wait %1; ra=$?
wait %2; rb=$?
check "concurrent run 1 exits 0" test $ra -eq 0
check "concurrent run 2 exits 0" test $rb -eq 0
# (all but the last three columns: compile time, cached, duplicate depend on who won)
check "concurrent runs agree" cmp -s <(rev "$tmp/a.csv" | cut -d, -f4- | rev) <(rev "$tmp/b.csv" | cut -d, -f4- | rev)
check "no temporary files left in the cache" test -z "$(find "$tmp/cache" -name '*.tmp.*')"
"$cutune" analyze --format json "$spec" >"$tmp/c.json" 2>"$tmp/c.err"
check "third run exits 0" test $? -eq 0
check "third run compiles nothing" grep -q ': 0 compiled' "$tmp/c.err"
check "analyze json has every variant with resources and occupancy" python3 -c "
import json,sys
d=json.load(open('$tmp/c.json'))
ok=len(d)==312 and all(v['compiled'] and v['registers']>0 and 'occupancy' in v for v in d)
# 32 threads per block: 32 block slots x 1 warp of 64 warps = 50%; 1024 threads: 2 blocks.
ok=ok and all(v['occupancy']['occupancy']==0.5 for v in d if v['block'][0]*v['block'][1]==32)
ok=ok and all(v['occupancy']['blocks_per_sm']==2 for v in d if v['block'][0]*v['block'][1]==1024)
sys.exit(0 if ok else 1)"
check "the register cap reaches the compiler" python3 -c "
import csv,sys
rows=list(csv.DictReader(open('$tmp/a.csv')))
sys.exit(0 if len(rows)==312 and all(int(r['registers'])<=32 for r in rows if r['maxrreg']=='32') else 1)"

# A variant that cannot launch is flagged before anything runs; a failing one is shown.
mkdir -p "$tmp/k"
cat >"$tmp/k/k.cu" <<'CU'
extern "C" __global__ void k(float *x)
{
#if BROKEN
    this does not compile;
#endif
    extern __shared__ float s[];
    s[threadIdx.x] = x[threadIdx.x];
    x[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}
CU
cat >"$tmp/k/k.tune" <<'TUNE'
kernel k from "k.cu" {
    param threads in [256, 2048] as none;
    param kb in [1, 300] as none;
    param BROKEN in [0, 1];
    block threads;
    grid 1;
    smem kb * 1024;
}
TUNE
"$cutune" analyze --color never "$tmp/k/k.tune" >"$tmp/k.out" 2>"$tmp/k.err"
check "analyze goes on past a compile failure (exit 0)" test $? -eq 0
check "a compile failure is shown with its first error" grep -q 'COMPILE ERROR: .*error' "$tmp/k.out"
check "2048 threads cannot launch" grep -q '2048 .*CANNOT LAUNCH: more threads per block' "$tmp/k.out"
check "300 KB of shared memory cannot launch" grep -q 'CANNOT LAUNCH: more shared memory per block' "$tmp/k.out"
check "the summary counts failures and unlaunchable variants" grep -q '4 failed to compile, 3 cannot launch' "$tmp/k.err"
check "the compiler's log is printed" grep -q "the compiler's log for variant 1" "$tmp/k.err"
"$cutune" analyze --arch sm_61 "$spec" >/dev/null 2>"$tmp/e"
check "an architecture NVRTC cannot target is an error" test $? -ne 0
check "... that says so" grep -q "cannot compile for 'sm_61'" "$tmp/e"

# occupancy: the seed's table (CC 6.1, 39 registers) and the JSON keys.
"$cutune" occupancy --arch sm_61 --regs 39 --threads 768 >"$tmp/o"
check "occupancy text" grep -q 'occupancy       75.0%' "$tmp/o"
"$cutune" occupancy --arch 9.0 --regs 32 --threads 256 --smem 49152 --format json >"$tmp/o.json"
check "occupancy json" python3 -c "
import json,sys
d=json.load(open('$tmp/o.json'))
ok=d['blocks_per_sm']==4 and d['active_warps']==32 and d['max_warps']==64 and d['occupancy']==0.5
ok=ok and d['limiter']=='shared memory'
sys.exit(0 if ok else 1)"
"$cutune" occupancy --arch sm_99 --regs 32 --threads 256 >/dev/null 2>"$tmp/e"
check "unknown architecture is a usage error" test $? -eq 2
check "... naming the known ones" grep -q 'known: sm_61' "$tmp/e"
"$cutune" occupancy --regs 32 --threads 256 >/dev/null 2>&1
check "occupancy needs --arch or --device" test $? -eq 2
if ! "$cutune" occupancy --device 0 --regs 32 --threads 256 >/dev/null 2>"$tmp/e"; then
    check "--device without a GPU exits 4" test "$(
        "$cutune" occupancy --device 0 --regs 32 --threads 256 >/dev/null 2>&1
        echo $?
    )" -eq 4
    check "--device without a GPU says why" grep -qi 'driver\|device' "$tmp/e"
fi

# Ctrl-C: the variants under way finish, the summary says what was covered, exit 130.
"$cutune" analyze --no-cache --jobs 1 "$src/examples/reduce.tune" >"$tmp/i.out" 2>"$tmp/i.err" &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid
check "an interrupted analysis exits 130" test $? -eq 130
check "... and says what it covered" grep -q 'interrupted: the table covers the first' "$tmp/i.err"
check "... after printing the rows it finished" test "$(wc -l <"$tmp/i.out")" -gt 1

# The main command without a GPU (every GPU hidden): compiles, then says it did not time anything.
CUDA_VISIBLE_DEVICES=-1 "$cutune" "$spec" >"$tmp/t.out" 2>"$tmp/t.err"
check "cutune SPEC without a GPU exits 4 (not tuned)" test $? -eq 4
check "cutune SPEC compiled the variants" grep -q '312 variants for sm_' "$tmp/t.err"
check "cutune SPEC says plainly it did not tune" grep -q 'NOT TUNED' "$tmp/t.err"

finish
