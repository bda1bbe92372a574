/* vectors.cu - vector element types on a GPU (test/gpu/vectors.sh). SWAP = 1 swaps the
 * two lanes of element 5 of y: verification must name that element and its lane. */
#ifndef SWAP
#define SWAP 0
#endif
template <typename V>
__global__ void twice(V *y, const V *x, const double2 *d, const int4 *k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        V v = x[i];
        v.x = 2 * v.x + (float)d[i % 64].y;
        v.y = 2 * v.y + (float)k[i % 16].w;
#if SWAP
        if (i == 5) {
            float t = v.x;
            v.x = v.y;
            v.y = t;
        }
#endif
        y[i] = v;
    }
}
