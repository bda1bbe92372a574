/* goal.h - the objective, the metrics and the best so far: pure evaluations of the
 * spec's expressions at a median time. Used in both processes: the tuner judges
 * outcomes with them (finish.c, run.c), the GPU worker evaluates a variant's objective
 * and metrics, prunes the race with goal_worse and screens the final race's contenders
 * with goal_screen (gw_main.c). */
#ifndef CUTUNE_TUNER_GOAL_H
#define CUTUNE_TUNER_GOAL_H

#include <stdbool.h>

#include "../compiler/model.h"
#include "../runtime/measure.h"

/* The race's contender margin: a variant whose fastest sample is 5 % worse than the best
 * cannot win and needs no full statistics; one within it is timed in full, at the end of
 * the run (the final race, run.c). */
#define GOAL_CONTEND 1.05

/* The final race's screening (goal_screen): after GOAL_SCREEN warm samples a
 * contender stops, pruned, when its objective at the median is behind the race's best
 * by more than both their ranges put together and by more than GOAL_SCREEN_FLOOR of
 * the best (goal_behind); it stops, pruned and tied, when it is not ahead of the best
 * by more than GOAL_SCREEN_FLOOR even at the favourable end of both ranges (goal_level):
 * the race cannot tell the two apart, and the place stays with the best, timed in
 * full. The floor: samples of identical times (a steady GPU, the timer's resolution)
 * do not make a 0.1 % difference clear, and the contenders are timed one after another,
 * so a slow drift of the GPU's speed is in no range. Three samples, as a contender is
 * placed by (PROVISIONAL, gpu.c): a median that one outlier does not move, and a range
 * that the rule adds to the gap; five cost two samples more a contender (on sum_matrix,
 * 2.3 ms each of 20 screened out) and, simulated (test_screen.c), lost no more winners.
 * The drift, what the floor is for, is no smaller over five samples. */
#define GOAL_SCREEN 3
#define GOAL_SCREEN_FLOOR 0.005

typedef struct goal_state {
    const model *m;
    const value *vals; /* the configuration judged (borrowed) */
    double prune;      /* the race prunes what is this much worse than the best; <= 0: never */
    bool have_best;
    double best;              /* the best objective so far */
    bool has_energy;          /* the configuration judged has its energy measured: */
    double energy_j, power_w; /* per launch, and mean power */
    double best_range;        /* the best's noise in the objective (goal_best_range; >= 0),
                                 for goal_behind and goal_level */
} goal_state;

/* goal_objective: the objective at a median time (ms): the time itself, or the spec's
 * objective for g->vals. 0, or -1 when it cannot be evaluated. */
int goal_objective(const goal_state *g, double median_ms, double *out);

/* goal_metrics: each metric at the median time into out (NaN where one fails). */
void goal_metrics(const goal_state *g, double median_ms, double *out);

/* goal_better: whether objective a beats b (the spec says which way). */
bool goal_better(const goal_state *g, double a, double b);

/* goal_worse: meas_settings' worse callback (ctx: a goal_state): true when the
 * objective at `ms` is worse than the best so far by more than `factor` (> 0); false
 * without a best, or when the objective cannot be evaluated. */
bool goal_worse(void *ctx, double ms, double factor);

/* goal_range: the objective's range over samples from min_ms to max_ms (for g->vals):
 * |objective(min_ms) - objective(max_ms)| into *out. 0, or -1 when either cannot be
 * evaluated or is not finite. */
int goal_range(const goal_state *g, double min_ms, double max_ms, double *out);

/* goal_best_range: the race's best's noise, for goal_behind: the objective's range over
 * times from q1 - (q3 - q1) / 2 to q3 + (q3 - q1) / 2 (from q1 when that is not above 0),
 * twice its interquartile range: about the range of ten samples of Gaussian noise, but
 * not widened by one slow outlier among its samples. 0 or -1 as goal_range. */
int goal_best_range(const goal_state *g, double q1_ms, double q3_ms, double *out);

/* goal_behind: true when the objective at median_ms is worse than the best by more
 * than goal_range(min_ms, max_ms) + g->best_range and by more than GOAL_SCREEN_FLOOR of
 * the best; false without a best, or when an objective cannot be evaluated. ctx: a
 * goal_state. */
bool goal_behind(void *ctx, double median_ms, double min_ms, double max_ms);

/* goal_level: true when the objective at median_ms is not better than the best by more
 * than GOAL_SCREEN_FLOOR of the best even with goal_range(min_ms, max_ms) +
 * g->best_range added in its favour: wherever in both their noise the truth lies, it
 * is not ahead by more than the race can tell apart (one behind by less than the floor
 * and the noise, which goal_behind keeps, is level too). False without a best, or when
 * an objective cannot be evaluated. ctx: a goal_state. */
bool goal_level(void *ctx, double median_ms, double min_ms, double max_ms);

/* goal_screen: meas_settings' judge (ctx: a goal_state): MEAS_BEHIND when goal_behind,
 * MEAS_LEVEL when goal_level, else MEAS_ON. */
meas_verdict goal_screen(void *ctx, double median_ms, double min_ms, double max_ms);

#endif
