#!/usr/bin/env bash
# merge.sh CUTUNE SOURCE_DIR - `cutune merge` (sharded runs): the real H100 runs of test/data
# split into 2 and 3 shards (test/cli/merge_check.py: entries by index % N, settings.shard
# added, nothing else recomputed) merge back into their entries, winner and counts; a
# twin whose run is in another shard is kept; a missing shard is refused unless
# --partial, whose file says what it holds and merges again with the rest; files of
# another spec, kernel, block of the spec, device, settings or split, overlapping shards,
# plain and version-2 files are refused (2), both files and what differs named, nothing
# written; unreadable files and outputs are 3.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
data=$src/test/data
sum=$data/report-sum_matrix-h100.json
mc() { python3 "$src/test/cli/merge_check.py" "$@"; }
# edit IN OUT PYTHON: OUT is IN's JSON `d` after PYTHON ran on it.
edit() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $3; json.dump(d, open(sys.argv[2], 'w'))" "$1" "$2"; }

# ---- shards merge back into the run they were split from ----
for f in report-sum_matrix-h100 report-sgemm-energy-h100 report-sgemm-genetic-h100 report-hw-tiny-h100; do
    for n in 2 3; do
        mkdir -p "$tmp/$f-$n"
        mc split "$data/$f.json" "$n" "$tmp/$f-$n"
        # given in reverse order: the output is in index order all the same
        "$cutune" merge $(ls -r "$tmp/$f-$n"/shard-*.json) -o "$tmp/$f-$n.json" 2>"$tmp/err"
        check "$f in $n shards: merged" test $? -eq 0
        check "$f in $n shards: the original's entries, winner, counts" mc same "$data/$f.json" "$tmp/$f-$n.json" "$n"
    done
done
check "the summary line" grep -q "merged 3 files: 15 variants" "$tmp/err"
# More shards than merge's threads (32): each file read once, the run back whole.
mkdir -p "$tmp/forty"
mc split "$sum" 40 "$tmp/forty"
"$cutune" merge -q $(ls -r "$tmp/forty"/shard-*.json) -o "$tmp/forty.json"
check "40 shards: the original's entries, winner, counts" mc same "$sum" "$tmp/forty.json" 40
check "merged_from names the inputs" python3 -c "import json,sys; d=json.load(open(sys.argv[1]))
assert d['settings']['merged_from'] == sys.argv[2:], d['settings']['merged_from']" \
    "$tmp/report-hw-tiny-h100-3.json" $(ls -r "$tmp/report-hw-tiny-h100-3"/shard-*.json)
check "hardware counters kept" python3 -c "import json,sys; d=json.load(open(sys.argv[1]))
assert sum('hw' in e for e in d['results']) == 8 and d['settings']['profile']['metrics']" "$tmp/report-hw-tiny-h100-2.json"
mkdir "$tmp/twin"
mc split "$sum" 2 "$tmp/twin" twin
"$cutune" merge -q "$tmp"/twin/shard-*.json -o "$tmp/twin.json" 2>"$tmp/err"
check "a twin of a run in another shard: merged" test $? -eq 0
check "a twin of a run in another shard: kept, counted" mc same "$sum" "$tmp/twin.json" 2 twin
check "-q: silent" test ! -s "$tmp/err"
# -o -: the merged file on stdout (the bytes a file would hold), what merge says on stderr
(cd "$tmp" && "$cutune" merge "$tmp"/twin/shard-*.json -o - >"$tmp/stdout.json" 2>"$tmp/err")
check "-o -: 0" test $? -eq 0
check "-o -: no file named '-'" test ! -e "$tmp/-"
check "-o -: stdout holds what -o FILE writes" cmp -s "$tmp/stdout.json" "$tmp/twin.json"
check "-o -: stderr says where" grep -q "^results: standard output$" "$tmp/err"

s3=$tmp/report-sum_matrix-h100-3
s2=$tmp/report-sum_matrix-h100-2
# The compile counts (summary.compiled, .cached) add up when every shard has them, and
# are left out when one lacks them (a file written before them): never a made-up zero.
mkdir -p "$tmp/counts"
edit "$s2/shard-0-of-2.json" "$tmp/counts/shard-0-of-2.json" "d['summary'].update(compiled=5, cached=1)"
edit "$s2/shard-1-of-2.json" "$tmp/counts/shard-1-of-2.json" "d['summary'].update(compiled=7, cached=2)"
"$cutune" merge -q "$tmp/counts"/shard-*.json -o "$tmp/counts.json"
check "compile counts: the shards' added up" python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['summary']
assert (s['compiled'], s['cached']) == (12, 3), s" "$tmp/counts.json"
cp "$s2/shard-1-of-2.json" "$tmp/counts/shard-1-of-2.json"
"$cutune" merge -q "$tmp/counts"/shard-*.json -o "$tmp/counts-part.json"
check "compile counts: left out when a shard lacks them" python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['summary']
assert 'compiled' not in s and 'cached' not in s, s" "$tmp/counts-part.json"
# ---- a missing shard: refused, or --partial ----
"$cutune" merge "$s3/shard-0-of-3.json" "$s3/shard-2-of-3.json" -o "$tmp/out.json" 2>"$tmp/err"
check "a missing shard: 2" test $? -eq 2
check "a missing shard: named, with the files" grep -q "shard 1 of 3 is missing from the files given ('$s3/shard-0-of-3.json', '$s3/shard-2-of-3.json')" "$tmp/err"
check "a missing shard: no output" test ! -e "$tmp/out.json"
"$cutune" merge -q "$s3/shard-0-of-3.json" "$s3/shard-2-of-3.json" -o "$tmp/part.json" --partial 2>"$tmp/err"
check "--partial: 0" test $? -eq 0
check "--partial: says which shard is missing (even with -q)" grep -q "partial: shard 1 of 3 missing" "$tmp/err"
check "--partial: the file says what it holds" python3 -c "import json,sys; d=json.load(open(sys.argv[1]))
assert d['settings']['shard'] == {'merged': [0, 2], 'count': 3, 'block': 1}, d['settings']
assert all(e['index'] % 3 != 1 for e in d['results']) and d['summary']['variants'] == 208" "$tmp/part.json"
"$cutune" merge -q "$tmp/part.json" "$s3/shard-1-of-3.json" -o "$tmp/again.json"
check "a partial merge and the missing shard: complete" mc same "$sum" "$tmp/again.json" 3
"$cutune" merge -q "$s3/shard-0-of-3.json" "$s3/shard-1-of-3.json" -o "$tmp/out.json" 2>"$tmp/err"
check "two missing shards: 2" test $? -eq 2
check "one missing shard of two given: named" grep -q "shard 2 of 3 is missing" "$tmp/err"
"$cutune" merge -q "$s3/shard-0-of-3.json" -o "$tmp/out.json" 2>"$tmp/err"
check "two missing: named" grep -q "shards 1, 2 of 3 are missing" "$tmp/err"

# ---- files that do not go together: 2, with both named ----
refused() { # WHAT PATTERN FILE...: merging FILE... exits 2, saying PATTERN
    local what=$1 pattern=$2
    shift 2
    rm -f "$tmp/out.json"
    "$cutune" merge "$@" -o "$tmp/out.json" 2>"$tmp/err"
    check "$what: 2" test $? -eq 2
    check "$what: said" grep -q -- "$pattern" "$tmp/err"
    check "$what: no output" test ! -e "$tmp/out.json"
}
refused "a shard given twice" "both hold shard 0 of 3 (overlapping shards)" \
    "$s3/shard-0-of-3.json" "$s3/shard-0-of-3.json" "$s3/shard-1-of-3.json" "$s3/shard-2-of-3.json"
edit "$s3/shard-1-of-3.json" "$tmp/stray.json" "d['results'].append(json.load(open('$s3/shard-0-of-3.json'))['results'][0])"
refused "an entry of another shard (overlapping)" "'$tmp/stray.json' holds configuration 0, which is not of its shard" \
    "$s3/shard-0-of-3.json" "$tmp/stray.json" "$s3/shard-2-of-3.json"
refused "shards of different splits" "'$s2/shard-0-of-2.json' and '$s3/shard-1-of-3.json' do not go together: they are shards of different splits" \
    "$s2/shard-0-of-2.json" "$s3/shard-1-of-3.json" "$s3/shard-2-of-3.json"
edit "$s2/shard-1-of-2.json" "$tmp/kernel.json" "d['spec']['kernel'] = 'other'"
refused "another kernel" "'$s2/shard-0-of-2.json' and '$tmp/kernel.json' do not go together: they are of different kernels (spec.kernel: \"sum_matrix\" against \"other\")" \
    "$s2/shard-0-of-2.json" "$tmp/kernel.json"
# Shards of two blocks of one spec file (`kernel sum_matrix as small`, `... as big`: one
# kernel, the same params): the blocks named, whatever else differs between them (here
# the settings, which two blocks may well set apart); the block is compared before the
# params and settings, so that is what the message says.
edit "$s2/shard-0-of-2.json" "$tmp/small0.json" "d['spec']['block'] = 'small'"
edit "$s2/shard-1-of-2.json" "$tmp/small1.json" "d['spec']['block'] = 'small'"
edit "$s2/shard-1-of-2.json" "$tmp/big1.json" "d['spec']['block'] = 'big'; d['settings']['warmup'] = 1"
refused "shards of two blocks" \
    "'$tmp/small0.json' and '$tmp/big1.json' do not go together: they are of different kernel blocks of the spec (spec.block: \"small\" against \"big\"); merge each block's shards on their own" \
    "$tmp/small0.json" "$tmp/big1.json"
refused "shards of two blocks, --partial" "different kernel blocks" "$tmp/small0.json" "$tmp/big1.json" --partial
"$cutune" merge -q "$tmp/small0.json" "$tmp/small1.json" -o "$tmp/small.json"
check "the shards of one block: merged, the block kept" python3 -c "import json,sys; d=json.load(open(sys.argv[1]))
assert d['spec']['block'] == 'small' and d['summary']['variants'] == 312, d['spec']" "$tmp/small.json"
# A shard written before blocks had names is of the block named like its kernel.
edit "$s2/shard-1-of-2.json" "$tmp/named1.json" "d['spec']['block'] = 'sum_matrix'"
"$cutune" merge -q "$s2/shard-0-of-2.json" "$tmp/named1.json" -o "$tmp/named.json"
check "a shard without spec.block and one of the kernel's name: merged" mc same "$sum" "$tmp/named.json" 2
refused "a shard without spec.block and one of another block" "(spec.block: \"sum_matrix\" against \"small\")" \
    "$s2/shard-0-of-2.json" "$tmp/small1.json"
# Two kernels of one spec file, their params different: the kernels named, not the params.
edit "$s2/shard-1-of-2.json" "$tmp/scale.json" \
    "d['spec'].update(kernel='scale', block='scale', params=d['spec']['params'][:3]); [e['params'].pop('maxrreg') for e in d['results']]"
refused "shards of two kernels" \
    "'$s2/shard-0-of-2.json' and '$tmp/scale.json' do not go together: they are of different kernels (spec.kernel: \"sum_matrix\" against \"scale\")" \
    "$s2/shard-0-of-2.json" "$tmp/scale.json"
edit "$s2/shard-1-of-2.json" "$tmp/ptype.json" "d['spec']['params'][0]['type'] = 'float'"
refused "a param of another type" "not of the same spec (spec.params\[0\]: block_x int against block_x float)" \
    "$s2/shard-0-of-2.json" "$tmp/ptype.json"
edit "$s2/shard-1-of-2.json" "$tmp/pless.json" \
    "d['spec']['params'].pop(); [e['params'].pop('maxrreg') for e in d['results']]"
refused "a param fewer (the spec edited between shards)" "not of the same spec (spec.params\[3\]: maxrreg int against absent)" \
    "$s2/shard-0-of-2.json" "$tmp/pless.json"
edit "$s2/shard-1-of-2.json" "$tmp/dir.json" "d['objective']['direction'] = 'minimize'"
refused "another objective direction" "their objectives differ" "$s2/shard-0-of-2.json" "$tmp/dir.json"
edit "$s2/shard-1-of-2.json" "$tmp/dev.json" "d['device']['name'] = 'NVIDIA A100-SXM4-80GB'"
refused "another device" "'$s2/shard-0-of-2.json' and '$tmp/dev.json' do not go together: they were measured on different devices" \
    "$s2/shard-0-of-2.json" "$tmp/dev.json"
edit "$s2/shard-1-of-2.json" "$tmp/arch.json" "d['device']['arch'] = 'sm_80'"
refused "another arch" "different devices" "$s2/shard-0-of-2.json" "$tmp/arch.json"
for k in "warmup'] = 1" "repeat'] = 5" "max_repeat'] = 9" "spread'] = 0.5" "flush_l2'] = False"; do
    edit "$s2/shard-1-of-2.json" "$tmp/set.json" "d['settings']['$k"
    refused "another ${k%%\'*}" "different settings" "$s2/shard-0-of-2.json" "$tmp/set.json"
done
edit "$sum" "$tmp/plain.json" "pass"
refused "a plain results file" "'$tmp/plain.json' is not a shard" "$tmp/plain.json"
refused "a plain results file with --partial" "is not a shard" "$tmp/plain.json" --partial
edit "$s2/shard-0-of-2.json" "$tmp/sized.json" \
    "d.update(version=2, sizes=[dict(size={'n': 64}, settings=d.pop('settings'), summary=d.pop('summary'), results=d.pop('results'))]); d['spec']['size'] = ['n']"
refused "a run over sizes" "merge one size at a time" "$tmp/sized.json"

# ---- hostile shards: every count and index bounded, identity compared, duplicates named ----
# A list of held shards longer than the split (each index below the count): a heap
# overflow before (the ASan build stops on it); a damaged file, 3, with the JSON path.
edit "$s2/shard-1-of-2.json" "$tmp/long.json" "d['settings']['shard'] = {'merged': [1] * 64, 'count': 2}"
"$cutune" merge "$s2/shard-0-of-2.json" "$tmp/long.json" -o "$tmp/out.json" 2>"$tmp/err"
check "settings.shard.merged longer than its count: 3" test $? -eq 3
check "... names the file and the JSON path" grep -q "'$tmp/long.json': settings.shard.merged" "$tmp/err"
check "... no output" test ! -e "$tmp/out.json"
edit "$s2/shard-1-of-2.json" "$tmp/twice.json" "d['settings']['shard'] = {'merged': [1, 1], 'count': 2}"
"$cutune" merge "$s2/shard-0-of-2.json" "$tmp/twice.json" -o "$tmp/out.json" 2>"$tmp/err"
check "a shard listed twice in settings.shard.merged: 3" test $? -eq 3
check "... said" grep -q "settings.shard.merged lists shard 1 twice" "$tmp/err"
# No summary, or a settings that is not an object: named by the JSON path (before:
# "out of memory", exit 5).
edit "$s2/shard-1-of-2.json" "$tmp/nosum.json" "del d['summary']"
"$cutune" merge "$s2/shard-0-of-2.json" "$tmp/nosum.json" -o "$tmp/out.json" 2>"$tmp/err"
check "a shard without summary: 3" test $? -eq 3
check "... named by its JSON path" grep -q "'$tmp/nosum.json': \"summary\" is missing or not an object" "$tmp/err"
check "... not 'out of memory'" bash -c '! grep -q "out of memory" "$1"' _ "$tmp/err"
edit "$s2/shard-1-of-2.json" "$tmp/sumlist.json" "d['summary'] = [1]"
"$cutune" merge "$s2/shard-0-of-2.json" "$tmp/sumlist.json" -o "$tmp/out.json" 2>"$tmp/err"
check "a summary that is a list: 3" test $? -eq 3
# Counts added up past 2^63 - 1: refused, never wrapped (UB before).
edit "$s2/shard-0-of-2.json" "$tmp/big0.json" "d['settings'].setdefault('search', {})['evaluations'] = 2**63 - 1"
edit "$s2/shard-1-of-2.json" "$tmp/big1.json" "d['settings'].setdefault('search', {})['evaluations'] = 2**63 - 1"
refused "evaluations summed past 2^63-1" "settings.search.evaluations" "$tmp/big0.json" "$tmp/big1.json"
edit "$s2/shard-1-of-2.json" "$tmp/neg.json" "d['settings'].setdefault('search', {})['evaluations'] = -5"
"$cutune" merge "$s2/shard-0-of-2.json" "$tmp/neg.json" -o "$tmp/out.json" 2>"$tmp/err"
check "a negative count: 3" test $? -eq 3
check "... named" grep -q "'$tmp/neg.json': settings.search.evaluations" "$tmp/err"
# Identity: each field that makes a run another run, named with both files.
ident() { # WHAT FIELD PYTHON: shard 1 edited by PYTHON is refused next to shard 0, FIELD named
    edit "$s2/shard-1-of-2.json" "$tmp/id.json" "$3"
    refused "$1" "'$s2/shard-0-of-2.json' and '$tmp/id.json' do not go together: .*$2" "$s2/shard-0-of-2.json" "$tmp/id.json"
}
ident "another spec path" "spec.path" "d['spec']['path'] = 'examples/other.tune'"
ident "another --set" "spec.set" "d['spec']['set'] = ['nx=64']"
ident "another spec hash" "spec.hash" "d['spec']['hash'] = 'ffff'"
ident "another problem size" "spec.size" "d['spec']['size'] = ['n']"
ident "another SM count" "device.sm_count" "d['device']['sm_count'] = 114"
ident "another device name" "device.name" "d['device']['name'] = 'NVIDIA H100 PCIe'"
edit "$s2/shard-0-of-2.json" "$tmp/seed0.json" "d['settings']['search'] = {'strategy': 'random', 'seed': 1, 'evaluations': 4}"
edit "$s2/shard-1-of-2.json" "$tmp/seed1.json" "d['settings']['search'] = {'strategy': 'random', 'seed': 7, 'evaluations': 5}"
edit "$s2/shard-1-of-2.json" "$tmp/seed1b.json" "d['settings']['search'] = {'strategy': 'random', 'seed': 1, 'evaluations': 5, 'screened': 2}"
"$cutune" merge -q "$tmp/seed0.json" "$tmp/seed1b.json" -o "$tmp/seeded.json"
check "the search settings carried, its counts added up" python3 -c "import json,sys; d=json.load(open(sys.argv[1]))
s = d['settings']['search']; assert (s['strategy'], s['seed'], s['evaluations'], s['screened']) == ('random', 1, 9, 2), s" "$tmp/seeded.json"
refused "another seed" "'$tmp/seed0.json' and '$tmp/seed1.json' do not go together: .*settings.search.seed: 1 against 7" \
    "$tmp/seed0.json" "$tmp/seed1.json"
ident "another reference" "settings.reference" "d['settings']['reference'] = 'none'"
ident "another strategy" "settings.strategy" "d['settings']['strategy'] = 'random'"
ident "another warmup, named" "settings.warmup: 3 against 1" "d['settings']['warmup'] = 1"
# The same configuration under two indices in two shards: refused, the configuration named.
edit "$s2/shard-1-of-2.json" "$tmp/dup.json" \
    "z = json.load(open('$s2/shard-0-of-2.json'))['results'][0]; d['results'][0]['params'] = z['params']"
refused "one configuration under two indices" \
    "both hold configuration (block_x 16, block_y 2, tile_y 1, maxrreg 0), as entries 0 and 1" \
    "$s2/shard-0-of-2.json" "$tmp/dup.json"
edit "$s2/shard-1-of-2.json" "$tmp/dup1.json" "d['results'][1]['params'] = d['results'][0]['params']"
"$cutune" merge "$s2/shard-0-of-2.json" "$tmp/dup1.json" -o "$tmp/out.json" 2>"$tmp/err"
check "one configuration twice in one shard: 2" test $? -eq 2
check "... named" grep -q "'$tmp/dup1.json' holds configuration (block_x 16, block_y 2, tile_y 1, maxrreg 32) twice, as entries 1 and 3" "$tmp/err"

# ---- files: 3; usage: 2 ----
"$cutune" merge "$s2/shard-0-of-2.json" "$tmp/missing.json" -o "$tmp/out.json" 2>"$tmp/err"
check "an unreadable file: 3" test $? -eq 3
check "an unreadable file: named" grep -q "cannot read '$tmp/missing.json'" "$tmp/err"
printf '{"format": "cutune-results", "version": 1, "results": [' >"$tmp/torn.json"
"$cutune" merge "$tmp/torn.json" -o "$tmp/out.json" 2>/dev/null; check "torn JSON: 3" test $? -eq 3
# The files are read side by side (a thread per core): of several broken files the first
# given is the one named, whichever thread finishes first.
for round in 1 2 3; do
    "$cutune" merge "$s2/shard-0-of-2.json" "$tmp/torn.json" "$tmp/missing.json" -o "$tmp/out.json" 2>"$tmp/err"
    check "torn, then missing (round $round): 3, the torn file named" \
        bash -c '[ $1 -eq 3 ] && grep -q "is not JSON" "$2" && ! grep -q "cannot read" "$2"' _ $? "$tmp/err"
    "$cutune" merge "$tmp/missing.json" "$tmp/torn.json" "$s2/shard-0-of-2.json" -o "$tmp/out.json" 2>"$tmp/err"
    check "missing, then torn (round $round): 3, the missing file named" \
        bash -c '[ $1 -eq 3 ] && grep -q "cannot read" "$2" && ! grep -q "is not JSON" "$2"' _ $? "$tmp/err"
done
"$cutune" merge "$src/test/emit/other_format.json" -o "$tmp/out.json" 2>/dev/null; check "not a results file: 3" test $? -eq 3
edit "$s2/shard-1-of-2.json" "$tmp/badshard.json" "d['settings']['shard'] = {'index': 2, 'count': 2}"
"$cutune" merge "$s2/shard-0-of-2.json" "$tmp/badshard.json" -o "$tmp/out.json" 2>"$tmp/err"
check "a shard index past its count: 3" test $? -eq 3
check "a shard index past its count: said" grep -q "settings.*shard.* has no .index" "$tmp/err"
mkdir "$tmp/folder"
"$cutune" merge "$s2"/shard-*.json -o "$tmp/folder" 2>"$tmp/err"; check "an unwritable output: 3" test $? -eq 3
"$cutune" merge "$s2"/shard-*.json 2>"$tmp/err"; check "no -o: 2" test $? -eq 2
check "no -o: said" grep -q "o OUT.json is required" "$tmp/err"
"$cutune" merge -o "$tmp/out.json" 2>/dev/null; check "no files: 2" test $? -eq 2
"$cutune" merge --bogus "$s2/shard-0-of-2.json" -o "$tmp/out.json" 2>/dev/null; check "an unknown option: 2" test $? -eq 2
finish
