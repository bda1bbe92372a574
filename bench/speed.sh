#!/usr/bin/env bash
# speed.sh - the speed benchmark: tunes the spaces Kernel Tuner was timed on, whole
# process, cold compile cache, verification on, and prints per run what the time went
# to. Needs a GPU. Not a test: it prints figures, it asserts nothing.
#
#   bench/speed.sh [-n RUNS] [-c build/cutune] [OUT]     (OUT: results files; a temp dir)
#   SPACES="sum_matrix sgemm" bench/speed.sh ...          only those spaces
#   MEMO=keep bench/speed.sh ...                           the device memo kept
#   OPTS="--devices all" bench/speed.sh ...                 options added to every run
#
# Each run starts from an empty cache folder, and the device memo (docs/cli.md) lives
# there: so by default every run also starts the driver once more to ask what the GPUs
# are (0.2-0.3 s with one H100), as the first run on a machine does. MEMO=keep copies a
# memo made once before the runs (`cutune devices`) into each empty folder: a cold
# compile cache on a machine cutune has run on before.
#
# Spaces: sum_matrix (104) and SGEMM (330 at n = 4096), examples/sweep.tune
# (312), and a genetic search and the default (auto) over 5 % of examples/sgemm.tune at
# n = 4096; genetic20 and auto20 the same over 20 % (not run unless SPACES names them:
# where the start and the tail weigh less, whether the search keeps the GPU fed).
#
# Per run: wall (the process, /usr/bin/time), max RSS, Σ compile (NVRTC time summed),
# compile threads, GPU time (the GPU thread over all variants, reference included), time
# before the first variant ran (when the results say), launches per variant (timed
# repetitions x batch + warm-ups, mean over timed variants, when the results say), the
# bound max(Σ compile / threads, GPU time / GPUs) and wall's ratio to it, and Kernel Tuner
# 1.4.0's wall on the same space (measured on the H100 by the speed study, not by us)
# divided by ours; from the results' timeline (started_s, gpu_seconds), idle_s: the
# time the GPU thread waited between the first variant's start and the last one's end
# (on compiles, the journal, the strategy), and tail_s: the run's time after the last
# variant's first run ended (the final race, the results, the header); twins: variants
# not run (same code and launch). Then the winner of each run, so that stability shows.
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

# name spec kernel-tuner-seconds [cutune options...]
spaces=(
    "sum_matrix $here/speed/sum_matrix.tune 16.35"
    "sgemm $here/speed/sgemm.tune 138.6"
    "sweep $here/../examples/sweep.tune -"
    "genetic $here/../examples/sgemm.tune - --strategy genetic --budget 5% --seed 1 --set n=4096"
    "auto $here/../examples/sgemm.tune - --budget 5% --seed 1 --set n=4096"
    "genetic20 $here/../examples/sgemm.tune - --strategy genetic --budget 20% --seed 1 --set n=4096"
    "auto20 $here/../examples/sgemm.tune - --budget 20% --seed 1 --set n=4096"
)
[ -z "${SPACES:-}" ] || read -r -a only <<<"$SPACES" # SPACES="sum_matrix sgemm": only those

memo=
if [ "${MEMO:-}" = keep ]; then
    rm -rf "$out/memo" && CUTUNE_CACHE_DIR=$out/memo "$cutune" devices >/dev/null
    memo=$(ls "$out"/memo/devices-*.json 2>/dev/null | head -1)
    [ -n "$memo" ] || { echo "speed.sh: MEMO=keep, but no device memo was written (no GPU?)" >&2; exit 1; }
fi
printf '%-10s %3s %8s %7s %9s %7s %8s %9s %9s %8s %7s %7s %7s %7s %6s  %s\n' space run wall_s rss_MB compile_s threads gpu_s first_s launches bound_s /bound KT/us idle_s tail_s twins winner
for entry in "${spaces[@]}"; do
    read -r name spec kt extra <<<"$entry"
    if [ -n "${only:-}" ] && [[ " ${only[*]} " != *" $name "* ]]; then
        continue
    fi
    if [ -z "${only:-}" ] && [[ $name == *20 ]]; then continue; fi # the 20 % searches: only when named
    for run in $(seq 1 "$runs"); do
        res=$out/$name-$run.json
        rm -rf "$out/cache-$name-$run" "$res" "$res.journal"
        if [ -n "$memo" ]; then mkdir -p "$out/cache-$name-$run" && cp "$memo" "$out/cache-$name-$run/"; fi
        CUTUNE_CACHE_DIR=$out/cache-$name-$run /usr/bin/time -f '%e %M' -o "$out/time-$name-$run" \
            "$cutune" "$spec" --results "$res" --fresh --header "$out/$name-$run.h" ${extra:-} ${OPTS:-} >"$out/log-$name-$run" 2>&1 || {
            echo "$name run $run: cutune failed (exit $?), see $out/log-$name-$run" >&2
            continue
        }
        read -r wall rss <"$out/time-$name-$run"
        python3 - "$res" "$name" "$run" "$wall" "$rss" "$kt" <<'PY'
import json, sys
path, name, run, wall, rss, kt = sys.argv[1:]
d = json.load(open(path))
s = d["summary"]
wall = float(wall)
threads = s.get("threads") or 1
gpus = len((d.get("settings") or {}).get("devices") or [0])  # with --devices: GPU time is summed over them
bound = max(s["compile_seconds"] / threads, s["gpu_seconds"] / gpus)
timed = [r for r in d["results"] if r.get("status") == "ok" and r.get("reps")]
def launches(r):
    if "launches" in r:
        return r["launches"]
    return r["reps"] * (r.get("batch") or 1) + (r.get("warmups") or 0)
mean_launches = sum(launches(r) for r in timed) / len(timed) if timed else 0
first = s.get("first_variant_seconds")
best = d["results"][s["best"]] if s.get("best", -1) >= 0 else None
win = " ".join(f"{k}={v}" for k, v in best["params"].items()) if best else "-"
# The GPU thread's timeline (started_s, gpu_seconds): the time it waited between the
# first variant's start and the last one's end, and what came after the last end.
ran = sorted((r["started_s"], r.get("gpu_seconds") or 0) for r in d["results"] if r.get("started_s"))
idle = tail = float("nan")
if ran:
    end = max(a + g for a, g in ran)
    idle = (end - ran[0][0]) - sum(g for _, g in ran)
    tail = s["wall_seconds"] - end
twins = s.get("twins", 0)
if best and best.get("objective") is not None:
    win += f" ({best['objective']:.6g})"
ktr = f"{float(kt) / wall:.2f}" if kt != "-" else "-"
print(f"{name:<10} {run:>3} {wall:8.2f} {int(rss) / 1024:7.0f} {s['compile_seconds']:9.2f} {threads:7d} "
      f"{s['gpu_seconds']:8.2f} {('%.2f' % first) if first is not None else '-':>9} {mean_launches:8.1f} {bound:8.2f} "
      f"{wall / bound:7.2f} {ktr:>7} {idle:7.2f} {tail:7.2f} {twins:6d}  {win}")
PY
    done
done
