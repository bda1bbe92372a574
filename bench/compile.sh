#!/usr/bin/env bash
# compile.sh - benchmark: compile throughput of `cutune analyze` on the example specs
# with 1, 2 and all cores (each with an empty cache), then the cached re-run.
# Prints, per spec, compile mode and thread count: the binaries compiled, the wall
# time, compiled variants per second, NVRTC's own time summed over the compiles, and
# the CPU-seconds (user + system of cutune and its compile workers, GNU time) per
# compiled variant: the figure that a machine shared with other work does not distort
# the way it does wall time.
# The mode is runtime/pool's CUTUNE_COMPILE_WORKERS: "processes" (one compile worker
# process per thread, the default) or "threads" (NVRTC in cutune's own threads).
#
#   bench/compile.sh [build/cutune] [SPEC...]
#   MODES="threads processes" JOBS="4 8 16" bench/compile.sh build/cutune bench/speed/sgemm.tune
#   LIMIT=100 JOBS=2 MODES=processes bench/compile.sh build/cutune examples/sgemm.tune
# (LIMIT: only the first N configurations, --limit N.)
#
# The speed benchmark's comparison on the 16-core machine (sum_matrix.tune has 4 distinct binaries
# only; sgemm.tune is the throughput case):
#   JOBS="8 16" bench/compile.sh build/cutune bench/speed/sgemm.tune bench/speed/sum_matrix.tune
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cutune=${1:-$here/../build/cutune}
shift || true
specs=("$@")
[ ${#specs[@]} -gt 0 ] || specs=("$here"/../examples/*.tune)
cores=$(nproc)
modes=(${MODES:-threads processes})
jobs_list=(${JOBS:-1 2 $cores})
limit=()
[ -z "${LIMIT:-}" ] || limit=(--limit "$LIMIT")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-14s %-9s %7s %9s %10s %9s %11s %10s %10s\n' spec mode threads variants compiled wall_s compiled/s nvrtc_s cpu_s/var
for spec in "${specs[@]}"; do
    name=$(basename "$spec")
    for mode in "${modes[@]}"; do
    for jobs in "${jobs_list[@]}"; do
        rm -rf "$tmp/cache"
        line=$(CUTUNE_COMPILE_WORKERS=$mode CUTUNE_CACHE_DIR=$tmp/cache /usr/bin/time -f 'cpu %U %S' -o "$tmp/cpu" \
            "$cutune" analyze --jobs "$jobs" "${limit[@]}" --format csv "$spec" 2>&1 >/dev/null | grep -E '^[0-9,]+ variants for')
        variants=$(sed -E 's/^([0-9,]+) variants.*/\1/' <<<"$line" | tr -d ,)
        compiled=$(sed -E 's/.*: ([0-9]+) compiled.*/\1/' <<<"$line")
        nvrtc=$(sed -E 's/.*\(([0-9.]+) s of NVRTC time.*/\1/' <<<"$line")
        wall=$(sed -E 's/.*, ([0-9.]+) s wall.*/\1/' <<<"$line")
        rate=$(awk -v c="$compiled" -v w="$wall" 'BEGIN { printf "%.1f", (w > 0) ? c / w : 0 }')
        cpu=$(awk -v c="$compiled" '$1 == "cpu" { printf "%.3f", (c > 0) ? ($2 + $3) / c : 0 }' "$tmp/cpu")
        printf '%-14s %-9s %7s %9s %10s %9s %11s %10s %10s\n' "$name" "$mode" "$jobs" "$variants" "$compiled" "$wall" "$rate" "$nvrtc" "$cpu"
    done
    done
    # The same run again: everything from the cache. Whole-command wall time.
    t0=$(date +%s.%N)
    CUTUNE_COMPILE_WORKERS=${modes[-1]} CUTUNE_CACHE_DIR=$tmp/cache "$cutune" analyze "${limit[@]}" --format csv "$spec" >/dev/null 2>"$tmp/err"
    t1=$(date +%s.%N)
    cached=$(grep -E '^[0-9,]+ variants for' "$tmp/err" | sed -E 's/.*, ([0-9]+) from the cache.*/\1/')
    printf '%-14s %-9s %7s %9s %10s %9s   (cached re-run: %s from the cache, whole command)\n' "$name" "${modes[-1]}" "$cores" \
        "$variants" 0 "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" "$cached"
done
