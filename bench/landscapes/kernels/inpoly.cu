// inpoly.cu - which of n points lie inside one polygon of nv vertices (the even-odd rule:
// a point is inside when a ray from it towards +x crosses the polygon's edges an odd
// number of times). A held-out landscape for the search benchmark (bench/landscapes/
// inpoly.tune): a compute-bound kernel whose tunables are not all powers of two.
//
// Thread t of a block tests TILE points, t, t + blockDim.x, ... of the block's
// blockDim.x * TILE, against every edge (vertex j and the one before it, k = j - 1, the
// last vertex before the first). The tunables change how the work is arranged, never the
// arithmetic: every variant computes each crossing with the same operations in the same
// order (no product feeds an addition, so there is nothing to contract into an FMA; the
// division is IEEE, NVRTC's default), so every variant's answer is exactly the same.
//   TILE        points per thread (their coordinates and parities live in registers)
//   STAGE       1: the block copies the vertices into shared memory, blockDim.x at a
//               time; 0: every thread reads them through the read-only cache
//   BRANCHLESS  1: the parity flips by xor with the crossing's test; 0: by a branch
//   UNROLL      the unroll factor of the loop over the edges
//
// A compiler fault the recording met: with STAGE 1 and UNROLL 3 or 5, CUDA 13.0's NVVM
// (nvcc and NVRTC, V13.0.88) unrolls the loop over a chunk's edges without a remainder:
// the PTX steps the count by 3 (or 5) and tests it only after that many edges, so a chunk
// whose length is no multiple of it runs past its end into stale shared memory. Those
// variants give wrong answers (cutune's verification reports 250,000-430,000 of 2^20
// points differing); -G compiles them correctly, ptxas -O0 does not (the PTX is already
// wrong), and compute-sanitizer's racecheck and synccheck find nothing. The recording
// keeps them as wrong, as a search must step around them:
// docs/results/2026-11-28e-gpu.md, D13; a twelve-line kernel with the fault, D15.
#ifndef TILE
#define TILE 1
#endif
#ifndef STAGE
#define STAGE 0
#endif
#ifndef BRANCHLESS
#define BRANCHLESS 0
#endif
#ifndef UNROLL
#define UNROLL 1
#endif
// `#pragma unroll` does not expand macros; it takes a constant expression
constexpr int inpoly_unroll = UNROLL;

// One edge from (ax, ay) (vertex j) to (bx, by) (vertex k) against the thread's points:
// it crosses the ray of a point (x, y) when y lies between ay and by (one end above y,
// the other not) and x lies left of the edge at height y.
__device__ __forceinline__ void inpoly_edge(float ax, float ay, float bx, float by, const float *x,
                                            const float *y, int *c)
{
#pragma unroll
    for (int t = 0; t < TILE; t++) {
        const bool spans = (ay > y[t]) != (by > y[t]);
#if BRANCHLESS
        c[t] ^= spans & (x[t] < (bx - ax) * (y[t] - ay) / (by - ay) + ax);
#else
        if (spans && x[t] < (bx - ax) * (y[t] - ay) / (by - ay) + ax)
            c[t] = !c[t];
#endif
    }
}

extern "C" __global__ void inpoly(int *inside, const float *px, const float *py, const float *vx,
                                  const float *vy, int n, int nv)
{
    const int first = blockIdx.x * blockDim.x * TILE + threadIdx.x;
    float x[TILE], y[TILE];
    int c[TILE];
#pragma unroll
    for (int t = 0; t < TILE; t++) {
        const int i = first + t * blockDim.x;
        x[t] = i < n ? px[i] : 0.0f;
        y[t] = i < n ? py[i] : 0.0f;
        c[t] = 0;
    }
#if STAGE
    // sx[0], sy[0]: the vertex before the chunk; sx[1 + i]: the chunk's vertex base + i
    __shared__ float sx[1025], sy[1025];
    for (int base = 0; base < nv; base += blockDim.x) {
        const int m = min((int)blockDim.x, nv - base);
        __syncthreads();
        if (threadIdx.x < m) {
            sx[1 + threadIdx.x] = vx[base + threadIdx.x];
            sy[1 + threadIdx.x] = vy[base + threadIdx.x];
        }
        if (threadIdx.x == 0) {
            const int k = base == 0 ? nv - 1 : base - 1;
            sx[0] = vx[k];
            sy[0] = vy[k];
        }
        __syncthreads();
#pragma unroll inpoly_unroll
        for (int j = 1; j <= m; j++)
            inpoly_edge(sx[j], sy[j], sx[j - 1], sy[j - 1], x, y, c);
    }
#else
    float bx = __ldg(vx + nv - 1), by = __ldg(vy + nv - 1);
#pragma unroll inpoly_unroll
    for (int j = 0; j < nv; j++) {
        const float ax = __ldg(vx + j), ay = __ldg(vy + j);
        inpoly_edge(ax, ay, bx, by, x, y, c);
        bx = ax;
        by = ay;
    }
#endif
#pragma unroll
    for (int t = 0; t < TILE; t++) {
        const int i = first + t * blockDim.x;
        if (i < n)
            inside[i] = c[t];
    }
}
