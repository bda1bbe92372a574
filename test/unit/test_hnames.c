/* test_hnames.c - the names a header defines (compiler/hnames.c) and the header writer's
 * refusals built on them (emit/header.c, cutune_header_names_*): a name that is not a C
 * identifier or would put code into the header, a param whose macro the header defines
 * itself, two kernel blocks whose prefixes overlap (K and K_A), two results of one
 * device. Results are loaded from test/emit/ and changed in memory, past the loader's
 * own checks, as an application holding a result could. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compiler/hnames.h"
#include "cutune.h"
#include "results/result.h"
#include "emit_results.h"

/* The header of r alone (no spec): its status, the text in *text (NULL on failure). */
static int header_of(cutune_tune_result *r, const char *prefix, char **text)
{
    const cutune_tune_result *rs[1] = {r};
    cutune_header_options opts = {CUTUNE_HEADER_OPTIONS_VERSION, prefix, NULL, NULL};
    return cutune_emit_header(text, NULL, rs, 1, &opts);
}

static void test_injected_name_refused(void **state)
{
    (void)state;
    cutune_tune_result *r = load("h100.json");
    r->param_names[0] = "x */ int injected(void) { return 42; } /* y";
    char *text = NULL;
    assert_int_equal(header_of(r, NULL, &text), CUTUNE_EINVAL);
    assert_null(text);
    assert_non_null(strstr(cutune_last_error(), "not a C identifier"));
    assert_null(strstr(cutune_last_error(), "injected")); /* the message does not carry it either */
    r->param_names[0] = "block-x";
    assert_int_equal(header_of(r, NULL, &text), CUTUNE_EINVAL);
    r->param_names[0] = "block_x";
    r->kernel = "k\n#define x";
    assert_int_equal(header_of(r, NULL, &text), CUTUNE_EINVAL); /* the default prefix comes from it */
    assert_int_equal(header_of(r, "SAFE", &text), CUTUNE_OK);
    cutune_free(text);
    cutune_tune_result_free(r);
}

static void test_own_names_refused(void **state)
{
    (void)state;
    cutune_tune_result *r = load("h100.json");
    char *text = NULL;
    static const char *const taken[] = {"tuned", "device_name", "grid_dim_x", "smem_bytes", "defines"};
    for (size_t i = 0; i < sizeof taken / sizeof *taken; i++) {
        r->param_names[1] = taken[i];
        assert_int_equal(header_of(r, "P", &text), CUTUNE_EINVAL);
        assert_non_null(strstr(cutune_last_error(), "a name the header defines for itself"));
    }
    r->param_names[1] = "Tile_Y"; /* P_TILE_Y twice, from names that differ in case */
    r->param_names[0] = "tile_y";
    assert_int_equal(header_of(r, "P", &text), CUTUNE_EINVAL);
    assert_non_null(strstr(cutune_last_error(), "P_TILE_Y"));
    r->param_names[0] = "block_x";
    r->param_names[1] = "tile_y";
    assert_int_equal(header_of(r, "P", &text), CUTUNE_OK);
    cutune_free(text);
    cutune_tune_result_free(r);
}

static void test_one_device_twice(void **state)
{
    (void)state;
    cutune_tune_result *a = load("h100.json"), *b = load("h100.json"), *c = load("a100.json");
    const cutune_tune_result *rs[3] = {a, b, c};
    const char *const names[3] = {"first.json", "second.json", "third.json"};
    cutune_header_options opts = {CUTUNE_HEADER_OPTIONS_VERSION, NULL, names, NULL};
    char *text = NULL;
    assert_int_equal(cutune_emit_header(&text, NULL, rs, 3, &opts), CUTUNE_EINVAL);
    assert_null(text);
    assert_non_null(strstr(cutune_last_error(), "first.json and second.json are both of device"));
    rs[1] = c;
    assert_int_equal(cutune_emit_header(&text, NULL, rs, 2, &opts), CUTUNE_OK);
    cutune_free(text);
    cutune_tune_result_free(a);
    cutune_tune_result_free(b);
    cutune_tune_result_free(c);
}

/* K's param a_x and K_A's param x both make K_A_X: the second claim is refused, the set
 * is left as it was, and a third header that clashes with neither is taken. */
static void test_claims_across_headers(void **state)
{
    (void)state;
    cutune_tune_result *k = load("h100.json"), *ka = load("h100.json"), *other = load("h100.json");
    k->param_names[1] = "a_tile_y";
    const cutune_tune_result *rk[1] = {k}, *rka[1] = {ka}, *ro[1] = {other};
    cutune_header_options ok = {CUTUNE_HEADER_OPTIONS_VERSION, "K", NULL, NULL};
    cutune_header_options oka = {CUTUNE_HEADER_OPTIONS_VERSION, "K_A", NULL, NULL};
    cutune_header_options oo = {CUTUNE_HEADER_OPTIONS_VERSION, "KB", NULL, NULL};
    cutune_header_names *names = NULL;
    assert_int_equal(cutune_header_names_new(&names), CUTUNE_OK);
    assert_int_equal(cutune_header_names_claim(names, NULL, rk, 1, &ok), CUTUNE_OK);
    assert_int_equal(cutune_header_names_claim(names, NULL, rka, 1, &oka), CUTUNE_EINVAL);
    assert_non_null(strstr(cutune_last_error(), "K_A_TILE_Y"));
    assert_int_equal(cutune_header_names_claim(names, NULL, ro, 1, &oo), CUTUNE_OK);
    assert_int_equal(cutune_header_names_claim(names, NULL, ro, 1, &oo), CUTUNE_EINVAL); /* one prefix twice */
    cutune_header_names_free(names);
    cutune_header_names_free(NULL);
    cutune_tune_result_free(k);
    cutune_tune_result_free(ka);
    cutune_tune_result_free(other);
}

/* The rule itself, on lists made by hand. */
static void test_rule(void **state)
{
    (void)state;
    const char *kp[] = {"a_x"}, *kap[] = {"x"}, *lets[] = {"K_cdiv", "n"};
    hn_block k = {"K", 1, kp, 0, NULL, 0, NULL}, ka = {"K_A", 1, kap, 0, NULL, 0, NULL};
    hn_list *l[3];
    hn_clash c;
    assert_int_equal(hn_collect(&l[0], &k), CUTUNE_OK);
    assert_int_equal(hn_collect(&l[1], &ka), CUTUNE_OK);
    assert_false(hn_clash_find((const hn_list *const *)&l[0], 1, &c));
    assert_true(hn_clash_find((const hn_list *const *)l, 2, &c));
    assert_string_equal(c.a->name, "K_A_X");
    assert_int_equal(c.la, 0);
    assert_int_equal(c.lb, 1);
    assert_string_equal(c.b->source, "x");
    hn_free(l[1]);
    /* a let that would be an argument named like a function its block calls */
    hn_block kl = {"K", 1, kp, 0, NULL, 2, lets};
    assert_int_equal(hn_collect(&l[1], &kl), CUTUNE_OK);
    assert_true(hn_clash_find((const hn_list *const *)&l[1], 1, &c));
    assert_string_equal(c.b->name, "K_cdiv");
    /* ... but the same name in another block's functions is no clash */
    hn_block other = {"Q", 0, NULL, 0, NULL, 1, lets};
    assert_int_equal(hn_collect(&l[2], &other), CUTUNE_OK);
    hn_list *pair[2] = {l[0], l[2]};
    assert_false(hn_clash_find((const hn_list *const *)pair, 2, &c));
    hn_free(l[0]);
    hn_free(l[1]);
    hn_free(l[2]);
    /* a size variable named like a local of the look-up by size */
    const char *vars[] = {"best"};
    hn_block sized = {"S", 0, NULL, 1, vars, 0, NULL};
    assert_int_equal(hn_collect(&l[0], &sized), CUTUNE_OK);
    assert_true(hn_clash_find((const hn_list *const *)&l[0], 1, &c));
    assert_string_equal(c.b->name, "best");
    hn_free(l[0]);
    hn_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_injected_name_refused),
        cmocka_unit_test(test_own_names_refused),
        cmocka_unit_test(test_one_device_twice),
        cmocka_unit_test(test_claims_across_headers),
        cmocka_unit_test(test_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
