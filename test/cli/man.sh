#!/usr/bin/env bash
# man.sh CUTUNE SOURCE_DIR BUILD_DIR CMAKE - the manual page, cutune(1) (docs/cutune.1):
# it lints and renders without a warning (mandoc -T lint; groff, which man uses, with
# -ww), it documents every command, every option of each command in that command's
# section, every exit status and every environment variable, as the binary's own help
# and the sources' getenv calls name them (never a copy), `cutune --help` points to it,
# and `cmake --install` puts it where man finds it. Run by ctest.
set -u
cutune=$1
src=$2
bindir=${3:-}
cmake=${4:-cmake}
. "$(dirname "$0")/lib.sh.inc"
. "$src/test/cmake/tools.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
page=$src/docs/cutune.1

# 1. Lint and render: no warning, at any level (mandoc -W all includes style).
if ! command -v mandoc >/dev/null; then
    echo "FAIL: no mandoc: packages.txt lists it (./bootstrap installs it)"
    exit 1
fi
mandoc -T lint -W all "$page" >"$tmp/lint" 2>&1
check "mandoc -T lint -W all: no message ($(head -n 3 "$tmp/lint"))" test $? -eq 0 -a ! -s "$tmp/lint"
if command -v groff >/dev/null; then
    groff -mandoc -ww -z "$page" 2>"$tmp/groff"
    check "groff -mandoc -ww renders it without a warning ($(head -n 3 "$tmp/groff"))" test ! -s "$tmp/groff"
else
    check "groff is installed (packages.txt: groff-base; man renders pages with it)" false
fi
mandoc -T ascii "$page" | col -bx >"$tmp/page"
check "it renders to text" test -s "$tmp/page"

# section NAME: the rendered text of section NAME (a line of its own in capitals) up to
# the next section.
section() { awk -v s="$1" '/^[A-Z][A-Z ]*$/ { on = ($0 == s); next } on' "$tmp/page"; }
# subsection COMMAND: the rendered text of COMMANDS' subsection "cutune COMMAND".
subsection() {
    section COMMANDS | awk -v s="   cutune $1" '/^   [^ ]/ { on = ($0 == s); next } on'
}
# has TEXT OPTION: OPTION appears in TEXT as a whole word.
has() { grep -qE -- "(^|[^a-zA-Z0-9-])$2([^a-zA-Z0-9-]|$)" <<<"$1"; }

# 2. Every command of `cutune --help`, in the synopsis and with a subsection of its own;
#    every option of `cutune help COMMAND` in that subsection.
mapfile -t subs < <("$cutune" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit }
    on && $1 != "version" { print $1 }')
check "cutune --help lists commands (${subs[*]})" test "${#subs[@]}" -ge 9
synopsis=$(section SYNOPSIS)
for s in "${subs[@]}"; do
    if [ "$s" = tune ]; then
        check "the synopsis shows cutune [tune] spec" grep -qE '^ +cutune \[tune\] spec' <<<"$synopsis"
    else
        check "the synopsis shows cutune $s" grep -qE "^ +cutune $s( |$)" <<<"$synopsis"
    fi
    text=$(subsection "$s")
    check "COMMANDS has a subsection 'cutune $s'" test -n "$text"
    [ "$s" = help ] && continue
    for o in $("$cutune" help "$s" | grep -oE -- '(^ +|[[ ,])--?[a-zA-Z][a-z0-9-]*' | grep -oE -- '--?[a-zA-Z][a-z0-9-]*' | sort -u); do
        check "cutune $s's section documents $o (its help lists it)" has "$text" "$o"
    done
done
check "the synopsis shows --version" grep -qE -- '^ +cutune --version' <<<"$synopsis"

# 3. Every exit status `cutune --help` names is an item of EXIT STATUS.
codes=$("$cutune" --help | awk '/^exit codes:/ { on = 1 } on && /^[a-z]/ && !/^exit codes:/ { exit } on' |
    grep -oE '(^ *|[:,] )[0-9]+ ' | grep -oE '[0-9]+')
check "cutune --help names exit codes ($(echo $codes))" test "$(wc -w <<<"$codes")" -ge 8
status=$(section "EXIT STATUS")
for c in $codes; do
    check "EXIT STATUS documents $c" grep -qE "^ +$c( |$)" <<<"$status"
done

# 4. Every environment variable the sources read (getenv, outside the tests) is an item
#    of ENVIRONMENT.
vars=$(cd "$src" && grep -rhoE 'getenv\("[A-Za-z_0-9]+"\)' --include='*.c' --exclude-dir=test --exclude-dir='build*' . |
    sed -E 's/getenv\("(.*)"\)/\1/' | sort -u)
check "the sources read environment variables ($(echo $vars))" test "$(wc -w <<<"$vars")" -ge 5
environment=$(section ENVIRONMENT)
for v in $vars; do
    check "ENVIRONMENT documents $v" grep -qE "^ +$v( |$)" <<<"$environment"
done
for s in NAME SYNOPSIS DESCRIPTION "COMMON OPTIONS" COMMANDS ENVIRONMENT FILES "EXIT STATUS" EXAMPLES "SEE ALSO"; do
    check "the page has the section $s" grep -qxF "$s" "$tmp/page"
done

# 5. cutune --help names the manual, and no path of the repository.
"$cutune" --help >"$tmp/help"
check "cutune --help says: man cutune" grep -qF 'man cutune' "$tmp/help"
check "cutune --help names no repository path (docs/...)" bash -c "! grep -q 'docs/' '$tmp/help'"

# 6. cmake --install puts it in PREFIX/share/man/man1, where man looks.
if [ -z "$bindir" ]; then
    check "ctest passes the build folder (third argument)" false
    finish
    exit
fi
cmake=$(tool_path "$cmake" cmake)
"$cmake" --install "$bindir" --prefix "$tmp/prefix" >"$tmp/log" 2>&1
check "cmake --install to a temporary prefix ($(tail -n 2 "$tmp/log"))" test $? -eq 0
check "the page is installed as share/man/man1/cutune.1" cmp -s "$page" "$tmp/prefix/share/man/man1/cutune.1"
if command -v man >/dev/null; then
    found=$(MANPATH=$tmp/prefix/share/man man -w cutune 2>/dev/null)
    check "man finds the installed page ($found)" test "$found" = "$tmp/prefix/share/man/man1/cutune.1"
    MANWIDTH=80 MANPATH=$tmp/prefix/share/man man --warnings cutune >"$tmp/man" 2>"$tmp/man.err"
    check "man --warnings shows it without a warning ($(head -n 2 "$tmp/man.err"))" test ! -s "$tmp/man.err"
    check "man shows it" grep -q 'a CUDA kernel autotuner' "$tmp/man"
fi
finish
