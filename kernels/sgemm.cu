// sgemm.cu - single-precision GEMM, C = alpha * A * B + beta * C, every matrix
// row-major: A is M x K, B is K x N, C is M x N (BLAS semantics for beta == 0: C is
// then not read, so it may hold anything, NaN included).
//
// `sgemm` is tiled twice, in shared memory and in registers:
//   - each block computes a BM x BN tile of C, walking K in steps of BK: the BM x BK
//     slice of A and the BK x BN slice of B are staged in shared memory (A transposed,
//     As[k][m], so that a thread reads its A values as vectors along m);
//   - each of its (BM/TM) * (BN/TN) threads computes TM x TN elements of the tile,
//     accumulated in registers, from TM values of A and TN values of B per k (an outer
//     product: TM * TN FMAs for TM + TN shared-memory reads).
// A thread's TM rows are not contiguous: they are TM/RA chunks of RA = min(TM, 4)
// consecutive rows, the chunks TROWS * RA rows apart (likewise its columns, RB =
// min(TN, 4)). Consecutive threads so read consecutive 16-byte vectors of shared
// memory, which is free of bank conflicts, and write consecutive vectors of C.
// The threads of a warp form a (32 / WARP_N) x WARP_N patch of the block's thread grid:
// a squarer patch reads fewer distinct A and B values per warp.
//
// Tunables (-D macros; the defaults make the file compile alone):
//   BM, BN, BK   the block tile (BM, BN multiples of 4 * TROWS-chunks, see the spec)
//   TM, TN       the thread tile: 1, 2, 4 or a multiple of 4
//   VEC          global loads of A and B as 1, 2 or 4 floats (float2 / float4)
//   DB           1: two shared-memory stages; the next tile is loaded from global
//                memory into registers while the current one is computed (one
//                __syncthreads per tile). 0: one stage, load - sync - compute - sync.
//   PADA         floats of padding per row of the transposed A tile (0 or 4: keeps
//                16-byte alignment), against bank conflicts of its transposing stores
//   WARP_N       threads of a warp along N (1 .. 32, dividing 32)
// Requirements (the spec states them; nothing is checked here): M % BM == 0,
// N % BN == 0, K % BK == 0; BK % VEC == 0 and BN % VEC == 0; the A and B tiles hold a
// whole number of vectors per thread; (BN/TN) % WARP_N == 0 and (BM/TM) % (32/WARP_N)
// == 0; TM, TN are 1, 2 or multiples of 4; the block has (BM/TM) * (BN/TN) threads.
//
// The reference the spec verifies against is sgemm_naive.cu (a file of its own, so that
// the variants' compiles do not pay for it).
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
#ifndef VEC
#define VEC 4
#endif
#ifndef DB
#define DB 0
#endif
#ifndef PADA
#define PADA 0
#endif
#ifndef WARP_N
#define WARP_N 16
#endif

#define TROWS (BM / TM)          // threads along M
#define TCOLS (BN / TN)          // threads along N
#define NT (TROWS * TCOLS)       // threads per block
#define RA (TM < 4 ? TM : 4)     // rows per chunk of a thread's tile
#define RB (TN < 4 ? TN : 4)     // columns per chunk
#define LDA_S (BM + PADA)        // row length of the transposed A tile
#define STAGES (DB ? 2 : 1)
#define A_LOADS (BM * BK / VEC / NT) // vectors of A per thread per tile
#define B_LOADS (BK * BN / VEC / NT) // vectors of B per thread per tile

// N consecutive floats as one access (N = 1, 2 or 4); `p` must be N * 4 aligned.
template <int N> struct vec;
template <> struct vec<1> { typedef float type; };
template <> struct vec<2> { typedef float2 type; };
template <> struct vec<4> { typedef float4 type; };

// Copies N floats from `src` to `dst` as one vector access on each side.
template <int N> __device__ __forceinline__ void copy_vec(float *dst, const float *src)
{
    *reinterpret_cast<typename vec<N>::type *>(dst) = *reinterpret_cast<const typename vec<N>::type *>(src);
}

// No __launch_bounds__: with it, ptxas ignores --maxrregcount (checked with CUDA 13.0:
// 137 registers with and without --maxrregcount=128), and the register cap is one of the
// tunables. The spec caps blocks of 512 and 1024 threads at 128 and 64 registers so that
// they can launch. Block (x, y) computes the tile at rows y*BM.., columns x*BN...
extern "C" __global__ void
sgemm(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K,
      float alpha, float beta)
{
    __shared__ __align__(16) float As[STAGES][BK][LDA_S];
    __shared__ __align__(16) float Bs[STAGES][BK][BN];

    const int tid = threadIdx.x;
    // This thread's place in the (TROWS x TCOLS) thread grid, warps as patches.
    const int lane = tid % 32, warp = tid / 32;
    const int warps_n = TCOLS / WARP_N;
    const int tr = (warp / warps_n) * (32 / WARP_N) + lane / WARP_N;
    const int tc = (warp % warps_n) * WARP_N + lane % WARP_N;

    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const float *Ablk = A + (size_t)row0 * K;
    const float *Bblk = B + col0;

    // Staging registers for one tile of A and of B (aligned for the vector copies, in
    // case the compiler ever places them in local memory).
    __align__(16) float ra[A_LOADS][VEC];
    __align__(16) float rb[B_LOADS][VEC];

    // Global -> registers: tile t of A (rows row0.., columns t*BK..) and of B.
    auto load_global = [&](int t) {
#pragma unroll
        for (int i = 0; i < A_LOADS; ++i) {
            const int v = tid + i * NT, r = v / (BK / VEC), c = (v % (BK / VEC)) * VEC;
            copy_vec<VEC>(ra[i], Ablk + (size_t)r * K + t * BK + c);
        }
#pragma unroll
        for (int i = 0; i < B_LOADS; ++i) {
            const int v = tid + i * NT, r = v / (BN / VEC), c = (v % (BN / VEC)) * VEC;
            copy_vec<VEC>(rb[i], Bblk + (size_t)(t * BK + r) * N + c);
        }
    };
    // Registers -> shared stage s: A transposed (scalar stores), B as vectors.
    auto store_shared = [&](int s) {
#pragma unroll
        for (int i = 0; i < A_LOADS; ++i) {
            const int v = tid + i * NT, r = v / (BK / VEC), c = (v % (BK / VEC)) * VEC;
#pragma unroll
            for (int j = 0; j < VEC; ++j)
                As[s][c + j][r] = ra[i][j];
        }
#pragma unroll
        for (int i = 0; i < B_LOADS; ++i) {
            const int v = tid + i * NT, r = v / (BN / VEC), c = (v % (BN / VEC)) * VEC;
            copy_vec<VEC>(&Bs[s][r][c], rb[i]);
        }
    };

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            acc[i][j] = 0.0f;

    // The outer products of one shared stage.
    auto compute = [&](int s) {
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            __align__(16) float a[TM];
            __align__(16) float b[TN];
#pragma unroll
            for (int g = 0; g < TM / RA; ++g)
                copy_vec<RA>(&a[g * RA], &As[s][k][(g * TROWS + tr) * RA]);
#pragma unroll
            for (int g = 0; g < TN / RB; ++g)
                copy_vec<RB>(&b[g * RB], &Bs[s][k][(g * TCOLS + tc) * RB]);
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
    };

    const int tiles = K / BK;
#if DB
    load_global(0);
    store_shared(0);
    __syncthreads();
    for (int t = 0; t < tiles; ++t) {
        const int s = t & 1;
        if (t + 1 < tiles)
            load_global(t + 1); // in flight while this tile is computed
        compute(s);
        if (t + 1 < tiles)
            store_shared(s ^ 1); // the other stage: nobody reads it since the last sync
        __syncthreads();
    }
#else
    for (int t = 0; t < tiles; ++t) {
        load_global(t);
        store_shared(0);
        __syncthreads();
        compute(0);
        __syncthreads();
    }
#endif

    // C = alpha * acc + beta * C, RB columns at a time.
#pragma unroll
    for (int gi = 0; gi < TM / RA; ++gi)
#pragma unroll
        for (int ii = 0; ii < RA; ++ii) {
            const int i = gi * RA + ii;
            float *Crow = C + (size_t)(row0 + (gi * TROWS + tr) * RA + ii) * N + col0;
#pragma unroll
            for (int g = 0; g < TN / RB; ++g) {
                float *p = Crow + (g * TCOLS + tc) * RB;
                __align__(16) float out[RB];
                if (beta == 0.0f) {
#pragma unroll
                    for (int j = 0; j < RB; ++j)
                        out[j] = alpha * acc[i][g * RB + j];
                } else {
                    copy_vec<RB>(out, p);
#pragma unroll
                    for (int j = 0; j < RB; ++j)
                        out[j] = alpha * acc[i][g * RB + j] + beta * out[j];
                }
                copy_vec<RB>(p, out);
            }
        }
}
