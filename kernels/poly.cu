// poly.cu - a kernel whose speed depends on registers: every thread evaluates a
// polynomial of degree DEGREE at ITEMS points at once (Horner's rule, the points
// interleaved so each step has ITEMS independent multiply-adds). For the occupancy study
// (seed 001): registers per thread x threads per block -> blocks and warps per SM.
//
// Each thread keeps its ITEMS points and ITEMS partial results live through the whole
// evaluation: about 2 * ITEMS registers plus addressing, so the natural register count
// is high, and `-maxrregcount` below it forces spills to local memory. More registers
// per thread means fewer warps per SM (lower occupancy) but no spills; a cap raises the
// occupancy and adds local-memory traffic. Which wins is what the study measures.
//
// y[i] = p(x[i]) for i in [0, n), p(t) = sum_d coef(d) t^d with the coefficients
// compiled in (immediate operands: they take no registers). A block of blockDim.x
// threads handles blockDim.x * ITEMS consecutive elements, thread t the ones
// t, t + blockDim.x, ... (coalesced). Each element's arithmetic is the same fused
// multiply-add sequence whatever the launch or the register cap, so results are exact
// to compare.
#ifndef ITEMS
#define ITEMS 32
#endif
#ifndef DEGREE
#define DEGREE 96
#endif

// The coefficient of t^d: alternating, shrinking, so values stay bounded on [-1, 1].
__device__ __forceinline__ constexpr float coef(int d)
{
    return (d % 2 ? -1.0f : 1.0f) / (float)(d + 1);
}

extern "C" __global__ void poly(const float *__restrict__ x, float *__restrict__ y, int n)
{
    const int base = blockIdx.x * blockDim.x * ITEMS + threadIdx.x;
    float t[ITEMS], acc[ITEMS];
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        const int i = base + k * (int)blockDim.x;
        t[k] = i < n ? x[i] : 0.0f;
        acc[k] = coef(DEGREE);
    }
#pragma unroll
    for (int d = DEGREE - 1; d >= 0; --d) {
#pragma unroll
        for (int k = 0; k < ITEMS; ++k)
            acc[k] = fmaf(acc[k], t[k], coef(d));
    }
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        const int i = base + k * (int)blockDim.x;
        if (i < n)
            y[i] = acc[k];
    }
}
