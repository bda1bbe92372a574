/* goal.h - the objective, the metrics and the best so far: pure evaluations of the
 * spec's expressions at a median time. Used in both processes: the tuner judges
 * outcomes with them (finish.c, run.c), the GPU worker evaluates a variant's objective
 * and metrics and prunes the race with goal_worse (gw_main.c). */
#ifndef CUTUNE_TUNER_GOAL_H
#define CUTUNE_TUNER_GOAL_H

#include <stdbool.h>

#include "../compiler/model.h"

/* The race's contender margin: a variant whose fastest sample is 5 % worse than the best
 * cannot win and needs no full statistics; one within it is timed in full, at the end of
 * the run (the final race, run.c). */
#define GOAL_CONTEND 1.05

typedef struct goal_state {
    const model *m;
    const value *vals; /* the configuration judged (borrowed) */
    double prune;      /* the race prunes what is this much worse than the best; <= 0: never */
    bool have_best;
    double best;              /* the best objective so far */
    bool has_energy;          /* the configuration judged has its energy measured: */
    double energy_j, power_w; /* per launch, and mean power */
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

#endif
