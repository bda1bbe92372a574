// sgemm_naive.cu - the reference for kernels/sgemm.cu (examples/sgemm.tune verifies
// every variant against it): the same parameters and the same result, computed the
// obvious way, one thread per element of C.
//
// C[r][c] = alpha * sum_k A[r][k] * B[k][c] (+ beta * C[r][c] when beta is not 0), the
// products summed in order of k in fp32 with fmaf. Launch: 16 x 16 blocks on a
// cdiv(N, 16) x cdiv(M, 16) grid (threads outside C do nothing).
extern "C" __global__ void sgemm_naive(const float *__restrict__ A, const float *__restrict__ B,
                                       float *__restrict__ C, int M, int N, int K, float alpha, float beta)
{
    const int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= M || c >= N)
        return;
    float sum = 0.0f;
    for (int k = 0; k < K; ++k)
        sum = fmaf(A[(size_t)r * K + k], B[(size_t)k * N + c], sum);
    const size_t i = (size_t)r * N + c;
    C[i] = beta == 0.0f ? alpha * sum : alpha * sum + beta * C[i];
}
