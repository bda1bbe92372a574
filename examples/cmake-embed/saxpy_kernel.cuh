// saxpy_kernel.cuh - y[i] = a * x[i] + y[i] for i < n, ITEMS elements per thread.
//
// One source for both sides: cutune compiles it with NVRTC for every configuration
// (-DITEMS=..., --maxrregcount=...), and the application includes it after the tuned
// header, mapping the header's macros onto ITEMS and SAXPY_BOUNDS (see main.cu).
#include "saxpy_index.cuh"

#ifndef ITEMS
#define ITEMS 1
#endif
#ifndef SAXPY_BOUNDS
#define SAXPY_BOUNDS // the application sets __maxnreg__(N) here; cutune passes --maxrregcount
#endif

extern "C" __global__ void SAXPY_BOUNDS saxpy(int n, float a, const float *x, float *y)
{
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        int i = saxpy_element(blockIdx.x, threadIdx.x, blockDim.x, ITEMS, k);
        if (i < n)
            y[i] = a * x[i] + y[i];
    }
}
