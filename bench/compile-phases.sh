#!/usr/bin/env bash
# compile-phases.sh - where NVRTC's CPU time goes for a spec's variants, and what each
# candidate option would save, in CPU-seconds per variant, the binaries compared
# (bench/nvrtc_phases.c says what it prints). No GPU needed.
#
#   bench/compile-phases.sh [build] [SPEC]       (default examples/sgemm.tune)
#   STRIDE=17 ROUNDS=3 SETS=phases bench/compile-phases.sh build examples/sgemm.tune
#
# STRIDE: every STRIDE-th distinct program of `cutune list` (17: 105 of sgemm's 1,778).
# ROUNDS: passes over them (each set compiled once per variant per pass, interleaved).
# SETS: phases (the split: front end, front end + NVVM, everything), options (each
# candidate option against cutune's own set), or all.
#
# The first set is what runtime/compile.c gives NVRTC (`cutune` below): the
# architecture, --ptxas-options=-v (the resource report), --no-cache, the variant's
# -D macros and options, the kernel's folder, then CCCL's and the toolkit's include
# folders. The others differ from it in one thing each.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
spec=${2:-$here/../examples/sgemm.tune}
stride=${STRIDE:-17}
rounds=${ROUNDS:-3}
which=${SETS:-all}
cuda=${CUDA_HOME:-/usr/local/cuda}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The kernel file and name, and the jobs: cutune list's name expression, a tab, its
# defines and options; variants that would compile to the same program once (the same
# name, defines and options: params routed `as none`) once.
"$build/cutune" list --format jsonl "$spec" >"$tmp/list.jsonl"
python3 - "$spec" "$stride" "$tmp" <<'EOF'
import json, os, sys
spec, stride, tmp = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rows = [json.loads(l) for l in open(os.path.join(tmp, "list.jsonl"))]
programs = []
for r in rows:
    p = r["kernel"] + "\t" + " ".join(r["defines"] + r["options"])
    if p not in programs:
        programs.append(p)
with open(os.path.join(tmp, "jobs"), "w") as f:
    for p in programs[::stride]:
        f.write(p + "\n")
EOF
# The kernel's file: the spec's `from "..."`, relative to the spec.
file=$(sed -nE 's/^kernel [^"]* from "([^"]*)".*/\1/p' "$spec" | head -1)
file=$(cd "$(dirname "$spec")" && realpath "$file")
name=$(sed -nE 's/^kernel ([A-Za-z_][A-Za-z_0-9]*).*/\1/p' "$spec" | head -1)
inc="-I$(dirname "$file")"
sys_inc=""
[ -d "$cuda/include/cccl/cub" ] && sys_inc="-I$cuda/include/cccl"
sys_inc="$sys_inc -I$cuda/include"
arch=--gpu-architecture=sm_90
cutune_set="$arch --ptxas-options=-v --no-cache $inc $sys_inc"
echo "spec $spec: kernel $name in $file, $(wc -l <"$tmp/jobs") variants (every ${stride}th), $rounds rounds"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); NVRTC of $cuda"

if [ "$which" = phases ] || [ "$which" = all ]; then
    "$build/bench/nvrtc_phases" -r "$rounds" "$file" "$name" "$tmp/jobs" \
        "cutune=$cutune_set" \
        "front-end=$arch --fdevice-syntax-only --no-cache $inc $sys_inc" \
        "front+nvvm(ptx)=--gpu-architecture=compute_90 --no-cache $inc $sys_inc"
fi
if [ "$which" = options ] || [ "$which" = all ]; then
    "$build/bench/nvrtc_phases" -r "$rounds" "$file" "$name" "$tmp/jobs" \
        "cutune=$cutune_set" \
        "no-ptxas-v=$arch --no-cache $inc $sys_inc" \
        "no-toolkit-I=$arch --ptxas-options=-v --no-cache $inc" \
        "minimal=$cutune_set -minimal" \
        "pch(auto)=$cutune_set --pch" \
        "default-device=$cutune_set -default-device" \
        "dopt-on=$cutune_set -dopt=on" \
        "nvrtc-cache=$arch --ptxas-options=-v $inc $sys_inc"
fi
