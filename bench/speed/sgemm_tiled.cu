// sgemm_tiled.cu - a plain register-tiled SGEMM, C = A * B (row-major, M x K times
// K x N), for issue 15's speed benchmark: the space Kernel Tuner was timed on.
//
// Macros: BM x BN is the block's tile of C, BK the step along K, TM x TN each thread's
// tile of C. A block has (BM/TM) * (BN/TN) threads; grid (N/BN, M/BM). M, N and K must
// be multiples of BM, BN and BK (the spec requires it). No vector loads, no double
// buffering: the point is a realistic spread of run times, not the fastest SGEMM
// (kernels/sgemm.cu is that).
#ifndef BM
#define BM 64
#endif
#ifndef BN
#define BN 64
#endif
#ifndef BK
#define BK 8
#endif
#ifndef TM
#define TM 4
#endif
#ifndef TN
#define TN 4
#endif

#define THREADS ((BM / TM) * (BN / TN))

extern "C" __global__ void sgemm_tiled(const float *__restrict__ A, const float *__restrict__ B,
                                       float *__restrict__ C, int M, int N, int K)
{
    __shared__ float As[BK][BM]; // A's tile, transposed: As[k][m]
    __shared__ float Bs[BK][BN];

    const int tid = threadIdx.x;
    const int trow = tid / (BN / TN), tcol = tid % (BN / TN);
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int e = tid; e < BM * BK; e += THREADS) {
            int m = e / BK, k = e % BK;
            As[k][m] = A[(size_t)(row0 + m) * K + k0 + k];
        }
        for (int e = tid; e < BK * BN; e += THREADS) {
            int k = e / BN, n = e % BN;
            Bs[k][n] = B[(size_t)(k0 + k) * N + col0 + n];
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; k++) {
            float a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; i++)
                a[i] = As[k][trow * TM + i];
#pragma unroll
            for (int j = 0; j < TN; j++)
                b[j] = Bs[k][tcol * TN + j];
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++)
                    acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            C[(size_t)(row0 + trow * TM + i) * N + col0 + tcol * TN + j] = acc[i][j];
}
