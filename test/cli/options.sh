#!/usr/bin/env bash
# options.sh CUTUNE SOURCE_DIR - the command line as users expect it: each
# subcommand's --help lists exactly the options it accepts, an unknown option is one
# message, a mistyped subcommand gets "did you mean", and -q leaves only errors and the
# result. The subcommands and their options are read from the binary's own help, never
# from a copy: a command added to the table is checked too. Run by ctest.
set -u
cutune=$1
src=$2
. "$(dirname "$0")/lib.sh.inc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export CUTUNE_CACHE_DIR=$tmp/cache CUDA_VISIBLE_DEVICES=-1 NO_COLOR=1
spec=$src/examples/sweep.tune
none=$tmp/none.tune # never exists: a command that accepted its options stops at it

# The subcommands: the "commands:" section of cutune --help, less help and version.
mapfile -t subs < <("$cutune" --help | awk '/^commands:/ { on = 1; next } on && /^$/ { exit }
    on && $1 != "help" && $1 != "version" { print $1 }')
check "cutune --help lists the subcommands (found: ${subs[*]})" test "${#subs[@]}" -ge 8
for s in tune check list analyze simulate emit occupancy devices; do
    check "cutune --help lists $s" grep -qxF "$s" <(printf '%s\n' "${subs[@]}")
done

# long_options TEXT: the long options named in a help text, one a line.
long_options() { grep -oE -- '--[a-z0-9][a-z0-9-]*' <<<"$1" | sort -u; }
# short_options TEXT: the short options a help text's option list documents: the lines
# that start with one ("  -q, --quiet", "  -o, --output FILE").
short_options() { grep -oE -- '^ +-[a-zA-Z]([, ]|$)' <<<"$1" | grep -oE -- '-[a-zA-Z]' | sort -u; }
# lead SUB: the word a subcommand needs before its options (emit's header), from its usage line.
lead() { sed -n "s/^usage: cutune $1 \([a-z][a-z0-9]*\)\b.*/\1/p" <<<"${help[$1]}" | head -n 1; }
# refused SUB OPTION: whether cutune SUB refuses OPTION as unknown; its stderr is in $tmp/err.
refused() {
    local l
    l=$(lead "$1")
    "$cutune" "$1" ${l:+"$l"} "$2" "$none" >/dev/null 2>"$tmp/err"
    grep -qF "unknown option '$2'" "$tmp/err"
}

declare -A help
all_long=""
for s in "${subs[@]}"; do
    help[$s]=$("$cutune" help "$s")
    check "cutune help $s exits 0 and says something" test -n "${help[$s]}"
    check "cutune $s --help prints what cutune help $s does" test "$("$cutune" "$s" --help)" = "${help[$s]}"
    all_long+=$(long_options "${help[$s]}")$'\n'
done
all_long=$(sort -u <<<"$all_long" | grep -v '^$')
check "the help texts name long options (found $(wc -l <<<"$all_long"))" test "$(wc -l <<<"$all_long")" -ge 30

for s in "${subs[@]}"; do
    mine=$(long_options "${help[$s]}")
    # Every option the help lists is accepted...
    for o in $mine; do
        refused "$s" "$o" && check "cutune $s accepts $o, which its help lists: $(head -n 1 "$tmp/err")" false
    done
    # ...and an option another command's help lists is refused unless this help lists it.
    for o in $(comm -23 <(echo "$all_long") <(echo "$mine")); do
        refused "$s" "$o" || check "cutune $s refuses $o, which its help does not list (it accepted it)" false
    done
    # Short options: exactly those the help documents (-h is help everywhere).
    shorts=$(short_options "${help[$s]}")
    for letter in {a..z} {A..Z}; do
        [ "$letter" = h ] && continue
        if grep -qxF -- "-$letter" <<<"$shorts"; then
            refused "$s" "-$letter" && check "cutune $s accepts -$letter, which its help lists" false
        else
            refused "$s" "-$letter" || check "cutune $s refuses -$letter, which its help does not list" false
        fi
    done
done
check "tune documents -q and nothing else short" test "$(short_options "${help[tune]}")" = "-q"
check "emit documents -o and -q" test "$(short_options "${help[emit]}" | paste -sd ' ')" = "-o -q"

# Every option a help lists says what it does (the lists are made from the option
# tables: an entry without its help would be a bare name): text on its line, or on the
# line under it, indented to the help column.
for s in "${subs[@]}"; do
    bare=$(awk '/^  -/ { if (prev != "") print prev; prev = ($0 ~ /^  -[^ ]*( [^ ]+)*  +[^ ]/) ? "" : $0; next }
        /^                      [^ ]/ { prev = ""; next } { if (prev != "") print prev; prev = "" }
        END { if (prev != "") print prev }' <<<"${help[$s]}")
    check "cutune help $s: every option has its help (bare: $bare)" test -z "$bare"
done
# docs/cli.md and the help texts name the same options: each option the docs name is one
# a command's help lists (but the words below, which are no cutune option: NVRTC's own among them), and each
# option a help lists is in the docs.
docs=$(grep -oE -- '--[a-z0-9][a-z0-9-]*' "$src/docs/cli.md" | sort -u |
    grep -vxE -- '--(help|version|f|limt|name|install|pre-include|ptxas-options|warnings)')
check "docs/cli.md names options (found $(wc -l <<<"$docs"))" test "$(wc -l <<<"$docs")" -ge 30
for o in $(comm -23 <(echo "$docs") <(echo "$all_long")); do
    check "docs/cli.md's $o is an option of a command (no help lists it)" false
done
for o in $(comm -13 <(echo "$docs") <(echo "$all_long")); do
    check "the help's $o is in docs/cli.md" false
done

# One message for an unknown option: the subcommand, the option, a hint, where to look.
"$cutune" list --limt 3 "$spec" >"$tmp/out" 2>"$tmp/err"
check "an unknown option exits 2" test $? -eq 2
check "an unknown option prints nothing on stdout" test ! -s "$tmp/out"
check "an unknown option is one message of two lines: $(cat "$tmp/err")" test "$(wc -l <"$tmp/err")" -eq 2
check "it names the command and the option, with the likely one" \
    grep -qxF "cutune list: unknown option '--limt'; did you mean '--limit'?" "$tmp/err"
check "it says where to look" grep -qxF "(see: cutune list --help)" "$tmp/err"
"$cutune" check -x "$spec" >/dev/null 2>"$tmp/err"
check "an unknown short option: one message" test "$(head -n 1 "$tmp/err")" = "cutune check: unknown option '-x'"
check "...of two lines, not getopt's too" test "$(wc -l <"$tmp/err")" -eq 2
"$cutune" "$spec" --frobnicate >/dev/null 2>"$tmp/err"
check "cutune SPEC --bad names tune" test "$(head -n 1 "$tmp/err")" = "cutune tune: unknown option '--frobnicate'"
"$cutune" list "$spec" --format >/dev/null 2>"$tmp/err"
check "a missing value: one message naming the option" \
    test "$(head -n 1 "$tmp/err")" = "cutune list: option '--format' needs a value"
"$cutune" tune --fresh=yes "$spec" >/dev/null 2>"$tmp/err"
check "a value for an option that takes none" grep -qF "option '--fresh' takes no value" "$tmp/err"
"$cutune" tune --f "$spec" >/dev/null 2>"$tmp/err"; rc=$?
check "an ambiguous abbreviation exits 2" test $rc -eq 2
check "...and names the candidates" grep -qF "option '--f' is ambiguous: it could be --fresh, --flush-l2" "$tmp/err"

# "Did you mean" for a mistyped subcommand; a file or a .tune path is a spec.
"$cutune" chek "$spec" >"$tmp/out" 2>"$tmp/err"
check "a mistyped subcommand exits 2" test $? -eq 2
check "a mistyped subcommand gets the likely one, once" \
    test "$(cat "$tmp/err")" = "cutune: no command named 'chek'; did you mean 'check'?
(see: cutune --help)"
"$cutune" anaylze >/dev/null 2>"$tmp/err"
check "a transposition: did you mean 'analyze'" grep -qF "did you mean 'analyze'?" "$tmp/err"
"$cutune" help lsit >/dev/null 2>"$tmp/err"
check "help on a mistyped subcommand: did you mean 'list'" grep -qF "no command named 'lsit'; did you mean 'list'?" "$tmp/err"
"$cutune" frobnicate >/dev/null 2>"$tmp/err"
check "a word close to no command: no suggestion" grep -qF "no command named 'frobnicate', and no file" "$tmp/err"
"$cutune" chek.tune >/dev/null 2>"$tmp/err"
check "a word ending in .tune is a spec (cannot read it: 3)" test $? -eq 3
check "...named as a spec" grep -qF "cannot read spec 'chek.tune'" "$tmp/err"
mkdir "$tmp/here"
sed 's|"../kernels/sum_matrix.cu"|"'"$src"'/kernels/sum_matrix.cu"|' "$spec" >"$tmp/here/chek"
(cd "$tmp/here" && "$cutune" chek --limit 1 -q >/dev/null 2>"$tmp/err")
check "an existing file named like a typo is tuned (no GPU: 4), not corrected" test $? -eq 4
check "...and no 'did you mean'" bash -c "! grep -q 'did you mean' '$tmp/err'"
(cd "$tmp/here" && "$cutune" check ./chek >/dev/null 2>&1)
check "a command name is the command: check ./chek checks the file" test $? -eq 0

# -q: nothing but errors and the result, for every subcommand.
quiet() { # NAME EXPECTED_STATUS COMMAND...: runs COMMAND with -q; $tmp/out, $tmp/err
    local name=$1 want=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    check "$name -q exits $want (got $?)" test $? -eq "$want"
}
"$cutune" list "$spec" --limit 2 >/dev/null 2>"$tmp/err"
check "list --limit says so on stderr without -q" grep -q 'stopped after 2' "$tmp/err"
quiet list 0 "$cutune" list "$spec" --limit 2 -q
check "list -q: the listing" test "$(wc -l <"$tmp/out")" -eq 3
check "list -q: nothing on stderr" test ! -s "$tmp/err"
quiet check 0 "$cutune" check "$spec" --quiet
check "check -q: the summary is the result" grep -q '^space  *504 raw, 312 valid' "$tmp/out"
check "check -q: nothing on stderr" test ! -s "$tmp/err"
"$cutune" analyze "$spec" --limit 2 >/dev/null 2>"$tmp/err"
check "analyze's summary goes to stderr without -q" grep -q 'failed to compile' "$tmp/err"
quiet analyze 0 "$cutune" analyze "$spec" --limit 2 -q --format csv
check "analyze -q: the CSV" test "$(wc -l <"$tmp/out")" -eq 3
check "analyze -q: nothing on stderr: $(head -c 300 "$tmp/err")" test ! -s "$tmp/err"
"$cutune" "$spec" --limit 2 >"$tmp/out" 2>"$tmp/err"
check "cutune SPEC without a GPU prints the space summary" grep -q '^space ' "$tmp/out"
quiet "cutune SPEC" 4 "$cutune" "$spec" --limit 2 -q
check "cutune SPEC -q without a GPU: nothing on stdout (no result)" test ! -s "$tmp/out"
check "cutune SPEC -q without a GPU: only the verdict, one line: $(cat "$tmp/err")" \
    test "$(wc -l <"$tmp/err")" -eq 1
check "...which says NOT TUNED" grep -q '^cutune: NOT TUNED' "$tmp/err"
quiet "tune (blocks)" 4 "$cutune" tune "$src/examples/library.tune" --limit 1 -q
check "tune -q over kernel blocks: no summary or compile lines: $(head -c 400 "$tmp/err")" \
    bash -c "! grep -qv '^cutune: NOT TUNED' '$tmp/err'"
quiet simulate 0 "$cutune" simulate "$src/examples/sgemm.tune" --results "$src/docs/results/data/sgemm-h100-full.json" \
    --strategy random --budget 2% -q
check "simulate -q: the result" grep -q '^true best' "$tmp/out"
check "simulate -q: nothing on stderr" test ! -s "$tmp/err"
# emit: results that record a spec that no longer loads get a note, which -q silences.
python3 -c "
import json, sys
d = json.load(open('$src/docs/results/data/sum_matrix-h100-run1.json'))
d['spec']['path'] = '$tmp/gone.tune'
json.dump(d, open('$tmp/r.json', 'w'))"
"$cutune" emit header "$tmp/r.json" >/dev/null 2>"$tmp/err"
check "emit header: a note on stderr without -q" grep -q '^note: ' "$tmp/err"
quiet emit 0 "$cutune" emit header "$tmp/r.json" -q
check "emit -q: the header" grep -q '^#define SUM_MATRIX_BLOCK_X ' "$tmp/out"
check "emit -q: nothing on stderr" test ! -s "$tmp/err"
quiet occupancy 0 "$cutune" occupancy --arch sm_90 --regs 32 --threads 256 -q
check "occupancy -q: the result" grep -q '^occupancy  *100.0%' "$tmp/out"
check "occupancy -q: nothing on stderr" test ! -s "$tmp/err"
quiet devices 4 "$cutune" devices -q
check "devices -q with no GPU: nothing on stdout" test ! -s "$tmp/out"
check "devices -q with no GPU: the error, one line" test "$(wc -l <"$tmp/err")" -eq 1
# --results - would mix the results file into the ranking on stdout: refused, no file '-'
(cd "$tmp" && "$cutune" "$src/examples/sweep.tune" --results - >"$tmp/out" 2>"$tmp/err")
check "tune --results -: 2" test $? -eq 2
check "tune --results -: said" grep -q "results -: the ranking is written to standard output" "$tmp/err"
check "tune --results -: no file named '-'" test ! -e "$tmp/-"
finish
