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
int meas_open(meas_gpu **out, drv *d, int ordinal, size_t flush_bytes);

/* meas_close: releases everything; NULL is a no-op. */
void meas_close(meas_gpu *g);

/* meas_sticky: true once the context has hit an error that poisons it (an illegal
 * address, a trap...): nothing more can run in it. */
bool meas_sticky(const meas_gpu *g);

/* Device memory. */
int meas_alloc(meas_gpu *g, size_t bytes, CUdeviceptr *out);
void meas_free(meas_gpu *g, CUdeviceptr p);
/* meas_upload: copies host bytes to the device and returns once they are there. From
 * pageable memory cuMemcpyHtoD may return while its DMA is still in flight on the
 * legacy stream, which work on the non-blocking timing stream does not wait for, so
 * the legacy stream is synchronised too. */
int meas_upload(meas_gpu *g, CUdeviceptr dst, const void *src, size_t bytes);
int meas_download(meas_gpu *g, void *dst, CUdeviceptr src, size_t bytes);
/* meas_copy and meas_fill (bytes set to `byte`) return once done on the device. */
int meas_copy(meas_gpu *g, CUdeviceptr dst, CUdeviceptr src, size_t bytes);
int meas_fill(meas_gpu *g, CUdeviceptr dst, unsigned char byte, size_t bytes);
/* meas_copy_queued / meas_fill_queued: the same, queued on the legacy stream and not
 * waited for: meas_wait_queued waits for all of them at once (several buffers, one
 * wait). Each returns 0 or -1 with err_last set. */
int meas_copy_queued(meas_gpu *g, CUdeviceptr dst, CUdeviceptr src, size_t bytes);
int meas_fill_queued(meas_gpu *g, CUdeviceptr dst, unsigned char byte, size_t bytes);
int meas_wait_queued(meas_gpu *g);

typedef struct meas_kernel {
    CUmodule module;
    CUfunction function;
    int registers; /* as the driver reports them */
    int static_smem, local_bytes, max_threads_per_block;
    int driver_blocks_per_sm; /* cuOccupancyMaxActiveBlocksPerMultiprocessor for the launch */
} meas_kernel;

typedef struct meas_launch {
    unsigned grid[3], block[3];
    unsigned dynamic_smem;
    void **args; /* pointers to each kernel argument's value */
} meas_launch;

/* meas_load: loads `cubin`, finds `symbol`, opts it in to `dynamic_smem` bytes of
 * dynamic shared memory when that is above the default 48 KB, and reads its
 * attributes. Returns 0, or -1 with err_last set (the module is not left loaded). */
int meas_load(meas_gpu *g, const void *cubin, const char *symbol, const meas_launch *l, meas_kernel *out);

/* meas_unload: unloads the module. */
void meas_unload(meas_gpu *g, meas_kernel *k);

/* meas_enqueue: one launch on the timing stream, not waited for. meas_sync: waits for
 * the stream, with the error (if any) of what ran on it. meas_pci_bus_id: the device's
 * PCI bus id ("0000:19:00.0"), as NVML finds it. Each returns 0 or -1 with err_last set. */
int meas_enqueue(meas_gpu *g, const meas_kernel *k, const meas_launch *l);
int meas_sync(meas_gpu *g);
int meas_pci_bus_id(meas_gpu *g, char *out, int size);

/* meas_run: one launch, waited for, with the error (if any) of the launch itself or of
 * the kernel's execution in err_last. Returns 0 or -1. */
int meas_run(meas_gpu *g, const meas_kernel *k, const meas_launch *l);

/* meas_run_timed: meas_run timed with an event pair on the stream (after an L2 flush
 * when `flush`): *ms is the launch's time. Returns 0 or -1 with err_last set, as meas_run. */
int meas_run_timed(meas_gpu *g, const meas_kernel *k, const meas_launch *l, bool flush, double *ms);

/* The race: how long a variant is timed depends on how it compares with the
 * best so far. Its checked run is its first, cold sample; a short kernel (that sample
 * under MEAS_SHORT_MS) gets the spec's warm-ups, the checked run counting as the first,
 * and three single launches to size its batch; a long one neither. Then warm samples
 * until meas_race_next says done or pruned. */
#define MEAS_SHORT_MS 1.0 /* a cold sample under this: warm-ups and a batch size are needed */
/* What a cold first launch may add to a warm one: MEAS_COLD_MS, or MEAS_COLD_FRAC of it
 * when that is more (meas_cold_allowance). Seen on an H100 (CUTUNE_TRACE's "cold and
 * warm" events, 2026-11-28): a 7 us kernel's took 50 us; of 1,788 SGEMM variants of
 * 2-50 ms, the cold run was at most 0.23 ms and 5.5 % above the fastest warm sample (99 %
 * within 0.04 ms); of 120 sum_matrix variants (1.1 ms), at most 0.014 ms. */
#define MEAS_COLD_MS 0.1
#define MEAS_COLD_FRAC 0.06

/* The final race's screening of a contender (meas_settings.judge). */
typedef enum meas_verdict { MEAS_ON, MEAS_BEHIND, MEAS_LEVEL } meas_verdict;

typedef struct meas_settings {
    int warmup;             /* short kernels only: launches before timing, the checked run included */
    int min_reps, max_reps; /* timed repetitions */
    double spread;          /* done once (q3 - q1) / median <= this, after min_reps */
    bool flush_l2;          /* overwrite the flush buffer before each sample (untimed) */
    double min_sample_ms;   /* launches are batched per event pair to last at least this */
    /* worse(ctx, ms, factor): whether the objective at `ms` is worse than the best so
     * far by more than `factor`; false while there is no best. NULL: never. */
    bool (*worse)(void *ctx, double ms, double factor);
    void *worse_ctx;
    double prune;    /* > 0: a variant whose median is worse by this factor stops (pruned) */
    double contend;  /* > 0: one whose fastest of >= 2 samples is worse by this stops too:
                                    it cannot win, so it needs no full statistics */
    int provisional; /* > 0: a contender stops after this many warm samples, marked
                                    provisional, for the caller to time in full later, once the
                                    best of the whole run is known (0: full statistics now) */
    /* judge(ctx, median_ms, min_ms, max_ms): the final race's screening, asked once,
     * after exactly `screen` warm samples when the timing would go on (not done by
     * min_reps and the spread, or max_reps), with their statistics: MEAS_BEHIND, clearly
     * behind the best (beyond both their noise): it stops, pruned; MEAS_LEVEL, level
     * with it (not ahead by more than the race can tell): it stops, pruned and tied;
     * MEAS_ON: timed on to full statistics. NULL or screen <= 0: never asked. */
    meas_verdict (*judge)(void *ctx, double median_ms, double min_ms, double max_ms);
    void *judge_ctx;
    int screen;
} meas_settings;

typedef struct meas_times {
    double median_ms, min_ms, max_ms, q1_ms, q3_ms;
    double spread;         /* (q3 - q1) / median */
    int reps;              /* timed samples (event pairs) the statistics are over */
    int batch;             /* launches per event pair */
    bool pruned;           /* stopped early: it cannot win (clearly slower than the best so far, or tied) */
    bool provisional;      /* stopped as a contender after s->provisional samples */
    bool tied;             /* stopped by the screening level with the best (pruned too) */
    double cold_ms;        /* the checked run's (cold) sample, which the contend rule counts
                              as one of its two (meas_race_next); 0: none */
    int launches;          /* every launch of the variant: checked run, warm-ups, sizing, timed */
    double gpu_seconds;    /* wall time spent on this variant's timing */
    double warmup_seconds; /* of which the warm-ups and batch sizing, before the samples */
} meas_times;

/* What the race does after a sample. */
typedef enum meas_next { MEAS_MORE, MEAS_DONE, MEAS_PRUNED, MEAS_PROVISIONAL, MEAS_TIED } meas_next;

/* meas_cold_allowance: what is taken off a cold sample of `cold_ms` before it stands for
 * a warm one: the larger of MEAS_COLD_MS and MEAS_COLD_FRAC of it. Pure. */
double meas_cold_allowance(double cold_ms);

/* meas_race_cold: whether the checked run's cold sample `cold_ms` already prunes the
 * variant: its objective at cold_ms less meas_cold_allowance (what is left when the cold
 * launch's worst extra cost is taken off) is worse than the best by s->prune. Pure. */
bool meas_race_cold(const meas_settings *s, double cold_ms);

/* meas_race_next: after t->reps warm samples whose statistics are t: MEAS_PRUNED when
 * the median is worse than the best by s->prune, or the fastest of two samples is worse
 * by s->contend (two warm samples, or from the first the warm one and t->cold_ms less
 * meas_cold_allowance: a variant needs two slow samples to be given up, and the cold sample is
 * one, the allowance taken off as meas_race_cold does); MEAS_DONE once t->reps >= min_reps with spread <= s->spread, or
 * t->reps >= max_reps (at least 1); otherwise, after exactly s->screen samples,
 * MEAS_PRUNED when s->judge says MEAS_BEHIND and MEAS_TIED when it says MEAS_LEVEL;
 * MEAS_PROVISIONAL once t->reps >= s->provisional (when set) and it is neither pruned
 * nor done; else MEAS_MORE. Pure. */
meas_next meas_race_next(const meas_settings *s, const meas_times *t);

/* meas_time: after the checked run (its cold sample `cold_ms`, counted in launches),
 * the race: maybe pruned at once; warm-ups and batch sizing for a short kernel; warm
 * samples until meas_race_next stops, and their statistics (or the cold sample's alone
 * when pruned at once). Returns 0, or -1 with err_last set. */
int meas_time(meas_gpu *g, const meas_kernel *k, const meas_launch *l, const meas_settings *s, double cold_ms,
              meas_times *out);

/* meas_set_before: while `before` is set (NULL clears it), meas_time calls
 * before(ctx) ahead of every launch it makes (warm-ups, sizing, samples)
 * to enqueue the spec's resets on the stream: before the L2 flush and outside the event
 * pair, so they are never timed; each sample is then one launch (batch 1). It returns 0,
 * or -1 with err_last set. */
void meas_set_before(meas_gpu *g, int (*before)(void *ctx), void *ctx);

/* for runtime/hook.c, which enqueues resets on the variant's stream. */
CUstream meas_stream(const meas_gpu *g);
drv *meas_driver(const meas_gpu *g);
/* for runtime/profiler: the device's context and ordinal; meas_flush: the L2 flushed (when
 * the flush buffer exists) and the stream waited for, 0 or -1 with err_last set. */
CUcontext meas_context(const meas_gpu *g);
int meas_ordinal(const meas_gpu *g);
int meas_flush(meas_gpu *g);
/* meas_flushed_seconds: the GPU time of every L2 flush before a timed launch so far (the
 * checked run's and the samples', each timed by an event pair of its own around it,
 * outside the sample's), for the account of GPU work besides timing. */
double meas_flushed_seconds(const meas_gpu *g);
/* meas_add_compile_seconds / meas_compile_seconds: the time NVRTC took for the kernels
 * this device's own helpers needed (runtime/builtin: fill, comparison, checkers), noted
 * by whoever compiled them, and its sum so far. */
void meas_add_compile_seconds(meas_gpu *g, double seconds);
double meas_compile_seconds(const meas_gpu *g);
/* meas_check: 0 when r is CUDA_SUCCESS, else -1 with err_last set ("what: ...") and the context
 * marked lost when r is a sticky error. */
int meas_check(meas_gpu *g, CUresult r, const char *what);

#endif
