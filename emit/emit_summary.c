/* emit_summary.c - a spec's space, one block shape's occupancy and the GPUs as the
 * JSON `cutune check`, `occupancy` and `devices` print (see emit_text.h; the fields are
 * in docs/cli.md). */
#include "emit_text.h"

#include <jansson.h>
#include <stdint.h>

#include "../compiler/spec.h"
#include "../results/result.h"

/* o as JSON with jansson's `flags` into *out, o released. */
static int dump(char **out, json_t *o, size_t flags)
{
    *out = o ? json_dumps(o, flags) : NULL;
    json_decref(o);
    return *out ? CUTUNE_OK : CUTUNE_ENOMEM;
}

/* The device attributes the spec reads, with their values and source; NULL when none. */
static json_t *device_object(const model *m)
{
    json_t *attrs = json_object();
    for (int i = 0; i < DA_COUNT; i++)
        if (m->device_used >> i & 1)
            json_object_set_new(attrs, dev_attr_name((dev_attr)i), json_integer((json_int_t)m->device.v[i]));
    if (json_object_size(attrs) == 0) {
        json_decref(attrs);
        return NULL;
    }
    return json_pack("{s:o, s:b, s:s}", "attributes", attrs, "assumed", m->device.assumed, "source", m->device.source);
}

/* The problem sizes, an object of the size variables' values each (the space is the
 * first's); NULL without a size statement. */
static json_t *sizes_array(const model *m)
{
    const m_sizes *sz = &m->sizes;
    if (sz->nvars == 0)
        return NULL;
    json_t *sizes = json_array();
    for (int k = 0; k < sz->count; k++) {
        json_t *one = json_object();
        for (int j = 0; j < sz->nvars; j++)
            json_object_set_new(one, m->lets[sz->lets[j]].name,
                                json_integer((json_int_t)sz->values[k * sz->nvars + j]));
        json_array_append_new(sizes, one);
    }
    return sizes;
}

int emit_space_json(char **out, const cutune_spec *spec, const cutune_space_size *size, double count_seconds)
{
    const model *m = spec->model;
    json_t *params = json_array();
    for (int i = 0; i < m->nparams; i++)
        json_array_append_new(params, json_pack("{s:s, s:s, s:s*, s:I}", "name", m->params[i].name, "type",
                                                vtype_name(m->params[i].dom.type), "route",
                                                result_route_name(m->params[i].route), "count",
                                                (json_int_t)m->params[i].dom.size));
    json_t *o =
        json_pack("{s:s*, s:s*, s:s*, s:o, s:i, s:I, s:b, s:I, s:b, s:b}", "spec", spec->path, "kernel", m->kernel,
                  "kernel_file", m->kernel_file, "params", params, "constraints", m->nrequires, "raw",
                  (json_int_t)size->raw, "raw_saturated", size->raw_saturated, "valid", (json_int_t)size->valid,
                  "valid_saturated", size->valid_saturated, "valid_estimated", size->valid_estimated);
    if (size->valid_estimated)
        json_object_update_new(o, json_pack("{s:I, s:I}", "valid_at_least", (json_int_t)size->valid_at_least, "samples",
                                            (json_int_t)size->samples));
    json_object_update_new(o, json_pack("{s:f, s:s*, s:o*, s:o*}", "count_seconds", count_seconds, "search",
                                        model_strategy_name(m->search.strategy), "device", device_object(m), "sizes",
                                        sizes_array(m)));
    return dump(out, o, JSON_INDENT(2));
}

/* A blocks-per-SM limit, or null for none (INT32_MAX). */
static json_t *limit(int v)
{
    return v == INT32_MAX ? json_null() : json_integer(v);
}

int emit_occupancy_json(char **out, const cutune_occupancy *occ, int device, int regs, int threads, int64_t smem)
{
    json_t *o = json_pack("{s:s*}", "arch", occ->arch);
    if (device >= 0)
        json_object_set_new(o, "device", json_integer(device));
    json_object_update_new(o,
                           json_pack("{s:i, s:i, s:I, s:i, s:i, s:i, s:f, s:s*, s:{s:o, s:o, s:o, s:o}, s:b, s:s?}",
                                     "regs", regs, "threads", threads, "smem", (json_int_t)smem, "blocks_per_sm",
                                     occ->blocks_per_sm, "active_warps", occ->active_warps, "max_warps", occ->max_warps,
                                     "occupancy", occ->occupancy, "limiter", occ->limiter, "blocks_allowed_by", "warps",
                                     limit(occ->by_warps), "blocks", limit(occ->by_blocks), "registers",
                                     limit(occ->by_registers), "shared_memory", limit(occ->by_shared_memory),
                                     "launchable", occ->unlaunchable == NULL, "unlaunchable", occ->unlaunchable));
    return dump(out, o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
}

int emit_devices_json(char **out, const cutune_device *devs, int n)
{
    json_t *a = json_array();
    for (int i = 0; a && i < n; i++) {
        const cutune_device *d = &devs[i];
        json_t *o = json_pack("{s:i, s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i}", "ordinal", d->ordinal, "name",
                              d->name, "arch", d->arch, "compute_capability", d->cc, "sm_count", d->sm_count,
                              "max_threads_per_sm", d->max_threads_per_sm, "regs_per_sm", d->regs_per_sm, "smem_per_sm",
                              d->smem_per_sm, "l2_bytes", d->l2_bytes, "driver_version", d->driver_version);
        if (!o || json_array_append_new(a, o) < 0) {
            json_decref(a);
            a = NULL;
        }
    }
    return dump(out, a, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
}
