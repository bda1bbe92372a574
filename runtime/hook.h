/* hook.h - the launch hooks: the spec's resets, run before every launch of a
 * variant (its checked run, warm-ups and every timed sample) and of the reference.
 *
 * A reset sets a buffer to zeros or a constant (cuMemsetD8/D16/D32Async; an 8-byte
 * constant is copied from a source buffer made once), copies its initial contents back
 * from the pristine copy runtime/bench keeps (cuMemcpyDtoDAsync), or launches a kernel
 * of the user's with the variant's own arguments. Everything is enqueued on the timing
 * stream (meas_stream) before the L2 flush and the start event, so it is never timed,
 * and every return code is checked (a sticky error marks the context lost). */
#ifndef CUTUNE_RUNTIME_HOOK_H
#define CUTUNE_RUNTIME_HOOK_H

#include <stdbool.h>
#include <stddef.h>

#include "data.h"
#include "measure.h"

typedef enum hook_kind { HOOK_ZEROS, HOOK_CONSTANT, HOOK_INPUT, HOOK_KERNEL } hook_kind;

/* One reset, as the tuner hands it over (borrowed for the hook set's life). */
typedef struct hook_spec {
    hook_kind kind;
    int arg;           /* the buffer (not HOOK_KERNEL) */
    double constant;   /* HOOK_CONSTANT, converted as data_set converts */
    const void *cubin; /* HOOK_KERNEL: its binary, symbol and geometry */
    const char *symbol;
    unsigned grid[3], block[3];
} hook_spec;

/* A buffer as the hooks see it in the current configuration. */
typedef struct hook_buffer {
    data_type type;
    CUdeviceptr dev, pristine; /* pristine: 0 when it has no initial contents */
    size_t bytes;
} hook_buffer;

typedef struct hook_set hook_set;

/* hook_prepare: loads the kernels of `specs` (n of them). *out is NULL when n is 0.
 * 0, or -1 with err_last set. */
int hook_prepare(hook_set **out, meas_gpu *g, const hook_spec *specs, int n);

/* hook_buffers_reset: whether the hooks reset buffer `arg` (a kernel hook may reset any:
 * true for every buffer when there is one). */
bool hook_resets(const hook_set *h, int arg);

/* hook_run: enqueues every hook, in order, on the timing stream; `bufs` is indexed by
 * argument, `argv` is the variant's argument vector (for kernel hooks). Returns without
 * waiting. 0, or -1 with err_last set. A NULL set is a no-op. */
int hook_run(hook_set *h, meas_gpu *g, const hook_buffer *bufs, void **argv);

/* hook_free: unloads the kernels and frees the constant sources; NULL is a no-op. */
void hook_free(hook_set *h, meas_gpu *g);

#endif
