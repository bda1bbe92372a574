#!/usr/bin/env bash
# bench/record-landscapes.sh CUTUNE OUTDIR - records exhaustive runs of the shipped examples
# on the GPU this machine has, as landscapes for `cutune simulate` and
# bench/search/landscapes.py: every file OUTDIR/NAME.json is a complete results file (every
# configuration measured or its failure recorded). Needs a GPU; the compile cache is a
# fresh folder under OUTDIR so that compile times are cold ones. Prints one line per spec
# with its wall time and exit status; a spec that fails is named and the script goes on,
# exiting 1 at the end.
set -uo pipefail
cutune=${1:?usage: record-landscapes.sh CUTUNE OUTDIR}
out=${2:?usage: record-landscapes.sh CUTUNE OUTDIR}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
export CUTUNE_CACHE_DIR="$out/.cache"
status=0
record() { # NAME SPEC [options...]
    local name=$1 spec=$2
    shift 2
    local t0 t1 rc
    t0=$(date +%s%N)
    "$cutune" tune "$root/$spec" --strategy exhaustive -q --results "$out/$name.json" "$@" \
        >"$out/$name.log" 2>&1
    rc=$?
    t1=$(date +%s%N)
    printf '%-22s exit %d  %d ms\n' "$name" "$rc" "$(( (t1 - t0) / 1000000 ))"
    [ "$rc" -eq 0 ] || { status=1; tail -n 5 "$out/$name.log"; }
}
record sgemm-n1024 examples/sgemm.tune --set n=1024
record sgemm-n4096 examples/sgemm.tune --set n=4096
for s in sweep reduce transpose persistent divergence occupancy stencil histogram; do
    record "$s" "examples/$s.tune"
done
exit $status
