#!/usr/bin/env bash
# phases.sh - where a whole `cutune SPEC` process's time goes ("a small space in
# a second"; "GPU work that is not timing"): tunes each space with a cold compile cache
# and a fresh journal, and prints per run the process's wall from outside, the account's
# two tables as cutune printed them (the run's phases, from the process's start; the GPU
# workers' time by what they did) and one line per run of the results' summary.phases
# and summary.gpu_work. Needs a GPU. Not a test: it prints figures, it asserts nothing
# (test/gpu/phases.sh checks that they add up).
#
#   bench/phases.sh [-n RUNS] [-c build/cutune] [OUT]   (OUT: results files; a temp dir)
#   SPACES="sum_matrix sgemm" bench/phases.sh ...        only those spaces
#   SPACES=pnpoly bench/phases.sh -n 1 OUT               the pnpoly space, run only when named
#   MEMO=keep bench/phases.sh ...                         the device memo kept (bench/speed.sh says why)
#
# Spaces: the speed benchmark's sum_matrix (104 configurations) and SGEMM (330 at n = 4096), both
# bench/speed's, and examples/sweep.tune (sum_matrix's kernel, 312): seconds each. Run only
# when SPACES names it: bench/speed/pnpoly.tune, Kernel Tuner's point-in-polygon example
# (5,456 configurations of an instruction-bound kernel over 20 million points), whose GPU work
# is mostly not timing (a run of it was reported at 60.3 GPU-s, 17.6 of them timing: not
# measured with this spec). Expect a minute or two a run: 5,456 compiles of about 0.16 CPU-s
# (some 55 s on 16 cores) beside about a minute of GPU work.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
runs=1
cutune=$here/../build/cutune
while getopts n:c: o; do
    case $o in
    n) runs=$OPTARG ;;
    c) cutune=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
out=${1:-$(mktemp -d)}
mkdir -p "$out"
spaces=(
    "sum_matrix $here/speed/sum_matrix.tune"
    "sgemm $here/speed/sgemm.tune"
    "sweep $here/../examples/sweep.tune"
)
named_only=(
    "pnpoly $here/speed/pnpoly.tune"
)
if [ -n "${SPACES:-}" ]; then
    read -r -a only <<<"$SPACES"
    spaces+=("${named_only[@]}")
    names=" "
    for entry in "${spaces[@]}"; do names+="${entry%% *} "; done
    for want in "${only[@]}"; do
        [[ "$names" == *" $want "* ]] || { echo "phases.sh: no space '$want' (spaces:$names)" >&2; exit 2; }
    done
fi
memo=
if [ "${MEMO:-}" = keep ]; then
    rm -rf "$out/memo" && CUTUNE_CACHE_DIR=$out/memo "$cutune" devices >/dev/null
    memo=$(ls "$out"/memo/devices-*.json 2>/dev/null | head -1)
    [ -n "$memo" ] || { echo "phases.sh: MEMO=keep, but no device memo was written (no GPU?)" >&2; exit 1; }
fi
for entry in "${spaces[@]}"; do
    read -r name spec <<<"$entry"
    if [ -n "${only:-}" ] && [[ " ${only[*]} " != *" $name "* ]]; then
        continue
    fi
    for run in $(seq 1 "$runs"); do
        res=$out/$name-$run.json
        rm -rf "$out/cache-$name-$run" "$res" "$res.journal"
        if [ -n "$memo" ]; then mkdir -p "$out/cache-$name-$run" && cp "$memo" "$out/cache-$name-$run/"; fi
        t0=$(date +%s.%N)
        CUTUNE_CACHE_DIR=$out/cache-$name-$run "$cutune" --color never "$spec" --results "$res" --fresh \
            --header "$out/$name-$run.h" >"$out/log-$name-$run" 2>"$out/err-$name-$run" || {
            echo "$name run $run: cutune failed (exit $?), see $out/err-$name-$run" >&2
            continue
        }
        t1=$(date +%s.%N)
        echo "== $name run $run: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }') s from outside"
        awk '/^where the time went|^GPU workers. time/ { on = 1; print; next } on && /^  / { print; next } { on = 0 }' \
            "$out/err-$name-$run"
        python3 - "$res" "$name" "$run" <<'PY'
import json, sys
path, name, run = sys.argv[1:]
s = json.load(open(path))["summary"]
ph, w = s.get("phases") or {}, s.get("gpu_work") or {}
print("phases %s %s: " % (name, run) + " ".join("%s=%.3f" % (k, v) for k, v in ph.items()))
print("gpu_work %s %s: " % (name, run) + " ".join("%s=%.3f" % (k, v) for k, v in w.items()))
PY
    done
done
