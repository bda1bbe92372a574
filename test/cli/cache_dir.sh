#!/usr/bin/env bash
# cache_dir.sh CUTUNE SOURCE_DIR - a cache folder (CUTUNE_CACHE_DIR, --cache-dir) longer
# than the path limit, or with a name longer than a folder name may be, is refused
# before anything is created: the run goes on without the cache and says so ("warning:
# cache off: ..."), and no folder appears (before: folders were made at the path cut to
# 4095 bytes, or up to the name that was too long, and then the cache was turned off).
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
spec=$src/examples/sweep.tune
name200=$(printf 'a%.0s' $(seq 200))
long=$tmp/top
for i in $(seq 25); do long=$long/$name200; done # about 5,000 bytes, each name 200
name256=$(printf 'b%.0s' $(seq 256))

# nothing_made WHAT: the scratch folder is as empty as it started.
nothing_made() {
    check "$1: nothing created" test -z "$(find "$tmp" -mindepth 1 -not -name err -not -name out)"
}

CUTUNE_CACHE_DIR=$long "$cutune" analyze "$spec" --limit 1 >"$tmp/out" 2>"$tmp/err"
check "CUTUNE_CACHE_DIR past the path limit: the analysis goes on (exit $?)" test $? -eq 0
check "... the cache off, said" grep -q "^warning: cache off: .*longer than the path limit" "$tmp/err"
nothing_made "CUTUNE_CACHE_DIR past the path limit"
CUTUNE_CACHE_DIR=$tmp/top/mid/$name256/leaf "$cutune" analyze "$spec" --limit 1 >"$tmp/out" 2>"$tmp/err"
check "a folder name of 256 bytes: the analysis goes on (exit $?)" test $? -eq 0
check "... said, the name's length given" grep -q "^warning: cache off: .*a name of 256 bytes" "$tmp/err"
nothing_made "a folder name of 256 bytes"
"$cutune" analyze "$spec" --limit 1 --cache-dir "$long" >"$tmp/out" 2>"$tmp/err"
check "--cache-dir past the path limit: said" grep -q "^warning: cache off: .*longer than the path limit" "$tmp/err"
nothing_made "--cache-dir past the path limit"
# `cutune SPEC` without a GPU analyses: the warning reaches its output too.
CUDA_VISIBLE_DEVICES=-1 CUTUNE_CACHE_DIR=$long "$cutune" "$spec" --results "$tmp/r.json" >"$tmp/out" 2>"$tmp/err"
check "tune without a GPU: exit 4 ($?)" test $? -eq 4
check "... the cache off, said" grep -q "warning: cache off: .*longer than the path limit" "$tmp/err"
rm -f "$tmp/r.json"
nothing_made "tune without a GPU"
# A folder just within the limits is made and used.
ok=$tmp/top/$name200/$(printf 'c%.0s' $(seq 255))
CUTUNE_CACHE_DIR=$ok "$cutune" analyze "$spec" --limit 1 >"$tmp/out" 2>"$tmp/err"
check "a name of 255 bytes: the cache used" grep -q "^cache: $ok\$" "$tmp/err"
check "... and filled" test -n "$(find "$ok" -name '*.entry')"
finish
