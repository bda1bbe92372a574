#!/usr/bin/env bash
# constants.sh CUTUNE SOURCE_DIR - `cutune check` compares the __constant__ data a
# kernel's source declares (its file and the headers it includes, scanned as text) with
# the spec's constant arguments: a declared variable that no argument fills and that has
# no initialiser is a warning naming the file and line (on a GPU it would silently stay
# zero); an argument whose symbol is declared nowhere is a warning at the argument.
# Filled, initialised and commented-out declarations say nothing. Warnings only: exit 0.
set -u
cutune=$1
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/inc"
cat >"$tmp/conv.cu" <<'CU'
#include "coeffs.h"
// __constant__ float commented[3];
__constant__ float d_filter[17 * 17];
static __constant__ int lut[4] = {1, 2, 3, 4}, bias;
extern "C" __global__ void conv(float *y, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * d_filter[i % 289] + lut[i % 4] + bias + coeffs[0];
}
CU
echo '__constant__ double coeffs[2];' >"$tmp/inc/coeffs.h"
spec() { # spec FILLS...: the spec with these constant args
    {
        echo 'kernel conv from "conv.cu" {'
        echo '    include "inc";'
        echo '    param bx in [128, 256];'
        echo '    block bx;'
        echo '    grid 64;'
        echo '    arg y : out float[8192];'
        echo '    arg x : in float[8192] = random(seed = 1);'
        for a in "$@"; do echo "    $a"; done
        echo '    arg n : int = 8192;'
        echo '    verify y against config(bx = 128);'
        echo '}'
    } >"$tmp/c.tune"
}
spec 'arg d_filter : constant float[289] = random(seed = 2);' 'arg stray : constant int[4] = zeros;'
"$cutune" check --color never "$tmp/c.tune" >"$tmp/out" 2>"$tmp/err"
check "check exits 0 on warnings (exit $?)" test $? -eq 0
check "the summary is printed" grep -q '^space  *2 raw, 2 valid' "$tmp/out"
check "bias, declared with no initialiser and no argument, is a warning at the kernel, with file and line" \
    grep -q "c.tune:1:8: warning: [^ ]*/conv.cu:4 declares __constant__ 'bias', and no argument fills it: on a GPU it stays zero" "$tmp/err"
check "so is coeffs, declared in an included header" \
    grep -q "inc/coeffs.h:1 declares __constant__ 'coeffs', and no argument fills it" "$tmp/err"
check "the argument stray, declared nowhere, is a warning at the argument" \
    grep -q "c.tune:9:9: warning: constant argument 'stray' fills the __constant__ symbol of that name, and no declaration of it was found" "$tmp/err"
check "d_filter (filled), lut (initialised) and commented (a comment) say nothing" \
    test "$(grep -c "d_filter\|'lut'\|commented" "$tmp/err")" -eq 0
check "three warnings in all" test "$(grep -c ': warning: ' "$tmp/err")" -eq 3
# every declaration filled: nothing to say
spec 'arg d_filter : constant float[289] = random(seed = 2);' 'arg bias : constant int[1] = constant(3);' \
    'arg coeffs : constant double[2] = ramp(start = 1);'
"$cutune" check --color never "$tmp/c.tune" >"$tmp/out" 2>"$tmp/err"
check "all filled: exit 0" test $? -eq 0
check "all filled: no warning" test ! -s "$tmp/err"
finish
