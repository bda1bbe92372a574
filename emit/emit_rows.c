/* emit_rows.c - a configuration's variant and its static analysis as a CSV row or a
 * JSON object: the rows of `cutune list` and `cutune analyze` (see emit_text.h). */
#include "emit_text.h"

#include <jansson.h>

#include "../base/csv.h"
#include "../compiler/spec.h"

/* A param's value as JSON, as the variant's type letter reads it. */
static json_t *typed_json(const cutune_param_value *x, char type)
{
    switch (type) {
    case 'i': return json_integer((json_int_t)x->i);
    case 'f': return json_real(x->f);
    case 'b': return json_boolean(x->b);
    default: return json_string(x->s);
    }
}

static json_t *string_array(const char *const *items, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_string(items[i]));
    return a;
}

static json_t *int_array(const int64_t *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_integer((json_int_t)v[i]));
    return a;
}

/* v as a JSON object (NULL out of memory). */
static json_t *variant_object(const cutune_spec *spec, const cutune_variant *v)
{
    json_t *params = json_object();
    for (int i = 0; i < v->nparams && i < spec->model->nparams; i++)
        json_object_set_new(params, spec->model->params[i].name, typed_json(&v->typed[i], v->types[i]));
    return json_pack("{s:I, s:o, s:o, s:o, s:I, s:s*, s:o, s:o}", "index", (json_int_t)v->ordinal, "params", params,
                     "block", int_array(v->block, 3), "grid", int_array(v->grid, 3), "smem_bytes",
                     (json_int_t)v->smem_bytes, "kernel", v->name_expression, "defines",
                     string_array(v->defines, v->ndefines), "options", string_array(v->options, v->noptions));
}

/* o as compact JSON into *out, o released. */
static int dump_compact(char **out, json_t *o)
{
    *out = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(o);
    return *out ? CUTUNE_OK : CUTUNE_ENOMEM;
}

/* The strbuf's text into *out, the strbuf released. */
static int finish(char **out, strbuf *o)
{
    *out = sb_steal(o);
    sb_free(o);
    return *out ? CUTUNE_OK : CUTUNE_ENOMEM;
}

int emit_variant_json(char **out, const cutune_spec *spec, const cutune_variant *v)
{
    return dump_compact(out, variant_object(spec, v));
}

static void variant_csv(strbuf *o, const cutune_spec *spec, const cutune_variant *v)
{
    if (!v) {
        sb_add(o, "index");
        for (int i = 0; i < spec->model->nparams; i++) {
            sb_addc(o, ',');
            csv_field(o, spec->model->params[i].name);
        }
        sb_add(o, ",block.x,block.y,block.z,grid.x,grid.y,grid.z,smem_bytes,kernel,defines,options");
        return;
    }
    sb_printf(o, "%llu", (unsigned long long)v->ordinal);
    for (int i = 0; i < v->nparams; i++) {
        sb_addc(o, ',');
        csv_field(o, v->values[i]);
    }
    sb_printf(o, ",%lld,%lld,%lld,%lld,%lld,%lld,%lld,", (long long)v->block[0], (long long)v->block[1],
              (long long)v->block[2], (long long)v->grid[0], (long long)v->grid[1], (long long)v->grid[2],
              (long long)v->smem_bytes);
    csv_field(o, v->name_expression);
    sb_addc(o, ',');
    csv_joined(o, v->defines, v->ndefines);
    sb_addc(o, ',');
    csv_joined(o, v->options, v->noptions);
}

int emit_variant_csv(char **out, const cutune_spec *spec, const cutune_variant *v)
{
    strbuf o = STRBUF_INIT;
    variant_csv(&o, spec, v);
    return finish(out, &o);
}

int emit_analysis_json(char **out, const cutune_spec *spec, const cutune_analysis *a)
{
    json_t *o = variant_object(spec, a->variant);
    const cutune_occupancy *c = &a->occupancy;
    json_object_set_new(o, "compiled", json_boolean(a->compiled));
    json_object_set_new(o, "log", json_string(a->log));
    if (a->has_resources)
        json_object_update_new(o, json_pack("{s:i, s:I, s:I, s:I, s:I, s:i}", "registers", a->registers, "static_smem",
                                            (json_int_t)a->static_smem, "local_bytes", (json_int_t)a->local_bytes,
                                            "spill_stores", (json_int_t)a->spill_stores, "spill_loads",
                                            (json_int_t)a->spill_loads, "barriers", a->barriers));
    if (c->limiter)
        json_object_set_new(o, "occupancy",
                            json_pack("{s:s, s:i, s:i, s:i, s:f, s:s}", "arch", c->arch, "blocks_per_sm",
                                      c->blocks_per_sm, "active_warps", c->active_warps, "max_warps", c->max_warps,
                                      "occupancy", c->occupancy, "limiter", c->limiter));
    json_object_update_new(o, json_pack("{s:b, s:s?, s:f, s:b, s:b}", "launchable", a->launchable, "why", a->why,
                                        "compile_seconds", a->compile_seconds, "cached", a->cached, "duplicate",
                                        a->duplicate));
    return dump_compact(out, o);
}

int emit_analysis_csv(char **out, const cutune_spec *spec, const cutune_analysis *a)
{
    strbuf o = STRBUF_INIT;
    variant_csv(&o, spec, a ? a->variant : NULL);
    if (!a) {
        sb_add(&o, ",compiled,registers,static_smem,local_bytes,spill_stores,spill_loads,blocks_per_sm,occupancy,"
                   "limiter,launchable,why,compile_seconds,cached,duplicate");
        return finish(out, &o);
    }
    sb_printf(&o, ",%d,%d,%lld,%lld,%lld,%lld,%d,%.4f,", a->compiled, a->registers, (long long)a->static_smem,
              (long long)a->local_bytes, (long long)a->spill_stores, (long long)a->spill_loads,
              a->occupancy.blocks_per_sm, a->occupancy.occupancy);
    csv_field(&o, a->occupancy.limiter ? a->occupancy.limiter : "");
    sb_printf(&o, ",%d,", a->launchable);
    csv_field(&o, a->why ? a->why : "");
    sb_printf(&o, ",%.6f,%d,%d", a->compile_seconds, a->cached, a->duplicate);
    return finish(out, &o);
}
