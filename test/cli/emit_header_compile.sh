#!/usr/bin/env bash
# emit_header_compile.sh CUTUNE SOURCE_DIR - every kind of generated header compiles
# cleanly: gcc -std=c11 -Wall -Wextra -pedantic -Werror, g++ (same flags), clang when
# present, and nvcc -c (skipped visibly without it); a TU that includes it and uses
# nothing, two TUs linked together (one including it twice); and the look-up and the
# functions of the problem size give the answers worked out by hand (test/emit/
# lookup_test.c). Run by ctest.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fx=$src/test/emit
scale=$fx/scale.tune
strict="-Wall -Wextra -pedantic -Werror"

# The variants: several devices, one device, one device without a spec (no functions),
# the spec's default configuration, a spec of every type (strings, floats, bools, math),
# and the real H100 results of examples/sweep.tune.
"$cutune" emit header --spec "$scale" "$fx/a100.json" "$fx/h100.json" "$fx/h200.json" -o "$tmp/multi.h"
check "multi-device header" test $? -eq 0
"$cutune" emit header --spec "$scale" --prefix SCALE_DEF -o "$tmp/default.h"
check "default header" test $? -eq 0
"$cutune" emit header --spec "$scale" "$fx/h100.json" -o "$tmp/one.h"; check "one-device header" test $? -eq 0
cp "$fx/h100.json" "$tmp/moved.json" # away from its spec: the spec is not found
(cd "$tmp" && "$cutune" emit header -q moved.json --prefix NOSPEC -o "$tmp/nospec.h")
check "header without a spec" test $? -eq 0
check "without a spec there are no functions" bash -c "! grep -q 'grid_dim_x(' '$tmp/nospec.h'"
"$cutune" emit header --spec "$fx/types.tune" -o "$tmp/types.h"; check "every-type header" test $? -eq 0
"$cutune" emit header --spec "$src/examples/sweep.tune" "$src/docs/results/data/sum_matrix-h100-run1.json" \
    -o "$tmp/sweep.h"
check "sweep header" test $? -eq 0

command -v clang >/dev/null ||
    echo "note: no clang here: the headers are compiled with gcc and g++ only (clang is optional, not in packages.txt)"
for h in multi default one nospec types sweep; do
    printf '#include "%s.h"\n#include "%s.h"\nint unused_%s(void);\nint unused_%s(void) { return 0; }\n' \
        "$h" "$h" "$h" "$h" >"$tmp/use_$h.c"
    check "$h.h: gcc -std=c11 strict, included twice, nothing used" \
        gcc -std=c11 $strict -I"$tmp" -c "$tmp/use_$h.c" -o "$tmp/use_$h.o"
    check "$h.h: g++ strict" g++ $strict -x c++ -I"$tmp" -c "$tmp/use_$h.c" -o "$tmp/use_${h}_cc.o"
    if command -v clang >/dev/null; then
        check "$h.h: clang -std=c11 strict" clang -std=c11 $strict -I"$tmp" -c "$tmp/use_$h.c" -o "$tmp/use_${h}_clang.o"
    fi
    cp "$tmp/use_$h.c" "$tmp/use_$h.cu"
done
cp "$fx/unused.c" "$tmp/unused.c"
cp "$tmp/types.h" "$tmp/header.h"
check "a TU that includes the header and uses nothing (fixture)" \
    gcc -std=c11 $strict -I"$tmp" -c "$tmp/unused.c" -o "$tmp/unused.o"

# Two TUs linked together: no duplicate symbol, the same answer in both.
check "two TUs: compile and link" gcc -std=c11 $strict -I"$tmp" "$fx/two_a.c" "$fx/two_b.c" -o "$tmp/two"
check "two TUs: run" "$tmp/two"

# The look-up and the functions, with answers written by hand.
check "lookup test: gcc" gcc -std=c11 $strict -I"$tmp" "$fx/lookup_test.c" -o "$tmp/lookup_c"
check "lookup test: gcc run" "$tmp/lookup_c"
check "lookup test: g++" g++ $strict -x c++ -I"$tmp" "$fx/lookup_test.c" -o "$tmp/lookup_cc"
check "lookup test: g++ run" "$tmp/lookup_cc"
check "every-type functions: strcmp and math" bash -c "printf '#include \"types.h\"\nint main(void){return !(TYPES_grid_dim_x(1000, 0.75) == 8 && TYPES_smem_bytes(\"a\") == 129 && TYPES_smem_bytes(\"b\") == 128 && TYPES_config_grid_dim_z(TYPES_lookup(0, 0), 0.75) == 1 && TYPES_grid_dim_y(1000) == 5);}\n' > '$tmp/types_run.c' && gcc -std=c11 $strict -I'$tmp' '$tmp/types_run.c' -o '$tmp/types_run' -lm && '$tmp/types_run'"

nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ -x "$nvcc" ]; then
    for h in multi default one nospec types sweep; do
        check "$h.h: nvcc -c" "$nvcc" -c -Xcompiler -Wall,-Wextra,-Werror -I"$tmp" "$tmp/use_$h.cu" -o "$tmp/use_${h}_cu.o"
    done
    cp "$fx/lookup_test.c" "$tmp/lookup_test.cu"
    check "lookup test: nvcc" "$nvcc" -Xcompiler -Wall,-Wextra,-Werror -I"$tmp" "$tmp/lookup_test.cu" -o "$tmp/lookup_cu"
    check "lookup test: nvcc run" "$tmp/lookup_cu"
else
    echo "SKIPPED: nvcc not found at $nvcc: the header was not compiled with nvcc"
fi
finish
