/* spec_device.c - the device attributes a spec reads (sm_count, ...): the values a
 * spec is checked with, from a GPU or from an architecture's table, and checking it
 * again when tuning or analysis targets another device. */
#include <stdio.h>
#include <string.h>

#include "../compiler/sema.h"
#include "../runtime/occupancy.h"
#include "internal.h"

int api_device_values_for_arch(dev_values *out, const char *arch)
{
    memset(out, 0, sizeof *out);
    const occ_arch *a = occ_arch_find(arch ? arch : "sm_90");
    const occ_sku *sku = a ? occ_arch_sku(a->cc) : NULL;
    if (!a || !sku)
        return -1;
    out->v[DA_SM_COUNT] = sku->sm_count;
    out->v[DA_MAX_THREADS_PER_SM] = a->max_threads_per_sm;
    out->v[DA_MAX_THREADS_PER_BLOCK] = a->max_threads_per_block;
    out->v[DA_REGS_PER_SM] = a->regs_per_sm;
    out->v[DA_REGS_PER_BLOCK] = a->regs_per_block;
    out->v[DA_SMEM_PER_SM] = a->smem_per_sm;
    out->v[DA_SMEM_PER_BLOCK] = a->smem_per_block;
    out->v[DA_SMEM_PER_BLOCK_OPTIN] = a->smem_per_block_optin;
    out->v[DA_L2_BYTES] = sku->l2_bytes;
    out->v[DA_WARP_SIZE] = a->warp_size;
    out->v[DA_CC_MAJOR] = a->cc / 10;
    out->v[DA_CC_MINOR] = a->cc % 10;
    out->v[DA_CC] = a->cc;
    out->assumed = true;
    snprintf(out->source, sizeof out->source, "%s table: %s (others: %s)", a->name, sku->product, sku->others);
    return 0;
}

/* Copies the errors of `from` (and the notes that follow each) into the spec's list. */
static void copy_errors(cutune_spec *spec, const diag_list *from)
{
    bool keep = false;
    for (int i = 0; i < from->len; i++) {
        const diag *d = &from->items[i];
        if (d->severity == DIAG_NOTE) {
            if (keep)
                diag_note(&spec->diags, d->has_loc, d->loc, "%s", d->message);
            continue;
        }
        keep = d->severity == DIAG_ERROR;
        if (!keep)
            continue;
        if (d->has_loc)
            diag_error(&spec->diags, d->loc, "%s", d->message);
        else
            diag_error_noloc(&spec->diags, "%s", d->message);
    }
}

int api_spec_recheck(cutune_spec *spec, const dev_values *dv)
{
    model *m = spec->model;
    if (!m)
        return CUTUNE_OK;
    if (!m->device_used || dev_values_equal(&m->device, dv)) {
        m->device = *dv; /* what the model reads is unchanged: only where the values come from */
        return CUTUNE_OK;
    }
    sema_options so = spec->checked_with;
    so.device = dv;
    diag_list tmp;
    diag_init(&tmp, spec->arena, spec->src);
    model *again = NULL;
    if (sema_check(&again, spec->arena, spec->ast, &so, &tmp) < 0) {
        if (tmp.out_of_memory)
            return CUTUNE_ENOMEM;
        copy_errors(spec, &tmp);
        diag_note(&spec->diags, false, (span){0, 0}, "the spec was checked again with the device attributes of %s",
                  dv->source);
        return CUTUNE_ESPEC;
    }
    spec->model = again;
    return CUTUNE_OK;
}

int cutune_device_attr_count(void) { return DA_COUNT; }

const char *cutune_device_attr_name(int i)
{
    return i >= 0 && i < DA_COUNT ? dev_attr_name((dev_attr)i) : NULL;
}

long long cutune_spec_device_attr_value(const cutune_spec *spec, int i)
{
    return spec && spec->model && i >= 0 && i < DA_COUNT ? (long long)spec->model->device.v[i] : 0;
}

int cutune_spec_device_attr_used(const cutune_spec *spec, int i)
{
    return spec && spec->model && i >= 0 && i < DA_COUNT && (spec->model->device_used >> i & 1);
}

int cutune_spec_device_assumed(const cutune_spec *spec)
{
    return spec && spec->model && spec->model->device.assumed;
}

const char *cutune_spec_device_source(const cutune_spec *spec)
{
    return spec && spec->model ? spec->model->device.source : "";
}

int cutune_spec_set_device(cutune_spec *spec, const struct cutune_device *dev)
{
    if (!spec || !dev || !cutune_spec_ok(spec))
        return CUTUNE_EINVAL;
    dev_values dv;
    dev_values_from_device(&dv, dev);
    return api_spec_recheck(spec, &dv);
}

int api_spec_recheck_recorded(cutune_spec *spec, const cutune_device *recorded)
{
    if (!recorded || recorded->warp_size == 0) /* not recorded (a results file from before) */
        return CUTUNE_OK;
    dev_values dv;
    dev_values_from_device(&dv, recorded);
    snprintf(dv.source, sizeof dv.source, "the recorded run's %.120s", recorded->name);
    return api_spec_recheck(spec, &dv);
}
