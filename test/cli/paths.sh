#!/usr/bin/env bash
# paths.sh CUTUNE SOURCE_DIR - paths do not change answers: the compile cache hits
# whatever way the spec's path is spelled (a.tune, ./a.tune, an absolute path, through
# a symlinked folder), and a header emitted from stored results is the same, byte for
# byte, from any working folder, with the recorded spec's functions of the problem size
# (a results file written before paths were recorded canonical, with its spec path
# relative to where tuning ran, included). Run by ctest.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tmp=$(cd "$tmp" && pwd -P)

# ---- the compile cache and the spelling of the spec's path ----
mkdir -p "$tmp/proj/inc"
echo '#define TILE 2' >"$tmp/proj/inc/tile.h"
cat >"$tmp/proj/k.cu" <<'CU'
#include <tile.h>
#include "local.cuh"
extern "C" __global__ void k(float *x) { x[threadIdx.x * TILE] = ONE; }
CU
echo '#define ONE 1.0f' >"$tmp/proj/local.cuh"
cat >"$tmp/proj/a.tune" <<'TUNE'
kernel k from "k.cu" {
    param BX in [32, 64, 128];
    include "inc";
    block BX; grid 1;
}
TUNE
ln -s "$tmp/proj" "$tmp/link"
# The summary line: "N variants for sm_90: C compiled (...), H from the cache, ..."
counts() { sed -n 's/.*: \([0-9]*\) compiled (.*, \([0-9]*\) from the cache.*/\1 \2/p' "$1"; }
(cd "$tmp/proj" && "$cutune" analyze a.tune --arch sm_90 --cache-dir "$tmp/cache" >/dev/null 2>"$tmp/e1")
check "a.tune: analysed" test $? -eq 0
check "a.tune: 3 compiled" test "$(counts "$tmp/e1")" = "3 0"
(cd "$tmp/proj" && "$cutune" analyze ./a.tune --arch sm_90 --cache-dir "$tmp/cache" >/dev/null 2>"$tmp/e2")
check "./a.tune: all from the cache ($(counts "$tmp/e2"))" test "$(counts "$tmp/e2")" = "0 3"
(cd / && "$cutune" analyze "$tmp/proj/a.tune" --arch sm_90 --cache-dir "$tmp/cache" >/dev/null 2>"$tmp/e3")
check "absolute path: all from the cache ($(counts "$tmp/e3"))" test "$(counts "$tmp/e3")" = "0 3"
(cd "$tmp" && "$cutune" analyze link/../link/a.tune --arch sm_90 --cache-dir "$tmp/cache" >/dev/null 2>"$tmp/e4")
check "through a symlinked folder: all from the cache ($(counts "$tmp/e4"))" test "$(counts "$tmp/e4")" = "0 3"
# Content still counts: a changed header is a miss, whatever the spelling.
echo '#define TILE 4' >"$tmp/proj/inc/tile.h"
(cd "$tmp" && "$cutune" analyze proj/a.tune --arch sm_90 --cache-dir "$tmp/cache" >/dev/null 2>"$tmp/e5")
check "a changed header: compiled again ($(counts "$tmp/e5"))" test "$(counts "$tmp/e5")" = "3 0"

# ---- emit header from any working folder ----
fx=$src/test/emit
mkdir -p "$tmp/w1" "$tmp/w2/deeper"
(cd "$src" && "$cutune" emit header test/emit/h100.json) >"$tmp/h_src.h" 2>"$tmp/err_src"
check "from the source folder: 0" test $? -eq 0
(cd "$tmp/w1" && "$cutune" emit header "$fx/h100.json") >"$tmp/h_w1.h" 2>"$tmp/err_w1"
check "from another folder: 0" test $? -eq 0
(cd "$tmp/w2/deeper" && "$cutune" emit header "$fx/h100.json") >"$tmp/h_w2.h" 2>"$tmp/err_w2"
check "from a third folder: 0" test $? -eq 0
check "the recorded spec's functions are there" grep -q "static inline long long SCALE_grid_dim_x(long long nx)" "$tmp/h_w1.h"
check "no note when the spec is found" test ! -s "$tmp/err_w1"
check "the same header from the source folder and another" cmp "$tmp/h_src.h" "$tmp/h_w1.h"
check "the same header from a third folder" cmp "$tmp/h_src.h" "$tmp/h_w2.h"
# A results file moved away from its spec: a note says what the header lacks.
cp "$fx/h100.json" "$tmp/w1/moved.json"
(cd "$tmp/w1" && "$cutune" emit header moved.json) >"$tmp/moved.h" 2>"$tmp/err"
check "moved results: still 0" test $? -eq 0
check "moved results: a note naming what is missing" grep -q "note: moved.json records a spec that cannot be loaded now: test/emit/scale.tune; the header has no functions of the problem size (no \*_grid_dim_\*" "$tmp/err"
check "moved results: no functions" bash -c "! grep -q 'grid_dim_x(' '$tmp/moved.h'"
finish
