#!/usr/bin/env bash
# kernel.sh BUILD_DIR SOURCE_DIR CMAKE GENERATOR - cutune_add_tuning(KERNEL NAME) with a
# spec file of several kernel blocks, no GPU (every GPU hidden): a C project (no CUDA
# needed) makes one header per block from the same spec, each with only its kernel's
# section (the spec's default configuration), and a block over problem sizes gets its
# look-up by size. Run by ctest.
set -u
bindir=$1
src=$2
. "$src/test/cli/lib.sh.inc"
. "$src/test/cmake/tools.sh.inc"
resolve_cmake "$3"
gen=$(generator_for "$4")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CUTUNE_CACHE_DIR=$tmp/cache CUDA_VISIBLE_DEVICES=-1
unset CUTUNE_MODE
"$cmake" --install "$bindir" --prefix "$tmp/prefix" >"$tmp/log" 2>&1 || { cat "$tmp/log"; echo "FAIL: install"; exit 1; }
mkdir -p "$tmp/src"
printf '__global__ void a(float *x) {}\n' >"$tmp/src/a.cu"
printf '__global__ void b(float *x, int n) {}\n' >"$tmp/src/b.cu"
cat >"$tmp/src/lib.tune" <<'TUNE'
kernel a from "a.cu" {
    param bx in [64, 128] as none default 128;
    block bx;
    grid 4;
}
kernel b from "b.cu" {
    size n in [1024, 1 << 20];
    param t in [32, 256] as none default 32;
    block t;
    grid cdiv(n, t);
}
TUNE
cat >"$tmp/src/main.c" <<'C'
#include <stdio.h>
#include "a_tuned.h"
#include "b_tuned.h"
int main(void)
{
    const B_config *c = B_lookup_size(NULL, 0, 3000);
    printf("a block %d; b at 3000: entry of n = %lld, grid %lld\n", (int)A_BLOCK_DIM_X, c->size.n,
           B_config_grid_dim_x(c, 3000));
    return 0;
}
C
cat >"$tmp/src/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(kernels LANGUAGES C)
find_package(cutune REQUIRED)
add_executable(app main.c)
cutune_add_tuning(TARGET app SPEC lib.tune HEADER a_tuned.h KERNEL a)
cutune_add_tuning(TARGET app SPEC lib.tune HEADER b_tuned.h KERNEL b)
CM
b=$tmp/build
"$cmake" -S "$tmp/src" -B "$b" -G "$gen" -DCMAKE_PREFIX_PATH="$tmp/prefix" >"$tmp/configure.log" 2>&1
check "configure" test $? -eq 0 || cat "$tmp/configure.log"
"$cmake" --build "$b" >"$tmp/out" 2>&1; check "build" test $? -eq 0 || cat "$tmp/out"
check "a's header: only kernel a" bash -c "grep -q '^#define A_TUNED 0' '$b/a_tuned.h' && ! grep -q 'B_TUNED' '$b/a_tuned.h'"
check "b's header: only kernel b, with the look-up by size" \
    bash -c "grep -q '^#define B_ENTRY_COUNT 2' '$b/b_tuned.h' && ! grep -q 'A_TUNED' '$b/b_tuned.h'"
"$b/app" >"$tmp/run"; check "the app runs" test $? -eq 0
# 3000 is nearer 1024 (ratio 2.9) than 2^20 (ratio 350): grid cdiv(3000, 32) = 94
check "the app: b's entry for 3000 is n = 1024's" grep -q "a block 128; b at 3000: entry of n = 1024, grid 94" "$tmp/run"
cat >>"$tmp/src/CMakeLists.txt" <<'CM'
cutune_add_tuning(TARGET app SPEC lib.tune HEADER c_tuned.h KERNEL c)
CM
"$cmake" -S "$tmp/src" -B "$b" >"$tmp/configure2.log" 2>&1; check "KERNEL c (no such block): configure fails" test $? -ne 0
check "... naming the kernels" grep -q "no kernel block named 'c' (its blocks: a, b)" "$tmp/configure2.log"
sed -i '/HEADER c_tuned.h/d' "$tmp/src/CMakeLists.txt"
cat >>"$tmp/src/CMakeLists.txt" <<'CM'
cutune_add_tuning(TARGET app SPEC lib.tune HEADER ab_tuned.h)
CM
"$cmake" -S "$tmp/src" -B "$b" >"$tmp/configure3.log" 2>&1; check "no KERNEL with two blocks: configure fails" test $? -ne 0
check "... saying to name one with KERNEL" grep -q "KERNEL" "$tmp/configure3.log"
check "... not that the spec does not load" bash -c "! grep -q 'does not load' '$tmp/configure3.log'"
finish
