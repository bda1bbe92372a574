// divergence.cu - warp divergence (seed 000's mathKernel1..3, seed 004): the cost of a
// branch whose condition changes within a warp, as a function of its granularity.
//
// Thread tid takes branch A when (tid / GRAN) % 2 == 0, else branch B:
//   GRAN = 1   is mathKernel1's `tid % 2 == 0`: both branches in every warp (divergent);
//   GRAN = 32  is mathKernel2's `(tid / warpSize) % 2 == 0`: one branch per warp;
//   any GRAN below 32 diverges, any multiple of 32 does not.
// MODE: how the branch is written
//   0  if (cond) a = A(); else b = B();            (mathKernel1 / mathKernel2)
//   1  bool p = cond; if (p) a = A(); if (!p) b = B();   (mathKernel3)
//   2  a = A(); b = B(); keep one by the condition (no branch: what full predication costs)
//
// Unlike the seed's branches (one assignment each, which the compiler predicates, so the
// seed's profiler saw no divergence), each branch here is a loop of `iters` dependent
// floating-point steps, which cannot be predicated; A and B differ in their instructions.
//
// The same answer whatever GRAN: thread tid computes element e, chosen so that the
// threads taking branch A compute the even elements and those taking B the odd ones
// (in each group of 2*GRAN threads, the first GRAN take the group's even elements, in
// order, the others its odd ones; GRAN = 1 gives e = tid). Element e's value depends on
// e alone, so every variant must write exactly the same c[] (verified with atol 0).
// The cost of this: for GRAN >= 2 a warp writes every other float of 256 bytes (the
// writes are a few percent of the run time at the spec's `iters`).
#ifndef GRAN
#define GRAN 1
#endif
#ifndef MODE
#define MODE 0
#endif

// Branch A: x <- 0.75 x + 0.125 with one fused multiply-add per step (tends to 0.5).
__device__ float path_a(float x, int iters)
{
    for (int i = 0; i < iters; ++i)
        x = fmaf(x, 0.75f, 0.125f);
    return x;
}

// Branch B: x <- 0.75 - 0.5 x as a separate multiply and add (tends to 0.5).
__device__ float path_b(float x, int iters)
{
    for (int i = 0; i < iters; ++i)
        x = __fadd_rn(0.75f, __fmul_rn(x, -0.5f));
    return x;
}

extern "C" __global__ void divergence(float *__restrict__ c, int n, int iters)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = tid % (2 * GRAN);
    const int e = (tid - j) + 2 * (j % GRAN) + j / GRAN;
    if (e >= n)
        return;
    const float x = (float)(e % 1000) * 0.001f;
    float a = 0.0f, b = 0.0f;
#if MODE == 0
    if ((tid / GRAN) % 2 == 0)
        a = path_a(x, iters);
    else
        b = path_b(x, iters);
#elif MODE == 1
    const bool ipred = (tid / GRAN) % 2 == 0;
    if (ipred)
        a = path_a(x, iters);
    if (!ipred)
        b = path_b(x, iters);
#else
    const float ra = path_a(x, iters), rb = path_b(x, iters);
    if ((tid / GRAN) % 2 == 0)
        a = ra;
    else
        b = rb;
#endif
    c[e] = a + b;
}
