/* write.c - a tuning result as a results file (see write.h; the format is
 * docs/results-format.md). Each entry is written by the one record codec (record.c). */
#include "write.h"

#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "../base/err.h"
#include "../base/sys.h"
#include "record.h"

/* The results of one run (one size) as a version-1 root object (new reference). */
const char *const results_phase_keys[CUTUNE_PHASE_COUNT] = {
    [CUTUNE_PHASE_START] = "start",         [CUTUNE_PHASE_DEVICE] = "device",   [CUTUNE_PHASE_INPUTS] = "inputs",
    [CUTUNE_PHASE_REFERENCE] = "reference", [CUTUNE_PHASE_COMPILE] = "compile", [CUTUNE_PHASE_GPU] = "gpu",
    [CUTUNE_PHASE_RACE] = "race",           [CUTUNE_PHASE_PROFILE] = "profile", [CUTUNE_PHASE_WRITE] = "write",
    [CUTUNE_PHASE_OTHER] = "other",
};
const char *const results_work_keys[CUTUNE_WORK_COUNT] = {
    [CUTUNE_WORK_REFERENCE] = "reference", [CUTUNE_WORK_ARGS] = "arguments", [CUTUNE_WORK_POISON] = "poison",
    [CUTUNE_WORK_LOAD] = "load",           [CUTUNE_WORK_RESET] = "reset",    [CUTUNE_WORK_CHECK] = "check",
    [CUTUNE_WORK_COMPARE] = "compare",     [CUTUNE_WORK_WARMUP] = "warmup",  [CUTUNE_WORK_SAMPLES] = "samples",
    [CUTUNE_WORK_ENERGY] = "energy",       [CUTUNE_WORK_OTHER] = "other",    [CUTUNE_WORK_FLUSH] = "flush",
};

/* The summary's "phases" (with their "wall") and "gpu_work", when measured. */
static void phases_json(json_t *sum, const cutune_tune_summary *s)
{
    if (s->phases_wall_seconds > 0) {
        json_t *ph = json_object();
        for (int k = 0; k < CUTUNE_PHASE_COUNT; k++)
            json_object_set_new(ph, results_phase_keys[k], record_number(s->phase_seconds[k]));
        json_object_set_new(ph, "wall", record_number(s->phases_wall_seconds));
        json_object_set_new(sum, "phases", ph);
    }
    bool any = false;
    for (int k = 0; k < CUTUNE_WORK_COUNT; k++)
        any |= s->work_seconds[k] > 0;
    if (any) {
        json_t *w = json_object();
        for (int k = 0; k < CUTUNE_WORK_COUNT; k++)
            json_object_set_new(w, results_work_keys[k], record_number(s->work_seconds[k]));
        json_object_set_new(sum, "gpu_work", w);
    }
}

static json_t *root_of(const cutune_tune_result *r, const char *version)
{
    const cutune_tune_summary *s = &r->summary;
    json_t *root = json_object();
    json_object_set_new(root, "format", json_string("cutune-results"));
    json_object_set_new(root, "version", json_integer(1));
    json_object_set_new(root, "cutune", json_string(version));
    json_object_set_new(root, "date", json_string(r->date));
    json_t *spec = json_object();
    json_object_set_new(spec, "path", json_string(r->spec_path));
    json_object_set_new(spec, "kernel", json_string(r->kernel));
    if (r->block) /* the block's own name (`as NAME`), else the kernel's */
        json_object_set_new(spec, "block", json_string(r->block));
    json_object_set_new(spec, "kernel_file", json_string(r->kernel_file));
    json_t *params = json_array();
    for (int i = 0; i < r->nparams; i++) {
        json_t *p = json_object();
        json_object_set_new(p, "name", json_string(r->param_names[i]));
        json_object_set_new(p, "type", json_string(r->param_types[i]));
        if (r->param_routes && r->param_routes[i]) /* what makes a compiled variant (docs/header.md) */
            json_object_set_new(p, "route", json_string(r->param_routes[i]));
        json_array_append_new(params, p);
    }
    json_object_set_new(spec, "params", params);
    json_object_set_new(root, "spec", spec);
    json_object_set_new(root, "device", record_device_json(r));
    if (r->source) /* imported: where the data came from */
        json_object_set(root, "source", r->source);
    json_t *set = json_object();
    json_object_set_new(set, "strategy", json_string(s->strategy[0] ? s->strategy : r->strategy));
    json_t *search = json_object(); /* docs/results-format.md: what the search ran with and used */
    json_object_set_new(search, "strategy", json_string(s->strategy[0] ? s->strategy : r->strategy));
    json_object_set_new(search, "seed", json_integer((json_int_t)s->seed));
    json_object_set_new(search, "budget", s->budget ? json_integer((json_int_t)s->budget) : json_null());
    json_object_set_new(search, "time_budget_s", s->time_limit_s > 0 ? record_number(s->time_limit_s) : json_null());
    json_object_set_new(search, "patience", s->patience ? json_integer((json_int_t)s->patience) : json_null());
    json_object_set_new(search, "evaluations", json_integer((json_int_t)s->evaluations));
    json_object_set_new(search, "screened", json_integer((json_int_t)s->screened));
    json_object_set_new(search, "stopped_by", s->stop_reason ? json_string(s->stop_reason) : json_null());
    json_object_set_new(set, "search", search);
    json_object_set_new(set, "warmup", json_integer((json_int_t)r->warmup));
    json_object_set_new(set, "repeat", json_integer((json_int_t)r->repeat));
    json_object_set_new(set, "max_repeat", json_integer((json_int_t)r->max_repeat));
    json_object_set_new(set, "spread", record_number(r->spread));
    json_object_set_new(set, "flush_l2", json_boolean(r->flush_l2));
    json_object_set_new(set, "reference", s->reference ? json_string(s->reference) : json_null());
    if (r->nhw > 0) { /* the hardware counters read, and of how many variants */
        json_t *prof = json_object(), *names = json_array();
        for (int i = 0; i < r->nhw; i++)
            json_array_append_new(names, json_string(r->hw_names[i]));
        json_object_set_new(prof, "method", json_string(RESULTS_PROFILE_METHOD));
        json_object_set_new(prof, "metrics", names);
        json_object_set_new(prof, "top", r->profile_top < 0 ? json_string("all") : json_integer(r->profile_top));
        json_object_set_new(set, "profile", prof);
    }
    if (r->shard_count > 0) { /* a shard, or a partial merge of shards */
        json_t *shard = json_object();
        if (r->nshard_merged > 0) {
            json_t *merged = json_array();
            for (int i = 0; i < r->nshard_merged; i++)
                json_array_append_new(merged, json_integer(r->shard_merged[i]));
            json_object_set_new(shard, "merged", merged);
        } else {
            json_object_set_new(shard, "index", json_integer(r->shard_index));
        }
        json_object_set_new(shard, "count", json_integer(r->shard_count));
        json_object_set_new(shard, "block", json_integer(r->shard_block > 1 ? r->shard_block : 1));
        json_object_set_new(set, "shard", shard);
    }
    if (s->ndevices > 1) { /* the GPUs measured on at once */
        json_t *devs = json_array();
        for (int i = 0; i < s->ndevices; i++)
            json_array_append_new(devs, json_integer(s->devices[i]));
        json_object_set_new(set, "devices", devs);
    }
    if (r->nmerged_from > 0) {
        json_t *from = json_array();
        for (int i = 0; i < r->nmerged_from; i++)
            json_array_append_new(from, json_string(r->merged_from[i]));
        json_object_set_new(set, "merged_from", from);
    }
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
    json_object_set_new(sum, "wall_seconds", record_number(s->wall_seconds));
    json_object_set_new(sum, "compile_seconds", record_number(s->compile_seconds));
    json_object_set_new(sum, "compile_wall_seconds", record_number(s->compile_wall_seconds));
    json_object_set_new(sum, "gpu_seconds", record_number(s->gpu_seconds));
    json_object_set_new(sum, "timing_seconds", record_number(s->timing_seconds));
    json_object_set_new(sum, "threads", json_integer(s->threads));
    if (s->compiled != UINT64_MAX && s->cached != UINT64_MAX) { /* else read from a file without them */
        json_object_set_new(sum, "compiled", json_integer((json_int_t)s->compiled));
        json_object_set_new(sum, "cached", json_integer((json_int_t)s->cached));
    }
    json_object_set_new(sum, "interrupted", json_boolean(s->interrupted));
    json_object_set_new(sum, "resumed", json_integer((json_int_t)s->resumed));
    json_object_set_new(sum, "twins", json_integer((json_int_t)s->twins));
    if (r->nhw > 0) {
        json_object_set_new(sum, "profiled", json_integer((json_int_t)s->profiled));
        json_object_set_new(sum, "profile_seconds", record_number(s->profile_seconds));
        json_object_set_new(sum, "profile_note", s->profile_note ? json_string(s->profile_note) : json_null());
    }
    json_object_set_new(sum, "first_variant_seconds",
                        s->first_variant_seconds > 0 ? record_number(s->first_variant_seconds) : json_null());
    if (s->ndevices > 1) { /* each other GPU's times over the first's, same variants */
        json_t *spread = json_array();
        for (int i = 1; i < s->ndevices; i++) {
            const cutune_device_spread *d = &s->spread[i];
            json_array_append_new(spread, json_pack("{s:i, s:i, s:o, s:o, s:o}", "gpu", d->device, "variants",
                                                    d->variants, "median", record_number(d->median), "min",
                                                    record_number(d->lo), "max", record_number(d->hi)));
        }
        json_object_set_new(sum, "device_spread", spread);
    }
    phases_json(sum, s);
    json_object_set_new(root, "summary", sum);
    json_t *results = json_array();
    for (uint64_t i = 0; i < r->n; i++)
        json_array_append_new(results, record_to_json(r, r->records[i]));
    json_object_set_new(root, "results", results);
    return root;
}

/* A run over sizes (version 2): the common parts once (format, spec with the size
 * variables, device, objective, the summary added up), then "sizes": per size its
 * values, settings (the search's use), summary and results. */
static json_t *sized_root(const cutune_tune_result *r, const char *version)
{
    json_t *root = root_of(r, version);
    json_object_set_new(root, "version", json_integer(2));
    json_object_del(root, "results");
    json_object_del(root, "settings");
    json_t *vars = json_array();
    for (int j = 0; j < r->nsize_vars; j++)
        json_array_append_new(vars, json_string(r->size_vars[j]));
    json_object_set_new(json_object_get(root, "spec"), "size", vars);
    json_t *sizes = json_array();
    for (int k = 0; k < r->nsizes; k++) {
        json_t *one = root_of(r->sizes[k], version), *o = json_object();
        json_object_set_new(o, "size", record_size_json(r->sizes[k]));
        json_object_set(o, "settings", json_object_get(one, "settings"));
        json_object_set(o, "summary", json_object_get(one, "summary"));
        json_object_set(o, "results", json_object_get(one, "results"));
        json_array_append_new(sizes, o);
        json_decref(one);
    }
    json_object_set_new(root, "sizes", sizes);
    return root;
}

int results_text(char **out, const cutune_tune_result *r, const char *version)
{
    json_t *root = r->nsizes > 0 ? sized_root(r, version) : root_of(r, version);
    *out = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(root);
    return *out ? CUTUNE_OK : CUTUNE_ENOMEM;
}

int results_write(const cutune_tune_result *r, const char *path, const char *version)
{
    char *text = NULL;
    if (results_text(&text, r, version) != CUTUNE_OK)
        return err_set(CUTUNE_ENOMEM, "out of memory writing results to '%s'", path);
    /* Through the one writer: a unique temporary, synced, renamed; a reader never sees
     * half a file, and a planted link or a device at the path is refused. */
    int rc = sys_write_text(path, text);
    int saved = errno;
    free(text);
    if (rc != 0)
        return err_set(CUTUNE_EIO, "cannot write results to '%s': %s", path, sys_strerror(saved));
    return CUTUNE_OK;
}
