/* test_screen.c - the final race's screening rule (tuner/goal.c, goal_behind) on
 * made-up figures: who is clearly behind the race's best (by more than both ranges and
 * the floor), for an objective that is the time and for one maximised and evaluated per
 * configuration; and, on simulated noisy GPUs, a whole race on one GPU as fleet_race runs
 * it (the likeliest winner first, each next contender screened after GOAL_SCREEN samples
 * against the best timed in full) never loses the contender that is the best beyond its
 * noise, and drops most of those clearly behind. When the worker asks is test_race.c's;
 * what the tuner tells the worker, on fake workers, test_fleet.c's. */
#include <math.h>
#include <stdint.h>

#include "helpers.h"
#include "tuner/goal.h"
/* the objective is the time (minimised) */
static const char time_spec[] = "kernel k from \"k.cu\" {\n"
                                "    param p in [1, 2, 3, 4];\n"
                                "    block 32;\n"
                                "    grid 1;\n"
                                "    arg n : int = 1;\n"
                                "}\n";

/* maximised, and the param weighs it: what is compared is the objective, not the time */
static const char bw_spec[] = "kernel k from \"k.cu\" {\n"
                              "    param p in [1, 2, 3, 4];\n"
                              "    block 32;\n"
                              "    grid 1;\n"
                              "    arg n : int = 1;\n"
                              "    metric work = p / time_s;\n"
                              "    objective maximize work;\n"
                              "}\n";

/* A goal whose best is `best` with range `range`, for configuration `vals`. */
static goal_state goal_of(const model *m, value *vals, double best, double range)
{
    goal_state g = {m, vals, 1.5, true, best, false, 0, 0, range};
    return g;
}

static void test_time_objective(void **state)
{
    (void)state;
    checked *c = check_spec(time_spec);
    assert_non_null(c->m);
    value one = value_int(1);
    goal_state g = goal_of(c->m, &one, 1.000, 0.010);   /* the best: 1 ms, from 0.995 to 1.005 */
    assert_true(goal_behind(&g, 1.030, 1.025, 1.035));  /* 3 % behind, ranges 2 % together */
    assert_false(goal_behind(&g, 1.015, 1.010, 1.020)); /* 1.5 % behind, ranges 2 % together */
    assert_false(goal_behind(&g, 1.040, 0.990, 1.060)); /* 4 % behind but noisy (range 7 %) */
    assert_false(goal_behind(&g, 0.990, 0.989, 0.991)); /* ahead */
    g.best_range = 0;
    assert_false(goal_behind(&g, 1.004, 1.004, 1.004)); /* no range, 0.4 % behind: under the floor */
    assert_true(goal_behind(&g, 1.006, 1.006, 1.006));  /* no range, 0.6 % behind */
    g.have_best = false;
    assert_false(goal_behind(&g, 9.0, 9.0, 9.0)); /* no best: nothing is behind */
    checked_free(c);
}

static void test_objective_per_configuration(void **state)
{
    (void)state;
    checked *c = check_spec(bw_spec);
    assert_non_null(c->m);
    value p1 = value_int(1), p2 = value_int(2);
    /* the best: p = 2 in 1.9 ms, 1052.6 /s, from 1.898 to 1.902 ms (1.1 /s) */
    double range = 0;
    goal_state g = goal_of(c->m, &p2, 2 / 1.9e-3, 0);
    assert_int_equal(goal_range(&g, 1.898, 1.902, &range), 0);
    assert_true(fabs(range - (2 / 1.898e-3 - 2 / 1.902e-3)) < 1e-9);
    g.best_range = range;
    g.vals = &p1;
    /* p = 1, faster (0.98 ms) but 1020 /s: 3 % behind in the objective, ranges ~1 % */
    assert_true(goal_behind(&g, 0.98, 0.978, 0.982));
    /* p = 1 in 0.95 ms: 1052.6 /s, level with the best whatever its time */
    assert_false(goal_behind(&g, 0.95, 0.949, 0.951));
    g.vals = &p2; /* p = 2 in 1.95 ms: 2.5 % behind */
    assert_true(goal_behind(&g, 1.95, 1.949, 1.951));
    g.best_range = 40; /* the best's own range covers the gap */
    assert_false(goal_behind(&g, 1.95, 1.949, 1.951));
    checked_free(c);
}

/* ---- simulated GPUs ------------------------------------------------------------------ */

static uint64_t rng_state;

/* xorshift64*, uniform in [0, 1) */
static double uniform(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (double)((rng_state * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

/* A sample of a kernel of true time `t` ms: Gaussian noise of relative sd `sd`
 * (Box-Muller), now and then a slow outlier (a GPU busy elsewhere for a moment). */
static double sample_of(double t, double sd)
{
    double u = uniform(), v = uniform();
    double z = sqrt(-2.0 * log(u > 1e-300 ? u : 1e-300)) * cos(6.283185307179586 * v);
    double x = t * (1 + sd * z);
    return uniform() < 0.03 ? x * 1.1 : x;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Quantile q of sorted v[0 .. n), linearly interpolated (as the worker's statistics). */
static double quantile(const double *v, int n, double q)
{
    double pos = q * (n - 1);
    int i = (int)pos;
    return i >= n - 1 ? v[n - 1] : v[i] + (pos - i) * (v[i + 1] - v[i]);
}

/* Statistics of n fresh samples of a kernel of true time t: median, min, max, q1, q3. */
static void samples_of(double t, double sd, int n, double *median, double *min, double *max, double *q1, double *q3)
{
    double s[64];
    for (int i = 0; i < n; i++)
        s[i] = sample_of(t, sd);
    qsort(s, (size_t)n, sizeof *s, by_value);
    *median = quantile(s, n, 0.5);
    *min = s[0];
    *max = s[n - 1];
    *q1 = quantile(s, n, 0.25);
    *q3 = quantile(s, n, 0.75);
}

/* Contenders within 5 % of the best, as a final race meets them: the true best 1.0 ms,
 * ahead by 1.5 % (three times its noise or more); the others spread from 1.5 % to 5 %
 * behind. Each race: the contenders ordered by three noisy provisional samples (in
 * every other race left in their order, so the best comes anywhere), the
 * first timed in full (10 samples), each next screened after GOAL_SCREEN samples against
 * the best timed in full so far (goal_behind) and otherwise timed in full. Over many
 * races and three noise levels, the winner is always the true best (and so the full
 * race's whenever that is beyond its noise), and most of those 3 % or more behind stop
 * after GOAL_SCREEN samples. */
static void test_simulated_races_keep_the_best(void **state)
{
    (void)state;
    checked *c = check_spec(time_spec);
    assert_non_null(c->m);
    value one = value_int(1);
    enum { N = 23, RACES = 2000, FULL = 10 };
    const double sds[] = {0.001, 0.003, 0.005};
    rng_state = 0x9E3779B97F4A7C15ULL;
    long far = 0, far_dropped = 0, timed_in_full = 0, races = 0;
    for (size_t s = 0; s < sizeof sds / sizeof *sds; s++)
        for (int race = 0; race < RACES; race++, races++) {
            double truth[N], placed[N], med, lo, hi, q1, q3;
            int order[N];
            for (int i = 0; i < N; i++) {
                truth[i] = i == race % N ? 1.0 : 1.015 + 0.035 * (double)i / (N - 1);
                samples_of(truth[i], sds[s], 3, &placed[i], &lo, &hi, &q1, &q3);
                int b = i; /* insertion by the provisional median: the likeliest first (in
                            * every other race, as they come: the best anywhere) */
                for (; b > 0 && race % 2 == 0 && placed[i] < placed[order[b - 1]]; b--)
                    order[b] = order[b - 1];
                order[b] = i;
            }
            goal_state g = goal_of(c->m, &one, 0, 0);
            g.have_best = false;
            int winner = -1;
            for (int k = 0; k < N; k++) {
                int i = order[k];
                samples_of(truth[i], sds[s], g.have_best ? GOAL_SCREEN : FULL, &med, &lo, &hi, &q1, &q3);
                if (g.have_best && goal_behind(&g, med, lo, hi)) {
                    far_dropped += truth[i] >= 1.03;
                    far += truth[i] >= 1.03;
                    continue;
                }
                far += truth[i] >= 1.03;
                timed_in_full++;
                if (g.have_best) /* timed on to the full count: fresh statistics stand in */
                    samples_of(truth[i], sds[s], FULL, &med, &lo, &hi, &q1, &q3);
                if (!g.have_best || med < g.best) {
                    g.have_best = true;
                    g.best = med;
                    assert_int_equal(goal_best_range(&g, q1, q3, &g.best_range), 0);
                    winner = i;
                }
            }
            if (winner != race % N)
                fail_msg("noise %.3f, race %d: #%d won, not the true best #%d", sds[s], race, winner, race % N);
        }
    /* the screening earns its cost: most of those clearly behind stop early */
    assert_true(far_dropped * 10 >= far * 7);
    assert_true(timed_in_full < races * N / 2);
    checked_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_objective),
        cmocka_unit_test(test_objective_per_configuration),
        cmocka_unit_test(test_simulated_races_keep_the_best),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
