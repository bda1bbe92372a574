#!/usr/bin/env bash
# embed_gpu.sh BUILD_DIR SOURCE_DIR CMAKE GENERATOR NVCC - the tuning path of
# cutune_add_tuning on a real GPU: installs cutune into a temporary prefix, builds
# examples/cmake-embed (a copy) against it, and checks that the build step tuned on GPU 0,
# that the header holds the winner of the results it wrote (SAXPY_TUNED 1), that the
# application runs the tuned configuration correctly, that an unchanged rebuild does not
# tune again and a touched header resumes every variant from the journal, and that the
# stored and default paths, forced with CUTUNE_MODE, also give a correct application.
# With CUTUNE_GPU_OUT set, the results are copied there (to commit as stored results).
# Exits 77 (skipped) without a GPU or nvcc.
set -u
bindir=$1
src=$2
. "$src/test/cli/lib.sh.inc"
. "$src/test/cmake/tools.sh.inc"
if ! "$bindir/cutune" devices -q 2>"${TMPDIR:-/tmp}/cutune-embed-probe"; then
    echo "SKIP: $(cat "${TMPDIR:-/tmp}/cutune-embed-probe")"
    exit 77
fi
resolve_cmake "$3"
gen=$(generator_for "$4")
nvcc=$(tool_path "$5" nvcc /usr/local/cuda/bin/nvcc)
[ -n "$nvcc" ] || { echo "SKIP: no nvcc (configured: '$5', none on PATH)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CUTUNE_CACHE_DIR=$tmp/cache
unset CUTUNE_MODE

"$cmake" --install "$bindir" --prefix "$tmp/prefix" >"$tmp/log" 2>&1 || { cat "$tmp/log"; echo "FAIL: install"; exit 1; }
cp -r "$src/examples/cmake-embed" "$tmp/src"
rm -rf "$tmp/src/results"
b=$tmp/build
h=$b/saxpy_tuned.h
results=$b/cutune/saxpy_app-saxpy_tuned/results.json
configure() {
    "$cmake" -S "$tmp/src" -B "$b" -G "$gen" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_CUDA_COMPILER="$nvcc" \
        "$@" >"$tmp/configure.log" 2>&1
}
build() { "$cmake" --build "$b" >"$tmp/out" 2>&1; }
has() { grep -qF -- "$1" "$2"; }
define() { grep -qE "^#define $1 $2\$" "$h"; }
# header_matches_best RESULTS: the header's param macros are the winner's params.
header_matches_best() {
    python3 - "$1" "$h" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
best = d["results"][d["summary"]["best"]]
text = open(sys.argv[2]).read()
for name, value in best["params"].items():
    m = re.search(r"^#define SAXPY_%s (\S+)$" % name.upper(), text, re.M)
    if not m or int(m.group(1)) != value:
        sys.exit("SAXPY_%s is %s, the winner has %s" % (name.upper(), m and m.group(1), value))
m = re.search(r"^#define SAXPY_BLOCK_DIM_X (\d+)$", text, re.M)
if not m or int(m.group(1)) != best["block"][0]:
    sys.exit("SAXPY_BLOCK_DIM_X differs from the winner's block")
PY
}
run_app() {
    "$b/saxpy_app" >"$tmp/run" 2>&1
    local rc=$?
    cat "$tmp/run"
    return $rc
}

configure; rc=$?
check "configure" test $rc -eq 0
[ $rc -eq 0 ] || { cat "$tmp/configure.log"; finish; exit 1; }

# 1. Tuned at build time.
build; check "build (tune path) succeeds" test $? -eq 0
cat "$tmp/out"
check "the step says it tuned on GPU 0" grep -qE '^cutune: tuned on GPU 0 \(.+\) - saxpy_tuned.h from .* \(40 variants, 0 resumed from the journal\)$' "$tmp/out"
check "the results were written" test -f "$results"
check "header: SAXPY_TUNED 1" define SAXPY_TUNED 1
check "header: the winner of the results" header_matches_best "$results"
run_app; check "the app runs the tuned configuration: exit 0" test $? -eq 0
check "the app reports a correct result" grep -qE '^correct on .+: 10000019 elements$' "$tmp/run"
check "the app reports the tuned configuration" has "saxpy configuration: tuned" "$tmp/run"
# The multi-size stencil: three sizes of 12 configurations, tuned in the same build.
check "the stencil step tuned three sizes on GPU 0" \
    grep -qE '^cutune: tuned on GPU 0 \(.+\) - stencil_tuned.h from .* \(36 variants, 0 resumed from the journal\)$' "$tmp/out"
"$b/stencil_app" 3000000 >"$tmp/srun" 2>&1; rc=$?
cat "$tmp/srun"
check "the stencil app runs the entry nearest 3,000,000 (2^22) correctly" test $rc -eq 0
check "... the entry of 2^22" has "n = 3000000: entry tuned at n = 4194304 (tuned)" "$tmp/srun"
if [ -n "${CUTUNE_GPU_OUT:-}" ]; then
    mkdir -p "$CUTUNE_GPU_OUT" && cp "$results" "$CUTUNE_GPU_OUT/saxpy.json" && cp "$h" "$CUTUNE_GPU_OUT/saxpy_tuned.h"
fi
cp "$results" "$tmp/stored.json"
cp "$h" "$tmp/tuned.h"

# 2. Unchanged: no tuning. A touched (unchanged) header: tuned again, all from the journal.
build; check "an unchanged rebuild does not tune" bash -c "! grep -q 'cutune: ' '$tmp/out'"
touch "$tmp/src/saxpy_index.cuh"; build
check "a touched include reruns the step, resuming every variant from the journal" \
    grep -qE '^cutune: tuned on GPU 0 .*\(40 variants, 40 resumed from the journal\)$' "$tmp/out"
grep '^cutune: ' "$tmp/out"

# 3. Forced: the stored results just made, then the spec's defaults; both run correctly.
configure -DSAXPY_RESULTS="$tmp/stored.json"
touch "$tmp/src/saxpy.tune"; CUTUNE_MODE=stored build
check "CUTUNE_MODE=stored: from the stored results" \
    has "cutune: CUTUNE_MODE=stored in the environment - saxpy_tuned.h from stored results $tmp/stored.json" "$tmp/out"
check "stored: the same winner" header_matches_best "$tmp/stored.json"
run_app; check "stored: the app is correct" test $? -eq 0
touch "$tmp/src/saxpy.tune"; CUTUNE_MODE=default build
check "CUTUNE_MODE=default: the defaults" has "saxpy_tuned.h from the spec's default configuration" "$tmp/out"
check "default: SAXPY_TUNED 0" define SAXPY_TUNED 0
run_app; check "default: the app is correct" test $? -eq 0
finish
