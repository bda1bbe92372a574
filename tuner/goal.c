/* goal.c - the objective, the metrics and the best so far (goal.h). Pure: called in
 * the tuner and in the GPU worker alike. */
#include <math.h>

#include "../compiler/eval.h"
#include "goal.h"

int goal_objective(const goal_state *g, double median_ms, double *out)
{
    if (!g->m->objective) {
        *out = median_ms;
        return 0;
    }
    eval_env env = {g->m, g->vals, true, median_ms * 1e-3, NULL, g->has_energy, g->energy_j, g->power_w};
    value v;
    eval_error e;
    if (eval_expr(g->m->objective, &env, &v, &e) < 0)
        return -1;
    *out = value_as_double(v);
    return 0;
}

void goal_metrics(const goal_state *g, double median_ms, double *out)
{
    eval_env env = {g->m, g->vals, true, median_ms * 1e-3, NULL, g->has_energy, g->energy_j, g->power_w};
    for (int i = 0; i < g->m->nmetrics; i++) {
        value mv;
        eval_error e;
        out[i] = eval_expr(g->m->metrics[i].expr, &env, &mv, &e) < 0 ? NAN : value_as_double(mv);
    }
}

bool goal_better(const goal_state *g, double a, double b)
{
    return g->m->maximize ? a > b : a < b;
}

bool goal_worse(void *ctx, double ms, double factor)
{
    const goal_state *g = ctx;
    double v;
    if (!g->have_best || factor <= 0 || goal_objective(g, ms, &v) < 0)
        return false;
    return g->m->maximize ? v * factor < g->best : v > g->best * factor;
}

int goal_range(const goal_state *g, double min_ms, double max_ms, double *out)
{
    double fast, slow;
    if (goal_objective(g, min_ms, &fast) < 0 || goal_objective(g, max_ms, &slow) < 0 || !isfinite(fast) ||
        !isfinite(slow))
        return -1;
    *out = fabs(fast - slow);
    return 0;
}

int goal_best_range(const goal_state *g, double q1_ms, double q3_ms, double *out)
{
    double half = (q3_ms - q1_ms) / 2;
    return goal_range(g, q1_ms - half > 0 ? q1_ms - half : q1_ms, q3_ms + half, out);
}

bool goal_behind(void *ctx, double median_ms, double min_ms, double max_ms)
{
    const goal_state *g = ctx;
    double v, range;
    if (!g->have_best || !isfinite(g->best) || goal_objective(g, median_ms, &v) < 0 || !isfinite(v) ||
        goal_range(g, min_ms, max_ms, &range) < 0 || !goal_better(g, g->best, v))
        return false;
    double gap = fabs(v - g->best);
    return gap > range + g->best_range && gap > GOAL_SCREEN_FLOOR * fabs(g->best);
}

bool goal_level(void *ctx, double median_ms, double min_ms, double max_ms)
{
    const goal_state *g = ctx;
    double v, range;
    if (!g->have_best || !isfinite(g->best) || goal_objective(g, median_ms, &v) < 0 || !isfinite(v) ||
        goal_range(g, min_ms, max_ms, &range) < 0)
        return false;
    double ahead = g->m->maximize ? v - g->best : g->best - v; /* < 0: behind */
    return ahead + range + g->best_range <= GOAL_SCREEN_FLOOR * fabs(g->best);
}

meas_verdict goal_screen(void *ctx, double median_ms, double min_ms, double max_ms)
{
    if (goal_behind(ctx, median_ms, min_ms, max_ms))
        return MEAS_BEHIND;
    return goal_level(ctx, median_ms, min_ms, max_ms) ? MEAS_LEVEL : MEAS_ON;
}
