/* record.c - a record to and from its JSON entry (see record.h; the format is
 * docs/results-format.md). */
#include "record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/csv.h"
#include "../base/err.h"
#include "../compiler/devattrs.h"
#include "../compiler/plan.h"

json_t *record_number(double d)
{
    return isfinite(d) ? json_real(d) : json_null();
}

json_t *record_value_json(value v)
{
    switch (v.type) {
    case VT_INT: return json_integer((json_int_t)v.u.i);
    case VT_FLOAT: return json_real(v.u.f);
    case VT_BOOL: return json_boolean(v.u.b);
    case VT_STRING: return json_string(v.u.s);
    default: return json_null();
    }
}

vtype record_param_type(const char *type)
{
    return strcmp(type, "float") == 0    ? VT_FLOAT
           : strcmp(type, "bool") == 0   ? VT_BOOL
           : strcmp(type, "string") == 0 ? VT_STRING
                                         : VT_INT;
}

/* v as JSON text for a message: ASCII only (control characters and other bytes as
 * \u escapes, so a message cannot drive a terminal), at most about 60 characters. */
const char *record_shown(json_t *v, char *buf, size_t size)
{
    char *t = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_ENSURE_ASCII | JSON_COMPACT) : NULL;
    if (!t)
        snprintf(buf, size, "%s", v ? "(a value)" : "nothing");
    else if (strlen(t) > 60)
        snprintf(buf, size, "%.57s...", t);
    else
        snprintf(buf, size, "%s", t);
    free(t);
    return buf;
}

/* The largest integer a double holds exactly, and all below it. */
#define EXACT_IN_DOUBLE ((json_int_t)1 << 53)

const char *record_value_of(json_t *j, vtype t, value *out)
{
    switch (t) {
    case VT_INT:
        if (!json_is_integer(j))
            return "is not an integer: an int param's value is a JSON integer (1000000, not 1000000.0, true or "
                   "\"0x40\")";
        *out = value_int((int64_t)json_integer_value(j));
        return NULL;
    case VT_FLOAT:
        if (json_is_real(j)) {
            *out = value_float(json_real_value(j));
            return NULL;
        }
        if (!json_is_integer(j) || json_integer_value(j) < -EXACT_IN_DOUBLE || json_integer_value(j) > EXACT_IN_DOUBLE)
            return "is not a number a float param holds exactly";
        *out = value_float((double)json_integer_value(j));
        return NULL;
    case VT_BOOL:
        if (!json_is_boolean(j))
            return "is not true or false: a bool param's value is a JSON boolean";
        *out = value_bool(json_is_true(j));
        return NULL;
    case VT_STRING:
        if (!json_is_string(j))
            return "is not a string: a string param's value is a JSON string";
        *out = value_string(json_string_value(j));
        return NULL;
    default: return "is of no param type";
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

/* Whether field f's key is written (and its CSV cell filled): its `when`. */
bool record_field_shown(const cutune_tune_result *r, const record *rec, const mfield *f)
{
    const cutune_measurement *m = &rec->m;
    const char *s = f->kind == MK_STR ? *(const char *const *)((const char *)m + f->off) : NULL;
    double d = f->kind == MK_STR ? (s != NULL) : mfield_number(m, f);
    switch (f->when) {
    case MW_ALWAYS: return true;
    case MW_TIMED: return m->timed;
    case MW_VERIFIED: return m->verified;
    case MW_NONNEG: return d >= 0;
    case MW_SET: return d != 0;
    case MW_POSITIVE: return d > 0;
    case MW_GPUS: return d >= 0 && r->summary.ndevices > 1;
    case MW_ENERGY: return m->energy;
    case MW_NOTE: return !m->energy && s;
    case MW_PROFILED: return m->profiled;
    }
    return false;
}

/* One value per name, as {"name": number, ...}. */
static json_t *named(const char *const *names, const double *values, int n)
{
    json_t *o = json_object();
    for (int i = 0; values && i < n; i++)
        json_object_set_new(o, names[i], record_number(values[i]));
    return o;
}

/* The variant's own keys of an entry (between "reason" and "resources"). */
static void variant_json(json_t *o, const cutune_variant *v)
{
    json_object_set_new(o, "kernel", json_string(v->name_expression));
    json_object_set_new(o, "block", dims(v->block));
    json_object_set_new(o, "grid", dims(v->grid));
    json_object_set_new(o, "smem_bytes", json_integer((json_int_t)v->smem_bytes));
    json_object_set_new(o, "defines", strings(v->defines, v->ndefines));
    json_object_set_new(o, "options", strings(v->options, v->noptions));
}

/* Field f's JSON value (new reference). */
static json_t *field_json(const record *rec, const mfield *f)
{
    const cutune_measurement *m = &rec->m;
    const char *at = (const char *)m + f->off;
    switch (f->kind) {
    case MK_INT: return json_integer(*(const int *)at);
    case MK_I64: return json_integer((json_int_t) * (const int64_t *)at);
    case MK_BOOL: return json_boolean(*(const int *)at);
    case MK_NUM: return record_number(*(const double *)at);
    case MK_STR: return *(const char *const *)at ? json_string(*(const char *const *)at) : json_null();
    case MK_METRICS: return named(m->metric_names, m->metrics, m->nmetrics);
    case MK_HW: return named(m->hw_names, m->hw, m->nhw);
    case MK_VARIANT: break;
    }
    return json_null();
}

json_t *record_to_json(const cutune_tune_result *r, const record *rec)
{
    const cutune_variant *v = &rec->v;
    json_t *o = json_object(), *params = json_object();
    json_object_set_new(o, "index", json_integer((json_int_t)v->ordinal));
    for (int i = 0; i < v->nparams; i++) /* the typed configuration, never its text read back */
        json_object_set_new(params, r->param_names[i], record_value_json(rec->vals[i]));
    json_object_set_new(o, "params", params);
    if (r->size_values) /* a run over sizes: the entry says which (docs/results-format.md) */
        json_object_set_new(o, "size", record_size_json(r));
    json_object_set_new(o, "status", json_string(outcome_name(rec->out)));
    for (int i = 0; i < mfield_count; i++) { /* the measurement, in the list's order */
        const mfield *f = &mfields[i];
        if (f->kind == MK_VARIANT) {
            variant_json(o, v);
            continue;
        }
        if (!f->key)
            continue; /* a flag: the shape of what follows says it */
        json_t *in = o;
        if (f->group) {
            in = json_object_get(o, f->group);
            if (!json_is_object(in) && (record_field_shown(r, rec, f) || f->absent == MA_NULL)) {
                in = json_object();
                json_object_set_new(o, f->group, in);
            }
        }
        if (record_field_shown(r, rec, f))
            json_object_set_new(in, f->key, field_json(rec, f));
        else if (f->absent == MA_NULL)
            json_object_set_new(in, f->key, json_null());
        else if (f->absent == MA_GROUP_NULL && !json_object_get(o, f->group))
            json_object_set_new(o, f->group, json_null());
    }
    return o;
}

/* ---- reading ------------------------------------------------------------------------ */

/* An entry being read: where its strings go, and the first thing wrong with it. */
typedef struct reader {
    cutune_tune_result *r;
    bool failed;
} reader;

/* The first thing wrong with the entry becomes the error (CUTUNE_EIO). */
static void bad(reader *rd, const char *what)
{
    if (!rd->failed)
        err_set(CUTUNE_EIO, "%s", what);
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

/* Param i's value of entry `params` into rec->vals[i] (strings copied into the arena),
 * exactly of the param's type (record_value_of), and its text into values[i], as the
 * tuner writes it (value_format: one text per value). */
static void read_value(reader *rd, record *rec, json_t *params, int i, const char **values)
{
    cutune_tune_result *r = rd->r;
    json_t *pv = json_object_get(params, r->param_names[i]);
    if (!pv) {
        bad(rd, "an entry lacks the value of a param the spec declares");
        return;
    }
    value *v = &rec->vals[i];
    const char *why = record_value_of(pv, record_param_type(r->param_types[i]), v);
    if (why) {
        char buf[80];
        if (!rd->failed)
            err_set(CUTUNE_EIO, "params.%s: %s %s", r->param_names[i], record_shown(pv, buf, sizeof buf), why);
        rd->failed = true;
        return;
    }
    if (v->type == VT_STRING && !(v->u.s = arena_strdup(r->arena, v->u.s))) {
        bad(rd, "out of memory");
        return;
    }
    strbuf sb = STRBUF_INIT;
    value_format(*v, &sb, false);
    values[i] = sb_ok(&sb) ? arena_strdup(r->arena, sb_cstr(&sb)) : NULL;
    sb_free(&sb);
    if (!values[i])
        bad(rd, "out of memory");
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
    rec->vals = arena_alloc(r->arena, sizeof(value) * (size_t)(r->nparams + 1));
    if (!values || !types || !rec->vals) {
        bad(rd, "out of memory");
        return;
    }
    json_t *params = json_object_get(j, "params");
    for (int i = 0; i < r->nparams && !rd->failed; i++) {
        read_value(rd, rec, params, i, values);
        types[i] = vtype_name(record_param_type(r->param_types[i]))[0];
    }
    if (rd->failed)
        return;
    v->values = values;
    v->types = types;
    if (!(v->typed = plan_typed_values(r->arena, rec->vals, values, r->nparams))) {
        bad(rd, "out of memory");
        return;
    }
    dims_of(rd, json_object_get(j, "block"), v->block, &v->block_dims, "an entry's \"block\" is not 3 numbers");
    dims_of(rd, json_object_get(j, "grid"), v->grid, &v->grid_dims, "an entry's \"grid\" is not 3 numbers");
    v->smem_bytes = record_int(json_object_get(j, "smem_bytes"), 0);
    v->defines = strings_of(rd, json_object_get(j, "defines"), &v->ndefines);
    v->options = strings_of(rd, json_object_get(j, "options"), &v->noptions);
    v->name_expression = str_of(rd, json_object_get(j, "kernel"), r->kernel);
}

/* Field f of entry j into rec, when `how` reads it (measurement_fields.h: read, dflt,
 * lo, hi). */
static void read_field(reader *rd, record *rec, json_t *j, const mfield *f, record_read how)
{
    cutune_tune_result *r = rd->r;
    cutune_measurement *m = &rec->m;
    char *at = (char *)m + f->off;
    if (f->read == MR_NONE || (f->read == MR_WHOLE && how == RECORD_RESUME) || (f->read == MR_TIMED && !m->timed) ||
        (f->read == MR_PROFILED && !m->profiled))
        return;
    json_t *v = json_object_get(f->group ? json_object_get(j, f->group) : j, f->key);
    bool keep = f->read == MR_KEEP && how != RECORD_WHOLE; /* missing: the record's own */
    double d = f->dflt;
    switch (f->kind) {
    case MK_INT: d = small_of(v, keep ? *(int *)at : (int)f->dflt); break;
    case MK_I64: {
        int64_t x = record_int(v, keep ? *(int64_t *)at : (int64_t)f->dflt);
        *(int64_t *)at = (double)x >= f->lo && (double)x <= f->hi ? x : (int64_t)f->dflt;
        return;
    }
    case MK_BOOL: d = json_is_true(v); break;
    case MK_NUM: d = record_num(v, keep ? *(double *)at : f->dflt); break;
    case MK_STR: *(const char **)at = json_is_string(v) ? str_of(rd, v, "") : NULL; return;
    case MK_METRICS:
        for (int i = 0; i < r->nmetrics; i++)
            rec->metrics[i] = record_num(json_object_get(v, r->metric_names[i]), f->dflt);
        return;
    case MK_HW:
        for (int i = 0; rec->hw && i < r->nhw; i++)
            rec->hw[i] = record_num(json_object_get(v, r->hw_names[i]), f->dflt);
        return;
    case MK_VARIANT: return;
    }
    if (!(d >= f->lo && d <= f->hi)) /* out of its range: as if missing */
        d = f->dflt;
    switch (f->kind) {
    case MK_INT:
    case MK_BOOL: *(int *)at = (int)d; break;
    default: *(double *)at = d; break;
    }
}

/* The outcome and the measurement: every field of the list `how` reads, the flags
 * the entry's shape says (timed: "time_ms" is an object, and only an ok outcome's
 * times count; profiled: "hw" has metrics; energy: both its figures are numbers). */
static void read_measurement(reader *rd, record *rec, json_t *j, outcome o, record_read how)
{
    cutune_tune_result *r = rd->r;
    cutune_measurement *m = &rec->m;
    rec->out = o;
    m->timed = json_is_object(json_object_get(j, "time_ms")) && o == OUTCOME_OK;
    m->profiled = json_is_object(json_object_get(json_object_get(j, "hw"), "metrics")) && rec->hw;
    m->objective = NAN;
    m->nmetrics = r->nmetrics;
    m->metric_names = r->metric_names;
    m->metrics = rec->metrics;
    for (int i = 0; i < r->nmetrics; i++)
        rec->metrics[i] = NAN;
    for (int i = 0; i < mfield_count; i++)
        read_field(rd, rec, j, &mfields[i], how);
    m->energy = isfinite(m->energy_j) && isfinite(m->power_w);
}

int record_from_json(cutune_tune_result *r, record *rec, json_t *j, record_read how)
{
    reader rd = {r, false};
    outcome o = OUTCOME_NOT_RUN;
    rec->m.variant = &rec->v;
    if (how != RECORD_WHOLE) {
        outcome_from_name(json_string_value(json_object_get(j, "status")), &o); /* unknown: not run */
        read_measurement(&rd, rec, j, o, how);
        rec->m.resumed = 1;
        rec->m.started_seconds = 0; /* the earlier run's clock, not this one's */
        return 0;
    }
    if (!json_is_object(j))
        bad(&rd, "an entry of \"results\" is not an object");
    else
        read_variant(&rd, rec, j);
    json_t *status = json_object_get(j, "status");
    if (!rd.failed && !json_is_string(status))
        bad(&rd, "an entry has no \"status\"");
    else if (!rd.failed && !outcome_from_name(json_string_value(status), &o))
        bad(&rd, "an entry's \"status\" is not one cutune writes");
    if (rd.failed)
        return -1;
    read_measurement(&rd, rec, j, o, how);
    return rd.failed ? -1 : 0;
}
