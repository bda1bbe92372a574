#!/usr/bin/env bash
# completion.sh CUTUNE SOURCE_DIR BUILD_DIR CMAKE - the bash completion
# (cli/cutune-completion.bash): sourced into bash, once under bash-completion (its
# _init_completion and _filedir) and once alone (the script's own stand-in), with
# COMP_WORDS/COMP_CWORD set as bash sets them and _cutune called, COMPREPLY holds the
# commands, each command's options, the fixed values of --format, --color and
# --strategy, .tune files for a spec, .json files for results, and folders; and
# `cmake --install` puts it in share/bash-completion/completions/cutune. Run by ctest.
set -u
cutune=$1
src=$2
bindir=${3:-}
cmake=${4:-cmake}
. "$(dirname "$0")/lib.sh.inc"
. "$src/test/cmake/tools.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
script=$src/cli/cutune-completion.bash
bc=/usr/share/bash-completion/bash_completion

# A folder to complete in: specs, results, other files, a folder.
mkdir -p "$tmp/w/sub"
touch "$tmp/w/a.tune" "$tmp/w/b.tune" "$tmp/w/r.json" "$tmp/w/notes.txt"

# complete MODE WORD...: COMPREPLY, sorted, one a line, for the command line `cutune
# WORD...` with the cursor at the end of the last WORD ("" for a new word; "=" words as
# bash splits --opt=value). MODE: bc (under bash-completion) or alone.
complete() {
    local mode=$1
    shift
    (cd "$tmp/w" && bash --norc --noprofile -c '
        mode=$1 bc=$2 script=$3
        shift 3
        if [ "$mode" = bc ]; then . "$bc" || exit 1; fi
        . "$script" || exit 1
        COMP_WORDS=("$@")
        COMP_CWORD=$(($# - 1))
        COMP_LINE=$(printf "%s " "$@")
        COMP_LINE=${COMP_LINE% }
        COMP_LINE=${COMP_LINE// = /=}
        COMP_LINE=${COMP_LINE// =/=}
        COMP_POINT=${#COMP_LINE}
        COMPREPLY=()
        _cutune cutune "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
        printf "%s\n" "${COMPREPLY[@]}" | grep -v "^$" | sort -u
    ' _ "$mode" "$bc" "$script" "$cutune" "$@")
}
# words TEXT: its lines as one line of words.
words() { paste -sd ' ' - <<<"$1"; }

# The commands and each command's options, as the binary's help says (the expectation
# is the binary's, not the script's).
commands=$("$cutune" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }' | sort)
check "cutune --help lists commands" test "$(wc -l <<<"$commands")" -ge 9
options_of() { # COMMAND: its long and short options (option lines of its help), and --help
    { "$cutune" help "$1" | grep -E '^  -' | grep -oE -- '(^  |, )--?[a-zA-Z][a-z0-9-]*' |
        grep -oE -- '--?[a-zA-Z][a-z0-9-]*'; echo --help; } | sort -u
}

modes=(alone)
if [ -r "$bc" ]; then
    modes+=(bc)
else
    check "bash-completion is installed ($bc; packages.txt lists it)" false
fi
for m in "${modes[@]}"; do
    # Subcommands, and .tune files: the first word may be the spec of cutune SPEC.
    got=$(complete "$m" "")
    for c in $commands; do
        check "$m: the first word completes to the command $c" grep -qxF "$c" <<<"$got"
    done
    for f in a.tune b.tune sub; do
        check "$m: the first word completes to $f" grep -qxF "$f" <<<"$got"
    done
    for f in r.json notes.txt; do
        check "$m: the first word does not complete to $f" bash -c "! grep -qxF '$f' <<<'$got'"
    done
    check "$m: an → analyze" test "$(complete "$m" an)" = analyze
    check "$m: help l → list" test "$(complete "$m" help l)" = list

    # The options of two commands: exactly those their help lists.
    for c in list occupancy; do
        got=$(complete "$m" "$c" -)
        check "$m: $c - completes to $c's options: got $(words "$got"), want $(words "$(options_of "$c")")" \
            test "$got" = "$(options_of "$c")"
    done
    check "$m: list --li → --limit" test "$(complete "$m" list --li)" = --limit
    check "$m: tune options start with the first word too (--fr → --fresh)" test "$(complete "$m" --fr)" = --fresh

    # Fixed values.
    check "$m: list --format: table csv json jsonl" test "$(words "$(complete "$m" list --format "")")" = "csv json jsonl table"
    check "$m: check --format: text json" test "$(words "$(complete "$m" check --format "")")" = "json text"
    check "$m: list --format=t (bash splits at =) → table" test "$(complete "$m" list --format = t)" = table
    check "$m: check --color: auto always never" test "$(words "$(complete "$m" check a.tune --color "")")" = "always auto never"
    check "$m: tune --strategy: the seven strategies" \
        test "$(words "$(complete "$m" tune --strategy "")")" = "anneal auto exhaustive genetic guided local random"
    check "$m: simulate --strategy g → genetic guided" test "$(words "$(complete "$m" simulate --strategy g)")" = "genetic guided"
    check "$m: emit's first argument: header csv t4" test "$(words "$(complete "$m" emit "")")" = "csv header t4"

    # Files: specs, results, folders, anything.
    check "$m: check SPEC: .tune files and folders" test "$(words "$(complete "$m" check "")")" = "a.tune b.tune sub"
    check "$m: list --limit 5 SPEC (the value skipped)" test "$(words "$(complete "$m" list --limit 5 "")")" = "a.tune b.tune sub"
    check "$m: emit csv RESULTS.json: .json files and folders" test "$(words "$(complete "$m" emit csv "")")" = "r.json sub"
    check "$m: emit header --spec SPEC: .tune files" test "$(words "$(complete "$m" emit header --spec "")")" = "a.tune b.tune sub"
    check "$m: simulate --results FULL.json: .json files" \
        test "$(words "$(complete "$m" simulate a.tune --results "")")" = "r.json sub"
    check "$m: tune --header FILE: any file" \
        test "$(words "$(complete "$m" a.tune --header "")")" = "a.tune b.tune notes.txt r.json sub"
    check "$m: analyze --cache-dir DIR: folders" test "$(words "$(complete "$m" analyze --cache-dir "")")" = "sub"
    check "$m: list --limit N: nothing to offer" test -z "$(complete "$m" list --limit "")"
done

# The values the completion offers are the ones the binary accepts (a bad one exits 2
# before the missing spec is read; a good one gets that far: 3).
for v in $(complete alone tune --strategy ""); do
    "$cutune" tune --strategy "$v" "$tmp/none.tune" >/dev/null 2>&1
    check "tune accepts --strategy $v (exit 3 at the missing spec)" test $? -eq 3
done
for v in $(complete alone analyze --format ""); do
    "$cutune" analyze --format "$v" "$tmp/none.tune" >/dev/null 2>&1
    check "analyze accepts --format $v" test $? -eq 3
done
"$cutune" tune --strategy nosuch "$tmp/none.tune" >/dev/null 2>&1
check "(a strategy the binary does not know exits 2)" test $? -eq 2

# Installed where bash-completion loads it on demand.
if [ -n "$bindir" ]; then
    cmake=$(tool_path "$cmake" cmake)
    "$cmake" --install "$bindir" --prefix "$tmp/prefix" >"$tmp/log" 2>&1
    check "cmake --install to a temporary prefix ($(tail -n 2 "$tmp/log"))" test $? -eq 0
    check "installed as share/bash-completion/completions/cutune" \
        cmp -s "$script" "$tmp/prefix/share/bash-completion/completions/cutune"
else
    check "ctest passes the build folder (third argument)" false
fi
finish
