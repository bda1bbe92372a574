/* fill.c - initial contents made on the device (see fill.h). The kernel's arithmetic
 * is runtime/data.c's, line for line: change one, change both (unit/fill compiles the
 * kernel, gpu/fill compares the two paths bit for bit on a GPU). */
#include "fill.h"
#include "../base/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"

static const char fill_kernel_source[] =
    "#include <cuda_fp16.h>\n"
    "#include <cuda_bf16.h>\n"
    "__device__ static unsigned long long mix(unsigned long long x)\n"
    "{\n"
    "    x += 0x9E3779B97F4A7C15ull;\n"
    "    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;\n"
    "    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;\n"
    "    return x ^ (x >> 31);\n"
    "}\n"
    "/* data.c's int_bits: through 64 bits, wrapping modulo 2^bits into the element type */\n"
    "__device__ static unsigned long long int_bits(double v)\n"
    "{\n"
    "    if (!(v == v)) return 0;\n"
    "    if (v >= 18446744073709551615.0) return ~0ull;\n"
    "    if (v >= 9223372036854775808.0) return (unsigned long long)v;\n"
    "    if (v <= -9223372036854775808.0) return 1ull << 63;\n"
    "    return (unsigned long long)(long long)v;\n"
    "}\n"
    "/* data.c's plain_log and plain_cos_2pi: + - * / alone, the host's bits */\n"
    "__device__ static double plain_log(double x)\n"
    "{\n"
    "    int e = 0;\n"
    "    double m = frexp(x, &e);\n"
    "    if (m < 0.70710678118654752440) {\n"
    "        m *= 2.0;\n"
    "        e--;\n"
    "    }\n"
    "    double s = (m - 1.0) / (m + 1.0), s2 = s * s, sum = 0.0;\n"
    "    for (int k = 12; k >= 0; k--)\n"
    "        sum = sum * s2 + 1.0 / (double)(2 * k + 1);\n"
    "    return 2.0 * s * sum + (double)e * 0.69314718055994530942;\n"
    "}\n"
    "__device__ static double plain_cos_2pi(double u)\n"
    "{\n"
    "    double w = 4.0 * u;\n"
    "    int q = (int)w;\n"
    "    double a = (w - (double)q) * 1.57079632679489661923, a2 = a * a, c = 1.0, sn = 1.0;\n"
    "    for (int n = 11; n >= 1; n--) {\n"
    "        c = 1.0 - a2 / (double)((2 * n - 1) * (2 * n)) * c;\n"
    "        sn = 1.0 - a2 / (double)((2 * n) * (2 * n + 1)) * sn;\n"
    "    }\n"
    "    sn *= a;\n"
    "    return q == 0 ? c : q == 1 ? -sn : q == 2 ? -c : sn;\n"
    "}\n"
    "/* kind: 1 constant a, 2 random in [a, b), 3 ramp a + i * b, 4 normal(mean a, stddev b) */\n"
    "extern \"C\" __global__ void cutune_fill(ELEM *out, unsigned long long n, int kind, unsigned long long seed,\n"
    "                                         double a, double b)\n"
    "{\n"
    "    unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;\n"
    "    unsigned long long s = mix(seed);\n"
    "    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {\n"
    "        double v;\n"
    "        if (kind == 1) {\n"
    "            v = a;\n"
    "        } else if (kind == 3) {\n"
    "            v = a + (double)i * b;\n"
    "        } else if (kind == 4) {\n"
    "            double u1 = 1.0 - (double)(mix(s ^ (2 * i)) >> 11) * 0x1.0p-53;\n"
    "            double u2 = (double)(mix(s ^ (2 * i + 1)) >> 11) * 0x1.0p-53;\n"
    "            v = a + b * (sqrt(-2.0 * plain_log(u1)) * plain_cos_2pi(u2));\n"
    "        } else {\n"
    "            double u = (double)(mix(s ^ i) >> 11) * 0x1.0p-53;\n"
    "#if IS_FLOAT\n"
    "            v = a + u * (b - a);\n"
    "#else\n"
    "            v = floor(ceil(a) + u * (floor(b) - ceil(a) + 1.0));\n"
    "            if (v > floor(b)) v = floor(b);\n"
    "            if (v < ceil(a)) v = ceil(a);\n"
    "#endif\n"
    "        }\n"
    "        out[i] = FROM_DOUBLE(v);\n"
    "    }\n"
    "}\n";

/* How data_set converts a double: through float for the 16-bit floats (round to
 * nearest even at each step), a plain C conversion otherwise. */
static const char *from_double(data_type t)
{
    switch (t) {
    case DT_HALF: return "__float2half_rn((float)(x))";
    case DT_BF16: return "__float2bfloat16_rn((float)(x))";
    case DT_FLOAT: return "((float)(x))";
    case DT_DOUBLE: return "(x)";
    default: return "((ELEM)int_bits(x))"; /* unsigned: modulo 2^bits; signed: the same bits */
    }
}

void fill_source(data_type type, char *buf, size_t size)
{
    snprintf(buf, size, "#define ELEM %s\n#define IS_FLOAT %d\n#define FROM_DOUBLE(x) %s\n%s", builtin_elem(type),
             data_is_float(type) ? 1 : 0, from_double(type), fill_kernel_source);
}

const char *const *fill_options(int *n)
{
    /* No fused multiply-adds: a + u * (b - a) must round twice, as on the host. */
    static const char *const options[] = {"--fmad=false", NULL};
    *n = 1;
    return options;
}

char *fill_job(data_type type, const char *arch, compile_job *job)
{
    size_t size = sizeof fill_kernel_source + 256;
    char *source = malloc(size);
    if (!source)
        return NULL;
    fill_source(type, source, size);
    int nopt;
    const char *const *opts = fill_options(&nopt);
    *job = builtin_job("cutune_fill.cu", source, "cutune_fill", opts, nopt, arch);
    return source;
}

int fill_prepare(meas_gpu *g, data_type type, const char *arch, const char *cache_dir, fill_kernel *out)
{
    memset(out, 0, sizeof *out);
    out->type = type;
    compile_job job;
    char *source = fill_job(type, arch, &job);
    int rc = builtin_load(g, source, &job, cache_dir, &out->k);
    return rc;
}

int fill_run(meas_gpu *g, const fill_kernel *fk, CUdeviceptr dst, size_t count, const data_fill_spec *f)
{
    if (count == 0)
        return 0;
    size_t bytes;
    if (!data_bytes(fk->type, count, &bytes)) {
        err_set(-1, "%zu elements of %zu bytes: more bytes than a buffer may have", count, data_size(fk->type));
        return -1;
    }
    if (f->kind == FILL_ZEROS)
        return meas_fill(g, dst, 0, bytes);
    unsigned long long n = count, seed = f->seed;
    int kind = f->kind == FILL_CONSTANT ? 1 : f->kind == FILL_RAMP ? 3 : f->kind == FILL_NORMAL ? 4 : 2;
    double a = f->a, b = f->b;
    void *args[] = {&dst, &n, &kind, &seed, &a, &b};
    size_t blocks = (count + 255) / 256;
    meas_launch l = {{(unsigned)(blocks < 8192 ? blocks : 8192), 1, 1}, {256, 1, 1}, 0, args};
    return meas_run(g, &fk->k, &l);
}

void fill_release(meas_gpu *g, fill_kernel *fk)
{
    meas_unload(g, &fk->k);
}
