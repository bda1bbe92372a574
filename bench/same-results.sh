#!/usr/bin/env bash
# bench/same-results.sh - the shipped examples tuned by two builds, their results compared.
#
# usage: bench/same-results.sh OLD_CUTUNE NEW_CUTUNE [OUT]      (on a machine with a GPU)
#        SAME_ONLY='GLOB...' (default *): only the examples GLOB.tune
#
# Copies examples/ and kernels/ twice under OUT (default ./same-results), tunes every
# examples/*.tune exhaustively with each binary in turn (a cold cache of its own, --fresh
# journals, --prune -1 so that no timing is cut short), then compares each results file the
# two runs wrote with bench/same_results.py: every decided field (outcome, reason, launch,
# defines, resources, occupancy, verification, twins) must agree; times are measured and
# only reported (the winners' ratio). Prints one line per file and a last line
# "same-results: N of M files agree"; exits 1 when some file differs or is missing.
set -uo pipefail
old=$(realpath "$1"); new=$(realpath "$2"); out=${3:-same-results}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"; out=$(realpath "$out")
for side in old new; do
    rm -rf "$out/$side"; mkdir -p "$out/$side"
    cp -r "$root/examples" "$root/kernels" "$out/$side/"
done
for spec in $(for g in ${SAME_ONLY:-*}; do ls "$root"/examples/$g.tune; done); do
    name=$(basename "$spec")
    for side in old new; do
        bin=$old; [ "$side" = new ] && bin=$new
        ( cd "$out/$side/examples" && \
          /usr/bin/time -f "%e s" -o "$out/$side/$name.time" \
          "$bin" tune "$name" --fresh --prune -1 --cache-dir "$out/$side/cache" -q \
          >"$out/$side/$name.log" 2>&1; echo $? >"$out/$side/$name.rc" )
        echo "$side $name: exit $(cat "$out/$side/$name.rc"), $(cat "$out/$side/$name.time" 2>/dev/null | tail -1)"
    done
done
agree=0; total=0
for f in $(cd "$out/old/examples" && ls *.json 2>/dev/null); do
    total=$((total + 1))
    if [ -f "$out/new/examples/$f" ]; then
        if line=$("$root/bench/same_results.py" "$out/old/examples/$f" "$out/new/examples/$f" "$out/old" "$out/new" | tail -1); then
            agree=$((agree + 1)); echo "agree   $f: $line"
        else
            echo "DIFFER  $f: $line"
            "$root/bench/same_results.py" "$out/old/examples/$f" "$out/new/examples/$f" "$out/old" "$out/new" | head -5 | sed 's/^/        /'
        fi
    else
        echo "MISSING $f: the new run wrote none"
    fi
done
exits=0
for rc in "$out"/old/*.rc; do
    name=$(basename "$rc" .rc)
    a=$(cat "$rc"); b=$(cat "$out/new/$name.rc" 2>/dev/null || echo none)
    if [ "$a" != "$b" ]; then echo "EXIT DIFFERS $name: old $a, new $b"; exits=1; fi
done
echo "same-results: $agree of $total files agree$([ $exits = 1 ] && echo ', exit statuses differ')"
[ "$agree" -eq "$total" ] && [ "$total" -gt 0 ] && [ $exits = 0 ]
