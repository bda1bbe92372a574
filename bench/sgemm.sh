#!/usr/bin/env bash
# sgemm.sh - benchmark, for a GPU machine: tunes examples/sgemm.tune over its whole
# space (every valid configuration, search exhaustive) at M = N = K = SIZE, then times
# cuBLAS SGEMM (fp32, no TF32: bench/cublas_sgemm.c) at the same size the same way, and
# prints the best variant's GFLOP/s as a fraction of cuBLAS's.
#
#   bench/sgemm.sh OUTDIR [SIZE]          SIZE: default the spec's n (2048)
#
# Environment: CUTUNE (default build/cutune), CUBLAS_SGEMM (default
# build/bench/cublas_sgemm), CUTUNE_CACHE_DIR (the compile cache; cutune's default
# otherwise), CUTUNE_ARGS (more options for the tuning run, e.g. "--prune -1").
# Writes under OUTDIR: sgemm_results.json (and its .journal: running the same command
# again resumes), tune.out and tune.err (cutune's output), cublas.out, summary.txt
# (also printed). Exit: 77 when there is no usable GPU; cutune's or cublas_sgemm's
# status when one fails; else 0.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
[ $# -ge 1 ] || { echo "usage: bench/sgemm.sh OUTDIR [SIZE]" >&2; exit 2; }
out=$1
size=${2:-}
cutune=${CUTUNE:-$root/build/cutune}
cublas=${CUBLAS_SGEMM:-$root/build/bench/cublas_sgemm}
for f in "$cutune" "$cublas"; do
    [ -x "$f" ] || { echo "sgemm.sh: $f is not built (cmake --build build)" >&2; exit 2; }
done
# Absolute paths: the script changes folder below.
cutune=$(cd "$(dirname "$cutune")" && pwd)/$(basename "$cutune")
cublas=$(cd "$(dirname "$cublas")" && pwd)/$(basename "$cublas")
mkdir -p "$out" || exit 3
out=$(cd "$out" && pwd)
# From the repository root with a relative spec path: the compile cache's keys include
# the kernel's path as cutune sees it (examples/../kernels/sgemm.cu), so a cache filled
# by `cutune analyze examples/sgemm.tune` in another checkout is hit here too.
cd "$root" || exit 3

# No GPU: say so and stop (cutune itself would compile everything and then say NOT TUNED).
if ! "$cutune" occupancy --device 0 --regs 32 --threads 256 >/dev/null 2>"$out/probe.err"; then
    echo "SKIP: no usable GPU: $(cat "$out/probe.err")"
    exit 77
fi
command -v nvidia-smi >/dev/null &&
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv >"$out/gpu.csv" 2>&1

set_args=()
[ -n "$size" ] && set_args=(--set "n=$size")
spec=examples/sgemm.tune
echo "== tuning: $cutune $spec ${set_args[*]} --results $out/sgemm_results.json ${CUTUNE_ARGS:-}"
t0=$(date +%s.%N)
# shellcheck disable=SC2086 # CUTUNE_ARGS is split on purpose
"$cutune" --color never "$spec" "${set_args[@]}" --results "$out/sgemm_results.json" ${CUTUNE_ARGS:-} \
    >"$out/tune.out" 2>"$out/tune.err"
rc=$?
t1=$(date +%s.%N)
cat "$out/tune.out"
tail -n 5 "$out/tune.err"
[ $rc -eq 0 ] || { echo "sgemm.sh: cutune exited $rc (see $out/tune.err)"; exit $rc; }

# The size the spec ran at: read back from the results (n is 2048 unless --set).
n=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][0]; print(r["grid"][0]*r["params"]["BN"])' \
    "$out/sgemm_results.json") || exit 3
echo "== cuBLAS: $cublas $n $n $n"
"$cublas" "$n" "$n" "$n" >"$out/cublas.out" 2>&1
crc=$?
cat "$out/cublas.out"
[ $crc -eq 0 ] || { echo "sgemm.sh: cublas_sgemm exited $crc"; exit $crc; }

python3 - "$out/sgemm_results.json" "$out/cublas.out" "$t0" "$t1" <<'PY' | tee "$out/summary.txt"
import json, sys, collections
d = json.load(open(sys.argv[1]))
cub = [l for l in open(sys.argv[2]) if l.startswith("cublas_sgemm ")][0].split()
cub = dict(zip(cub[1::2], cub[2::2]))
s, res = d["summary"], d["results"]
status = collections.Counter(r["status"] for r in res)
print("size          M = N = K = %s" % cub["M"])
print("device        %s, driver %s" % (d["device"]["name"], d["device"]["driver_version"]))
print("variants      %d: %s; %d stopped early" % (s["variants"], ", ".join("%d %s" % (v, k) for k, v in status.items()),
      s["pruned"]))
print("wall          %.1f s for the tuning run (script: %.1f s); NVRTC %.1f s on %d threads; GPU thread %.1f s" % (
    s["wall_seconds"], float(sys.argv[4]) - float(sys.argv[3]), s["compile_seconds"], s["threads"], s["gpu_seconds"]))
if s["best"] is None:
    print("best          none (no variant ran correctly)")
    sys.exit(1)
b = res[s["best"]]
g, c = b["metrics"]["GFLOPS"], float(cub["GFLOPS"])
print("best          %.1f GFLOP/s (median %.4f ms): %s, %d registers" % (
    g, b["time_ms"]["median"], " ".join("%s=%s" % kv for kv in b["params"].items()), b["resources"]["registers"]))
print("cuBLAS        %.1f GFLOP/s (median %s ms, CUBLAS_DEFAULT_MATH: fp32, no TF32)" % (c, cub["median_ms"]))
print("best/cuBLAS   %.3f" % (g / c))
PY
