#!/usr/bin/env bash
# bench/search/sweep.sh - the search benchmark (landscapes.py, dev + held-out sets) for
# several variants of a strategy at once, on a machine of many cores.
#
# usage: bench/search/sweep.sh [VARIANTS] [SEEDS] [BUDGETS]
#   VARIANTS  a file of lines "NAME BINARY [VAR=VALUE ...]" (default
#             bench/search/sweep-variants.txt): each variant runs BINARY (a cutune, relative
#             to the repository root) with those environment variables (the 2026-11-27
#             sweep's binary, a -DAUTO_KNOBS build of commit 0926d49, read auto's
#             AUTO_* knobs from them; main's auto has none).
#   SEEDS     seeds per landscape and budget (default 60)
#   BUDGETS   default 25,50,100,200
#
# Every variant runs at the same time, each over ceil(cores / variants) jobs,
# by evaluations only (--no-time; SWEEP_BY_TIME=1: by simulated time too, about twice
# the time), under a deadline of SWEEP_DEADLINE seconds (default
# 540): a variant that has not finished by then is named and left out. Writes into $OUT
# (default ./sweep-out): sweep.json ({"NAME": landscapes.py's JSON, ...}), summary.txt (each
# variant's table and the comparison of bench/search/sweep_summary.py) and log.txt.
# Libraries the binaries need and the machine lacks may lie in bench-bins/lib.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
variants=${1:-bench/search/sweep-variants.txt}
seeds=${2:-60}
budgets=${3:-25,50,100,200}
out=${OUT:-$root/sweep-out}
deadline=${SWEEP_DEADLINE:-540}
notime=--no-time
[ "${SWEEP_BY_TIME:-0}" = 1 ] && notime=
mkdir -p "$out"
work=$(mktemp -d /tmp/sweep.XXXXXX)
export LD_LIBRARY_PATH="$root/bench-bins/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
log="$out/log.txt"
: >"$log"
cores=$(nproc)
n=$(grep -cvE '^\s*(#|$)' "$variants")
jobs=$(( (cores + n - 1) / (n > 0 ? n : 1) ))
[ "$jobs" -ge 1 ] || jobs=1
echo "sweep: $n variants, $seeds seeds, budgets $budgets, $cores cores, $jobs jobs each, deadline ${deadline}s" | tee -a "$log"
pids=()
names=()
while read -r name bin envs; do
    case "$name" in ''|'#'*) continue ;; esac
    if ! "$root/$bin" --version >/dev/null 2>>"$log"; then
        echo "$name: $bin does not run here" | tee -a "$log"
        ldd "$root/$bin" >>"$log" 2>&1
        continue
    fi
    # shellcheck disable=SC2086
    env $envs timeout "$deadline" python3 bench/search/landscapes.py --cutune "$root/$bin" --set all $notime \
        --seeds "$seeds" --budgets "$budgets" --jobs "$jobs" --json "$work/$name.json" \
        >"$work/$name.txt" 2>>"$log" &
    pids+=($!)
    names+=("$name")
done <"$variants"
t0=$(date +%s)
for i in "${!pids[@]}"; do
    wait "${pids[$i]}"
    echo "${names[$i]}: exit $? after $(( $(date +%s) - t0 )) s" | tee -a "$log"
done
python3 - "$work" "$out/sweep.json" "${names[@]}" <<'EOF'
import json, os, sys
work, dest, names = sys.argv[1], sys.argv[2], sys.argv[3:]
got = {}
for n in names:
    p = os.path.join(work, n + ".json")
    if os.path.exists(p):
        got[n] = json.load(open(p))
json.dump(got, open(dest, "w"))
print("sweep.json: %d of %d variants" % (len(got), len(names)))
EOF
{
    for n in "${names[@]}"; do
        echo "==== $n"
        cat "$work/$n.txt" 2>/dev/null
    done
    python3 bench/search/sweep_summary.py "$out/sweep.json"
} >"$out/summary.txt" 2>&1
tail -n 60 "$out/summary.txt"
rm -rf "$work"
