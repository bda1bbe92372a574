# cutune-completion.bash - bash completion for cutune(1). cmake --install puts it in
# bash-completion's completions folder as `cutune`; to try it uncompiled:
#   source cli/cutune-completion.bash
#
# It keeps no list of its own: the commands, each command's options, which options take
# a value, the fixed values (--format table|csv|json, --color, --strategy) and what the
# positional arguments are (SPEC: .tune files, RESULTS.json: .json files, emit's
# header|csv|t4) are read from the binary's help (`cutune --help`, `cutune help COMMAND`),
# so a command added to cutune's table is completed as its help describes it. The help
# texts follow these rules (cli/main.c):
#   option lines start with two spaces: "  -o, --output FILE   text" or
#     "  --flush-l2, --no-flush-l2  text"; a value follows the last name after one
#     space and is set off from the text by two spaces or the line's end
#   a value written a|b|c (lower case) is that fixed set, anywhere in the help
#   a value named SPEC or *.tune is a spec, *.json a results file, DIR a folder,
#     FILE (or any other) a file of any kind; NAME=VALUE, N and the like: nothing
#   usage lines "cutune COMMAND WORD ..." with a lower-case WORD name its first argument
#   (emit header, csv, t4); a SPEC or X.json in a usage line not right after an option
#     is what the positional arguments are.
# Works with bash-completion (uses _init_completion and _filedir) and without it.

# _cutune_help BIN [COMMAND]: the binary's help (the command's, when given).
_cutune_help()
{
    if [[ $# -gt 1 ]]; then
        "$1" help "$2" 2>/dev/null
    else
        "$1" --help 2>/dev/null
    fi
}

# _cutune_commands BIN: the command names, one a line (the "commands:" section).
_cutune_commands()
{
    _cutune_help "$1" | awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }'
}

# _cutune_options HELP: each option of a help text as "NAME VALUE" (VALUE - when it
# takes none), one a line; "-o, --output FILE" gives "-o FILE" and "--output FILE".
_cutune_options()
{
    local line names value n
    local re='^  ((-[a-zA-Z]|--[a-z0-9][a-z0-9-]*)(, (-[a-zA-Z]|--[a-z0-9][a-z0-9-]*))*)( ([^ ]+))?(  |$)'
    while IFS= read -r line; do
        [[ $line =~ $re ]] || continue
        names=${BASH_REMATCH[1]}
        value=${BASH_REMATCH[6]:--}
        for n in ${names//,/ }; do
            printf '%s %s\n' "$n" "$value"
        done
    done <<<"$1"
}

# _cutune_values HELP OPTION: the fixed set of values OPTION takes, when the help writes
# one (OPTION a|b|c), one a line.
_cutune_values()
{
    local set
    set=$(grep -oE -- "$2 [a-z0-9_]+(\|[a-z0-9_]+)+" <<<"$1" | head -n 1)
    [[ -n $set ]] && tr '|' '\n' <<<"${set#* }"
}

# _cutune_files KIND: completes the current word ($cur) as KIND: tune, json (files of
# that extension, and folders), dir, or file (any).
_cutune_files()
{
    if declare -F _filedir >/dev/null; then
        case $1 in
        dir) _filedir -d ;;
        file) _filedir ;;
        *) _filedir "$1" ;;
        esac
        return
    fi
    compopt -o filenames 2>/dev/null
    local IFS=$'\n'
    case $1 in
    dir) COMPREPLY=($(compgen -d -- "$cur")) ;;
    file) COMPREPLY=($(compgen -f -- "$cur")) ;;
    *) COMPREPLY=($(compgen -f -X "!*.$1" -- "$cur") $(compgen -d -- "$cur")) ;;
    esac
}

# _cutune_kind VALUE: what a value placeholder or usage word is: tune, json, dir, file,
# or none (a number, a name: nothing to complete).
_cutune_kind()
{
    case $1 in
    SPEC | *.tune) echo tune ;;
    *.json) echo json ;;
    DIR) echo dir ;;
    FILE | *FILE) echo file ;;
    *) echo none ;;
    esac
}

# _cutune_positional HELP COMMAND: what COMMAND's positional arguments are, from its
# usage lines: "kinds WORD..." (its first argument is one of these words: emit), then
# the kind (tune, json, none) of the others.
_cutune_positional()
{
    awk -v cmd="$2" '
        /^usage: / || /^       cutune / {
            n = split($0, w, /[ \t]+/)
            for (i = 1; i <= n; i++) if (w[i] == "cutune") break
            i++
            if (w[i] == "[tune]" || w[i] == cmd) i++
            if (w[i] ~ /^[a-z][a-z0-9]*$/) kinds = kinds " " w[i++]
            for (; i <= n; i++) {
                t = w[i]; gsub(/[][()]/, "", t)
                after_option = (i > 1 && w[i - 1] ~ /^[[(]?-/)
                if (after_option || t ~ /^-/) continue
                if (t == "SPEC" || t ~ /\.tune$/) { if (!kind) kind = "tune" }
                else if (t ~ /\.json$/) { if (!kind) kind = "json" }
            }
        }
        END { if (kinds) print "kinds" kinds; print (kind ? kind : "none") }' <<<"$1"
}

_cutune()
{
    local cur prev words cword split=false
    if declare -F _init_completion >/dev/null; then
        _init_completion -s || return
    else
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD - 1]}
        # COMP_WORDBREAKS splits --format=json into --format, =, json.
        if [[ $cur == = ]]; then
            split=true
            cur=""
        elif [[ $prev == = && $cword -ge 2 ]]; then
            split=true
            prev=${COMP_WORDS[COMP_CWORD - 2]}
        fi
    fi
    local bin=${words[0]} IFS=$' \t\n'
    [[ $bin == \~/* ]] && bin=$HOME/${bin#\~/}
    type -P "$bin" >/dev/null 2>&1 || bin=cutune
    type -P "$bin" >/dev/null 2>&1 || return

    # The command: the first word when it names one; else tune (cutune SPEC, cutune --device 1 SPEC).
    local commands command=tune first=1 i
    commands=$(_cutune_commands "$bin")
    if [[ $cword -gt 1 ]] && grep -qxF -- "${words[1]}" <<<"$commands"; then
        command=${words[1]}
        first=2
    fi
    if [[ $command == help ]]; then
        [[ $cword -eq 2 ]] && COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        return
    fi
    local help options
    help=$(_cutune_help "$bin" "$command")
    options=$(_cutune_options "$help")

    # A value for the option before it (or before the =).
    local value
    if [[ $prev == -* ]]; then
        value=$(awk -v o="$prev" '$1 == o { print $2; exit }' <<<"$options")
        if [[ -n $value && $value != - ]]; then
            local fixed
            fixed=$(_cutune_values "$help" "$prev")
            if [[ -n $fixed ]]; then
                COMPREPLY=($(compgen -W "$fixed" -- "$cur"))
            else
                local kind
                kind=$(_cutune_kind "$value")
                [[ $kind != none ]] && _cutune_files "$kind"
            fi
            return
        fi
    fi
    $split && return

    if [[ $cur == -* ]]; then
        local names
        names=$(awk '{ print $1 }' <<<"$options")
        names+=$'\n--help'
        [[ $cword -eq 1 ]] && names+=$'\n--version'
        COMPREPLY=($(compgen -W "$names" -- "$cur"))
        [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == --*= ]] && compopt -o nospace 2>/dev/null
        return
    fi

    # A positional argument: which one, skipping options and their values.
    local nth=0 w takes
    for ((i = first; i < cword; i++)); do
        w=${words[i]}
        if [[ $w == -* ]]; then
            takes=$(awk -v o="${w%%=*}" '$1 == o { print $2; exit }' <<<"$options")
            [[ $w != *=* && -n $takes && $takes != - ]] && ((i++))
            continue
        fi
        ((nth++))
    done
    local positional kinds
    positional=$(_cutune_positional "$help" "$command")
    kinds=$(sed -n 's/^kinds //p' <<<"$positional")
    if [[ -n $kinds && $nth -eq 0 ]]; then
        COMPREPLY=($(compgen -W "$kinds" -- "$cur"))
        return
    fi
    local kind
    kind=$(tail -n 1 <<<"$positional")
    if [[ $cword -eq 1 ]]; then # a command, or the spec of cutune SPEC
        _cutune_files tune
        COMPREPLY+=($(compgen -W "$commands" -- "$cur"))
        return
    fi
    [[ $kind != none ]] && _cutune_files "$kind"
}
complete -F _cutune cutune
