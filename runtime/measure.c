/* measure.c - loading, launching and timing variants (see measure.h). */
#include "measure.h"
#include "../base/err.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../base/sys.h"

struct meas_gpu {
    drv *d;
    CUdevice dev;
    int ordinal;
    CUcontext ctx;
    CUstream stream;
    CUevent start, stop;
    CUevent flush_start; /* before a sample's L2 flush: the flush's own GPU time */
    double flushed;      /* the L2 flushes' GPU seconds so far (meas_flushed_seconds) */
    double compiled;     /* NVRTC's seconds for the helpers' kernels (meas_compile_seconds) */
    CUdeviceptr flush;
    size_t flush_bytes;
    bool sticky;
    int (*before)(void *ctx); /* meas_set_before */
    void *before_ctx;
};

/* Errors after which the context is unusable (CUDA's "sticky" errors). */
static bool is_sticky(CUresult r)
{
    switch (r) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_ECC_UNCORRECTABLE: return true;
    default: return false;
    }
}

/* Checks a driver call: on failure fills err, notes a sticky error, returns -1. */
static int check(meas_gpu *g, CUresult r, const char *what)
{
    if (r == CUDA_SUCCESS)
        return 0;
    drv_error(g->d, r, what);
    if (is_sticky(r))
        g->sticky = true;
    return -1;
}

enum { BUSY_WAIT_MS = 3000, BUSY_STEP_MS = 50 };

/* The device's primary context retained into g->ctx. A GPU in exclusive-process mode
 * that another process holds answers CUDA_ERROR_DEVICE_UNAVAILABLE (cuda.h: "often
 * unavailable due to use of CU_COMPUTEMODE_EXCLUSIVE_PROCESS or
 * CU_COMPUTEMODE_PROHIBITED"): the last run's worker may still be ending there (its tuner
 * does not wait for that: runtime/worker's wk_release), so it is asked again for up to
 * BUSY_WAIT_MS before the answer stands (a prohibited GPU is refused that much later). */
static CUresult retain_context(meas_gpu *g)
{
    CUresult r = g->d->cuDevicePrimaryCtxRetain(&g->ctx, g->dev);
    for (int waited = 0; r == CUDA_ERROR_DEVICE_UNAVAILABLE && waited < BUSY_WAIT_MS; waited += BUSY_STEP_MS) {
        nanosleep(&(struct timespec){0, BUSY_STEP_MS * 1000000L}, NULL);
        r = g->d->cuDevicePrimaryCtxRetain(&g->ctx, g->dev);
    }
    return r;
}

int meas_open(meas_gpu **out, drv *d, int ordinal, size_t flush_bytes)
{
    *out = NULL;
    meas_gpu *g = calloc(1, sizeof *g);
    if (!g) {
        err_set(-1, "out of memory");
        return -1;
    }
    g->d = d;
    g->ordinal = ordinal;
    if (check(g, d->cuDeviceGet(&g->dev, ordinal), "cuDeviceGet") < 0 ||
        check(g, retain_context(g), "cuDevicePrimaryCtxRetain") < 0) {
        free(g);
        return -1;
    }
    if (check(g, d->cuCtxSetCurrent(g->ctx), "cuCtxSetCurrent") < 0 ||
        check(g, d->cuStreamCreate(&g->stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate") < 0 ||
        check(g, d->cuEventCreate(&g->start, CU_EVENT_DEFAULT), "cuEventCreate") < 0 ||
        check(g, d->cuEventCreate(&g->stop, CU_EVENT_DEFAULT), "cuEventCreate") < 0 ||
        check(g, d->cuEventCreate(&g->flush_start, CU_EVENT_DEFAULT), "cuEventCreate") < 0 ||
        (flush_bytes && check(g, d->cuMemAlloc(&g->flush, flush_bytes), "cuMemAlloc (L2 flush buffer)") < 0)) {
        meas_close(g);
        return -1;
    }
    g->flush_bytes = flush_bytes;
    *out = g;
    return 0;
}

void meas_close(meas_gpu *g)
{
    if (!g)
        return;
    drv *d = g->d;
    /* Best effort: after a sticky error these fail, and the context is released anyway. */
    if (g->flush)
        d->cuMemFree(g->flush);
    if (g->start)
        d->cuEventDestroy(g->start);
    if (g->stop)
        d->cuEventDestroy(g->stop);
    if (g->flush_start)
        d->cuEventDestroy(g->flush_start);
    if (g->stream)
        d->cuStreamDestroy(g->stream);
    if (g->ctx)
        d->cuDevicePrimaryCtxRelease(g->dev);
    free(g);
}

bool meas_sticky(const meas_gpu *g)
{
    return g->sticky;
}

int meas_alloc(meas_gpu *g, size_t bytes, CUdeviceptr *out)
{
    return check(g, g->d->cuMemAlloc(out, bytes ? bytes : 1), "cuMemAlloc");
}

void meas_free(meas_gpu *g, CUdeviceptr p)
{
    if (p)
        g->d->cuMemFree(p);
}

int meas_upload(meas_gpu *g, CUdeviceptr dst, const void *src, size_t bytes)
{
    if (check(g, g->d->cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD") < 0)
        return -1;
    return check(g, g->d->cuStreamSynchronize(NULL), "cuStreamSynchronize (after an upload)");
}

int meas_download(meas_gpu *g, void *dst, CUdeviceptr src, size_t bytes)
{
    return check(g, g->d->cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH");
}

/* A device-to-device copy or a memset runs on the legacy default stream and does not
 * wait for the host, and the kernels run on a non-blocking stream, which does not wait
 * for the legacy one: both are waited for here, so that an input is restored before
 * the checked run starts and does not share the GPU with it (it is timed). */
int meas_copy(meas_gpu *g, CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
    return check(g, g->d->cuMemcpyDtoD(dst, src, bytes), "cuMemcpyDtoD") < 0 ||
                   check(g, g->d->cuStreamSynchronize(NULL), "cuMemcpyDtoD (cuStreamSynchronize)") < 0
               ? -1
               : 0;
}

int meas_fill(meas_gpu *g, CUdeviceptr dst, unsigned char byte, size_t bytes)
{
    return check(g, g->d->cuMemsetD8(dst, byte, bytes), "cuMemsetD8") < 0 ||
                   check(g, g->d->cuStreamSynchronize(NULL), "cuMemsetD8 (cuStreamSynchronize)") < 0
               ? -1
               : 0;
}

int meas_copy_queued(meas_gpu *g, CUdeviceptr dst, CUdeviceptr src, size_t bytes)
{
    return check(g, g->d->cuMemcpyDtoD(dst, src, bytes), "cuMemcpyDtoD");
}

int meas_fill_queued(meas_gpu *g, CUdeviceptr dst, unsigned char byte, size_t bytes)
{
    return check(g, g->d->cuMemsetD8(dst, byte, bytes), "cuMemsetD8");
}

int meas_wait_queued(meas_gpu *g)
{
    return check(g, g->d->cuStreamSynchronize(NULL), "copies and fills (cuStreamSynchronize)");
}

int meas_load(meas_gpu *g, const void *cubin, const char *symbol, const meas_launch *l, meas_kernel *out)
{
    memset(out, 0, sizeof *out);
    drv *d = g->d;
    if (check(g, d->cuModuleLoadData(&out->module, cubin), "cuModuleLoadData") < 0)
        return -1;
    if (check(g, d->cuModuleGetFunction(&out->function, out->module, symbol), "cuModuleGetFunction") < 0)
        goto fail;
    if (check(g, d->cuFuncGetAttribute(&out->registers, CU_FUNC_ATTRIBUTE_NUM_REGS, out->function),
              "cuFuncGetAttribute") < 0 ||
        check(g, d->cuFuncGetAttribute(&out->static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, out->function),
              "cuFuncGetAttribute") < 0 ||
        check(g, d->cuFuncGetAttribute(&out->local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, out->function),
              "cuFuncGetAttribute") < 0 ||
        check(g,
              d->cuFuncGetAttribute(&out->max_threads_per_block, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                    out->function),
              "cuFuncGetAttribute") < 0)
        goto fail;
    /* Past 48 KiB a block's shared memory, static and dynamic together, needs the
     * function's opt-in (the occupancy model assumes it is given): without it a launch
     * of static + dynamic > 48 KiB fails with CUDA_ERROR_INVALID_VALUE. */
    if ((int64_t)out->static_smem + (int64_t)l->dynamic_smem > 48 * 1024 &&
        check(g,
              d->cuFuncSetAttribute(out->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                    (int)l->dynamic_smem),
              "cuFuncSetAttribute (dynamic shared memory)") < 0)
        goto fail;
    int threads = (int)(l->block[0] * l->block[1] * l->block[2]);
    if (threads <= out->max_threads_per_block &&
        check(g,
              d->cuOccupancyMaxActiveBlocksPerMultiprocessor(&out->driver_blocks_per_sm, out->function, threads,
                                                             l->dynamic_smem),
              "cuOccupancyMaxActiveBlocksPerMultiprocessor") < 0)
        goto fail;
    return 0;
fail:
    d->cuModuleUnload(out->module);
    out->module = NULL;
    return -1;
}

void meas_unload(meas_gpu *g, meas_kernel *k)
{
    if (k->module)
        g->d->cuModuleUnload(k->module);
    k->module = NULL;
}

static int launch(meas_gpu *g, const meas_kernel *k, const meas_launch *l)
{
    return check(g,
                 g->d->cuLaunchKernel(k->function, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
                                      l->block[2], l->dynamic_smem, g->stream, l->args, NULL),
                 "cuLaunchKernel");
}

int meas_enqueue(meas_gpu *g, const meas_kernel *k, const meas_launch *l)
{
    return launch(g, k, l);
}

int meas_sync(meas_gpu *g)
{
    return check(g, g->d->cuStreamSynchronize(g->stream), "cuStreamSynchronize");
}

int meas_pci_bus_id(meas_gpu *g, char *out, int size)
{
    return check(g, g->d->cuDeviceGetPCIBusId(out, size, g->dev), "cuDeviceGetPCIBusId");
}

int meas_run(meas_gpu *g, const meas_kernel *k, const meas_launch *l)
{
    if (launch(g, k, l) < 0)
        return -1;
    return check(g, g->d->cuStreamSynchronize(g->stream), "the kernel's run (cuStreamSynchronize)");
}

/* One event-timed sample: `batch` launches, optionally after flushing L2; ms per launch. */
static int sample(meas_gpu *g, const meas_kernel *k, const meas_launch *l, int batch, bool flush, unsigned tag,
                  double *ms)
{
    drv *d = g->d;
    bool flushing = flush && g->flush;
    if (flushing && (check(g, d->cuEventRecord(g->flush_start, g->stream), "cuEventRecord") < 0 ||
                     check(g, d->cuMemsetD32Async(g->flush, tag, g->flush_bytes / 4, g->stream), "L2 flush") < 0))
        return -1;
    if (check(g, d->cuEventRecord(g->start, g->stream), "cuEventRecord") < 0)
        return -1;
    for (int b = 0; b < batch; b++)
        if (launch(g, k, l) < 0)
            return -1;
    if (check(g, d->cuEventRecord(g->stop, g->stream), "cuEventRecord") < 0 ||
        check(g, d->cuEventSynchronize(g->stop), "the kernel's run (cuEventSynchronize)") < 0)
        return -1;
    float elapsed = 0, flushed = 0;
    if (check(g, d->cuEventElapsedTime(&elapsed, g->start, g->stop), "cuEventElapsedTime") < 0)
        return -1;
    /* the flush's own time, apart from the sample's: the account of GPU work (not timing) */
    if (flushing && d->cuEventElapsedTime(&flushed, g->flush_start, g->start) == CUDA_SUCCESS && flushed > 0)
        g->flushed += (double)flushed * 1e-3;
    *ms = (double)elapsed / batch;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Quantile q (0..1) of sorted v[0..n), linearly interpolated. */
static double quantile(const double *v, int n, double q)
{
    double pos = q * (n - 1);
    int i = (int)pos;
    if (i >= n - 1)
        return v[n - 1];
    return v[i] + (pos - i) * (v[i + 1] - v[i]);
}

static void statistics(const double *samples, int n, double *sorted, meas_times *t)
{
    memcpy(sorted, samples, sizeof(double) * (size_t)n);
    qsort(sorted, (size_t)n, sizeof(double), cmp_double);
    t->min_ms = sorted[0];
    t->max_ms = sorted[n - 1];
    t->median_ms = quantile(sorted, n, 0.5);
    t->q1_ms = quantile(sorted, n, 0.25);
    t->q3_ms = quantile(sorted, n, 0.75);
    t->spread = t->median_ms > 0 ? (t->q3_ms - t->q1_ms) / t->median_ms : 0;
    t->reps = n;
}

double meas_cold_allowance(double cold_ms)
{
    double frac = cold_ms * MEAS_COLD_FRAC;
    return frac > MEAS_COLD_MS ? frac : MEAS_COLD_MS;
}

bool meas_race_cold(const meas_settings *s, double cold_ms)
{
    double warm = cold_ms - meas_cold_allowance(cold_ms);
    return s->worse && s->prune > 0 && warm > 0 && s->worse(s->worse_ctx, warm, s->prune);
}

meas_next meas_race_next(const meas_settings *s, const meas_times *t)
{
    if (t->reps < 1)
        return MEAS_MORE;
    if (s->worse && s->prune > 0 && s->worse(s->worse_ctx, t->median_ms, s->prune))
        return MEAS_PRUNED;
    double cold = t->cold_ms - meas_cold_allowance(t->cold_ms); /* what is left of it, as meas_race_cold */
    bool two = t->reps >= 2 || cold > 0;
    double fastest = t->reps >= 2 || cold >= t->min_ms ? t->min_ms : cold;
    if (s->worse && s->contend > 0 && two && s->worse(s->worse_ctx, fastest, s->contend))
        return MEAS_PRUNED;
    bool done = (t->reps >= s->min_reps && t->spread <= s->spread) || t->reps >= (s->max_reps > 0 ? s->max_reps : 1);
    /* the screening stops a contender only where its full timing would go on: one done
     * with as many samples is timed in full, and may win */
    if (!done && s->judge && s->screen > 0 && t->reps == s->screen) {
        meas_verdict v = s->judge(s->judge_ctx, t->median_ms, t->min_ms, t->max_ms);
        if (v == MEAS_BEHIND)
            return MEAS_PRUNED;
        if (v == MEAS_LEVEL)
            return MEAS_TIED;
    }
    if (done)
        return MEAS_DONE;
    if (s->provisional > 0 && t->reps >= s->provisional)
        return MEAS_PROVISIONAL;
    return MEAS_MORE;
}

int meas_run_timed(meas_gpu *g, const meas_kernel *k, const meas_launch *l, bool flush, double *ms)
{
    return sample(g, k, l, 1, flush, 0, ms);
}

int meas_time(meas_gpu *g, const meas_kernel *k, const meas_launch *l, const meas_settings *s, double cold_ms,
              meas_times *out)
{
    memset(out, 0, sizeof *out);
    double t0 = sys_seconds();
    out->launches = 1; /* the checked run */
    out->cold_ms = cold_ms > 0 ? cold_ms : 0;
    out->batch = 1;
    double *samples = NULL;
    if (meas_race_cold(s, cold_ms)) { /* a clear loser: its one (cold) sample is its figures */
        statistics(&cold_ms, 1, (double[1]){0}, out);
        out->pruned = true;
        goto done;
    }
    int cap = s->max_reps > 3 ? s->max_reps : 3;
    samples = malloc(sizeof(double) * (size_t)cap * 2);
    if (!samples) {
        err_set(-1, "out of memory");
        return -1;
    }
    double *sorted = samples + cap;
    int n = 0, batch = 1;
    if (cold_ms < MEAS_SHORT_MS) {
        /* A short kernel: the cold first launches weigh (the checked run was the first
         * warm-up), and the event timer resolves about half a microsecond, so one much
         * shorter than min_sample_ms is launched several times per event pair, sized by
         * the shortest of three single launches (one alone can be a cold outlier). */
        for (int w = 1; w < s->warmup; w++, out->launches++)
            if ((g->before && g->before(g->before_ctx) < 0) || launch(g, k, l) < 0)
                goto fail;
        if (check(g, g->d->cuStreamSynchronize(g->stream), "the warm-up runs") < 0)
            goto fail;
        double singles[3], single = 0;
        for (int i = 0; i < 3; i++, out->launches++) {
            if ((g->before && g->before(g->before_ctx) < 0) || sample(g, k, l, 1, s->flush_l2, 0, &singles[i]) < 0)
                goto fail;
            if (i == 0 || singles[i] < single)
                single = singles[i];
        }
        if (single < s->min_sample_ms && !g->before) { /* with resets: one launch per sample */
            double want = ceil(s->min_sample_ms / (single > 1e-4 ? single : 1e-4));
            batch = want > 1000 ? 1000 : (int)want;
        } else { /* batch 1: they are warm, flushed samples like any repetition */
            memcpy(samples, singles, sizeof singles);
            n = 3;
        }
    }
    out->batch = batch;
    out->warmup_seconds = sys_seconds() - t0; /* warm-ups and batch sizing, before the samples */
    meas_next next = MEAS_MORE;
    if (n) {
        statistics(samples, n, sorted, out);
        next = meas_race_next(s, out);
    }
    while (next == MEAS_MORE && n < cap) {
        if ((g->before && g->before(g->before_ctx) < 0) ||
            sample(g, k, l, batch, s->flush_l2, (unsigned)n + 1, &samples[n]) < 0)
            goto fail;
        out->launches += batch;
        n++;
        statistics(samples, n, sorted, out);
        next = meas_race_next(s, out);
    }
    out->pruned = next == MEAS_PRUNED || next == MEAS_TIED; /* tied: it cannot win either */
    out->tied = next == MEAS_TIED;
    out->provisional = next == MEAS_PROVISIONAL;
done:
    free(samples);
    out->gpu_seconds = sys_seconds() - t0;
    return 0;
fail:
    free(samples);
    out->gpu_seconds = sys_seconds() - t0;
    return -1;
}

/* ---- what runtime/hook.c needs ------------------------------------------ */

void meas_set_before(meas_gpu *g, int (*before)(void *ctx), void *ctx)
{
    g->before = before;
    g->before_ctx = ctx;
}

CUstream meas_stream(const meas_gpu *g)
{
    return g->stream;
}

drv *meas_driver(const meas_gpu *g)
{
    return g->d;
}

int meas_check(meas_gpu *g, CUresult r, const char *what)
{
    return check(g, r, what);
}

CUcontext meas_context(const meas_gpu *g)
{
    return g->ctx;
}

int meas_flush(meas_gpu *g)
{
    if (!g->flush)
        return 0;
    if (check(g, g->d->cuMemsetD32Async(g->flush, 0, g->flush_bytes / 4, g->stream), "L2 flush") < 0)
        return -1;
    return meas_sync(g);
}

int meas_ordinal(const meas_gpu *g)
{
    return g->ordinal;
}

double meas_flushed_seconds(const meas_gpu *g)
{
    return g->flushed;
}

void meas_add_compile_seconds(meas_gpu *g, double seconds)
{
    if (seconds > 0)
        g->compiled += seconds;
}

double meas_compile_seconds(const meas_gpu *g)
{
    return g->compiled;
}
