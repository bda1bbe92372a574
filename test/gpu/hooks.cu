// hooks.cu - kernels for test/gpu/hooks.sh (issue 16): resets and checkers on a GPU.
#ifndef BUG
#define BUG 0
#endif

// y = 3 x; BUG = 1 makes element 777 twice too large (a wrong variant).
extern "C" __global__ void scale(const float *x, float *y, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i] * 3.0f;
        if (BUG && i == 777)
            v *= 2.0f;
        y[i] = v;
    }
}

// The reference of a ramp read from a file: x[i] = i, so y[i] = 3 i.
extern "C" __global__ void scale_of_index(const float *x, float *y, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 3.0f * (float)i;
}

// A user checker: the score is the count of elements off by more than 1e-6 relative.
extern "C" __global__ void close_enough(const float *out, const float *ref, unsigned long long n, double *score)
{
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && !(fabsf(out[i] - ref[i]) <= 1e-6f * fabsf(ref[i])))
        atomicAdd(score, 1.0);
}

// y += x: in place; reset to its input (or a constant) before every launch.
extern "C" __global__ void accumulate(const float *x, float *y, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] += x[i];
}

// A reset kernel for the histogram's bins (launched with 256 threads).
extern "C" __global__ void clear_bins(const unsigned char *data, unsigned int *bins, unsigned long long n)
{
    bins[threadIdx.x] = 0;
}
