/* test_gp.c - the Gaussian process of search/gp.h: its Cholesky factor matches one worked
 * by hand and refuses a matrix that is not positive definite; fitted to a synthetic
 * function over 4 params of 4 values whose optimum is known by construction, the mean
 * interpolates the data, ranks the unseen optimum first, and the spread is near 0 at a
 * measured point and grows with the params that differ from it. */
#include "helpers.h"

#include <math.h>

#include "search/gp.h"
#include "search/rng.h"

enum { NP = 4, VALS = 4, ALL = 256 };

static void test_cholesky(void **state)
{
    (void)state;
    /* L = [[2,0,0],[1,2,0],[1,1,2]] worked by hand; a = L L^T */
    double a[9] = {4, 2, 2, 2, 5, 3, 2, 3, 6};
    const double l[9] = {2, 0, 0, 1, 2, 0, 1, 1, 2};
    assert_int_equal(gp_cholesky(a, 3), 0);
    for (int i = 0; i < 9; i++)
        assert_true(fabs(a[i] - l[i]) < 1e-12);
    double b[4] = {1, 2, 2, 1}; /* eigenvalues 3 and -1 */
    assert_int_equal(gp_cholesky(b, 2), -1);
}

/* Configuration o's domain indices (base VALS digits) into x. */
static void decode(int o, uint64_t *x)
{
    for (int p = 0; p < NP; p++, o /= VALS)
        x[p] = (uint64_t)(o % VALS);
}

/* The function: 1 per param away from the optimum (2, 1, 3, 0), weighted 1, 2, 3, 4. */
static double f(const uint64_t *x)
{
    static const uint64_t opt[NP] = {2, 1, 3, 0};
    double y = 0;
    for (int p = 0; p < NP; p++)
        y += x[p] != opt[p] ? (double)(p + 1) : 0;
    return y;
}

static void test_finds_the_optimum(void **state)
{
    (void)state;
    enum { N = 48 };
    uint64_t x[N * NP];
    double y[N];
    rng r;
    rng_seed(&r, 5);
    int opt = 2 + 1 * 4 + 3 * 16 + 0 * 64, n = 0;
    unsigned char seen[ALL] = {0};
    seen[opt] = 1; /* the optimum stays unseen */
    while (n < N) {
        int o = (int)rng_below(&r, ALL);
        if (seen[o])
            continue;
        seen[o] = 1;
        decode(o, x + n * NP);
        y[n] = f(x + n * NP);
        n++;
    }
    const double ws[] = {0.1, 0.3, 1.0, 3.0};
    gp *g;
    assert_int_equal(gp_fit(&g, x, y, N, NP, ws, 4, 1e-6), 0);
    double mean, sd;
    for (int i = 0; i < N; i++) {
        gp_predict(g, x + i * NP, &mean, &sd);
        assert_true(fabs(mean - y[i]) < 0.05);
        assert_true(sd < 0.05);
    }
    int best = -1;
    double bm = INFINITY;
    for (int o = 0; o < ALL; o++) {
        uint64_t c[NP];
        decode(o, c);
        gp_predict(g, c, &mean, &sd);
        if (o != opt && seen[o])
            continue;
        if (mean < bm) {
            bm = mean;
            best = o;
        }
    }
    assert_int_equal(best, opt);
    gp_free(g);
}

static void test_spread_grows_with_distance(void **state)
{
    (void)state;
    uint64_t x[2 * NP] = {0, 0, 0, 0, 3, 3, 3, 3};
    double y[2] = {1.0, 2.0}, sd[NP + 1], mean;
    const double w = 0.5;
    gp *g;
    assert_int_equal(gp_fit(&g, x, y, 2, NP, &w, 1, 1e-6), 0);
    assert_true(fabs(gp_weight(g) - 0.5) < 1e-15);
    for (int d = 0; d <= NP; d++) { /* d params from the first point, the rest 1 (unlike both) */
        uint64_t c[NP];
        for (int p = 0; p < NP; p++)
            c[p] = p < d ? 1 : 0;
        gp_predict(g, c, &mean, &sd[d]);
    }
    assert_true(sd[0] < 0.01);
    for (int d = 1; d <= NP; d++)
        assert_true(sd[d] > sd[d - 1]);
    gp_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cholesky),
        cmocka_unit_test(test_finds_the_optimum),
        cmocka_unit_test(test_spread_grows_with_distance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
