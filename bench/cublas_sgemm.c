/* cublas_sgemm.c - benchmark: cuBLAS SGEMM (fp32, no TF32) at the size and with the data
 * of examples/sgemm.tune, timed the way cutune times a variant, so that the tuned
 * kernel's GFLOP/s can be put next to the library's.
 *
 *   cublas_sgemm M N K [WARMUP REPEAT MAX_REPEAT SPREAD]
 *
 * The problem: C = alpha * A * B + beta * C with alpha = 1, beta = 0, every matrix
 * row-major (A is M x K, B is K x N), A and B filled as the spec's random(seed = 1,
 * min = -1, max = 1) and random(seed = 2, min = -1, max = 1) fill them (cutune's
 * counter-based generator, runtime/data.c). cuBLAS is column-major, so it computes
 * C^T = B^T * A^T: the same memory, the same products.
 *
 * Precision: cublasSetMathMode(CUBLAS_DEFAULT_MATH) and cublasSgemm, whose compute type
 * is then CUBLAS_COMPUTE_32F. cuBLAS's header (cublas_api.h, cuBLAS 13.1) documents the
 * default compute types as guaranteeing "internal storage precision with at least the
 * same precision and range", and TF32 as opt-in only: CUBLAS_TF32_TENSOR_OP_MATH ("allow
 * accelerating single precision routines using TF32 tensor cores") or the _FAST_TF32
 * compute types; BF16x9 emulation likewise needs CUBLAS_FP32_EMULATED_BF16X9_MATH. So
 * the default mode excludes TF32 and CUBLAS_PEDANTIC_MATH is not needed for that (it
 * additionally asks for "standard arithmetic", which may cost speed, and is not what an
 * application calling cublasSgemm gets). As a check that does not rely on the
 * documentation, 1024 elements of C are recomputed on the host in double precision:
 * TF32 rounds the inputs to 10 mantissa bits, which would put errors of about
 * 2^-11 * sqrt(K) / 3 on them (0.007 at K = 2048), far above the fp32 tolerance used here
 * (the spec's: 2^-20 * K); the program fails (exit 1) when they exceed it.
 *
 * Timing, as cutune does it (runtime/measure.c, docs/results-format.md): WARMUP
 * untimed calls, then the shortest of three single timed calls decides the batch (calls
 * per event pair: 1 unless a call is shorter than 50 us); then repetitions, each an L2
 * flush (a memset over a buffer twice the L2's size, outside the timed region) and one
 * event pair around the batch, until REPEAT have run and the interquartile spread
 * (q3 - q1) / median is at most SPREAD, or MAX_REPEAT have run. Defaults: the spec's
 * measure(warmup = 2, repeat = 5, max_repeat = 20, spread = 0.02).
 *
 * Output: one line "cublas_sgemm M N K median_ms X min_ms X max_ms X reps R batch B
 * spread S GFLOPS G max_abs_error E", GFLOPS = 2*M*N*K / median time. Exit 0 when
 * measured, 1 on a wrong result, 2 on bad arguments, 3 on a CUDA or cuBLAS error, 77
 * when there is no usable GPU (no driver or no device; said on stderr).
 */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_WRONG 1
#define EXIT_USAGE 2
#define EXIT_CUDA 3
#define EXIT_NO_GPU 77

/* Checks a CUDA runtime call: on failure says which call and why, exits EXIT_CUDA. */
#define CK(call)                                                                                              \
    do {                                                                                                      \
        cudaError_t e_ = (call);                                                                              \
        if (e_ != cudaSuccess) {                                                                              \
            fprintf(stderr, "cublas_sgemm: %s failed: %s (%s)\n", #call, cudaGetErrorString(e_),             \
                    cudaGetErrorName(e_));                                                                    \
            exit(EXIT_CUDA);                                                                                  \
        }                                                                                                     \
    } while (0)

/* Checks a cuBLAS call likewise. */
#define CB(call)                                                                                              \
    do {                                                                                                      \
        cublasStatus_t s_ = (call);                                                                           \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                                    \
            fprintf(stderr, "cublas_sgemm: %s failed: %s (%s)\n", #call, cublasGetStatusString(s_),          \
                    cublasGetStatusName(s_));                                                                 \
            exit(EXIT_CUDA);                                                                                  \
        }                                                                                                     \
    } while (0)

/* cutune's counter-based generator (runtime/data.c): a splitmix64 step. */
static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Fills v[0..n) as the spec's random(seed, min = lo, max = hi): element i depends on
 * the seed and i alone. */
static void fill_random(float *v, size_t n, uint64_t seed, double lo, double hi)
{
    for (size_t i = 0; i < n; i++) {
        double u = (double)(mix(mix(seed) ^ (uint64_t)i) >> 11) * 0x1.0p-53;
        v[i] = (float)(lo + u * (hi - lo));
    }
}

/* Parses a positive int argument or exits EXIT_USAGE. */
static int parse_int(const char *s, const char *what, int min)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < min || v > (1L << 30)) {
        fprintf(stderr, "cublas_sgemm: %s must be an integer >= %d, not '%s'\n", what, min, s);
        exit(EXIT_USAGE);
    }
    return (int)v;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Quantile q of sorted v[0..n), linearly interpolated (as runtime/measure.c). */
static double quantile(const double *v, int n, double q)
{
    double pos = q * (n - 1);
    int i = (int)pos;
    if (i >= n - 1)
        return v[n - 1];
    return v[i] + (pos - i) * (v[i + 1] - v[i]);
}

/* The GEMM itself: row-major C = alpha*A*B + beta*C as column-major C^T = B^T A^T. */
static void gemm(cublasHandle_t h, int M, int N, int K, const float *A, const float *B, float *C)
{
    const float alpha = 1.0f, beta = 0.0f;
    CB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, N, A, K, &beta, C, N));
}

/* One timed sample: optionally flush L2, then `batch` calls between two events; ms per call. */
static double sample(cublasHandle_t h, cudaStream_t st, cudaEvent_t e0, cudaEvent_t e1, void *flush,
                     size_t flush_bytes, int tag, int batch, int M, int N, int K, const float *A, const float *B,
                     float *C)
{
    if (flush)
        CK(cudaMemsetAsync(flush, tag & 0xFF, flush_bytes, st));
    CK(cudaEventRecord(e0, st));
    for (int b = 0; b < batch; b++)
        gemm(h, M, N, K, A, B, C);
    CK(cudaEventRecord(e1, st));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    return (double)ms / batch;
}

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 8) {
        fprintf(stderr, "usage: cublas_sgemm M N K [WARMUP REPEAT MAX_REPEAT SPREAD]\n");
        return EXIT_USAGE;
    }
    const int M = parse_int(argv[1], "M", 1), N = parse_int(argv[2], "N", 1), K = parse_int(argv[3], "K", 1);
    int warmup = 2, repeat = 5, max_repeat = 20;
    double spread = 0.02;
    if (argc == 8) {
        warmup = parse_int(argv[4], "WARMUP", 0);
        repeat = parse_int(argv[5], "REPEAT", 1);
        max_repeat = parse_int(argv[6], "MAX_REPEAT", repeat);
        char *end;
        spread = strtod(argv[7], &end);
        if (*argv[7] == '\0' || *end != '\0' || !(spread > 0)) {
            fprintf(stderr, "cublas_sgemm: SPREAD must be a number > 0, not '%s'\n", argv[7]);
            return EXIT_USAGE;
        }
    }

    /* No GPU (no driver, or no device): say so and exit 77, before anything else. */
    int devices = 0;
    cudaError_t e = cudaGetDeviceCount(&devices);
    if (e != cudaSuccess || devices == 0) {
        fprintf(stderr, "cublas_sgemm: no usable GPU: %s (%s)\n",
                e != cudaSuccess ? cudaGetErrorString(e) : "the driver reports no device",
                e != cudaSuccess ? cudaGetErrorName(e) : "0 devices");
        return EXIT_NO_GPU;
    }
    CK(cudaSetDevice(0));
    struct cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    int cublas_version = 0;

    size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    float *hA = malloc(na * sizeof *hA), *hB = malloc(nb * sizeof *hB), *hC = malloc(nc * sizeof *hC);
    if (!hA || !hB || !hC) {
        fprintf(stderr, "cublas_sgemm: out of host memory\n");
        return EXIT_CUDA;
    }
    fill_random(hA, na, 1, -1.0, 1.0);
    fill_random(hB, nb, 2, -1.0, 1.0);

    float *A, *B, *C;
    CK(cudaMalloc((void **)&A, na * sizeof *A));
    CK(cudaMalloc((void **)&B, nb * sizeof *B));
    CK(cudaMalloc((void **)&C, nc * sizeof *C));
    CK(cudaMemcpy(A, hA, na * sizeof *A, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(B, hB, nb * sizeof *B, cudaMemcpyHostToDevice));
    CK(cudaMemset(C, 0xFF, nc * sizeof *C)); /* NaN: beta = 0 must not read C */

    /* The L2 flush buffer: twice the L2, as cutune allocates it. */
    size_t flush_bytes = 2 * (size_t)prop.l2CacheSize;
    void *flush = NULL;
    if (flush_bytes)
        CK(cudaMalloc(&flush, flush_bytes));

    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    cublasHandle_t h;
    CB(cublasCreate(&h));
    CB(cublasGetVersion(h, &cublas_version));
    CB(cublasSetStream(h, st));
    CB(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH)); /* no TF32: see the comment at the top */
    cublasMath_t mode;
    CB(cublasGetMathMode(h, &mode));
    if (mode != CUBLAS_DEFAULT_MATH) {
        fprintf(stderr, "cublas_sgemm: the math mode reads back as %d, not CUBLAS_DEFAULT_MATH\n", (int)mode);
        return EXIT_CUDA;
    }

    /* Checked run: 1024 elements (all of them when C is smaller) against double sums. */
    gemm(h, M, N, K, A, B, C);
    CK(cudaStreamSynchronize(st));
    CK(cudaMemcpy(hC, C, nc * sizeof *C, cudaMemcpyDeviceToHost));
    const double tol = K * 0x1.0p-20;
    double max_err = 0;
    size_t checks = nc < 1024 ? nc : 1024;
    for (size_t s = 0; s < checks; s++) {
        size_t i = checks == nc ? s : (size_t)(mix(3 + s) % nc);
        size_t r = i / (size_t)N, c = i % (size_t)N;
        double want = 0;
        for (int k = 0; k < K; k++)
            want += (double)hA[r * (size_t)K + k] * (double)hB[(size_t)k * N + c];
        double err = fabs((double)hC[i] - want);
        if (!(err <= tol)) {
            fprintf(stderr,
                    "cublas_sgemm: C[%zu][%zu] = %.9g, the double-precision sum is %.9g (error %.3g > %.3g): "
                    "not fp32 accuracy (TF32 or another reduced precision?)\n",
                    r, c, (double)hC[i], want, err, tol);
            return EXIT_WRONG;
        }
        if (err > max_err)
            max_err = err;
    }

    /* Timing. */
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    for (int w = 0; w < warmup; w++)
        gemm(h, M, N, K, A, B, C);
    CK(cudaStreamSynchronize(st));
    double single = 0;
    for (int i = 0; i < 3; i++) {
        double one = sample(h, st, e0, e1, flush, flush_bytes, 0, 1, M, N, K, A, B, C);
        if (i == 0 || one < single)
            single = one;
    }
    const double min_sample_ms = 0.05;
    int batch = 1;
    if (single < min_sample_ms) {
        double want = ceil(min_sample_ms / (single > 1e-4 ? single : 1e-4));
        batch = want > 1000 ? 1000 : (int)want;
    }
    double *t = malloc(sizeof(double) * (size_t)max_repeat * 2);
    if (!t) {
        fprintf(stderr, "cublas_sgemm: out of host memory\n");
        return EXIT_CUDA;
    }
    double *sorted = t + max_repeat, median = 0, q1 = 0, q3 = 0, dispersion = 0;
    int n = 0;
    while (n < max_repeat) {
        t[n] = sample(h, st, e0, e1, flush, flush_bytes, n + 1, batch, M, N, K, A, B, C);
        n++;
        memcpy(sorted, t, sizeof(double) * (size_t)n);
        qsort(sorted, (size_t)n, sizeof(double), cmp_double);
        median = quantile(sorted, n, 0.5);
        q1 = quantile(sorted, n, 0.25);
        q3 = quantile(sorted, n, 0.75);
        dispersion = median > 0 ? (q3 - q1) / median : 0;
        if (n >= repeat && dispersion <= spread)
            break;
    }
    CK(cudaGetLastError());

    printf("# %s (sm_%d%d, %d SMs, L2 %d bytes), cuBLAS %d, CUBLAS_DEFAULT_MATH, L2 flushed per repetition\n",
           prop.name, prop.major, prop.minor, prop.multiProcessorCount, prop.l2CacheSize, cublas_version);
    printf("cublas_sgemm M %d N %d K %d median_ms %.5f min_ms %.5f max_ms %.5f reps %d batch %d spread %.4f "
           "GFLOPS %.1f max_abs_error %.3g\n",
           M, N, K, median, sorted[0], sorted[n - 1], n, batch, dispersion,
           2.0 * M * N * (double)K / (median * 1e-3) / 1e9, max_err);

    free(t);
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    CB(cublasDestroy(h));
    CK(cudaStreamDestroy(st));
    if (flush)
        CK(cudaFree(flush));
    CK(cudaFree(A));
    CK(cudaFree(B));
    CK(cudaFree(C));
    free(hA);
    free(hB);
    free(hC);
    return 0;
}
