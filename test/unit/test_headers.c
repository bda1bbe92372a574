/* test_headers.c - the headers of one file (cutune_emit_headers, cutune_header_sections:
 * api/cutune_headers.c), the policy `cutune emit header` hands to the library: results
 * grouped by kernel in the order first given, a section each (what cutune_emit_header
 * makes of that kernel's results alone), a blank line between, names claimed across
 * sections, one prefix refused for several; without results, a section of defaults per
 * kernel block. Each expected text is cutune_emit_header's of the section's own
 * arguments. Results from test/emit/, one changed in memory for the clash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cutune.h"
#include "results/result.h"
#include "emit_results.h"

static cutune_spec *spec_at(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", CUTUNE_SOURCE_DIR, rel);
    cutune_spec *spec = NULL;
    if (cutune_spec_load_file(&spec, path, NULL) != CUTUNE_OK)
        fail_msg("%s: %s", rel, cutune_last_error());
    return spec;
}

/* one: cutune_emit_header of results[0 .. n) (or spec's defaults), no options. */
static char *one(cutune_spec *spec, const cutune_tune_result *const *results, int n)
{
    char *text = NULL;
    if (cutune_emit_header(&text, spec, results, n, NULL) != CUTUNE_OK)
        fail_msg("cutune_emit_header: %s", cutune_last_error());
    return text;
}

/* joined: a, a blank line, b (malloc'd). */
static char *joined(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *t = malloc(n);
    assert_non_null(t);
    snprintf(t, n, "%s\n%s", a, b);
    return t;
}

/* Three results of two kernels, given sum_matrix, stencil1d, sum_matrix: two sections,
 * sum_matrix's first holding both its GPUs; given the other way round, stencil1d's first. */
static void test_a_section_per_kernel(void **state)
{
    (void)state;
    cutune_tune_result *h100 = load("h100.json"), *sizes = load("sizes.json"), *a100 = load("a100.json");
    const cutune_tune_result *all[3] = {h100, sizes, a100}, *sm[2] = {h100, a100}, *st[1] = {sizes};
    int count = 0;
    assert_int_equal(cutune_header_sections(&count, NULL, all, 3, 0), CUTUNE_OK);
    assert_int_equal(count, 2);
    char *text = NULL, *a = one(NULL, sm, 2), *b = one(NULL, st, 1);
    assert_int_equal(cutune_emit_headers(&text, NULL, all, 3, NULL), CUTUNE_OK);
    char *want = joined(a, b);
    assert_string_equal(text, want);
    cutune_free(text);
    free(want);
    const cutune_tune_result *back[2] = {sizes, h100}, *h[1] = {h100};
    char *c = one(NULL, h, 1);
    assert_int_equal(cutune_emit_headers(&text, NULL, back, 2, NULL), CUTUNE_OK);
    want = joined(b, c);
    assert_string_equal(text, want);
    cutune_free(text);
    free(want);
    cutune_free(a);
    cutune_free(b);
    cutune_free(c);
    cutune_tune_result_free(h100);
    cutune_tune_result_free(sizes);
    cutune_tune_result_free(a100);
}

/* One prefix names one section, never two. */
static void test_one_prefix(void **state)
{
    (void)state;
    cutune_tune_result *h100 = load("h100.json"), *sizes = load("sizes.json"), *a100 = load("a100.json");
    const cutune_tune_result *two[2] = {h100, sizes}, *sm[2] = {h100, a100};
    cutune_headers_options opts = CUTUNE_HEADERS_OPTIONS_INIT;
    opts.prefix = "X";
    char *text = (char *)"untouched";
    assert_int_equal(cutune_emit_headers(&text, NULL, two, 2, &opts), CUTUNE_EINVAL);
    assert_null(text);
    assert_string_equal(cutune_last_error(), "results of 2 kernels: one --prefix cannot name them all (each "
                                             "kernel's prefix comes from its spec)");
    /* Asked first, the same refusal; none for one kernel or no prefix. */
    assert_int_equal(cutune_header_prefix_check(NULL, two, 2, 0, "X"), CUTUNE_EINVAL);
    assert_non_null(strstr(cutune_last_error(), "results of 2 kernels: one --prefix"));
    assert_int_equal(cutune_header_prefix_check(NULL, sm, 2, 0, "X"), CUTUNE_OK);
    assert_int_equal(cutune_header_prefix_check(NULL, two, 2, 0, NULL), CUTUNE_OK);
    assert_int_equal(cutune_header_prefix_check(NULL, NULL, 0, 0, "X"), CUTUNE_EINVAL);
    assert_int_equal(cutune_emit_headers(&text, NULL, sm, 2, &opts), CUTUNE_OK);
    assert_non_null(strstr(text, "#define X_TUNED 1\n"));
    cutune_free(text);
    cutune_tune_result_free(h100);
    cutune_tune_result_free(sizes);
    cutune_tune_result_free(a100);
}

/* No results: every block's defaults (examples/library.tune: sum_matrix, stencil1d), or
 * the selected block's alone; one prefix for both blocks is refused. */
static void test_defaults_per_block(void **state)
{
    (void)state;
    cutune_spec *spec = spec_at("examples/library.tune");
    int count = 0;
    assert_int_equal(cutune_header_sections(&count, spec, NULL, 0, 0), CUTUNE_OK);
    assert_int_equal(count, 2);
    assert_int_equal(cutune_spec_select_kernel(spec, 0), CUTUNE_OK);
    char *a = one(spec, NULL, 0);
    assert_int_equal(cutune_spec_select_kernel(spec, 1), CUTUNE_OK);
    char *b = one(spec, NULL, 0), *text = NULL;
    assert_int_equal(cutune_spec_select_kernel(spec, 0), CUTUNE_OK);
    assert_int_equal(cutune_emit_headers(&text, spec, NULL, 0, NULL), CUTUNE_OK);
    char *want = joined(a, b);
    assert_string_equal(text, want);
    cutune_free(text);
    free(want);
    cutune_headers_options opts = CUTUNE_HEADERS_OPTIONS_INIT;
    opts.selected_only = 1;
    assert_int_equal(cutune_header_sections(&count, spec, NULL, 0, 1), CUTUNE_OK);
    assert_int_equal(count, 1);
    assert_int_equal(cutune_spec_select_kernel(spec, 1), CUTUNE_OK);
    assert_int_equal(cutune_emit_headers(&text, spec, NULL, 0, &opts), CUTUNE_OK);
    assert_string_equal(text, b);
    cutune_free(text);
    opts.selected_only = 0;
    opts.prefix = "X";
    assert_int_equal(cutune_emit_headers(&text, spec, NULL, 0, &opts), CUTUNE_EINVAL);
    assert_string_equal(cutune_last_error(), "the spec has 2 kernel blocks: one --prefix cannot name them all "
                                             "(pick one with --kernel NAME)");
    assert_int_equal(cutune_header_prefix_check(spec, NULL, 0, 0, "X"), CUTUNE_EINVAL);
    assert_int_equal(cutune_header_prefix_check(spec, NULL, 0, 1, "X"), CUTUNE_OK);
    cutune_free(a);
    cutune_free(b);
    cutune_spec_free(spec);
}

typedef struct calls {
    int n, sizes[4], stop_at;
} calls;

static int spec_of(void *user, cutune_spec **spec, const cutune_tune_result *const *results, int n)
{
    calls *c = user;
    assert_non_null(results);
    *spec = NULL;
    c->sizes[c->n++] = n;
    return c->n == c->stop_at ? CUTUNE_ESTOPPED : CUTUNE_OK;
}

/* spec_of is asked once per kernel, with that kernel's results; its status stops the
 * call and is returned unchanged. */
static void test_spec_of(void **state)
{
    (void)state;
    cutune_tune_result *h100 = load("h100.json"), *sizes = load("sizes.json"), *a100 = load("a100.json");
    const cutune_tune_result *all[3] = {h100, sizes, a100};
    calls c = {0, {0}, 0};
    cutune_headers_options opts = CUTUNE_HEADERS_OPTIONS_INIT;
    opts.spec_of = spec_of;
    opts.user = &c;
    char *text = NULL;
    assert_int_equal(cutune_emit_headers(&text, NULL, all, 3, &opts), CUTUNE_OK);
    assert_int_equal(c.n, 2);
    assert_int_equal(c.sizes[0], 2);
    assert_int_equal(c.sizes[1], 1);
    cutune_free(text);
    c = (calls){0, {0}, 2};
    assert_int_equal(cutune_emit_headers(&text, NULL, all, 3, &opts), CUTUNE_ESTOPPED);
    assert_null(text);
    cutune_tune_result_free(h100);
    cutune_tune_result_free(sizes);
    cutune_tune_result_free(a100);
}

/* Kernels k (param a_tile_y) and k_a (tile_y) both define K_A_TILE_Y: each section is
 * fine alone, the file is refused. A spec given without a block of a kernel's results
 * is refused too. */
static void test_refusals(void **state)
{
    (void)state;
    cutune_tune_result *k = load("h100.json"), *ka = load("h100.json"), *sizes = load("sizes.json");
    k->kernel = (char *)"k";
    k->param_names[1] = "a_tile_y";
    ka->kernel = (char *)"k_a";
    const cutune_tune_result *both[2] = {k, ka}, *st[1] = {sizes};
    char *text = NULL;
    assert_int_equal(cutune_emit_headers(&text, NULL, both, 1, NULL), CUTUNE_OK);
    cutune_free(text);
    assert_int_equal(cutune_emit_headers(&text, NULL, both + 1, 1, NULL), CUTUNE_OK);
    cutune_free(text);
    assert_int_equal(cutune_emit_headers(&text, NULL, both, 2, NULL), CUTUNE_EINVAL);
    assert_non_null(strstr(cutune_last_error(), "K_A_TILE_Y"));
    assert_null(text);
    cutune_spec *scale = spec_at("test/emit/scale.tune");
    assert_int_equal(cutune_emit_headers(&text, scale, st, 1, NULL), CUTUNE_EINVAL);
    cutune_spec_free(scale);
    assert_int_equal(cutune_emit_headers(NULL, NULL, st, 1, NULL), CUTUNE_EINVAL);
    assert_int_equal(cutune_emit_headers(&text, NULL, NULL, 0, NULL), CUTUNE_EINVAL);
    cutune_headers_options zero;
    memset(&zero, 0, sizeof zero);
    assert_int_equal(cutune_emit_headers(&text, NULL, st, 1, &zero), CUTUNE_EINVAL);
    cutune_tune_result_free(k);
    cutune_tune_result_free(ka);
    cutune_tune_result_free(sizes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_section_per_kernel),
        cmocka_unit_test(test_one_prefix),
        cmocka_unit_test(test_defaults_per_block),
        cmocka_unit_test(test_spec_of),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
