/* constants.cu - constant memory filled by cutune (test/gpu/constants.sh). HAVE = 0: the
 * module declares no `coef`; LEN = 32: it declares one too small for the spec's 64 floats.
 * Both still compute the right answer, so only the missing fill can fail them. */
#ifndef HAVE
#define HAVE 1
#endif
#ifndef LEN
#define LEN 64
#endif
#if HAVE
__constant__ float coef[LEN];
#endif
extern "C" __global__ void scale(float *y, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
#if HAVE
    if (i < n)
        y[i] = x[i] * coef[i % 64];
#else
    if (i < n)
        y[i] = x[i] * (float)(1 + i % 64);
#endif
}
/* What coef = ramp(start = 1) gives, computed without constant memory: a variant whose
 * coef stayed zero (not filled) is wrong against it. */
extern "C" __global__ void expect(float *y, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] * (float)(1 + i % 64);
}
