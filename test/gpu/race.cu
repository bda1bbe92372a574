// race.cu - the kernel of the race's GPU tests (test/gpu/race.sh, racecap.sh): every
// thread runs a chain of WORK * iters dependent multiply-adds, so WORK = 8 takes eight
// times as long as WORK = 1, and writes 2 * x[i], the same for every WORK (verified).
// TAG only changes a constant that is never met: each TAG is a binary of its own (no
// twins) of the same speed, the ties racecap.sh needs.
#ifndef WORK
#define WORK 1
#endif
#ifndef TAG
#define TAG 0
#endif

extern "C" __global__ void spin(int n, int iters, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = x[i], acc = v;
    for (int k = 0; k < iters * WORK; ++k)
        acc = acc * 0.9999f + 0.0001f; // stays in [0, 1]: never the sentinel below
    y[i] = acc == -7.0f - (float)TAG ? acc : 2.0f * v;
}
