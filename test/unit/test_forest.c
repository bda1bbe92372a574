/* test_forest.c - the random forest behind the auto strategy (search/forest.h): it
 * learns a step function (each tree alone too), its importance names the feature that matters, the same seed
 * gives the same forest, one observation is enough, and its spread is larger away from
 * the data than on it. The data are made here, their answers known by construction. */
#include "helpers.h"

#include <math.h>

#include "search/forest.h"

enum { NF = 3 };

/* A step in feature 1 at 0.5 (y 10 below, 20 above); features 0 and 2 are noise. */
static void step_data(double *x, double *y, int n, uint64_t seed)
{
    rng r;
    rng_seed(&r, seed);
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < NF; k++)
            x[i * NF + k] = rng_unit(&r);
        y[i] = x[i * NF + 1] < 0.5 ? 10.0 : 20.0;
    }
}

static void test_learns_a_step(void **state)
{
    (void)state;
    double x[200 * NF], y[200];
    step_data(x, y, 200, 1);
    forest *f;
    assert_int_equal(forest_fit(&f, x, y, 200, NF, NULL, 7), 0);
    double below[NF] = {0.3, 0.2, 0.9}, above[NF] = {0.3, 0.8, 0.9}, mean, sd;
    forest_predict(f, below, &mean, &sd);
    assert_true(fabs(mean - 10.0) < 1.0);
    forest_predict(f, above, &mean, &sd);
    assert_true(fabs(mean - 20.0) < 1.0);
    rng r;
    rng_seed(&r, 3);
    double some = forest_predict_some(f, above, 4, &r);
    assert_true(fabs(some - 20.0) < 2.0);
    /* one tree's view (auto's Thompson samples) sees the step too, and all the trees
     * together are the forest's mean */
    assert_int_equal(forest_trees(f), 32);
    int all[32];
    for (int t = 0; t < 32; t++) {
        all[t] = t;
        assert_true(forest_predict_trees(f, below, &all[t], 1) < forest_predict_trees(f, above, &all[t], 1));
    }
    forest_predict(f, above, &mean, &sd);
    assert_true(fabs(forest_predict_trees(f, above, all, 32) - mean) < 1e-9);
    forest_free(f);
}

static void test_importance(void **state)
{
    (void)state;
    double x[200 * NF], y[200], imp[NF];
    step_data(x, y, 200, 2);
    forest *f;
    assert_int_equal(forest_fit(&f, x, y, 200, NF, NULL, 1), 0);
    assert_int_equal(forest_features(f), NF);
    forest_importance(f, imp);
    assert_true(imp[1] > 0.8);
    assert_true(fabs(imp[0] + imp[1] + imp[2] - 1.0) < 1e-9);
    forest_free(f);
}

static void test_deterministic(void **state)
{
    (void)state;
    double x[100 * NF], y[100];
    step_data(x, y, 100, 5);
    for (int i = 0; i < 100; i++) /* a smooth part too, so trees differ by their samples */
        y[i] += 3 * x[i * NF];
    forest *a, *b, *c;
    assert_int_equal(forest_fit(&a, x, y, 100, NF, NULL, 11), 0);
    assert_int_equal(forest_fit(&b, x, y, 100, NF, NULL, 11), 0);
    assert_int_equal(forest_fit(&c, x, y, 100, NF, NULL, 12), 0);
    bool differs = false;
    for (int i = 0; i < 50; i++) {
        double q[NF] = {i / 50.0, (i % 7) / 7.0, (i % 3) / 3.0}, ma, sa, mb, sb, mc, sc;
        forest_predict(a, q, &ma, &sa);
        forest_predict(b, q, &mb, &sb);
        forest_predict(c, q, &mc, &sc);
        assert_true(ma == mb && sa == sb);
        differs |= ma != mc;
    }
    assert_true(differs); /* another seed, another forest */
    forest_free(a);
    forest_free(b);
    forest_free(c);
}

static void test_one_observation(void **state)
{
    (void)state;
    double x[NF] = {1, 2, 3}, y = 4.5, mean, sd, imp[NF];
    forest *f;
    assert_int_equal(forest_fit(&f, x, &y, 1, NF, NULL, 0), 0);
    double q[NF] = {9, 9, 9};
    forest_predict(f, q, &mean, &sd);
    assert_true(mean == 4.5 && sd == 0);
    forest_importance(f, imp);
    assert_true(imp[0] == 0 && imp[1] == 0 && imp[2] == 0);
    forest_free(f);
    double bad = NAN;
    assert_int_equal(forest_fit(&f, x, &bad, 1, NF, NULL, 0), -1); /* targets must be finite */
    assert_null(f);
    forest_free(NULL);
}

/* Two clusters of observations with a disagreement between them: the spread of the
 * prediction is larger in the gap, where the trees split at different places. */
static void test_spread(void **state)
{
    (void)state;
    double x[40], y[40];
    rng r;
    rng_seed(&r, 9);
    for (int i = 0; i < 40; i++) {
        x[i] = i < 20 ? rng_unit(&r) * 0.2 : 0.8 + rng_unit(&r) * 0.2;
        y[i] = i < 20 ? 1.0 + 0.01 * rng_unit(&r) : 5.0 + 0.01 * rng_unit(&r);
    }
    forest *f;
    assert_int_equal(forest_fit(&f, x, y, 40, 1, NULL, 4), 0);
    double on = 0.1, gap = 0.5, m1, s1, m2, s2;
    forest_predict(f, &on, &m1, &s1);
    forest_predict(f, &gap, &m2, &s2);
    assert_true(s2 > s1);
    forest_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_learns_a_step),   cmocka_unit_test(test_importance), cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_one_observation), cmocka_unit_test(test_spread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
