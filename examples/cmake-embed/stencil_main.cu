// stencil_main.cu - an application that runs a stencil tuned at several problem sizes:
// for its own n it asks stencil_tuned.h for the entry tuned at that size or the nearest
// (STENCIL_lookup_size) and launches that entry's compiled variant.
//
//   stencil_app [N]              run the stencil on N elements (default 3,000,000), check it
//   stencil_app --print-config   for a few sizes, print the entry picked; touch no GPU
//
// stencil_tuned.h is made at build time by cutune_add_tuning (CMakeLists.txt). Exit 0:
// correct; 1: wrong result or CUDA error; 77: no GPU.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "stencil_tuned.h"
#include "stencil_kernel.cuh"

#define RADIUS 3 // stencil.tune's `let radius = 3`: the same for every variant

// Every compiled variant the header lists is instantiated here (one per value of the
// compile-time param `items`); launch() runs the one an entry names.
#define CASE(variant, items)                                                                  \
    case variant:                                                                             \
        stencil1d<RADIUS, items><<<grid, block>>>(x, y, w, n);                                \
        break;

static void launch(const STENCIL_config *c, const float *x, float *y, const float *w, int n)
{
    dim3 block(c->block_dim[0]);
    dim3 grid((unsigned)STENCIL_config_grid_dim_x(c, n)); // the entry's params, this n
    switch (c->variant) {
        STENCIL_FOR_EACH_VARIANT(CASE)
    }
}

static void print_entry(long long n, const STENCIL_config *c)
{
    std::printf("n = %lld: entry tuned at n = %lld (%s): threads %lld, items %lld, variant %d, grid %lld\n", n,
                c->size.n, c->tuned ? "tuned" : "NOT TUNED", c->params.threads, c->params.items, c->variant,
                STENCIL_config_grid_dim_x(c, n));
}

int main(int argc, char **argv)
{
    long long n = 3000000;
    if (argc > 1 && std::strcmp(argv[1], "--print-config") == 0) {
        const long long sizes[] = {1000, 1LL << 20, 3000000, 1LL << 24, 1LL << 28};
        for (long long s : sizes)
            print_entry(s, STENCIL_lookup_size(STENCIL_DEVICE_NAME, STENCIL_COMPUTE_CAPABILITY, s));
        return 0;
    }
    if (argc > 1)
        n = std::atoll(argv[1]);
    if (n <= 0 || n > (1LL << 28)) {
        std::fprintf(stderr, "usage: stencil_app [N (1 .. 2^28)] | --print-config\n");
        return 2;
    }
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        std::printf("no GPU (%s): nothing run\n", e != cudaSuccess ? cudaGetErrorString(e) : "no device");
        return 77;
    }
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess)
        return 1;
    const STENCIL_config *c = STENCIL_lookup_size(prop.name, prop.major * 10 + prop.minor, n);
    print_entry(n, c);
    std::vector<float> hx(n), hy(n), hw(2 * RADIUS + 1);
    for (long long i = 0; i < n; ++i)
        hx[i] = (float)(i % 1000) / 1000.0f - 0.5f;
    for (int k = 0; k <= 2 * RADIUS; ++k)
        hw[k] = 1.0f / (float)(k + 1);
    float *x = nullptr, *y = nullptr, *w = nullptr;
    if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess || cudaMalloc(&y, n * sizeof(float)) != cudaSuccess ||
        cudaMalloc(&w, hw.size() * sizeof(float)) != cudaSuccess)
        return 1;
    cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(w, hw.data(), hw.size() * sizeof(float), cudaMemcpyHostToDevice);
    launch(c, x, y, w, (int)n);
    if ((e = cudaMemcpy(hy.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost)) != cudaSuccess) {
        std::fprintf(stderr, "stencil_app: %s\n", cudaGetErrorString(e));
        return 1;
    }
    for (long long i = 0; i < n; ++i) {
        float want = 0.0f;
        for (int k = -RADIUS; k <= RADIUS; ++k)
            want += (i + k >= 0 && i + k < n ? hx[i + k] : 0.0f) * hw[k + RADIUS];
        if (std::fabs(hy[i] - want) > 1e-5f * (1.0f + std::fabs(want))) {
            std::printf("wrong at %lld: %g, want %g\n", i, hy[i], want);
            return 1;
        }
    }
    std::printf("correct: %lld elements\n", n);
    cudaFree(x);
    cudaFree(y);
    cudaFree(w);
    return 0;
}
