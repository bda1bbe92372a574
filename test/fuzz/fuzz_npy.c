/* fuzz_npy.c - libFuzzer target for .npy input files (docs/fuzzing.md): the bytes of a
 * file a spec names in `file("x.npy")`, which nobody vouches for. The first byte picks
 * the arg's element type and whether its count is a constant the checker compares or one
 * that depends on a param (compared only in the GPU worker); the rest is the file. Each
 * input goes through the header parser (base/npy.c), its shape text and layout test, the
 * worker's element-type match (runtime/infile.c), and the checker of a spec that reads
 * the file (compiler/sema_data.c), whose diagnostics are rendered. What is asked: no
 * crash, no leak, no undefined behaviour (UBSan fatal), and what npy_parse accepts is
 * self-consistent: count the product of the shape, data_bytes count x itemsize, the
 * data offset inside what was parsed. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/npy.h"
#include "cutune.h"
#include "runtime/infile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The scratch folder, made once per process (each fuzzing worker has its own), holding
 * the kernel file the specs name. */
static const char *scratch(void)
{
    static char dir[64];
    if (!dir[0]) {
        const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(dir, sizeof dir, "%s/cutune-fuzzn-XXXXXX", base);
        if (!mkdtemp(dir))
            abort();
        char path[128];
        snprintf(path, sizeof path, "%s/k.cu", dir);
        FILE *f = fopen(path, "w");
        if (!f || fputs("extern \"C\" __global__ void k(const void *a, float *y) {}\n", f) < 0 || fclose(f) != 0)
            abort();
    }
    return dir;
}

/* What npy_parse promised of an info it accepted; aborts when a promise is broken. */
static void check_info(const npy_info *in, size_t len)
{
    uint64_t count = 1;
    if (in->ndim < 0 || in->ndim > NPY_MAX_DIMS || in->itemsize <= 0 || in->data_offset > len)
        abort();
    for (int i = 0; i < in->ndim; i++) {
        if (in->shape[i] && count > UINT64_MAX / in->shape[i])
            abort(); /* the product overflows: npy_parse should have refused it */
        count *= in->shape[i];
    }
    if (count != in->count || in->data_bytes > INT64_MAX || in->data_bytes != count * (uint64_t)in->itemsize)
        abort();
    char shape[64 * NPY_MAX_DIMS];
    npy_shape_text(in, shape, sizeof shape);
    if (!memchr(shape, 0, sizeof shape))
        abort();
    (void)npy_layout_is_c(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct {
        const char *spec;
        data_type t;
    } types[] = {
        {"float", DT_FLOAT}, {"double", DT_DOUBLE}, {"half", DT_HALF},     {"int8", DT_INT8},
        {"uint8", DT_UINT8}, {"int", DT_INT32},     {"uint64", DT_UINT64}, {"bf16", DT_BF16},
    };
    if (size < 1)
        return 0;
    int pick = data[0] % 8;
    int param_count = (data[0] >> 3) & 1;
    const uint8_t *file = data + 1;
    size_t len = size - 1;

    npy_info info;
    char why[256];
    if (npy_parse(file, len, &info) == 0) {
        check_info(&info, len);
        (void)infile_matches(types[pick].t, &info, why, sizeof why);
    } else if (!err_last() || !memchr(err_last()->message, 0, sizeof err_last()->message)) {
        abort(); /* a refusal always says why, in a terminated message */
    }

    char path[128];
    snprintf(path, sizeof path, "%s/x.npy", scratch());
    FILE *f = fopen(path, "wb");
    if (!f || (len && fwrite(file, 1, len, f) != len) || fclose(f) != 0)
        abort();
    char spec[512];
    int n = snprintf(spec, sizeof spec,
                     "kernel k from \"k.cu\" {\n"
                     "    param m in [1, 2, 4];\n"
                     "    block 64;\n"
                     "    grid 1;\n"
                     "    arg a : in %s[%s] = file(\"x.npy\");\n"
                     "    arg y : out float[64];\n"
                     "    verify y against config(m = 1);\n"
                     "}\n",
                     types[pick].spec, param_count ? "16 * m" : "64");
    cutune_load_options opts = CUTUNE_LOAD_OPTIONS_INIT;
    opts.base_dir = scratch();
    cutune_spec *sp = NULL;
    int rc = cutune_spec_load_string(&sp, "npy.tune", spec, (size_t)n, &opts);
    if (rc == CUTUNE_ENOMEM || rc == CUTUNE_EINVAL)
        abort(); /* the spec itself is fixed and valid; only the file varies */
    if (sp)
        (void)cutune_spec_diagnostics(sp, 0, 0);
    cutune_spec_free(sp);
    return 0;
}
