/* vectors.cu - vector element types on a GPU (test/gpu/vectors.sh). SWAP = 1 swaps the
 * two lanes of element 5 of y: verification must name that element and its lane. The
 * narrower and wider vector inputs (double4, char4, uchar2, short2, ushort4) are each
 * checked against the values their fills promise (vectors.tune): a lane that differs
 * traps, and the variant fails to run (vectors.sh wants every SWAP = 0 variant ok).
 * h = 2 * h2 + 1, lane by lane. */
#include <cuda_fp16.h>
#ifndef SWAP
#define SWAP 0
#endif
/* The fills' promises, lane j of element i being value i * lanes + j. */
__device__ bool inputs_ok(int i, const double4 *d4, const char4 *c4, const uchar2 *u2, const short2 *s2,
                          const ushort4 *us4)
{
    int e = i % 16;
    double4 a = d4[e];
    bool ok = a.x == 0.5 + 0.25 * (4 * e) && a.y == 0.5 + 0.25 * (4 * e + 1) && a.z == 0.5 + 0.25 * (4 * e + 2) &&
              a.w == 0.5 + 0.25 * (4 * e + 3);
    char4 c = c4[e];
    ok = ok && c.x >= -100 && c.x <= 100 && c.y >= -100 && c.y <= 100 && c.z >= -100 && c.z <= 100 && c.w >= -100 &&
         c.w <= 100;
    uchar2 u = u2[e]; /* ramp(start = 200): 200 + 2e and 201 + 2e, at most 231 */
    ok = ok && u.x == 200 + 2 * e && u.y == 201 + 2 * e;
    short2 s = s2[e];
    ok = ok && s.x == -3000 && s.y == -3000;
    ushort4 w = us4[e];
    ok = ok && w.x <= 60000 && w.y <= 60000 && w.z <= 60000 && w.w <= 60000;
    return ok;
}

template <typename V>
__global__ void twice(V *y, const V *x, const double2 *d, const int4 *k, const double4 *d4, const char4 *c4,
                      const uchar2 *u2, const short2 *s2, const ushort4 *us4, const __half2 *h2, __half2 *h, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        V v = x[i];
        v.x = 2 * v.x + (float)d[i % 64].y;
        v.y = 2 * v.y + (float)k[i % 16].w;
        if (!inputs_ok(i, d4, c4, u2, s2, us4))
            __trap();
#if SWAP
        if (i == 5) {
            float t = v.x;
            v.x = v.y;
            v.y = t;
        }
#endif
        y[i] = v;
        if (i < 64) {
            __half2 a = h2[i];
            h[i] = __halves2half2(__float2half(2.0f * __low2float(a) + 1.0f), __float2half(2.0f * __high2float(a) + 1.0f));
        }
    }
}
