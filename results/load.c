/* load.c - a results file (format cutune-results, version 1; written by results_write,
 * documented in docs/results-format.md) read back into a cutune_tune_result, so that a
 * stored run can be inspected, replayed (simulate) and turned into a header, a CSV table
 * or Kernel Tuner's T4 format without a GPU. Each entry is read by the one record codec
 * (record.c).
 *
 * The file is untrusted even when cutune wrote it (it may have been shared, downloaded or
 * edited), and what is read here becomes C headers, tables and pages. So, before the
 * codec reads anything (docs/results-format.md, "What is refused"): every name the
 * outputs are built from (kernel, params, size variables, objective, metrics) must be a
 * C identifier by syntax; a param's value must be exactly of its type (an int param's a
 * JSON integer: 1000000.0, 2.5, true and "0x40" are refused, never converted); launch
 * dimensions are positive JSON integers, shared memory a non-negative one. A refusal
 * names the file and the JSON path: "r.json: results[3].params.block_x: ...". */
#include "load.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../base/err.h"
#include "../base/escape.h"
#include "../base/sys.h"
#include "record.h"
#include "write.h"

/* A load in progress: the result, the path, the first error (the message), and the JSON
 * path of the object being read ("" at the top; "sizes[2]." for a size of a run over
 * sizes), which refusals name. */
/* Bounds on what a file may hold for these names, as cutune writes them: a device's name
 * as the driver bounds it (cuDeviceGetName's 256 bytes), an objective's as a spec's
 * metric name is bounded. */
#define DEVICE_NAME_MAX 256
#define OBJECTIVE_NAME_MAX 128

typedef struct loader {
    cutune_tune_result *r;
    const char *path;
    bool failed; /* the error object holds the first failure's message */
    const char *at;
} loader;

static void bad(loader *ld, const char *what)
{
    if (!ld->failed)
        err_set(CUTUNE_EIO, "'%s' is not a cutune results file: %s", ld->path, what);
    ld->failed = true;
}

static void refuse(loader *ld, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Sets the error to "FILE: JSONPATH: what" (where: the path below ld->at), unless one
 * is set already. */
static void refuse(loader *ld, const char *where, const char *fmt, ...)
{
    if (ld->failed)
        return;
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    err_set(CUTUNE_EIO, "%s: %s%s: %s", ld->path, ld->at, where, what);
    ld->failed = true;
}

/* Whether v is a name the outputs can be built from (a C identifier by syntax); refuses
 * (at `where`) when it is not. `what` says what the name is of. */
static bool check_name(loader *ld, json_t *v, const char *where, const char *what)
{
    char buf[80];
    if (!json_is_string(v)) {
        refuse(ld, where, "%s is not a name (a string) for %s", record_shown(v, buf, sizeof buf), what);
        return false;
    }
    if (!esc_c_name(json_string_value(v))) {
        refuse(ld, where,
               "%s is not a C identifier (letters, digits and '_', not starting with a digit, at most "
               "%d bytes): %s becomes part of C headers and tables",
               record_shown(v, buf, sizeof buf), ESC_NAME_MAX, what);
        return false;
    }
    return true;
}

/* Whether param value v (at `where`) is exactly of type `type`, by the codec's one rule
 * (record_value_of); refuses when it is not. */
static bool check_value(loader *ld, json_t *v, const char *type, const char *where)
{
    char buf[80];
    value ignored;
    const char *why = record_value_of(v, record_param_type(type), &ignored);
    if (why)
        refuse(ld, where, "%s %s", record_shown(v, buf, sizeof buf), why);
    return !why;
}

/* An entry's launch dimensions ("block", "grid": 3 positive JSON integers each) and
 * "smem_bytes" (a non-negative JSON integer); absent ones are left to the codec. */
static void check_geometry(loader *ld, json_t *entry, const char *where)
{
    static const char *const keys[] = {"block", "grid"};
    char at[64], buf[80];
    for (int k = 0; k < 2; k++) {
        json_t *d = json_object_get(entry, keys[k]);
        if (!d)
            continue;
        if (!json_is_array(d) || json_array_size(d) != 3) {
            snprintf(at, sizeof at, "%s.%s", where, keys[k]);
            refuse(ld, at, "%s is not 3 launch dimensions", record_shown(d, buf, sizeof buf));
            return;
        }
        for (size_t i = 0; i < 3; i++) {
            json_t *x = json_array_get(d, i);
            if (!json_is_integer(x) || json_integer_value(x) < 1) {
                snprintf(at, sizeof at, "%s.%s[%zu]", where, keys[k], i);
                refuse(ld, at, "%s is not a launch dimension (a positive JSON integer)",
                       record_shown(x, buf, sizeof buf));
                return;
            }
        }
    }
    json_t *smem = json_object_get(entry, "smem_bytes");
    if (smem && (!json_is_integer(smem) || json_integer_value(smem) < 0)) {
        snprintf(at, sizeof at, "%s.smem_bytes", where);
        refuse(ld, at, "%s is not a size in bytes (a non-negative JSON integer)", record_shown(smem, buf, sizeof buf));
    }
}

/* Entry j of "results", at JSON path `where` ("results[3]"; below ld->at): each param's
 * value exactly of its type, and the launch geometry bounded, before the codec reads it. */
static void check_entry(loader *ld, json_t *j, const char *where)
{
    cutune_tune_result *r = ld->r;
    char at[ESC_NAME_MAX + 160];
    if (!json_is_object(j))
        return; /* the codec says so */
    json_t *params = json_object_get(j, "params");
    if (params && !json_is_object(params)) {
        snprintf(at, sizeof at, "%s.params", where);
        refuse(ld, at, "is not an object of the params' values");
        return;
    }
    for (int p = 0; p < r->nparams && !ld->failed; p++) {
        json_t *v = json_object_get(params, r->param_names[p]);
        snprintf(at, sizeof at, "%s.params.%s", where, r->param_names[p]);
        if (!v)
            refuse(ld, at, "missing: an entry holds a value of each param of spec.params");
        else
            check_value(ld, v, r->param_types[p], at);
    }
    if (!ld->failed)
        check_geometry(ld, j, where);
}

int results_check_entry(const cutune_tune_result *r, json_t *j, const char *path, const char *where)
{
    loader ld = {(cutune_tune_result *)r, path, false, ""}; /* check_entry only reads r */
    check_entry(&ld, j, where);
    return ld.failed ? CUTUNE_EIO : CUTUNE_OK;
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

/* The metric names, in order of first appearance over the entries. */
static void collect_metrics(loader *ld, json_t *results)
{
    cutune_tune_result *r = ld->r;
    int cap = 0;
    size_t i;
    json_t *j;
    json_array_foreach(results, i, j)
    {
        const char *key;
        json_t *val;
        json_object_foreach(json_object_get(j, "metrics"), key, val)
        {
            (void)val;
            if (!esc_c_name(key)) {
                json_t *name = json_string(key);
                char at[48];
                snprintf(at, sizeof at, "results[%zu].metrics", i);
                check_name(ld, name, at, "a metric's name");
                json_decref(name);
                return;
            }
            bool known = false;
            for (int k = 0; k < r->nmetrics && !known; k++)
                known = strcmp(r->metric_names[k], key) == 0;
            if (!known && ARENA_PUSH(r->arena, r->metric_names, r->nmetrics, cap, arena_strdup(r->arena, key)) < 0)
                bad(ld, "out of memory");
        }
    }
}

/* the counters named in settings.profile (none when absent). */
static void load_profile(loader *ld, json_t *root)
{
    json_t *prof = json_object_get(json_object_get(root, "settings"), "profile");
    json_t *names = json_object_get(prof, "metrics");
    size_t n = json_array_size(names);
    if (!prof || n == 0)
        return;
    if (n > 4096) {
        bad(ld, "\"settings\".\"profile\" names more than 4096 counters");
        return;
    }
    const char **list = arena_alloc(ld->r->arena, sizeof(char *) * n);
    for (size_t i = 0; list && i < n; i++) {
        list[i] = json_string_value(json_array_get(names, i));
        if (!list[i]) {
            bad(ld, "\"settings\".\"profile\".\"metrics\" holds something other than names");
            return;
        }
    }
    json_t *top = json_object_get(prof, "top");
    if (!list || result_set_profile(ld->r, list, (int)n, json_is_integer(top) ? (int)json_integer_value(top) : -1) < 0)
        bad(ld, "out of memory");
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

/* settings.shard ({"index", "count"} of a shard; {"merged": [...], "count"} of
 * a partial merge) and settings.merged_from (the merged files), when present. */
static void load_shard(loader *ld, json_t *set)
{
    cutune_tune_result *r = ld->r;
    json_t *shard = json_object_get(set, "shard"), *from = json_object_get(set, "merged_from");
    if (json_is_array(from) && json_array_size(from) > 0) {
        size_t n = json_array_size(from);
        r->merged_from = arena_alloc(r->arena, sizeof(char *) * n);
        for (size_t i = 0; r->merged_from && i < n; i++)
            r->merged_from[i] = str_of(ld, json_array_get(from, i), "");
        r->nmerged_from = r->merged_from ? (int)n : 0;
    }
    if (!shard || json_is_null(shard))
        return;
    json_t *count = json_object_get(shard, "count"), *index = json_object_get(shard, "index");
    json_t *merged = json_object_get(shard, "merged");
    int64_t n = json_is_integer(count) ? (int64_t)json_integer_value(count) : 0;
    if (n < 1 || n > RESULTS_MAX_SHARDS) {
        bad(ld, "\"settings\".\"shard\" has no \"count\" from 1 to 65536");
        return;
    }
    r->shard_count = (int)n;
    r->shard_index = -1;
    json_t *block = json_object_get(shard, "block"); /* absent: runs of 1 */
    if (block && (!json_is_integer(block) || json_integer_value(block) < 1 || json_integer_value(block) > 1 << 30)) {
        bad(ld, "\"settings\".\"shard\".\"block\" is not a run length from 1");
        return;
    }
    r->shard_block = block ? (int)json_integer_value(block) : 1;
    if (json_is_array(merged)) {
        size_t m = json_array_size(merged);
        r->shard_merged = arena_alloc(r->arena, sizeof(int) * (m + 1));
        for (size_t i = 0; r->shard_merged && i < m; i++) {
            json_t *k = json_array_get(merged, i);
            if (!json_is_integer(k) || json_integer_value(k) < 0 || json_integer_value(k) >= n) {
                bad(ld, "\"settings\".\"shard\".\"merged\" holds something other than shard indices");
                return;
            }
            r->shard_merged[i] = (int)json_integer_value(k);
        }
        r->nshard_merged = r->shard_merged ? (int)m : 0;
        if (m > 0)
            return;
    }
    if (!json_is_integer(index) || json_integer_value(index) < 0 || json_integer_value(index) >= n)
        bad(ld, "\"settings\".\"shard\" has no \"index\" from 0 to one less than its \"count\"");
    else
        r->shard_index = (int)json_integer_value(index);
}

/* A seconds figure of the summary's phases: a finite number >= 0, else 0 (the file's
 * word is not trusted: a negative or absent one is not measured). */
static double seconds_of(json_t *v)
{
    double d = record_num(v, 0);
    return isfinite(d) && d > 0 ? d : 0;
}

/* The summary's "phases" and "gpu_work" (absent: all 0), each key as results/write.c
 * names it; the wall is the phases' sum as read (the file's "wall" is not trusted to be). */
static void load_phases(cutune_tune_summary *s, json_t *sum)
{
    json_t *ph = json_object_get(sum, "phases"), *w = json_object_get(sum, "gpu_work");
    double total = 0;
    for (int k = 0; k < CUTUNE_PHASE_COUNT; k++)
        total += s->phase_seconds[k] = seconds_of(json_object_get(ph, results_phase_keys[k]));
    s->phases_wall_seconds = total;
    for (int k = 0; k < CUTUNE_WORK_COUNT; k++)
        s->work_seconds[k] = seconds_of(json_object_get(w, results_work_keys[k]));
}
/* settings.devices (the GPUs measured on at once) and summary.device_spread
 * (each other GPU's times over the first's), when present. */
static void load_devices(loader *ld, json_t *set, json_t *sum)
{
    cutune_tune_summary *s = &ld->r->summary;
    json_t *devs = json_object_get(set, "devices"), *spread = json_object_get(sum, "device_spread");
    if (!devs || json_is_null(devs))
        return;
    size_t n = json_array_size(devs);
    if (!json_is_array(devs) || n < 2 || n > CUTUNE_MAX_DEVICES) {
        bad(ld, "\"settings\".\"devices\" is not a list of 2 to 16 GPU ordinals");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        int64_t d = record_int(json_array_get(devs, i), -1);
        if (d < 0 || d > 4096) {
            bad(ld, "\"settings\".\"devices\" holds something other than GPU ordinals");
            return;
        }
        s->devices[i] = (int)d;
        s->spread[i] = (cutune_device_spread){(int)d, 0, NAN, NAN, NAN};
    }
    s->ndevices = (int)n;
    for (size_t k = 0; k < json_array_size(spread); k++) { /* matched to the list by ordinal */
        json_t *e = json_array_get(spread, k);
        int64_t d = record_int(json_object_get(e, "gpu"), -1);
        for (size_t i = 1; i < n; i++)
            if (s->devices[i] == d) {
                int64_t v = record_int(json_object_get(e, "variants"), 0);
                s->spread[i] = (cutune_device_spread){(int)d, v > 0 && v < 1 << 30 ? (int)v : 0,
                                                      record_num(json_object_get(e, "median"), NAN),
                                                      record_num(json_object_get(e, "min"), NAN),
                                                      record_num(json_object_get(e, "max"), NAN)};
            }
    }
}

static void load_header(loader *ld, json_t *root)
{
    cutune_tune_result *r = ld->r;
    arena *a = r->arena;
    json_t *spec = json_object_get(root, "spec");
    if (!check_name(ld, json_object_get(spec, "kernel"), "spec.kernel", "the kernel's name"))
        return;
    r->spec_path = (char *)str_of(ld, json_object_get(spec, "path"), "");
    r->kernel = (char *)str_of(ld, json_object_get(spec, "kernel"), "");
    json_t *block = json_object_get(spec, "block"); /* absent in files before blocks had names */
    if (block && !check_name(ld, block, "spec.block", "the kernel block's name"))
        return;
    r->block = block ? (char *)str_of(ld, block, "") : NULL;
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
    r->param_routes = arena_alloc(a, sizeof(char *) * (size_t)(r->nparams + 1));
    if (!r->param_names || !r->param_types || !r->param_routes) {
        bad(ld, "out of memory");
        return;
    }
    for (int i = 0; i < r->nparams; i++) {
        json_t *p = json_array_get(params, (size_t)i);
        char at[48], buf[80];
        snprintf(at, sizeof at, "spec.params[%d].name", i);
        if (!check_name(ld, json_object_get(p, "name"), at, "a param's name"))
            return;
        r->param_names[i] = str_of(ld, json_object_get(p, "name"), "");
        for (int k = 0; k < i; k++)
            if (strcmp(r->param_names[k], r->param_names[i]) == 0) {
                refuse(ld, at, "\"%s\" names spec.params[%d] too: each param has its own name", r->param_names[i], k);
                return;
            }
        json_t *type = json_object_get(p, "type");
        const char *t = json_string_value(type);
        if (!t ||
            (strcmp(t, "int") != 0 && strcmp(t, "float") != 0 && strcmp(t, "bool") != 0 && strcmp(t, "string") != 0)) {
            snprintf(at, sizeof at, "spec.params[%d].type", i);
            refuse(ld, at, "%s is not a param type (\"int\", \"float\", \"bool\" or \"string\")",
                   record_shown(type, buf, sizeof buf));
            return;
        }
        r->param_types[i] = str_of(ld, type, "int");
        const char *route = json_string_value(json_object_get(p, "route")); /* absent in older files */
        r->param_routes[i] = route ? arena_strdup(a, route) : NULL;
    }
    json_t *dev = json_object_get(root, "device");
    const char *dev_name = json_string_value(json_object_get(dev, "name"));
    if (dev_name && strlen(dev_name) >= DEVICE_NAME_MAX) {
        refuse(ld, "device.name", "longer than %d bytes (the driver's bound on a device's name)", DEVICE_NAME_MAX - 1);
        return;
    }
    r->device.name = or_else(str_of(ld, json_object_get(dev, "name"), ""), "");
    r->device.arch = or_else(str_of(ld, json_object_get(dev, "arch"), ""), "");
    r->device.cc = (int)record_int(json_object_get(dev, "compute_capability"), 0);
    r->device.sm_count = (int)record_int(json_object_get(dev, "sm_count"), 0);
    r->device.l2_bytes = (int)record_int(json_object_get(dev, "l2_bytes"), 0);
    r->device.driver_version = (int)record_int(json_object_get(dev, "driver_version"), 0);
    json_t *attrs = json_object_get(dev, "attributes"); /* absent from files written before it */
    r->device.max_threads_per_sm = (int)record_int(json_object_get(attrs, "max_threads_per_sm"), 0);
    r->device.max_threads_per_block = (int)record_int(json_object_get(attrs, "max_threads_per_block"), 0);
    r->device.regs_per_sm = (int)record_int(json_object_get(attrs, "regs_per_sm"), 0);
    r->device.regs_per_block = (int)record_int(json_object_get(attrs, "regs_per_block"), 0);
    r->device.smem_per_sm = (int)record_int(json_object_get(attrs, "smem_per_sm"), 0);
    r->device.smem_per_block = (int)record_int(json_object_get(attrs, "smem_per_block"), 0);
    r->device.smem_per_block_optin = (int)record_int(json_object_get(attrs, "smem_per_block_optin"), 0);
    r->device.warp_size = (int)record_int(json_object_get(attrs, "warp_size"), 0);
    r->device.ordinal = -1;
    json_t *source = json_object_get(root, "source"); /* imported: where the data came from */
    char why[200];
    if (source && result_set_source(r, source, why, sizeof why) < 0) {
        refuse(ld, "source", "%s", why);
        return;
    }
    json_t *set = json_object_get(root, "settings");
    r->strategy = (char *)str_of(ld, json_object_get(set, "strategy"), "exhaustive");
    r->warmup = record_int(json_object_get(set, "warmup"), 0);
    r->repeat = record_int(json_object_get(set, "repeat"), 0);
    r->max_repeat = record_int(json_object_get(set, "max_repeat"), 0);
    r->spread = record_num(json_object_get(set, "spread"), 0);
    r->flush_l2 = json_is_true(json_object_get(set, "flush_l2"));
    load_shard(ld, set);
    load_devices(ld, set, json_object_get(root, "summary"));

    cutune_tune_summary *s = &r->summary;
    s->device_name = r->device.name;
    s->arch = r->device.arch;
    s->sm_count = r->device.sm_count;
    s->driver_version = r->device.driver_version;
    const char *reference = json_string_value(json_object_get(set, "reference"));
    s->reference = reference && *reference ? arena_strdup(r->arena, reference) : NULL;
    json_t *obj = json_object_get(root, "objective");
    json_t *oname = json_object_get(obj, "name");
    if (oname && !check_name(ld, oname, "objective.name", "the objective's name"))
        return;
    if (oname && strlen(json_string_value(oname)) >= OBJECTIVE_NAME_MAX) {
        refuse(ld, "objective.name", "longer than %d bytes", OBJECTIVE_NAME_MAX - 1);
        return;
    }
    s->objective_name = or_else(str_of(ld, oname, "time_ms"), "time_ms");
    s->maximize = json_string_value(json_object_get(obj, "direction")) &&
                  strcmp(json_string_value(json_object_get(obj, "direction")), "maximize") == 0;
    json_t *sum = json_object_get(root, "summary");
    s->variants = (uint64_t)record_int(json_object_get(sum, "variants"), 0);
    s->timed = (uint64_t)record_int(json_object_get(sum, "timed"), 0);
    s->wrong = (uint64_t)record_int(json_object_get(sum, "wrong"), 0);
    s->failed = (uint64_t)record_int(json_object_get(sum, "failed"), 0);
    s->unlaunchable = (uint64_t)record_int(json_object_get(sum, "unlaunchable"), 0);
    s->pruned = (uint64_t)record_int(json_object_get(sum, "pruned"), 0);
    s->twins = (uint64_t)record_int(json_object_get(sum, "twins"), 0);
    s->profiled = (uint64_t)record_int(json_object_get(sum, "profiled"), 0); /* absent, 0 */
    s->profile_seconds = record_num(json_object_get(sum, "profile_seconds"), 0);
    json_t *note = json_object_get(sum, "profile_note"); /* null or absent: none */
    s->profile_note = json_string_value(note) && *json_string_value(note) ? str_of(ld, note, "") : NULL;
    json_t *best = json_object_get(sum, "best");
    if (best && !json_is_null(best) && !json_is_integer(best))
        bad(ld, "\"summary\".\"best\" is neither an index into \"results\" nor null");
    s->best = json_is_integer(best) ? (int64_t)json_integer_value(best) : -1;
    s->wall_seconds = record_num(json_object_get(sum, "wall_seconds"), 0);
    s->compile_seconds = record_num(json_object_get(sum, "compile_seconds"), 0);
    s->compile_wall_seconds = record_num(json_object_get(sum, "compile_wall_seconds"), 0);
    s->gpu_seconds = record_num(json_object_get(sum, "gpu_seconds"), 0);
    s->timing_seconds = record_num(json_object_get(sum, "timing_seconds"), 0);
    s->threads = (int)record_int(json_object_get(sum, "threads"), 0);
    /* absent (files written before 2026-11-28) or not a count: UINT64_MAX, "not recorded" */
    int64_t compiled = record_int(json_object_get(sum, "compiled"), -1);
    int64_t cached = record_int(json_object_get(sum, "cached"), -1);
    s->compiled = compiled >= 0 ? (uint64_t)compiled : UINT64_MAX;
    s->cached = cached >= 0 ? (uint64_t)cached : UINT64_MAX;
    s->interrupted = json_is_true(json_object_get(sum, "interrupted"));
    s->resumed = (uint64_t)record_int(json_object_get(sum, "resumed"), 0);
    s->first_variant_seconds = record_num(json_object_get(sum, "first_variant_seconds"), 0); /* absent: 0 */
    load_phases(s, sum);
}

static void load_root(loader *ld, json_t *root);

/* A run over sizes (version 2: docs/results-format.md): the common parts into the run's
 * result, and each size, merged with them into a version-1 object, loaded as a result
 * of its own that the run's adopts. */
static void load_sized(loader *ld, json_t *root)
{
    cutune_tune_result *r = ld->r;
    json_t *sizes = json_object_get(root, "sizes");
    json_t *vars = json_object_get(json_object_get(root, "spec"), "size");
    size_t nv = json_array_size(vars);
    if (!json_is_array(sizes) || json_array_size(sizes) == 0) {
        bad(ld, "version 2 without a \"sizes\" array");
        return;
    }
    if (!json_is_array(vars) || nv == 0 || nv > MODEL_MAX_SIZE_VARS) {
        bad(ld, "\"spec\".\"size\" is not a list of 1 to 8 size variables");
        return;
    }
    load_header(ld, root);
    const char *names[MODEL_MAX_SIZE_VARS];
    for (size_t j = 0; j < nv && !ld->failed; j++) {
        char at[40];
        snprintf(at, sizeof at, "spec.size[%zu]", j);
        if (check_name(ld, json_array_get(vars, j), at, "a size variable's name"))
            names[j] = json_string_value(json_array_get(vars, j));
        for (size_t q = 0; q < j && !ld->failed; q++)
            if (strcmp(names[q], names[j]) == 0)
                refuse(ld, at, "\"%s\" names spec.size[%zu] too", names[j], q);
    }
    size_t k;
    json_t *one;
    json_array_foreach(sizes, k, one)
    {
        if (ld->failed)
            return;
        json_t *size = json_object_get(one, "size");
        int64_t values[MODEL_MAX_SIZE_VARS];
        for (size_t j = 0; j < nv; j++) {
            json_t *v = json_object_get(size, names[j]);
            values[j] = json_is_integer(v) ? (int64_t)json_integer_value(v) : 0;
            if (values[j] < 1) {
                bad(ld, "a size's \"size\" lacks a size variable's value (a positive int)");
                return;
            }
        }
        json_t *merged = json_copy(root);
        cutune_tune_result *child = result_create();
        if (!merged || !child) {
            json_decref(merged);
            result_destroy(child);
            bad(ld, "out of memory");
            return;
        }
        json_object_del(merged, "sizes");
        json_object_set_new(merged, "version", json_integer(1));
        json_object_set(merged, "settings", json_object_get(one, "settings"));
        json_object_set(merged, "summary", json_object_get(one, "summary"));
        json_object_set(merged, "results", json_object_get(one, "results"));
        char at[40];
        snprintf(at, sizeof at, "%ssizes[%zu].", ld->at, k);
        loader sub = {child, ld->path, false, at};
        load_root(&sub, merged);
        json_decref(merged);
        if (sub.failed) {
            ld->failed = true;
            result_destroy(child);
            return;
        }
        if (result_set_size(child, (int)nv, names, values) < 0 || result_adopt_size(r, child) < 0) {
            bad(ld, "out of memory"); /* result_adopt_size frees the child when it fails */
            return;
        }
    }
    r->nmetrics = r->sizes[0]->nmetrics;
    r->metric_names = r->sizes[0]->metric_names;
    r->nhw = r->sizes[0]->nhw;
    r->hw_names = r->sizes[0]->hw_names;
    r->profile_top = r->sizes[0]->profile_top;
    r->summary.best = -1;
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
    if (json_integer_value(version) > 2) {
        err_set(CUTUNE_EIO,
                "'%s' is a cutune results file of version %lld; this cutune reads versions 1 "
                "and 2",
                ld->path, (long long)json_integer_value(version));
        ld->failed = true;
        return;
    }
    if (json_integer_value(version) == 2) {
        load_sized(ld, root);
        return;
    }
    json_t *results = json_object_get(root, "results");
    if (!json_is_array(results)) {
        bad(ld, "it has no \"results\" array");
        return;
    }
    load_header(ld, root);
    collect_metrics(ld, results);
    load_profile(ld, root);
    size_t n = json_array_size(results);
    for (size_t i = 0; i < n && !ld->failed; i++) {
        record *rec = result_append(r);
        char where[48];
        snprintf(where, sizeof where, "results[%zu]", i);
        check_entry(ld, json_array_get(results, i), where);
        if (ld->failed)
            break;
        if (!rec)
            bad(ld, "out of memory");
        else if (record_from_json(r, rec, json_array_get(results, i), RECORD_WHOLE) < 0) {
            err_wrap(CUTUNE_EIO, "'%s' is not a cutune results file", ld->path); /* the entry's flaw, in context */
            ld->failed = true;
        }
    }
    if (ld->failed)
        return;
    common_options(r);
    if (r->summary.best >= (int64_t)r->n || r->summary.best < -1) {
        bad(ld, "\"summary\".\"best\" is not an index into \"results\"");
        return;
    }
    const record *best = r->summary.best >= 0 ? r->records[r->summary.best] : NULL;
    if (best && !record_can_win(best)) {
        err_set(CUTUNE_EIO,
                "'%s': \"summary\".\"best\" is entry %lld, which %s: a winner must have run "
                "correctly and been timed in full (the file was edited or is damaged)",
                ld->path, (long long)r->summary.best,
                best->out != OUTCOME_OK ? "did not run correctly" : "was not timed in full");
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

int results_read_json(json_t **root, const char *path)
{
    *root = NULL;
    size_t len;
    char *text = sys_read_file(path, SYS_LIMIT_STORED, &len);
    if (!text) {
        int saved = errno;
        return err_set(saved == ENOMEM ? CUTUNE_ENOMEM : CUTUNE_EIO, "cannot read '%s': %s", path, sys_strerror(saved));
    }
    json_error_t jerr;
    *root = json_loadb(text, len, JSON_DECODE_ANY, &jerr);
    free(text);
    if (!*root) {
        return err_set(CUTUNE_EIO, "'%s' is not JSON: line %d: %s", path, jerr.line, jerr.text);
    }
    return CUTUNE_OK;
}

int results_load_json(cutune_tune_result **out, json_t *root, const char *path)
{
    *out = NULL;
    cutune_tune_result *r = result_create();
    if (!r)
        return err_set(CUTUNE_ENOMEM, "out of memory");
    loader ld = {r, path, false, ""};
    if (!json_is_object(root))
        bad(&ld, "it is not a JSON object");
    else
        load_root(&ld, root);
    if (ld.failed) {
        result_destroy(r);
        return CUTUNE_EIO;
    }
    if (!(r->summary.results_path = arena_strdup(r->arena, path))) {
        result_destroy(r);
        return err_set(CUTUNE_ENOMEM, "out of memory");
    }
    find_spec(r, path);
    for (int k = 0; k < r->nsizes; k++) {
        r->sizes[k]->summary.results_path = r->summary.results_path;
        r->sizes[k]->spec_found = r->spec_found;
    }
    *out = r;
    return CUTUNE_OK;
}

int results_load(cutune_tune_result **out, const char *path)
{
    *out = NULL;
    json_t *root;
    int rc = results_read_json(&root, path);
    if (rc != CUTUNE_OK)
        return rc;
    rc = results_load_json(out, root, path);
    json_decref(root);
    return rc;
}
