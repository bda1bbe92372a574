// pnpoly.cu - point in polygon by crossing number, for the speed benchmark's pnpoly space
// (pnpoly.tune): the space of Kernel Tuner's pnpoly example, written for cutune.
//
// bitmap[i] is 1 when points[i] lies inside the polygon d_vertices, else 0: a ray from the
// point in the +x direction crosses the polygon's edges an odd number of times (the
// crossing number test; Dan Sunday, "Inclusion of a point in a polygon", 2001). Edge j runs
// from vertex j to vertex j - 1 (vertex VERTICES - 1 for j = 0).
//
// Constant memory, filled by the spec's constant arguments: d_vertices (the polygon's
// VERTICES vertices, in order) and d_slopes (slope j = dx / dy of edge j, precomputed on
// the host; read only when use_precomputed_slopes is 1).
//
// Macros (each a tunable, but VERTICES):
//   VERTICES                the polygon's vertex count (the spec's `let ... as define`)
//   block_size_x            threads per block (the block is block_size_x x 1 x 1)
//   tile_size               points per thread, block_size_x apart: block b's threads cover
//                           points b * block_size_x * tile_size onwards
//   between_method 0..3     how "the point's y lies between the edge's two ends' y" is
//                           computed: 0 and 1 by comparisons (0 one inequality of two
//                           comparisons, 1 spelled out with && and ||), 2 and 3 by the sign
//                           of a product, with an equality tested first (2) or last (3).
//                           They differ only where the point's y equals an end's y exactly.
//   use_precomputed_slopes  1: read the edge's slope from d_slopes; 0: divide per edge
//   use_method              0: flip a flag per crossing under an if; 1: add the crossing
//                           (0 or 1) to a count, branch-free, and keep its parity
//
// The crossing's x is one fused multiply-add, fmaf(slope, p.y - vj.y, vj.x), whatever the
// variant, so that every variant rounds it alike and the bitmaps can be compared exactly.
#ifndef VERTICES
#define VERTICES 600
#endif
#ifndef block_size_x
#define block_size_x 256
#endif
#ifndef tile_size
#define tile_size 1
#endif
#ifndef between_method
#define between_method 0
#endif
#ifndef use_precomputed_slopes
#define use_precomputed_slopes 0
#endif
#ifndef use_method
#define use_method 0
#endif

__constant__ float2 d_vertices[VERTICES];
__constant__ float d_slopes[VERTICES];

// y_between: whether y lies between the edge's end heights ya and yb: in the half-open
// range the comparisons give (0, 1), or strictly between or equal to ya (2, 3).
__device__ __forceinline__ bool y_between(float y, float ya, float yb)
{
#if between_method == 0
    return (ya > y) != (yb > y);
#elif between_method == 1
    return (ya <= y && yb > y) || (ya > y && yb <= y);
#elif between_method == 2
    return y - ya == 0.0f || (y - ya) * (y - yb) < 0.0f;
#elif between_method == 3
    return (y - ya) * (y - yb) < 0.0f || y - ya == 0.0f;
#else
#error "between_method must be 0, 1, 2 or 3"
#endif
}

// left_of_edge: whether p lies left of the edge through vj with slope dx / dy, at p's height.
__device__ __forceinline__ bool left_of_edge(float2 p, float2 vj, float slope)
{
    return p.x < fmaf(slope, p.y - vj.y, vj.x);
}

extern "C" __global__ void pnpoly(int *bitmap, const float2 *points, int n)
{
    const int first = blockIdx.x * (block_size_x * tile_size) + threadIdx.x;
    if (first >= n)
        return;

    float2 p[tile_size];
    int crossings[tile_size];
#pragma unroll
    for (int t = 0; t < tile_size; t++) {
        const int i = first + t * block_size_x;
        p[t] = i < n ? points[i] : make_float2(0.0f, 0.0f);
        crossings[t] = 0;
    }

    for (int j = 0, k = VERTICES - 1; j < VERTICES; k = j++) {
        const float2 vj = d_vertices[j];
        const float2 vk = d_vertices[k];
#if use_precomputed_slopes
        const float slope = d_slopes[j];
#else
        const float slope = (vk.x - vj.x) / (vk.y - vj.y);
#endif
#pragma unroll
        for (int t = 0; t < tile_size; t++) {
#if use_method == 0
            if (y_between(p[t].y, vj.y, vk.y) && left_of_edge(p[t], vj, slope))
                crossings[t] = !crossings[t];
#else
            crossings[t] += y_between(p[t].y, vj.y, vk.y) && left_of_edge(p[t], vj, slope);
#endif
        }
    }

#pragma unroll
    for (int t = 0; t < tile_size; t++) {
        const int i = first + t * block_size_x;
        if (i < n)
            bitmap[i] = crossings[t] & 1;
    }
}
