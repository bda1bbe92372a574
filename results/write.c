/* write.c - a tuning result as a results file (see write.h; the format is
 * docs/results-format.md). Each entry is written by the one record codec (record.c). */
#include "write.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "../base/sys.h"
#include "record.h"

int results_write(const cutune_tune_result *r, const char *path, const char *version, char *err, size_t errsize)
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
    json_object_set_new(root, "device", record_device_json(r));
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
    json_object_set_new(search, "stopped_by", s->stop_reason[0] ? json_string(s->stop_reason) : json_null());
    json_object_set_new(set, "search", search);
    json_object_set_new(set, "warmup", json_integer((json_int_t)r->warmup));
    json_object_set_new(set, "repeat", json_integer((json_int_t)r->repeat));
    json_object_set_new(set, "max_repeat", json_integer((json_int_t)r->max_repeat));
    json_object_set_new(set, "spread", record_number(r->spread));
    json_object_set_new(set, "flush_l2", json_boolean(r->flush_l2));
    json_object_set_new(set, "reference", s->reference ? json_string(s->reference) : json_null());
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
    json_object_set_new(sum, "interrupted", json_boolean(s->interrupted));
    json_object_set_new(sum, "resumed", json_integer((json_int_t)s->resumed));
    json_object_set_new(sum, "twins", json_integer((json_int_t)s->twins));
    json_object_set_new(sum, "first_variant_seconds",
                        s->first_variant_seconds > 0 ? record_number(s->first_variant_seconds) : json_null());
    json_object_set_new(root, "summary", sum);
    json_t *results = json_array();
    for (uint64_t i = 0; i < r->n; i++)
        json_array_append_new(results, record_to_json(r, r->records[i]));
    json_object_set_new(root, "results", results);
    /* Through the one writer: a unique temporary, synced, renamed; a reader never sees
     * half a file, and a planted link or a device at the path is refused. */
    char *text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (!text) {
        snprintf(err, errsize, "out of memory writing results to '%s'", path);
        return CUTUNE_ENOMEM;
    }
    int rc = sys_write_text(path, text);
    int saved = errno;
    free(text);
    if (rc != 0) {
        snprintf(err, errsize, "cannot write results to '%s': %s", path, sys_strerror(saved));
        return CUTUNE_EIO;
    }
    return CUTUNE_OK;
}
