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

static json_t *run_object(const cutune_sim_run *u)
{
    json_t *x = json_object();
    json_object_set_new(x, "seed", json_integer((json_int_t)u->seed));
    json_object_set_new(x, "evaluations", json_integer((json_int_t)u->evaluations));
    json_object_set_new(x, "screened", json_integer((json_int_t)u->screened));
    json_object_set_new(x, "best", u->found ? num(u->best) : json_null());
    json_object_set_new(x, "best_index", u->found ? json_integer((json_int_t)u->best_index) : json_null());
    json_object_set_new(x, "best_at", u->found ? json_integer((json_int_t)u->best_at) : json_null());
    json_object_set_new(x, "ratio", num(u->ratio));
    json_object_set_new(x, "simulated_seconds", num(u->seconds));
    json_object_set_new(x, "bound_seconds", num(u->bound_seconds));
    json_object_set_new(x, "stop_reason", json_string(u->stop_reason));
    return x;
}

int emit_sim_json(char **out, const cutune_sim_report *r, const char *results_path, int threads)
{
    json_t *o = json_object();
    json_object_set_new(o, "results", json_string(results_path));
    json_object_set_new(o, "threads", json_integer(threads));
    json_object_set_new(o, "strategy", json_string(r->strategy));
    json_object_set_new(o, "seed", json_integer((json_int_t)r->seed));
    json_object_set_new(o, "budget", count_or_null(r->budget));
    json_object_set_new(o, "time_budget_s", r->time_limit_s > 0 ? json_real(r->time_limit_s) : json_null());
    json_object_set_new(o, "patience", count_or_null(r->patience));
    json_object_set_new(o, "space", json_integer((json_int_t)r->space));
    json_object_set_new(o, "recorded_ok", json_integer((json_int_t)r->recorded_ok));
    json_object_set_new(o, "objective", json_string(r->objective_name));
    json_object_set_new(o, "direction", json_string(r->maximize ? "maximize" : "minimize"));
    json_object_set_new(o, "true_best", num(r->true_best));
    json_object_set_new(o, "true_best_index", json_integer((json_int_t)r->true_best_index));
    json_t *runs = json_array();
    for (int i = 0; i < r->nruns; i++)
        json_array_append_new(runs, run_object(&r->runs[i]));
    json_object_set_new(o, "runs", runs);
    json_t *sum = json_object();
    json_object_set_new(sum, "median", num(r->median));
    json_object_set_new(sum, "q1", num(r->q1));
    json_object_set_new(sum, "q3", num(r->q3));
    json_object_set_new(sum, "min", num(r->min));
    json_object_set_new(sum, "max", num(r->max));
    json_object_set_new(sum, "median_evaluations", num(r->median_evaluations));
    json_object_set_new(o, "ratio", sum);
    *out = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
    return *out ? CUTUNE_OK : CUTUNE_ENOMEM;
}
