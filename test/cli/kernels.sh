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
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CUTUNE_CACHE_DIR=$tmp/cache
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
check "... naming the kernels" grep -q "no kernel block of kernel 'nope' (its kernels: sum_matrix, stencil1d)" "$tmp/err"
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
finish
