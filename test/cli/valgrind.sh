#!/usr/bin/env bash
# valgrind.sh CUTUNE SOURCE_DIR - no memory errors and no leaks for check, list and
# analyze on the example specs. Skipped (77) where valgrind is not installed.
set -u
cutune=$1
src=$2
command -v valgrind >/dev/null || { echo "SKIP: valgrind is not installed"; exit 77; }
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CUTUNE_CACHE_DIR=$tmp/cache
vg() { valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9 "$@" >/dev/null 2>"$tmp/vg"; }
for spec in "$src"/examples/*.tune; do
    name=$(basename "$spec")
    vg "$cutune" check "$spec"; check "check $name under valgrind" test $? -eq 0
    vg "$cutune" list --format json "$spec"; check "list $name under valgrind" test $? -eq 0
    # analyze: compiled once outside valgrind (NVRTC is slow there), then from the cache
    "$cutune" analyze "$spec" >/dev/null 2>&1
    vg "$cutune" analyze --format json "$spec"; check "analyze $name under valgrind" test $? -eq 0
    [ -s "$tmp/vg" ] && cat "$tmp/vg"
done
vg "$cutune" check "$src/test/golden/several_semantic_errors.tune"; check "an invalid spec under valgrind" test $? -eq 1
finish
