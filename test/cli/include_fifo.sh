#!/usr/bin/env bash
# include_fifo.sh CUTUNE SOURCE_DIR - what the compiler is given to read: every file a
# kernel's #include lines reach in the user's folders is read by cutune (regular files
# only) and handed to NVRTC in memory. A FIFO among them fails each variant at once
# with its name (it used to hold every compile worker until the 300 s compile
# deadline); headers still reach the cache key; toolkit headers still compile. No GPU.
set -u
cutune=$1
. "$(dirname "$0")/lib.sh.inc"
cli_tmp
mkdir -p "$tmp/inc"
mkfifo "$tmp/inc/pipe.h"
cat >"$tmp/k.cu" <<'CU'
#include "inc/pipe.h"
extern "C" __global__ void k(float *x) { x[threadIdx.x] = 1; }
CU
cat >"$tmp/k.tune" <<'TUNE'
kernel k from "k.cu" {
    param threads in [64, 128] as none;
    param U in [1, 2];
    block threads;
    grid 1;
}
TUNE
for cache in "" --no-cache; do
    start=$(date +%s)
    timeout 60 "$cutune" analyze $cache --color never "$tmp/k.tune" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    took=$(($(date +%s) - start))
    check "a FIFO include ${cache:-(cache on)}: analyze ends on its own (exit $rc, not timeout's 124)" test $rc -ne 124
    check "... quickly (${took} s)" test "$took" -lt 30
    check "... and fails (nothing compiled)" test $rc -ne 0
    check "... every variant names the FIFO" test "$(grep -c "COMPILE ERROR: cannot read '$tmp/inc/pipe.h' (included by '$tmp/k.cu'): not a regular file" "$tmp/out")" -eq 4
done

# Headers still reach the cache key: a second run compiles nothing, an edited header
# compiles again. And a toolkit header (cuda_fp16.h) through a user header compiles.
cat >"$tmp/inc/v.h" <<'H'
#include <cuda_fp16.h>
#define V 1.0f
H
cat >"$tmp/k.cu" <<'CU'
#include "inc/v.h"
extern "C" __global__ void k(float *x) { x[threadIdx.x] = __half2float(__float2half(V * U)); }
CU
"$cutune" analyze "$tmp/k.tune" >"$tmp/out" 2>"$tmp/err"
check "headers in memory: analyze exits 0" test $? -eq 0
check "... 2 compiled" grep -q ': 2 compiled' "$tmp/err"
"$cutune" analyze "$tmp/k.tune" >"$tmp/out" 2>"$tmp/err"
check "a second run is served by the cache" grep -q ': 0 compiled .* 2 from the cache' "$tmp/err"
sed -i 's/1.0f/2.0f/' "$tmp/inc/v.h"
"$cutune" analyze "$tmp/k.tune" >"$tmp/out" 2>"$tmp/err"
check "an edited header compiles again" grep -q ': 2 compiled' "$tmp/err"
finish
