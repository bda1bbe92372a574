/* record.c - a record to and from its JSON entry (see record.h; the format is
 * docs/results-format.md). */
#include "record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/csv.h"
#include "../compiler/devattrs.h"

json_t *record_number(double d)
{
    return isfinite(d) ? json_real(d) : json_null();
}

json_t *record_typed_json(const char *text, char type)
{
    switch (type) {
    case 'i': return json_integer(strtoll(text, NULL, 10));
    case 'f': return json_real(strtod(text, NULL));
    case 'b': return json_boolean(strcmp(text, "true") == 0);
    default: return json_string(text);
    }
}

json_t *record_device_json(const cutune_tune_result *r)
{
    json_t *dev = json_object();
    json_object_set_new(dev, "name", json_string(r->device.name));
    json_object_set_new(dev, "arch", json_string(r->device.arch));
    json_object_set_new(dev, "compute_capability", json_integer(r->device.cc));
    json_object_set_new(dev, "sm_count", json_integer(r->device.sm_count));
    json_object_set_new(dev, "l2_bytes", json_integer(r->device.l2_bytes));
    json_object_set_new(dev, "driver_version", json_integer(r->device.driver_version));
    /* Every device attribute a spec may read (sm_count, warp_size, ...), as the driver
     * gave them: the values the run's expressions used. */
    dev_values dv;
    dev_values_from_device(&dv, &r->device);
    json_t *attrs = json_object();
    for (int i = 0; i < DA_COUNT; i++)
        json_object_set_new(attrs, dev_attr_name((dev_attr)i), json_integer((json_int_t)dv.v[i]));
    json_object_set_new(dev, "attributes", attrs);
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

json_t *record_size_json(const cutune_tune_result *r)
{
    json_t *o = json_object();
    for (int j = 0; r->size_values && j < r->nsize_vars; j++)
        json_object_set_new(o, r->size_vars[j], json_integer((json_int_t)r->size_values[j]));
    return o;
}

json_t *record_to_json(const cutune_tune_result *r, const record *rec)
{
    const cutune_measurement *m = &rec->m;
    const cutune_variant *v = &rec->v;
    json_t *o = json_object(), *params = json_object();
    json_object_set_new(o, "index", json_integer((json_int_t)v->ordinal));
    for (int i = 0; i < v->nparams; i++)
        json_object_set_new(params, r->param_names[i], record_typed_json(v->values[i], v->types[i]));
    json_object_set_new(o, "params", params);
    if (r->size_values) /* a run over sizes: the entry says which (docs/results-format.md) */
        json_object_set_new(o, "size", record_size_json(r));
    json_object_set_new(o, "status", json_string(outcome_name(rec->out)));
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
    json_object_set_new(occ, "theoretical", record_number(m->occupancy));
    json_object_set_new(occ, "limiter", m->limiter ? json_string(m->limiter) : json_null());
    json_object_set_new(occ, "blocks_per_sm", json_integer(m->blocks_per_sm));
    json_object_set_new(occ, "driver_blocks_per_sm",
                        m->driver_blocks_per_sm >= 0 ? json_integer(m->driver_blocks_per_sm) : json_null());
    json_object_set_new(o, "occupancy", occ);
    if (m->timed) {
        json_t *t = json_object();
        json_object_set_new(t, "median", record_number(m->median_ms));
        json_object_set_new(t, "min", record_number(m->min_ms));
        json_object_set_new(t, "max", record_number(m->max_ms));
        json_object_set_new(t, "q1", record_number(m->q1_ms));
        json_object_set_new(t, "q3", record_number(m->q3_ms));
        json_object_set_new(o, "time_ms", t);
        json_object_set_new(o, "spread", record_number(m->spread));
        json_object_set_new(o, "reps", json_integer(m->reps));
        json_object_set_new(o, "batch", json_integer(m->batch));
        json_object_set_new(o, "pruned", json_boolean(m->pruned));
        json_t *mets = json_object();
        for (int i = 0; i < m->nmetrics; i++)
            json_object_set_new(mets, m->metric_names[i], record_number(m->metrics[i]));
        json_object_set_new(o, "metrics", mets);
        json_object_set_new(o, "objective", record_number(m->objective));
    } else {
        json_object_set_new(o, "time_ms", json_null());
    }
    json_object_set_new(o, "verified", json_boolean(m->verified));
    json_object_set_new(o, "max_abs_error", m->verified ? record_number(m->max_abs_error) : json_null());
    json_object_set_new(o, "compile_seconds", record_number(m->compile_seconds));
    json_object_set_new(o, "cached", json_boolean(m->cached));
    json_object_set_new(o, "duplicate", json_boolean(m->duplicate));
    json_object_set_new(o, "gpu_seconds", record_number(m->gpu_seconds));
    json_object_set_new(o, "timing_seconds", record_number(m->timing_seconds));
    json_object_set_new(o, "launches", json_integer(m->launches));
    if (m->provisional)
        json_object_set_new(o, "provisional", json_true());
    if (m->energy) {
        json_t *e = json_object();
        json_object_set_new(e, "J_per_launch", record_number(m->energy_j));
        json_object_set_new(e, "W", record_number(m->power_w));
        json_object_set_new(e, "window_s", record_number(m->energy_seconds));
        json_object_set_new(e, "launches", json_integer(m->energy_launches));
        json_object_set_new(o, "energy", e);
    } else if (m->energy_note) {
        json_object_set_new(o, "energy", json_pack("{s:s}", "not_measured", m->energy_note));
    }
    if (m->profiled || m->profile_note) { /* hardware counters */
        json_t *h = json_object();
        if (m->profiled) {
            json_t *vals = json_object();
            for (int i = 0; i < m->nhw; i++)
                json_object_set_new(vals, m->hw_names[i], record_number(m->hw[i]));
            json_object_set_new(h, "metrics", vals);
            json_object_set_new(h, "passes", json_integer(m->profile_passes));
        }
        if (m->profile_note)
            json_object_set_new(h, "not_measured", json_string(m->profile_note));
        json_object_set_new(o, "hw", h);
    }
    if (m->started_seconds > 0)
        json_object_set_new(o, "started_s", record_number(m->started_seconds));
    if (m->same_code_as >= 0)
        json_object_set_new(o, "same_code_as", json_integer((json_int_t)m->same_code_as));
    if (m->device >= 0 && r->summary.ndevices > 1) /* which of the run's GPUs */
        json_object_set_new(o, "gpu", json_integer(m->device));
    json_object_set_new(o, "resumed", json_boolean(m->resumed));
    return o;
}

/* ---- reading ------------------------------------------------------------------------ */

/* An entry being read: where its strings go, and the first thing wrong with it. */
typedef struct reader {
    cutune_tune_result *r;
    char *err;
    size_t errsize;
    bool failed;
} reader;

static void bad(reader *rd, const char *what)
{
    if (!rd->failed && rd->err)
        snprintf(rd->err, rd->errsize, "%s", what);
    rd->failed = true;
}

double record_num(json_t *v, double otherwise)
{
    return json_is_number(v) ? json_number_value(v) : otherwise;
}

int64_t record_int(json_t *v, int64_t otherwise)
{
    if (json_is_integer(v))
        return (int64_t)json_integer_value(v);
    double d = json_is_real(v) ? json_real_value(v) : NAN;
    return d > -9.2e18 && d < 9.2e18 ? (int64_t)d : otherwise; /* NaN and out of range: otherwise */
}

/* An int field: int_of, clamped to int's range (otherwise past it). */
static int small_of(json_t *v, int otherwise)
{
    int64_t i = record_int(v, otherwise);
    return i >= -2147483647 - 1 && i <= 2147483647 ? (int)i : otherwise;
}

static const char *str_of(reader *rd, json_t *v, const char *otherwise)
{
    const char *s = json_string_value(v);
    return arena_strdup(rd->r->arena, s ? s : otherwise);
}

static const char **strings_of(reader *rd, json_t *a, int *n)
{
    size_t len = json_is_array(a) ? json_array_size(a) : 0;
    const char **out = arena_alloc(rd->r->arena, sizeof(char *) * (len + 1));
    if (!out)
        return NULL;
    for (size_t i = 0; i < len; i++)
        out[i] = str_of(rd, json_array_get(a, i), "");
    *n = (int)len;
    return out;
}

/* A dimension triple; *ndims is the last one that is not 1 (at least 1). */
static void dims_of(reader *rd, json_t *a, int64_t *d, int *ndims, const char *what)
{
    *ndims = 1;
    if (!json_is_array(a) || json_array_size(a) != 3) {
        bad(rd, what);
        return;
    }
    for (int i = 0; i < 3; i++) {
        d[i] = record_int(json_array_get(a, (size_t)i), 1);
        if (d[i] != 1)
            *ndims = i + 1;
    }
}

static char type_char(const char *type)
{
    return strcmp(type, "float") == 0 ? 'f' : strcmp(type, "bool") == 0 ? 'b' : strcmp(type, "string") == 0 ? 's' : 'i';
}

/* One param's value as text, as the tuner keeps it: integers in decimal, floats in the
 * shortest form that reads back equal (with ".0" when it would read as an integer, as
 * a spec writes floats), booleans as true/false. */
static const char *value_text(reader *rd, json_t *v)
{
    char buf[64];
    if (json_is_integer(v)) {
        snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(v));
    } else if (json_is_real(v)) {
        num_shortest(json_real_value(v), buf, sizeof buf);
        if (!strpbrk(buf, ".eEn"))
            strncat(buf, ".0", sizeof buf - strlen(buf) - 1);
    } else if (json_is_boolean(v)) {
        snprintf(buf, sizeof buf, "%s", json_is_true(v) ? "true" : "false");
    } else if (json_is_string(v)) {
        return str_of(rd, v, "");
    } else {
        bad(rd, "a param's value is missing or not a number, boolean or string");
        return "";
    }
    return arena_strdup(rd->r->arena, buf);
}

/* The variant of a results file's entry. */
static void read_variant(reader *rd, record *rec, json_t *j)
{
    cutune_tune_result *r = rd->r;
    cutune_variant *v = &rec->v;
    json_t *index = json_object_get(j, "index");
    if (!json_is_integer(index) || json_integer_value(index) < 0) {
        bad(rd, "an entry's \"index\" is not a non-negative integer");
        return;
    }
    v->ordinal = (uint64_t)json_integer_value(index);
    v->nparams = r->nparams;
    const char **values = arena_alloc(r->arena, sizeof(char *) * (size_t)(r->nparams + 1));
    char *types = arena_alloc(r->arena, (size_t)r->nparams + 1);
    if (!values || !types) {
        bad(rd, "out of memory");
        return;
    }
    json_t *params = json_object_get(j, "params");
    for (int i = 0; i < r->nparams; i++) {
        json_t *pv = json_object_get(params, r->param_names[i]);
        if (!pv) {
            bad(rd, "an entry lacks the value of a param the spec declares");
            return;
        }
        values[i] = value_text(rd, pv);
        types[i] = type_char(r->param_types[i]);
    }
    v->values = values;
    v->types = types;
    dims_of(rd, json_object_get(j, "block"), v->block, &v->block_dims, "an entry's \"block\" is not 3 numbers");
    dims_of(rd, json_object_get(j, "grid"), v->grid, &v->grid_dims, "an entry's \"grid\" is not 3 numbers");
    v->smem_bytes = record_int(json_object_get(j, "smem_bytes"), 0);
    v->defines = strings_of(rd, json_object_get(j, "defines"), &v->ndefines);
    v->options = strings_of(rd, json_object_get(j, "options"), &v->noptions);
    v->name_expression = str_of(rd, json_object_get(j, "kernel"), r->kernel);
}

/* What only a results file's entry carries about resources and compiling (a resumed
 * record keeps its analysis's). */
static void read_static(reader *rd, record *rec, json_t *j)
{
    cutune_measurement *m = &rec->m;
    json_t *res = json_object_get(j, "resources");
    m->static_smem = record_int(json_object_get(res, "static_smem"), 0);
    m->local_bytes = record_int(json_object_get(res, "local_bytes"), 0);
    m->spill_stores = record_int(json_object_get(res, "spill_stores"), 0);
    m->spill_loads = record_int(json_object_get(res, "spill_loads"), 0);
    json_t *occ = json_object_get(j, "occupancy");
    m->occupancy = record_num(json_object_get(occ, "theoretical"), 0);
    json_t *limiter = json_object_get(occ, "limiter");
    m->limiter = json_is_string(limiter) ? str_of(rd, limiter, "") : NULL;
    m->blocks_per_sm = small_of(json_object_get(occ, "blocks_per_sm"), 0);
    m->compile_seconds = record_num(json_object_get(j, "compile_seconds"), 0);
    m->cached = json_is_true(json_object_get(j, "cached"));
    m->duplicate = json_is_true(json_object_get(j, "duplicate"));
    m->resumed = json_is_true(json_object_get(j, "resumed"));
}

/* The outcome and the measurement, shared by both reads. */
static void read_measurement(reader *rd, record *rec, json_t *j, outcome o)
{
    cutune_tune_result *r = rd->r;
    cutune_measurement *m = &rec->m;
    json_t *reason = json_object_get(j, "reason");
    result_set_outcome(r, rec, o, json_is_string(reason) ? json_string_value(reason) : NULL);
    json_t *res = json_object_get(j, "resources");
    m->registers = small_of(json_object_get(res, "registers"), m->registers);
    json_t *occ = json_object_get(j, "occupancy");
    m->driver_blocks_per_sm = small_of(json_object_get(occ, "driver_blocks_per_sm"), -1);
    json_t *t = json_object_get(j, "time_ms");
    m->timed = json_is_object(t) && o == OUTCOME_OK; /* only a correct run's times count */
    m->objective = NAN;
    m->nmetrics = r->nmetrics;
    m->metric_names = r->metric_names;
    m->metrics = rec->metrics;
    for (int i = 0; i < r->nmetrics; i++)
        rec->metrics[i] = NAN;
    if (m->timed) {
        m->median_ms = record_num(json_object_get(t, "median"), NAN);
        m->min_ms = record_num(json_object_get(t, "min"), NAN);
        m->max_ms = record_num(json_object_get(t, "max"), NAN);
        m->q1_ms = record_num(json_object_get(t, "q1"), NAN);
        m->q3_ms = record_num(json_object_get(t, "q3"), NAN);
        m->spread = record_num(json_object_get(j, "spread"), NAN);
        m->reps = small_of(json_object_get(j, "reps"), 0);
        m->batch = small_of(json_object_get(j, "batch"), 1);
        m->pruned = json_is_true(json_object_get(j, "pruned"));
        m->provisional = json_is_true(json_object_get(j, "provisional"));
        m->objective = record_num(json_object_get(j, "objective"), NAN);
        json_t *mets = json_object_get(j, "metrics");
        for (int i = 0; i < r->nmetrics; i++)
            rec->metrics[i] = record_num(json_object_get(mets, r->metric_names[i]), NAN);
    }
    m->verified = json_is_true(json_object_get(j, "verified"));
    m->max_abs_error = record_num(json_object_get(j, "max_abs_error"), 0);
    m->gpu_seconds = record_num(json_object_get(j, "gpu_seconds"), 0);
    m->timing_seconds = record_num(json_object_get(j, "timing_seconds"), 0);
    m->launches = small_of(json_object_get(j, "launches"), 0); /* absent (an older journal or file): 0 */
    m->same_code_as = record_int(json_object_get(j, "same_code_as"), -1); /* absent: run itself */
    m->started_seconds = record_num(json_object_get(j, "started_s"), 0);
    m->device = (int)record_int(json_object_get(j, "gpu"), -1); /* absent: one GPU's run */
    if (m->device < -1 || m->device > 4096)
        m->device = -1;
    json_t *e = json_object_get(j, "energy"); /* absent when not asked for */
    m->energy_j = record_num(json_object_get(e, "J_per_launch"), NAN);
    m->power_w = record_num(json_object_get(e, "W"), NAN);
    m->energy = isfinite(m->energy_j) && isfinite(m->power_w);
    m->energy_seconds = record_num(json_object_get(e, "window_s"), 0);
    m->energy_launches = (int)record_int(json_object_get(e, "launches"), 0);
    const char *note = json_string_value(json_object_get(e, "not_measured")); /* NULL: none */
    result_set_energy_note(rd->r, rec, note);
    json_t *hw = json_object_get(j, "hw"); /* absent when not profiled */
    json_t *vals = json_object_get(hw, "metrics");
    m->profiled = json_is_object(vals) && rec->hw;
    for (int i = 0; m->profiled && i < rd->r->nhw; i++)
        rec->hw[i] = record_num(json_object_get(vals, rd->r->hw_names[i]), NAN);
    m->profile_passes = m->profiled ? (int)record_int(json_object_get(hw, "passes"), 0) : 0;
    result_set_profile_note(rd->r, rec, json_string_value(json_object_get(hw, "not_measured")));
    if (!(m->started_seconds > 0))
        m->started_seconds = 0;
    if (m->same_code_as < -1)
        m->same_code_as = -1;
}

int record_from_json(cutune_tune_result *r, record *rec, json_t *j, record_read how, char *err, size_t errsize)
{
    reader rd = {r, err, errsize, false};
    outcome o = OUTCOME_NOT_RUN;
    rec->m.variant = &rec->v;
    if (how == RECORD_RESUME) {
        outcome_from_name(json_string_value(json_object_get(j, "status")), &o); /* unknown: not run */
        read_measurement(&rd, rec, j, o);
        rec->m.resumed = 1;
        rec->m.started_seconds = 0; /* the earlier run's clock, not this one's */
        return 0;
    }
    if (!json_is_object(j)) {
        bad(&rd, "an entry of \"results\" is not an object");
        return -1;
    }
    read_variant(&rd, rec, j);
    if (rd.failed)
        return -1;
    json_t *status = json_object_get(j, "status");
    if (!json_is_string(status)) {
        bad(&rd, "an entry has no \"status\"");
        return -1;
    }
    if (!outcome_from_name(json_string_value(status), &o)) {
        bad(&rd, "an entry's \"status\" is not one cutune writes");
        return -1;
    }
    rec->m.registers = 0;
    read_measurement(&rd, rec, j, o);
    read_static(&rd, rec, j);
    return rd.failed ? -1 : 0;
}

