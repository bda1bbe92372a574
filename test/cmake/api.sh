#!/usr/bin/env bash
# api.sh BUILD_DIR SOURCE_DIR CMAKE GENERATOR MODE [LINK_FLAGS] - the C API example of
# docs/api.md, built against an installed cutune (find_package), and the installed library.
#   MODE nogpu: every GPU hidden (CUDA_VISIBLE_DEVICES=-1): the program must take its
#               documented no-GPU path (cutune_tune returns CUTUNE_ENODEV: "no GPU: ...",
#               exit 4). Also: the example in docs/api.md is examples/api/tune_from_string.c
#               verbatim, and libcutune.so exports nothing but cutune_* symbols.
#   MODE gpu:   tunes on GPU 0 for real and checks the report (exit 77 without a GPU).
set -u
bindir=$1
src=$2
mode=$5
link_flags=${6:-}
. "$src/test/cli/lib.sh.inc"
. "$src/test/cmake/tools.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CUTUNE_CACHE_DIR=$tmp/cache
example=$src/examples/api/tune_from_string.c

if [ "$mode" = gpu ] && ! "$bindir/cutune" devices -q 2>"$tmp/err"; then
    echo "SKIP: $(cat "$tmp/err")"
    exit 77
fi
[ "$mode" = nogpu ] && export CUDA_VISIBLE_DEVICES=-1
resolve_cmake "$3"
gen=$(generator_for "$4")

"$cmake" --install "$bindir" --prefix "$tmp/prefix" >"$tmp/log" 2>&1 || { cat "$tmp/log"; echo "FAIL: install"; exit 1; }
if [ "$mode" = nogpu ]; then
    # The ```c block after the marker line in docs/api.md, as a file.
    awk '/^<!-- example: examples\/api\/tune_from_string.c -->$/ {found = 1; next}
         found == 1 && /^```c$/ {found = 2; next}
         found == 2 && /^```$/ {exit}
         found == 2 {print}' "$src/docs/api.md" >"$tmp/doc.c"
    check "docs/api.md holds the example" test -s "$tmp/doc.c"
    check "the example in docs/api.md is examples/api/tune_from_string.c" cmp "$tmp/doc.c" "$example"
    lib=$(ls "$tmp"/prefix/lib*/libcutune.so 2>/dev/null | head -1)
    check "libcutune.so is installed" test -n "$lib"
    nm -D --defined-only "$lib" | awk 'NF == 3 {print $3}' >"$tmp/syms"
    check "libcutune.so exports the API" grep -qx cutune_tune "$tmp/syms"
    check "libcutune.so exports only cutune_* symbols" bash -c "! grep -v '^cutune_' '$tmp/syms'"
    grep -v '^cutune_' "$tmp/syms" | head -5
fi

"$cmake" -S "$src/examples/api" -B "$tmp/build" -G "$gen" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
    "-DCMAKE_C_FLAGS=-Wall -Wextra -pedantic -Werror" "-DCMAKE_EXE_LINKER_FLAGS=$link_flags" >"$tmp/log" 2>&1 &&
    "$cmake" --build "$tmp/build" >>"$tmp/log" 2>&1
rc=$?
check "the example builds against the installed package" test $rc -eq 0
[ $rc -eq 0 ] || { cat "$tmp/log"; finish; exit 1; }

"$tmp/build/tune_from_string" "$src/examples/api" 0 >"$tmp/out" 2>&1
rc=$?
cat "$tmp/out"
# n = 4194304 (the override) with 128 threads x 1 item: grid 32768 (the spec's own n: 8192).
check "the override reaches the grid" grep -qx "first configuration: threads=128 ITEMS=1, block 128, grid 32768" "$tmp/out"
if [ "$mode" = nogpu ]; then
    check "no GPU: exit 4 (CUTUNE_ENODEV)" test $rc -eq 4
    check "no GPU: says so, with the reason" grep -qE '^no GPU: .+' "$tmp/out"
else
    check "GPU: exit 0" test $rc -eq 0
    check "GPU: tuned on GPU 0" grep -qE '^tuned on GPU 0 \(.+, sm_[0-9]+\): 9 variants, 9 timed$' "$tmp/out"
    check "GPU: a best configuration" grep -qE '^best: threads=[0-9]+ ITEMS=[124], block [0-9]+, grid [0-9]+: [0-9.]+ ms' "$tmp/out"
    check "GPU: nine results, all ok" test "$(grep -cE '^  #[0-9] threads=[0-9]+ ITEMS=[124]: ok, [0-9.]+ ms$' "$tmp/out")" -eq 9
fi
finish
