/* test_fill.c - inputs made on the GPU are the host's, bit for bit.
 *
 * Without a GPU (unit/fill): the fill kernel compiles for every element type, with the
 * option that keeps its arithmetic the host's. With one (`test_fill gpu`, ctest
 * gpu/fill; exit 77 without a GPU): every type and kind of contents is made on the
 * device and compared, byte for byte, with data_fill's on the host. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "last_err.h"
#include "runtime/compile.h"
#include "runtime/driver.h"
#include "runtime/fill.h"

static const data_type all_types[] = {DT_HALF,  DT_BF16,   DT_FLOAT, DT_DOUBLE, DT_INT8,  DT_UINT8,
                                      DT_INT16, DT_UINT16, DT_INT32, DT_UINT32, DT_INT64, DT_UINT64};
#define NTYPES (sizeof all_types / sizeof *all_types)

static void test_compiles_for_every_type(void **state)
{
    (void)state;
    int nopt;
    const char *const *opts = fill_options(&nopt);
    assert_int_equal(nopt, 1);
    assert_string_equal(opts[0], "--fmad=false");
    for (size_t i = 0; i < NTYPES; i++) {
        char source[8192];
        fill_source(all_types[i], source, sizeof source);
        compile_job job = {"cutune_fill.cu", source, "cutune_fill", opts, nopt, "sm_90", NULL, 0, NULL, 0};
        compile_output co;
        assert_int_equal(compile_run(&job, &co), 0);
        if (!co.ok)
            fail_msg("type %zu: %s", i, co.log);
        assert_non_null(co.lowered_name);
        assert_true(co.cubin_size > 0);
        compile_output_free(&co);
    }
}

/* The GPU half: returns the number of mismatching cases, 77 when there is no GPU. */
static int compare_on_gpu(void)
{
    drv *d;
    int count = 0;
    if (drv_open(&d) < 0 || drv_device_count(d, &count) < 0 || count < 1) {
        printf("SKIP: no GPU (%s)\n", last_err());
        return 77;
    }
    drv_device info;
    meas_gpu *g;
    if (drv_device_info(d, 0, &info) < 0 || meas_open(&g, d, 0, 0) < 0) {
        printf("FAIL: %s\n", last_err());
        return 1;
    }
    char arch[16];
    snprintf(arch, sizeof arch, "sm_%d", info.cc);
    const size_t n = 1000003; /* not a multiple of a block or of the grid's reach */
    const data_fill_spec specs[] = {
        {FILL_RANDOM, 1, 0.0, 1.0},   {FILL_RANDOM, 42, -1.0, 1.0}, {FILL_RANDOM, 7, -100.0, 100.0},
        {FILL_RAMP, 0, 0.5, 0.25},    {FILL_CONSTANT, 0, 3.0, 0.0}, {FILL_ZEROS, 0, 0.0, 0.0},
        {FILL_RANDOM, 3, 0.0, 255.0}, {FILL_NORMAL, 5, 0.0, 1.0},   {FILL_NORMAL, 9, 10.0, 0.25},
    };
    int bad = 0;
    for (size_t t = 0; t < NTYPES; t++) {
        data_type type = all_types[t];
        size_t bytes = n * data_size(type);
        unsigned char *host = malloc(bytes), *dev_copy = malloc(bytes);
        fill_kernel fk;
        CUdeviceptr buf;
        if (!host || !dev_copy || fill_prepare(g, type, arch, NULL, &fk) < 0 || meas_alloc(g, bytes, &buf) < 0) {
            printf("FAIL: type %zu: %s\n", t, last_err());
            return 1;
        }
        for (size_t s = 0; s < sizeof specs / sizeof *specs; s++) {
            data_fill(host, type, n, &specs[s]);
            memset(dev_copy, 0xA5, bytes);
            if (fill_run(g, &fk, buf, n, &specs[s]) < 0 || meas_download(g, dev_copy, buf, bytes) < 0) {
                printf("FAIL: type %zu, case %zu: %s\n", t, s, last_err());
                return 1;
            }
            if (memcmp(host, dev_copy, bytes) != 0) {
                size_t at = 0;
                while (memcmp(host + at * data_size(type), dev_copy + at * data_size(type), data_size(type)) == 0)
                    at++;
                printf("FAIL: type %zu, case %zu: element %zu differs: host %.17g, device %.17g\n", t, s, at,
                       data_get(host, type, at), data_get(dev_copy, type, at));
                bad++;
            }
        }
        meas_free(g, buf);
        fill_release(g, &fk);
        free(host);
        free(dev_copy);
    }
    meas_close(g);
    drv_close(d);
    printf("%s: %zu types x %zu cases of %zu elements, %d differ\n", bad ? "FAIL" : "ok", NTYPES,
           sizeof specs / sizeof *specs, n, bad);
    return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "gpu") == 0)
        return compare_on_gpu();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compiles_for_every_type),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
