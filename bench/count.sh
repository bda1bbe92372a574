#!/usr/bin/env bash
# count.sh - benchmark: how long `cutune check` takes to count each benchmark space,
# on one core. Prints, per spec: raw and valid counts, the best and median counting
# time over RUNS runs (the "counted in" figure), and the best whole-command wall time.
#
#   bench/count.sh [build/cutune] [RUNS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cutune=${1:-$here/../build/cutune}
runs=${2:-5}
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"
printf '%-22s %14s %14s %12s %12s %12s\n' spec raw valid best_count median_count best_wall
for spec in "$here"/space/*.tune; do
    counts=() walls=()
    for _ in $(seq "$runs"); do
        t0=$(date +%s.%N)
        out=$($pin "$cutune" check --color never "$spec")
        t1=$(date +%s.%N)
        line=$(grep '^space' <<<"$out")
        counts+=("$(sed -E 's/.*counted in ([0-9.]+) s.*/\1/' <<<"$line")")
        walls+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')")
    done
    raw=$(sed -E 's/^space +([0-9,>= ]+) raw.*/\1/' <<<"$line")
    valid=$(sed -E 's/.*raw, ([0-9,>= ]+) valid.*/\1/' <<<"$line")
    best=$(printf '%s\n' "${counts[@]}" | sort -g | head -1)
    median=$(printf '%s\n' "${counts[@]}" | sort -g | sed -n "$(((runs + 1) / 2))p")
    wall=$(printf '%s\n' "${walls[@]}" | sort -g | head -1)
    printf '%-22s %14s %14s %11ss %11ss %11.3fs\n' "$(basename "$spec")" "$raw" "$valid" "$best" "$median" "$wall"
done
