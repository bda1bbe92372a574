#!/usr/bin/env bash
# seeds.sh OUTDIR [CUTUNE] - on a machine with a GPU, tunes the seeds' kernels (the tuned library)
# and renders each result as Markdown:
#
#   sum_matrix   examples/sweep.tune        matrix add            ceiling: copy bandwidth
#   reduce       examples/reduce.tune       reduction family      ceiling: copy bandwidth
#   transpose    examples/transpose.tune    transpose             ceiling: copy bandwidth
#   divergence   examples/divergence.tune   warp divergence       (time only)
#   occupancy    examples/occupancy.tune    registers x threads   (time; occupancy table)
#
# For each NAME it writes OUTDIR/NAME.json (the results, docs/results-format.md),
# OUTDIR/NAME.log (cutune's output), OUTDIR/NAME.md (bench/ranking.py: the best as a
# percentage of the ceiling, the best per algorithm, the full ranking) and, for the
# occupancy study, OUTDIR/occupancy-table.md (bench/occupancy_table.py); then
# OUTDIR/env.txt (device, driver, commit) and OUTDIR/summary.txt (one line per spec).
#
# CUTUNE defaults to build/cutune in this checkout. The ceiling is the device-to-device
# copy bandwidth, CEILING_GBPS (default 3020: the H100's, test/data/README.md).
# Every run starts fresh (--fresh), so a journal of an earlier run is not resumed.
# Exit status: 0 when every spec tuned, 1 when one failed (the others still run), 4 when
# there is no usable GPU.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
[ $# -ge 1 ] || { echo "usage: bench/seeds.sh OUTDIR [CUTUNE]" >&2; exit 2; }
out=$1
cutune=${2:-$root/build/cutune}
ceiling=${CEILING_GBPS:-3020}
[ -x "$cutune" ] || { echo "seeds.sh: no cutune at $cutune (build it: cmake -S . -B build -G Ninja && cmake --build build)" >&2; exit 2; }
if ! "$cutune" occupancy --device 0 --regs 32 --threads 256 >/dev/null 2>"${TMPDIR:-/tmp}/seeds-probe.$$"; then
    echo "seeds.sh: no usable GPU: $(cat "${TMPDIR:-/tmp}/seeds-probe.$$")" >&2
    rm -f "${TMPDIR:-/tmp}/seeds-probe.$$"
    exit 4
fi
rm -f "${TMPDIR:-/tmp}/seeds-probe.$$"
mkdir -p "$out"

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "host: $(hostname)"
    echo "commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet 2>/dev/null || echo ' (with local changes)')"
    echo "cutune: $("$cutune" --version 2>&1)"
    echo "cores: $(nproc)"
    echo "ceiling: $ceiling GB/s"
    command -v nvidia-smi >/dev/null &&
        nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
            --format=csv 2>&1
} >"$out/env.txt"

failed=0
: >"$out/summary.txt"
# tune NAME SPEC [cutune options...]: tunes SPEC into OUTDIR/NAME.{json,log}; records its wall time.
tune() {
    local name=$1 spec=$2
    shift 2
    local t0 t1 rc
    t0=$(date +%s.%N)
    "$cutune" --color never "$root/$spec" --results "$out/$name.json" --fresh "$@" >"$out/$name.log" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    local wall
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    if [ $rc -ne 0 ] || [ ! -s "$out/$name.json" ]; then
        echo "$name: FAILED (exit $rc, ${wall} s); see $out/$name.log" | tee -a "$out/summary.txt"
        tail -20 "$out/$name.log"
        failed=1
        return 1
    fi
    echo "$name: tuned in ${wall} s (whole command)" | tee -a "$out/summary.txt"
    return 0
}
# render NAME [ranking.py options...]: OUTDIR/NAME.md from OUTDIR/NAME.json.
render() {
    local name=$1
    shift
    if python3 "$here/ranking.py" "$out/$name.json" "$@" >"$out/$name.md" 2>"$out/$name.md.err"; then
        grep -m1 '^\*\*Best' "$out/$name.md" | sed "s/^/  /" | tee -a "$out/summary.txt"
        rm -f "$out/$name.md.err"
    else
        echo "$name: rendering failed: $(cat "$out/$name.md.err")" | tee -a "$out/summary.txt"
        failed=1
    fi
}

copy=(--ceiling "$ceiling" --ceiling-name "copy bandwidth")

tune sum_matrix examples/sweep.tune &&
    render sum_matrix "${copy[@]}" --per tile_y --per block_x,block_y

tune reduce examples/reduce.tune &&
    render reduce "${copy[@]}" --per VARIANT --per VARIANT,ITER --per BLOCK &&
    python3 "$here/ranking.py" "$out/reduce.json" "${copy[@]}" --where ITER=1 --where BLOCK=512 --per VARIANT \
        >"$out/reduce-seed.md"

tune transpose examples/transpose.tune &&
    render transpose "${copy[@]}" --per VARIANT,PAD --per VARIANT,TILE,PAD

# Every variant of the divergence study is a data point too: no early stop.
tune divergence examples/divergence.tune --prune -1 &&
    render divergence --per GRAN,MODE --per GRAN

# Every variant of the occupancy study is a data point: no early stop.
tune occupancy examples/occupancy.tune --prune -1 &&
    render occupancy --metric GBps "${copy[@]}" --per maxrreg --per threads &&
    python3 "$here/occupancy_table.py" "$out/occupancy.json" --pivot maxrreg,threads >"$out/occupancy-table.md"

echo "results in $out (summary.txt, env.txt, NAME.json, NAME.md, NAME.log)"
exit $failed
