/* t4.c - a tuning result in Kernel Tuner's T4 results format (see emit.h; documented
 * in docs/results-format.md; the schema is Kernel Tuner's
 * kernel_tuner/schema/T4/1.0.0/results-schema.json). */
#include "emitters.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../results/record.h"

/* The T4 invalidity of a status: "correct", "compile", "runtime", "timeout",
 * "correctness" or "constraints". */
static const char *invalidity(outcome o)
{
    switch (o) {
    case OUTCOME_OK: return "correct";
    case OUTCOME_WRONG: return "correctness";
    case OUTCOME_COMPILE_ERROR: return "compile";
    case OUTCOME_TIMEOUT: return "timeout";
    case OUTCOME_NOT_RUN: return "constraints";
    case OUTCOME_CANNOT_LAUNCH:
    case OUTCOME_LOAD_ERROR:
    case OUTCOME_LAUNCH_ERROR:
    case OUTCOME_CRASHED: break;
    }
    return "runtime";
}

static void measure(json_t *list, const char *name, json_t *val, const char *unit)
{
    json_t *o = json_object();
    json_object_set_new(o, "name", json_string(name));
    json_object_set_new(o, "value", val);
    json_object_set_new(o, "unit", json_string(unit));
    json_array_append_new(list, o);
}

static void measure_num(json_t *list, const char *name, double v, const char *unit)
{
    if (isfinite(v))
        measure(list, name, record_number(v), unit);
}

static json_t *t4_result(const cutune_tune_result *r, uint64_t i)
{
    const record *rec = r->records[i];
    const cutune_measurement *m = &rec->m;
    const cutune_variant *v = m->variant;
    const cutune_tune_summary *s = &r->summary;
    json_t *o = json_object();
    json_object_set_new(o, "timestamp", json_string(r->date ? r->date : ""));
    json_t *conf = json_object();
    for (int p = 0; p < v->nparams; p++)
        json_object_set_new(conf, r->param_names[p], record_typed_json(v->values[p], v->types[p]));
    json_object_set_new(o, "configuration", conf);
    if (r->nsizes > 0 && rec->size >= 0 && rec->size < r->nsizes) /* not in the schema: allowed as an extra key */
        json_object_set_new(o, "problem_size", record_size_json(r->sizes[rec->size]));
    json_t *objectives = json_array();
    json_array_append_new(objectives, json_string(s->objective_name));
    json_object_set_new(o, "objectives", objectives);
    json_t *times = json_object();
    json_object_set_new(times, "compilation_time", record_number(m->compile_seconds * 1e3));
    json_t *runtimes = json_array();
    if (m->timed && isfinite(m->median_ms))
        json_array_append_new(runtimes, record_number(m->median_ms));
    json_object_set_new(times, "runtimes", runtimes);
    json_object_set_new(times, "framework", record_number(fmax(0, m->gpu_seconds - m->timing_seconds) * 1e3));
    json_object_set_new(o, "times", times);
    json_object_set_new(o, "invalidity", json_string(invalidity(rec->out)));
    json_object_set_new(o, "correctness", json_integer(rec->out == OUTCOME_OK ? 1 : 0));
    json_t *ms = json_array();
    if (m->timed) {
        measure_num(ms, "time_ms", m->median_ms, "ms");
        measure_num(ms, "time_min_ms", m->min_ms, "ms");
        measure_num(ms, "time_max_ms", m->max_ms, "ms");
        measure_num(ms, "time_q1_ms", m->q1_ms, "ms");
        measure_num(ms, "time_q3_ms", m->q3_ms, "ms");
        measure_num(ms, "spread", m->spread, "");
        measure(ms, "reps", json_integer(m->reps), "");
        measure(ms, "batch", json_integer(m->batch), "");
        measure(ms, "pruned", json_integer(m->pruned), "");
        bool objective_listed = strcmp(s->objective_name, "time_ms") == 0;
        for (int k = 0; k < r->nmetrics; k++) {
            measure_num(ms, r->metric_names[k], m->metrics[k], "");
            objective_listed |= strcmp(r->metric_names[k], s->objective_name) == 0;
        }
        if (!objective_listed)
            measure_num(ms, s->objective_name, m->objective, "");
    }
    measure(ms, "registers", json_integer(m->registers), "");
    measure(ms, "static_smem", json_integer((json_int_t)m->static_smem), "B");
    measure(ms, "local_bytes", json_integer((json_int_t)m->local_bytes), "B");
    measure(ms, "spill_stores", json_integer((json_int_t)m->spill_stores), "B");
    measure(ms, "spill_loads", json_integer((json_int_t)m->spill_loads), "B");
    measure_num(ms, "occupancy", m->occupancy, "");
    measure(ms, "cutune_status", json_string(outcome_name(rec->out)), "");
    if (m->verified)
        measure_num(ms, "max_abs_error", m->max_abs_error, "");
    json_object_set_new(o, "measurements", ms);
    return o;
}

static json_t *t4_metadata(const cutune_tune_result *r, const char *version)
{
    const cutune_tune_summary *s = &r->summary;
    json_t *query = json_object();
    json_object_set_new(query, "cutune", record_device_json(r));
    json_t *reqs = json_array();
    char req[64];
    snprintf(req, sizeof req, "cutune==%s", version);
    json_array_append_new(reqs, json_string(req));
    json_t *env = json_object();
    json_object_set_new(env, "device_query", query);
    json_object_set_new(env, "requirements", reqs);
    json_t *tuning = json_object();
    json_object_set_new(tuning, "spec", json_string(r->spec_path ? r->spec_path : ""));
    json_object_set_new(tuning, "kernel", json_string(r->kernel ? r->kernel : ""));
    json_object_set_new(tuning, "date", json_string(r->date ? r->date : ""));
    json_object_set_new(tuning, "strategy", json_string(r->strategy ? r->strategy : ""));
    json_object_set_new(tuning, "objective", json_string(s->objective_name));
    json_object_set_new(tuning, "direction", json_string(s->maximize ? "maximize" : "minimize"));
    json_object_set_new(tuning, "best", s->best >= 0 ? json_integer((json_int_t)s->best) : json_null());
    json_t *meta = json_object();
    json_object_set_new(meta, "environment", env);
    json_object_set_new(meta, "cutune", tuning);
    return meta;
}

int emit_t4(char **out, const cutune_tune_result *r, const char *version)
{
    json_t *root = json_object();
    json_object_set_new(root, "schema_version", json_string("1.0.0"));
    json_t *results = json_array();
    for (uint64_t i = 0; i < r->n; i++)
        json_array_append_new(results, t4_result(r, i));
    json_object_set_new(root, "results", results);
    json_object_set_new(root, "metadata", t4_metadata(r, version));
    *out = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (!*out)
        return CUTUNE_ENOMEM;
    /* jansson's buffer comes from its own allocator (malloc by default); hand back one
     * that the caller frees in any case. */
    size_t len = strlen(*out);
    char *copy = malloc(len + 2);
    if (copy) {
        memcpy(copy, *out, len);
        copy[len] = '\n';
        copy[len + 1] = '\0';
    }
    free(*out);
    *out = copy;
    return copy ? CUTUNE_OK : CUTUNE_ENOMEM;
}
