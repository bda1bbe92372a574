#!/usr/bin/env bash
# header_trust.sh CUTUNE SOURCE_DIR - a results file is untrusted (docs/results-format.md,
# "What is refused"): names that are not C identifiers (a '/*/' that would put code into
# the header, a '-'), values not exactly of their param's type (1000000.0, 2.5, true,
# "0x40" for an int), bad launch dimensions: each refused where the file is loaded, with
# the file and the JSON path, exit non-zero and nothing written. Run by ctest.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fx=$src/test/emit

# mutate OUT PYTHON: test/emit/h100.json changed by PYTHON (d is the document) into OUT.
mutate() {
    python3 - "$fx/h100.json" "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def rename(old, new):
    d["spec"]["params"][[p["name"] for p in d["spec"]["params"]].index(old)]["name"] = new
    for e in d["results"]:
        e["params"][new] = e["params"].pop(old)
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
}

# refused NAME FILE PATTERN: `emit header FILE` fails, says PATTERN, writes nothing;
# `emit csv` and `report` refuse it too.
refused() {
    local name=$1 file=$2 pattern=$3
    rm -f "$tmp/out.h"
    "$cutune" emit header "$file" -o "$tmp/out.h" 2>"$tmp/err"
    local rc=$?
    check "$name: emit header exits non-zero (got $rc)" test "$rc" -ne 0
    check "$name: the message names the place ($pattern)" grep -qF -- "$pattern" "$tmp/err"
    check "$name: no header written" test ! -e "$tmp/out.h"
    "$cutune" emit csv "$file" >/dev/null 2>&1
    check "$name: emit csv refuses it too" test $? -ne 0
}

# ---- names that would reach a header as code ----
mutate "$tmp/inject.json" 'rename("block_x", "x */ int injected(void) { return 42; } /* y")'
refused "a '/*/' param name" "$tmp/inject.json" "inject.json: spec.params[0].name: \"x */ int injected"
grep -q "not a C identifier" "$tmp/err"; check "a '/*/' param name: says why" test $? -eq 0
mutate "$tmp/dash.json" 'rename("tile_y", "tile-y")'
refused "a param name with '-'" "$tmp/dash.json" 'dash.json: spec.params[1].name: "tile-y" is not a C identifier'
mutate "$tmp/twice.json" 'rename("tile_y", "maxrreg_")
d["spec"]["params"][1]["name"] = "maxrreg"'
refused "one param name twice" "$tmp/twice.json" 'spec.params[2].name: "maxrreg" names spec.params[1] too'
mutate "$tmp/kernel.json" 'd["spec"]["kernel"] = "k\n#define x"'
refused "a kernel name with a line break" "$tmp/kernel.json" 'spec.kernel: "k\n#define x" is not a C identifier'
mutate "$tmp/objective.json" 'd["objective"]["name"] = "<script>alert(1)</script>"'
refused "an objective name of markup" "$tmp/objective.json" 'objective.name: "<script>alert(1)</script>"'
mutate "$tmp/metric.json" 'd["results"][1]["metrics"] = {"a b": 1.0}'
refused "a metric name with a space" "$tmp/metric.json" 'results[1].metrics: "a b" is not a C identifier'
mutate "$tmp/type.json" 'd["spec"]["params"][0]["type"] = "long"'
refused "an unknown param type" "$tmp/type.json" 'spec.params[0].type: "long" is not a param type'

# ---- values converted exactly or refused ----
for v in 1000000.0 2.5 true '"0x40"' null '[64]'; do
    mutate "$tmp/value.json" "d['results'][2]['params']['block_x'] = json.loads('$v')"
    refused "int param value $v" "$tmp/value.json" "value.json: results[2].params.block_x: $v is not an integer"
done
mutate "$tmp/float.json" 'd["spec"]["params"][1]["type"] = "float"
for e in d["results"]: e["params"]["tile_y"] = 4.0
d["results"][0]["params"]["tile_y"] = 2**60 + 1'
refused "a float param value a double cannot hold" "$tmp/float.json" "results[0].params.tile_y: 1152921504606846977 is not a number"
mutate "$tmp/bool.json" 'd["spec"]["params"][2]["type"] = "bool"
for e in d["results"]: e["params"]["maxrreg"] = False
d["results"][3]["params"]["maxrreg"] = 0'
refused "a bool param value 0" "$tmp/bool.json" "results[3].params.maxrreg: 0 is not true or false"

# ---- launch dimensions ----
mutate "$tmp/block.json" 'd["results"][1]["block"] = [64.0, 1, 1]'
refused "a real block dimension" "$tmp/block.json" "results[1].block[0]: 64.0 is not a launch dimension"
mutate "$tmp/grid.json" 'd["results"][2]["grid"] = [64, -256, 1]'
refused "a negative grid dimension" "$tmp/grid.json" "results[2].grid[1]: -256 is not a launch dimension"
mutate "$tmp/smem.json" 'd["results"][0]["smem_bytes"] = -1'
refused "negative shared memory" "$tmp/smem.json" "results[0].smem_bytes: -1 is not a size in bytes"

# ---- a run over sizes: the path names the size ----
"$cutune" emit header "$fx/sizes.json" -o "$tmp/sizes.h" 2>/dev/null
check "the sizes fixture loads" test $? -eq 0
python3 - "$fx/sizes.json" "$tmp/sized.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
first = d["spec"]["params"][0]["name"]
d["sizes"][1]["results"][0]["params"][first] = 1.5
json.dump(d, open(sys.argv[2], "w"))
PY
refused "a value in a size of a run over sizes" "$tmp/sized.json" "sized.json: sizes[1].results[0].params."

# ---- names across the headers of one file, and one entry per device ----
mutate "$tmp/k.json" 'd["spec"]["path"] = ""
d["spec"]["kernel"] = "k"
rename("tile_y", "a_tile_y")'
mutate "$tmp/k_a.json" 'd["spec"]["path"] = ""
d["spec"]["kernel"] = "k_a"'
"$cutune" emit header -q "$tmp/k.json" "$tmp/k_a.json" -o "$tmp/two.h" 2>"$tmp/err"
check "K and K_A: emit header refuses the clash (exit non-zero)" test $? -ne 0
check "K and K_A: the message names both sides" grep -qF \
    "param 'tile_y' of kernel 'k_a' would make the header define K_A_TILE_Y (a macro), as param 'a_tile_y' of kernel 'k' does" "$tmp/err"
check "K and K_A: nothing written" test ! -e "$tmp/two.h"
cp "$fx/h100.json" "$tmp/again.json"
"$cutune" emit header --spec "$fx/scale.tune" "$fx/h100.json" "$tmp/again.json" -o "$tmp/dup.h" 2>"$tmp/err"
check "two results of one device: refused" test $? -ne 0
check "two results of one device: says why" grep -qF "again.json are both of device \"NVIDIA H100 80GB HBM3\"" "$tmp/err"
check "two results of one device: nothing written" test ! -e "$tmp/dup.h"

# ---- free text reaches the header only inside comments and string literals ----
mutate "$tmp/text.json" 'd["spec"]["path"] = ""
d["device"]["name"] = "*/ int injected_a; /* \\\n??/ \"); int injected_b; (\""
d["date"] = "/*/ int injected_c; /*/"
d["results"][2]["defines"] = ["-DX=\"*/ int injected_d; /*\""]'
"$cutune" emit header -q "$tmp/text.json" -o "$tmp/text.h"
check "hostile free text: the header is written" test $? -eq 0
check "hostile free text: no injected code outside comments and strings" python3 - "$tmp/text.h" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
assert "??" not in t, "a trigraph"
code = re.sub(r'/\*.*?\*/|"(?:\\.|[^"\\\n])*"', " ", t, flags=re.S)
assert "injected" not in code, [l for l in code.splitlines() if "injected" in l]
assert "/*" not in code and "*/" not in code
PY
printf '#include <stdio.h>\n#include "text.h"\nint main(void) { fputs(SUM_MATRIX_DEVICE_NAME, stdout); return 0; }\n' \
    >"$tmp/text.c"
cc -std=c11 -Wall -Wextra -pedantic -Werror -I"$tmp" -o "$tmp/text" "$tmp/text.c"
check "hostile free text: the header compiles cleanly" test $? -eq 0
"$tmp/text" >"$tmp/text.out"
check "hostile free text: the device's name reads back exactly from the C string" python3 - "$tmp/text.out" <<'PY'
import sys
got = open(sys.argv[1], "rb").read()
want = b'*/ int injected_a; /* \\\n??/ "); int injected_b; ("'
assert got == want, (got, want)
PY

# ---- CSV: spreadsheet formulas stay text ----
mutate "$tmp/formula.json" 'd["results"][0]["reason"] = "=HYPERLINK(\"http://x\")"
d["results"][3]["reason"] = "-2+3+cmd|\u0027 /C calc\u0027!A0"'
"$cutune" emit csv "$tmp/formula.json" -o "$tmp/formula.csv"
check "csv: a formula in a reason starts with an apostrophe" python3 - "$tmp/formula.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert rows[0]["reason"] == "'=HYPERLINK(\"http://x\")", rows[0]["reason"]
assert rows[3]["reason"] == "'-2+3+cmd|' /C calc'!A0", rows[3]["reason"]
assert rows[1]["options"] == "-std=c++17" and rows[2]["defines"] == "-DTILE_Y=4"  # options stay as they are
PY

# ---- what stays accepted: the fixtures, integers for a float param ----
mutate "$tmp/floatint.json" 'd["spec"]["params"][1]["type"] = "float"'
"$cutune" emit csv "$tmp/floatint.json" >/dev/null
check "an integer for a float param is read exactly" test $? -eq 0
finish
