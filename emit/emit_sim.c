/* emit_sim.c - a simulation report (results/replay.c) as the JSON `cutune simulate
 * --format json` prints (see emit_text.h; the fields are in docs/cli.md). */
#include "emit_text.h"

#include <jansson.h>
#include <math.h>

/* A number, or null when it is not finite (JSON has no NaN). */
static json_t *num(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* A count, or null when it is 0 (no limit). */
static json_t *count_or_null(uint64_t n)
{
    return n ? json_integer((json_int_t)n) : json_null();
}

/* A figure of a run that found something, else null. */
static json_t *found(const cutune_sim_run *u, json_t *v)
{
    if (u->found)
        return v;
    json_decref(v);
    return json_null();
}

static json_t *run_object(const cutune_sim_run *u)
{
    return json_pack("{s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:s*}", "seed", (json_int_t)u->seed, "evaluations",
                     (json_int_t)u->evaluations, "screened", (json_int_t)u->screened, "best", found(u, num(u->best)),
                     "best_index", found(u, json_integer((json_int_t)u->best_index)), "best_at",
                     found(u, json_integer((json_int_t)u->best_at)), "ratio", num(u->ratio), "simulated_seconds",
                     num(u->seconds), "bound_seconds", num(u->bound_seconds), "stop_reason", u->stop_reason);
}

int emit_sim_json(char **out, const cutune_sim_report *r, const char *results_path, int threads)
{
    json_t *runs = json_array();
    for (int i = 0; i < r->nruns; i++)
        json_array_append_new(runs, run_object(&r->runs[i]));
    json_t *o = json_pack(
        "{s:s*, s:i, s:s*, s:I, s:o, s:o, s:o, s:I, s:I, s:s*, s:s, s:o, s:I, s:o, s:{s:o, s:o, s:o, s:o, s:o, s:o}}",
        "results", results_path, "threads", threads, "strategy", r->strategy, "seed", (json_int_t)r->seed, "budget",
        count_or_null(r->budget), "time_budget_s", r->time_limit_s > 0 ? json_real(r->time_limit_s) : json_null(),
        "patience", count_or_null(r->patience), "space", (json_int_t)r->space, "recorded_ok",
        (json_int_t)r->recorded_ok, "objective", r->objective_name, "direction", r->maximize ? "maximize" : "minimize",
        "true_best", num(r->true_best), "true_best_index", (json_int_t)r->true_best_index, "runs", runs, "ratio",
        "median", num(r->median), "q1", num(r->q1), "q3", num(r->q3), "min", num(r->min), "max", num(r->max),
        "median_evaluations", num(r->median_evaluations));
    *out = o ? json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
    json_decref(o);
    return *out ? CUTUNE_OK : CUTUNE_ENOMEM;
}
