#!/usr/bin/env bash
# embed.sh BUILD_DIR SOURCE_DIR CMAKE GENERATOR NVCC - the CMake package end to end, no GPU:
# installs cutune from BUILD_DIR into a temporary prefix, then configures and builds
# examples/cmake-embed (a copy) against it with every GPU hidden (CUDA_VISIBLE_DEVICES=-1,
# so this runs the same on GPU machines) and checks the build step of cutune_add_tuning:
# the message that says which path it took, the header it made (values worked out by
# hand from saxpy.tune and the hand-written results fixture), the application, and the
# dependencies (an unchanged rebuild does nothing; the spec, an included header and the
# stored results each rerun the step). Exits 77 (skipped) without nvcc.
set -u
bindir=$1
src=$2
. "$src/test/cli/lib.sh.inc"
. "$src/test/cmake/tools.sh.inc"
resolve_cmake "$3"
gen=$(generator_for "$4")
nvcc=$(tool_path "$5" nvcc /usr/local/cuda/bin/nvcc)
if [ ! -x "$nvcc" ]; then
    echo "SKIP: no nvcc (configured: '$5', none on PATH): the example is a CUDA project"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CUTUNE_CACHE_DIR=$tmp/cache CUDA_VISIBLE_DEVICES=-1
unset CUTUNE_MODE

"$cmake" --install "$bindir" --prefix "$tmp/prefix" >"$tmp/log" 2>&1 || { cat "$tmp/log"; echo "FAIL: install"; exit 1; }
check "the package config is installed" test -f "$tmp/prefix/lib/cmake/cutune/cutuneConfig.cmake"
check "the version file is installed" test -f "$tmp/prefix/lib/cmake/cutune/cutuneConfigVersion.cmake"
check "the header is installed" test -f "$tmp/prefix/include/cutune.h"
for part in common spec space device analyze tune results emit simulate; do
    check "the header's part cutune/$part.h is installed" test -f "$tmp/prefix/include/cutune/$part.h"
done
check "the command is installed" test -x "$tmp/prefix/bin/cutune"

cp -r "$src/examples/cmake-embed" "$tmp/src"
cp "$src/test/cmake/saxpy-fixture-results.json" "$tmp/fixture.json"
rm -rf "$tmp/src/results"   # the no-GPU default path needs no stored results
b=$tmp/build
app=$b/saxpy_app
h=$b/saxpy_tuned.h
configure() {
    "$cmake" -S "$tmp/src" -B "$b" -G "$gen" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_CUDA_COMPILER="$nvcc" \
        -DCMAKE_CUDA_ARCHITECTURES=90 "$@" >"$tmp/configure.log" 2>&1
}
build() { "$cmake" --build "$b" >"$tmp/out" 2>&1; }
has() { grep -qF -- "$1" "$2"; }
define() { grep -qE "^#define $1 $2\$" "$h"; }

configure; rc=$?
check "configure finds the package" test $rc -eq 0
[ $rc -eq 0 ] || { cat "$tmp/configure.log"; finish; exit 1; }

# 1. No GPU, no stored results: the spec's default configuration (threads 256, ITEMS 1,
#    maxrreg 0; grid cdiv(1 << 22, 256) = 16384).
build; check "build (default path) succeeds" test $? -eq 0
cat "$tmp/out"
check "the step says: no GPU" has "cutune: no GPU (" "$tmp/out"
check "the step says: no stored results" has "and no stored results (" "$tmp/out"
check "the step says: default configuration" has "saxpy_tuned.h from the spec's default configuration (NOT TUNED)" "$tmp/out"
check "header: SAXPY_TUNED 0" define SAXPY_TUNED 0
check "the header's first line names the header, not a temporary file" \
    grep -q "^/\* saxpy_tuned.h - " <(head -1 "$h")
check "no scratch folder is left beside the header" bash -c "! ls -d '$b'/.cutune-* 2>/dev/null"
check "header: SAXPY_THREADS 256" define SAXPY_THREADS 256
check "header: SAXPY_ITEMS 1" define SAXPY_ITEMS 1
check "header: SAXPY_MAXRREGCOUNT 0" define SAXPY_MAXRREGCOUNT 0
check "header: SAXPY_BLOCK_DIM_X 256" define SAXPY_BLOCK_DIM_X 256
check "header: SAXPY_GRID_DIM_X 16384" define SAXPY_GRID_DIM_X 16384
check "the application is built" test -x "$app"
"$app" --print-config >"$tmp/cfg"; check "--print-config exits 0" test $? -eq 0
check "app: not tuned" has "NOT TUNED" "$tmp/cfg"
check "app: threads 256, ITEMS 1" has "threads 256, ITEMS 1, maxrregcount 0" "$tmp/cfg"
check "app: grid for n = 10000019 is cdiv(n, 256) = 39063" has "block 256, grid 39063 for n = 10000019" "$tmp/cfg"
"$app" >"$tmp/run" 2>&1; check "the app without a GPU exits 77" test $? -eq 77
check "the app says there is no GPU" has "no GPU (" "$tmp/run"
# The multi-size stencil (stencil.tune: size n in [2^20, 2^22, 2^24]): a default header with
# one entry per size, so the application's look-up by size builds before any tuning.
sh=$b/stencil_tuned.h
check "the stencil step says: default configuration" has "stencil_tuned.h from the spec's default configuration (NOT TUNED)" "$tmp/out"
check "stencil header: an entry per size" grep -q "^#define STENCIL_ENTRY_COUNT 3$" "$sh"
check "the stencil application is built" test -x "$b/stencil_app"
"$b/stencil_app" --print-config >"$tmp/scfg"; check "stencil --print-config exits 0" test $? -eq 0
check "stencil: 3,000,000 takes the entry of 2^22 (nearest in log space)" \
    has "n = 3000000: entry tuned at n = 4194304 (NOT TUNED): threads 256, items 1" "$tmp/scfg"

# 2. Dependencies: nothing changed, nothing runs; the spec and an included header rerun it.
build; check "an unchanged rebuild succeeds" test $? -eq 0
check "an unchanged rebuild does not rerun the step" bash -c "! grep -q 'cutune: ' '$tmp/out'"
touch "$tmp/src/saxpy.tune"; build
check "touching the spec reruns the step" has "from the spec's default configuration" "$tmp/out"
build; check "... and then no more" bash -c "! grep -q 'cutune: ' '$tmp/out'"
touch "$tmp/src/saxpy_index.cuh"; build
check "touching a header the kernel includes reruns the step" has "from the spec's default configuration" "$tmp/out"

# 3. Stored results (the hand-written fixture; its winner: threads 512, ITEMS 4, maxrreg 0;
#    grid cdiv(1 << 22, 2048) = 2048).
configure -DSAXPY_RESULTS="$tmp/fixture.json"; check "reconfigure with RESULTS" test $? -eq 0
build; check "build (stored path) succeeds" test $? -eq 0
cat "$tmp/out"
check "the step says: stored results, device and date" \
    has "saxpy_tuned.h from stored results $tmp/fixture.json (Fixture GPU (not a measurement), 2026-11-20T12:00:00Z)" "$tmp/out"
check "the step says why: no GPU" has "cutune: no GPU (" "$tmp/out"
check "header: SAXPY_TUNED 1" define SAXPY_TUNED 1
check "header: SAXPY_THREADS 512" define SAXPY_THREADS 512
check "header: SAXPY_ITEMS 4" define SAXPY_ITEMS 4
check "header: SAXPY_MAXRREGCOUNT 0" define SAXPY_MAXRREGCOUNT 0
check "header: SAXPY_BLOCK_DIM_X 512" define SAXPY_BLOCK_DIM_X 512
check "header: SAXPY_GRID_DIM_X 2048" define SAXPY_GRID_DIM_X 2048
"$app" --print-config >"$tmp/cfg"
check "app: tuned" has "saxpy configuration: tuned" "$tmp/cfg"
check "app: grid for n = 10000019 is cdiv(n, 2048) = 4883" has "block 512, grid 4883 for n = 10000019" "$tmp/cfg"
build; check "unchanged: the step does not rerun" bash -c "! grep -q 'cutune: ' '$tmp/out'"
touch "$tmp/fixture.json"; build
check "touching the stored results reruns the step" has "from stored results" "$tmp/out"
# The stencil from the stored multi-size fixture (test/emit/sizes.json, hand-written: the
# winners 128 x 1 at 2^20, 256 x 2 at 2^22, 256 x 4 at 2^24).
configure -DSAXPY_RESULTS="$tmp/fixture.json" -DSTENCIL_RESULTS="$src/test/emit/sizes.json"
build; check "stencil from stored multi-size results" has "stencil_tuned.h from stored results" "$tmp/out"
"$b/stencil_app" --print-config >"$tmp/scfg"
check "stencil: 1000 takes the entry of 2^20" has "n = 1000: entry tuned at n = 1048576 (tuned): threads 128, items 1, variant 0" "$tmp/scfg"
check "stencil: 3,000,000 takes the entry of 2^22" has "n = 3000000: entry tuned at n = 4194304 (tuned): threads 256, items 2, variant 1" "$tmp/scfg"
check "stencil: 2^28 takes the entry of 2^24" has "n = 268435456: entry tuned at n = 16777216 (tuned): threads 256, items 4, variant 2" "$tmp/scfg"

# 4. Forcing a path: CUTUNE_MODE in the environment (read when the step runs).
touch "$tmp/src/saxpy.tune"; CUTUNE_MODE=default build
check "CUTUNE_MODE=default takes the default path" \
    has "cutune: CUTUNE_MODE=default in the environment - saxpy_tuned.h from the spec's default configuration" "$tmp/out"
check "header: SAXPY_TUNED 0 again" define SAXPY_TUNED 0
touch "$tmp/src/saxpy.tune"; CUTUNE_MODE=tune build
check "CUTUNE_MODE=tune without a GPU fails the build" test $? -ne 0
check "... saying why" has "asks to tune, but there is no GPU" "$tmp/out"

# 5. A broken spec stops the build with its diagnostics (file:line:col).
sed -i 's/block threads;/block thread;/' "$tmp/src/saxpy.tune"; build
check "a broken spec fails the build" test $? -ne 0
check "... with cutune's diagnostic" grep -qE "saxpy.tune:[0-9]+:[0-9]+: error: unknown name 'thread'" "$tmp/out"
grep -E "error" "$tmp/out" | head -3
finish
