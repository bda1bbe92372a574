// histogram.cu - a 256-bin histogram of bytes (examples/histogram.tune).
//
// Each block counts its ITEMS * blockDim.x bytes into a private histogram in shared
// memory (shared-memory atomics), then adds it to the global bins with one atomic per
// bin. The kernel *adds* to `bins`: they must be zero before each launch, which the
// spec's `reset bins = zeros;` does before every launch cutune makes (and leaves out of
// the timing).
#ifndef ITEMS
#define ITEMS 1
#endif
#define BINS 256

extern "C" __global__ void histogram(const unsigned char *data, unsigned int *bins, unsigned long long n)
{
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    unsigned long long base = (unsigned long long)blockIdx.x * blockDim.x * ITEMS + threadIdx.x;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        unsigned long long i = base + (unsigned long long)k * blockDim.x;
        if (i < n)
            atomicAdd(&local[data[i]], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b])
            atomicAdd(&bins[b], local[b]);
}

// The reference: one global atomic per byte, in a grid-stride loop.
extern "C" __global__ void histogram_naive(const unsigned char *data, unsigned int *bins, unsigned long long n)
{
    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        atomicAdd(&bins[data[i]], 1u);
}
