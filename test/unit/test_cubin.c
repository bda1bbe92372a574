/* test_cubin.c - cubin_code_digest on cubins NVRTC makes here (no GPU needed): a
 * register cap that does not bind leaves the digest alone although the bytes differ; a
 * cap that binds, or another macro, changes it; damaged or hostile bytes are refused,
 * never read past. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runtime/compile.h"
#include "runtime/cubin.h"

/* Eight rows a thread: NVRTC gives it about 24 registers on sm_90 (checked below, not
 * assumed), enough for a cap of 16 to bind and a cap of 64 not to. */
static const char src[] = "extern \"C\" __global__ void add(const float *a, const float *b, float *c, int n)\n"
                          "{\n"
                          "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                          "#pragma unroll\n"
                          "    for (int t = 0; t < ROWS; ++t)\n"
                          "        if (i + t * n < 8 * n) c[i + t * n] = a[i + t * n] + b[i + t * n];\n"
                          "}\n";

static compile_output build(const char *rows, const char *cap)
{
    const char *opts[2] = {rows, cap};
    compile_job job = {"add.cu", src, "add", opts, cap ? 2 : 1, "sm_90", NULL, 0, NULL, 0};
    compile_output out;
    assert_int_equal(compile_run(&job, &out), 0);
    assert_true(out.ok);
    assert_true(out.has_resources);
    return out;
}

static cubin_digest digest(const compile_output *o)
{
    cubin_digest d;
    assert_int_equal(cubin_code_digest(o->cubin, o->cubin_size, &d), 0);
    return d;
}

static bool same(cubin_digest a, cubin_digest b)
{
    return a.lo == b.lo && a.hi == b.hi;
}

static void caps_that_do_not_bind(void **state)
{
    (void)state;
    compile_output none = build("-DROWS=8", NULL), loose = build("-DROWS=8", "-maxrregcount=64");
    assert_true(none.res.registers < 64); /* the premise: 64 does not bind */
    assert_int_equal(none.res.registers, loose.res.registers);
    /* the bytes differ (the command line and the cap are recorded) ... */
    assert_false(none.cubin_size == loose.cubin_size && memcmp(none.cubin, loose.cubin, none.cubin_size) == 0);
    /* ... the code does not */
    assert_true(same(digest(&none), digest(&loose)));
    compile_output_free(&none);
    compile_output_free(&loose);
}

static void caps_that_bind_and_other_code(void **state)
{
    (void)state;
    compile_output none = build("-DROWS=8", NULL), tight = build("-DROWS=8", "-maxrregcount=16");
    compile_output four = build("-DROWS=4", NULL);
    assert_true(none.res.registers > 16);                  /* the premise: 16 binds */
    assert_true(tight.res.registers < none.res.registers); /* it bound (ptxas keeps a floor above 16) */
    assert_false(same(digest(&none), digest(&tight)));
    assert_false(same(digest(&none), digest(&four)));
    compile_output_free(&none);
    compile_output_free(&tight);
    compile_output_free(&four);
}

static void hostile_bytes(void **state)
{
    (void)state;
    compile_output o = build("-DROWS=8", NULL);
    cubin_digest d;
    /* every truncation: refused or digested, never read past (ASan watches) */
    for (size_t n = 0; n < o.cubin_size; n += n < 128 ? 1 : 61) {
        unsigned char *cut = malloc(n ? n : 1);
        assert_non_null(cut);
        memcpy(cut, o.cubin, n);
        (void)cubin_code_digest(cut, n, &d);
        free(cut);
    }
    assert_int_equal(cubin_code_digest(o.cubin, 40, &d), -1);
    assert_int_equal(cubin_code_digest((const unsigned char *)"not an ELF at all, just text ..........."
                                                              "..........................",
                                       66, &d),
                     -1);
    /* section table moved past the end */
    unsigned char *bad = malloc(o.cubin_size);
    assert_non_null(bad);
    memcpy(bad, o.cubin, o.cubin_size);
    memset(bad + 0x28, 0xff, 8);
    assert_int_equal(cubin_code_digest(bad, o.cubin_size, &d), -1);
    /* every byte of the header and section table flipped in turn: no crash */
    for (size_t i = 0; i < o.cubin_size; i += i < 64 ? 1 : 7) {
        memcpy(bad, o.cubin, o.cubin_size);
        bad[i] ^= 0xa5;
        (void)cubin_code_digest(bad, o.cubin_size, &d);
    }
    free(bad);
    compile_output_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(caps_that_do_not_bind),
        cmocka_unit_test(caps_that_bind_and_other_code),
        cmocka_unit_test(hostile_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
