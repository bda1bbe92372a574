/* hook.c - resets before every launch (see hook.h). */
#include "hook.h"
#include "../base/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Owns the loaded kernels and the sources of 8-byte constants. */
struct hook_set {
    const hook_spec *specs;
    int n;
    meas_kernel *kernels; /* HOOK_KERNEL entries */
    CUdeviceptr *sources; /* HOOK_CONSTANT of 8-byte elements: count bytes of the value */
    size_t *source_bytes;
};

int hook_prepare(hook_set **out, meas_gpu *g, const hook_spec *specs, int n)
{
    *out = NULL;
    if (n <= 0)
        return 0;
    hook_set *h = calloc(1, sizeof *h);
    if (h) {
        h->kernels = calloc((size_t)n, sizeof *h->kernels);
        h->sources = calloc((size_t)n, sizeof *h->sources);
        h->source_bytes = calloc((size_t)n, sizeof *h->source_bytes);
    }
    if (!h || !h->kernels || !h->sources || !h->source_bytes) {
        err_set(-1, "out of memory");
        hook_free(h, g);
        return -1;
    }
    h->specs = specs;
    h->n = n;
    for (int i = 0; i < n; i++) {
        if (specs[i].kind != HOOK_KERNEL)
            continue;
        meas_launch l = {{specs[i].grid[0], specs[i].grid[1], specs[i].grid[2]},
                         {specs[i].block[0], specs[i].block[1], specs[i].block[2]},
                         0,
                         NULL};
        if (meas_load(g, specs[i].cubin, specs[i].symbol, &l, &h->kernels[i]) < 0) {
            err_wrap(-1, "loading the reset kernel '%s'", specs[i].symbol);
            hook_free(h, g);
            return -1;
        }
    }
    *out = h;
    return 0;
}

bool hook_resets(const hook_set *h, int arg)
{
    for (int i = 0; h && i < h->n; i++)
        if (h->specs[i].kind == HOOK_KERNEL || h->specs[i].arg == arg)
            return true;
    return false;
}

/* An 8-byte constant's source: `bytes` of it on the device, made once per size. */
static int constant_source(hook_set *h, meas_gpu *g, int i, const hook_buffer *b)
{
    if (h->sources[i] && h->source_bytes[i] >= b->bytes)
        return 0;
    meas_free(g, h->sources[i]);
    h->sources[i] = 0;
    h->source_bytes[i] = 0;
    size_t count = b->bytes / 8;
    unsigned char *host = malloc(b->bytes ? b->bytes : 8);
    if (!host) {
        err_set(-1, "out of memory (a reset's constant of %zu bytes)", b->bytes);
        return -1;
    }
    for (size_t k = 0; k < count; k++)
        data_set(host, b->type, k, h->specs[i].constant);
    /* Waited for: a pageable upload may still be in flight when cuMemcpyHtoD returns, and
     * the copies from it run on the timing stream, which does not wait for the legacy one. */
    int rc = meas_alloc(g, b->bytes, &h->sources[i]) < 0 || meas_upload(g, h->sources[i], host, b->bytes) < 0 ||
                     meas_check(g, meas_driver(g)->cuStreamSynchronize(NULL), "a reset's constant (upload)") < 0
                 ? -1
                 : 0;
    free(host);
    if (rc == 0)
        h->source_bytes[i] = b->bytes;
    return rc;
}

int hook_run(hook_set *h, meas_gpu *g, const hook_buffer *bufs, void **argv)
{
    if (!h)
        return 0;
    drv *d = meas_driver(g);
    CUstream st = meas_stream(g);
    for (int i = 0; i < h->n; i++) {
        const hook_spec *s = &h->specs[i];
        if (s->kind == HOOK_KERNEL) {
            const hook_spec *k = s;
            if (meas_check(g,
                           d->cuLaunchKernel(h->kernels[i].function, k->grid[0], k->grid[1], k->grid[2], k->block[0],
                                             k->block[1], k->block[2], 0, st, argv, NULL),
                           "the reset kernel (cuLaunchKernel)") < 0)
                return -1;
            continue;
        }
        const hook_buffer *b = &bufs[s->arg];
        if (!b->bytes)
            continue;
        if (s->kind == HOOK_ZEROS) {
            if (meas_check(g,
                           b->bytes % 4 == 0 ? d->cuMemsetD32Async(b->dev, 0, b->bytes / 4, st)
                                             : d->cuMemsetD8Async(b->dev, 0, b->bytes, st),
                           "a reset to zeros (cuMemsetAsync)") < 0)
                return -1;
        } else if (s->kind == HOOK_INPUT) {
            if (!b->pristine) {
                err_set(-1, "a reset to the input: the buffer has no initial contents");
                return -1;
            }
            if (meas_check(g, d->cuMemcpyDtoDAsync(b->dev, b->pristine, b->bytes, st),
                           "a reset to the input (cuMemcpyDtoDAsync)") < 0)
                return -1;
        } else {
            size_t size = data_size(b->type);
            unsigned char bits[8] = {0};
            data_set(bits, b->type, 0, s->constant);
            CUresult r;
            if (size == 1) {
                r = d->cuMemsetD8Async(b->dev, bits[0], b->bytes, st);
            } else if (size == 2) {
                unsigned short v;
                memcpy(&v, bits, 2);
                r = d->cuMemsetD16Async(b->dev, v, b->bytes / 2, st);
            } else if (size == 4) {
                unsigned v;
                memcpy(&v, bits, 4);
                r = d->cuMemsetD32Async(b->dev, v, b->bytes / 4, st);
            } else {
                if (constant_source(h, g, i, b) < 0)
                    return -1;
                r = d->cuMemcpyDtoDAsync(b->dev, h->sources[i], b->bytes, st);
            }
            if (meas_check(g, r, "a reset to a constant") < 0)
                return -1;
        }
    }
    return 0;
}

void hook_free(hook_set *h, meas_gpu *g)
{
    if (!h)
        return;
    for (int i = 0; i < h->n && h->kernels; i++)
        meas_unload(g, &h->kernels[i]);
    for (int i = 0; i < h->n && h->sources; i++)
        meas_free(g, h->sources[i]);
    free(h->kernels);
    free(h->sources);
    free(h->source_bytes);
    free(h);
}
