/* test_space.c - counting and listing the space, checked against brute force: every
 * raw combination evaluated against every constraint, with no pruning and no
 * splitting into independent groups. */
#include "helpers.h"

#include "compiler/space.h"
#include "compiler/plan.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state % n);
}

/* Brute force: the valid configurations in declaration order, as domain-index tuples
 * written into out (n params each); returns how many. */
static uint64_t brute_force(const model *m, uint64_t *out, uint64_t max)
{
    int n = m->nparams;
    uint64_t idx[MODEL_MAX_PARAMS] = {0};
    value vals[MODEL_MAX_PARAMS];
    eval_env env = {m, vals, false, 0.0, NULL, false, 0.0, 0.0};
    uint64_t found = 0;
    for (;;) {
        for (int v = 0; v < n; v++)
            vals[v] = model_domain_at(&m->params[v].dom, idx[v]);
        bool all = true;
        for (int r = 0; r < m->nrequires && all; r++) {
            eval_error err;
            assert_int_equal(eval_bool(m->requires[r].expr, &env, &all, &err), 0);
        }
        if (all) {
            if (found < max)
                memcpy(out + found * (uint64_t)n, idx, sizeof(uint64_t) * (size_t)n);
            found++;
        }
        int v = n - 1;
        while (v >= 0 && ++idx[v] == m->params[v].dom.size)
            idx[v--] = 0;
        if (v < 0)
            return found;
    }
}

static const char *const domains[] = {
    "[1, 2, 3, 4]", "1 .. 6", "0 .. 12 step 3",  "1 .. 64 step *2", "[16, 32, 48, 64, 96]",
    "2 .. 9",       "[5]",    "1 .. 27 step *3", "[0, 7, 1, 9]",
};

static const char *const constraint_forms[] = {
    "%s * %s <= 40",
    "%s %% max(%s, 1) == 0",
    "%s + %s > 9",
    "%s != %s",
    "(%s & 1) == 0 || %s > 5",
    "%s <= %s",
    "8 <= %s * %s <= 64",
    "%s - %s < 3 && %s >= 2",
    /* Guarded division: evaluated eagerly, 60 % (p - 1) fails for p = 1; counting must
     * fall back to the short-circuit the check is written with. */
    "%s < 2 || %s < 2 || 60 %% (%s - 1) == 0",
};

static int trials_run;

/* Returns after checking one random spec against brute force (or skipping one the
 * checker rejects, which is counted so the test cannot pass vacuously). */
static void check_random_space(int trial)
{
    static const char *const names[] = {"a", "b", "c", "d", "e", "f"};
    int np = 1 + (int)rnd(6);
    int nc = (int)rnd(5);
    char body[4096];
    size_t len = 0;
    for (int i = 0; i < np; i++)
        len += (size_t)snprintf(body + len, sizeof body - len, " param %s in %s as none;\n", names[i],
                                domains[rnd(sizeof domains / sizeof *domains)]);
    for (int k = 0; k < nc; k++) {
        const char *p = names[rnd((unsigned)np)], *q = names[rnd((unsigned)np)];
        char c[256];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
        snprintf(c, sizeof c, constraint_forms[rnd(sizeof constraint_forms / sizeof *constraint_forms)], p, q, p);
#pragma GCC diagnostic pop
        len += (size_t)snprintf(body + len, sizeof body - len, " require %s;\n", c);
    }
    /* Make every param used so no 'as none' warning matters; geometry reads them all. */
    len += (size_t)snprintf(body + len, sizeof body - len, " let all = 0");
    for (int i = 0; i < np; i++)
        len += (size_t)snprintf(body + len, sizeof body - len, " + %s", names[i]);
    snprintf(body + len, sizeof body - len, ";\n");
    char *text = spec_with("%s", body);
    checked *c = check_spec(text);
    if (!c->m) {
        /* A constant constraint (p != p) is reported as always false/true: fine, skip. */
        checked_free(c);
        free(text);
        return;
    }
    const model *m = c->m;
    trials_run++;
    uint64_t raw = 1;
    for (int v = 0; v < m->nparams; v++)
        raw *= m->params[v].dom.size;
    uint64_t *expected = malloc(sizeof(uint64_t) * (size_t)(raw * (uint64_t)np + 1));
    uint64_t want = brute_force(m, expected, raw);

    space *sp;
    assert_int_equal(space_new(&sp, m, NULL, 0), 0);
    bool sat;
    assert_int_equal(space_raw(sp, &sat), raw);
    uint64_t got;
    eval_error err;
    assert_int_equal(space_count(sp, &got, &sat, &err), 0);
    if (got != want)
        fail_msg("trial %d: count %llu, brute force %llu, for\n%s", trial, (unsigned long long)got,
                 (unsigned long long)want, text);

    space_iter *it;
    assert_int_equal(space_iter_new(&it, sp), 0);
    const uint64_t *idx;
    const value *vals;
    uint64_t listed = 0;
    int rc;
    while ((rc = space_iter_next(it, &idx, &vals, &err)) == 1) {
        assert_true(listed < want);
        if (memcmp(idx, expected + listed * (uint64_t)np, sizeof(uint64_t) * (size_t)np) != 0)
            fail_msg("trial %d: configuration %llu differs from brute force, for\n%s", trial,
                     (unsigned long long)listed, text);
        for (int v = 0; v < np; v++)
            assert_true(value_equal(vals[v], model_domain_at(&m->params[v].dom, idx[v])));
        listed++;
    }
    assert_int_equal(rc, 0);
    assert_int_equal(listed, want);
    assert_int_equal(space_iter_next(it, &idx, &vals, &err), 0); /* stays finished */
    space_iter_free(it);
    space_free(sp);
    free(expected);
    checked_free(c);
    free(text);
}

static void test_random_spaces_match_brute_force(void **state)
{
    (void)state;
    for (int trial = 0; trial < 400; trial++)
        check_random_space(trial);
    assert_true(trials_run > 350);
}

/* A worked example by hand: block shapes of 32..1024 threads from two power-of-two
 * lists. x in {16..1024} (7), y in {1..32} (6): the valid pairs are those with
 * 32 <= x*y <= 1024, i.e. log2(x)+log2(y) in 5..10 with log2 x in 4..10, log2 y in 0..5. */
static void test_block_shape_count_by_hand(void **state)
{
    (void)state;
    uint64_t by_hand = 0;
    for (int lx = 4; lx <= 10; lx++)
        for (int ly = 0; ly <= 5; ly++)
            by_hand += lx + ly >= 5 && lx + ly <= 10;
    assert_int_equal(by_hand, 5 + 6 + 5 + 4 + 3 + 2 + 1); /* x = 16: y >= 2; x = 32: any y; ... x = 1024: y = 1 */
    checked *c = check_with("param x in 16 .. 1024 step *2 as none;\n"
                            "param y in 1 .. 32 step *2 as none;\n"
                            "param t in 1 .. 8 step *2;\n"
                            "require 32 <= x * y <= 1024;\n"
                            "let u = x + y;");
    assert_non_null(c->m);
    space *sp;
    assert_int_equal(space_new(&sp, c->m, NULL, 0), 0);
    uint64_t n;
    bool sat;
    eval_error err;
    assert_int_equal(space_count(sp, &n, &sat, &err), 0);
    assert_int_equal(n, by_hand * 4); /* t is free: 4 values each */
    space_free(sp);
    checked_free(c);
}

static void test_listing_order_is_declaration_order(void **state)
{
    (void)state;
    checked *c = check_with("param a in [3, 1];\nparam b in 1 .. 3;\nrequire a != b;");
    assert_non_null(c->m);
    space *sp;
    space_iter *it;
    assert_int_equal(space_new(&sp, c->m, NULL, 0), 0);
    assert_int_equal(space_iter_new(&it, sp), 0);
    const int64_t expect[][2] = {{3, 1}, {3, 2}, {1, 2}, {1, 3}};
    const uint64_t *idx;
    const value *vals;
    eval_error err;
    for (int k = 0; k < 4; k++) {
        assert_int_equal(space_iter_next(it, &idx, &vals, &err), 1);
        assert_int_equal(vals[0].u.i, expect[k][0]);
        assert_int_equal(vals[1].u.i, expect[k][1]);
    }
    assert_int_equal(space_iter_next(it, &idx, &vals, &err), 0);
    space_iter_free(it);
    space_free(sp);
    checked_free(c);
}

static void test_saturating_raw_count(void **state)
{
    (void)state;
    /* 2^32 values, three times: 2^96 raw combinations. */
    checked *c = check_with("param a in 1 .. 4294967296;\nparam b in 1 .. 4294967296;\n"
                            "param d in 1 .. 4294967296;");
    assert_non_null(c->m);
    space *sp;
    assert_int_equal(space_new(&sp, c->m, NULL, 0), 0);
    bool sat = false;
    assert_int_equal(space_raw(sp, &sat), UINT64_MAX);
    assert_true(sat);
    uint64_t n;
    eval_error err;
    assert_int_equal(space_count(sp, &n, &sat, &err), 0); /* free params: multiplied, not visited */
    assert_true(sat);
    space_free(sp);
    checked_free(c);
}

static void test_constraint_error_names_the_configuration(void **state)
{
    (void)state;
    checked *c = check_with("param a in 0 .. 3;\nparam b in [1, 2];\nrequire 12 %% a == 0;");
    assert_non_null(c->m);
    space *sp;
    assert_int_equal(space_new(&sp, c->m, NULL, 0), 0);
    uint64_t n;
    bool sat;
    eval_error err;
    assert_int_equal(space_count(sp, &n, &sat, &err), -1);
    assert_non_null(strstr(err.message, "division by zero"));
    assert_non_null(strstr(err.message, "a = 0"));
    space_free(sp);
    checked_free(c);
}

/* The dense space: six params of 400 values under one constraint over all
 * of them, 4.1e15 combinations. */
static const char dense[] = "param a in 1 .. 400;\nparam b in 1 .. 400;\nparam c in 1 .. 400;\n"
                            "param d in 1 .. 400;\nparam e in 1 .. 400;\nparam f in 1 .. 400;\n"
                            "require a + b + c + d + e + f <= 1200;";

static void test_dense_space_is_estimated_within_the_bound(void **state)
{
    (void)state;
    checked *c = check_with(dense);
    assert_non_null(c->m);
    space *sp;
    assert_int_equal(space_new(&sp, c->m, NULL, 0), 0);
    space_count_opts o = {.max_work = 2000000, .samples = 100000, .seed = 7};
    space_count_result r;
    eval_error err;
    assert_int_equal(space_count_ex(sp, &o, &r, &err), 0);
    assert_false(r.exact);
    assert_int_equal(r.samples, 100000);
    /* By symmetry (the sum of six values 1..400 is at most 1200 about half the time). */
    assert_true(r.share > 0.48 && r.share < 0.52);
    assert_true(r.count > 1.9e15 && r.count < 2.2e15);
    /* What was counted before stopping: the first values of the outer params all pass. */
    assert_true(r.at_least >= 1000000 && r.at_least <= r.count);
    /* The legacy entry point says so, with the estimate, instead of blocking. */
    uint64_t n;
    bool sat;
    assert_int_equal(space_count(sp, &n, &sat, &err), -1);
    assert_non_null(strstr(err.message, "too large to count exactly"));
    assert_int_equal(err.loc.begin, c->m->kernel_loc.begin);
    space_free(sp);
    checked_free(c);
}

static int stop_at_once(void *user, double done)
{
    *(double *)user = done;
    return 1;
}

static void test_count_progress_can_stop_it(void **state)
{
    (void)state;
    checked *c = check_with(dense);
    assert_non_null(c->m);
    space *sp;
    assert_int_equal(space_new(&sp, c->m, NULL, 0), 0);
    double seen = -1.0;
    space_count_opts o = {.samples = 1000, .progress = stop_at_once, .user = &seen};
    space_count_result r;
    eval_error err;
    assert_int_equal(space_count_ex(sp, &o, &r, &err), 0);
    assert_false(r.exact);
    assert_true(seen >= 0.0 && seen < 0.01);
    space_free(sp);
    checked_free(c);
}

/* Within the bounds the count is exact, and the same through both entry points. */
static void test_small_count_is_exact(void **state)
{
    (void)state;
    checked *c = check_with("param a in 1 .. 40;\nparam b in 1 .. 40;\nrequire a + b <= 40;");
    assert_non_null(c->m);
    space *sp;
    assert_int_equal(space_new(&sp, c->m, NULL, 0), 0);
    space_count_result r;
    eval_error err;
    assert_int_equal(space_count_ex(sp, NULL, &r, &err), 0);
    assert_true(r.exact);
    assert_int_equal(r.count, 780); /* 39 + 38 + ... + 1 */
    assert_int_equal(r.at_least, 780);
    uint64_t n;
    bool sat;
    assert_int_equal(space_count(sp, &n, &sat, &err), 0);
    assert_int_equal(n, 780);
    space_free(sp);
    checked_free(c);
}

/* The device's values decide the space and each variant's grid and defines. Two
 * descriptions by hand: 132 SMs and 2048 threads per SM (an H100 SXM's), and 82 SMs and
 * 1536 threads per SM (an RTX 3090's). */
static const char device_spec[] = "kernel k from \"k.cu\" {\n"
                                  "    param t in [256, 512, 1024] as none;\n"
                                  "    param bps in [1, 2, 4] as none;\n"
                                  "    param fast in [false, true] as option \"--use_fast_math\";\n"
                                  "    require t * bps <= max_threads_per_sm;\n"
                                  "    let n = 1 << 20 as define N, per = t * bps as define PER;\n"
                                  "    block t;\n    grid sm_count * bps;\n}\n";

static uint64_t count_on(int64_t sms, int64_t threads_per_sm, checked **keep)
{
    dev_values d;
    memset(&d, 0, sizeof d);
    d.v[DA_SM_COUNT] = sms;
    d.v[DA_MAX_THREADS_PER_SM] = threads_per_sm;
    checked *c = check_spec_on(device_spec, &d);
    assert_non_null(c->m);
    space *sp;
    assert_int_equal(space_new(&sp, c->m, NULL, 0), 0);
    uint64_t n;
    bool sat;
    eval_error err;
    assert_int_equal(space_count(sp, &n, &sat, &err), 0);
    space_free(sp);
    *keep = c;
    return n;
}

static void test_device_values_shape_the_space_and_variants(void **state)
{
    (void)state;
    checked *h100, *rtx;
    /* By hand: (t, bps) with t * bps <= 2048: 256 x {1,2,4}, 512 x {1,2,4}, 1024 x {1,2} = 8;
     * <= 1536: 256 x {1,2,4}, 512 x {1,2}, 1024 x {1} = 6; each with fast false and true. */
    assert_int_equal(count_on(132, 2048, &h100), 16);
    assert_int_equal(count_on(82, 1536, &rtx), 12);
    arena *a = arena_new();
    variant v;
    eval_error err;
    value vals[3] = {value_int(512), value_int(2), value_bool(true)};
    assert_int_equal(plan_variant(h100->m, vals, a, &v, &err), 0);
    assert_int_equal(v.grid[0], 264); /* 132 SMs x 2 */
    assert_int_equal(v.ndefines, 2);
    assert_string_equal(v.defines[0], "-DN=1048576");
    assert_string_equal(v.defines[1], "-DPER=1024"); /* derived: per variant */
    assert_int_equal(v.noptions, 1);
    assert_string_equal(v.options[0], "--use_fast_math");
    vals[2] = value_bool(false);
    assert_int_equal(plan_variant(rtx->m, vals, a, &v, &err), 0);
    assert_int_equal(v.grid[0], 164); /* 82 SMs x 2 */
    assert_int_equal(v.noptions, 0);  /* off: no option at all */
    arena_free(a);
    checked_free(h100);
    checked_free(rtx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_values_shape_the_space_and_variants),
        cmocka_unit_test(test_random_spaces_match_brute_force),
        cmocka_unit_test(test_block_shape_count_by_hand),
        cmocka_unit_test(test_listing_order_is_declaration_order),
        cmocka_unit_test(test_saturating_raw_count),
        cmocka_unit_test(test_constraint_error_names_the_configuration),
        cmocka_unit_test(test_dense_space_is_estimated_within_the_bound),
        cmocka_unit_test(test_count_progress_can_stop_it),
        cmocka_unit_test(test_small_count_is_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
