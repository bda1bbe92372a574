/* result.c - a tuning run's records and summary (see result.h). */
#include "result.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../base/sys.h"
#include "../compiler/plan.h"

static char *dup_in(arena *a, const char *s)
{
    return s ? arena_strdup(a, s) : NULL;
}

cutune_tune_result *result_create(void)
{
    cutune_tune_result *r = calloc(1, sizeof *r);
    if (!r || !(r->arena = arena_new())) {
        free(r);
        return NULL;
    }
    r->summary.best = -1;
    /* The strings that always say something: "" until a run or a file says more. */
    r->summary.device_name = r->summary.arch = r->summary.objective_name = r->summary.strategy = "";
    r->device.name = r->device.arch = "";
    return r;
}

void result_destroy(cutune_tune_result *r)
{
    if (!r)
        return;
    for (int k = 0; k < r->nsizes; k++)
        result_destroy(r->sizes[k]);
    free(r->sizes);
    free(r->records);
    json_decref(r->source);
    arena_free(r->arena);
    free(r);
}

/* The source's key `key` as a string ("" when absent or not one). */
static const char *source_str(json_t *src, const char *key)
{
    const char *s = json_string_value(json_object_get(src, key));
    return s ? s : "";
}

/* The source's key `key` as a count (-1 when absent or not one). */
static long long source_count(json_t *src, const char *key)
{
    json_t *v = json_object_get(src, key);
    return json_is_integer(v) && json_integer_value(v) >= 0 ? (long long)json_integer_value(v) : -1;
}

/* Whether v may be a value of the source: a number, a boolean, null, a string of at
 * most 4096 bytes, or (when `list` is true) a list of at most 64 numbers and strings. */
static bool source_value_ok(json_t *v, bool list)
{
    if (json_is_number(v) || json_is_boolean(v) || json_is_null(v))
        return true;
    if (json_is_string(v))
        return json_string_length(v) <= 4096;
    if (!list || !json_is_array(v) || json_array_size(v) > 64)
        return false;
    size_t i;
    json_t *x;
    json_array_foreach(v, i, x) if (!json_is_number(x) && !source_value_ok(x, false)) return false;
    return true;
}

int result_set_source(cutune_tune_result *r, json_t *src, char *why, size_t whysize)
{
    if (!json_is_object(src) || json_object_size(src) > 64) {
        snprintf(why, whysize, "is not an object of at most 64 keys");
        return -1;
    }
    const char *key;
    json_t *v;
    json_object_foreach(src, key, v) if (!source_value_ok(v, true))
    {
        snprintf(why, whysize,
                 "\"%.60s\" is neither a number, a boolean, null, a string of at most 4096 bytes, "
                 "nor a list of at most 64 numbers and strings",
                 key);
        return -1;
    }
    /* "Kernel Tuner cache file 'c.json' (schema 1.1.0), NVIDIA RTX A4000: 4362 entries,
     * 161 failed; 0 of the spec's 4362 configurations missing" */
    char line[1400];
    const char *schema = source_str(src, "schema_version"), *dev = source_str(src, "device");
    const char *tool = source_str(src, "tool"), *version = source_str(src, "tool_version");
    int n = snprintf(line, sizeof line, "%s%s%s%s%s '%s'", tool, *tool && *version ? " " : "", *tool ? version : "",
                     *tool ? " " : "", source_str(src, "format"), source_str(src, "file"));
    if (*schema && n < (int)sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, " (schema %s)", schema);
    if (n < (int)sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, ", %s", *dev ? dev : "device not recorded");
    long long entries = source_count(src, "entries"), failed = source_count(src, "failed");
    long long missing = source_count(src, "missing"), space = source_count(src, "space");
    if (entries >= 0 && n < (int)sizeof line)
        n += snprintf(line + n, sizeof line - (size_t)n, ": %lld entries, %lld failed", entries, failed);
    if (missing >= 0 && space >= 0 && n < (int)sizeof line)
        snprintf(line + n, sizeof line - (size_t)n, "; %lld of the spec's %lld configurations missing", missing, space);
    const char *kept = arena_strdup(r->arena, line);
    if (!kept) {
        snprintf(why, whysize, "out of memory");
        return -1;
    }
    json_decref(r->source);
    r->source = json_incref(src);
    r->source_line = kept;
    return 0;
}

const char *result_route_name(ast_route_kind route)
{
    static const char *const names[] = {
        [ROUTE_DEFINE] = "define", [ROUTE_TEMPLATE] = "template",
        [ROUTE_OPTION] = "option", [ROUTE_MAXRREGCOUNT] = "maxrregcount",
        [ROUTE_SMEM] = "smem",     [ROUTE_NONE] = "none",
    };
    return (unsigned)route < sizeof names / sizeof *names ? names[route] : NULL;
}

int result_set_size(cutune_tune_result *r, int n, const char *const *names, const int64_t *values)
{
    r->size_vars = arena_alloc(r->arena, sizeof(char *) * (size_t)(n + 1));
    r->size_values = arena_alloc(r->arena, sizeof(int64_t) * (size_t)(n + 1));
    if (!r->size_vars || !r->size_values)
        return -1;
    for (int j = 0; j < n; j++) {
        if (!(r->size_vars[j] = arena_strdup(r->arena, names[j])))
            return -1;
        r->size_values[j] = values[j];
    }
    r->nsize_vars = n;
    return 0;
}

/* Makes room for one more record pointer in r->records. */
static int records_room(cutune_tune_result *r)
{
    if (r->n < r->cap)
        return 0;
    uint64_t cap = r->cap ? r->cap * 2 : 256;
    record **grown = realloc(r->records, sizeof(record *) * cap);
    if (!grown)
        return -1;
    r->records = grown;
    r->cap = cap;
    return 0;
}

int result_adopt_size(cutune_tune_result *parent, cutune_tune_result *size)
{
    cutune_tune_result **grown = realloc(parent->sizes, sizeof *grown * (size_t)(parent->nsizes + 1));
    if (!grown) {
        result_destroy(size);
        return -1;
    }
    parent->sizes = grown;
    int k = parent->nsizes++;
    parent->sizes[k] = size;
    parent->borrowed_records = true;
    if (parent->nsize_vars == 0 && size->nsize_vars > 0) {
        parent->size_vars = arena_alloc(parent->arena, sizeof(char *) * (size_t)(size->nsize_vars + 1));
        if (!parent->size_vars)
            return -1;
        for (int j = 0; j < size->nsize_vars; j++)
            if (!(parent->size_vars[j] = arena_strdup(parent->arena, size->size_vars[j])))
                return -1;
        parent->nsize_vars = size->nsize_vars;
    }
    for (uint64_t i = 0; i < size->n; i++) {
        if (records_room(parent) < 0)
            return -1;
        size->records[i]->size = k;
        parent->records[parent->n++] = size->records[i];
    }
    cutune_tune_summary *p = &parent->summary;
    const cutune_tune_summary *s = &size->summary;
    p->variants += s->variants;
    p->timed += s->timed;
    p->wrong += s->wrong;
    p->failed += s->failed;
    p->unlaunchable += s->unlaunchable;
    p->pruned += s->pruned;
    p->wall_seconds += s->wall_seconds;
    p->compile_seconds += s->compile_seconds;
    p->compile_wall_seconds += s->compile_wall_seconds;
    p->gpu_seconds += s->gpu_seconds;
    p->timing_seconds += s->timing_seconds;
    p->profiled += s->profiled;
    p->profile_seconds += s->profile_seconds;
    for (int w = 0; w < CUTUNE_WORK_COUNT; w++)
        p->work_seconds[w] += s->work_seconds[w];
    if (!p->profile_note) /* the size's strings: it lives as long as the parent */
        p->profile_note = s->profile_note;
    /* UINT64_MAX: not recorded (a size loaded from a file written before the counts were) */
    p->compiled = p->compiled == UINT64_MAX || s->compiled == UINT64_MAX ? UINT64_MAX : p->compiled + s->compiled;
    p->cached = p->cached == UINT64_MAX || s->cached == UINT64_MAX ? UINT64_MAX : p->cached + s->cached;
    p->resumed += s->resumed;
    p->journal_ignored += s->journal_ignored;
    if (!p->journal_ignored_why) /* the size's strings: it lives as long */
        p->journal_ignored_why = s->journal_ignored_why;
    if (!p->cache_warning)
        p->cache_warning = s->cache_warning;
    if (!p->compile_warning)
        p->compile_warning = s->compile_warning;
    p->evaluations += s->evaluations;
    p->screened += s->screened;
    p->interrupted |= s->interrupted;
    if (s->threads > p->threads)
        p->threads = s->threads;
    p->best = -1; /* a winner per size: sizes[k]'s */
    if (k == 0) { /* what the sizes share, as the first says it (its strings are its own: it lives as long) */
        p->strategy = s->strategy;
        p->stop_reason = s->stop_reason;
        p->seed = s->seed;
        p->budget = s->budget;
        p->time_limit_s = s->time_limit_s;
        p->patience = s->patience;
        p->timeout_s = s->timeout_s;
        p->reference = s->reference;
        p->journal_path = s->journal_path;
        p->first_variant_seconds = s->first_variant_seconds;
        parent->flush_l2 = size->flush_l2;
        parent->warmup = size->warmup;
        parent->repeat = size->repeat;
        parent->max_repeat = size->max_repeat;
        parent->spread = size->spread;
    }
    return 0;
}

cutune_tune_result *result_new_for(const model *m, const char *spec_path, const cutune_device *dev)
{
    cutune_tune_result *r = result_create();
    if (!r)
        return NULL;
    arena *a = r->arena;
    r->device = *dev; /* its strings copied: the result owns its own */
    r->device.name = dup_in(a, dev->name ? dev->name : "");
    r->device.arch = dup_in(a, dev->arch ? dev->arch : "");
    r->summary.device_name = r->device.name;
    r->summary.arch = r->device.arch;
    r->summary.sm_count = dev->sm_count;
    r->summary.driver_version = dev->driver_version;
    r->summary.maximize = m->maximize;
    r->summary.objective_name =
        dup_in(a, m->objective ? (m->objective_name ? m->objective_name : "objective") : "time_ms");
    if (!r->device.name || !r->device.arch || !r->summary.objective_name) {
        result_destroy(r);
        return NULL;
    }
    /* Canonical paths, so that what reads the results later (emit header: the spec's
     * functions of the problem size) finds the same files from any working folder. */
    char *canon_spec = sys_canonical_path(spec_path), *kernel_file = sys_canonical_path(m->kernel_file);
    r->spec_path = dup_in(a, canon_spec ? canon_spec : spec_path);
    r->kernel = dup_in(a, m->kernel);
    r->block = dup_in(a, m->block_name);
    r->kernel_file = dup_in(a, kernel_file ? kernel_file : m->kernel_file);
    free(canon_spec);
    free(kernel_file);
    r->strategy = dup_in(a, model_strategy_name(m->search.strategy));
    time_t now = time(NULL);
    struct tm tm;
    char date[32];
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    r->date = dup_in(a, date);
    r->nparams = m->nparams;
    r->param_names = arena_alloc(a, sizeof(char *) * (size_t)(m->nparams + 1));
    r->param_types = arena_alloc(a, sizeof(char *) * (size_t)(m->nparams + 1));
    r->param_routes = arena_alloc(a, sizeof(char *) * (size_t)(m->nparams + 1));
    r->nmetrics = m->nmetrics;
    r->metric_names = arena_alloc(a, sizeof(char *) * (size_t)(m->nmetrics + 1));
    r->scratch = arena_alloc(a, sizeof(record));
    r->scratch_metrics = arena_alloc(a, sizeof(double) * (size_t)(m->nmetrics + 1));
    if (!r->param_names || !r->param_types || !r->param_routes || !r->metric_names || !r->scratch ||
        !r->scratch_metrics) {
        result_destroy(r);
        return NULL;
    }
    for (int i = 0; i < m->nparams; i++) {
        r->param_names[i] = dup_in(a, m->params[i].name);
        r->param_types[i] = vtype_name(m->params[i].dom.type);
        r->param_routes[i] = result_route_name(m->params[i].route);
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

const record *result_record_of(const cutune_measurement *m)
{
    return (const record *)m;
}

record *result_append(cutune_tune_result *r)
{
    record *rec = arena_alloc(r->arena, sizeof *rec);
    if (!rec)
        return NULL;
    memset(rec, 0, sizeof *rec);
    rec->size = -1;
    rec->metrics = arena_alloc(r->arena, sizeof(double) * (size_t)(r->nmetrics + 1));
    if (!rec->metrics)
        return NULL;
    for (int i = 0; i < r->nmetrics; i++)
        rec->metrics[i] = NAN;
    if (r->nhw > 0) {
        rec->hw = arena_alloc(r->arena, sizeof(double) * (size_t)r->nhw);
        if (!rec->hw)
            return NULL;
        for (int i = 0; i < r->nhw; i++)
            rec->hw[i] = NAN;
    }
    cutune_measurement *m = &rec->m;
    m->variant = &rec->v;
    m->nhw = r->nhw;
    m->hw_names = r->hw_names;
    m->hw = rec->hw;
    rec->out = OUTCOME_NOT_RUN;
    m->driver_blocks_per_sm = -1;
    m->same_code_as = -1;
    m->device = -1;
    m->energy_j = m->power_w = NAN;
    m->objective = NAN;
    m->nmetrics = r->nmetrics;
    m->metric_names = r->metric_names;
    m->metrics = rec->metrics;
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

record *result_add(cutune_tune_result *r, const cutune_analysis *an, const value *vals)
{
    arena *a = r->arena;
    record *rec = result_append(r);
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
    rec->vals = arena_alloc(a, sizeof(value) * (size_t)(v->nparams + 1));
    for (int i = 0; rec->vals && i < v->nparams; i++) {
        rec->vals[i] = vals[i];
        if (vals[i].type == VT_STRING && !(rec->vals[i].u.s = dup_in(a, vals[i].u.s)))
            rec->vals = NULL;
    }
    rec->v.typed = rec->vals && rec->v.values ? plan_typed_values(a, rec->vals, rec->v.values, v->nparams) : NULL;
    if (!rec->v.values || !types || !rec->v.defines || !rec->v.options || !rec->vals || !rec->v.typed) {
        r->n--; /* not kept half made */
        return NULL;
    }
    cutune_measurement *m = &rec->m;
    m->registers = an->registers;
    m->static_smem = an->static_smem;
    m->local_bytes = an->local_bytes;
    m->spill_stores = an->spill_stores;
    m->spill_loads = an->spill_loads;
    m->occupancy = an->occupancy.occupancy;
    m->limiter = an->occupancy.limiter;
    m->blocks_per_sm = an->occupancy.blocks_per_sm;
    m->compile_seconds = an->compile_seconds;
    m->cached = an->cached;
    m->duplicate = an->duplicate;
    return rec;
}

record *result_loose(cutune_tune_result *r)
{
    record *rec = arena_alloc(r->arena, sizeof *rec);
    double *metrics = arena_alloc(r->arena, sizeof(double) * ((size_t)r->nmetrics + 1));
    if (!rec || !metrics)
        return NULL; /* zeroed */
    rec->out = OUTCOME_NOT_RUN;
    rec->metrics = metrics;
    rec->m.metrics = metrics;
    rec->m.nmetrics = r->nmetrics;
    rec->m.metric_names = r->metric_names;
    rec->m.variant = &rec->v;
    rec->m.same_code_as = -1;
    rec->m.device = -1;
    rec->m.driver_blocks_per_sm = -1;
    rec->m.energy_j = rec->m.power_w = rec->m.objective = NAN;
    rec->size = -1;
    return rec;
}

record *result_scratch(cutune_tune_result *r)
{
    memset(r->scratch, 0, sizeof *r->scratch);
    r->scratch->out = OUTCOME_NOT_RUN;
    r->scratch->metrics = r->scratch_metrics;
    r->scratch->m.metrics = r->scratch_metrics;
    r->scratch->m.nmetrics = r->nmetrics;
    r->scratch->m.same_code_as = -1;
    r->scratch->m.device = -1;
    r->scratch->m.energy_j = r->scratch->m.power_w = NAN;
    return r->scratch;
}

void result_set_outcome(cutune_tune_result *r, record *rec, outcome o, const char *reason)
{
    rec->out = (unsigned)o < OUTCOME_COUNT ? o : OUTCOME_NOT_RUN;
    rec->m.reason = reason ? dup_in(r->arena, reason) : NULL;
}

static bool can_win(outcome o, const cutune_measurement *m)
{
    return o == OUTCOME_OK && m->timed && !m->pruned && !m->provisional && isfinite(m->objective);
}

bool record_can_win(const record *rec)
{
    return can_win(rec->out, &rec->m);
}

/* Copies field f of `from` into rec (strings into r's arena, "" as NULL). */
static void take_field(cutune_tune_result *r, record *rec, const cutune_measurement *from, const mfield *f)
{
    char *to = (char *)&rec->m + f->off;
    const char *src = (const char *)from + f->off;
    switch (f->kind) {
    case MK_INT:
    case MK_BOOL: *(int *)to = *(const int *)src; break;
    case MK_I64: *(int64_t *)to = *(const int64_t *)src; break;
    case MK_NUM: *(double *)to = *(const double *)src; break;
    case MK_STR: {
        const char *s = *(const char *const *)src;
        *(const char **)to = s && *s ? dup_in(r->arena, s) : NULL;
        break;
    }
    case MK_METRICS:
        for (int i = 0; from->metrics && i < from->nmetrics && i < r->nmetrics; i++)
            rec->metrics[i] = from->metrics[i];
        break;
    case MK_HW:
    case MK_VARIANT: break;
    }
}

void result_take_measured(cutune_tune_result *r, record *rec, outcome o, const cutune_measurement *from)
{
    result_set_outcome(r, rec, o, NULL);
    for (int i = 0; i < mfield_count; i++) {
        const mfield *f = &mfields[i];
        if (f->origin == MO_WORKER || f->origin == MO_SUMMED)
            take_field(r, rec, from, f);
    }
}

/* rec takes run's outcome and every WORKER and TAKEN field (times, statistics,
 * metrics, objective, verification, energy, the GPU). */
static void take_figures(cutune_tune_result *r, record *rec, const record *run)
{
    result_set_outcome(r, rec, run->out, NULL);
    for (int i = 0; i < mfield_count; i++) {
        const mfield *f = &mfields[i];
        if (f->origin == MO_WORKER || f->origin == MO_TAKEN)
            take_field(r, rec, &run->m, f);
    }
}

/* rec's SUMMED fields: rec's plus run's (run NULL: 0); a string: rec's, else run's
 * (copied into r's arena; run NULL: none). */
static void sum_fields(cutune_tune_result *r, record *rec, const record *run)
{
    for (int i = 0; i < mfield_count; i++) {
        const mfield *f = &mfields[i];
        char *to = (char *)&rec->m + f->off;
        const char *add = run ? (const char *)&run->m + f->off : NULL;
        if (f->origin != MO_SUMMED)
            continue;
        if (f->kind == MK_INT || f->kind == MK_BOOL)
            *(int *)to = add ? *(int *)to + *(const int *)add : 0;
        else if (f->kind == MK_I64)
            *(int64_t *)to = add ? *(int64_t *)to + *(const int64_t *)add : 0;
        else if (f->kind == MK_NUM)
            *(double *)to = add ? *(double *)to + *(const double *)add : 0;
        else if (f->kind == MK_STR && !add)
            *(const char **)to = NULL;
        else if (f->kind == MK_STR && !*(const char **)to)
            take_field(r, rec, &run->m, f);
    }
}

void result_take_run(cutune_tune_result *r, record *rec, const record *run)
{
    take_figures(r, rec, run); /* its SUMMED fields are left as they were: added to here */
    rec->m.provisional = 0;
    sum_fields(r, rec, run);
}

void result_take_twin(cutune_tune_result *r, record *rec, const record *twin)
{
    take_figures(r, rec, twin);
    rec->m.same_code_as = (int64_t)twin->v.ordinal;
    sum_fields(r, rec, NULL);
}

int result_set_profile(cutune_tune_result *r, const char *const *names, int n, int top)
{
    r->hw_names = n > 0 ? dup_strings(r->arena, names, n) : NULL;
    if (n > 0 && !r->hw_names)
        return -1;
    r->nhw = n > 0 ? n : 0;
    r->profile_top = top;
    return 0;
}

void result_take_profile(cutune_tune_result *r, record *rec, const record *from)
{
    for (int i = 0; i < r->nhw && rec->hw && from->hw; i++)
        rec->hw[i] = from->hw[i];
    rec->m.profiled = from->m.profiled;
    rec->m.profile_passes = from->m.profile_passes;
    result_set_profile_note(r, rec, from->m.profile_note);
}

void result_set_profile_note(cutune_tune_result *r, record *rec, const char *note)
{
    rec->m.profile_note = note ? dup_in(r->arena, note) : NULL;
}

void result_set_energy_note(cutune_tune_result *r, record *rec, const char *note)
{
    rec->m.energy_note = note ? dup_in(r->arena, note) : NULL;
}

void result_set_best(cutune_tune_result *r, const record *rec)
{
    for (uint64_t i = r->n; i-- > 0;)
        if (r->records[i] == rec) {
            r->summary.best = (int64_t)i;
            return;
        }
}

const cutune_measurement *result_best(const cutune_tune_result *r)
{
    if (!r || r->summary.best < 0 || (uint64_t)r->summary.best >= r->n)
        return NULL;
    const record *rec = r->records[r->summary.best];
    return record_can_win(rec) ? &rec->m : NULL; /* never a record that did not run correctly */
}

void result_count(cutune_tune_result *r)
{
    cutune_tune_summary *s = &r->summary;
    s->variants = r->n;
    s->timed = s->wrong = s->failed = s->unlaunchable = s->pruned = s->resumed = s->twins = 0;
    for (uint64_t i = 0; i < r->n; i++) {
        const record *rec = r->records[i];
        const cutune_measurement *m = &rec->m;
        if (m->timed)
            s->timed++;
        if (m->resumed)
            s->resumed++;
        if (m->pruned)
            s->pruned++;
        if (m->same_code_as >= 0)
            s->twins++;
        if (rec->out == OUTCOME_WRONG)
            s->wrong++;
        else if (rec->out == OUTCOME_CANNOT_LAUNCH)
            s->unlaunchable++;
        else if (rec->out != OUTCOME_OK)
            s->failed++;
    }
}

void result_finish(cutune_tune_result *r, bool flush_l2, const m_measure *ms)
{
    result_count(r);
    for (uint64_t i = 0; i < r->n; i++) {
        r->summary.gpu_seconds += r->records[i]->m.gpu_seconds;
        r->summary.timing_seconds += r->records[i]->m.timing_seconds;
    }
    r->flush_l2 = flush_l2;
    r->warmup = ms->warmup;
    r->repeat = ms->repeat;
    r->max_repeat = ms->max_repeat;
    r->spread = ms->spread;
}
