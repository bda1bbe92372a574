/* cutune_spec_device.c - cutune/spec.h, second part: the device attributes a spec reads
 * (sm_count, ...): the values a spec is checked with, from a GPU or from an
 * architecture's table, and checking it again when tuning or analysis targets another
 * device (or a caller shows it with a GPU's values before tuning: cutune_spec_use_gpu). */
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
    out->v[DA_MAX_THREADS_PER_SM] = a->lim.max_threads_per_sm;
    out->v[DA_MAX_THREADS_PER_BLOCK] = a->lim.max_threads_per_block;
    out->v[DA_REGS_PER_SM] = a->lim.regs_per_sm;
    out->v[DA_REGS_PER_BLOCK] = a->lim.regs_per_block;
    out->v[DA_SMEM_PER_SM] = a->lim.smem_per_sm;
    out->v[DA_SMEM_PER_BLOCK] = a->lim.smem_per_block;
    out->v[DA_SMEM_PER_BLOCK_OPTIN] = a->lim.smem_per_block_optin;
    out->v[DA_L2_BYTES] = sku->l2_bytes;
    out->v[DA_WARP_SIZE] = a->lim.warp_size;
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

/* Whether any model of the spec (each kernel block's, each size's checked so far)
 * reads a device attribute. */
static bool spec_reads_device(const cutune_spec *spec)
{
    if (spec->model && spec->model->device_used)
        return true;
    for (int k = 0; k < spec->nkernels; k++)
        if (spec->kernel_models && spec->kernel_models[k] && spec->kernel_models[k]->device_used)
            return true;
    return false;
}

/* Every model already made holds the values `dv`, unchanged otherwise. */
static void set_values(cutune_spec *spec, const dev_values *dv)
{
    spec->device = *dv;
    if (spec->model)
        spec->model->device = *dv;
    for (int k = 0; k < spec->nkernels; k++)
        if (spec->kernel_models && spec->kernel_models[k])
            spec->kernel_models[k]->device = *dv;
    for (int i = 0; spec->size_models && spec->model && i < spec->model->sizes.count; i++)
        if (spec->size_models[i])
            spec->size_models[i]->device = *dv;
}

/* Checks block `unit` again at size `size` with the spec's options (the device now
 * spec->device) into *out; errors are copied to the spec with a note. */
static int check_again(cutune_spec *spec, const ast_spec *unit, int size, model **out)
{
    sema_options so = spec->sema_opts;
    so.device = &spec->device;
    so.size_index = size;
    diag_list tmp;
    diag_init(&tmp, spec->arena, spec->src);
    if (sema_check(out, spec->arena, unit, &so, &tmp) < 0) {
        if (tmp.out_of_memory)
            return CUTUNE_ENOMEM;
        copy_errors(spec, &tmp);
        diag_note(&spec->diags, false, (span){0, 0}, "the spec was checked again with the device attributes of %s",
                  spec->device.source);
        return CUTUNE_ESPEC;
    }
    return CUTUNE_OK;
}

int api_spec_recheck(cutune_spec *spec, const dev_values *dv)
{
    if (!spec->model)
        return CUTUNE_OK;
    if (!spec_reads_device(spec) || dev_values_equal(&spec->device, dv)) {
        set_values(spec, dv); /* what the models read is unchanged: only where the values come from */
        return CUTUNE_OK;
    }
    /* Every block checked again (the one in hand at its selected size, the others at
     * their first; other sizes when they are selected: spec_select_size), all or none:
     * when one fails, the spec keeps its last good check and its values. */
    dev_values before = spec->device;
    spec->device = *dv;
    int n = spec->nkernels > 1 ? spec->nkernels : 1, rc = CUTUNE_OK;
    model **again = arena_alloc(spec->arena, sizeof(model *) * (size_t)n);
    if (!again) {
        spec->device = before;
        return CUTUNE_ENOMEM;
    }
    const ast_spec *unit = spec->ast;
    for (int k = 0; k < n && rc == CUTUNE_OK; k++, unit = unit->next) {
        bool current = n == 1 || k == spec->kernel;
        rc = check_again(spec, current ? (spec->unit ? spec->unit : spec->ast) : unit,
                         current ? spec->model->sizes.selected : 0, &again[k]);
    }
    if (rc < 0) {
        spec->device = before;
        return rc;
    }
    spec->model = again[n == 1 ? 0 : spec->kernel];
    spec->size_models = NULL;
    for (int k = 0; n > 1 && k < n; k++) {
        spec->kernel_models[k] = again[k];
        spec->kernel_size_models[k] = NULL;
    }
    return spec_pin_model(spec); /* the others when they are selected */
}

int cutune_device_attr_count(void)
{
    return DA_COUNT;
}

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

int cutune_spec_use_gpu(cutune_spec *spec, int device)
{
    if (!spec || !cutune_spec_ok(spec))
        return CUTUNE_EINVAL;
    cutune_device dev;
    if (!spec->model->device_used || cutune_device_get(&dev, device) != CUTUNE_OK)
        return CUTUNE_OK; /* reads none, or no such GPU: the values it was loaded with */
    return cutune_spec_set_device(spec, &dev);
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
