#!/usr/bin/env bash
# basics.sh CUTUNE SOURCE_DIR - the command line end to end: exit codes, help, check,
# list in every format, --set. Run by ctest.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
spec=$src/examples/sweep.tune

"$cutune" --version >"$tmp/out"; check "--version exits 0" test $? -eq 0
check "--version prints the version" grep -qE '^cutune [0-9]+\.[0-9]+\.[0-9]+$' "$tmp/out"
"$cutune" --help >"$tmp/out"; check "--help exits 0" test $? -eq 0
check "--help lists the commands" grep -q 'list ' "$tmp/out"
"$cutune" help list >"$tmp/out"; check "help list exits 0" test $? -eq 0
check "help list documents --limit" grep -q -- '--limit N' "$tmp/out"
"$cutune" list --help >"$tmp/out"; check "list --help works" grep -q -- '--format' "$tmp/out"
"$cutune" >/dev/null 2>&1; check "no arguments is a usage error (2)" test $? -eq 2
"$cutune" frobnicate >/dev/null 2>&1; check "unknown command is a usage error (2)" test $? -eq 2
"$cutune" help frobnicate >/dev/null 2>&1; check "help on an unknown command is a usage error" test $? -eq 2
"$cutune" list --format xml "$spec" >/dev/null 2>&1; check "bad --format is a usage error" test $? -eq 2
"$cutune" list --limit -3 "$spec" >/dev/null 2>&1; check "bad --limit is a usage error" test $? -eq 2
"$cutune" check "$tmp/missing.tune" 2>"$tmp/err"; check "missing spec exits 3" test $? -eq 3
check "missing spec is named" grep -q "cannot read spec '$tmp/missing.tune'" "$tmp/err"

# check: the sweep's space. 26 block shapes of 32..1024 threads (worked out by hand in
# test/unit/test_space.c) x 4 tile_y x 3 maxrreg = 312 of 7*6*4*3 = 504.
"$cutune" check --color never "$spec" >"$tmp/out" 2>"$tmp/err"; check "check exits 0" test $? -eq 0
check "check counts the sweep" grep -q '^space  *504 raw, 312 valid' "$tmp/out"
check "check prints no diagnostics for the example" test ! -s "$tmp/err"
"$cutune" check --format json "$spec" >"$tmp/out"
check "check --format json is JSON with the counts" python3 -c "
import json,sys; d=json.load(open('$tmp/out')); sys.exit(0 if d['raw']==504 and d['valid']==312 and len(d['params'])==4 else 1)"

# list: every format has one row per valid configuration.
"$cutune" list --format csv "$spec" >"$tmp/out"; check "list csv exits 0" test $? -eq 0
check "list csv has a header and 312 rows" test "$(wc -l <"$tmp/out")" -eq 313
check "list csv rows respect the constraint" python3 -c "
import csv,sys
rows=list(csv.DictReader(open('$tmp/out')))
ok=all(32<=int(r['block_x'])*int(r['block_y'])<=1024 and int(r['block.x'])==int(r['block_x']) for r in rows)
ok=ok and all(int(r['grid.y'])==-(-16384//(int(r['block_y'])*int(r['tile_y']))) for r in rows)
ok=ok and all(('--maxrregcount=' in r['options'])==(r['maxrreg']!='0') for r in rows)
sys.exit(0 if ok and len(rows)==312 else 1)"
"$cutune" list --format json "$spec" >"$tmp/out"
check "list json is an array of 312 objects" python3 -c "
import json,sys; d=json.load(open('$tmp/out')); sys.exit(0 if len(d)==312 and d[0]['defines']==['-DTILE_Y=1'] else 1)"
"$cutune" list --limit 4 "$spec" >"$tmp/out" 2>"$tmp/err"
check "list --limit 4 prints a header and 4 rows" test "$(wc -l <"$tmp/out")" -eq 5
check "list --limit says it stopped early" grep -q 'stopped after 4' "$tmp/err"
"$cutune" list --limit 1 "$spec" >/dev/null 2>"$tmp/err"
check "list --limit 1 says one configuration, not 'configurations'" grep -q 'stopped after 1 configuration: --limit' "$tmp/err"
"$cutune" list --format json --limit 0 "$spec" >/dev/null; check "--limit 0 means all" test $? -eq 0

# --set overrides a let: a 1024-column matrix needs 32 blocks of 32 threads.
"$cutune" list --format csv --set nx=1024 --limit 2 "$spec" >"$tmp/out"
check "--set changes the geometry" grep -q '^1,16,2,1,32,16,2,1,64,' "$tmp/out"
"$cutune" check --set nq=4 "$spec" >/dev/null 2>"$tmp/err"; check "--set of an unknown let exits 1" test $? -eq 1
check "--set typo gets a hint" grep -q "did you mean 'nx'" "$tmp/err"

# an invalid spec: exit 1 with file:line:col, and the main command behaves the same.
printf 'kernel k from "k.cu" {\n  param x in [1, 2];\n  require y > 1;\n}\n' >"$tmp/bad.tune"
: >"$tmp/k.cu"
"$cutune" check --color never "$tmp/bad.tune" 2>"$tmp/err"; check "invalid spec exits 1" test $? -eq 1
check "error names file:line:col" grep -q "bad.tune:3:11: error: unknown name 'y'" "$tmp/err"
"$cutune" "$tmp/bad.tune" 2>/dev/null; check "cutune SPEC on an invalid spec exits 1" test $? -eq 1

# the main command on the example, every GPU hidden: does what needs no GPU, says what it did not do.
CUDA_VISIBLE_DEVICES=-1 "$cutune" "$spec" >"$tmp/out" 2>"$tmp/err"; check "cutune SPEC without a GPU exits 4 (not tuned)" test $? -eq 4
check "cutune SPEC summarises the space" grep -q '312 valid' "$tmp/out"
check "cutune SPEC says plainly it did not tune" grep -q 'NOT TUNED' "$tmp/err"

finish
