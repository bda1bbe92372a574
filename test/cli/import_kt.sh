#!/usr/bin/env bash
# import_kt.sh CUTUNE SOURCE_DIR - `cutune import FILE --spec SPEC -o RESULTS.json` end to
# end on the hub's A4000 convolution recordings cut small (test/data/kt/): the gzipped
# cache and the plain T4 file become results files that simulate, report and emit read;
# `cutune simulate` over them prints the same figures as over the earlier conversion of
# the same run (conv_small.land.json); a refused file exits 3 with its JSON path, and
# nothing is written. Run by ctest.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
data=$src/test/data/kt
spec=$data/conv_small.tune

check "the cache imports" "$cutune" import "$data/conv_small.kt-cache.json.gz" --spec "$spec" -o "$tmp/cache.json" \
    2>"$tmp/cache.err"
check "it says where the data came from" grep -q \
    "Kernel Tuner cache file '.*conv_small.kt-cache.json.gz', NVIDIA RTX A4000: 256 entries, 18 failed; 0 of the spec's 256 configurations missing" \
    "$tmp/cache.err"
check "the T4 file imports" "$cutune" import "$data/conv_small.T4.json" --spec "$spec" -o "$tmp/t4.json" \
    --gpu-name "NVIDIA RTX A4000" 2>/dev/null
check "the results say so" grep -q '"format": "cache file"' "$tmp/cache.json"

# -o -: the results on standard output, as cutune's other -o options take '-' (emit, report,
# import of a T1 file); no file named '-', and stderr says where the data came from only
(cd "$tmp" && "$cutune" import "$data/conv_small.kt-cache.json.gz" --spec "$spec" -o - >"$tmp/stdout.json" \
    2>"$tmp/stdout.err")
check "-o -: exit 0" test $? -eq 0
check "-o -: no file named '-'" test ! -e "$tmp/-"
check "-o -: the results -o FILE writes (but for the moment of the import)" python3 -c '
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    del d["source"]["imported"]
sys.exit(0 if a == b else 1)' "$tmp/stdout.json" "$tmp/cache.json"
check "-o -: stderr names the cache" grep -q "^Kernel Tuner cache file '.*conv_small.kt-cache.json.gz'" "$tmp/stdout.err"
check "-o -: ... and no results path" test "$(grep -c '^results:' "$tmp/stdout.err")" = 0
(cd "$tmp" && "$cutune" import "$data/conv_small.kt-cache.json.gz" --spec "$spec" -o - >/dev/full 2>"$tmp/full.err")
check "-o - to a full disk: exit 3" test $? -eq 3
check "... saying so" grep -q "cutune import: cannot write to standard output: No space left on device" "$tmp/full.err"

# simulate: the same runs, ratios and seconds as over the earlier conversion
sim() {
    "$cutune" simulate "$spec" --results "$1" --strategy genetic --budget 25 --repeat 10 --seed 3 --format json
}
sim "$data/conv_small.land.json" >"$tmp/land.sim" 2>&1
sim "$tmp/cache.json" >"$tmp/cache.sim" 2>&1
check "simulate ran over the earlier conversion" grep -q '"ratio"' "$tmp/land.sim"
# the reports differ in the results file's path and the objective's name ("time" in the
# earlier conversion, the spec's "time_ms" here); every figure is the same
same_figures() {
    python3 - "$@" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
keys = sys.argv[3:] or None
def cut(d):
    d = {k: v for k, v in d.items() if k not in ("results", "objective")}
    if keys:
        d = {"runs": [{k: r[k] for k in keys} for r in d["runs"]]}
    return d
sys.exit(0 if cut(a) == cut(b) else 1)
PY
}
check "simulate over the imported cache gives the earlier conversion's figures" \
    same_figures "$tmp/land.sim" "$tmp/cache.sim"
sim "$tmp/t4.json" >"$tmp/t4.sim" 2>&1
check "and over the imported T4 file the same runs and ratios" \
    same_figures "$tmp/land.sim" "$tmp/t4.sim" ratio best best_index best_at evaluations

# --kernel NAME: a spec of several kernel blocks (the recording's one, and another) takes
# the block's name, as emit header --kernel and the spec's other commands do
{
    printf 'kernel convolution_kernel as probe from "%s" {\n' "$data/convolution_kernel.cu"
    printf '    param block_size_x in [16, 32];\n    block block_size_x;\n    grid 1;\n}\n'
    sed -e "s|^kernel convolution_kernel from \"convolution_kernel.cu\"|kernel convolution_kernel as corner from \"$data/convolution_kernel.cu\"|" \
        "$spec"
} >"$tmp/two.tune"
check "the two-block spec checks" "$cutune" check "$tmp/two.tune"
"$cutune" import "$data/conv_small.kt-cache.json.gz" --spec "$tmp/two.tune" -o "$tmp/two.json" 2>"$tmp/two.err"
check "two blocks, no --kernel: exit 2" test $? -eq 2
check "... naming both and the option" grep -qx "cutune import: $tmp/two.tune has 2 kernel blocks (probe (kernel convolution_kernel), corner (kernel convolution_kernel)): a recording is of one; name it with --kernel NAME" "$tmp/two.err"
check "... nothing written" test ! -e "$tmp/two.json"
"$cutune" import "$data/conv_small.kt-cache.json.gz" --spec "$tmp/two.tune" --kernel nope -o "$tmp/two.json" 2>"$tmp/two.err"
check "--kernel naming no block: exit 2" test $? -eq 2
check "... listing the blocks there are" grep -qx "cutune import: $tmp/two.tune has no kernel block named 'nope' (its blocks: probe (kernel convolution_kernel), corner (kernel convolution_kernel))" "$tmp/two.err"
check "... nothing written" test ! -e "$tmp/two.json"
"$cutune" import "$data/conv_small.kt-cache.json.gz" --spec "$tmp/two.tune" --kernel convolution_kernel -o "$tmp/two.json" 2>"$tmp/two.err"
check "--kernel KERNEL: the kernel's first block (probe), whose params the cache lacks: exit 3" test $? -eq 3
check "... the cache's params named" grep -q '"block_size_y" is not a param of the spec' "$tmp/two.err"
check "--kernel corner: exit 0" "$cutune" import -q "$data/conv_small.kt-cache.json.gz" --spec "$tmp/two.tune" --kernel corner \
    -o "$tmp/two.json"
check "... the results are of block corner" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["spec"]["block"] == "corner" and d["spec"]["kernel"] == "convolution_kernel" and len(d["results"]) == 256 else 1)' \
    "$tmp/two.json"
check "... and its header is block corner's" bash -c "'$cutune' emit header '$tmp/two.json' --spec '$tmp/two.tune' 2>/dev/null |
    grep -q '^#define CORNER_BLOCK_DIM_X '"
check "--kernel KERNEL of a one-block spec: exit 0" "$cutune" import -q "$data/conv_small.kt-cache.json.gz" --spec "$spec" \
    --kernel convolution_kernel -o "$tmp/one.json"
"$cutune" import "$src/test/data/t1/bat/TRIAD/TRIAD-CAFF.json" --kernel triad -o - >/dev/null 2>"$tmp/t1k.err"
check "--kernel without --spec: exit 2" test $? -eq 2
check "... saying it goes with --spec" grep -q "kernel goes with --spec" "$tmp/t1k.err"

# report and emit read the import
check "report reads it" "$cutune" report "$tmp/cache.json" -o "$tmp/r.html" 2>/dev/null
check "emit header reads it" "$cutune" emit header "$tmp/cache.json" -o "$tmp/conv.h" 2>/dev/null
check "the header launches what the spec plans" grep -q 'CONVOLUTION_KERNEL_BLOCK_DIM_X' "$tmp/conv.h"
check "emit csv reads it" "$cutune" emit csv "$tmp/cache.json" -o "$tmp/conv.csv" 2>/dev/null
check "the failures keep their kinds" bash -c "grep -c ',compile error,' '$tmp/conv.csv' | grep -qx 4 &&
    grep -c ',launch error,' '$tmp/conv.csv' | grep -qx 14"

# refused: exit 3, the file and the JSON path named, nothing written
python3 -c '
import gzip, json, sys
d = json.load(gzip.open(sys.argv[1]))
k = next(iter(d["cache"]))
d["cache"][k]["tile_size_x"] = 2.5
json.dump(d, open(sys.argv[2], "w"))
' "$data/conv_small.kt-cache.json.gz" "$tmp/bad.json"
"$cutune" import "$tmp/bad.json" --spec "$spec" -o "$tmp/bad-out.json" 2>"$tmp/bad.err"
check "a wrong value exits 3" test $? -eq 3
check "naming the file and the JSON path" grep -q 'bad.json: cache."80,4,1,1,0,0,0,1,15,15".tile_size_x: 2.5 is not an integer' \
    "$tmp/bad.err"
check "and writes nothing" test ! -e "$tmp/bad-out.json"
head -c 20000 "$data/conv_small.kt-cache.json.gz" >"$tmp/cut.json.gz"
"$cutune" import "$tmp/cut.json.gz" --spec "$spec" -o "$tmp/cut-out.json" 2>"$tmp/cut.err"
check "a truncated gzip file exits 3" test $? -eq 3
check "saying so" grep -q 'the gzip stream ends early' "$tmp/cut.err"
finish
