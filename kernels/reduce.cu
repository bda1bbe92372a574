// reduce.cu - the seeds' parallel reduction family (seed 002's table, seed 004's
// kernels: reduceNeighbored ... reduceCompleteUnrollWarps8, plus a warp-shuffle
// version), each block summing BLOCK * FACTOR * ITER consecutive ints of `in`.
//
// Template arguments:
//   BLOCK    threads per block, a power of two from 64 to 1024
//   VARIANT  the algorithm (FACTOR: input blocks' worth each block first adds)
//     0 neighbored        stride doubles; threads with tid % (2*stride) == 0 work (divergent)  FACTOR 1
//     1 neighbored_less   stride doubles; thread tid works on 2*stride*tid (fewer warps diverge) 1
//     2 interleaved       stride halves; the first `stride` threads work                         1
//     3 unroll2           as 2, each thread first adds 2 elements BLOCK apart                    2
//     4 unroll4           ... 4 elements                                                         4
//     5 unroll8           ... 8 elements                                                         8
//     6 unroll8_warp      as 5, and the last warp (stride < 32) unrolled without __syncthreads  8
//     7 complete_unroll   as 6, with every level unrolled for the compile-time BLOCK             8
//     8 shuffle           8 elements per thread, then __shfl_down_sync within each warp          8
//   ITER     more work per block: the block adds ITER consecutive tiles of BLOCK * FACTOR
//            elements into its threads' registers before its one tree reduction (ITER = 1
//            is the seed's kernel).
//
// Output, and why it can be checked exactly: the seed writes one partial sum per block,
// and different variants cut the input into different blocks, so their partial sums are
// not comparable. Here the input is cut into segments of `seg` elements (a power of two,
// a multiple of every block's span, so each block lies in exactly one segment), and each
// block atomicAdd's its sum into its segment's slot, sums[(first / seg) * SLOT_STRIDE].
// A segment's sum is the same whatever the variant, and integer addition is exact and
// order-independent, so every variant must reproduce the reference's slots bit for bit.
// Slots are SLOT_STRIDE ints (128 bytes) apart so that the few segments in flight at a
// time do not share a cache line for their atomics; the ints in between stay 0.
//
// Departures from the seed, on purpose: the in-place variants reduce a shared-memory copy
// (the seed reduces global memory in place, which would change the input between timed
// runs); the unrolled last warp uses __syncwarp() between reading and writing, which
// Volta and later need for warp-synchronous code to be correct (the seed relies on
// `volatile` and lockstep execution, which is a data race there).
#define SLOT_STRIDE 32

template <int VARIANT> struct factor_of {
    static const int value = VARIANT == 3 ? 2 : VARIANT == 4 ? 4 : VARIANT >= 5 ? 8 : 1;
};

// This thread's share of ITER tiles of BLOCK * FACTOR elements starting at `base`: in
// each tile, FACTOR elements BLOCK apart (coalesced across the block).
template <int BLOCK, int FACTOR, int ITER>
__device__ int gather(const int *__restrict__ in, unsigned n, unsigned base, unsigned tid)
{
    int sum = 0;
#pragma unroll
    for (int t = 0; t < ITER; ++t) {
#pragma unroll
        for (int k = 0; k < FACTOR; ++k) {
            const unsigned i = base + (unsigned)(t * FACTOR + k) * BLOCK + tid;
            if (i < n)
                sum += in[i];
        }
    }
    return sum;
}

// The last 64 partial sums (BLOCK >= 64), by the first warp, without __syncthreads. Each step reads,
// then (after __syncwarp) writes, so no lane reads a slot another lane is writing.
__device__ int warp_reduce(volatile int *s, unsigned tid)
{
    int v = s[tid];
#pragma unroll
    for (int offset = 32; offset > 0; offset >>= 1) {
        v += s[tid + offset];
        __syncwarp();
        s[tid] = v;
        __syncwarp();
    }
    return v;
}

template <int BLOCK, int VARIANT, int ITER>
__global__ void reduce(const int *__restrict__ in, int *__restrict__ sums, unsigned n, unsigned seg)
{
    static_assert(BLOCK >= 64 && BLOCK <= 1024 && (BLOCK & (BLOCK - 1)) == 0, "BLOCK: a power of two, 64..1024");
    static_assert(VARIANT >= 0 && VARIANT <= 8, "VARIANT: 0..8");
    const int factor = factor_of<VARIANT>::value;
    const unsigned tid = threadIdx.x;
    const unsigned base = blockIdx.x * (unsigned)(BLOCK * factor * ITER);
    int *const slot = sums + (base / seg) * SLOT_STRIDE;
    __shared__ int s[BLOCK];

    if (VARIANT == 8) {
        int v = gather<BLOCK, 8, ITER>(in, n, base, tid);
#pragma unroll
        for (int offset = 16; offset > 0; offset >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, offset);
        if (tid % 32 == 0)
            s[tid / 32] = v;
        __syncthreads();
        if (tid < 32) {
            v = tid < BLOCK / 32 ? s[tid] : 0;
#pragma unroll
            for (int offset = 16; offset > 0; offset >>= 1)
                v += __shfl_down_sync(0xffffffffu, v, offset);
            if (tid == 0)
                atomicAdd(slot, v);
        }
        return;
    }

    s[tid] = gather<BLOCK, factor, ITER>(in, n, base, tid);
    __syncthreads();

    if (VARIANT == 0) {
        for (unsigned stride = 1; stride < BLOCK; stride *= 2) {
            if (tid % (2 * stride) == 0)
                s[tid] += s[tid + stride];
            __syncthreads();
        }
    } else if (VARIANT == 1) {
        for (unsigned stride = 1; stride < BLOCK; stride *= 2) {
            const unsigned index = 2 * stride * tid;
            if (index < BLOCK)
                s[index] += s[index + stride];
            __syncthreads();
        }
    } else if (VARIANT <= 5) {
        for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
            if (tid < stride)
                s[tid] += s[tid + stride];
            __syncthreads();
        }
    } else if (VARIANT == 6) {
        for (unsigned stride = BLOCK / 2; stride > 32; stride >>= 1) {
            if (tid < stride)
                s[tid] += s[tid + stride];
            __syncthreads();
        }
        if (tid < 32) {
            const int v = warp_reduce(s, tid);
            if (tid == 0)
                atomicAdd(slot, v);
        }
        return;
    } else { // 7: every level known at compile time
        if (BLOCK >= 1024 && tid < 512) s[tid] += s[tid + 512];
        __syncthreads();
        if (BLOCK >= 512 && tid < 256) s[tid] += s[tid + 256];
        __syncthreads();
        if (BLOCK >= 256 && tid < 128) s[tid] += s[tid + 128];
        __syncthreads();
        if (BLOCK >= 128 && tid < 64) s[tid] += s[tid + 64];
        __syncthreads();
        if (tid < 32) {
            const int v = warp_reduce(s, tid);
            if (tid == 0)
                atomicAdd(slot, v);
        }
        return;
    }
    if (tid == 0)
        atomicAdd(slot, s[0]);
}

// The reference, written for obviousness: one block of 256 threads per segment, each
// thread adding every 256th element of it and then its sum into the segment's slot.
// Launched with block 256, grid n / seg.
extern "C" __global__ void reduce_reference(const int *__restrict__ in, int *__restrict__ sums, unsigned n,
                                            unsigned seg)
{
    const unsigned first = blockIdx.x * seg;
    int v = 0;
    for (unsigned i = first + threadIdx.x; i < first + seg && i < n; i += 256)
        v += in[i];
    atomicAdd(&sums[blockIdx.x * SLOT_STRIDE], v);
}
