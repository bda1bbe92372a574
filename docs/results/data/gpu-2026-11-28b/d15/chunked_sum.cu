// chunked_sum.cu - the smallest kernel found (2026-11-28) on which CUDA 13.0's NVVM
// (V13.0.88) unrolls a loop by 3 or by 5 without a remainder. Every thread sums s[0, n)
// in chunks of blockDim.x; the chunk loop's trip count m is known only at run time, so
// a correct unroll by U needs a remainder for m % U != 0. With UNROLL 3 or 5 the PTX has
// none (nvcc -arch=sm_90 -ptx -DUNROLL=3 chunked_sum.cu: three loads in the loop, the
// count stepped by 3 and tested after them); with 2, 4, 6, 7 and 8 it has one. The sum
// is taken in the same order whatever the unroll, so every variant must match UNROLL 1
// exactly (chunked_sum.tune).
#ifndef UNROLL
#define UNROLL 1
#endif
constexpr int unroll = UNROLL; // `#pragma unroll` takes a constant expression, not a macro

extern "C" __global__ void chunked_sum(float *sums, const float *s, int n)
{
    float acc = 0.0f;
    for (int base = 0; base < n; base += blockDim.x) {
        const int m = min((int)blockDim.x, n - base);
#pragma unroll unroll
        for (int j = 0; j < m; j++)
            acc += s[base + j];
    }
    if (threadIdx.x == 0)
        sums[0] = acc;
}
