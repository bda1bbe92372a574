#!/usr/bin/env bash
# nvrtc_headers.sh CUTUNE SOURCE_DIR BUILD_DIR - what NVRTC is given besides the kernel: CCCL on
# its include path (CUDA 13 keeps CUB and Thrust under include/cccl), and the
# compiler's own error for every failed variant (ptxas's "too much shared data" too,
# which NVRTC's log under --ptxas-options=-v leaves out). No GPU needed. Run by ctest.
set -u
cutune=$1
. "$(dirname "$0")/lib.sh.inc"
cli_tmp
unset CUTUNE_CCCL_INCLUDE

# A block reduction through cub::BlockReduce: the focused header compiles under NVRTC.
cat >"$tmp/bsum.cu" <<'CU'
#include <cub/block/block_reduce.cuh>
template <int BLOCK>
__global__ void bsum(const float *src, float *out)
{
    typedef cub::BlockReduce<float, BLOCK> Reduce;
    __shared__ typename Reduce::TempStorage tmp;
    float s = Reduce(tmp).Sum(src[blockIdx.x * BLOCK + threadIdx.x]);
    if (threadIdx.x == 0)
        out[blockIdx.x] = s;
}
CU
cat >"$tmp/bsum.tune" <<'TUNE'
kernel bsum<BLOCK> from "bsum.cu" {
    param BLOCK in [128, 256] as template;
    let n = 1 << 16;
    block BLOCK;
    grid n // BLOCK;
    arg src : in float[n] = random(seed = 1);
    arg res : out float[n // 128];
}
TUNE
"$cutune" analyze --color never --format csv "$tmp/bsum.tune" >"$tmp/bsum.csv" 2>"$tmp/bsum.err"
check "a kernel using cub::BlockReduce analyzes (exit 0)" test $? -eq 0
check "... and both its variants compile" python3 -c "
import csv,sys
rows=list(csv.DictReader(open('$tmp/bsum.csv')))
sys.exit(0 if len(rows)==2 and all(r['compiled']=='1' for r in rows) else 1)"
[ $fails -eq 0 ] || cat "$tmp/bsum.err" "$tmp/bsum.csv"

# CUTUNE_CCCL_INCLUDE set empty takes CCCL off the path (only where the toolkit keeps
# it apart, as CUDA 13 does); set to a folder, that folder is searched instead.
cuda_include=$(sed -n 's/^CUDAToolkit_INCLUDE_DIR:[A-Z]*=//p' "${3:-.}/CMakeCache.txt" 2>/dev/null)
if [ -d "$cuda_include/cccl/cub" ]; then
    CUTUNE_CCCL_INCLUDE= "$cutune" analyze --color never "$tmp/bsum.tune" >"$tmp/off.out" 2>"$tmp/off.err"
    check "without CCCL, the include is not found" grep -q 'cannot open source file "cub/block/block_reduce.cuh"' "$tmp/off.out" "$tmp/off.err"
fi
mkdir -p "$tmp/mycccl/cub/block"
printf '#error this is my own CUB\n' >"$tmp/mycccl/cub/block/block_reduce.cuh"
CUTUNE_CCCL_INCLUDE=$tmp/mycccl "$cutune" analyze --color never "$tmp/bsum.tune" >"$tmp/mine.out" 2>"$tmp/mine.err"
check "CUTUNE_CCCL_INCLUDE=DIR is searched for CCCL" grep -q 'this is my own CUB' "$tmp/mine.out" "$tmp/mine.err"

# cub/cub.cuh as a whole does not compile under NVRTC (its device-wide algorithms are
# host code): the variant fails with the compiler's message, not an empty reason.
cat >"$tmp/whole.cu" <<'CU'
#include <cub/cub.cuh>
extern "C" __global__ void whole(float *x) { x[threadIdx.x] = 0; }
CU
cat >"$tmp/whole.tune" <<'TUNE'
kernel whole from "whole.cu" {
    block 128;
    grid 1;
    arg x : out float[128];
}
TUNE
"$cutune" analyze --color never "$tmp/whole.tune" >"$tmp/whole.out" 2>"$tmp/whole.err"
check "cub/cub.cuh: the failure names the compiler's error" grep -q 'COMPILE ERROR: .*error' "$tmp/whole.out"

# Static shared memory over 48 KiB and over 227 KiB: ptxas refuses, and says so.
cat >"$tmp/big.cu" <<'CU'
extern "C" __global__ void big(float *x)
{
    __shared__ float buf[SIZE];
    buf[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = buf[(threadIdx.x + 1) % SIZE];
}
CU
cat >"$tmp/big.tune" <<'TUNE'
kernel big from "big.cu" {
    param SIZE in [1024, 16384, 65536];
    block 128;
    grid 1;
    arg x : inout float[128] = zeros;
}
TUNE
"$cutune" analyze --color never "$tmp/big.tune" >"$tmp/big.out" 2>"$tmp/big.err"
check "too much shared data: analyze exits 0" test $? -eq 0
check "... the 64 KiB variant says why it failed" grep -q '^ *1 .*COMPILE ERROR: .*uses too much shared data' "$tmp/big.out"
check "... the 256 KiB variant says why it failed" grep -q '^ *2 .*COMPILE ERROR: .*uses too much shared data' "$tmp/big.out"
check "... and the log printed below the table holds the error" grep -q "ptxas error *: Entry function 'big' uses too much shared data" "$tmp/big.err"
"$cutune" analyze --color never --format json "$tmp/big.tune" >"$tmp/big.json" 2>/dev/null
check "... and so does every failed variant's log in JSON" python3 -c "
import json,sys
d=json.load(open('$tmp/big.json'))
bad=[v for v in d if not v['compiled']]
sys.exit(0 if len(bad)==2 and all('too much shared data' in v['log'] for v in bad) else 1)"
finish
