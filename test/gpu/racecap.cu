// racecap.cu - the kernel of the race limit's GPU test (test/gpu/racecap.sh): race.cu's
// chain of dependent multiply-adds, the same work for every TAG; TAG only changes a
// constant that is never met, so each TAG is a binary of its own (no twins) and every
// variant takes the same time: a flat landscape of ties.
#ifndef TAG
#define TAG 0
#endif

extern "C" __global__ void spin(int n, int iters, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = x[i], acc = v;
    for (int k = 0; k < iters; ++k)
        acc = acc * 0.9999f + 0.0001f; // stays in [0, 1]: never the sentinel below
    y[i] = acc == -7.0f - (float)TAG ? acc : 2.0f * v;
}
