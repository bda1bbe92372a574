/* stencil1d.cu - a templated 1-D stencil: out[i] = sum over k in [-RADIUS, RADIUS] of
 * w[k + RADIUS] * in[i + k], reading zero outside [0, n). Each thread computes ITEMS
 * outputs, blockDim.x apart. Tuned by examples/stencil.tune over three problem sizes. */
template <int RADIUS, int ITEMS>
__global__ void stencil1d(const float *in, float *out, const float *w, int n)
{
    int base = (blockIdx.x * blockDim.x) * ITEMS + threadIdx.x;
#pragma unroll
    for (int it = 0; it < ITEMS; ++it) {
        int i = base + it * blockDim.x;
        if (i < n) {
            float acc = 0.0f;
#pragma unroll
            for (int k = -RADIUS; k <= RADIUS; ++k) {
                int j = i + k;
                acc += (j >= 0 && j < n ? in[j] : 0.0f) * w[k + RADIUS];
            }
            out[i] = acc;
        }
    }
}
