/* cutune_device.c - cutune/device.h: devices and occupancy in the public API
 * (cutune_device_*, cutune_occupancy_*, cutune_arch_list). The driver is asked once per
 * process, of every GPU at once, in a child process (runtime/devices); this file only
 * turns its answer into the public structs. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/err.h"
#include "../runtime/devices.h"
#include "../runtime/occupancy.h"
#include "internal.h"

const char *const *cutune_arch_list(void)
{
    static const char *names[32];
    if (!names[0]) { /* idempotent: every thread writes the same values */
        int n;
        const occ_arch *all = occ_arch_list(&n);
        for (int i = 0; i < n && i < 31; i++)
            names[i] = all[i].name;
    }
    return names;
}

static int occupancy_on(const occ_arch *arch, int regs, int threads, int64_t smem_bytes, cutune_occupancy *out)
{
    memset(out, 0, sizeof *out);
    occ_usage u = {threads, regs, 0, smem_bytes, 0, 1};
    occ_result r;
    if (occ_compute(arch, &u, &r) < 0) {
        err_set(CUTUNE_EINVAL, "occupancy needs threads >= 1 and non-negative registers and shared memory");
        return CUTUNE_EINVAL;
    }
    session_occupancy(arch, &r, out);
    return CUTUNE_OK;
}

int cutune_occupancy_for_arch(cutune_occupancy *out, const char *arch, int regs, int threads, int64_t smem_bytes)
{
    if (!out) {
        err_set(CUTUNE_EINVAL, "cutune_occupancy_for_arch: no place for the result (out is NULL)");
        return CUTUNE_EINVAL;
    }
    const occ_arch *a = occ_arch_find(arch);
    if (!a) {
        strbuf known = STRBUF_INIT;
        for (const char *const *n = cutune_arch_list(); *n; n++)
            sb_printf(&known, "%s%s", n == cutune_arch_list() ? "" : ", ", *n);
        err_set(CUTUNE_EINVAL, "unknown architecture '%s' (known: %s)", arch ? arch : "(null)", sb_cstr(&known));
        sb_free(&known);
        return CUTUNE_EINVAL;
    }
    return occupancy_on(a, regs, threads, smem_bytes, out);
}

/* A device's attributes in the public form (its strings: the process's kept answer). */
static void device_of(const devices *m, const drv_device *dev, int ordinal, cutune_device *out)
{
    const occ_limits *lim = &dev->lim;
    out->ordinal = ordinal;
    out->name = devices_name(ordinal); /* the process's kept answer: valid for the rest of it */
    out->arch = devices_arch(ordinal);
    out->cc = dev->cc;
    out->sm_count = dev->sm_count;
    out->max_threads_per_sm = lim->max_threads_per_sm;
    out->max_blocks_per_sm = lim->max_blocks_per_sm;
    out->regs_per_sm = lim->regs_per_sm;
    out->smem_per_sm = lim->smem_per_sm;
    out->smem_per_block_optin = lim->smem_per_block_optin;
    out->smem_reserved_per_block = lim->smem_reserved_per_block;
    out->l2_bytes = dev->l2_bytes;
    out->driver_version = m->driver_version;
    out->warp_size = lim->warp_size;
    out->max_threads_per_block = lim->max_threads_per_block;
    out->regs_per_block = lim->regs_per_block;
    out->smem_per_block = lim->smem_per_block;
}

int cutune_device_count(int *count)
{
    devices *m = malloc(sizeof *m);
    if (!m)
        return err_set(CUTUNE_ENOMEM, "out of memory");
    int rc = devices_query(m); /* its error says why not */
    *count = m->count;
    free(m);
    return rc;
}

/* Fills `out` from the driver's view of device `ordinal`, `dev` getting the raw figures. */
static int device_get(int ordinal, cutune_device *out, drv_device *dev)
{
    devices *m = malloc(sizeof *m);
    if (!m)
        return err_set(CUTUNE_ENOMEM, "out of memory");
    int rc = devices_query(m); /* its error says why not */
    memset(out, 0, sizeof *out);
    memset(dev, 0, sizeof *dev);
    if (rc < 0) {
        /* the query's error */
    } else if (ordinal < 0 || ordinal >= m->count) {
        rc = m->count ? CUTUNE_EINVAL : CUTUNE_ENODEV;
        err_set(rc, "no GPU %d: the driver sees %d", ordinal, m->count);
    } else if (ordinal >= DEVICES_ASKED) {
        rc = err_set(CUTUNE_EINVAL, "GPU %d: cutune reads the first %d GPUs only", ordinal, DEVICES_ASKED);
    } else if (!m->d[ordinal].ok) {
        const char *why = devices_why(ordinal);
        rc = err_set(CUTUNE_ENODEV, "%s", why ? why : "out of memory");
    } else {
        device_of(m, &m->d[ordinal].raw, ordinal, out);
        *dev = m->d[ordinal].raw;
    }
    free(m);
    return rc;
}

int cutune_devices_all(cutune_device **out, int *n)
{
    if (!out || !n)
        return err_set(CUTUNE_EINVAL, "cutune_devices_all: no output");
    *out = NULL;
    *n = 0;
    int count = 0, rc = cutune_device_count(&count);
    if (rc != CUTUNE_OK)
        return rc;
    if (count <= 0)
        return err_set(CUTUNE_ENODEV, "the CUDA driver sees no device");
    cutune_device *devs = calloc((size_t)count, sizeof *devs);
    if (!devs)
        return err_set(CUTUNE_ENOMEM, "out of memory");
    for (int i = 0; i < count; i++)
        if (cutune_device_get(&devs[i], i) != CUTUNE_OK) {
            char why[512]; /* the error object's text, before it is set again */
            snprintf(why, sizeof why, "%s", cutune_last_error());
            free(devs);
            return err_set(CUTUNE_ENODEV, "GPU %d: %s", i, why);
        }
    *out = devs;
    *n = count;
    return CUTUNE_OK;
}

/* or_empty: an application's device may leave a string NULL. */
static const char *or_empty(const char *s)
{
    return s ? s : "";
}

int cutune_device_same_model(const cutune_device *a, const cutune_device *b)
{
    return strcmp(or_empty(a->name), or_empty(b->name)) == 0 && strcmp(or_empty(a->arch), or_empty(b->arch)) == 0 &&
           a->sm_count == b->sm_count;
}

int cutune_device_get(cutune_device *out, int ordinal)
{
    drv_device dev;
    return device_get(ordinal, out, &dev);
}

int cutune_occupancy_for_device(cutune_occupancy *out, int ordinal, int regs, int threads, int64_t smem_bytes)
{
    cutune_device info;
    drv_device dev;
    int rc = device_get(ordinal, &info, &dev);
    if (rc < 0)
        return rc;
    /* The device's own figures; the allocation rules of its architecture. */
    const occ_arch *rules = occ_arch_by_cc(dev.cc);
    if (!rules) {
        err_set(CUTUNE_EINVAL, "no occupancy rules for %s (compute capability %d.%d)", info.arch, dev.cc / 10,
                dev.cc % 10);
        return CUTUNE_EINVAL;
    }
    occ_arch a = *rules;
    a.lim = dev.lim;
    return occupancy_on(&a, regs, threads, smem_bytes, out);
}
