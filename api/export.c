/* export.c - a tuning result as a CSV table (cutune_emit_csv) and in Kernel Tuner's
 * T4 results format (cutune_emit_t4). Both are documented in docs/results-format.md;
 * the T4 schema is Kernel Tuner's kernel_tuner/schema/T4/1.0.0/results-schema.json. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune_result.h"

/* ---- CSV ----------------------------------------------------------------------------- */

/* A field, quoted when it holds a comma, a quote or a line break (RFC 4180). */
static void field(strbuf *o, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        sb_add(o, s);
        return;
    }
    sb_addc(o, '"');
    for (; *s; s++) {
        if (*s == '"')
            sb_addc(o, '"');
        sb_addc(o, *s);
    }
    sb_addc(o, '"');
}

/* A number in the shortest form that reads back equal; empty when not finite. */
static void number(strbuf *o, double d)
{
    char buf[40] = "";
    if (isfinite(d)) {
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(buf, sizeof buf, "%.*g", prec, d);
            if (strtod(buf, NULL) == d)
                break;
        }
    }
    sb_add(o, buf);
}

static void joined_field(strbuf *o, const char *const *items, int n)
{
    strbuf s = STRBUF_INIT;
    for (int i = 0; i < n; i++)
        sb_printf(&s, "%s%s", i ? " " : "", items[i]);
    field(o, sb_cstr(&s));
    sb_free(&s);
}

static const char *const csv_fixed[] = {
    "index", "best", "status", "reason", "kernel", "block_x", "block_y", "block_z", "grid_x", "grid_y", "grid_z",
    "smem_bytes", "registers", "static_smem", "local_bytes", "spill_stores", "spill_loads", "occupancy", "limiter",
    "blocks_per_sm", "driver_blocks_per_sm", "time_ms", "time_min_ms", "time_max_ms", "time_q1_ms", "time_q3_ms",
    "spread", "reps", "batch", "pruned", "objective", "verified", "max_abs_error", "compile_seconds", "cached",
    "duplicate", "gpu_seconds", "timing_seconds", "resumed", "defines", "options",
};

/* A param's or metric's column: its name, prefixed when a fixed column has it. */
static void column(strbuf *o, const char *prefix, const char *name)
{
    for (size_t k = 0; k < sizeof csv_fixed / sizeof *csv_fixed; k++)
        if (strcmp(csv_fixed[k], name) == 0) {
            sb_add(o, prefix);
            break;
        }
    field(o, name);
}

static void csv_header(strbuf *o, const cutune_tune_result *r)
{
    /* index, best, the params, then the fixed columns, the metrics among them. */
    sb_add(o, "index,best");
    for (int i = 0; i < r->nparams; i++) {
        sb_addc(o, ',');
        column(o, "param_", r->param_names[i]);
    }
    for (size_t k = 2; k < sizeof csv_fixed / sizeof *csv_fixed; k++) {
        if (strcmp(csv_fixed[k], "objective") == 0)
            for (int i = 0; i < r->nmetrics; i++) {
                sb_addc(o, ',');
                column(o, "metric_", r->metric_names[i]);
            }
        sb_printf(o, ",%s", csv_fixed[k]);
    }
    sb_add(o, "\r\n");
}

static void csv_row(strbuf *o, const cutune_tune_result *r, uint64_t i)
{
    const cutune_measurement *m = &r->records[i]->m;
    const cutune_variant *v = m->variant;
    sb_printf(o, "%llu,%d", (unsigned long long)v->ordinal, (int64_t)i == r->summary.best);
    for (int p = 0; p < v->nparams; p++) {
        sb_addc(o, ',');
        field(o, v->values[p]);
    }
    sb_addc(o, ',');
    field(o, m->status);
    sb_addc(o, ',');
    field(o, m->reason ? m->reason : "");
    sb_addc(o, ',');
    field(o, v->name_expression ? v->name_expression : "");
    sb_printf(o, ",%lld,%lld,%lld,%lld,%lld,%lld,%lld,%d,%lld,%lld,%lld,%lld,", (long long)v->block[0],
              (long long)v->block[1], (long long)v->block[2], (long long)v->grid[0], (long long)v->grid[1],
              (long long)v->grid[2], (long long)v->smem_bytes, m->registers, (long long)m->static_smem,
              (long long)m->local_bytes, (long long)m->spill_stores, (long long)m->spill_loads);
    number(o, m->occupancy);
    sb_addc(o, ',');
    field(o, m->limiter ? m->limiter : "");
    sb_printf(o, ",%d,", m->blocks_per_sm);
    if (m->driver_blocks_per_sm >= 0)
        sb_printf(o, "%d", m->driver_blocks_per_sm);
    const double times[] = {m->median_ms, m->min_ms, m->max_ms, m->q1_ms, m->q3_ms, m->spread};
    for (int k = 0; k < 6; k++) {
        sb_addc(o, ',');
        if (m->timed)
            number(o, times[k]);
    }
    if (m->timed)
        sb_printf(o, ",%d,%d,%d", m->reps, m->batch, m->pruned);
    else
        sb_add(o, ",,,");
    for (int k = 0; k < r->nmetrics; k++) {
        sb_addc(o, ',');
        if (m->timed)
            number(o, m->metrics[k]);
    }
    sb_addc(o, ',');
    if (m->timed)
        number(o, m->objective);
    sb_printf(o, ",%d,", m->verified);
    if (m->verified)
        number(o, m->max_abs_error);
    sb_addc(o, ',');
    number(o, m->compile_seconds);
    sb_printf(o, ",%d,%d,", m->cached, m->duplicate);
    number(o, m->gpu_seconds);
    sb_addc(o, ',');
    number(o, m->timing_seconds);
    sb_printf(o, ",%d,", m->resumed);
    joined_field(o, v->defines, v->ndefines);
    sb_addc(o, ',');
    joined_field(o, v->options, v->noptions);
    sb_add(o, "\r\n");
}

int cutune_emit_csv(char **out, const cutune_tune_result *r)
{
    if (!out || !r)
        return CUTUNE_EINVAL;
    strbuf o = STRBUF_INIT;
    csv_header(&o, r);
    for (uint64_t i = 0; i < r->n; i++)
        csv_row(&o, r, i);
    if (!sb_ok(&o)) {
        sb_free(&o);
        return CUTUNE_ENOMEM;
    }
    *out = sb_steal(&o);
    return *out ? CUTUNE_OK : CUTUNE_ENOMEM;
}

/* ---- Kernel Tuner T4 ---------------------------------------------------------------- */

/* The T4 invalidity of a status: "correct", "compile", "runtime", "timeout",
 * "correctness" or "constraints". */
static const char *invalidity(const char *status)
{
    if (strcmp(status, "ok") == 0)
        return "correct";
    if (strcmp(status, "wrong") == 0)
        return "correctness";
    if (strcmp(status, "compile error") == 0)
        return "compile";
    if (strcmp(status, "timeout") == 0)
        return "timeout";
    if (strcmp(status, "not run") == 0)
        return "constraints";
    return "runtime"; /* cannot launch, load error, launch error, crashed */
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
        measure(list, name, json_real(v), unit);
}

static json_t *t4_result(const cutune_tune_result *r, uint64_t i)
{
    const cutune_measurement *m = &r->records[i]->m;
    const cutune_variant *v = m->variant;
    const cutune_tune_summary *s = &r->summary;
    json_t *o = json_object();
    json_object_set_new(o, "timestamp", json_string(r->date ? r->date : ""));
    json_t *conf = json_object();
    for (int p = 0; p < v->nparams; p++)
        json_object_set_new(conf, r->param_names[p], result_typed_json(v->values[p], v->types[p]));
    json_object_set_new(o, "configuration", conf);
    json_t *objectives = json_array();
    json_array_append_new(objectives, json_string(s->objective_name));
    json_object_set_new(o, "objectives", objectives);
    json_t *times = json_object();
    json_object_set_new(times, "compilation_time", json_real(m->compile_seconds * 1e3));
    json_t *runtimes = json_array();
    if (m->timed && isfinite(m->median_ms))
        json_array_append_new(runtimes, json_real(m->median_ms));
    json_object_set_new(times, "runtimes", runtimes);
    json_object_set_new(times, "framework", json_real(fmax(0, m->gpu_seconds - m->timing_seconds) * 1e3));
    json_object_set_new(o, "times", times);
    json_object_set_new(o, "invalidity", json_string(invalidity(m->status)));
    json_object_set_new(o, "correctness", json_integer(strcmp(m->status, "ok") == 0 ? 1 : 0));
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
    measure(ms, "cutune_status", json_string(m->status), "");
    if (m->verified)
        measure_num(ms, "max_abs_error", m->max_abs_error, "");
    json_object_set_new(o, "measurements", ms);
    return o;
}

static json_t *t4_metadata(const cutune_tune_result *r)
{
    const cutune_tune_summary *s = &r->summary;
    json_t *query = json_object();
    json_object_set_new(query, "cutune", result_device_json(r));
    json_t *reqs = json_array();
    char req[64];
    snprintf(req, sizeof req, "cutune==%s", cutune_version());
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

int cutune_emit_t4(char **out, const cutune_tune_result *r)
{
    if (!out || !r)
        return CUTUNE_EINVAL;
    json_t *root = json_object();
    json_object_set_new(root, "schema_version", json_string("1.0.0"));
    json_t *results = json_array();
    for (uint64_t i = 0; i < r->n; i++)
        json_array_append_new(results, t4_result(r, i));
    json_object_set_new(root, "results", results);
    json_object_set_new(root, "metadata", t4_metadata(r));
    *out = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (!*out)
        return CUTUNE_ENOMEM;
    /* jansson's buffer comes from its own allocator (malloc by default); hand back one
     * that cutune_free releases in any case. */
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
