#!/usr/bin/env bash
# emit.sh CUTUNE SOURCE_DIR - `cutune emit header|csv|t4` end to end: exit codes and
# messages, the header of the real H100 results against the winner docs/results/
# sum_matrix-h100.md reports, the CSV read back with Python's csv module, the T4 JSON
# checked against the keys Kernel Tuner's T4 results schema requires, and --kernel's
# choice among files of several kernel blocks. Run by ctest.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fx=$src/test/emit
scale=$fx/scale.tune
real=$src/docs/results/data/sum_matrix-h100-run1.json

# ---- exit codes and messages ----
"$cutune" emit >/dev/null 2>"$tmp/err"; check "emit without a format: 2" test $? -eq 2
"$cutune" emit xml "$fx/h100.json" >/dev/null 2>"$tmp/err"; check "unknown format: 2" test $? -eq 2
check "unknown format is named" grep -q "no format named 'xml'" "$tmp/err"
"$cutune" emit header >/dev/null 2>"$tmp/err"; check "header without results or spec: 2" test $? -eq 2
"$cutune" emit csv >/dev/null 2>&1; check "csv without a file: 2" test $? -eq 2
"$cutune" emit csv "$fx/h100.json" "$fx/h200.json" >/dev/null 2>&1; check "csv of two files: 2" test $? -eq 2
"$cutune" emit t4 --prefix X "$fx/h100.json" >/dev/null 2>&1; check "--prefix on t4: 2" test $? -eq 2
"$cutune" emit header "$tmp/missing.json" >/dev/null 2>"$tmp/err"; check "missing results file: 3" test $? -eq 3
check "missing file is named" grep -q "cannot read '$tmp/missing.json'" "$tmp/err"
"$cutune" emit csv "$fx/not_json.csv" >/dev/null 2>"$tmp/err"; check "not JSON: 3" test $? -eq 3
check "not JSON is said" grep -q "is not JSON" "$tmp/err"
"$cutune" emit t4 "$fx/other_format.json" >/dev/null 2>"$tmp/err"; check "wrong format: 3" test $? -eq 3
check "wrong format is said" grep -q 'not a cutune results file.*"format"' "$tmp/err"
sed 's/"version": 1/"version": 3/' "$fx/h100.json" >"$tmp/v2.json"
"$cutune" emit csv "$tmp/v2.json" >/dev/null 2>"$tmp/err"; check "a later version: 3" test $? -eq 3
check "a later version is said" grep -q "version 3; this cutune reads versions 1 and 2" "$tmp/err"
"$cutune" emit header --spec "$scale" "$fx/nowinner.json" >/dev/null 2>"$tmp/err"
check "no winner: 6" test $? -eq 6
check "no winner is said" grep -q "nowinner.json: no variant ran correctly" "$tmp/err"
"$cutune" emit csv "$fx/nowinner.json" >"$tmp/nw.csv"; check "csv of a run without a winner: 0" test $? -eq 0
"$cutune" emit header --spec "$src/examples/sweep.tune" "$fx/h100.json" >/dev/null 2>"$tmp/err"
check "results of another spec: 2" test $? -eq 2
check "the mismatch is said" grep -q "is not of this spec" "$tmp/err"
# summary.best naming an entry that did not run correctly (entry 0 is wrong): refused,
# never emitted as the winner.
sed 's/"best": 2,/"best": 0,/' "$fx/h100.json" >"$tmp/wrongbest.json"
"$cutune" emit header --spec "$scale" "$tmp/wrongbest.json" >"$tmp/wb.h" 2>"$tmp/err"
check "a best that is wrong: 3" test $? -eq 3
check "a best that is wrong: said" grep -q 'wrongbest.json.: "summary"."best" is entry 0, which did not run correctly' "$tmp/err"
check "a best that is wrong: no header" test ! -s "$tmp/wb.h"
# Without block_x's default, the first values (16 x 1 threads) break `require 32 <= ...`.
mkdir -p "$tmp/nodef" && cp "$src/kernels/sum_matrix.cu" "$tmp/nodef/" &&
    sed -e 's/ default 32;/;/' -e 's|"../kernels/sum_matrix.cu"|"sum_matrix.cu"|' \
        "$src/examples/sweep.tune" >"$tmp/nodef/sweep.tune"
"$cutune" emit header --spec "$tmp/nodef/sweep.tune" >/dev/null 2>"$tmp/err"
check "default configuration violating a require: 1" test $? -eq 1
check "the constraint is named as file:line:col" grep -q "sweep.tune:14:13: error: the default configuration" "$tmp/err"
"$cutune" emit header --spec "$src/examples/sweep.tune" >"$tmp/def.h" 2>"$tmp/err"
check "the shipped example's default configuration: 0" test $? -eq 0
check "its default: 32 x 1, one row each, not tuned" bash -c "grep -qx '#define SUM_MATRIX_TUNED 0' '$tmp/def.h' &&
    grep -qx '#define SUM_MATRIX_BLOCK_X 32' '$tmp/def.h' && grep -qx '#define SUM_MATRIX_TILE_Y 1' '$tmp/def.h'"
"$cutune" emit header --spec "$scale" --prefix 9bad "$fx/h100.json" >/dev/null 2>"$tmp/err"
check "a prefix that is no identifier: 2" test $? -eq 2
"$cutune" emit header --spec "$scale" "$fx/h100.json" -o "$tmp/no/such/dir/x.h" 2>"$tmp/err"
check "unwritable output: 3" test $? -eq 3
"$cutune" help emit >"$tmp/out"; check "help emit documents --prefix" grep -q -- "--prefix P" "$tmp/out"

# The recorded spec (relative to where tuning ran, in this older file) is found from
# any working folder: beside the results file or in a folder above it (paths.sh
# compares the headers byte for byte). A results file moved away from its spec gets a
# note saying what the header lacks.
(cd "$src" && "$cutune" emit header test/emit/h100.json) >"$tmp/rec.h" 2>"$tmp/err"
check "recorded spec: 0" test $? -eq 0
check "recorded spec gives functions" grep -q "static inline long long SCALE_grid_dim_x(long long nx)" "$tmp/rec.h"
(cd "$tmp" && "$cutune" emit header "$fx/h100.json") >"$tmp/rec2.h" 2>"$tmp/err"
check "recorded spec from another folder: functions too" grep -q "SCALE_grid_dim_x(long long nx)" "$tmp/rec2.h"
cp "$fx/h100.json" "$tmp/away.json"
(cd "$tmp" && "$cutune" emit header away.json) >"$tmp/norec.h" 2>"$tmp/err"
check "no recorded spec: still 0" test $? -eq 0
check "no recorded spec: a note" grep -q "note: away.json records a spec that cannot be loaded now" "$tmp/err"
check "no recorded spec: no functions" bash -c "! grep -q 'grid_dim_x(' '$tmp/norec.h'"
check "no recorded spec: still the macros" grep -q "^#define SUM_MATRIX_BLOCK_X 64$" "$tmp/norec.h"

# ---- the real H100 results of examples/sweep.tune ----
# docs/results/sum_matrix-h100.md: best block_x = 64, block_y = 1, tile_y = 8 (run 1 chose
# maxrreg = 64), median 1.0974 ms, 2935 GB/s; nx = ny = 16384, so the grid is
# (16384 / 64, 16384 / (1 * 8)) = (256, 2048).
"$cutune" emit header --spec "$src/examples/sweep.tune" "$real" -o "$tmp/sweep.h"
check "sweep header: 0" test $? -eq 0
for line in "SUM_MATRIX_TUNED 1" "SUM_MATRIX_BLOCK_X 64" "SUM_MATRIX_BLOCK_Y 1" "SUM_MATRIX_TILE_Y 8" \
    "SUM_MATRIX_MAXRREG 64" "SUM_MATRIX_BLOCK_DIM_X 64" "SUM_MATRIX_BLOCK_DIM_Y 1" "SUM_MATRIX_GRID_DIM_X 256" \
    "SUM_MATRIX_GRID_DIM_Y 2048" "SUM_MATRIX_SMEM_BYTES 0" "SUM_MATRIX_MAXRREGCOUNT 64" \
    'SUM_MATRIX_COMPILE_OPTIONS "--maxrregcount=64"' 'SUM_MATRIX_DEFINES "-DTILE_Y=8"' \
    'SUM_MATRIX_DEVICE_NAME "NVIDIA H100 80GB HBM3"' "SUM_MATRIX_COMPUTE_CAPABILITY 90"; do
    check "sweep header: #define $line" grep -qx "#define $line" "$tmp/sweep.h"
done
check "sweep header: the winner in the comment" grep -q "winner    #143 block_x=64 block_y=1 tile_y=8 maxrreg=64" "$tmp/sweep.h"
check "sweep header: its time" grep -q "median 1.0973[0-9]* ms, bandwidth_GBps 2935.[0-9]* (maximize)" "$tmp/sweep.h"
check "sweep header: the runner-up (#141, the same config without a cap)" grep -q "runner-up #141 block_x=64 block_y=1 tile_y=8 maxrreg=0" "$tmp/sweep.h"
check "sweep header: provenance" grep -q "tuned 2026-11-22T04:13:19Z" "$tmp/sweep.h"
check "sweep header: grid x of nx" grep -q "return SUM_MATRIX_cdiv(nx, 64);" "$tmp/sweep.h"
check "sweep header: grid y of ny" grep -q "return SUM_MATRIX_cdiv(ny, 8);" "$tmp/sweep.h"
"$cutune" emit header --spec "$src/examples/sweep.tune" --prefix SM "$real" | grep -qx "#define SM_TILE_Y 8"
check "--prefix names the macros" test $? -eq 0

# ---- CSV, read back ----
"$cutune" emit csv "$real" -o "$tmp/sweep.csv"; check "csv: 0" test $? -eq 0
check "csv: 312 rows, the winner marked, its values" python3 - "$tmp/sweep.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(rows) == 312, len(rows)
best = [r for r in rows if r["best"] == "1"]
assert len(best) == 1, best
b = best[0]
assert (b["index"], b["param_block_x"], b["param_block_y"], b["tile_y"], b["maxrreg"]) == ("143", "64", "1", "8", "64"), b
assert b["status"] == "ok" and b["grid_x"] == "256" and b["grid_y"] == "2048", b
assert abs(float(b["time_ms"]) - 1.0974) < 1e-4 and abs(float(b["bandwidth_GBps"]) - 2935.4) < 0.1, b
assert b["options"] == "--maxrregcount=64" and b["defines"] == "-DTILE_Y=8", b
assert all(r["status"] == "ok" for r in rows)
PY
"$cutune" emit csv "$fx/h100.json" -o "$tmp/h100.csv"
check "csv: statuses, a quoted multi-line reason, empty times when not timed" python3 - "$tmp/h100.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert [r["status"] for r in rows] == ["wrong", "ok", "ok", "compile error"], rows
assert rows[3]["reason"] == 'kernel.cu(3): error: expected a ";"\n  int x\n       ^', rows[3]["reason"]
assert rows[0]["time_ms"] == "" and rows[0]["objective"] == "", rows[0]
assert rows[2]["best"] == "1" and rows[2]["time_ms"] == "0.5" and rows[2]["maxrreg"] == "32"
assert rows[3]["driver_blocks_per_sm"] == "" and rows[1]["driver_blocks_per_sm"] == "32"
PY

# ---- Kernel Tuner T4 ----
"$cutune" emit t4 "$fx/h100.json" -o "$tmp/h100.t4.json"; check "t4: 0" test $? -eq 0
check "t4: the schema's required keys, the invalidity mapping, units" python3 - "$tmp/h100.t4.json" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
assert re.match(r"^[0-9]+\.[0-9]+\.[0-9]+$", d["schema_version"]) and d["schema_version"] == "1.0.0"
assert isinstance(d["results"], list) and len(d["results"]) == 4
for r in d["results"]:
    for key in ("configuration", "times", "invalidity", "correctness"):   # "required" in the schema
        assert key in r, (key, r)
    assert isinstance(r["configuration"], dict) and isinstance(r["times"], dict)
    assert r["invalidity"] in ("timeout", "compile", "runtime", "correctness", "constraints", "correct")
    assert isinstance(r["correctness"], (int, float)) and isinstance(r["objectives"], list)
    assert isinstance(r["times"]["runtimes"], list)
    for m in r["measurements"]:
        assert set(m) == {"name", "value", "unit"} and isinstance(m["unit"], str)
        assert isinstance(m["value"], (int, float, str, list))
assert [r["invalidity"] for r in d["results"]] == ["correctness", "correct", "correct", "compile"]
assert [r["correctness"] for r in d["results"]] == [0, 1, 1, 0]
w = d["results"][2]
assert w["configuration"] == {"block_x": 64, "tile_y": 4, "maxrreg": 32}
assert w["objectives"] == ["time_ms"] and w["times"]["runtimes"] == [0.5]
ms = {m["name"]: m for m in w["measurements"]}
assert ms["time_ms"]["value"] == 0.5 and ms["time_ms"]["unit"] == "ms"
assert ms["static_smem"]["unit"] == "B"
assert d["metadata"]["environment"]["device_query"]["cutune"]["name"] == "NVIDIA H100 80GB HBM3"
assert d["metadata"]["cutune"]["best"] == 2
PY
"$cutune" emit t4 "$fx/nowinner.json" -o "$tmp/nw.t4.json"
check "t4: cannot launch is a runtime failure" python3 -c "
import json; d = json.load(open('$tmp/nw.t4.json'))
assert [r['invalidity'] for r in d['results']] == ['correctness', 'runtime'], d"

# ---- tune: --header and --csv are accepted; without a GPU nothing is written ----
if ! "$cutune" devices >/dev/null 2>&1; then
    "$cutune" tune --limit 2 --header "$tmp/t.h" --csv "$tmp/t.csv" "$scale" >/dev/null 2>"$tmp/err"
    check "tune --header without a GPU: 4 (not tuned: no GPU)" test $? -eq 4
    check "tune --header without a GPU says no header was written" grep -q "No header or CSV was written" "$tmp/err"
    check "tune --header without a GPU writes no header" test ! -e "$tmp/t.h"
fi
# ---- the device attributes a spec reads, as the run recorded them ----
# A copy of scale.tune that also reads max_threads_per_block; results with the
# attributes recorded (a made-up value, 1000, that no table holds) and without them.
sed 's|"../../kernels/sum_matrix.cu"|"'"$src"'/kernels/sum_matrix.cu"|; s|^    smem 4 \* (block_x + halo);|&\n    require block_x <= max_threads_per_block;|' \
    "$scale" >"$tmp/dev.tune"
python3 -c "
import json
d = json.load(open('$fx/h100.json'))
d['device']['attributes'] = {'sm_count': 132, 'max_threads_per_block': 1000, 'warp_size': 32, 'cc': 90}
json.dump(d, open('$tmp/attrs.json', 'w'))"
"$cutune" emit header --spec "$tmp/dev.tune" "$tmp/attrs.json" >"$tmp/dev.h" 2>"$tmp/err"
check "emit header of a spec reading a device attribute: 0" test $? -eq 0
check "the header names the recorded value of the attribute the spec reads" \
    grep -q '^ \*   device attributes read by the spec: max_threads_per_block 1000$' "$tmp/dev.h"
"$cutune" emit header --spec "$tmp/dev.tune" "$fx/h100.json" >"$tmp/dev0.h" 2>"$tmp/err"
check "results without recorded attributes say so in the header" \
    grep -q 'device attributes read by the spec: not recorded in these results' "$tmp/dev0.h"
"$cutune" emit header --spec "$scale" "$tmp/attrs.json" >"$tmp/nodev.h" 2>"$tmp/err"
check "a spec that reads none gets no such line" bash -c "! grep -q 'device attributes' '$tmp/nodev.h'"


# ---- --kernel NAME: one kernel block's results among files of several ----
# sizes.json is of stencil1d, h100.json and a100.json of sum_matrix: --kernel keeps one
# block's files, so the header is the one those files alone make (the same -o name).
"$cutune" emit header --kernel stencil1d "$fx/sizes.json" "$fx/h100.json" -o "$tmp/k.h" 2>"$tmp/err"
check "--kernel stencil1d of two kernels' files: 0" test $? -eq 0
cp "$tmp/k.h" "$tmp/k1.h"
"$cutune" emit header "$fx/sizes.json" -o "$tmp/k.h"
check "--kernel stencil1d: the header of sizes.json alone" cmp -s "$tmp/k.h" "$tmp/k1.h"
"$cutune" emit header --kernel sum_matrix "$fx/sizes.json" "$fx/h100.json" "$fx/a100.json" -o "$tmp/k.h"
check "--kernel sum_matrix of three files: 0" test $? -eq 0
cp "$tmp/k.h" "$tmp/k1.h"
"$cutune" emit header "$fx/h100.json" "$fx/a100.json" -o "$tmp/k.h"
check "--kernel sum_matrix: the header of its two GPUs' files alone" cmp -s "$tmp/k.h" "$tmp/k1.h"
"$cutune" emit header --kernel sum_matrix --prefix X "$fx/sizes.json" "$fx/h100.json" >"$tmp/x.h" 2>"$tmp/err"
check "--kernel with one --prefix: 0 (one section left)" test $? -eq 0
check "--kernel with one --prefix: the prefix names it" grep -qx "#define X_TUNED 1" "$tmp/x.h"
"$cutune" emit header --kernel nope "$fx/sizes.json" "$fx/h100.json" >"$tmp/out" 2>"$tmp/err"
check "--kernel naming no results' block: 2" test $? -eq 2
check "--kernel naming no results' block: nothing written" test ! -s "$tmp/out"
check "--kernel naming no results' block: the name and the blocks there are" \
    grep -qx "cutune emit: no results of a kernel block named 'nope' (the results are of: stencil1d, sum_matrix)" "$tmp/err"
"$cutune" emit header --kernel stencil1d "$fx/sizes.json" "$fx/nowinner.json" >/dev/null 2>"$tmp/err"
check "--kernel: a file left out needs no winner" test $? -eq 0
"$cutune" emit header --kernel sum_matrix "$fx/sizes.json" "$fx/nowinner.json" >/dev/null 2>"$tmp/err"
check "--kernel: a file kept needs its winner (6)" test $? -eq 6
check "--kernel: the file without a winner is named" grep -q "nowinner.json: no variant ran correctly" "$tmp/err"
"$cutune" emit header --kernel sum_matrix --spec "$scale" "$fx/sizes.json" "$fx/h100.json" >"$tmp/ks.h" 2>"$tmp/err"
check "--kernel with --spec: 0 (the spec of the block kept)" test $? -eq 0
check "--kernel with --spec: its functions" grep -q "SCALE_grid_dim_x(long long nx)" "$tmp/ks.h"

finish
