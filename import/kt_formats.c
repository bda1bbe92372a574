/* kt_formats.c - the two files Kernel Tuner writes, read entry by entry (see
 * kt_internal.h): its cache file (tune_kernel's `cachefile`: kernel_tuner/util.py's
 * store_cache, schema kernel_tuner/schema/cache/1.x) and its T4 results file
 * (store_output_file in kernel_tuner/file_utils.py, schema T4/1.0.0/results-schema.json).
 * Each entry's configuration goes to kt_configuration, its outcome and times to
 * kt_add; what the file says of itself goes into the result's "source". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../base/err.h"
#include "kt_internal.h"

kt_format kt_detect(json_t *root)
{
    if (!json_is_object(root) || json_object_get(root, "format"))
        return KT_NEITHER;
    if (json_object_get(root, "cache"))
        return KT_CACHE;
    if (json_object_get(root, "results"))
        return KT_T4;
    return KT_NEITHER;
}

const char *kt_device_name(json_t *root, kt_format fmt)
{
    const char *name = NULL;
    if (fmt == KT_CACHE) {
        name = json_string_value(json_object_get(root, "device_name"));
    } else { /* a T4 file carries T4's metadata when its writer added it: cutune's, or nvidia-smi's query */
        json_t *query =
            json_object_get(json_object_get(json_object_get(root, "metadata"), "environment"), "device_query");
        name = json_string_value(json_object_get(json_object_get(query, "cutune"), "name"));
        json_t *gpu = json_object_get(json_object_get(json_object_get(query, "nvidia-smi"), "nvidia_smi_log"), "gpu");
        if (!name)
            name =
                json_string_value(json_object_get(json_is_array(gpu) ? json_array_get(gpu, 0) : gpu, "product_name"));
    }
    return name && *name ? name : NULL;
}

/* A number of milliseconds (or seconds...) at `where` into *out: absent is 0; present,
 * it must be a finite number of at least 0. */
static int duration(const kt_import_state *k, json_t *obj, const char *key, const char *where, double scale,
                    double *out)
{
    json_t *v = json_object_get(obj, key);
    *out = 0;
    if (!v)
        return CUTUNE_OK;
    char at[600], buf[80];
    if (!json_is_number(v) || json_number_value(v) < 0 || !isfinite(json_number_value(v))) {
        snprintf(at, sizeof at, "%s.%s", where, key);
        return kt_refuse(k, at, "%s is not a duration (a number of at least 0)", record_shown(v, buf, sizeof buf));
    }
    *out = json_number_value(v) * scale;
    return CUTUNE_OK;
}

/* The runtimes at `where` (an array of durations) into *buf (grown as needed),
 * scaled; *n how many (0 when absent). */
static int runtimes(const kt_import_state *k, json_t *arr, const char *where, double scale, double **buf, size_t *cap,
                    size_t *n)
{
    *n = 0;
    if (!arr)
        return CUTUNE_OK;
    char buf_shown[80];
    if (!json_is_array(arr))
        return kt_refuse(k, where, "%s is not a list of runtimes", record_shown(arr, buf_shown, sizeof buf_shown));
    size_t len = json_array_size(arr);
    if (len > *cap) {
        double *grown = realloc(*buf, sizeof(double) * len);
        if (!grown)
            return err_set(CUTUNE_ENOMEM, "out of memory importing '%s'", k->path);
        *buf = grown;
        *cap = len;
    }
    for (size_t i = 0; i < len; i++) {
        json_t *v = json_array_get(arr, i);
        if (!json_is_number(v) || json_number_value(v) < 0 || !isfinite(json_number_value(v))) {
            char at[600];
            snprintf(at, sizeof at, "%s[%zu]", where, i);
            return kt_refuse(k, at, "%s is not a runtime (a number of at least 0)",
                             record_shown(v, buf_shown, sizeof buf_shown));
        }
        (*buf)[i] = json_number_value(v) * scale;
    }
    *n = len;
    return CUTUNE_OK;
}

/* Kernel Tuner's failures: its error strings (kernel_tuner/util.py's ErrorConfig
 * classes) and the T4 `invalidity` values they become (file_utils.py's
 * get_configuration_validity), as outcomes. */
static const struct {
    const char *cache, *t4;
    outcome out;
    const char *reason;
} failures[] = {
    {"CompilationFailedConfig", "compile", OUTCOME_COMPILE_ERROR, "Kernel Tuner: compile (CompilationFailedConfig)"},
    {"RuntimeFailedConfig", "runtime", OUTCOME_LAUNCH_ERROR, "Kernel Tuner: runtime (RuntimeFailedConfig)"},
    {"InvalidConfig", "constraints", OUTCOME_NOT_RUN,
     "Kernel Tuner: constraints (InvalidConfig): it broke a restriction or a device limit, and was not run"},
    {NULL, "correctness", OUTCOME_WRONG, "Kernel Tuner: correctness: its output did not match the answer"},
    {NULL, "timeout", OUTCOME_TIMEOUT, "Kernel Tuner: timeout"},
};

/* Older Kernel Tuner recorded a configuration that failed to compile or to run with
 * this time, without saying which. */
#define KT_OLD_FAILURE 1e20

/* A cache entry's key is its values joined by ',' as Python prints them, in
 * tune_params_keys' order (order[i]: the param of piece i). Refused when it names other
 * values than the entry's (k->vals); a key that does not split into one piece per
 * param (a string value with a comma) is not checked. */
static int check_key(const kt_import_state *k, const char *key, const int *order, const char *where)
{
    const model *m = k->m;
    const char *piece = key;
    for (int i = 0; i < m->nparams; i++) {
        const char *end = strchr(piece, ',');
        if ((i < m->nparams - 1) != (end != NULL))
            return CUTUNE_OK; /* not one piece per param: not checked */
        size_t len = end ? (size_t)(end - piece) : strlen(piece);
        value v = k->vals[order[i]];
        char text[64];
        bool same;
        if (v.type == VT_FLOAT) {
            char *stop = NULL;
            snprintf(text, sizeof text, "%.*s", (int)(len < 63 ? len : 63), piece);
            double d = strtod(text, &stop);
            same = len < 63 && stop && *stop == '\0' && d == v.u.f;
        } else if (v.type == VT_STRING) {
            same = strlen(v.u.s) == len && memcmp(v.u.s, piece, len) == 0;
        } else {
            if (v.type == VT_BOOL)
                snprintf(text, sizeof text, "%s", v.u.b ? "True" : "False");
            else
                snprintf(text, sizeof text, "%lld", (long long)v.u.i);
            same = strlen(text) == len && memcmp(text, piece, len) == 0;
        }
        if (!same)
            return kt_refuse(k, where,
                             "the key's piece %d (\"%.*s\") is not the entry's value of '%s': the key Kernel Tuner "
                             "looks the entry up by names another configuration",
                             i + 1, (int)(len < 60 ? len : 60), piece, m->params[order[i]].name);
        piece = end ? end + 1 : piece + len;
    }
    return CUTUNE_OK;
}

/* Remembers a cache entry's key as entry k->nentries's label. */
static int keep_label(kt_import_state *k, const char *key)
{
    if (k->nentries >= k->cap_labels) {
        size_t cap = k->cap_labels ? k->cap_labels * 2 : 1024;
        const char **grown = realloc(k->labels, sizeof(char *) * cap);
        if (!grown)
            return err_set(CUTUNE_ENOMEM, "out of memory importing '%s'", k->path);
        k->labels = grown;
        k->cap_labels = cap;
    }
    k->labels[k->nentries] = key;
    return CUTUNE_OK;
}

/* tune_params_keys: the spec's params, each once, in the order of the cache's keys
 * (order[i]: the param of key piece i). */
static int cache_params(kt_import_state *k, json_t *root, int *order)
{
    const model *m = k->m;
    json_t *keys = json_object_get(root, "tune_params_keys");
    char at[80], buf[80];
    if (!json_is_array(keys))
        return kt_refuse(k, "tune_params_keys", "%s is not the list of the tuned params' names",
                         record_shown(keys, buf, sizeof buf));
    bool *named = calloc((size_t)m->nparams + 1, sizeof(bool));
    if (!named)
        return err_set(CUTUNE_ENOMEM, "out of memory importing '%s'", k->path);
    int rc = CUTUNE_OK;
    size_t i;
    json_t *name;
    json_array_foreach(keys, i, name)
    {
        snprintf(at, sizeof at, "tune_params_keys[%zu]", i);
        int p = -1;
        for (int q = 0; q < m->nparams && p < 0 && json_is_string(name); q++)
            if (strcmp(m->params[q].name, json_string_value(name)) == 0)
                p = q;
        if (p < 0 || named[p] || i >= (size_t)m->nparams) {
            rc = kt_refuse(k, at, "%s is %s", record_shown(name, buf, sizeof buf),
                           p < 0 ? "not a param of the spec: the cache tunes another space" : "named twice");
            break;
        }
        named[p] = true;
        order[i] = p;
    }
    for (int p = 0; rc == CUTUNE_OK && p < m->nparams; p++)
        if (!named[p])
            rc = kt_refuse(k, "tune_params_keys", "lacks the spec's param '%s': the cache tunes another space",
                           m->params[p].name);
    free(named);
    return rc;
}

/* A cache entry's outcome and times (the configuration is read). */
static int cache_entry(kt_import_state *k, json_t *entry, const char *where, kt_entry *e, double **samples, size_t *cap)
{
    char at[600], buf[80];
    json_t *t = json_object_get(entry, "time");
    memset(e, 0, sizeof *e);
    e->out = OUTCOME_OK;
    snprintf(at, sizeof at, "%s.time", where);
    if (json_is_string(t)) {
        e->out = OUTCOME_NOT_RUN;
        for (size_t i = 0; i < sizeof failures / sizeof *failures; i++)
            if (failures[i].cache && strcmp(failures[i].cache, json_string_value(t)) == 0) {
                e->out = failures[i].out;
                e->reason = failures[i].reason;
            }
        if (!e->reason)
            return kt_refuse(k, at,
                             "%s is not Kernel Tuner's time: a number of milliseconds, or \"InvalidConfig\", "
                             "\"CompilationFailedConfig\" or \"RuntimeFailedConfig\"",
                             record_shown(t, buf, sizeof buf));
    } else if (json_is_number(t) && json_number_value(t) >= KT_OLD_FAILURE) {
        e->out = OUTCOME_LAUNCH_ERROR;
        e->reason = "Kernel Tuner: 1e20 (an older Kernel Tuner's mark of a configuration that failed to compile or "
                    "to run; which, it did not record)";
    } else if (json_is_number(t) && json_number_value(t) >= 0) {
        e->time_ms = json_number_value(t);
    } else {
        return kt_refuse(k, at, "%s is not Kernel Tuner's time (a number of milliseconds of at least 0, or its error)",
                         t ? record_shown(t, buf, sizeof buf) : "missing:");
    }
    int rc;
    snprintf(at, sizeof at, "%s.times", where);
    if ((rc = runtimes(k, json_object_get(entry, "times"), at, 1.0, samples, cap, &e->nruntimes)) != CUTUNE_OK ||
        (rc = duration(k, entry, "compile_time", where, 1.0, &e->compile_ms)) != CUTUNE_OK ||
        (rc = duration(k, entry, "benchmark_time", where, 1.0, &e->benchmark_ms)) != CUTUNE_OK ||
        (rc = duration(k, entry, "verification_time", where, 1.0, &e->verification_ms)) != CUTUNE_OK)
        return rc;
    e->runtimes = *samples;
    return CUTUNE_OK;
}

int kt_read_cache(kt_import_state *k, json_t *root)
{
    const model *m = k->m;
    char buf[80];
    json_t *kernel = json_object_get(root, "kernel_name");
    if (kernel && (!json_is_string(kernel) || strcmp(json_string_value(kernel), m->kernel) != 0))
        return kt_refuse(k, "kernel_name", "%s is not the spec's kernel ('%s'): the cache of another kernel",
                         record_shown(kernel, buf, sizeof buf), m->kernel);
    static const char *const copied[] = {"schema_version", "objective", "problem_size", "kernel_name"};
    for (size_t i = 0; i < sizeof copied / sizeof *copied; i++) { /* what the cache says of itself */
        json_t *v = json_object_get(root, copied[i]);
        if (v && (json_is_string(v) || json_is_number(v) || json_is_array(v)))
            json_object_set(k->source, copied[i], v);
    }
    int *order = calloc((size_t)m->nparams + 1, sizeof(int));
    if (!order)
        return err_set(CUTUNE_ENOMEM, "out of memory importing '%s'", k->path);
    int rc = cache_params(k, root, order);
    json_t *cache = json_object_get(root, "cache");
    if (rc == CUTUNE_OK && !json_is_object(cache))
        rc = kt_refuse(k, "cache", "%s is not an object of entries", record_shown(cache, buf, sizeof buf));
    double *samples = NULL;
    size_t cap = 0;
    const char *key;
    json_t *entry;
    json_object_foreach(cache, key, entry)
    {
        if (rc != CUTUNE_OK)
            break;
        json_t *shown_key = json_string(key);
        char where[120];
        snprintf(where, sizeof where, "cache.%s", record_shown(shown_key, buf, sizeof buf));
        json_decref(shown_key);
        kt_entry e;
        uint64_t ckey;
        if (!json_is_object(entry))
            rc = kt_refuse(k, where, "%s is not an entry (an object)", record_shown(entry, buf, sizeof buf));
        else if ((rc = keep_label(k, key)) == CUTUNE_OK &&
                 (rc = kt_configuration(k, entry, where, false, &ckey)) == CUTUNE_OK &&
                 (rc = check_key(k, key, order, where)) == CUTUNE_OK &&
                 (rc = cache_entry(k, entry, where, &e, &samples, &cap)) == CUTUNE_OK) {
            kt_note_timestamp(k, json_object_get(entry, "timestamp"));
            rc = kt_add(k, &e, ckey, where);
        }
    }
    free(samples);
    free(order);
    return rc;
}

/* The T4 file's time unit (metadata.timeunit; Kernel Tuner writes "miliseconds") as
 * a factor to milliseconds. */
static int t4_unit(const kt_import_state *k, json_t *root, double *scale)
{
    static const struct {
        const char *name;
        double ms;
    } units[] = {{"miliseconds", 1}, {"milliseconds", 1},    {"ms", 1},   {"seconds", 1e3},
                 {"s", 1e3},         {"microseconds", 1e-3}, {"us", 1e-3}};
    json_t *unit = json_object_get(json_object_get(root, "metadata"), "timeunit");
    *scale = 1;
    if (!unit)
        return CUTUNE_OK;
    for (size_t i = 0; json_is_string(unit) && i < sizeof units / sizeof *units; i++)
        if (strcmp(units[i].name, json_string_value(unit)) == 0) {
            *scale = units[i].ms;
            return CUTUNE_OK;
        }
    char buf[80];
    return kt_refuse(k, "metadata.timeunit", "%s is not a unit of time (milliseconds, seconds, microseconds)",
                     record_shown(unit, buf, sizeof buf));
}

/* The time of a T4 entry: its measurement "time" (Kernel Tuner's; "time_ms", cutune's
 * own T4), else the mean of its runtimes; *found false when it has neither. */
static int t4_time(const kt_import_state *k, json_t *entry, const char *where, double scale, const kt_entry *e,
                   double *time_ms, bool *found)
{
    static const char *const names[] = {"time", "time_ms"};
    json_t *ms = json_object_get(entry, "measurements");
    char at[600], buf[80];
    *found = false;
    if (ms && !json_is_array(ms)) {
        snprintf(at, sizeof at, "%s.measurements", where);
        return kt_refuse(k, at, "%s is not a list of measurements", record_shown(ms, buf, sizeof buf));
    }
    for (size_t n = 0; n < 2 && !*found; n++) {
        size_t i;
        json_t *x;
        json_array_foreach(ms, i, x)
        {
            const char *name = json_string_value(json_object_get(x, "name"));
            json_t *v = json_object_get(x, "value");
            if (!name || strcmp(name, names[n]) != 0 || !json_is_number(v))
                continue;
            const char *unit = json_string_value(json_object_get(x, "unit"));
            double f = !unit || !*unit ? scale : strcmp(unit, "ms") == 0 ? 1 : strcmp(unit, "s") == 0 ? 1e3 : -1;
            snprintf(at, sizeof at, "%s.measurements[%zu]", where, i);
            if (f < 0)
                return kt_refuse(k, at, "unit %s is not \"ms\" or \"s\"",
                                 record_shown(json_object_get(x, "unit"), buf, sizeof buf));
            if (json_number_value(v) < 0 || !isfinite(json_number_value(v)))
                return kt_refuse(k, at, "%s is not a time (a number of at least 0)", record_shown(v, buf, sizeof buf));
            *time_ms = json_number_value(v) * f;
            *found = true;
            break;
        }
    }
    if (!*found && e->nruntimes > 0) {
        double sum = 0;
        for (size_t i = 0; i < e->nruntimes; i++)
            sum += e->runtimes[i];
        *time_ms = sum / (double)e->nruntimes;
        *found = true;
    }
    return CUTUNE_OK;
}

/* A T4 entry's outcome and times (the configuration is read). */
static int t4_entry(kt_import_state *k, json_t *entry, const char *where, double scale, kt_entry *e, double **samples,
                    size_t *cap)
{
    char at[600], buf[80];
    memset(e, 0, sizeof *e);
    json_t *inv = json_object_get(entry, "invalidity");
    snprintf(at, sizeof at, "%s.invalidity", where);
    if (json_is_string(inv) && strcmp(json_string_value(inv), "correct") == 0) {
        e->out = OUTCOME_OK;
    } else {
        size_t i = 0;
        while (i < sizeof failures / sizeof *failures &&
               !(json_is_string(inv) && strcmp(failures[i].t4, json_string_value(inv)) == 0))
            i++;
        if (i == sizeof failures / sizeof *failures)
            return kt_refuse(k, at,
                             "%s is not a T4 invalidity (\"correct\", \"compile\", \"runtime\", \"correctness\", "
                             "\"constraints\" or \"timeout\")",
                             inv ? record_shown(inv, buf, sizeof buf) : "missing:");
        e->out = failures[i].out;
        e->reason = failures[i].reason;
    }
    json_t *times = json_object_get(entry, "times");
    snprintf(at, sizeof at, "%s.times", where);
    if (!json_is_object(times))
        return kt_refuse(k, at, "%s is not an object of times",
                         times ? record_shown(times, buf, sizeof buf) : "missing:");
    int rc;
    double compilation = 0;
    snprintf(at, sizeof at, "%s.times.runtimes", where);
    if ((rc = runtimes(k, json_object_get(times, "runtimes"), at, scale, samples, cap, &e->nruntimes)) != CUTUNE_OK)
        return rc;
    e->runtimes = *samples;
    snprintf(at, sizeof at, "%s.times", where);
    if ((rc = duration(k, times, "compilation", at, scale, &e->compile_ms)) != CUTUNE_OK ||
        (rc = duration(k, times, "compilation_time", at, scale, &compilation)) != CUTUNE_OK ||
        (rc = duration(k, times, "benchmark", at, scale, &e->benchmark_ms)) != CUTUNE_OK ||
        (rc = duration(k, times, "validation", at, scale, &e->verification_ms)) != CUTUNE_OK)
        return rc;
    if (!json_object_get(times, "compilation")) /* the schema's name for it */
        e->compile_ms = compilation;
    if (e->out != OUTCOME_OK)
        return CUTUNE_OK;
    bool found;
    if ((rc = t4_time(k, entry, where, scale, e, &e->time_ms, &found)) != CUTUNE_OK)
        return rc;
    if (!found)
        return kt_refuse(k, where, "a correct entry without a time: no measurement \"time\" and no times.runtimes");
    if (!json_object_get(times, "benchmark")) /* Kernel Tuner's writer keeps no benchmark time */
        for (size_t i = 0; i < e->nruntimes; i++)
            e->benchmark_ms += e->runtimes[i];
    return CUTUNE_OK;
}

/* The tool that wrote a T4 file and its version, when its metadata names them
 * (environment.requirements: "kernel_tuner==1.0", "cutune==0.1.0"), into the source. */
static void t4_writer(kt_import_state *k, json_t *root)
{
    static const struct {
        const char *prefix, *tool;
    } writers[] = {{"kernel_tuner==", "Kernel Tuner"}, {"kernel-tuner==", "Kernel Tuner"}, {"cutune==", "cutune"}};
    json_t *reqs = json_object_get(json_object_get(json_object_get(root, "metadata"), "environment"), "requirements");
    size_t i;
    json_t *req;
    json_array_foreach(reqs, i, req)
    {
        const char *r = json_string_value(req);
        for (size_t w = 0; r && w < sizeof writers / sizeof *writers; w++)
            if (strncmp(r, writers[w].prefix, strlen(writers[w].prefix)) == 0 &&
                strlen(r) - strlen(writers[w].prefix) < 64) {
                json_object_set_new(k->source, "tool", json_string(writers[w].tool));
                json_object_set_new(k->source, "tool_version", json_string(r + strlen(writers[w].prefix)));
                return;
            }
    }
}

int kt_read_t4(kt_import_state *k, json_t *root)
{
    char buf[80];
    json_t *version = json_object_get(root, "schema_version");
    if (version && !(json_is_string(version) && strncmp(json_string_value(version), "1.", 2) == 0))
        return kt_refuse(k, "schema_version", "%s: this cutune reads T4 results of schema 1.x",
                         record_shown(version, buf, sizeof buf));
    if (version)
        json_object_set(k->source, "schema_version", version);
    t4_writer(k, root);
    double scale;
    int rc = t4_unit(k, root, &scale);
    json_t *results = json_object_get(root, "results");
    if (rc == CUTUNE_OK && !json_is_array(results))
        rc = kt_refuse(k, "results", "%s is not a list of results", record_shown(results, buf, sizeof buf));
    double *samples = NULL;
    size_t cap = 0, i;
    json_t *entry;
    json_array_foreach(results, i, entry)
    {
        if (rc != CUTUNE_OK)
            break;
        char where[48], at[64];
        snprintf(where, sizeof where, "results[%zu]", i);
        snprintf(at, sizeof at, "%s.configuration", where);
        json_t *config = json_object_get(entry, "configuration");
        kt_entry e;
        uint64_t key;
        if (!json_is_object(entry))
            rc = kt_refuse(k, where, "%s is not a result (an object)", record_shown(entry, buf, sizeof buf));
        else if (!json_is_object(config))
            rc = kt_refuse(k, at, "%s is not a configuration (an object of the params' values)",
                           config ? record_shown(config, buf, sizeof buf) : "missing:");
        else if ((rc = keep_label(k, NULL)) == CUTUNE_OK &&
                 (rc = kt_configuration(k, config, at, true, &key)) == CUTUNE_OK &&
                 (rc = t4_entry(k, entry, where, scale, &e, &samples, &cap)) == CUTUNE_OK) {
            json_t *objectives = json_object_get(entry, "objectives");
            if (i == 0 && json_is_string(json_array_get(objectives, 0)))
                json_object_set(k->source, "objective", json_array_get(objectives, 0));
            kt_note_timestamp(k, json_object_get(entry, "timestamp"));
            rc = kt_add(k, &e, key, where);
        }
    }
    free(samples);
    return rc;
}

int kt_source(kt_import_state *k, kt_format fmt, bool gzipped, bool reopened, const char *device)
{
    json_t *s = k->source;
    char now[32];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(now, sizeof now, "%Y-%m-%dT%H:%M:%SZ", &tm);
    int bad = 0;
    if (!json_object_get(s, "tool")) /* a cache file is Kernel Tuner's own; a T4 file may not say whose */
        bad |= json_object_set_new(s, "tool", fmt == KT_CACHE ? json_string("Kernel Tuner") : json_null());
    bad |= json_object_set_new(s, "format", json_string(fmt == KT_CACHE ? "cache file" : "T4 results file"));
    bad |= json_object_set_new(s, "file", json_string(k->path));
    bad |= json_object_set_new(s, "gzip", json_boolean(gzipped));
    if (reopened) /* a stopped run's cache, closed as Kernel Tuner closes it */
        bad |= json_object_set_new(s, "closed", json_false());
    bad |= json_object_set_new(s, "device", device ? json_string(device) : json_null());
    bad |= json_object_set_new(s, "entries", json_integer((json_int_t)k->nentries));
    bad |= json_object_set_new(s, "failed", json_integer((json_int_t)k->failed));
    bad |= json_object_set_new(s, "space", json_integer((json_int_t)k->space));
    bad |= json_object_set_new(s, "missing", k->missing >= 0 ? json_integer((json_int_t)k->missing) : json_null());
    bad |= json_object_set_new(s, "time_unit", json_string("ms"));
    bad |= json_object_set_new(s, "objective_value",
                               json_string("Kernel Tuner's time: the mean of its runtimes (time_ms: their median, "
                                           "quartiles and extremes)"));
    bad |= json_object_set_new(s, "imported", json_string(now));
    return bad ? err_set(CUTUNE_ENOMEM, "out of memory importing '%s'", k->path) : CUTUNE_OK;
}
