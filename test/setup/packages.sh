#!/usr/bin/env bash
# packages.sh SOURCE_DIR [LIST] - fails when packages.txt (or LIST) drifts from what the
# build looks for. Run by ctest (setup/packages); needs no network.
#
#  1. The list itself: every row is PACKAGE ROLE PROVIDES..., ROLE project, tests or base,
#     PROVIDES cmd:NAME, pc:NAME or -, no package twice.
#  2. Every pkg_check_modules(... MODULE) in CMakeLists.txt, test/CMakeLists.txt and
#     bench/CMakeLists.txt has a row that provides pc:MODULE; every find_package and
#     find_program there is one this script knows (a system tool maps to its command,
#     which a row must provide; the C library and the CUDA toolkit are not Debian
#     packages of the list); bootstrap's generator (-G Ninja) has cmd:ninja.
#  3. With dpkg (skipped, visibly, without it): every listed package is installed, and
#     `dpkg -S` says each cmd:/pc: file belongs to its row's package (or to a package
#     that package depends on: python3's /usr/bin/python3 is python3-minimal's).
set -u
src=$1
list=${2:-$src/packages.txt}
# shellcheck source=test/cli/lib.sh.inc
. "$src/test/cli/lib.sh.inc"

# The list's rows, without comments: "PACKAGE ROLE PROVIDES".
rows=$(awk '!/^[[:space:]]*(#|$)/ { print $1, $2, $3 }' "$list")
check "the list has rows" test -n "$rows"
while read -r pkg role provides; do
    check "$pkg: the role is project, tests or base, not '$role'" test "$role" = project -o "$role" = tests -o "$role" = base
    check "$pkg: PROVIDES is cmd:NAME, pc:NAME or -, not '$provides'" \
        bash -c '[[ $1 =~ ^((cmd|pc):[A-Za-z0-9_.+-]+|-)$ ]]' _ "$provides"
done <<<"$rows"
dups=$(awk '{ print $1 }' <<<"$rows" | sort | uniq -d)
check "no package is listed twice (${dups:-none})" test -z "$dups"

# provider WHAT: the package of the row that provides WHAT (cmd:NAME or pc:NAME).
provider() {
    awk -v w="$1" '$3 == w { print $1; exit }' <<<"$rows"
}

# calls FUNCTION: the arguments of every FUNCTION(...) call in the build's CMake files
# (comments removed, calls joined onto one line), one call a line.
calls() {
    local f
    for f in "$src/CMakeLists.txt" "$src/test/CMakeLists.txt" "$src/bench/CMakeLists.txt"; do
        [ -f "$f" ] || continue
        sed 's/#.*//' "$f" | tr '\n' ' ' | grep -oE "\b$1[[:space:]]*\([^)]*\)" |
            sed -E "s/^$1[[:space:]]*\(//; s/\)$//"
    done
}

# The pkg-config modules: every one needs a row.
modules=$(calls pkg_check_modules | awk '{
    for (i = 2; i <= NF; i++) {
        if ($i ~ /^(REQUIRED|QUIET|IMPORTED_TARGET|GLOBAL|NO_CMAKE_PATH|NO_CMAKE_ENVIRONMENT_PATH)$/) continue
        m = $i; sub(/[<>=].*/, "", m); print m
    } }' | sort -u)
check "CMake looks for pkg-config modules (the parser found some)" test -n "$modules"
for m in $modules; do
    check "pkg_check_modules(... $m): a row of the list provides pc:$m" test -n "$(provider "pc:$m")"
done

# find_package and find_program: the command each system tool is, or why it has none.
need_cmds=()
while read -r name _; do
    [ -n "$name" ] || continue
    case "$name" in
    BISON) need_cmds+=(bison) ;;
    FLEX) need_cmds+=(flex) ;;
    PkgConfig) need_cmds+=(pkg-config) ;;
    Python3) need_cmds+=(python3) ;;
    Threads) ;;     # the C library's threads: libc6-dev, which gcc brings
    CUDAToolkit) ;; # the NVIDIA toolkit: a prerequisite, not a Debian package of the list
    *) check "find_package($name) is known to test/setup/packages.sh: map it to its command there, and list its package" false ;;
    esac
done < <(calls find_package)
while read -r _ name rest; do
    [ -n "$name" ] || continue
    [ "$name" = NAMES ] && name=${rest%% *}
    case "$name" in
    *) check "find_program(... $name) is known to test/setup/packages.sh: map it to its command there, and list its package" false ;;
    esac
done < <(calls find_program)
grep -q -- '-G Ninja' "$src/bootstrap" && need_cmds+=(ninja)
for c in "${need_cmds[@]}"; do
    check "CMake needs the command $c: a row of the list provides cmd:$c" test -n "$(provider "cmd:$c")"
done

if ! command -v dpkg-query >/dev/null || ! command -v dpkg >/dev/null; then
    [ "$fails" -eq 0 ] || finish
    echo "SKIP: no dpkg here: the list's packages cannot be checked against the files that provide them"
    exit 77
fi

# owners PATH: the packages dpkg says PATH belongs to, one a line (tries the path as it
# is, the file it links to, and its other spelling on a merged /usr).
owners() {
    local p out
    for p in "$1" "$(readlink -f "$1")" "${1#/usr}" "/usr$1"; do
        out=$(dpkg -S "$p" 2>/dev/null | grep -v '^diversion by') || continue
        [ -n "$out" ] || continue
        sed -E 's/: \/.*$//' <<<"$out" | tr ',' '\n' | sed -E 's/^ +//; s/:[a-z0-9]+$//' | sort -u
        return
    done
}

# depends PACKAGE: the packages PACKAGE depends on directly (alternatives included).
depends() {
    dpkg-query -W -f='${Depends}, ${Pre-Depends}' "$1" 2>/dev/null | tr ',|' '\n' |
        sed -E 's/\(.*\)//; s/:any//; s/^ +//; s/ +$//' | grep -v '^$'
}

# belongs PATH PACKAGE: PATH is PACKAGE's file, or the file of a package it depends on.
belongs() {
    local o
    o=$(owners "$1")
    if grep -qxF "$2" <<<"$o" || [ -n "$(comm -12 <(echo "$o") <(depends "$2" | sort -u))" ]; then
        return 0
    fi
    echo "    $1 belongs to ${o:-no package}, not to $2"
    return 1
}

while read -r pkg _ provides; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null)
    check "$pkg is installed (./bootstrap installs what the list names; dpkg says '${status:-unknown package}')" \
        test "$status" = installed
    case "$provides" in
    cmd:*)
        # Where Debian installs commands, not PATH (which may hold other copies: pyenv...).
        path=""
        for d in /usr/bin /bin /usr/sbin /sbin; do
            [ -x "$d/${provides#cmd:}" ] && path=$d/${provides#cmd:} && break
        done
        check "${provides#cmd:} is installed in /usr/bin or /bin (from $pkg)" test -n "$path"
        [ -z "$path" ] || check "${provides#cmd:} ($path) is $pkg's, as the list says" belongs "$path" "$pkg"
        ;;
    pc:*)
        m=${provides#pc:}
        dir=$(pkg-config --variable=pcfiledir "$m" 2>/dev/null)
        check "pkg-config finds the module $m (from $pkg)" test -n "$dir"
        [ -z "$dir" ] || check "$m.pc ($dir) is $pkg's, as the list says" belongs "$dir/$m.pc" "$pkg"
        ;;
    esac
done <<<"$rows"
finish
