// main.cu - an application that launches saxpy with the configuration cutune chose.
//
//   saxpy_app [N]              run y = 2x + y on N elements (default 10,000,019), check it
//   saxpy_app --print-config   print the configuration compiled in, touch no GPU
//
// saxpy_tuned.h is made at build time by cutune_add_tuning (CMakeLists.txt): tuned on this
// machine's GPU, else from stored results, else the spec's default configuration
// (SAXPY_TUNED is then 0). Exit 0: correct; 1: wrong result or CUDA error; 77: no GPU.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "saxpy_tuned.h"

// The header's macros reach the kernel source the way cutune's variants got them:
// ITEMS as a -D macro, the register cap as __maxnreg__ (cutune passed --maxrregcount).
#define ITEMS SAXPY_ITEMS
#if SAXPY_MAXRREGCOUNT > 0
#define SAXPY_BOUNDS __maxnreg__(SAXPY_MAXRREGCOUNT)
#endif
#include "saxpy_kernel.cuh"

static void print_config(long long n)
{
    std::printf("saxpy configuration: %s\n", SAXPY_TUNED ? "tuned" : "NOT TUNED (the spec's default)");
    std::printf("  threads %d, ITEMS %d, maxrregcount %d\n", (int)SAXPY_THREADS, (int)SAXPY_ITEMS,
                (int)SAXPY_MAXRREGCOUNT);
    std::printf("  block %d, grid %lld for n = %lld (grid %d at the tuned size)\n", (int)SAXPY_BLOCK_DIM_X,
                SAXPY_grid_dim_x(n), n, (int)SAXPY_GRID_DIM_X);
}

static int check_cuda(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        std::fprintf(stderr, "saxpy_app: %s: %s\n", what, cudaGetErrorString(e));
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    long long n = 10000019; // not the size tuned at: the grid follows from SAXPY_grid_dim_x
    if (argc > 1 && std::strcmp(argv[1], "--print-config") == 0) {
        print_config(n);
        return 0;
    }
    if (argc > 1)
        n = std::atoll(argv[1]);
    if (n <= 0 || n > (1LL << 30)) {
        std::fprintf(stderr, "usage: saxpy_app [N (1 .. 2^30)] | --print-config\n");
        return 2;
    }
    print_config(n);
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        std::printf("no GPU (%s): nothing run\n", e != cudaSuccess ? cudaGetErrorString(e) : "no device");
        return 77;
    }
    cudaDeviceProp prop;
    if (check_cuda(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties"))
        return 1;

    const float a = 2.0f;
    std::vector<float> x(n), y(n), want(n);
    for (long long i = 0; i < n; ++i) {
        x[i] = (float)(i % 1000) / 1000.0f - 0.5f;
        y[i] = (float)(i % 7);
        want[i] = a * x[i] + y[i];
    }
    float *dx = nullptr, *dy = nullptr;
    size_t bytes = (size_t)n * sizeof(float);
    if (check_cuda(cudaMalloc(&dx, bytes), "cudaMalloc") || check_cuda(cudaMalloc(&dy, bytes), "cudaMalloc") ||
        check_cuda(cudaMemcpy(dx, x.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy") ||
        check_cuda(cudaMemcpy(dy, y.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy"))
        return 1;
    saxpy<<<(unsigned)SAXPY_grid_dim_x(n), SAXPY_BLOCK_DIM_X>>>((int)n, a, dx, dy);
    if (check_cuda(cudaGetLastError(), "launch") || check_cuda(cudaDeviceSynchronize(), "saxpy") ||
        check_cuda(cudaMemcpy(y.data(), dy, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy"))
        return 1;
    cudaFree(dx);
    cudaFree(dy);
    long long bad = 0, first_bad = -1;
    for (long long i = 0; i < n; ++i) {
        float d = y[i] - want[i];
        if (d < 0)
            d = -d;
        if (d > 1e-6f * (want[i] < 0 ? -want[i] : want[i]) + 1e-6f) { // fused or not, within rounding
            if (bad++ == 0)
                first_bad = i;
        }
    }
    if (bad) {
        std::printf("WRONG on %s: %lld of %lld elements differ (first: y[%lld] = %g, want %g)\n", prop.name, bad, n,
                    first_bad, (double)y[first_bad], (double)want[first_bad]);
        return 1;
    }
    std::printf("correct on %s: %lld elements\n", prop.name, n);
    return 0;
}
