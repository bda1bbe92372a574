#!/usr/bin/env bash
# nvrtc_scaling.sh - NVRTC throughput by processes x threads, and each option's cost,
# on bench/speed.sh's two spaces (bench/nvrtc_scaling.c says what it prints). No GPU needed;
# the figures that matter are the GPU machine's (16 cores).
#
#   bench/nvrtc_scaling.sh [build]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../build}/bench/nvrtc_scaling
# sum_matrix: the 4 tile_y macros x 26 dummy values = 104 distinct programs.
"$bin" "$here/../kernels/sum_matrix.cu" sum_matrix 104 TILE_Y=1,2,4,8 \
    CUTUNE_BENCH_VARIANT=$(seq -s, 1 26)
# The SGEMM space's macros (330 compiles drawn from 432 combinations).
"$bin" "$here/speed/sgemm_tiled.cu" sgemm_tiled 330 BM=32,64,128 BN=32,64,128 BK=8,16,32 TM=1,2,4,8 TN=1,2,4,8
# Template instantiations in one program (name expressions) versus one program each: the
# reduction family (8 of its <BLOCK, VARIANT, ITER>) and the 1-D stencil (<RADIUS, ITEMS>).
"${bin%/*}/nvrtc_names" "$here/../kernels/reduce.cu" sm_90 'reduce<64,0,1>' 'reduce<128,0,1>' \
    'reduce<256,0,1>' 'reduce<512,0,1>' 'reduce<1024,0,1>' 'reduce<64,3,1>' 'reduce<128,3,1>' 'reduce<256,3,1>'
"${bin%/*}/nvrtc_names" "$here/../kernels/stencil1d.cu" sm_90 'stencil1d<3,1>' 'stencil1d<3,2>' \
    'stencil1d<3,4>' 'stencil1d<3,8>'
