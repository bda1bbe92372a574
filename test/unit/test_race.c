/* test_race.c - the race's decisions (runtime/measure.h: meas_race_cold,
 * meas_race_next) without a GPU: a clear loser stops on its cold checked run, a short
 * kernel's cold outlier does not, a variant that cannot win stops after two samples, a
 * long kernel's cold sample counts as one of the two that give a variant up (a slow warm
 * one alone does not), a contender gets min_reps and the spread rule, max_reps bounds it, nothing stops
 * early without a best or with pruning off, and the final race's screening asks once,
 * after its count of samples, and stops a contender behind (pruned) or level (tied). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runtime/measure.h"

/* A best so far of `best` ms, time as the objective (minimised). */
typedef struct judge {
    bool have_best;
    double best;
    int asked;
} judge;

static bool worse(void *ctx, double ms, double factor)
{
    judge *j = ctx;
    j->asked++;
    return j->have_best && ms > j->best * factor;
}

static meas_settings settings(judge *j)
{
    meas_settings s = {3, 3, 20, 0.02, true, 0.05, worse, j, 1.5, 1.05, 0, NULL, NULL, 0};
    return s;
}

/* Statistics of n samples, as meas_time keeps them (only what the rules read). */
static meas_times times(double median, double min, double spread, int reps)
{
    meas_times t;
    memset(&t, 0, sizeof t);
    t.median_ms = median;
    t.min_ms = min;
    t.spread = spread;
    t.reps = reps;
    return t;
}

static void test_cold_prunes_a_clear_loser(void **state)
{
    (void)state;
    judge j = {true, 1.0, 0};
    meas_settings s = settings(&j);
    assert_true(meas_race_cold(&s, 8.0));   /* 8x the best */
    assert_true(meas_race_cold(&s, 1.61));  /* 1.51 after the cold allowance: still beyond 1.5x */
    assert_false(meas_race_cold(&s, 1.59)); /* within the allowance of the factor: timed on */
    assert_false(meas_race_cold(&s, 1.2));
}

static void test_cold_outlier_of_a_short_kernel_is_not_trusted(void **state)
{
    (void)state;
    judge j = {true, 0.007, 0}; /* a 7 us best; the cold launch of a 7 us kernel took 50 us */
    meas_settings s = settings(&j);
    assert_false(meas_race_cold(&s, 0.05));
    assert_false(meas_race_cold(&s, MEAS_COLD_MS));       /* nothing left after the allowance */
    assert_true(meas_race_cold(&s, MEAS_COLD_MS + 0.02)); /* 20 us beyond it: 3x the best */
}

static void test_nothing_stops_without_a_best_or_pruning(void **state)
{
    (void)state;
    judge j = {false, 0, 0};
    meas_settings s = settings(&j);
    assert_false(meas_race_cold(&s, 100.0));
    meas_times t = times(100.0, 99.0, 0.5, 2);
    assert_int_equal(meas_race_next(&s, &t), MEAS_MORE); /* spread too wide, under max_reps */
    j.have_best = true;
    j.best = 1.0;
    s.prune = 0;
    s.contend = 0; /* --prune -1 */
    assert_false(meas_race_cold(&s, 100.0));
    assert_int_equal(meas_race_next(&s, &t), MEAS_MORE);
    s.worse = NULL;
    s.prune = 1.5;
    s.contend = 1.05;
    assert_false(meas_race_cold(&s, 100.0));
    assert_int_equal(meas_race_next(&s, &t), MEAS_MORE);
}

/* A long kernel: its cold sample, less the allowance, and one warm sample both 20 %
 * behind give it up, as two warm samples would; either one alone does not. */
static void test_cold_sample_counts_for_the_contend_rule(void **state)
{
    (void)state;
    judge j = {true, 5.0, 0};
    meas_settings s = settings(&j);
    meas_times t = times(6.0, 6.0, 0, 1);
    t.cold_ms = 6.2; /* 5.83 after the allowance (6 %): 17 % behind, not the 50 % of meas_race_cold */
    assert_false(meas_race_cold(&s, t.cold_ms));
    assert_int_equal(meas_race_next(&s, &t), MEAS_PRUNED);
    t.cold_ms = 5.5; /* 5.17 after it: within 5 %, so the slow warm sample may be an outlier */
    assert_int_equal(meas_race_next(&s, &t), MEAS_MORE);
    t = times(5.1, 5.1, 0, 1);
    t.cold_ms = 6.2; /* a slow cold sample, a warm one within 5 %: timed on */
    assert_int_equal(meas_race_next(&s, &t), MEAS_MORE);
    t = times(6.0, 6.0, 0, 1);
    t.cold_ms = MEAS_COLD_MS; /* nothing left of it after the allowance: one sample is not two */
    assert_int_equal(meas_race_next(&s, &t), MEAS_MORE);
    t.cold_ms = 0; /* none */
    assert_int_equal(meas_race_next(&s, &t), MEAS_MORE);
    t.cold_ms = 5.7; /* 5.358: 7 % behind, but 5.7 - MEAS_COLD_MS alone would be 12 % */
    assert_true(meas_cold_allowance(5.7) > MEAS_COLD_MS);
    assert_int_equal(meas_race_next(&s, &t), MEAS_PRUNED);
    t.cold_ms = 5.55; /* 5.217 after the 6 %: within 5 % (5.45 with MEAS_COLD_MS alone would not be) */
    assert_int_equal(meas_race_next(&s, &t), MEAS_MORE);
    s.contend = 0; /* --prune -1 */
    s.prune = 0;
    t.cold_ms = 6.2;
    assert_int_equal(meas_race_next(&s, &t), MEAS_MORE);
}

static void test_warm_samples(void **state)
{
    (void)state;
    judge j = {true, 1.0, 0};
    meas_settings s = settings(&j);
    /* No sample yet: more. */
    meas_times t = times(0, 0, 0, 0);
    assert_int_equal(meas_race_next(&s, &t), MEAS_MORE);
    /* One warm sample 1.6x the best: pruned by the factor at once. */
    t = times(1.6, 1.6, 0, 1);
    assert_int_equal(meas_race_next(&s, &t), MEAS_PRUNED);
    /* One sample 20 % behind: one sample is not enough to give up on it... */
    t = times(1.2, 1.2, 0, 1);
    assert_int_equal(meas_race_next(&s, &t), MEAS_MORE);
    /* ...two whose fastest is still 20 % behind are: it cannot win. */
    t = times(1.25, 1.2, 0.05, 2);
    assert_int_equal(meas_race_next(&s, &t), MEAS_PRUNED);
    /* A contender (fastest within 5 %) gets the full statistics: min_reps... */
    t = times(1.03, 1.01, 0.0, 2);
    assert_int_equal(meas_race_next(&s, &t), MEAS_MORE);
    t = times(1.03, 1.01, 0.01, 3);
    assert_int_equal(meas_race_next(&s, &t), MEAS_DONE);
    /* ...and the spread rule past them, up to max_reps. */
    t = times(1.03, 1.01, 0.1, 3);
    assert_int_equal(meas_race_next(&s, &t), MEAS_MORE);
    t = times(1.03, 1.01, 0.1, 19);
    assert_int_equal(meas_race_next(&s, &t), MEAS_MORE);
    t = times(1.03, 1.01, 0.1, 20);
    assert_int_equal(meas_race_next(&s, &t), MEAS_DONE);
    /* A new best (faster than the best so far) is timed in full as well. */
    t = times(0.5, 0.49, 0.1, 2);
    assert_int_equal(meas_race_next(&s, &t), MEAS_MORE);
    t = times(0.5, 0.49, 0.01, 3);
    assert_int_equal(meas_race_next(&s, &t), MEAS_DONE);
    /* max_reps 0 reads as 1. */
    s.max_reps = 0;
    t = times(1.0, 1.0, 0.5, 1);
    assert_int_equal(meas_race_next(&s, &t), MEAS_DONE);
    assert_true(j.asked > 0);
}

/* With provisional set, a contender stops after that many samples, marked provisional;
 * a loser is still pruned first, and a variant done by the spread rule is done. */
static void test_provisional(void **state)
{
    (void)state;
    judge j = {true, 10.0, 0};
    meas_settings s = settings(&j);
    s.min_reps = 10;
    s.provisional = 3;
    meas_times t = times(10.2, 10.1, 0.01, 2);
    assert_int_equal(meas_race_next(&s, &t), MEAS_MORE); /* two samples: not yet placed */
    t = times(10.2, 10.1, 0.01, 3);
    assert_int_equal(meas_race_next(&s, &t), MEAS_PROVISIONAL); /* a contender, placed */
    t = times(9.0, 8.9, 0.01, 3);
    assert_int_equal(meas_race_next(&s, &t), MEAS_PROVISIONAL); /* a new best: also for later */
    t = times(10.9, 10.8, 0.01, 3);
    assert_int_equal(meas_race_next(&s, &t), MEAS_PRUNED); /* 8 % behind: cannot win */
    s.min_reps = 3;
    t = times(10.2, 10.1, 0.01, 3);
    assert_int_equal(meas_race_next(&s, &t), MEAS_DONE); /* done by the spread rule first */
    s.provisional = 0;
    s.min_reps = 10;
    assert_int_equal(meas_race_next(&s, &t), MEAS_MORE); /* off: full statistics now */
}

/* screen_judge's answer, and how often and with what it was asked */
typedef struct screener {
    meas_verdict answer;
    int asked;
    double median, min, max;
} screener;

static meas_verdict screen_judge(void *ctx, double median_ms, double min_ms, double max_ms)
{
    screener *sc = ctx;
    sc->asked++;
    sc->median = median_ms;
    sc->min = min_ms;
    sc->max = max_ms;
    return sc->answer;
}

/* The final race's screening: the judge is asked once, after exactly `screen` samples, with
 * their statistics; behind, the contender stops pruned; level, it stops tied; else it is
 * timed on to full statistics as before. Without a callback or a count, never asked. */
static void test_screening(void **state)
{
    (void)state;
    judge j = {false, 0, 0}; /* the final race: no best for worse, no prune factors */
    meas_settings s = settings(&j);
    s.prune = s.contend = 0;
    s.min_reps = 10;
    screener sc = {MEAS_BEHIND, 0, 0, 0, 0};
    s.judge = screen_judge;
    s.judge_ctx = &sc;
    s.screen = 5;
    for (int reps = 1; reps < 5; reps++) {
        meas_times t = times(1.1, 1.05, 0.01, reps);
        assert_int_equal(meas_race_next(&s, &t), MEAS_MORE);
    }
    assert_int_equal(sc.asked, 0);
    meas_times t = times(1.1, 1.05, 0.01, 5);
    t.max_ms = 1.2;
    assert_int_equal(meas_race_next(&s, &t), MEAS_PRUNED);
    assert_int_equal(sc.asked, 1);
    assert_true(sc.median == 1.1 && sc.min == 1.05 && sc.max == 1.2);
    sc.answer = MEAS_LEVEL; /* level with the best: it stops, tied */
    assert_int_equal(meas_race_next(&s, &t), MEAS_TIED);
    sc.answer = MEAS_ON; /* neither: on to the full statistics */
    assert_int_equal(meas_race_next(&s, &t), MEAS_MORE);
    for (int reps = 6; reps < 10; reps++) {
        t = times(1.1, 1.05, 0.01, reps);
        assert_int_equal(meas_race_next(&s, &t), MEAS_MORE);
    }
    t = times(1.1, 1.05, 0.01, 10);
    assert_int_equal(meas_race_next(&s, &t), MEAS_DONE);
    assert_int_equal(sc.asked, 3); /* only at `screen` samples, each time */
    sc.answer = MEAS_BEHIND;
    s.screen = 0;
    t = times(1.1, 1.05, 0.01, 5);
    assert_int_equal(meas_race_next(&s, &t), MEAS_MORE);
    s.screen = 5;
    s.judge = NULL;
    assert_int_equal(meas_race_next(&s, &t), MEAS_MORE);
    assert_int_equal(sc.asked, 3);
    /* done at the screening's count (repeat 5, a small spread): timed in full, not asked */
    s.judge = screen_judge;
    s.min_reps = 5;
    sc.answer = MEAS_LEVEL;
    assert_int_equal(meas_race_next(&s, &t), MEAS_DONE);
    t.max_ms = 1.2;
    t.spread = 0.5; /* not done by the spread rule: screened */
    assert_int_equal(meas_race_next(&s, &t), MEAS_TIED);
    s.min_reps = 10;
    s.max_reps = 5; /* done by max_repeat: not asked */
    assert_int_equal(meas_race_next(&s, &t), MEAS_DONE);
    assert_int_equal(sc.asked, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cold_prunes_a_clear_loser),
        cmocka_unit_test(test_cold_outlier_of_a_short_kernel_is_not_trusted),
        cmocka_unit_test(test_nothing_stops_without_a_best_or_pruning),
        cmocka_unit_test(test_cold_sample_counts_for_the_contend_rule),
        cmocka_unit_test(test_warm_samples),
        cmocka_unit_test(test_provisional),
        cmocka_unit_test(test_screening),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
