/* cutune/device.h - a part of cutune's public C API (cutune.h includes every part; its
 * opening comment gives the conventions, docs/api.md the guide).
 *
 * Occupancy and the GPUs the driver sees (api/cutune_device.c). */
#ifndef CUTUNE_DEVICE_H
#define CUTUNE_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- occupancy --------------------------------------------------------------------- */

typedef struct cutune_occupancy {
    const char *arch; /* "sm_90" (static: the occupancy model's table) */
    int blocks_per_sm;
    int active_warps;
    int max_warps;
    double occupancy;    /* active_warps / max_warps, 0..1 */
    const char *limiter; /* "warps", "blocks", "registers", "shared memory", "barriers" */
    int by_warps, by_blocks, by_registers, by_shared_memory; /* blocks per SM each allows (INT32_MAX: no limit) */
    int regs_per_block;                                      /* allocated */
    int64_t smem_per_block;                                  /* allocated, with the system's reserve */
    const char *unlaunchable;                                /* why no block fits (NULL when one does) */
} cutune_occupancy;

/* cutune_occupancy_for_arch: theoretical occupancy of a block of `threads` threads using
 * `regs` registers each and `smem_bytes` of shared memory (static + dynamic) on `arch`
 * ("sm_90", "9.0"...), assuming the kernel opts in to the architecture's largest shared
 * memory per block. Returns CUTUNE_OK, or CUTUNE_EINVAL (unknown architecture, bad
 * figures; see cutune_last_error). A block that cannot run is not an error: it gets
 * blocks_per_sm = 0 and a reason. */
int cutune_occupancy_for_arch(cutune_occupancy *out, const char *arch, int regs, int threads, int64_t smem_bytes);

/* cutune_arch_list: the architectures the occupancy model knows, NULL-terminated. */
const char *const *cutune_arch_list(void);

/* ---- devices ---------------------------------------------------------------------- */

/* A GPU's attributes. Its strings are owned by whoever filled it: cutune_device_get's
 * by the library, for the rest of the process (the driver's answer is kept that long);
 * cutune_tune_device's by the result; an application's own by the application. */
typedef struct cutune_device { /* also `struct cutune_device` (cutune_load_options) */
    int ordinal;
    const char *name; /* "NVIDIA H100 80GB HBM3", as the driver names it */
    const char *arch; /* "sm_90" */
    int cc;           /* 90 */
    int sm_count;
    int max_threads_per_sm, max_blocks_per_sm, regs_per_sm;
    int smem_per_sm, smem_per_block_optin, smem_reserved_per_block;
    int l2_bytes;
    int driver_version; /* 13000 for CUDA 13.0 */
    /* Also readable in a spec's expressions (docs/language.md, device attributes). */
    int warp_size, max_threads_per_block, regs_per_block, smem_per_block;
} cutune_device;

/* cutune_device_count: how many GPUs the CUDA driver sees. Returns CUTUNE_OK, or
 * CUTUNE_ENODEV when there is no driver or it cannot start (cutune_last_error says
 * why: e.g. no libcuda.so.1 on a machine without a GPU). The driver is asked once per
 * process, in a child process (this one never initialises CUDA), of every GPU at once;
 * its answer is kept for this call, cutune_device_get and the rest of the process (a
 * failure is asked again). Thread-safe. */
int cutune_device_count(int *count);

/* cutune_device_get: the attributes of GPU `ordinal` (of the first 64), from the answer
 * cutune_device_count describes. CUTUNE_OK, CUTUNE_ENODEV, or CUTUNE_EINVAL for an
 * ordinal out of range. */
int cutune_device_get(cutune_device *out, int ordinal);

/* cutune_devices_all: every GPU the driver sees (cutune_device_get of each), in *out
 * (free with cutune_free; its strings are the library's, as cutune_device_get's) and
 * their number in *n. CUTUNE_OK; CUTUNE_ENODEV when there is none, cutune_last_error
 * saying why (the driver's reason, "the CUDA driver sees no device", or "GPU I: " and
 * why that GPU cannot be read); CUTUNE_EINVAL (NULL arguments), CUTUNE_ENOMEM. *out is
 * NULL and *n 0 on failure. */
int cutune_devices_all(cutune_device **out, int *n);

/* cutune_device_same_model: 1 when a and b are of one model (name, architecture, SM
 * count), so that one result may hold both's times; 0 otherwise. */
int cutune_device_same_model(const cutune_device *a, const cutune_device *b);

/* cutune_occupancy_for_device: as cutune_occupancy_for_arch, with the device's own
 * figures as its driver reports them. */
int cutune_occupancy_for_device(cutune_occupancy *out, int ordinal, int regs, int threads, int64_t smem_bytes);

#ifdef __cplusplus
}
#endif

#endif
