/* results_load.c - a results file (format cutune-results, version 1; written by
 * cutune_tune_write_results, documented in docs/results-format.md) read back into a
 * cutune_tune_result, so that a stored run can be inspected and turned into a header,
 * a CSV table or Kernel Tuner's T4 format without a GPU. Also the accessors that say
 * what a result is about. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../base/sys.h"
#include "tune_result.h"

/* A loading failure: the message for cutune_last_error, CUTUNE_EIO. */
typedef struct loader {
    cutune_tune_result *r;
    const char *path;
    bool failed;
} loader;

static void bad(loader *ld, const char *what)
{
    if (!ld->failed)
        api_set_error("'%s' is not a cutune results file: %s", ld->path, what);
    ld->failed = true;
}

static const char *str_of(loader *ld, json_t *v, const char *otherwise)
{
    const char *s = json_string_value(v);
    return arena_strdup(ld->r->arena, s ? s : otherwise);
}

static const char *or_else(const char *s, const char *otherwise)
{
    return s ? s : otherwise;
}

static double num_of(json_t *v, double otherwise)
{
    return json_is_number(v) ? json_number_value(v) : otherwise;
}

static int64_t int_of(json_t *v, int64_t otherwise)
{
    if (json_is_integer(v))
        return (int64_t)json_integer_value(v);
    double d = json_is_real(v) ? json_real_value(v) : NAN;
    return d > -9.2e18 && d < 9.2e18 ? (int64_t)d : otherwise; /* NaN and out of range: otherwise */
}

/* The shortest text that reads back as d (as the spec writes floats: 2.0, 0.5). */
static void format_double(double d, char *buf, size_t size)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    if (!strpbrk(buf, ".eEn"))
        strncat(buf, ".0", size - strlen(buf) - 1);
}

static const char **strings_of(loader *ld, json_t *a, int *n)
{
    size_t len = json_is_array(a) ? json_array_size(a) : 0;
    const char **out = arena_alloc(ld->r->arena, sizeof(char *) * (len + 1));
    if (!out)
        return NULL;
    for (size_t i = 0; i < len; i++)
        out[i] = str_of(ld, json_array_get(a, i), "");
    *n = (int)len;
    return out;
}

/* A dimension triple; *dims is the last one that is not 1 (at least 1). */
static void dims_of(loader *ld, json_t *a, int64_t *d, int *dims, const char *what)
{
    *dims = 1;
    if (!json_is_array(a) || json_array_size(a) != 3) {
        bad(ld, what);
        return;
    }
    for (int i = 0; i < 3; i++) {
        d[i] = int_of(json_array_get(a, (size_t)i), 1);
        if (d[i] != 1)
            *dims = i + 1;
    }
}

static char type_char(const char *type)
{
    return strcmp(type, "float") == 0 ? 'f' : strcmp(type, "bool") == 0 ? 'b' : strcmp(type, "string") == 0 ? 's' : 'i';
}

/* One param's value as text, as the tuner keeps it. */
static const char *value_text(loader *ld, json_t *v)
{
    char buf[64];
    if (json_is_integer(v))
        snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        format_double(json_real_value(v), buf, sizeof buf);
    else if (json_is_boolean(v))
        snprintf(buf, sizeof buf, "%s", json_is_true(v) ? "true" : "false");
    else if (json_is_string(v))
        return str_of(ld, v, "");
    else {
        bad(ld, "a param's value is missing or not a number, boolean or string");
        return "";
    }
    return arena_strdup(ld->r->arena, buf);
}

static void load_record(loader *ld, record *rec, json_t *j)
{
    cutune_tune_result *r = ld->r;
    arena *a = r->arena;
    cutune_variant *v = &rec->v;
    cutune_measurement *m = &rec->m;
    if (!json_is_object(j)) {
        bad(ld, "an entry of \"results\" is not an object");
        return;
    }
    json_t *index = json_object_get(j, "index");
    if (!json_is_integer(index) || json_integer_value(index) < 0) {
        bad(ld, "an entry's \"index\" is not a non-negative integer");
        return;
    }
    v->ordinal = (uint64_t)json_integer_value(index);
    v->nparams = r->nparams;
    const char **values = arena_alloc(a, sizeof(char *) * (size_t)(r->nparams + 1));
    char *types = arena_alloc(a, (size_t)r->nparams + 1);
    if (!values || !types) {
        bad(ld, "out of memory");
        return;
    }
    json_t *params = json_object_get(j, "params");
    for (int i = 0; i < r->nparams; i++) {
        json_t *pv = json_object_get(params, r->param_names[i]);
        if (!pv) {
            bad(ld, "an entry lacks the value of a param the spec declares");
            return;
        }
        values[i] = value_text(ld, pv);
        types[i] = type_char(r->param_types[i]);
    }
    v->values = values;
    v->types = types;
    dims_of(ld, json_object_get(j, "block"), v->block, &v->block_dims, "an entry's \"block\" is not 3 numbers");
    dims_of(ld, json_object_get(j, "grid"), v->grid, &v->grid_dims, "an entry's \"grid\" is not 3 numbers");
    v->smem_bytes = int_of(json_object_get(j, "smem_bytes"), 0);
    v->defines = strings_of(ld, json_object_get(j, "defines"), &v->ndefines);
    v->options = strings_of(ld, json_object_get(j, "options"), &v->noptions);
    v->name_expression = str_of(ld, json_object_get(j, "kernel"), r->kernel);

    m->variant = v;
    json_t *status = json_object_get(j, "status");
    if (!json_is_string(status)) {
        bad(ld, "an entry has no \"status\"");
        return;
    }
    m->status = str_of(ld, status, "");
    json_t *reason = json_object_get(j, "reason");
    m->reason = json_is_string(reason) ? str_of(ld, reason, "") : NULL;
    json_t *res = json_object_get(j, "resources");
    m->registers = (int)int_of(json_object_get(res, "registers"), 0);
    m->static_smem = int_of(json_object_get(res, "static_smem"), 0);
    m->local_bytes = int_of(json_object_get(res, "local_bytes"), 0);
    m->spill_stores = int_of(json_object_get(res, "spill_stores"), 0);
    m->spill_loads = int_of(json_object_get(res, "spill_loads"), 0);
    json_t *occ = json_object_get(j, "occupancy");
    m->occupancy = num_of(json_object_get(occ, "theoretical"), 0);
    json_t *limiter = json_object_get(occ, "limiter");
    m->limiter = json_is_string(limiter) ? str_of(ld, limiter, "") : NULL;
    m->blocks_per_sm = (int)int_of(json_object_get(occ, "blocks_per_sm"), 0);
    m->driver_blocks_per_sm = (int)int_of(json_object_get(occ, "driver_blocks_per_sm"), -1);
    json_t *t = json_object_get(j, "time_ms");
    m->timed = json_is_object(t);
    m->objective = NAN;
    m->nmetrics = r->nmetrics;
    m->metric_names = r->metric_names;
    m->metrics = rec->metrics;
    for (int i = 0; i < r->nmetrics; i++)
        rec->metrics[i] = NAN;
    if (m->timed) {
        m->median_ms = num_of(json_object_get(t, "median"), NAN);
        m->min_ms = num_of(json_object_get(t, "min"), NAN);
        m->max_ms = num_of(json_object_get(t, "max"), NAN);
        m->q1_ms = num_of(json_object_get(t, "q1"), NAN);
        m->q3_ms = num_of(json_object_get(t, "q3"), NAN);
        m->spread = num_of(json_object_get(j, "spread"), NAN);
        m->reps = (int)int_of(json_object_get(j, "reps"), 0);
        m->batch = (int)int_of(json_object_get(j, "batch"), 1);
        m->pruned = json_is_true(json_object_get(j, "pruned"));
        m->objective = num_of(json_object_get(j, "objective"), NAN);
        json_t *mets = json_object_get(j, "metrics");
        for (int i = 0; i < r->nmetrics; i++)
            rec->metrics[i] = num_of(json_object_get(mets, r->metric_names[i]), NAN);
    }
    m->verified = json_is_true(json_object_get(j, "verified"));
    m->max_abs_error = num_of(json_object_get(j, "max_abs_error"), 0);
    m->compile_seconds = num_of(json_object_get(j, "compile_seconds"), 0);
    m->cached = json_is_true(json_object_get(j, "cached"));
    m->duplicate = json_is_true(json_object_get(j, "duplicate"));
    m->gpu_seconds = num_of(json_object_get(j, "gpu_seconds"), 0);
    m->timing_seconds = num_of(json_object_get(j, "timing_seconds"), 0);
    m->resumed = json_is_true(json_object_get(j, "resumed"));
}

/* The metric names, in order of first appearance over the entries. */
static void collect_metrics(loader *ld, json_t *results)
{
    cutune_tune_result *r = ld->r;
    int cap = 0;
    size_t i;
    json_t *j;
    json_array_foreach(results, i, j) {
        const char *key;
        json_t *val;
        json_object_foreach(json_object_get(j, "metrics"), key, val) {
            (void)val;
            bool known = false;
            for (int k = 0; k < r->nmetrics && !known; k++)
                known = strcmp(r->metric_names[k], key) == 0;
            if (!known && ARENA_PUSH(r->arena, r->metric_names, r->nmetrics, cap, arena_strdup(r->arena, key)) < 0)
                bad(ld, "out of memory");
        }
    }
}

/* Options common to every variant come first (the spec's options and include
 * folders); the file does not mark them, so the longest prefix every entry shares is
 * taken as common (none when there is a single entry). */
static void common_options(cutune_tune_result *r)
{
    if (r->n < 2)
        return;
    int common = r->records[0]->v.noptions;
    for (uint64_t i = 1; i < r->n; i++) {
        const cutune_variant *v = &r->records[i]->v;
        int k = 0;
        while (k < common && k < v->noptions && strcmp(v->options[k], r->records[0]->v.options[k]) == 0)
            k++;
        common = k;
    }
    for (uint64_t i = 0; i < r->n; i++)
        r->records[i]->v.ncommon_options = common;
}

static void load_header(loader *ld, json_t *root)
{
    cutune_tune_result *r = ld->r;
    arena *a = r->arena;
    json_t *spec = json_object_get(root, "spec");
    r->spec_path = (char *)str_of(ld, json_object_get(spec, "path"), "");
    r->kernel = (char *)str_of(ld, json_object_get(spec, "kernel"), "");
    r->kernel_file = (char *)str_of(ld, json_object_get(spec, "kernel_file"), "");
    r->date = (char *)str_of(ld, json_object_get(root, "date"), "");
    json_t *params = json_object_get(spec, "params");
    if (!json_is_array(params)) {
        bad(ld, "\"spec\" has no \"params\"");
        return;
    }
    r->nparams = (int)json_array_size(params);
    r->param_names = arena_alloc(a, sizeof(char *) * (size_t)(r->nparams + 1));
    r->param_types = arena_alloc(a, sizeof(char *) * (size_t)(r->nparams + 1));
    if (!r->param_names || !r->param_types) {
        bad(ld, "out of memory");
        return;
    }
    for (int i = 0; i < r->nparams; i++) {
        json_t *p = json_array_get(params, (size_t)i);
        if (!json_is_string(json_object_get(p, "name"))) {
            bad(ld, "a param in \"spec\" has no name");
            return;
        }
        r->param_names[i] = str_of(ld, json_object_get(p, "name"), "");
        r->param_types[i] = str_of(ld, json_object_get(p, "type"), "int");
    }
    json_t *dev = json_object_get(root, "device");
    snprintf(r->device.name, sizeof r->device.name, "%s", or_else(json_string_value(json_object_get(dev, "name")), ""));
    snprintf(r->device.arch, sizeof r->device.arch, "%s", or_else(json_string_value(json_object_get(dev, "arch")), ""));
    r->device.cc = (int)int_of(json_object_get(dev, "compute_capability"), 0);
    r->device.sm_count = (int)int_of(json_object_get(dev, "sm_count"), 0);
    r->device.l2_bytes = (int)int_of(json_object_get(dev, "l2_bytes"), 0);
    r->device.driver_version = (int)int_of(json_object_get(dev, "driver_version"), 0);
    r->device.ordinal = -1;
    json_t *set = json_object_get(root, "settings");
    r->strategy = (char *)str_of(ld, json_object_get(set, "strategy"), "exhaustive");
    r->warmup = int_of(json_object_get(set, "warmup"), 0);
    r->repeat = int_of(json_object_get(set, "repeat"), 0);
    r->max_repeat = int_of(json_object_get(set, "max_repeat"), 0);
    r->spread = num_of(json_object_get(set, "spread"), 0);
    r->flush_l2 = json_is_true(json_object_get(set, "flush_l2"));

    cutune_tune_summary *s = &r->summary;
    snprintf(s->device_name, sizeof s->device_name, "%s", r->device.name);
    snprintf(s->arch, sizeof s->arch, "%s", r->device.arch);
    s->sm_count = r->device.sm_count;
    s->driver_version = r->device.driver_version;
    snprintf(s->reference, sizeof s->reference, "%s", or_else(json_string_value(json_object_get(set, "reference")), ""));
    json_t *obj = json_object_get(root, "objective");
    snprintf(s->objective_name, sizeof s->objective_name, "%s",
             or_else(json_string_value(json_object_get(obj, "name")), "time_ms"));
    s->maximize = json_string_value(json_object_get(obj, "direction")) &&
                  strcmp(json_string_value(json_object_get(obj, "direction")), "maximize") == 0;
    json_t *sum = json_object_get(root, "summary");
    s->variants = (uint64_t)int_of(json_object_get(sum, "variants"), 0);
    s->timed = (uint64_t)int_of(json_object_get(sum, "timed"), 0);
    s->wrong = (uint64_t)int_of(json_object_get(sum, "wrong"), 0);
    s->failed = (uint64_t)int_of(json_object_get(sum, "failed"), 0);
    s->unlaunchable = (uint64_t)int_of(json_object_get(sum, "unlaunchable"), 0);
    s->pruned = (uint64_t)int_of(json_object_get(sum, "pruned"), 0);
    json_t *best = json_object_get(sum, "best");
    if (best && !json_is_null(best) && !json_is_integer(best))
        bad(ld, "\"summary\".\"best\" is neither an index into \"results\" nor null");
    s->best = json_is_integer(best) ? (int64_t)json_integer_value(best) : -1;
    s->wall_seconds = num_of(json_object_get(sum, "wall_seconds"), 0);
    s->compile_seconds = num_of(json_object_get(sum, "compile_seconds"), 0);
    s->compile_wall_seconds = num_of(json_object_get(sum, "compile_wall_seconds"), 0);
    s->gpu_seconds = num_of(json_object_get(sum, "gpu_seconds"), 0);
    s->timing_seconds = num_of(json_object_get(sum, "timing_seconds"), 0);
    s->threads = (int)int_of(json_object_get(sum, "threads"), 0);
    s->interrupted = json_is_true(json_object_get(sum, "interrupted"));
    s->resumed = (uint64_t)int_of(json_object_get(sum, "resumed"), 0);
}

static void load_root(loader *ld, json_t *root)
{
    cutune_tune_result *r = ld->r;
    const char *format = json_string_value(json_object_get(root, "format"));
    if (!format || strcmp(format, "cutune-results") != 0) {
        bad(ld, "its \"format\" is not \"cutune-results\"");
        return;
    }
    json_t *version = json_object_get(root, "version");
    if (!json_is_integer(version) || json_integer_value(version) < 1) {
        bad(ld, "it has no valid \"version\"");
        return;
    }
    if (json_integer_value(version) > 1) {
        api_set_error("'%s' is a cutune results file of version %lld; this cutune reads version 1", ld->path,
                      (long long)json_integer_value(version));
        ld->failed = true;
        return;
    }
    json_t *results = json_object_get(root, "results");
    if (!json_is_array(results)) {
        bad(ld, "it has no \"results\" array");
        return;
    }
    load_header(ld, root);
    collect_metrics(ld, results);
    size_t n = json_array_size(results);
    r->records = calloc(n + 1, sizeof(record *));
    r->cap = n + 1;
    if (!r->records) {
        bad(ld, "out of memory");
        return;
    }
    for (size_t i = 0; i < n && !ld->failed; i++) {
        record *rec = arena_alloc(r->arena, sizeof *rec);
        if (rec)
            rec->metrics = arena_alloc(r->arena, sizeof(double) * (size_t)(r->nmetrics + 1));
        if (!rec || !rec->metrics) {
            bad(ld, "out of memory");
            return;
        }
        load_record(ld, rec, json_array_get(results, i));
        r->records[r->n++] = rec;
    }
    if (ld->failed)
        return;
    common_options(r);
    if (r->summary.best >= (int64_t)r->n || r->summary.best < -1) {
        bad(ld, "\"summary\".\"best\" is not an index into \"results\"");
        return;
    }
    const cutune_measurement *best = r->summary.best >= 0 ? &r->records[r->summary.best]->m : NULL;
    if (best && !result_can_win(best)) {
        api_set_error("'%s': \"summary\".\"best\" is entry %lld, which %s: a winner must have run correctly and "
                      "been timed in full (the file was edited or is damaged)", ld->path, (long long)r->summary.best,
                      strcmp(best->status, "ok") != 0 ? "did not run correctly" : "was not timed in full");
        ld->failed = true;
        return;
    }
    if (r->summary.variants == 0)
        r->summary.variants = r->n;
}

/* The recorded spec's file, found the same way from any working folder: an absolute
 * recorded path as it is; a relative one (files written before paths were recorded
 * canonical: relative to where tuning ran) beside the results file, then in each
 * folder above it. Sets r->spec_found (canonical, in the arena) or leaves it NULL. */
static void find_spec(cutune_tune_result *r, const char *results_path)
{
    const char *rec = r->spec_path;
    if (!rec || !rec[0])
        return;
    char *found = NULL;
    if (rec[0] == '/') {
        found = sys_canonical_path(rec);
    } else {
        char *dir = sys_canonical_path(results_path);
        char *slash = dir ? strrchr(dir, '/') : NULL;
        while (slash && !found) {
            *slash = '\0'; /* dir is now the folder (empty for the root) */
            size_t size = strlen(dir) + strlen(rec) + 2;
            char *candidate = malloc(size);
            if (!candidate)
                break;
            snprintf(candidate, size, "%s/%s", dir, rec);
            struct stat st;
            if (stat(candidate, &st) == 0 && S_ISREG(st.st_mode))
                found = sys_canonical_path(candidate);
            free(candidate);
            slash = strrchr(dir, '/');
        }
        free(dir);
    }
    if (found)
        r->spec_found = arena_strdup(r->arena, found); /* NULL when out of memory: not found */
    free(found);
}

int cutune_results_load(cutune_tune_result **out, const char *path)
{
    if (!out || !path) {
        api_set_error("cutune_results_load: no output or path");
        return CUTUNE_EINVAL;
    }
    *out = NULL;
    size_t len;
    char *text = sys_read_file(path, SYS_LIMIT_STORED, &len);
    if (!text) {
        int saved = errno;
        api_set_error("cannot read '%s': %s", path, sys_strerror(saved));
        return saved == ENOMEM ? CUTUNE_ENOMEM : CUTUNE_EIO;
    }
    json_error_t jerr;
    json_t *root = json_loadb(text, len, JSON_DECODE_ANY, &jerr);
    free(text);
    if (!root) {
        api_set_error("'%s' is not JSON: line %d: %s", path, jerr.line, jerr.text);
        return CUTUNE_EIO;
    }
    cutune_tune_result *r = calloc(1, sizeof *r);
    if (!r || !(r->arena = arena_new())) {
        free(r);
        json_decref(root);
        api_set_error("out of memory");
        return CUTUNE_ENOMEM;
    }
    r->summary.best = -1;
    loader ld = {r, path, false};
    if (!json_is_object(root))
        bad(&ld, "it is not a JSON object");
    else
        load_root(&ld, root);
    json_decref(root);
    if (ld.failed) {
        cutune_tune_result_free(r);
        return CUTUNE_EIO;
    }
    snprintf(r->summary.results_path, sizeof r->summary.results_path, "%s", path);
    find_spec(r, path);
    *out = r;
    return CUTUNE_OK;
}

/* ---- what a result is about --------------------------------------------------------- */

const cutune_measurement *cutune_tune_best(const cutune_tune_result *r)
{
    if (!r || r->summary.best < 0 || (uint64_t)r->summary.best >= r->n)
        return NULL;
    const cutune_measurement *m = &r->records[r->summary.best]->m;
    return result_can_win(m) ? m : NULL; /* never a record that did not run correctly */
}

const char *cutune_tune_spec_path(const cutune_tune_result *r)
{
    return r->spec_found ? r->spec_found : r->spec_path ? r->spec_path : "";
}
const char *cutune_tune_kernel(const cutune_tune_result *r) { return r->kernel ? r->kernel : ""; }
const char *cutune_tune_date(const cutune_tune_result *r) { return r->date ? r->date : ""; }
int cutune_tune_param_count(const cutune_tune_result *r) { return r->nparams; }
const cutune_device *cutune_tune_device(const cutune_tune_result *r) { return &r->device; }

const char *cutune_tune_param_name(const cutune_tune_result *r, int i)
{
    return i >= 0 && i < r->nparams ? r->param_names[i] : NULL;
}

const char *cutune_tune_param_type(const cutune_tune_result *r, int i)
{
    return i >= 0 && i < r->nparams ? r->param_types[i] : NULL;
}

void cutune_free(void *p)
{
    free(p);
}
