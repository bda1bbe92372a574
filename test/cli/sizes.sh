#!/usr/bin/env bash
# sizes.sh CUTUNE SOURCE_DIR - problem sizes without a GPU (docs/language.md, `size`):
# check/list/analyze of a spec over sizes, --set picking sizes, and the stored
# multi-size results fixture test/emit/sizes.json (hand-written, not a measurement)
# turned into a header whose look-up by size a C program checks (test/emit/sizes_test.c,
# gcc and g++), a CSV with the size's column and T4 with each entry's size. Run by ctest.
set -u
cutune=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$2
. "$(dirname "$0")/lib.sh.inc"
cli_tmp
fx=$src/test/emit
spec=$src/examples/stencil.tune
strict="-Wall -Wextra -pedantic -Werror"

# check: the sizes listed, the space the first size's
"$cutune" check "$spec" >"$tmp/check" 2>&1; check "check: 0" test $? -eq 0
check "check: three sizes" grep -q "^sizes        3," "$tmp/check"
check "check: each size" grep -q "^  n=16777216$" "$tmp/check"
"$cutune" check --format json "$spec" >"$tmp/check.json"
check "check json: the sizes" python3 -c "
import json,sys; d=json.load(open('$tmp/check.json')); sys.exit(d['sizes'] != [{'n': 1<<20}, {'n': 1<<22}, {'n': 1<<24}])"
# list: the first size's grids (cdiv(n, threads * items)); --set n picks another, listed or not
"$cutune" list --format csv "$spec" --limit 1 >"$tmp/l0"
check "list: the first size (grid 16384 = 2^20 / 64)" grep -q ",16384," "$tmp/l0"
"$cutune" list --format csv "$spec" --limit 1 --set n=4096 >"$tmp/l1"
check "list --set n=4096: grid 64" grep -q ",64," "$tmp/l1"
"$cutune" check "$spec" --set n=0 >/dev/null 2>"$tmp/err"; check "--set n=0: 1" test $? -eq 1
check "--set n=0 is said" grep -q "'n' is a size variable: its value is a positive int" "$tmp/err"
# analyze: the first size compiles; a second size's variants are the same code (the cache)
"$cutune" analyze "$spec" >/dev/null 2>"$tmp/a0"; check "analyze: 0" test $? -eq 0
"$cutune" analyze "$spec" --set n=4194304 >/dev/null 2>"$tmp/a1"; check "analyze another size: 0" test $? -eq 0
check "another size's variants come from the cache (code independent of n)" grep -q " 0 compiled.*from the cache" "$tmp/a1"

# several variables varied together
cat >"$tmp/two.tune" <<'TUNE'
kernel k from "k.cu" {
    size (nx, ny) in [(1024, 1024), (4096, 8192)];
    param bx in [32, 64] as none;
    block bx;
    grid (cdiv(nx, bx), ny);
}
TUNE
echo '__global__ void k() {}' >"$tmp/k.cu"
"$cutune" check "$tmp/two.tune" >"$tmp/c2" 2>&1; check "two variables: 0" test $? -eq 0
check "two variables: each size" grep -q "^  nx=4096 ny=8192$" "$tmp/c2"
"$cutune" check "$tmp/two.tune" --set nx=4096 >"$tmp/c3" 2>&1; check "--set nx=4096 keeps the sizes that agree" test $? -eq 0
check "--set nx=4096: one size" grep -q "^sizes        1," "$tmp/c3"
"$cutune" check "$tmp/two.tune" --set nx=77 >/dev/null 2>"$tmp/err"; check "--set nx=77: 1" test $? -eq 1
check "--set nx=77: no size agrees" grep -q "no size of this statement has the values set" "$tmp/err"
"$cutune" check "$tmp/two.tune" --set nx=77 --set ny=3 >"$tmp/c4" 2>&1; check "--set both: any size" test $? -eq 0
check "--set both: that size" grep -q "^  nx=77 ny=3$" "$tmp/c4"

# the stored multi-size results: header, C look-up test, CSV, T4
"$cutune" emit header "$fx/sizes.json" -o "$tmp/stencil_sizes.h"; check "emit header of sizes: 0" test $? -eq 0
check "header: the look-up by size" grep -q "STENCIL_lookup_size(const char \*device_name, int compute_capability, long long n)" "$tmp/stencil_sizes.h"
check "header: the variants" grep -q "#define STENCIL_VARIANT_COUNT 3" "$tmp/stencil_sizes.h"
check "sizes test: gcc" gcc -std=c11 $strict -I"$tmp" "$fx/sizes_test.c" -o "$tmp/sizes_c"
check "sizes test: gcc run" "$tmp/sizes_c"
check "sizes test: g++" g++ $strict -x c++ -I"$tmp" "$fx/sizes_test.c" -o "$tmp/sizes_cc"
check "sizes test: g++ run" "$tmp/sizes_cc"
if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
    nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    cp "$fx/sizes_test.c" "$tmp/sizes_test.cu"
    check "sizes header: nvcc -c" "$nvcc" -I"$tmp" -c "$tmp/sizes_test.cu" -o "$tmp/sizes_nv.o"
fi
"$cutune" emit csv "$fx/sizes.json" >"$tmp/s.csv"; check "emit csv of sizes: 0" test $? -eq 0
check "csv: the size's column" python3 -c "
import csv,sys; rows=list(csv.DictReader(open('$tmp/s.csv')))
best={r['n']: (r['threads'], r['items']) for r in rows if r['best'] == '1'}
sys.exit(not (len(rows) == 18 and best == {'1048576': ('128','1'), '4194304': ('256','2'), '16777216': ('256','4')}))"
"$cutune" emit t4 "$fx/sizes.json" >"$tmp/s.t4"; check "emit t4 of sizes: 0" test $? -eq 0
check "t4: each result's problem size" python3 -c "
import json,sys; d=json.load(open('$tmp/s.t4')); sys.exit(sorted({r['problem_size']['n'] for r in d['results']}) != [1<<20, 1<<22, 1<<24])"
# away from its spec: the routes the results record still say which params are compile-time
cp "$fx/sizes.json" "$tmp/moved.json"
(cd "$tmp" && "$cutune" emit header -q moved.json -o "$tmp/moved.h"); check "header without the spec: 0" test $? -eq 0
check "... variants by the recorded routes (items: template; threads: none)" \
    grep -q "calls X(variant, items) for each" "$tmp/moved.h"
# a size without a winner: no header, the size named
python3 - "$fx/sizes.json" "$tmp/nowin.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["sizes"][1]
s["summary"]["best"] = None
for r in s["results"]:
    r["status"] = "wrong"
json.dump(d, open(sys.argv[2], "w"))
PY
"$cutune" emit header "$tmp/nowin.json" -o "$tmp/nowin.h" 2>"$tmp/err"; check "a size without a winner: no header" test $? -ne 0
check "the size is named" grep -q "at n=4194304" "$tmp/err"
# simulate replays the recorded size the spec holds; another is refused
"$cutune" simulate "$fx/sizes.tune" --results "$fx/sizes.json" --set n=4194304 --strategy random --budget 3 >"$tmp/sim" 2>&1
check "simulate one recorded size: 0" test $? -eq 0
"$cutune" simulate "$fx/sizes.tune" --results "$fx/sizes.json" --set n=77 >/dev/null 2>"$tmp/err"
check "simulate a size not recorded: refused" grep -q "records 3 problem sizes and not the spec's size n=77" "$tmp/err"
finish
