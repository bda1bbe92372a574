// reduce.cu - the seeds' parallel reduction family (seed 002, "reduceNeighbored" ...
// "reduceCompleteUnroll", plus a warp-shuffle version): each block sums its share of
// `in` and writes one partial sum to out[blockIdx.x]; the host (or a second pass) adds
// the partial sums.
//
// Template arguments: BLOCK, the threads per block (a power of two, 64..1024), and
// VARIANT, which algorithm:
//   0 neighbored        stride doubles, threads with tid % (2*stride) == 0 work (divergent)
//   1 neighbored_less   stride doubles, thread tid works on 2*stride*tid (less divergent)
//   2 interleaved       stride halves, the first `stride` threads work
//   3 unroll2           as 2, each block first adds 2 blocks' worth of input
//   4 unroll4           ... 4 blocks' worth
//   5 unroll8           ... 8 blocks' worth
//   6 unroll8_warp      as 5, and the last warp (stride < 32) unrolled without __syncthreads
//   7 complete_unroll   as 6, with every level unrolled for the compile-time BLOCK
//   8 shuffle           8 blocks' worth per block, then __shfl_down_sync within warps
// Elements per block: BLOCK for 0-2, BLOCK*2, *4, *8 for 3-5, BLOCK*8 for 6-8.
// The in-place variants (0-7) reduce a shared-memory copy, so `in` is never modified.

template <int VARIANT> struct per_thread {
    static const int value = VARIANT == 3 ? 2 : VARIANT == 4 ? 4 : VARIANT >= 5 ? 8 : 1;
};

// The sum of up to FACTOR elements, BLOCK apart, starting at this thread's first one.
template <int BLOCK, int FACTOR>
__device__ int gather(const int *in, unsigned n, unsigned base, unsigned tid)
{
    int sum = 0;
#pragma unroll
    for (int k = 0; k < FACTOR; ++k) {
        unsigned i = base + k * BLOCK + tid;
        if (i < n)
            sum += in[i];
    }
    return sum;
}

// The last warp, unrolled: volatile so every step reads what the previous one wrote.
template <int BLOCK>
__device__ void warp_reduce(volatile int *s, unsigned tid)
{
    if (BLOCK >= 64) s[tid] += s[tid + 32];
    if (BLOCK >= 32) s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
}

template <int BLOCK, int VARIANT>
__global__ void reduce(const int *__restrict__ in, int *__restrict__ out, unsigned n)
{
    const int factor = per_thread<VARIANT>::value;
    const unsigned tid = threadIdx.x;
    const unsigned base = blockIdx.x * BLOCK * factor;
    __shared__ int s[BLOCK];

    if (VARIANT == 8) {
        int v = gather<BLOCK, 8>(in, n, base, tid);
        for (int offset = 16; offset > 0; offset >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, offset);
        if (tid % 32 == 0)
            s[tid / 32] = v;
        __syncthreads();
        if (tid < 32) {
            v = tid < BLOCK / 32 ? s[tid] : 0;
            for (int offset = 16; offset > 0; offset >>= 1)
                v += __shfl_down_sync(0xffffffffu, v, offset);
            if (tid == 0)
                out[blockIdx.x] = v;
        }
        return;
    }

    s[tid] = gather<BLOCK, factor>(in, n, base, tid);
    __syncthreads();

    if (VARIANT == 0) {
        for (unsigned stride = 1; stride < BLOCK; stride *= 2) {
            if (tid % (2 * stride) == 0)
                s[tid] += s[tid + stride];
            __syncthreads();
        }
    } else if (VARIANT == 1) {
        for (unsigned stride = 1; stride < BLOCK; stride *= 2) {
            unsigned index = 2 * stride * tid;
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
        if (tid < 32)
            warp_reduce<BLOCK>(s, tid);
    } else { // 7: every level known at compile time
        if (BLOCK >= 1024 && tid < 512) s[tid] += s[tid + 512];
        __syncthreads();
        if (BLOCK >= 512 && tid < 256) s[tid] += s[tid + 256];
        __syncthreads();
        if (BLOCK >= 256 && tid < 128) s[tid] += s[tid + 128];
        __syncthreads();
        if (BLOCK >= 128 && tid < 64) s[tid] += s[tid + 64];
        __syncthreads();
        if (tid < 32)
            warp_reduce<BLOCK>(s, tid);
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}
