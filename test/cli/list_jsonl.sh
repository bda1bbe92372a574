#!/usr/bin/env bash
# list_jsonl.sh CUTUNE SOURCE_DIR - `cutune list --format jsonl`: one compact JSON object
# per configuration, one per line, nothing around them: the same objects, in the same
# order, as `--format json`'s array; --limit applies; a file of several kernel blocks
# needs --kernel, as for csv and json. (Its memory on 1.8 million configurations is
# checked by test/cli/scale.sh.) No GPU.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
spec=$src/examples/sweep.tune

"$cutune" list -q --format json "$spec" >"$tmp/all.json" 2>/dev/null
"$cutune" list -q --format jsonl "$spec" >"$tmp/all.jsonl" 2>"$tmp/err"
check "jsonl: exit 0" test $? -eq 0
check "jsonl: the objects of json's array, in order, one per line" python3 -c "
import json, sys
array = json.load(open(sys.argv[1]))
lines = open(sys.argv[2]).read().split('\n')
assert lines[-1] == '', 'the last line ends with a newline'
objects = [json.loads(l) for l in lines[:-1]]
assert objects == array and len(array) > 100, (len(objects), len(array))
assert all(l.startswith('{\"index\":') and '\n' not in l for l in lines[:-1])" "$tmp/all.json" "$tmp/all.jsonl"
"$cutune" list -q --format jsonl --limit 3 "$spec" >"$tmp/three.jsonl" 2>/dev/null
check "jsonl --limit 3: three lines" test "$(wc -l <"$tmp/three.jsonl")" -eq 3
check "... the first three" bash -c "head -n 3 '$tmp/all.jsonl' | cmp -s - '$tmp/three.jsonl'"
"$cutune" list --format jsonl "$src/examples/library.tune" >/dev/null 2>"$tmp/err"
check "a file of two kernel blocks without --kernel: 2" test $? -eq 2
check "... said, naming jsonl" grep -q "csv, json or jsonl" "$tmp/err"
"$cutune" list --format jsonx "$spec" >/dev/null 2>"$tmp/err"
check "an unknown format: 2" test $? -eq 2
check "... the formats named" grep -q "table, csv, json or jsonl, not 'jsonx'" "$tmp/err"
"$cutune" help list >"$tmp/help"
check "help names jsonl" grep -q "table|csv|json|jsonl" "$tmp/help"
finish
