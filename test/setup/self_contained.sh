#!/usr/bin/env bash
# self_contained.sh SOURCE_DIR - the tests read nothing from outside the repository:
# no test, test script or CMake file names a path above the source folder (such as
# ../shared/, where the occupancy ground truth once was read from: it is in test/data/
# now). Run by ctest (setup/self-contained).
set -u
src=$1
# shellcheck source=test/cli/lib.sh.inc
. "$src/test/cli/lib.sh.inc"
found=$(cd "$src" && grep -rnE '(\.\./)+shared/|/work/shared' test CMakeLists.txt docs/check_examples.py \
    --include='*.c' --include='*.h' --include='*.sh' --include='*.inc' --include='*.py' --include='*.txt' \
    --include='*.cmake' | grep -v '^test/setup/self_contained.sh:')
[ -z "$found" ] || printf '%s\n' "$found"
check "no test reads ../shared/ (above: where)" test -z "$found"
check "the occupancy ground truth is in the repository" test -s "$src/test/data/occupancy_h100.csv"
finish
