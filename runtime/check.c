/* check.c - the built-in checkers and the user's checker kernel (see check.h). */
#include "check.h"
#include "../base/err.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "compare.h"

/* Relative L2: each thread folds its grid-stride share of (g - w)^2 and w^2 in double
 * and adds it with one atomic (sm_60+); NaNs are counted. */
static const char l2_source[] =
    "#include <cuda_fp16.h>\n"
    "#include <cuda_bf16.h>\n"
    "extern \"C\" __global__ void cutune_check_l2(const ELEM *got, const ELEM *want, unsigned long long n,\n"
    "                                             double limit, unsigned long long *out)\n"
    "{\n"
    "    double d2 = 0.0, w2 = 0.0;\n"
    "    unsigned long long nan = 0;\n"
    "    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;\n"
    "    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {\n"
    "        double g = TO_DOUBLE(got[i]), w = TO_DOUBLE(want[i]);\n"
    "        if (isnan(g) || isnan(w)) { nan++; continue; }\n"
    "        d2 += (g - w) * (g - w);\n"
    "        w2 += w * w;\n"
    "    }\n"
    "    if (d2 != 0.0) atomicAdd((double *)&out[0], d2);\n"
    "    if (w2 != 0.0) atomicAdd((double *)&out[1], w2);\n"
    "    if (nan) atomicAdd(&out[2], nan);\n"
    "}\n";

/* ULP: values mapped to integers that order like the numbers (sign-magnitude to a
 * biased two's complement), their distance taken; NaN is infinitely far. */
static const char ulp_source[] =
    "#include <cuda_fp16.h>\n"
    "#include <cuda_bf16.h>\n"
    "__device__ static unsigned long long ordered(unsigned long long bits)\n"
    "{\n"
    "    const unsigned long long sign = 1ull << (BITS - 1);\n"
    "    return (bits & sign) ? sign - (bits & ~sign) : sign + bits;\n"
    "}\n"
    "extern \"C\" __global__ void cutune_check_ulp(const UINT *got, const UINT *want, unsigned long long n,\n"
    "                                              double limit, unsigned long long *out)\n"
    "{\n"
    "    unsigned long long bad = 0, first = ~0ull, worst = 0;\n"
    "    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;\n"
    "    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {\n"
    "        unsigned long long g = got[i], w = want[i], dist;\n"
    "        if (IS_NAN(g) || IS_NAN(w)) dist = ~0ull;\n"
    "        else { unsigned long long a = ordered(g), b = ordered(w); dist = a > b ? a - b : b - a; }\n"
    "        if ((double)dist > limit) { bad++; if (i < first) first = i; }\n"
    "        if (dist > worst) worst = dist;\n"
    "    }\n"
    "    if (bad) { atomicAdd(&out[0], bad); atomicMin(&out[1], first); }\n"
    "    if (worst) atomicMax(&out[2], worst);\n"
    "}\n";

/* The unsigned type, width and NaN test of a floating-point type's bits. */
static void float_bits(data_type t, const char **uint, int *bits, const char **is_nan)
{
    switch (t) {
    case DT_HALF: *uint = "unsigned short", *bits = 16, *is_nan = "(((x) & 0x7fffull) > 0x7c00ull)"; break;
    case DT_BF16: *uint = "unsigned short", *bits = 16, *is_nan = "(((x) & 0x7fffull) > 0x7f80ull)"; break;
    case DT_DOUBLE:
        *uint = "unsigned long long", *bits = 64, *is_nan = "(((x) & 0x7fffffffffffffffull) > 0x7ff0000000000000ull)";
        break;
    default: *uint = "unsigned int", *bits = 32, *is_nan = "(((x) & 0x7fffffffull) > 0x7f800000ull)"; break;
    }
}

void chk_source(chk_mode mode, data_type type, char *buf, size_t size)
{
    if (mode == CHK_ULP) {
        const char *uint, *is_nan;
        int bits;
        float_bits(type, &uint, &bits, &is_nan);
        snprintf(buf, size, "#define UINT %s\n#define BITS %d\n#define IS_NAN(x) %s\n%s", uint, bits, is_nan,
                 ulp_source);
        return;
    }
    snprintf(buf, size, "#define ELEM %s\n#define TO_DOUBLE(x) %s\n%s", builtin_elem(type),
             type == DT_HALF   ? "((double)__half2float(x))"
             : type == DT_BF16 ? "((double)__bfloat162float(x))"
                               : "((double)(x))",
             l2_source);
}

char *chk_job(chk_mode mode, data_type type, const char *arch, compile_job *job)
{
    size_t size = sizeof ulp_source + sizeof l2_source + 256;
    char *source = malloc(size);
    if (!source)
        return NULL;
    chk_source(mode, type, source, size);
    const char *symbol = mode == CHK_ULP ? "cutune_check_ulp" : "cutune_check_l2";
    *job = builtin_job("cutune_check.cu", source, symbol, NULL, 0, arch);
    return source;
}

int chk_prepare(meas_gpu *g, chk_mode mode, data_type type, const char *arch, const char *cache_dir, chk_kernel *out)
{
    memset(out, 0, sizeof *out);
    out->mode = mode;
    out->type = type;
    compile_job job;
    char *source = chk_job(mode, type, arch, &job);
    int loaded = builtin_load(g, source, &job, cache_dir, &out->k);
    if (loaded < 0)
        return -1;
    if (meas_alloc(g, 3 * sizeof(unsigned long long), &out->result) < 0) {
        meas_unload(g, &out->k);
        return -1;
    }
    return 0;
}

int chk_load_user(meas_gpu *g, const void *cubin, const char *symbol, data_type type, chk_kernel *out)
{
    memset(out, 0, sizeof *out);
    out->mode = CHK_USER;
    out->type = type;
    meas_launch l = {{1, 1, 1}, {256, 1, 1}, 0, NULL};
    if (meas_load(g, cubin, symbol, &l, &out->k) < 0) {
        err_wrap(-1, "loading the checker kernel '%s'", symbol);
        return -1;
    }
    if (meas_alloc(g, 3 * sizeof(unsigned long long), &out->result) < 0) {
        meas_unload(g, &out->k);
        return -1;
    }
    return 0;
}

int chk_run(meas_gpu *g, chk_kernel *c, CUdeviceptr got, CUdeviceptr want, size_t n, double limit, chk_result *r)
{
    memset(r, 0, sizeof *r);
    /* The result words set on the kernel's own stream, so the kernel cannot start before
     * they are (a pageable upload may still be in flight when cuMemcpyHtoD returns). */
    drv *d = meas_driver(g);
    CUstream st = meas_stream(g);
    if (meas_check(g, d->cuMemsetD32Async(c->result, 0, 6, st), "the checker's result (cuMemsetD32Async)") < 0 ||
        (c->mode == CHK_ULP && meas_check(g, d->cuMemsetD32Async(c->result + 8, 0xFFFFFFFFu, 2, st),
                                          "the checker's result (cuMemsetD32Async)") < 0))
        return -1;
    unsigned long long count = n;
    size_t blocks = (n + 255) / 256;
    meas_launch l = {{1, 1, 1}, {256, 1, 1}, 0, NULL};
    if (c->mode == CHK_USER) {
        void *args[] = {&got, &want, &count, &c->result};
        l.grid[0] = (unsigned)(blocks > 0x7fffffff ? 0x7fffffff : blocks ? blocks : 1);
        l.args = args;
        if (meas_run(g, &c->k, &l) < 0)
            return -1;
    } else {
        void *args[] = {&got, &want, &count, &limit, &c->result};
        l.grid[0] = (unsigned)(blocks < 4096 ? (blocks ? blocks : 1) : 4096);
        l.args = args;
        if (meas_run(g, &c->k, &l) < 0)
            return -1;
    }
    unsigned long long res[3];
    if (meas_download(g, res, c->result, sizeof res) < 0)
        return -1;
    if (c->mode == CHK_USER) {
        memcpy(&r->score, &res[0], sizeof(double));
    } else if (c->mode == CHK_L2) {
        double d2, w2;
        memcpy(&d2, &res[0], sizeof d2);
        memcpy(&w2, &res[1], sizeof w2);
        r->nan = (size_t)res[2];
        r->score = r->nan ? NAN : w2 > 0 ? sqrt(d2) / sqrt(w2) : d2 > 0 ? INFINITY : 0.0;
    } else {
        r->count = (size_t)res[0];
        r->score = res[2] == ~0ull ? INFINITY : (double)res[2];
        if (r->count) {
            r->first = (size_t)res[1];
            if (cmp_read_pair(g, c->type, got, want, r->first, &r->got, &r->want) < 0)
                return -1;
        }
    }
    return 0;
}

unsigned long long chk_ulp_distance(data_type t, unsigned long long a, unsigned long long b)
{
    int bits = t == DT_DOUBLE ? 64 : t == DT_FLOAT ? 32 : 16;
    unsigned long long sign = 1ull << (bits - 1), mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    unsigned long long inf = t == DT_DOUBLE  ? 0x7ff0000000000000ull
                             : t == DT_FLOAT ? 0x7f800000ull
                             : t == DT_HALF  ? 0x7c00ull
                                             : 0x7f80ull;
    a &= mask;
    b &= mask;
    if ((a & ~sign) > inf || (b & ~sign) > inf)
        return ~0ull;
    unsigned long long x = (a & sign) ? sign - (a & ~sign) : sign + a;
    unsigned long long y = (b & sign) ? sign - (b & ~sign) : sign + b;
    return x > y ? x - y : y - x;
}

void chk_release(meas_gpu *g, chk_kernel *c)
{
    meas_unload(g, &c->k);
    meas_free(g, c->result);
    c->result = 0;
}
