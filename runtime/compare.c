/* compare.c - on-device output comparison (see compare.h). */
#include "compare.h"
#include "../base/err.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"

/* The kernel, for element type ELEM read as double by TO_DOUBLE. Each thread folds its
 * grid-stride share, then one atomic per thread publishes it. */
static const char compare_source[] =
    "#include <cuda_fp16.h>\n"
    "#include <cuda_bf16.h>\n"
    "extern \"C\" __global__ void cutune_compare(const ELEM *got, const ELEM *want, unsigned long long n,\n"
    "                                            double atol, double rtol, unsigned long long *out)\n"
    "{\n"
    "    unsigned long long bad = 0, first = ~0ull;\n"
    "    double worst = 0.0;\n"
    "    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;\n"
    "    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {\n"
    "        double g = TO_DOUBLE(got[i]), w = TO_DOUBLE(want[i]);\n"
    "        double d = fabs(g - w);\n"
    "        bool ok = !isnan(g) && !isnan(w) && (g == w || d <= atol + rtol * fabs(w));\n"
    "        if (!ok) {\n"
    "            bad++;\n"
    "            if (i < first) first = i;\n"
    "        }\n"
    "        if (d > worst) worst = d;\n"
    "        else if (isnan(d)) worst = __longlong_as_double(0x7ff8000000000000ll);\n"
    "    }\n"
    "    if (bad) {\n"
    "        atomicAdd(&out[0], bad);\n"
    "        atomicMin(&out[1], first);\n"
    "    }\n"
    "    /* |error| >= 0, so its bits order like the numbers (a NaN's bits are the largest) */\n"
    "    if (worst != 0.0 || isnan(worst))\n"
    "        atomicMax(&out[2], (unsigned long long)__double_as_longlong(worst));\n"
    "}\n";

void cmp_source(data_type type, char *buf, size_t size)
{
    /* The element type and its conversion go in front of the kernel's text. */
    snprintf(buf, size, "#define ELEM %s\n#define TO_DOUBLE(x) %s\n%s", builtin_elem(type),
             type == DT_HALF   ? "((double)__half2float(x))"
             : type == DT_BF16 ? "((double)__bfloat162float(x))"
                               : "((double)(x))",
             compare_source);
}

char *cmp_job(data_type type, const char *arch, compile_job *job)
{
    size_t size = sizeof compare_source + 256;
    char *source = malloc(size);
    if (!source)
        return NULL;
    cmp_source(type, source, size);
    *job = builtin_job("cutune_compare.cu", source, "cutune_compare", NULL, 0, arch);
    return source;
}

int cmp_prepare(meas_gpu *g, data_type type, const char *arch, const char *cache_dir, cmp_kernel *out)
{
    memset(out, 0, sizeof *out);
    out->type = type;
    compile_job job;
    char *source = cmp_job(type, arch, &job);
    int loaded = builtin_load(g, source, &job, cache_dir, &out->k);
    if (loaded < 0)
        return -1;
    if (meas_alloc(g, 3 * sizeof(unsigned long long), &out->result) < 0) {
        meas_unload(g, &out->k);
        return -1;
    }
    return 0;
}

int cmp_run(meas_gpu *g, cmp_kernel *c, CUdeviceptr got, CUdeviceptr want, size_t n, double atol, double rtol,
            data_mismatch *m)
{
    memset(m, 0, sizeof *m);
    unsigned long long init[3] = {0, ~0ull, 0};
    if (meas_upload(g, c->result, init, sizeof init) < 0)
        return -1;
    unsigned long long count = n;
    void *args[] = {&got, &want, &count, &atol, &rtol, &c->result};
    size_t blocks = (n + 255) / 256;
    meas_launch l = {{(unsigned)(blocks < 4096 ? (blocks ? blocks : 1) : 4096), 1, 1}, {256, 1, 1}, 0, args};
    if (meas_run(g, &c->k, &l) < 0)
        return -1;
    unsigned long long res[3];
    if (meas_download(g, res, c->result, sizeof res) < 0)
        return -1;
    m->count = (size_t)res[0];
    memcpy(&m->max_abs_error, &res[2], sizeof(double));
    if (m->count) {
        m->first = (size_t)res[1];
        return cmp_read_pair(g, c->type, got, want, m->first, &m->got, &m->want);
    }
    return 0;
}

int cmp_read_pair(meas_gpu *g, data_type type, CUdeviceptr got, CUdeviceptr want, size_t i, double *got_v,
                  double *want_v)
{
    size_t sz = data_size(type);
    unsigned char a[8], b[8];
    if (meas_download(g, a, got + i * sz, sz) < 0 || meas_download(g, b, want + i * sz, sz) < 0)
        return -1;
    *got_v = data_get(a, type, 0);
    *want_v = data_get(b, type, 0);
    return 0;
}

void cmp_release(meas_gpu *g, cmp_kernel *c)
{
    meas_unload(g, &c->k);
    meas_free(g, c->result);
    c->result = 0;
}
