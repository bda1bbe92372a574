// scribble.cu - a kernel that writes into its `in` argument (test/gpu/scribble.sh).
//
// sum: c[i] = a[i] + b[i], one element per thread. With SCRIBBLE == 1 it then writes
// garbage into a[i], which the spec declares `in`: its own output is right (each thread
// reads a[i] before it writes it), but a variant run after it on inputs not restored
// would compute from the garbage.
#ifndef SCRIBBLE
#define SCRIBBLE 0
#endif

extern "C" __global__ void sum(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
#if SCRIBBLE
        ((float *)a)[i] = -7.0f; /* a kernel must not do this to an `in` argument */
#endif
    }
}
