/* measure.h - running and timing one variant on a GPU through the driver.
 *
 * A meas_gpu holds a device's primary context, a stream, timing events and the buffer
 * used to flush L2 between repetitions. Knows nothing of specs: the caller hands it a
 * cubin, a symbol, launch geometry and the kernel's argument pointers. */
#ifndef CUTUNE_RUNTIME_MEASURE_H
#define CUTUNE_RUNTIME_MEASURE_H

#include <stdbool.h>
#include <stdint.h>

#include "driver.h"

typedef struct meas_gpu meas_gpu;

/* meas_open: the primary context of device `ordinal`, made current on this thread, with
 * a stream, events and (when flush_bytes > 0) an L2 flush buffer of that size. */
int meas_open(meas_gpu **out, drv *d, int ordinal, size_t flush_bytes, char *err, size_t errsize);

/* meas_close: releases everything; NULL is a no-op. */
void meas_close(meas_gpu *g);

/* meas_sticky: true once the context has hit an error that poisons it (an illegal
 * address, a trap...): nothing more can run in it. */
bool meas_sticky(const meas_gpu *g);

/* Device memory. */
int meas_alloc(meas_gpu *g, size_t bytes, CUdeviceptr *out, char *err, size_t errsize);
void meas_free(meas_gpu *g, CUdeviceptr p);
int meas_upload(meas_gpu *g, CUdeviceptr dst, const void *src, size_t bytes, char *err, size_t errsize);
int meas_download(meas_gpu *g, void *dst, CUdeviceptr src, size_t bytes, char *err, size_t errsize);
int meas_copy(meas_gpu *g, CUdeviceptr dst, CUdeviceptr src, size_t bytes, char *err, size_t errsize);
int meas_fill(meas_gpu *g, CUdeviceptr dst, unsigned char byte, size_t bytes, char *err, size_t errsize);

typedef struct meas_kernel {
    CUmodule module;
    CUfunction function;
    int registers;               /* as the driver reports them */
    int static_smem, local_bytes, max_threads_per_block;
    int driver_blocks_per_sm;    /* cuOccupancyMaxActiveBlocksPerMultiprocessor for the launch */
} meas_kernel;

typedef struct meas_launch {
    unsigned grid[3], block[3];
    unsigned dynamic_smem;
    void **args;                 /* pointers to each kernel argument's value */
} meas_launch;

/* meas_load: loads `cubin`, finds `symbol`, opts it in to `dynamic_smem` bytes of
 * dynamic shared memory when that is above the default 48 KB, and reads its
 * attributes. Returns 0, or -1 with err (the module is not left loaded). */
int meas_load(meas_gpu *g, const void *cubin, const char *symbol, const meas_launch *l, meas_kernel *out,
              char *err, size_t errsize);

/* meas_unload: unloads the module. */
void meas_unload(meas_gpu *g, meas_kernel *k);

/* meas_run: one launch, waited for, with the error (if any) of the launch itself or of
 * the kernel's execution in err. Returns 0 or -1. */
int meas_run(meas_gpu *g, const meas_kernel *k, const meas_launch *l, char *err, size_t errsize);

typedef struct meas_settings {
    int warmup;                  /* launches before timing */
    int min_reps, max_reps;      /* timed repetitions */
    double spread;               /* stop once (q3 - q1) / median <= this, after min_reps */
    bool flush_l2;               /* overwrite the flush buffer before each repetition (untimed) */
    double min_sample_ms;        /* launches are batched per event pair to last at least this */
    /* Asked after each repetition from the third on: true stops timing this variant
     * (it is clearly worse than the best so far). NULL: never. */
    bool (*prune)(void *ctx, double median_ms);
    void *prune_ctx;
} meas_settings;

typedef struct meas_times {
    double median_ms, min_ms, max_ms, q1_ms, q3_ms;
    double spread;               /* (q3 - q1) / median */
    int reps;                    /* timed repetitions (event pairs) */
    int batch;                   /* launches per event pair */
    bool pruned;                 /* stopped early: clearly slower than the best so far */
    double gpu_seconds;          /* wall time spent on this variant's timing */
} meas_times;

/* meas_time: warm-ups, then repetitions until the spread is small or max_reps, and the
 * statistics of the per-launch times. Returns 0, or -1 with err. */
int meas_time(meas_gpu *g, const meas_kernel *k, const meas_launch *l, const meas_settings *s, meas_times *out,
              char *err, size_t errsize);

#endif
