/* test_sizes.c - problem sizes (the `size` statement) through the public API: the
 * sizes a spec holds, selecting one (the spec checked again: domains, counts and
 * geometry follow), --set picking sizes, and a multi-size results file read, written
 * and read again (test/emit/sizes.json: a hand-written fixture, not a measurement); the
 * analysis at every size (cutune_analyze_sizes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "cutune.h"

static cutune_spec *load(const char *text, const char *const *set, int nset, int expect_rc)
{
    cutune_load_options opts = {CUTUNE_LOAD_OPTIONS_VERSION, set, nset, CUTUNE_SOURCE_DIR "/examples", 1, NULL, NULL};
    cutune_spec *spec = NULL;
    int rc = cutune_spec_load_string(&spec, "sizes.tune", text, strlen(text), &opts);
    if (rc != expect_rc)
        fail_msg("load returned %d, expected %d:\n%s", rc, expect_rc, spec ? cutune_spec_diagnostics(spec, 0, 0) : "");
    assert_non_null(spec);
    return spec;
}

/* The valid configurations of the size the spec holds, and the first one's grid.x. */
static uint64_t count_and_grid(cutune_spec *spec, int64_t *grid)
{
    cutune_space_size size;
    assert_int_equal(cutune_space_count(&size, spec), CUTUNE_OK);
    cutune_configs *it;
    assert_int_equal(cutune_configs_new(&it, spec), CUTUNE_OK);
    const cutune_variant *v;
    assert_int_equal(cutune_configs_next(&v, it), 1);
    *grid = v->grid[0];
    cutune_configs_free(it);
    return size.valid;
}

static const char sized[] = "kernel k from \"../kernels/sum_matrix.cu\" {\n"
                            "  size n in [1024, 4096, 1 << 20];\n"
                            "  param t in 1 .. min(n // 512, 16);\n" /* the domain depends on the size */
                            "  block 128;\n"
                            "  grid cdiv(n, 128 * t);\n"
                            "}\n";

static void test_sizes_are_listed_and_selected(void **state)
{
    (void)state;
    cutune_spec *spec = load(sized, NULL, 0, CUTUNE_OK);
    assert_int_equal(cutune_spec_size_count(spec), 3);
    assert_int_equal(cutune_spec_size_var_count(spec), 1);
    assert_string_equal(cutune_spec_size_var(spec, 0), "n");
    assert_int_equal(cutune_spec_size_value(spec, 2, 0), 1 << 20);
    assert_int_equal(cutune_spec_size_selected(spec), 0);
    int64_t grid;
    /* n = 1024: t in 1 .. 2, first grid cdiv(1024, 128) = 8 */
    assert_int_equal(count_and_grid(spec, &grid), 2);
    assert_int_equal(grid, 8);
    assert_int_equal(cutune_spec_select_size(spec, 2), CUTUNE_OK);
    assert_int_equal(cutune_spec_size_selected(spec), 2);
    /* n = 2^20: t in 1 .. 16, first grid 2^20 / 128 = 8192 */
    assert_int_equal(count_and_grid(spec, &grid), 16);
    assert_int_equal(grid, 8192);
    assert_int_equal(cutune_spec_select_size(spec, 1), CUTUNE_OK);
    assert_int_equal(count_and_grid(spec, &grid), 8);
    assert_int_equal(cutune_spec_select_size(spec, 0), CUTUNE_OK);
    assert_int_equal(count_and_grid(spec, &grid), 2);
    assert_int_equal(cutune_spec_select_size(spec, 3), CUTUNE_EINVAL);
    assert_int_equal(cutune_spec_select_size(spec, -1), CUTUNE_EINVAL);
    /* no size statement: one size, no variables */
    cutune_spec *plain =
        load("kernel k from \"../kernels/sum_matrix.cu\" { let n = 4; block 1; grid n; }", NULL, 0, CUTUNE_OK);
    assert_int_equal(cutune_spec_size_count(plain), 1);
    assert_int_equal(cutune_spec_size_var_count(plain), 0);
    assert_int_equal(cutune_spec_select_size(plain, 0), CUTUNE_OK);
    cutune_spec_free(plain);
    cutune_spec_free(spec);
}

static void test_an_error_at_one_size_only(void **state)
{
    (void)state;
    /* n = 100: the range 1 .. 0 is empty, at that size only: loading checks every size */
    cutune_spec *spec = load("kernel k from \"../kernels/sum_matrix.cu\" {\n"
                             "  size n in [1024, 100];\n"
                             "  param t in 1 .. n // 512;\n"
                             "  block 1; grid n // t;\n}\n",
                             NULL, 0, CUTUNE_ESPEC);
    assert_int_equal(cutune_spec_ok(spec), 0);
    const char *d = cutune_spec_diagnostics(spec, 0, 0);
    assert_non_null(strstr(d, "at the size n=100"));
    assert_null(strstr(d, "at the size n=1024"));
    cutune_spec_free(spec);
    /* --set to the size that checks: loads */
    const char *good[] = {"n=1024"};
    spec = load("kernel k from \"../kernels/sum_matrix.cu\" {\n"
                "  size n in [1024, 100];\n"
                "  param t in 1 .. n // 512;\n"
                "  block 1; grid n // t;\n}\n",
                good, 1, CUTUNE_OK);
    cutune_spec_free(spec);
}

static void test_set_picks_sizes(void **state)
{
    (void)state;
    const char *one[] = {"n=4096"};
    cutune_spec *spec = load(sized, one, 1, CUTUNE_OK);
    assert_int_equal(cutune_spec_size_count(spec), 1);
    assert_int_equal(cutune_spec_size_value(spec, 0, 0), 4096);
    cutune_spec_free(spec);
    const char *unlisted[] = {"n=2048"}; /* any positive value: a size that is not listed */
    spec = load(sized, unlisted, 1, CUTUNE_OK);
    assert_int_equal(cutune_spec_size_value(spec, 0, 0), 2048);
    cutune_spec_free(spec);
    static const char two[] = "kernel k from \"../kernels/sum_matrix.cu\" {\n"
                              "  size (nx, ny) in [(1024, 1024), (4096, 1024), (4096, 8192)];\n"
                              "  block 1; grid (nx, ny);\n}\n";
    const char *some[] = {"nx=4096"}; /* keeps the sizes that agree */
    spec = load(two, some, 1, CUTUNE_OK);
    assert_int_equal(cutune_spec_size_count(spec), 2);
    assert_int_equal(cutune_spec_size_value(spec, 0, 1), 1024);
    assert_int_equal(cutune_spec_size_value(spec, 1, 1), 8192);
    cutune_spec_free(spec);
    const char *none[] = {"ny=3"};
    spec = load(two, none, 1, CUTUNE_ESPEC);
    cutune_spec_free(spec);
    const char *bad[] = {"nx=1.5"};
    spec = load(two, bad, 1, CUTUNE_ESPEC);
    cutune_spec_free(spec);
}

/* The winner of size k of r: its params. */
static void expect_winner(const cutune_tune_result *r, int k, int64_t n, const char *threads, const char *items)
{
    const cutune_tune_result *one = cutune_tune_size(r, k);
    assert_non_null(one);
    assert_int_equal(cutune_tune_size_var_count(one), 1);
    assert_string_equal(cutune_tune_size_var(one, 0), "n");
    assert_int_equal(cutune_tune_size_value(one, 0), n);
    const cutune_measurement *b = cutune_tune_best(one);
    assert_non_null(b);
    assert_string_equal(cutune_measurement_variant(b)->values[0], threads);
    assert_string_equal(cutune_measurement_variant(b)->values[1], items);
}

static void check_fixture(const cutune_tune_result *r)
{
    assert_int_equal(cutune_tune_size_count(r), 3);
    assert_int_equal(cutune_tune_count(r), 18);
    assert_null(cutune_tune_best(r)); /* no winner of its own: one per size */
    assert_int_equal(cutune_tune_size_of(r, 0), 0);
    assert_int_equal(cutune_tune_size_of(r, 7), 1);
    assert_int_equal(cutune_tune_size_of(r, 17), 2);
    assert_null(cutune_tune_size(r, 3));
    /* the fixture's winners (written by hand in test/emit/sizes.json) */
    expect_winner(r, 0, 1 << 20, "128", "1");
    expect_winner(r, 1, 1 << 22, "256", "2");
    expect_winner(r, 2, 1 << 24, "256", "4");
}

static void test_results_over_sizes_round_trip(void **state)
{
    (void)state;
    cutune_tune_result *r = NULL;
    assert_int_equal(cutune_results_load(&r, CUTUNE_SOURCE_DIR "/test/emit/sizes.json"), CUTUNE_OK);
    check_fixture(r);
    char path[] = "/tmp/cutune-sizes-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    assert_int_equal(cutune_tune_write_results(r, path), CUTUNE_OK);
    cutune_tune_result *again = NULL;
    assert_int_equal(cutune_results_load(&again, path), CUTUNE_OK);
    check_fixture(again);
    json_t *root = json_load_file(path, 0, NULL);
    assert_non_null(root);
    assert_int_equal(json_integer_value(json_object_get(root, "version")), 2);
    json_t *first = json_array_get(json_object_get(json_array_get(json_object_get(root, "sizes"), 1), "results"), 0);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(first, "size"), "n")), 1 << 22);
    json_decref(root);
    unlink(path);
    cutune_tune_result_free(again);
    cutune_tune_result_free(r);
}

/* Several kernel blocks in one file: each its own model, its own sizes. */
static void test_kernel_blocks(void **state)
{
    (void)state;
    cutune_spec *spec = load("kernel a from \"../kernels/sum_matrix.cu\" {\n"
                             "  param bx in [32, 64];\n  block bx; grid 4;\n}\n"
                             "kernel b from \"../kernels/sum_matrix.cu\" {\n"
                             "  size n in [256, 1024];\n  param t in [1, 2, 4];\n  block t; grid n // t;\n}\n",
                             NULL, 0, CUTUNE_OK);
    assert_int_equal(cutune_spec_kernel_count(spec), 2);
    assert_int_equal(cutune_spec_kernel_selected(spec), 0);
    assert_string_equal(cutune_spec_kernel(spec), "a");
    assert_int_equal(cutune_spec_size_var_count(spec), 0);
    int64_t grid;
    assert_int_equal(count_and_grid(spec, &grid), 2);
    assert_int_equal(grid, 4);
    assert_int_equal(cutune_spec_select_kernel(spec, 1), CUTUNE_OK);
    assert_string_equal(cutune_spec_kernel(spec), "b");
    assert_int_equal(cutune_spec_size_count(spec), 2);
    assert_int_equal(count_and_grid(spec, &grid), 3);
    assert_int_equal(grid, 256);
    assert_int_equal(cutune_spec_select_size(spec, 1), CUTUNE_OK);
    assert_int_equal(count_and_grid(spec, &grid), 3);
    assert_int_equal(grid, 1024);
    /* back to a, then b again: b still holds the size it held */
    assert_int_equal(cutune_spec_select_kernel(spec, 0), CUTUNE_OK);
    assert_string_equal(cutune_spec_kernel(spec), "a");
    assert_int_equal(cutune_spec_select_kernel(spec, 1), CUTUNE_OK);
    assert_int_equal(cutune_spec_size_selected(spec), 1);
    assert_int_equal(cutune_spec_select_kernel(spec, 2), CUTUNE_EINVAL);
    cutune_spec_free(spec);
    /* an error in the second block fails the load */
    spec = load("kernel a from \"../kernels/sum_matrix.cu\" { block 1; grid 1; }\n"
                "kernel b from \"../kernels/sum_matrix.cu\" { block q; grid 1; }\n",
                NULL, 0, CUTUNE_ESPEC);
    assert_non_null(strstr(cutune_spec_diagnostics(spec, 0, 0), "unknown name 'q'"));
    cutune_spec_free(spec);
}

/* The device attributes with sizes and kernel blocks: a new device checks every block
 * again, at the size each holds, and every size later selected reads the new values;
 * a device whose values fail leaves the spec as it was (values and models). */
static void test_device_across_sizes_and_blocks(void **state)
{
    (void)state;
    cutune_spec *spec = load("kernel a from \"../kernels/sum_matrix.cu\" {\n"
                             "  size n in [256, 1024];\n  block 32; grid sm_count + n;\n}\n"
                             "kernel b from \"../kernels/sum_matrix.cu\" {\n"
                             "  param w in [1, 2];\n  require sm_count >= 4;\n  block 32; grid sm_count * w;\n}\n",
                             NULL, 0, CUTUNE_OK);
    int64_t grid;
    assert_int_equal(cutune_spec_select_size(spec, 1), CUTUNE_OK); /* a holds n = 1024 */
    count_and_grid(spec, &grid);
    assert_int_equal(grid, 132 + 1024); /* sm_90's table: 132 SMs */
    cutune_device dev;
    memset(&dev, 0, sizeof dev);
    dev.name = "Made-up GPU";
    dev.cc = 86;
    dev.sm_count = 10;
    dev.warp_size = 32;
    assert_int_equal(cutune_spec_set_device(spec, &dev), CUTUNE_OK);
    assert_int_equal(cutune_spec_size_selected(spec), 1); /* still the size it held */
    count_and_grid(spec, &grid);
    assert_int_equal(grid, 10 + 1024);
    assert_int_equal(cutune_spec_select_size(spec, 0), CUTUNE_OK);
    count_and_grid(spec, &grid);
    assert_int_equal(grid, 10 + 256);
    assert_int_equal(cutune_spec_select_kernel(spec, 1), CUTUNE_OK);
    count_and_grid(spec, &grid);
    assert_int_equal(grid, 10); /* block b: w = 1 */
    /* 2 SMs: b's constraint fails; nothing changes, in either block */
    dev.sm_count = 2;
    assert_int_equal(cutune_spec_set_device(spec, &dev), CUTUNE_ESPEC);
    count_and_grid(spec, &grid);
    assert_int_equal(grid, 10);
    assert_int_equal(cutune_spec_select_kernel(spec, 0), CUTUNE_OK);
    assert_int_equal(cutune_spec_select_size(spec, 1), CUTUNE_OK);
    count_and_grid(spec, &grid);
    assert_int_equal(grid, 10 + 1024);
    cutune_spec_free(spec);
}

/* cutune_analyze_sizes' callback: each call recorded, before a size as -1 - k, after it
 * as k with its summary's variant count; non-zero (stop) at call `stop_at`. */
typedef struct size_calls {
    int n, stop_at, each;
    int k[8];
    uint64_t variants[8];
} size_calls;

static int record_size(void *user, int k, const cutune_analyze_summary *sum)
{
    size_calls *c = user;
    if (c->n < 8) {
        c->k[c->n] = sum ? k : -1 - k;
        c->variants[c->n] = sum ? sum->variants : 0;
    }
    return ++c->n == c->stop_at;
}

static int count_variant(void *user, const cutune_analysis *a)
{
    (void)a;
    ((size_calls *)user)->each++;
    return 0;
}

/* The analysis at every problem size (what `cutune SPEC` does without a GPU): each
 * size's analysis between its two calls, the sizes' spaces (2, 8 and 16 configurations)
 * summed, the first size selected again; a callback that stops it stops it there. Needs
 * NVRTC (one binary: t is no macro). */
static void test_analysis_over_sizes(void **state)
{
    (void)state;
    cutune_spec *spec = load(sized, NULL, 0, CUTUNE_OK);
    cutune_analyze_options opts = CUTUNE_ANALYZE_OPTIONS_INIT;
    opts.arch = "sm_90";
    opts.jobs = 1;
    opts.no_cache = 1;
    cutune_analyze_summary total;
    size_calls calls = {0};
    int rc = cutune_analyze_sizes(&total, spec, &opts, record_size, count_variant, &calls);
    if (rc == CUTUNE_ECOMPILER) { /* no NVRTC here */
        cutune_spec_free(spec);
        skip();
    }
    assert_int_equal(rc, CUTUNE_OK);
    assert_int_equal(calls.n, 6);
    const int order[] = {-1, 0, -2, 1, -3, 2};
    const uint64_t counts[] = {0, 2, 0, 8, 0, 16};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(calls.k[i], order[i]);
        assert_int_equal(calls.variants[i], counts[i]);
    }
    assert_int_equal(total.variants, 26);
    assert_int_equal(calls.each, 26);
    assert_string_equal(total.arch, "sm_90");
    assert_int_equal(cutune_spec_size_selected(spec), 0);

    calls = (size_calls){.stop_at = 2}; /* stopped after the first size's summary */
    assert_int_equal(cutune_analyze_sizes(&total, spec, &opts, record_size, count_variant, &calls), CUTUNE_ESTOPPED);
    assert_int_equal(calls.n, 2);
    assert_int_equal(total.variants, 2);
    calls = (size_calls){.stop_at = 3}; /* stopped before the second size's analysis */
    assert_int_equal(cutune_analyze_sizes(&total, spec, &opts, record_size, count_variant, &calls), CUTUNE_ESTOPPED);
    assert_int_equal(calls.each, 2);
    assert_int_equal(cutune_spec_size_selected(spec), 0);
    assert_int_equal(cutune_analyze_sizes(NULL, spec, &opts, NULL, count_variant, NULL), CUTUNE_EINVAL);
    assert_int_equal(cutune_analyze_sizes(&total, spec, &opts, NULL, NULL, NULL), CUTUNE_EINVAL);
    cutune_spec_free(spec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes_are_listed_and_selected),
        cmocka_unit_test(test_an_error_at_one_size_only),
        cmocka_unit_test(test_set_picks_sizes),
        cmocka_unit_test(test_results_over_sizes_round_trip),
        cmocka_unit_test(test_kernel_blocks),
        cmocka_unit_test(test_device_across_sizes_and_blocks),
        cmocka_unit_test(test_analysis_over_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
