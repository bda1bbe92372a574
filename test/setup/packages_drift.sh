#!/usr/bin/env bash
# packages_drift.sh SOURCE_DIR - packages.sh catches drift: run on a copy of the build's
# CMake files and packages.txt, it passes as they are and fails, naming the cause, when
# a row goes, CMake asks for a new module or tool, or a row names the wrong package.
# Run by ctest (setup/packages-drift); needs no network.
set -u
src=$1
# shellcheck source=test/cli/lib.sh.inc
. "$src/test/cli/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# fresh: a copy of what packages.sh reads, in $tmp/s.
fresh() {
    rm -rf "$tmp/s"
    mkdir -p "$tmp/s/test/cli" "$tmp/s/bench"
    cp "$src/CMakeLists.txt" "$src/bootstrap" "$src/packages.txt" "$tmp/s/"
    cp "$src/test/CMakeLists.txt" "$tmp/s/test/"
    cp "$src/bench/CMakeLists.txt" "$tmp/s/bench/"
    cp "$src/test/cli/lib.sh.inc" "$tmp/s/test/cli/"
}
# drift WHAT PATTERN: packages.sh on $tmp/s fails and prints PATTERN.
drift() {
    bash "$src/test/setup/packages.sh" "$tmp/s" >"$tmp/out" 2>&1
    local rc=$?
    check "$1: packages.sh fails (exit $rc)" test $rc -ne 0 -a $rc -ne 77
    check "$1: ... saying so" grep -q -- "$2" "$tmp/out" || cat "$tmp/out"
}

fresh
bash "$src/test/setup/packages.sh" "$tmp/s" >"$tmp/out" 2>&1
rc=$?
check "the copy as it is passes (exit $rc)" test $rc -eq 0 -o $rc -eq 77
[ $rc -eq 0 ] || [ $rc -eq 77 ] || cat "$tmp/out"
has_dpkg=0
[ $rc -eq 0 ] && has_dpkg=1

fresh
sed -i '/^libxxhash-dev /d' "$tmp/s/packages.txt"
drift "the libxxhash-dev row removed" "pkg_check_modules(... libxxhash): a row of the list provides pc:libxxhash"

fresh
printf 'pkg_check_modules(ZSTD REQUIRED\n    IMPORTED_TARGET libzstd>=1.4) # a new library\n' >>"$tmp/s/CMakeLists.txt"
drift "a new pkg-config module over two lines" "pc:libzstd"

fresh
echo 'find_package(ZLIB REQUIRED)' >>"$tmp/s/test/CMakeLists.txt"
drift "a new find_package" "find_package(ZLIB) is known"

fresh
echo 'find_program(JQ jq REQUIRED)' >>"$tmp/s/CMakeLists.txt"
drift "a new find_program" "find_program(... jq) is known"

fresh
sed -i 's/^bison .*/byson project cmd:bison the parser/' "$tmp/s/packages.txt"
if [ $has_dpkg -eq 1 ]; then
    drift "a misspelt package" "byson is installed"
fi

fresh
sed -i 's/^flex  *project/flex build/' "$tmp/s/packages.txt"
drift "an unknown role" "the role is project, tests or base, not 'build'"

if [ $has_dpkg -eq 1 ]; then
    fresh
    sed -i 's/^libjansson-dev .*/libcmocka-dev project pc:jansson JSON/' "$tmp/s/packages.txt"
    drift "pc:jansson put under the wrong package" "jansson.pc belongs to libjansson-dev, not to libcmocka-dev"
else
    echo "note: no dpkg here: the package-to-file checks are not exercised"
fi
finish
