// persistent_saxpy.cu - y = a * sin(x) + y over N elements by a persistent-style grid:
// as many blocks as the GPU holds at once (a few per SM), each thread striding over the
// whole array (a grid-stride loop) instead of one thread per element.
//
// Tunables: the block size and the grid come from the launch (blockDim, gridDim: the
// spec sets the grid to sm_count * blocks_per_sm); ITEMS (-D) is how many strides a
// thread handles per trip of the loop (independent loads in flight); N (-D, from a
// `let ... as define`) is the problem size, a compile-time constant. --use_fast_math
// (a bool param) turns sinf into the faster, less accurate __sinf.
#ifndef N
#define N (1 << 24)
#endif
#ifndef ITEMS
#define ITEMS 1
#endif

extern "C" __global__ void persistent_saxpy(float a, const float *__restrict__ x, float *__restrict__ y)
{
    const long long stride = (long long)gridDim.x * blockDim.x;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + (ITEMS - 1) * stride < (long long)N; i += ITEMS * stride) {
#pragma unroll
        for (int k = 0; k < ITEMS; ++k) {
            const long long j = i + k * stride;
            y[j] = a * sinf(x[j]) + y[j];
        }
    }
    for (; i < (long long)N; i += stride) /* the last, partial trip */
        y[i] = a * sinf(x[i]) + y[i];
}
