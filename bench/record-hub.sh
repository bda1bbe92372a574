#!/usr/bin/env bash
# bench/record-hub.sh CUTUNE OUTDIR [--conv-gpus LIST] [--dedisp-gpus LIST] [--cap SECONDS]
#
# Records the Kernel Tuner benchmark hub's two kernels exhaustively on this machine's GPUs,
# as held-out landscapes for `cutune simulate` and bench/search/landscapes.py:
#   OUTDIR/convolution.json    bench/landscapes/conv_milo_run.tune    4,362 configurations
#   OUTDIR/dedispersion.json   bench/landscapes/dedisp_milo_run.tune  11,130 configurations
# Each is a complete results file (every configuration measured, or its failure recorded),
# with the hub's configuration keys, so that the hub's recordings of the same kernels
# (bench/landscapes/*_A4000.json.gz, ...) serve as priors for it and it for them.
#
# The two run at once, each on its own GPUs: CUDA_VISIBLE_DEVICES=LIST and `--devices all`,
# so a list of several GPUs spreads that run over them (one compile pool, one result). By
# default (the GPUs nvidia-smi lists): the convolution (4,362 variants, compile-bound: some
# 2.5 CPU-seconds of NVRTC a variant, its unrolled 15 x 15 filter) on GPU 0 with three
# quarters of the cores; the dedispersion (11,130 variants of 0.08 CPU-seconds, but some
# 50 ms a launch on an H100: GPU-bound) on the other GPUs with the rest, and on every GPU
# and core once the convolution is complete (the run is stopped and resumed there, when
# a minute or more of the cap is left). Lists that share a GPU (on a host of one GPU,
# the default) make the runs take turns, the convolution first, within the one cap. The compile cache is OUTDIR/.cache, fresh on a first run, so compile times
# are cold ones.
#
# --cap SECONDS stops each run after that long (SIGTERM: cutune finishes the variant in
# hand, writes its journal and exits 130). Running the same command again resumes both
# from their journals (OUTDIR/NAME.json.journal): nothing measured is measured again, and a
# run already complete is not started. So a recording longer than a machine's time limit
# per command is made in several commands on the same machine (OUTDIR must survive
# between them).
#
# Prints one line per run with its exit status and wall time; a complete run's results are
# also written gzipped (OUTDIR/NAME.json.gz, for bench/landscapes/h100/). Exit 0 when both
# are complete, 3 when one stopped at the cap (run again), 1 when one failed (its log's
# last lines are printed).
set -uo pipefail
usage="usage: record-hub.sh CUTUNE OUTDIR [--conv-gpus LIST] [--dedisp-gpus LIST] [--cap SECONDS]"
cutune=${1:?$usage}
out=${2:?$usage}
shift 2
conv_gpus=0
dedisp_gpus=
cap=0
while [ $# -gt 0 ]; do
    case "$1" in
    --conv-gpus) conv_gpus=${2:?$usage}; shift 2 ;;
    --dedisp-gpus) dedisp_gpus=${2:?$usage}; shift 2 ;;
    --cap) cap=${2:?$usage}; shift 2 ;;
    *) echo "record-hub.sh: unknown argument '$1'" >&2; echo "$usage" >&2; exit 2 ;;
    esac
done
given=$dedisp_gpus # the dedispersion's GPUs as given (empty: the defaults below)
case "$cap" in
'' | *[!0-9]*) echo "record-hub.sh: --cap takes whole seconds, not '$cap'" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out" || exit 1
export CUTUNE_CACHE_DIR="$out/.cache"
cores=$(nproc)
conv_jobs=$(( cores * 3 / 4 > 0 ? cores * 3 / 4 : 1 ))
dedisp_jobs=$(( cores - conv_jobs > 0 ? cores - conv_jobs : 1 ))
ngpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
[ "$ngpus" -ge 1 ] || ngpus=1
all=$(seq -s, 0 $((ngpus - 1)))
if [ -s "$out/convolution.json.gz" ]; then # the convolution is done: the dedispersion takes the machine
    dedisp_gpus=${dedisp_gpus:-$all}
    dedisp_jobs=$cores
elif [ "$ngpus" -gt 1 ]; then
    dedisp_gpus=${dedisp_gpus:-$(seq -s, 1 $((ngpus - 1)))}
fi
dedisp_gpus=${dedisp_gpus:-0}

record() { # NAME SPEC GPUS JOBS CAP: one exhaustive run, resumed from its journal; prints its line
    local name=$1 spec=$2 gpus=$3 jobs=$4 cap=$5 t0 t1 rc
    if [ -s "$out/$name.json.gz" ]; then
        printf '%-14s complete already (%s)\n' "$name" "$out/$name.json.gz"
        return 0
    fi
    t0=$(date +%s%N)
    local limit=(timeout -s TERM -k 60 "$cap")
    [ "$cap" -gt 0 ] || limit=()
    CUDA_VISIBLE_DEVICES=$gpus "${limit[@]}" "$cutune" tune "$root/$spec" --strategy exhaustive \
        -q --devices all --jobs "$jobs" --results "$out/$name.json" >>"$out/$name.log" 2>&1 &
    echo $! >"$out/$name.pid" # SIGTERM to it stops the run (timeout passes it on)
    wait $!
    rc=$?
    t1=$(date +%s%N)
    printf '%-14s GPUs %-8s %3d compile threads  exit %3d  %d s\n' "$name" "$gpus" "$jobs" "$rc" \
        "$(( (t1 - t0) / 1000000000 ))"
    if [ "$rc" -eq 0 ]; then
        gzip -9 -c "$out/$name.json" >"$out/$name.json.gz.part" && mv "$out/$name.json.gz.part" "$out/$name.json.gz"
        return $?
    fi
    return "$rc"
}

echo "record-hub.sh: $(date -u +%FT%TZ), $cores cores, cap $cap s (0: none)"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader 2>/dev/null
overlap=0 # a GPU in both lists: the runs take turns, or each would time the other's kernels too
[ -s "$out/convolution.json.gz" ] || for g in ${conv_gpus//,/ }; do
    case ",$dedisp_gpus," in *",$g,"*) overlap=1 ;; esac
done
if [ $overlap -eq 0 ]; then
    record convolution bench/landscapes/conv_milo_run.tune "$conv_gpus" "$conv_jobs" "$cap" &
    conv=$!
    record dedispersion bench/landscapes/dedisp_milo_run.tune "$dedisp_gpus" "$dedisp_jobs" "$cap" &
    dedisp=$!
    if [ -z "$given" ] && [ "$dedisp_gpus" != "$all" ]; then
        # Once the convolution is complete its GPU would idle: the dedispersion is stopped
        # and resumed from its journal on every GPU and core, in what is left of the cap.
        start=$(date +%s)
        wait $conv
        conv_rc=$?
        left=$(( cap > 0 ? cap - ($(date +%s) - start) : 0 ))
        if [ "$conv_rc" -eq 0 ] && kill -0 $dedisp 2>/dev/null && { [ "$cap" -eq 0 ] || [ "$left" -ge 60 ]; }; then
            echo "record-hub.sh: the convolution is complete: the dedispersion moves to GPUs $all"
            kill -TERM "$(cat "$out/dedispersion.pid")" 2>/dev/null
            wait $dedisp
            record dedispersion bench/landscapes/dedisp_milo_run.tune "$all" "$cores" "$left" &
            dedisp=$!
        fi
        (exit "$conv_rc") &
        conv=$!
    fi
else
    echo "record-hub.sh: GPUs $conv_gpus and $dedisp_gpus overlap: the convolution first, then the dedispersion"
    start=$(date +%s)
    record convolution bench/landscapes/conv_milo_run.tune "$conv_gpus" "$cores" "$cap" &
    conv=$!
    wait $conv
    conv_rc=$?
    left=$(( cap > 0 ? cap - ($(date +%s) - start) : 0 ))
    if [ "$conv_rc" -ne 0 ] || { [ "$cap" -gt 0 ] && [ "$left" -lt 10 ]; }; then
        echo "dedispersion   not started: the convolution is not complete, or the cap is spent"
        (exit 124) &
    else
        record dedispersion bench/landscapes/dedisp_milo_run.tune "$dedisp_gpus" "$cores" "$left" &
    fi
    dedisp=$!
    (exit "$conv_rc") &
    conv=$!
fi
status=0
for pid_name in "$conv:convolution" "$dedisp:dedispersion"; do
    wait "${pid_name%%:*}"
    rc=$?
    name=${pid_name#*:}
    case $rc in
    0) ;;
    124 | 130 | 137 | 143)
        echo "$name: stopped at the cap; run the same command again to resume from $out/$name.json.journal"
        [ $status -eq 1 ] || status=3 ;;
    *)
        echo "$name: failed (exit $rc); the end of $out/$name.log:"
        tail -n 8 "$out/$name.log"
        status=1 ;;
    esac
done
exit $status
