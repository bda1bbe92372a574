// kernels.cu - kernels for the GPU tests (test/gpu/gpu.sh).
//
// scale: y[i] = a * x[i] + y[i] for n elements, ITEMS per thread. With BUG == 1 the
// last element of each thread's share is left out (a wrong answer); with HEAVY == 1
// each thread keeps 96 accumulators live, so it needs well over 64 registers and a
// 1024-thread block cannot fit on an SM.
#ifndef ITEMS
#define ITEMS 1
#endif
#ifndef BUG
#define BUG 0
#endif
#ifndef HEAVY
#define HEAVY 0
#endif

extern "C" __global__ void scale(int n, float a, const float *x, float *y)
{
    int first = (blockIdx.x * blockDim.x) * ITEMS + threadIdx.x;
#if HEAVY
    float acc[96];
#pragma unroll
    for (int k = 0; k < 96; ++k)
        acc[k] = x[(first + k * 7) % n];
#pragma unroll
    for (int r = 0; r < 4; ++r)
#pragma unroll
        for (int k = 0; k < 96; ++k)
            acc[k] = acc[k] * acc[(k + 1) % 96] + acc[(k + 5) % 96];
    float keep = 0;
#pragma unroll
    for (int k = 0; k < 96; ++k)
        keep += acc[k];
    if (keep == 12345.0f) /* never: keeps the accumulators alive */
        y[0] = keep;
#endif
#pragma unroll
    for (int k = 0; k < ITEMS - BUG; ++k) {
        int i = first + k * blockDim.x;
        if (i < n)
            y[i] = a * x[i] + y[i];
    }
}

// The reference for tiny_kernel_ref.tune: one element per thread, no tunables.
extern "C" __global__ void scale_ref(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
