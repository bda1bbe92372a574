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
