#!/usr/bin/env bash
# import.sh CUTUNE SOURCE_DIR - `cutune import FILE` (a T1 tuning problem as a spec): every
# sample of test/data/t1 (the Kernel Tuner benchmark hub's convolution, dedispersion and
# hotspot, BAT's GEMM, MD5Hash, TRIAD and nbody) imports, and the imported space counts
# exactly what the T1 conditions allow: the hub's figures (convolution 4,362, dedispersion
# 11,130) and, for every sample, test/cli/t1_count.py's count (Python evaluating the
# Values and Conditions itself). Constant memory (MemType "Constant") fills the kernel's
# __constant__ variable and is passed as an argument too; malformed files (not JSON,
# missing keys, wrong types, unknown fill types, Python cutune cannot say) are refused
# with the path and the reason; an existing OUT is kept unless --force. A param whose
# name the best-config header cannot define (TRIAD_TUNED, two params upper-cased the
# same, <math.h>'s names) is renamed, its macro kept, each rule of compiler/hnames.h
# tried; a name longer than a header's names may be is refused.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CUTUNE_CACHE_DIR=$tmp/cache CUDA_VISIBLE_DEVICES=-1 NO_COLOR=1
cp -r "$src/test/data/t1" "$tmp/t1"
chmod -R u+w "$tmp/t1"
t1=$tmp/t1
# valid SPEC: the valid configurations `cutune check` counts.
valid() { "$cutune" check "$1" 2>/dev/null | sed -n 's/^space .* raw, \([0-9,]*\) valid.*/\1/p' | tr -d ,; }
# edit IN OUT PYTHON: OUT is IN's JSON `d` after PYTHON ran on it.
edit() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $3; json.dump(d, open(sys.argv[2], 'w'))" "$1" "$2"; }

# ---- every sample that cutune can say imports, and counts what Python counts ----
for f in hotspot_milo.json bat/GEMM/GEMM-CAFF.json bat/MD5Hash/MD5Hash-CAFF.json bat/TRIAD/TRIAD-CAFF.json \
    bat/nbody/nbody-CAFF.json; do
    "$cutune" import "$t1/$f" 2>"$tmp/err"
    check "$f imports (exit 0): $(head -n 1 "$tmp/err")" test $? -eq 0
    spec=$t1/${f%.json}.tune
    check "$f: the spec beside it" test -f "$spec"
    want=$(python3 "$src/test/cli/t1_count.py" "$t1/$f")
    got=$(valid "$spec")
    check "$f: cutune counts $got valid configurations, Python $want" test "$got" = "$want"
done
check "hotspot: 82,984 valid (Python's count, checked above, written down)" test "$(valid "$t1/hotspot_milo.tune")" = 82984
check "GEMM's Budget is the search's" grep -q "search(budget = 200);" "$t1/bat/GEMM/GEMM-CAFF.tune"
check "GEMM's Output verified against its Defaults" grep -q "verify cgm against config(MWG = 16, " "$t1/bat/GEMM/GEMM-CAFF.tune"
check "hotspot's ProblemSize and GridDiv make the grid" \
    grep -qF "grid (cdiv(problem_size_x, block_size_x * tile_size_x), cdiv(problem_size_y, block_size_y * tile_size_y));" \
    "$t1/hotspot_milo.tune"
check "nbody's OpenCL GlobalSize is threads: divided by the block" \
    grep -qF "grid cdiv(128 * 1024 // OUTER_UNROLL_FACTOR, BLOCK_SIZE);" "$t1/bat/nbody/nbody-CAFF.tune"
check "TRIAD's Generator is a ramp" grep -qF "arg A : in double[4096] = ramp(start = 0.0, step = 1.0);" \
    "$t1/bat/TRIAD/TRIAD-CAFF.tune"
check "MD5Hash's unknown key is a note" grep -q "note: .*SharedMemoryOriginal: not translated" \
    "$t1/bat/MD5Hash/MD5Hash-CAFF.tune"

# ---- the hub's convolution and dedispersion: their spaces are the hub's, 4,362 and 11,130 ----
cp "$t1/dedisp_milo/dedispersion.cu" "$t1/dedisp_milo/dedispersion.cu.hip" # the hub names its HIP build
for f in convolution_milo:4362 dedispersion_milo:11130; do
    name=${f%%:*}
    "$cutune" import "$t1/$name.json" 2>"$tmp/err"
    check "$name imports: $(head -n 1 "$tmp/err")" test $? -eq 0
    check "$name: ${f##*:} valid, the hub's figure" test "$(valid "$t1/$name.tune")" = "${f##*:}"
    check "$name: Python counts the same" test "$(python3 "$src/test/cli/t1_count.py" "$t1/$name.json")" = "${f##*:}"
done
# constant memory (MemType "Constant", Kernel Tuner's cmem_args): the kernel's
# __constant__ filled, and the data passed as its argument too, as BAT does
check "the convolution's filter fills its __constant__ d_filter" grep -qF \
    'arg d_filter : constant float[225] = random(seed = 2, min = 0, max = 1.0);' "$t1/convolution_milo.tune"
check "...and is the kernel's third argument" grep -qF 'arg d_filter_arg : in float[225] = random(seed = 2, min = 0, max = 1.0);' \
    "$t1/convolution_milo.tune"
check "the dedispersion kernel declares no __constant__ shifts: an argument only, and a note" \
    grep -q "note: .*Arguments\[2\].MemType: the kernel declares no __constant__ 'shifts'" "$t1/dedispersion_milo.tune"
check "...no constant argument" test "$(grep -c ': constant ' "$t1/dedispersion_milo.tune")" = 0
check "the convolution's Python conditions in the spec language" grep -qF \
    "require use_shmem == 0 || (block_size_x * tile_size_x + (filter_width - 1)) * (block_size_y * tile_size_y + (filter_height - 1)) < 12 * 1024;" \
    "$t1/convolution_milo.tune"
check "dedispersion's chained comparison kept" grep -qF "require 32 <= block_size_x * block_size_y <= 1024;" \
    "$t1/dedispersion_milo.tune"

# ---- OUT: beside FILE by default, -o elsewhere (paths made relative), - for stdout, no overwrite ----
"$cutune" import "$t1/bat/TRIAD/TRIAD-CAFF.json" 2>"$tmp/err"
check "an existing OUT is refused (exit 3)" test $? -eq 3
check "...saying --force replaces it" grep -q "exists; --force replaces it" "$tmp/err"
"$cutune" import -q --force "$t1/bat/TRIAD/TRIAD-CAFF.json"
check "--force replaces it" test $? -eq 0
mkdir "$tmp/elsewhere"
"$cutune" import -q "$t1/bat/TRIAD/TRIAD-CAFF.json" -o "$tmp/elsewhere/triad.tune"
check "-o elsewhere: the kernel's path relative to it" grep -qF 'kernel triad from "../t1/bat/TRIAD/triad_kernel.cu"' \
    "$tmp/elsewhere/triad.tune"
check "-o elsewhere: it counts the same" test "$(valid "$tmp/elsewhere/triad.tune")" = 4320
"$cutune" import -q "$t1/bat/TRIAD/TRIAD-CAFF.json" -o - >"$tmp/stdout.tune"
check "-o -: the spec on stdout" grep -q "^kernel triad from" "$tmp/stdout.tune"

# ---- names the best-config header cannot define: the param renamed, its macro kept ----
# The header (docs/header.md) of kernel triad defines TRIAD_<PARAM> for each param, a field
# <param> of TRIAD_params, and names of its own (TRIAD_TUNED, CUTUNE_TRIAD_H, ...); two
# of them may not meet, nor a name of <math.h> (compiler/hnames.h). A T1 param whose name
# would make them meet is renamed with '_' added (the later of two params), still
# defined as its T1 macro: the spec checks, its header is written, each variant gets the
# T1 macros with its values.
triad=$t1/bat/TRIAD
sed 's/\btriad\b/fp/g' "$triad/triad_kernel.cu" >"$triad/fp.cu" # the same kernel, named fp
names() { # names KERNEL NAME...: TRIAD-CAFF.json with KERNEL and params NAME... ([1, 2], default 1) as $triad/n.json
    local kernel=$1
    shift
    python3 - "$triad/TRIAD-CAFF.json" "$triad/n.json" "$kernel" "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
if sys.argv[3] != 'triad':
    d['KernelSpecification']['KernelName'], d['KernelSpecification']['KernelFile'] = sys.argv[3], sys.argv[3] + '.cu'
d['ConfigurationSpace']['TuningParameters'] += [{'Name': n, 'Type': 'int', 'Values': '[1, 2]', 'Default': 1}
                                                for n in sys.argv[4:]]
json.dump(d, open(sys.argv[2], 'w'))
PY
}
renamed() { # renamed WHAT KERNEL 'NAME>SPEC_NAME'... -- NOTE...: each NAME imported as SPEC_NAME, with each NOTE
    local what=$1 kernel=$2
    shift 2
    local pairs=() macros=()
    while [ "$1" != -- ]; do pairs+=("$1"); macros+=("${1%%>*}"); shift; done
    shift
    names "$kernel" "${macros[@]}"
    rm -f "$triad/n.tune"
    "$cutune" import "$triad/n.json" 2>"$tmp/err"
    check "$what: imported (exit 0): $(grep -v '^note' "$tmp/err" | head -n 1)" test $? -eq 0
    for note; do
        check "$what: the note '$note'" grep -qF "note: $triad/n.json: \$.ConfigurationSpace.TuningParameters[$note" "$tmp/err"
    done
    for pair in "${pairs[@]}"; do
        local name=${pair%%>*} spec=${pair##*>} route=""
        [ "$name" != "$spec" ] && route=" as define $name"
        check "$what: param $spec$route" grep -qx "    param $spec in \[1, 2\]$route default 1;" "$triad/n.tune"
    done
    check "$what: the spec checks" bash -c "'$cutune' check -q '$triad/n.tune' >/dev/null"
    check "$what: its header is written" bash -c "'$cutune' emit header -q --spec '$triad/n.tune' >'$tmp/n.h'"
    "$cutune" list "$triad/n.tune" --format json --limit 64 >"$tmp/n.list.json" 2>/dev/null
    check "$what: each variant defines the T1 macros with its values" python3 -c "import json, sys
rows = json.load(open(sys.argv[1]))
assert rows
for r in rows:
    for pair in sys.argv[2:]:
        name, spec = pair.split('>')
        assert '-D%s=%d' % (name, r['params'][spec]) in r['defines'], (pair, r['defines'])" "$tmp/n.list.json" "${pairs[@]}"
}
renamed "a name the header defines itself (TRIAD_TUNED)" triad 'tuned>tuned_' -- \
    "3].Name: 'tuned' would make the best-config header define TRIAD_TUNED, which the header defines for itself: the param is 'tuned_', still defined as the macro tuned"
check "... the header defines TRIAD_TUNED_ for it" grep -q '^#define TRIAD_TUNED_ 1$' "$tmp/n.h"
renamed "upper-cased the same (TRIAD_TILE twice): the later renamed" triad 'Tile>Tile' 'TILE>TILE_' -- \
    "4].Name: 'TILE' would make the best-config header define TRIAD_TILE, as param 'Tile' does: the param is 'TILE_', still defined as the macro TILE"
renamed "a field named as <math.h>'s NAN" triad 'NAN>NAN_' -- \
    "3].Name: 'NAN' would make the best-config header define NAN, a name of <math.h> or <string.h>: the param is 'NAN_'"
renamed "the kernel's prefix and the param make <math.h>'s FP_NAN" fp 'nan>nan_' -- \
    "3].Name: 'nan' would make the best-config header define FP_NAN, a name of <math.h> or <string.h>: the param is 'nan_'"
renamed "a field named as another param's macro (TRIAD_X)" triad 'x>x' 'TRIAD_X>TRIAD_X_' -- \
    "4].Name: 'TRIAD_X' would make the best-config header define TRIAD_X, as param 'x' does: the param is 'TRIAD_X_'"
renamed "a field named as the header's guard" triad 'CUTUNE_TRIAD_H>CUTUNE_TRIAD_H_' -- \
    "3].Name: 'CUTUNE_TRIAD_H' would make the best-config header define CUTUNE_TRIAD_H, which the header defines for itself"
renamed "a new name another param has: one more '_'" triad 'tuned>tuned__' 'tuned_>tuned_' -- \
    "3].Name: 'tuned' would make the best-config header define TRIAD_TUNED, which the header defines for itself: the param is 'tuned__'"
check "... and tuned_ has no note" test "$(grep -c 'TuningParameters\[4\]' "$tmp/err")" = 0
renamed "a name clashing with nothing: as it is" triad 'Tuned_x>Tuned_x' 'tiles>tiles' --
check "... no note of the header" test "$(grep -c 'best-config header' "$tmp/err")" = 0
long=$(printf 'p%.0s' $(seq 255))
renamed "a name of 255 bytes, the header's most" triad "$long>$long" --
names triad "${long}q"
"$cutune" import -o - "$triad/n.json" >/dev/null 2>"$tmp/err"
check "a name of 256 bytes: refused (exit 1)" test $? -eq 1
check "... at its Name, saying the most" grep -qF "n.json: \$.ConfigurationSpace.TuningParameters[3].Name: is 256 bytes long: the best-config header's names are at most 255 (shorten the macro)" "$tmp/err"

# ---- malformed T1 files: refused (exit 1) with the JSON path and the reason ----
base=$t1/bat/TRIAD/TRIAD-CAFF.json
refused() { # refused WHAT PYTHON-EDIT EXPECTED-TEXT
    edit "$base" "$t1/bat/TRIAD/bad.json" "$2"
    "$cutune" import -o - "$t1/bat/TRIAD/bad.json" >/dev/null 2>"$tmp/err"
    local rc=$?
    check "$1: exit 1 (got $rc)" test $rc -eq 1
    check "$1: says '$3' (said: $(head -n 1 "$tmp/err"))" grep -qF "bad.json: $3" "$tmp/err"
}
refused "missing KernelName" "del d['KernelSpecification']['KernelName']" \
    '$.KernelSpecification: the key "KernelName" is missing'
refused "missing ConfigurationSpace" "del d['ConfigurationSpace']" '$: the key "ConfigurationSpace" is missing'
refused "Values of the wrong type" "d['ConfigurationSpace']['TuningParameters'][0]['Values'] = 3" \
    '$.ConfigurationSpace.TuningParameters[0].Values: is an integer, expected a Python list'
refused "an unknown fill type" "d['KernelSpecification']['Arguments'][2]['FillType'] = 'BinaryHDF'" \
    '$.KernelSpecification.Arguments[2].FillType: "BinaryHDF" is not supported'
refused "a vector element type cutune lacks" "d['KernelSpecification']['Arguments'][0]['Type'] = 'float8'" \
    '$.KernelSpecification.Arguments[0].Type: "float8" is not supported: of the vector types cutune has only'
refused "a scalar of a vector type" "d['KernelSpecification']['Arguments'][4]['Type'] = 'float4'" \
    '$.KernelSpecification.Arguments[4].Type: a scalar of a vector type is not translated'
refused "a Size of the wrong type" "d['KernelSpecification']['Arguments'][0]['Size'] = [1]" \
    '$.KernelSpecification.Arguments[0].Size: is an array, expected a number of elements'
refused "a condition's syntax error, with its column" \
    "d['ConfigurationSpace']['Conditions'][0]['Expression'] = 'LOOP_UNROLL_TRIAD <= * 2'" \
    '$.ConfigurationSpace.Conditions[0].Expression: expected a value (at column 22 of "LOOP_UNROLL_TRIAD <= * 2")'
refused "a condition reading an unknown name" \
    "d['ConfigurationSpace']['Conditions'][0]['Expression'] = 'LOOP_UNROLL < 4'" \
    "\$.ConfigurationSpace.Conditions[0].Expression: unknown name 'LOOP_UNROLL'"
refused "a condition's Parameters naming no param" \
    "d['ConfigurationSpace']['Conditions'][0]['Parameters'] = ['NOPE']" \
    "\$.ConfigurationSpace.Conditions[0].Parameters[0]: 'NOPE' is not a tuning parameter"
refused "an OpenCL kernel" "d['KernelSpecification']['Language'] = 'OpenCL'" \
    '$.KernelSpecification.Language: "OpenCL" is not supported'
refused "a constant-memory Scalar" "d['KernelSpecification']['Arguments'][3]['MemType'] = 'Constant'" \
    '$.KernelSpecification.Arguments[3].MemType: constant memory of a Scalar is not translated'
refused "an unknown MemType" "d['KernelSpecification']['Arguments'][0]['MemType'] = 'Texture'" \
    '$.KernelSpecification.Arguments[0].MemType: "Texture" is not a memory type cutune knows'
refused "an integer scalar's fractional value" "d['KernelSpecification']['Arguments'][4]['FillValue'] = 2.5" \
    '$.KernelSpecification.Arguments[4].FillValue: 2.5 is not a value of a int32'
printf '{"ConfigurationSpace": ' >"$t1/bat/TRIAD/bad.json"
"$cutune" import -o - "$t1/bat/TRIAD/bad.json" >/dev/null 2>"$tmp/err"
check "not JSON: exit 1" test $? -eq 1
check "not JSON: said at \$" grep -q 'bad.json: \$: not JSON' "$tmp/err"
"$cutune" import "$tmp/none.json" 2>"$tmp/err"
check "an unreadable file: exit 3" test $? -eq 3
finish
