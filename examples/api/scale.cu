// scale.cu - x[i] = 2 * x[i] + 1 for i < n, ITEMS elements per thread: the kernel of the
// C API example (tune_from_string.c), whose spec names it relative to the folder given.
#ifndef ITEMS
#define ITEMS 1
#endif

extern "C" __global__ void scale(int n, float *x)
{
    int first = blockIdx.x * blockDim.x * ITEMS + threadIdx.x;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        int i = first + k * blockDim.x;
        if (i < n)
            x[i] = 2.0f * x[i] + 1.0f;
    }
}
