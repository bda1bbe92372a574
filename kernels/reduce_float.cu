// reduce_float.cu - sums of segments of floats (examples/reduce_check.tune).
//
// Each block reduces BLOCK * ITEMS elements in shared memory (a tree) and adds its
// partial sum to its segment's with one float atomicAdd. The order of those adds is
// whatever the hardware makes it, different from launch to launch and from variant to
// variant, so the sums differ in their last bits: they are verified with a relative
// L2 norm, not bit for bit.
#ifndef ITEMS
#define ITEMS 1
#endif

template <int BLOCK>
__global__ void reduce_float(const float *x, float *sums, unsigned n, unsigned seg)
{
    __shared__ float s[BLOCK];
    unsigned base = blockIdx.x * BLOCK * ITEMS + threadIdx.x;
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        unsigned i = base + k * BLOCK;
        if (i < n)
            acc += x[i];
    }
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int w = BLOCK / 2; w > 0; w >>= 1) {
        if (threadIdx.x < w)
            s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(&sums[(blockIdx.x * BLOCK * ITEMS) / seg], s[0]);
}

// The reference: one thread per segment, summing in order in double.
extern "C" __global__ void reduce_float_reference(const float *x, float *sums, unsigned n, unsigned seg)
{
    unsigned s = blockIdx.x * blockDim.x + threadIdx.x;
    if ((unsigned long long)s * seg >= n)
        return;
    double acc = 0.0;
    for (unsigned i = s * seg; i < (s + 1) * seg && i < n; ++i)
        acc += x[i];
    sums[s] = (float)acc;
}
