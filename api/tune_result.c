/* tune_result.c - tuning outcomes and their JSON (see tune_result.h; the format is
 * documented in docs/results-format.md). */
#include "tune_result.h"

#include "../base/sys.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char *dup_in(arena *a, const char *s)
{
    return s ? arena_strdup(a, s) : NULL;
}

cutune_tune_result *result_new(const cutune_spec *spec, const cutune_device *dev)
{
    cutune_tune_result *r = calloc(1, sizeof *r);
    if (!r || !(r->arena = arena_new())) {
        free(r);
        return NULL;
    }
    const model *m = spec->model;
    arena *a = r->arena;
    r->device = *dev;
    r->summary.best = -1;
    snprintf(r->summary.device_name, sizeof r->summary.device_name, "%s", dev->name);
    snprintf(r->summary.arch, sizeof r->summary.arch, "%s", dev->arch);
    r->summary.sm_count = dev->sm_count;
    r->summary.driver_version = dev->driver_version;
    r->summary.maximize = m->maximize;
    snprintf(r->summary.objective_name, sizeof r->summary.objective_name, "%s",
             m->objective ? (m->objective_name ? m->objective_name : "objective") : "time_ms");
    /* Canonical paths, so that what reads the results later (emit header: the spec's
     * functions of the problem size) finds the same files from any working folder. */
    char *spec_path = sys_canonical_path(spec->path), *kernel_file = sys_canonical_path(m->kernel_file);
    r->spec_path = dup_in(a, spec_path ? spec_path : spec->path);
    r->kernel = dup_in(a, m->kernel);
    r->kernel_file = dup_in(a, kernel_file ? kernel_file : m->kernel_file);
    free(spec_path);
    free(kernel_file);
    r->strategy = dup_in(a, strategy_name(m->search.strategy));
    time_t now = time(NULL);
    struct tm tm;
    char date[32];
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    r->date = dup_in(a, date);
    r->nparams = m->nparams;
    r->param_names = arena_alloc(a, sizeof(char *) * (size_t)(m->nparams + 1));
    r->param_types = arena_alloc(a, sizeof(char *) * (size_t)(m->nparams + 1));
    r->nmetrics = m->nmetrics;
    r->metric_names = arena_alloc(a, sizeof(char *) * (size_t)(m->nmetrics + 1));
    r->scratch = arena_alloc(a, sizeof(record));
    r->scratch_metrics = arena_alloc(a, sizeof(double) * (size_t)(m->nmetrics + 1));
    if (!r->param_names || !r->param_types || !r->metric_names || !r->scratch || !r->scratch_metrics) {
        cutune_tune_result_free(r);
        return NULL;
    }
    for (int i = 0; i < m->nparams; i++) {
        r->param_names[i] = dup_in(a, m->params[i].name);
        r->param_types[i] = vtype_name(m->params[i].dom.type);
    }
    for (int i = 0; i < m->nmetrics; i++)
        r->metric_names[i] = dup_in(a, m->metrics[i].name);
    return r;
}

static const char **dup_strings(arena *a, const char *const *items, int n)
{
    const char **out = arena_alloc(a, sizeof(char *) * (size_t)(n + 1));
    for (int i = 0; out && i < n; i++)
        out[i] = dup_in(a, items[i]);
    return out;
}

record *result_add(cutune_tune_result *r, const cutune_analysis *an)
{
    arena *a = r->arena;
    record *rec = arena_alloc(a, sizeof *rec);
    if (!rec)
        return NULL;
    const cutune_variant *v = an->variant;
    rec->v = *v;
    rec->v.values = dup_strings(a, v->values, v->nparams);
    char *types = arena_alloc(a, (size_t)v->nparams + 1);
    if (types)
        memcpy(types, v->types, (size_t)v->nparams);
    rec->v.types = types;
    rec->v.defines = dup_strings(a, v->defines, v->ndefines);
    rec->v.options = dup_strings(a, v->options, v->noptions);
    rec->v.name_expression = dup_in(a, v->name_expression);
    rec->metrics = arena_alloc(a, sizeof(double) * (size_t)(r->nmetrics + 1));
    if (!rec->v.values || !types || !rec->v.defines || !rec->v.options || !rec->metrics)
        return NULL;
    for (int i = 0; i < r->nmetrics; i++)
        rec->metrics[i] = NAN;
    cutune_measurement *m = &rec->m;
    m->variant = &rec->v;
    m->status = "not run";
    m->registers = an->registers;
    m->static_smem = an->static_smem;
    m->local_bytes = an->local_bytes;
    m->spill_stores = an->spill_stores;
    m->spill_loads = an->spill_loads;
    m->occupancy = an->occupancy.occupancy;
    m->limiter = an->occupancy.limiter;
    m->blocks_per_sm = an->occupancy.blocks_per_sm;
    m->driver_blocks_per_sm = -1;
    m->objective = NAN;
    m->nmetrics = r->nmetrics;
    m->metric_names = r->metric_names;
    m->metrics = rec->metrics;
    m->compile_seconds = an->compile_seconds;
    m->cached = an->cached;
    m->duplicate = an->duplicate;
    if (r->n == r->cap) {
        uint64_t cap = r->cap ? r->cap * 2 : 256;
        record **grown = realloc(r->records, sizeof(record *) * cap);
        if (!grown)
            return NULL;
        r->records = grown;
        r->cap = cap;
    }
    r->records[r->n++] = rec;
    return rec;
}

record *result_scratch(cutune_tune_result *r)
{
    memset(r->scratch, 0, sizeof *r->scratch);
    r->scratch->metrics = r->scratch_metrics;
    r->scratch->m.metrics = r->scratch_metrics;
    r->scratch->m.nmetrics = r->nmetrics;
    return r->scratch;
}

void result_set_status(cutune_tune_result *r, record *rec, const char *status, const char *reason)
{
    rec->m.status = status; /* a literal */
    rec->m.reason = reason ? dup_in(r->arena, reason) : NULL;
}

bool result_can_win(const cutune_measurement *m)
{
    return m->status && strcmp(m->status, "ok") == 0 && m->timed && !m->pruned && isfinite(m->objective);
}

void result_set_best(cutune_tune_result *r, const record *rec)
{
    for (uint64_t i = r->n; i-- > 0;)
        if (r->records[i] == rec) {
            r->summary.best = (int64_t)i;
            return;
        }
}

void result_finish(cutune_tune_result *r, bool flush_l2, const m_measure *ms)
{
    cutune_tune_summary *s = &r->summary;
    s->variants = r->n;
    s->timed = s->wrong = s->failed = s->unlaunchable = s->pruned = s->resumed = 0;
    for (uint64_t i = 0; i < r->n; i++) {
        const cutune_measurement *m = &r->records[i]->m;
        s->gpu_seconds += m->gpu_seconds;
        s->timing_seconds += m->timing_seconds;
        if (m->timed)
            s->timed++;
        if (m->resumed)
            s->resumed++;
        if (m->pruned)
            s->pruned++;
        if (strcmp(m->status, "wrong") == 0)
            s->wrong++;
        else if (strcmp(m->status, "cannot launch") == 0)
            s->unlaunchable++;
        else if (strcmp(m->status, "ok") != 0)
            s->failed++;
    }
    r->flush_l2 = flush_l2;
    r->warmup = ms->warmup;
    r->repeat = ms->repeat;
    r->max_repeat = ms->max_repeat;
    r->spread = ms->spread;
}

const cutune_tune_summary *cutune_tune_summary_of(const cutune_tune_result *r) { return &r->summary; }
uint64_t cutune_tune_count(const cutune_tune_result *r) { return r->n; }

const cutune_measurement *cutune_tune_at(const cutune_tune_result *r, uint64_t i)
{
    return i < r->n ? &r->records[i]->m : NULL;
}

void cutune_tune_result_free(cutune_tune_result *r)
{
    if (!r)
        return;
    free(r->records);
    arena_free(r->arena);
    free(r);
}

/* ---- JSON ------------------------------------------------------------------------ */

static json_t *number_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

json_t *result_typed_json(const char *text, char type)
{
    switch (type) {
    case 'i': return json_integer(strtoll(text, NULL, 10));
    case 'f': return json_real(strtod(text, NULL));
    case 'b': return json_boolean(strcmp(text, "true") == 0);
    default: return json_string(text);
    }
}

json_t *result_device_json(const cutune_tune_result *r)
{
    json_t *dev = json_object();
    json_object_set_new(dev, "name", json_string(r->device.name));
    json_object_set_new(dev, "arch", json_string(r->device.arch));
    json_object_set_new(dev, "compute_capability", json_integer(r->device.cc));
    json_object_set_new(dev, "sm_count", json_integer(r->device.sm_count));
    json_object_set_new(dev, "l2_bytes", json_integer(r->device.l2_bytes));
    json_object_set_new(dev, "driver_version", json_integer(r->device.driver_version));
    return dev;
}

static json_t *strings(const char *const *items, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_string(items[i]));
    return a;
}

static json_t *dims(const int64_t *d)
{
    json_t *a = json_array();
    for (int i = 0; i < 3; i++)
        json_array_append_new(a, json_integer((json_int_t)d[i]));
    return a;
}

json_t *result_record_json(const cutune_tune_result *r, const record *rec)
{
    const cutune_measurement *m = &rec->m;
    const cutune_variant *v = &rec->v;
    json_t *o = json_object(), *params = json_object();
    json_object_set_new(o, "index", json_integer((json_int_t)v->ordinal));
    for (int i = 0; i < v->nparams; i++)
        json_object_set_new(params, r->param_names[i], result_typed_json(v->values[i], v->types[i]));
    json_object_set_new(o, "params", params);
    json_object_set_new(o, "status", json_string(m->status));
    json_object_set_new(o, "reason", m->reason ? json_string(m->reason) : json_null());
    json_object_set_new(o, "kernel", json_string(v->name_expression));
    json_object_set_new(o, "block", dims(v->block));
    json_object_set_new(o, "grid", dims(v->grid));
    json_object_set_new(o, "smem_bytes", json_integer((json_int_t)v->smem_bytes));
    json_object_set_new(o, "defines", strings(v->defines, v->ndefines));
    json_object_set_new(o, "options", strings(v->options, v->noptions));
    json_t *res = json_object();
    json_object_set_new(res, "registers", json_integer(m->registers));
    json_object_set_new(res, "static_smem", json_integer((json_int_t)m->static_smem));
    json_object_set_new(res, "local_bytes", json_integer((json_int_t)m->local_bytes));
    json_object_set_new(res, "spill_stores", json_integer((json_int_t)m->spill_stores));
    json_object_set_new(res, "spill_loads", json_integer((json_int_t)m->spill_loads));
    json_object_set_new(o, "resources", res);
    json_t *occ = json_object();
    json_object_set_new(occ, "theoretical", json_real(m->occupancy));
    json_object_set_new(occ, "limiter", m->limiter ? json_string(m->limiter) : json_null());
    json_object_set_new(occ, "blocks_per_sm", json_integer(m->blocks_per_sm));
    json_object_set_new(occ, "driver_blocks_per_sm",
                        m->driver_blocks_per_sm >= 0 ? json_integer(m->driver_blocks_per_sm) : json_null());
    json_object_set_new(o, "occupancy", occ);
    if (m->timed) {
        json_t *t = json_object();
        json_object_set_new(t, "median", json_real(m->median_ms));
        json_object_set_new(t, "min", json_real(m->min_ms));
        json_object_set_new(t, "max", json_real(m->max_ms));
        json_object_set_new(t, "q1", json_real(m->q1_ms));
        json_object_set_new(t, "q3", json_real(m->q3_ms));
        json_object_set_new(o, "time_ms", t);
        json_object_set_new(o, "spread", json_real(m->spread));
        json_object_set_new(o, "reps", json_integer(m->reps));
        json_object_set_new(o, "batch", json_integer(m->batch));
        json_object_set_new(o, "pruned", json_boolean(m->pruned));
        json_t *mets = json_object();
        for (int i = 0; i < m->nmetrics; i++)
            json_object_set_new(mets, m->metric_names[i], number_or_null(m->metrics[i]));
        json_object_set_new(o, "metrics", mets);
        json_object_set_new(o, "objective", number_or_null(m->objective));
    } else {
        json_object_set_new(o, "time_ms", json_null());
    }
    json_object_set_new(o, "verified", json_boolean(m->verified));
    json_object_set_new(o, "max_abs_error", m->verified ? number_or_null(m->max_abs_error) : json_null());
    json_object_set_new(o, "compile_seconds", json_real(m->compile_seconds));
    json_object_set_new(o, "cached", json_boolean(m->cached));
    json_object_set_new(o, "duplicate", json_boolean(m->duplicate));
    json_object_set_new(o, "gpu_seconds", json_real(m->gpu_seconds));
    json_object_set_new(o, "timing_seconds", json_real(m->timing_seconds));
    json_object_set_new(o, "resumed", json_boolean(m->resumed));
    return o;
}

/* The literal for a status read back from JSON ("not run" for one we do not know). */
static const char *status_literal(const char *s)
{
    static const char *const known[] = {"ok", "wrong", "compile error", "cannot launch", "load error",
                                        "launch error", "not run", "timeout", "crashed"};
    for (size_t i = 0; s && i < sizeof known / sizeof *known; i++)
        if (strcmp(s, known[i]) == 0)
            return known[i];
    return "not run";
}

static double number_of(json_t *v, double otherwise)
{
    return json_is_number(v) ? json_number_value(v) : otherwise;
}

void result_load(cutune_tune_result *r, record *rec, json_t *j)
{
    cutune_measurement *m = &rec->m;
    json_t *reason = json_object_get(j, "reason");
    result_set_status(r, rec, status_literal(json_string_value(json_object_get(j, "status"))),
                      json_is_string(reason) ? json_string_value(reason) : NULL);
    json_t *res = json_object_get(j, "resources");
    m->registers = (int)number_of(json_object_get(res, "registers"), m->registers);
    json_t *occ = json_object_get(j, "occupancy");
    m->driver_blocks_per_sm = (int)number_of(json_object_get(occ, "driver_blocks_per_sm"), -1);
    json_t *t = json_object_get(j, "time_ms");
    m->timed = json_is_object(t) && strcmp(m->status, "ok") == 0; /* only a correct run's times count */
    if (m->timed) {
        m->median_ms = number_of(json_object_get(t, "median"), NAN);
        m->min_ms = number_of(json_object_get(t, "min"), NAN);
        m->max_ms = number_of(json_object_get(t, "max"), NAN);
        m->q1_ms = number_of(json_object_get(t, "q1"), NAN);
        m->q3_ms = number_of(json_object_get(t, "q3"), NAN);
        m->spread = number_of(json_object_get(j, "spread"), NAN);
        m->reps = (int)number_of(json_object_get(j, "reps"), 0);
        m->batch = (int)number_of(json_object_get(j, "batch"), 1);
        m->pruned = json_is_true(json_object_get(j, "pruned"));
        m->objective = number_of(json_object_get(j, "objective"), NAN);
        json_t *mets = json_object_get(j, "metrics");
        for (int i = 0; i < r->nmetrics; i++)
            rec->metrics[i] = number_of(json_object_get(mets, r->metric_names[i]), NAN);
    }
    m->verified = json_is_true(json_object_get(j, "verified"));
    m->max_abs_error = number_of(json_object_get(j, "max_abs_error"), 0);
    m->gpu_seconds = number_of(json_object_get(j, "gpu_seconds"), 0);
    m->timing_seconds = number_of(json_object_get(j, "timing_seconds"), 0);
    m->resumed = 1;
}

int cutune_tune_write_results(const cutune_tune_result *r, const char *path)
{
    const cutune_tune_summary *s = &r->summary;
    json_t *root = json_object();
    json_object_set_new(root, "format", json_string("cutune-results"));
    json_object_set_new(root, "version", json_integer(1));
    json_object_set_new(root, "cutune", json_string(cutune_version()));
    json_object_set_new(root, "date", json_string(r->date));
    json_t *spec = json_object();
    json_object_set_new(spec, "path", json_string(r->spec_path));
    json_object_set_new(spec, "kernel", json_string(r->kernel));
    json_object_set_new(spec, "kernel_file", json_string(r->kernel_file));
    json_t *params = json_array();
    for (int i = 0; i < r->nparams; i++) {
        json_t *p = json_object();
        json_object_set_new(p, "name", json_string(r->param_names[i]));
        json_object_set_new(p, "type", json_string(r->param_types[i]));
        json_array_append_new(params, p);
    }
    json_object_set_new(spec, "params", params);
    json_object_set_new(root, "spec", spec);
    json_object_set_new(root, "device", result_device_json(r));
    json_t *set = json_object();
    json_object_set_new(set, "strategy", json_string(s->strategy[0] ? s->strategy : r->strategy));
    json_t *search = json_object(); /* docs/results-format.md: what the search ran with and used */
    json_object_set_new(search, "strategy", json_string(s->strategy[0] ? s->strategy : r->strategy));
    json_object_set_new(search, "seed", json_integer((json_int_t)s->seed));
    json_object_set_new(search, "budget", s->budget ? json_integer((json_int_t)s->budget) : json_null());
    json_object_set_new(search, "time_budget_s", s->time_limit_s > 0 ? json_real(s->time_limit_s) : json_null());
    json_object_set_new(search, "patience", s->patience ? json_integer((json_int_t)s->patience) : json_null());
    json_object_set_new(search, "evaluations", json_integer((json_int_t)s->evaluations));
    json_object_set_new(search, "screened", json_integer((json_int_t)s->screened));
    json_object_set_new(search, "stopped_by", s->stop_reason[0] ? json_string(s->stop_reason) : json_null());
    json_object_set_new(set, "search", search);
    json_object_set_new(set, "warmup", json_integer((json_int_t)r->warmup));
    json_object_set_new(set, "repeat", json_integer((json_int_t)r->repeat));
    json_object_set_new(set, "max_repeat", json_integer((json_int_t)r->max_repeat));
    json_object_set_new(set, "spread", json_real(r->spread));
    json_object_set_new(set, "flush_l2", json_boolean(r->flush_l2));
    json_object_set_new(set, "reference", s->reference[0] ? json_string(s->reference) : json_null());
    json_object_set_new(root, "settings", set);
    json_t *obj = json_object();
    json_object_set_new(obj, "name", json_string(s->objective_name));
    json_object_set_new(obj, "direction", json_string(s->maximize ? "maximize" : "minimize"));
    json_object_set_new(root, "objective", obj);
    json_t *sum = json_object();
    json_object_set_new(sum, "variants", json_integer((json_int_t)s->variants));
    json_object_set_new(sum, "timed", json_integer((json_int_t)s->timed));
    json_object_set_new(sum, "wrong", json_integer((json_int_t)s->wrong));
    json_object_set_new(sum, "failed", json_integer((json_int_t)s->failed));
    json_object_set_new(sum, "unlaunchable", json_integer((json_int_t)s->unlaunchable));
    json_object_set_new(sum, "pruned", json_integer((json_int_t)s->pruned));
    json_object_set_new(sum, "best", s->best >= 0 ? json_integer((json_int_t)s->best) : json_null());
    json_object_set_new(sum, "wall_seconds", json_real(s->wall_seconds));
    json_object_set_new(sum, "compile_seconds", json_real(s->compile_seconds));
    json_object_set_new(sum, "compile_wall_seconds", json_real(s->compile_wall_seconds));
    json_object_set_new(sum, "gpu_seconds", json_real(s->gpu_seconds));
    json_object_set_new(sum, "timing_seconds", json_real(s->timing_seconds));
    json_object_set_new(sum, "threads", json_integer(s->threads));
    json_object_set_new(sum, "interrupted", json_boolean(s->interrupted));
    json_object_set_new(sum, "resumed", json_integer((json_int_t)s->resumed));
    json_object_set_new(root, "summary", sum);
    json_t *results = json_array();
    for (uint64_t i = 0; i < r->n; i++)
        json_array_append_new(results, result_record_json(r, r->records[i]));
    json_object_set_new(root, "results", results);
    /* Through the one writer: a unique temporary, synced, renamed; a reader never sees
     * half a file, and a planted link or a device at the path is refused. */
    char *text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (!text) {
        api_set_error("out of memory writing results to '%s'", path);
        return CUTUNE_ENOMEM;
    }
    int rc = sys_write_text(path, text);
    int saved = errno;
    free(text);
    if (rc != 0) {
        api_set_error("cannot write results to '%s': %s", path, sys_strerror(saved));
        return CUTUNE_EIO;
    }
    return CUTUNE_OK;
}
