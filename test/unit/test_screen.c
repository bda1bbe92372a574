/* test_screen.c - the final race's screening (tuner/goal.c: goal_behind, goal_level,
 * goal_screen) on made-up figures: who is clearly behind the race's best (by more than
 * both ranges and the floor) and who is level with it (not ahead by more than the floor
 * even at the favourable end of both ranges), for an objective that is the time and for
 * one maximised and evaluated per configuration; and, on simulated noisy GPUs, whole
 * races on one GPU as fleet_race runs them (the likeliest winner first, each next
 * contender screened after GOAL_SCREEN samples against the best timed in full, and
 * stopped when behind or level): they never lose the contender that is the best beyond
 * its noise, drop most of those clearly behind, and where many are level the winner is
 * within the floor of the true best while few are timed in full. When the worker asks is
 * test_race.c's; what the tuner tells the worker, on fake workers, test_fleet.c's. */
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

/* Level: not ahead of the best by more than the floor (0.5 %) even with both ranges in
 * its favour; behind within the noise is level too; a noisy one that might be ahead is
 * timed on. goal_screen says which. */
static void test_level_with_the_best(void **state)
{
    (void)state;
    checked *c = check_spec(time_spec);
    assert_non_null(c->m);
    value one = value_int(1);
    goal_state g = goal_of(c->m, &one, 1.000, 0.001);    /* the best: 1 ms, its range 0.1 % */
    assert_true(goal_level(&g, 0.998, 0.9975, 0.9985));  /* 0.2 % ahead, + 0.1 % + 0.1 %: 0.4 % */
    assert_true(goal_level(&g, 1.000, 0.9995, 1.0005));  /* even */
    assert_true(goal_level(&g, 1.004, 1.0035, 1.0045));  /* 0.4 % behind: not behind beyond the floor */
    assert_false(goal_level(&g, 0.996, 0.9955, 0.9965)); /* 0.4 % ahead, + 0.2 %: 0.6 % */
    assert_false(goal_level(&g, 0.990, 0.9895, 0.9905)); /* 1 % ahead */
    assert_false(goal_level(&g, 1.000, 0.990, 1.010));   /* even, but its range is 2 % */
    assert_int_equal(goal_screen(&g, 0.998, 0.9975, 0.9985), MEAS_LEVEL);
    assert_int_equal(goal_screen(&g, 1.030, 1.0295, 1.0305), MEAS_BEHIND); /* 3 % behind */
    assert_int_equal(goal_screen(&g, 0.990, 0.9895, 0.9905), MEAS_ON);
    assert_int_equal(goal_screen(&g, 1.000, 0.990, 1.010), MEAS_ON);
    /* 2 % behind with a range of 2 %: not clearly behind, but even its fastest is behind */
    assert_int_equal(goal_screen(&g, 1.020, 1.010, 1.030), MEAS_LEVEL);
    g.have_best = false;
    assert_false(goal_level(&g, 1.0, 1.0, 1.0)); /* no best: nothing is level with it */
    assert_int_equal(goal_screen(&g, 1.0, 1.0, 1.0), MEAS_ON);
    checked_free(c);
}

/* Level in the objective, maximised and per configuration: the time is not what counts. */
static void test_level_per_configuration(void **state)
{
    (void)state;
    checked *c = check_spec(bw_spec);
    assert_non_null(c->m);
    value p1 = value_int(1), p2 = value_int(2);
    goal_state g = goal_of(c->m, &p2, 2 / 2.0e-3, 0); /* the best: p = 2 in 2 ms, 1000 /s */
    g.vals = &p1;
    /* p = 1 in 0.999 ms: 1001 /s, 0.1 % ahead, its range (0.998 to 1 ms) 0.2 % */
    assert_true(goal_level(&g, 0.999, 0.998, 1.000));
    /* p = 1 in 0.99 ms: 1010 /s, 1 % ahead however fast it is */
    assert_false(goal_level(&g, 0.99, 0.9895, 0.9905));
    assert_int_equal(goal_screen(&g, 0.99, 0.9895, 0.9905), MEAS_ON);
    /* p = 1 in 1.98 ms (505 /s): far behind in the objective, though faster than the best */
    assert_int_equal(goal_screen(&g, 1.98, 1.979, 1.981), MEAS_BEHIND);
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

enum { FULL = 10 }; /* samples timed in full at the default settings (repeat 10, a steady GPU) */

/* One race on one GPU, as fleet_race runs it, over contenders of true times truth[0 ..
 * n) ms with noise sd: ordered by three noisy provisional samples each (when `placed`;
 * else as they come), the first timed in full, each next screened after GOAL_SCREEN
 * samples against the best timed in full so far: it stops there when goal_behind says
 * so, or when `level` and goal_level says so; otherwise it is timed on to full
 * statistics (fresh ones stand in) and, when faster, is the new best. The winner's index;
 * *full counts those timed in full; *far and *far_dropped those 3 % or more behind 1.0
 * ms and, of them, those stopped. */
static int simulated_race(const model *m, const double *truth, int n, double sd, bool placed, bool level, long *full,
                          long *far, long *far_dropped)
{
    double placed_at[64], med, lo, hi, q1, q3;
    int order[64];
    for (int i = 0; i < n; i++) {
        samples_of(truth[i], sd, 3, &placed_at[i], &lo, &hi, &q1, &q3);
        int b = i; /* insertion by the provisional median: the likeliest first */
        for (; b > 0 && placed && placed_at[i] < placed_at[order[b - 1]]; b--)
            order[b] = order[b - 1];
        order[b] = i;
    }
    value one = value_int(1);
    goal_state g = goal_of(m, &one, 0, 0);
    g.have_best = false;
    int winner = -1;
    for (int k = 0; k < n; k++) {
        int i = order[k];
        *far += truth[i] >= 1.03;
        samples_of(truth[i], sd, g.have_best ? GOAL_SCREEN : FULL, &med, &lo, &hi, &q1, &q3);
        if (g.have_best && (goal_behind(&g, med, lo, hi) || (level && goal_level(&g, med, lo, hi)))) {
            *far_dropped += truth[i] >= 1.03;
            continue;
        }
        ++*full;
        if (g.have_best) /* timed on to the full count: fresh statistics stand in */
            samples_of(truth[i], sd, FULL, &med, &lo, &hi, &q1, &q3);
        if (!g.have_best || med < g.best) {
            g.have_best = true;
            g.best = med;
            assert_int_equal(goal_best_range(&g, q1, q3, &g.best_range), 0);
            winner = i;
        }
    }
    return winner;
}

/* Contenders within 5 % of the best, as a final race meets them: the true best 1.0 ms,
 * ahead by 1.5 % (three times its noise or more); the others spread from 1.5 % to 5 %
 * behind. Over many races (the contenders placed by their provisional samples in every
 * other one, in their order otherwise, so the best comes anywhere) and three noise
 * levels, the winner is always the true best (and so the full race's whenever that is
 * beyond its noise), and most of those 3 % or more behind stop after GOAL_SCREEN
 * samples. */
static void test_simulated_races_keep_the_best(void **state)
{
    (void)state;
    checked *c = check_spec(time_spec);
    assert_non_null(c->m);
    enum { N = 23, RACES = 2000 };
    const double sds[] = {0.001, 0.003, 0.005};
    rng_state = 0x9E3779B97F4A7C15ULL;
    long far = 0, far_dropped = 0, timed_in_full = 0, races = 0;
    for (size_t s = 0; s < sizeof sds / sizeof *sds; s++)
        for (int race = 0; race < RACES; race++, races++) {
            double truth[N];
            for (int i = 0; i < N; i++)
                truth[i] = i == race % N ? 1.0 : 1.015 + 0.035 * (double)i / (N - 1);
            int winner =
                simulated_race(c->m, truth, N, sds[s], race % 2 == 0, true, &timed_in_full, &far, &far_dropped);
            if (winner != race % N)
                fail_msg("noise %.3f, race %d: #%d won, not the true best #%d", sds[s], race, winner, race % N);
        }
    /* the screening earns its cost: most of those clearly behind stop early */
    assert_true(far_dropped * 10 >= far * 7);
    assert_true(timed_in_full < races * N / 2);
    checked_free(c);
}

/* Many contenders level, as on a memory-bound kernel at the GPU's bandwidth: the true
 * best 1.0 ms, eight more within 0.4 % of it, the rest 1 % to 5 % behind, on steady GPUs
 * (noise 0.03 % to 0.2 %, and now and then a slow outlier). Stopping the level ones,
 * every race's winner is still within the floor (0.5 %, and a little noise) of the true
 * best, and fewer are timed in full than when only those clearly behind stop: on the
 * steadiest GPU fewer than half as many, overall a third fewer (an outlier among a
 * contender's samples widens its range past the floor: it is timed on). */
static void test_simulated_ties_stop_early(void **state)
{
    (void)state;
    checked *c = check_spec(time_spec);
    assert_non_null(c->m);
    enum { N = 23, LEVEL = 8, RACES = 1000, NOISES = 3 };
    const double sds[NOISES] = {0.0003, 0.001, 0.002};
    rng_state = 0x2545F4914F6CDD1DULL;
    long with_level[NOISES] = {0}, behind_only[NOISES] = {0}, far = 0, dropped = 0;
    long all_with = 0, all_without = 0;
    for (int s = 0; s < NOISES; s++) {
        for (int race = 0; race < RACES; race++) {
            double truth[N];
            for (int i = 0; i < N; i++) {
                int j = (i + race) % N; /* the true best at any index */
                truth[i] = j == 0 ? 1.0 : j <= LEVEL ? 1.0 + 0.004 * uniform() : 1.01 + 0.04 * (double)j / (N - 1);
            }
            bool placed = race % 2 == 0; /* else as they come: the true best anywhere in the order */
            int winner = simulated_race(c->m, truth, N, sds[s], placed, true, &with_level[s], &far, &dropped);
            if (truth[winner] > 1.006)
                fail_msg("noise %.4f, race %d: the winner's true time is %.4f ms, the best's 1.0", sds[s], race,
                         truth[winner]);
            (void)simulated_race(c->m, truth, N, sds[s], placed, false, &behind_only[s], &far, &dropped);
        }
        all_with += with_level[s];
        all_without += behind_only[s];
    }
    assert_true(behind_only[0] > RACES * LEVEL / 2); /* most of the level ones, without the rule */
    assert_true(with_level[0] * 2 < behind_only[0]);
    assert_true(all_with * 3 < all_without * 2);
    checked_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_objective),
        cmocka_unit_test(test_objective_per_configuration),
        cmocka_unit_test(test_level_with_the_best),
        cmocka_unit_test(test_level_per_configuration),
        cmocka_unit_test(test_simulated_races_keep_the_best),
        cmocka_unit_test(test_simulated_ties_stop_early),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
