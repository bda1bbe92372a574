/* t4.c - a tuning result in Kernel Tuner's T4 results format (see t4.h;
 * documented in docs/results-format.md; the schema is Kernel Tuner's
 * kernel_tuner/schema/T4/1.0.0/results-schema.json).
 *
 * One writer for both forms: the document is written piece by piece to a sink (a string
 * for t4_emit, a file for t4_emit_scan), each entry made as a small JSON tree, dumped
 * and indented to its place, so that a run is never held whole as JSON. Both give the
 * same bytes as dumping the whole document with JSON_INDENT(1). */
#include "t4.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/err.h"
#include "../base/strbuf.h"
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

/* The T4 entry of record `rec` of result `of`: the result that holds its names (for a
 * run over sizes, its size's result, which also gives its problem size). */
static json_t *t4_result(const cutune_tune_result *of, const record *rec)
{
    const cutune_measurement *m = &rec->m;
    const cutune_variant *v = m->variant;
    const cutune_tune_summary *s = &of->summary;
    json_t *o = json_object();
    json_object_set_new(o, "timestamp", json_string(of->date ? of->date : ""));
    json_t *conf = json_object();
    for (int p = 0; p < v->nparams && p < of->nparams; p++)
        json_object_set_new(conf, of->param_names[p], record_value_json(rec->vals[p])); /* typed, not re-read */
    json_object_set_new(o, "configuration", conf);
    if (of->size_values) /* not in the schema: allowed as an extra key */
        json_object_set_new(o, "problem_size", record_size_json(of));
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
        for (int k = 0; k < m->nmetrics; k++) { /* the record's own: its size's names */
            measure_num(ms, m->metric_names[k], m->metrics[k], "");
            objective_listed |= strcmp(m->metric_names[k], s->objective_name) == 0;
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

/* Where the document goes: write() takes `len` bytes, 0 or -1 (the sink keeps why). */
typedef struct t4_sink {
    int (*write)(void *ctx, const char *text, size_t len);
    void *ctx;
} t4_sink;

static int sink_put(const t4_sink *k, const char *text)
{
    return k->write(k->ctx, text, strlen(text));
}

/* v dumped with JSON_INDENT(1) as a value `depth` levels deep in the document: each line
 * after the first indented by `depth` more spaces, as jansson indents a nested value
 * (a string never holds a raw newline: JSON escapes it). 0, -1 (the sink's failure), or
 * CUTUNE_ENOMEM. */
static int put_value(const t4_sink *k, json_t *v, int depth)
{
    if (!v)
        return CUTUNE_ENOMEM;
    char *text = json_dumps(v, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(v);
    if (!text)
        return CUTUNE_ENOMEM;
    int rc = 0;
    const char *from = text;
    for (const char *nl; rc == 0 && (nl = strchr(from, '\n')); from = nl + 1) {
        rc = k->write(k->ctx, from, (size_t)(nl + 1 - from));
        for (int d = 0; rc == 0 && d < depth; d++)
            rc = k->write(k->ctx, " ", 1);
    }
    if (rc == 0)
        rc = sink_put(k, from);
    free(text);
    return rc;
}

/* The document's head, up to the first entry. */
static int t4_open(const t4_sink *k)
{
    return sink_put(k, "{\n \"schema_version\": \"1.0.0\",\n \"results\": [");
}

/* Entry `i` (0 first) of the document. */
static int t4_entry(const t4_sink *k, const cutune_tune_result *of, const record *rec, uint64_t i)
{
    int rc = sink_put(k, i ? ",\n  " : "\n  ");
    return rc ? rc : put_value(k, t4_result(of, rec), 2);
}

/* The document's tail after `n` entries: the metadata of r (the whole run). */
static int t4_close(const t4_sink *k, const cutune_tune_result *r, uint64_t n, const char *version)
{
    int rc = sink_put(k, n ? "\n ],\n \"metadata\": " : "],\n \"metadata\": ");
    rc = rc ? rc : put_value(k, t4_metadata(r, version), 1);
    return rc ? rc : sink_put(k, "\n}\n");
}

static int to_strbuf(void *ctx, const char *text, size_t len)
{
    sb_addn(ctx, text, len);
    return sb_ok(ctx) ? 0 : -1;
}

int t4_emit(char **out, const cutune_tune_result *r, const char *version)
{
    *out = NULL;
    strbuf b = STRBUF_INIT;
    t4_sink k = {to_strbuf, &b};
    int rc = t4_open(&k);
    for (uint64_t i = 0; rc == 0 && i < r->n; i++) {
        const record *rec = r->records[i];
        const cutune_tune_result *of =
            r->nsizes > 0 && rec->size >= 0 && rec->size < r->nsizes ? r->sizes[rec->size] : r;
        rc = t4_entry(&k, of, rec, i);
    }
    rc = rc ? rc : t4_close(&k, r, r->n, version);
    if (rc == 0)
        *out = sb_steal(&b);
    sb_free(&b);
    return *out ? CUTUNE_OK : CUTUNE_ENOMEM;
}

/* The streamed form: entries from a scan to a stream. */
typedef struct t4_scan {
    t4_sink sink;
    sys_stream *out;
    int write_errno; /* the stream's failure */
    uint64_t n;
    int rc; /* why an entry stopped the scan (a sink's -1, CUTUNE_ENOMEM) */
} t4_scan;

static int to_stream(void *ctx, const char *text, size_t len)
{
    t4_scan *ts = ctx;
    if (sys_stream_write(ts->out, text, len) == 0)
        return 0;
    ts->write_errno = errno;
    return -1;
}

static int scan_entry(void *ctx, const cutune_tune_result *of, const record *rec, uint64_t index)
{
    (void)index;
    t4_scan *ts = ctx;
    ts->rc = t4_entry(&ts->sink, of, rec, ts->n++);
    return ts->rc != 0; /* nonzero stops the scan */
}

int t4_emit_scan(results_scan *scan, sys_stream *out, const char *output_name, const char *version)
{
    t4_scan ts = {{to_stream, NULL}, out, 0, 0, 0};
    ts.sink.ctx = &ts;
    int rc = t4_open(&ts.sink);
    if (rc == 0) {
        int got = results_scan_each(scan, scan_entry, &ts);
        if (got != CUTUNE_OK && ts.rc == 0)
            return got; /* the file: the scan said why */
        rc = ts.rc;
    }
    if (rc == 0)
        rc = t4_close(&ts.sink, results_scan_header(scan), ts.n, version);
    if (rc == CUTUNE_ENOMEM)
        return err_set(CUTUNE_ENOMEM, "out of memory");
    if (rc != 0)
        return err_set(CUTUNE_EIO, "cannot write '%s': %s", output_name, sys_strerror(ts.write_errno));
    return CUTUNE_OK;
}
