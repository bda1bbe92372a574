#!/usr/bin/env bash
# kernels.sh CUTUNE SOURCE_DIR - a spec file of several kernel blocks
# (examples/library.tune): check, list and analyze go over every block, each under a
# "kernel NAME (block I of N)" line; --kernel NAME picks one (and is needed for CSV and
# JSON listings); `cutune SPEC` without a GPU compiles every block and exits 4; --results
# with several blocks is refused. Run by ctest.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
cli_tmp
spec=$src/examples/library.tune

"$cutune" check "$spec" >"$tmp/c" 2>&1; check "check: 0" test $? -eq 0
check "check: block 1" grep -q "^kernel sum_matrix (block 1 of 2)$" "$tmp/c"
check "check: block 2" grep -q "^kernel stencil1d (block 2 of 2)$" "$tmp/c"
check "check: each block's space" bash -c "grep -q '^space        12 raw, 12 valid' '$tmp/c' && grep -q '^space        9 raw, 9 valid' '$tmp/c'"
"$cutune" check --format json "$spec" >"$tmp/c.json"; check "check json: 0" test $? -eq 0
check "check json: one object per block" python3 -c "
import json,sys; d=json.load(open('$tmp/c.json')); sys.exit(not (isinstance(d, list) and [k['valid'] for k in d] == [12, 9]))"
"$cutune" list "$spec" >"$tmp/l"; check "list: 0" test $? -eq 0
check "list: both blocks' variants" bash -c "grep -q -- '-DTILE_Y=4' '$tmp/l' && grep -q 'stencil1d<2, 4>' '$tmp/l'"
"$cutune" list --format csv "$spec" >/dev/null 2>"$tmp/err"; check "list csv of two blocks: usage error" test $? -eq 2
check "... saying --kernel" grep -q "pick one with --kernel NAME" "$tmp/err"
"$cutune" list --format csv --kernel stencil1d "$spec" >"$tmp/l.csv"; check "list --kernel stencil1d: 0" test $? -eq 0
check "list --kernel: that block only" bash -c "grep -q 'stencil1d<2, 1>' '$tmp/l.csv' && ! grep -q 'TILE_Y' '$tmp/l.csv'"
"$cutune" check --kernel nope "$spec" >/dev/null 2>"$tmp/err"; check "--kernel nope: usage error" test $? -eq 2
check "... naming the blocks" grep -q "no kernel block named 'nope' (its blocks: sum_matrix, stencil1d)" "$tmp/err"
"$cutune" analyze "$spec" >"$tmp/a" 2>"$tmp/a.err"; check "analyze: 0" test $? -eq 0
check "analyze: both blocks compiled" bash -c "grep -c 'variants for sm_90' '$tmp/a.err' | grep -qx 2"
"$cutune" "$spec" >"$tmp/t" 2>"$tmp/t.err"; check "tune without a GPU: exit 4" test $? -eq 4
check "tune without a GPU: every block (and size) compiled" bash -c "grep -c 'variants for sm_90' '$tmp/t.err' | grep -qx 3"
"$cutune" "$spec" --results "$tmp/r.json" >/dev/null 2>"$tmp/err"; check "--results with two blocks: usage error" test $? -eq 2
"$cutune" "$spec" --results "$tmp/r.json" --kernel sum_matrix >/dev/null 2>&1; check "--results with --kernel: exit 4 (no GPU)" test $? -eq 4
# The header holds every kernel: the defaults of both blocks; stored results of two kernels
"$cutune" emit header --spec "$spec" -o "$tmp/lib.h"; check "default header of two blocks: 0" test $? -eq 0
check "... both kernels' sections" bash -c "grep -q '^#define SUM_MATRIX_TUNED 0' '$tmp/lib.h' && grep -q '^#define STENCIL1D_TUNED 0' '$tmp/lib.h'"
check "... compiles (gcc -std=c11 strict)" gcc -std=c11 -Wall -Wextra -pedantic -Werror -fsyntax-only -x c "$tmp/lib.h"
"$cutune" emit header --spec "$spec" --prefix X -o "$tmp/x.h" 2>"$tmp/err"; check "one --prefix for two blocks: usage error" test $? -eq 2
"$cutune" emit header "$src/test/emit/sizes.json" "$src/test/emit/h100.json" -o "$tmp/two.h"
check "emit header of two kernels' results: 0" test $? -eq 0
check "... one section each" bash -c "grep -q '^#define STENCIL_TUNED 1' '$tmp/two.h' && grep -q '^#define SCALE_TUNED 1' '$tmp/two.h'"
check "... compiles (gcc -std=c11 strict)" gcc -std=c11 -Wall -Wextra -pedantic -Werror -fsyntax-only -x c "$tmp/two.h"

# Two blocks of one kernel (a reduction's two steps, one per problem size): without a
# header they need nothing; --kernel reaches each by its name (`kernel K as NAME`), the
# kernel's name the first; each block's header prefix is its name.
mkdir -p "$tmp/red"
cat >"$tmp/red/red.cu" <<'CU'
template <int B>
__global__ void reduce(const float *in, float *out, int n)
{
    __shared__ float s[B];
    int i = blockIdx.x * B + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int k = B / 2; k > 0; k /= 2) {
        if (threadIdx.x < k)
            s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}
CU
block() { # NAME N VALUES: a block of kernel reduce over n = N with B in VALUES
    printf 'kernel reduce<B>%s from "red.cu" {\n    param B in [%s] as template;\n    let n = %s;\n' "$1" "$3" "$2"
    printf '    block B;\n    grid n // B;\n    arg src : in float[n] = random(seed = 1);\n'
    printf '    arg dst : out float[n // 128];\n    arg n : int = n;\n%s}\n' "${4:-}"
}
{ block "" 1048576 "128, 256"; block " as step2" 8192 "128, 256, 512"; } >"$tmp/red/two.tune"
"$cutune" check "$tmp/red/two.tune" >"$tmp/c" 2>"$tmp/err"
rc=$?
check "two blocks of one kernel, one named, no header: check exits 0 ($(grep error: "$tmp/err"))" test $rc -eq 0
check "... each block under its name" grep -q "^kernel reduce as step2 (block 2 of 2)$" "$tmp/c"
lst() { "$cutune" list --format csv "$tmp/red/two.tune" "$@" 2>/dev/null | tail -n +2 | cut -d, -f2 | tr '\n' ' '; }
check "--kernel step2: the second block" test "$(lst --kernel step2)" = "128 256 512 "
check "--kernel reduce: the first" test "$(lst --kernel reduce)" = "128 256 "
{ block "" 1048576 "128, 256"; block "" 8192 "128, 256, 512"; } >"$tmp/red/same.tune"
"$cutune" check "$tmp/red/same.tune" >/dev/null 2>"$tmp/err"
check "two blocks of one kernel, neither named nor writing a header: exit 0" test $? -eq 0
H='    emit header "steps_tuned.h";\n'
{ block " as step1" 1048576 "128, 256" "$(printf "$H")
"; block " as step2" 8192 "128, 256, 512" "$(printf "$H")
"; } >"$tmp/red/hdr.tune"
"$cutune" check "$tmp/red/hdr.tune" >/dev/null 2>"$tmp/err"
rc=$?
check "named blocks sharing a header: exit 0 ($(grep error: "$tmp/err"))" test $rc -eq 0
"$cutune" emit header --spec "$tmp/red/hdr.tune" -o "$tmp/steps.h" 2>"$tmp/err"
check "... whose default header has a section per block name" \
    bash -c "grep -q '^#define STEP1_TUNED 0' '$tmp/steps.h' && grep -q '^#define STEP2_TUNED 0' '$tmp/steps.h'"
sed 's/ as step[12]//' "$tmp/red/hdr.tune" >"$tmp/red/clash.tune"
"$cutune" check "$tmp/red/clash.tune" >/dev/null 2>"$tmp/err"
check "unnamed blocks of one kernel both writing a header: exit 1" test $? -eq 1
check "... saying to name them" grep -q "same header prefix .*name the blocks: kernel NAME as BLOCK" "$tmp/err"
"$cutune" emit header --spec "$tmp/red/same.tune" -o "$tmp/same.h" 2>"$tmp/err"
check "emit header --spec of unnamed blocks of one kernel: refused (exit != 0)" test $? -ne 0
check "... with a message" test -s "$tmp/err"
finish
