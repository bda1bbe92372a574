/* bench.c - one binary on one device (bench.h). */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/sys.h"

/* The device side of one argument. */
typedef struct slot {
    int64_t count;            /* elements in the current configuration */
    size_t capacity;          /* bytes allocated in dev and pristine */
    CUdeviceptr dev, pristine;
    int64_t pristine_count;   /* elements of initial contents in pristine */
    CUdeviceptr ref;          /* the reference's output, on the device (verified outputs) */
    int64_t ref_count;
    cmp_kernel *cmp;          /* compares it with a variant's */
    unsigned char scalar[8];
} slot;

/* Owns the device (driver, context), every buffer and comparison kernel. */
struct bench {
    drv *d;
    meas_gpu *g;
    const char *arch;
    const bench_arg *args;
    int nargs;
    const bench_verify *vf;
    slot *slots;
    void **argv;
    cmp_kernel cmps[DT_UINT64 + 1]; /* one per element type in use */
    bool cmp_ready[DT_UINT64 + 1];
    fill_kernel fills[DT_UINT64 + 1]; /* initial contents, made on the device: one per type in use */
    bool fill_ready[DT_UINT64 + 1];
    char err[512];
};

int bench_open(bench **out, int ordinal, size_t flush_bytes, const char *arch, const bench_arg *args, int nargs,
               const bench_verify *vf, char *err, size_t errsize)
{
    *out = NULL;
    bench *b = calloc(1, sizeof *b);
    if (b) {
        b->slots = calloc((size_t)nargs + 1, sizeof(slot));
        b->argv = calloc((size_t)nargs + 1, sizeof(void *));
    }
    if (!b || !b->slots || !b->argv) {
        snprintf(err, errsize, "out of memory");
        bench_close(b);
        return -1;
    }
    b->arch = arch;
    b->args = args;
    b->nargs = nargs;
    b->vf = vf;
    if (drv_open(&b->d, err, errsize) < 0 || meas_open(&b->g, b->d, ordinal, flush_bytes, err, errsize) < 0) {
        bench_close(b);
        return -1;
    }
    *out = b;
    return 0;
}

void bench_close(bench *b)
{
    if (!b)
        return;
    for (int i = 0; b->g && b->slots && i < b->nargs; i++) {
        meas_free(b->g, b->slots[i].dev);
        meas_free(b->g, b->slots[i].pristine);
        meas_free(b->g, b->slots[i].ref);
    }
    for (int k = 0; b->g && k <= DT_UINT64; k++)
        if (b->cmp_ready[k])
            cmp_release(b->g, &b->cmps[k]);
    for (int k = 0; b->g && k <= DT_UINT64; k++)
        if (b->fill_ready[k])
            fill_release(b->g, &b->fills[k]);
    meas_close(b->g);
    if (b->d)
        drv_close(b->d);
    free(b->slots);
    free(b->argv);
    free(b);
}

/* Makes every buffer hold the configuration's count, initial contents restored and
 * outputs poisoned, and every scalar its value. 0, or -1 with b->err. */
static int prepare_args(bench *b, const bench_config *c)
{
    for (int i = 0; i < b->nargs; i++) {
        slot *s = &b->slots[i];
        const bench_arg *a = &b->args[i];
        if (!a->is_buffer) {
            const bench_scalar *v = &c->scalars[i];
            data_set(s->scalar, a->type, 0, v->d);
            if (v->is_int && !data_is_float(a->type)) {
                /* exact for 64-bit integers too */
                memcpy(s->scalar, &v->i, data_size(a->type) <= 8 ? data_size(a->type) : 8);
            }
            b->argv[i] = s->scalar;
            continue;
        }
        s->count = c->counts[i];
        size_t bytes = (size_t)s->count * data_size(a->type);
        if (bytes > s->capacity) {
            meas_free(b->g, s->dev);
            meas_free(b->g, s->pristine);
            s->dev = s->pristine = 0;
            s->capacity = 0;
            s->pristine_count = 0;
            if (meas_alloc(b->g, bytes, &s->dev, b->err, sizeof b->err) < 0 ||
                (a->has_init && meas_alloc(b->g, bytes, &s->pristine, b->err, sizeof b->err) < 0))
                return -1;
            s->capacity = bytes;
        }
        if (a->has_init && s->pristine_count != s->count) {
            /* Made on the device, bit for bit what data_fill makes on the host (fill.h):
             * nothing of the size of the inputs is ever held on the host. The fill
             * kernel is compiled once per element type per bench. */
            if (!b->fill_ready[a->type]) {
                if (fill_prepare(b->g, a->type, b->arch, &b->fills[a->type], b->err, sizeof b->err) < 0)
                    return -1;
                b->fill_ready[a->type] = true;
            }
            if (fill_run(b->g, &b->fills[a->type], s->pristine, (size_t)s->count, &a->fill, b->err,
                         sizeof b->err) < 0)
                return -1;
            s->pristine_count = s->count;
        }
        /* Inputs as they started; outputs poisoned (0xFF bytes: NaN for floats, -1 for
         * ints), so an element the kernel never writes is caught. */
        if ((a->has_init ? meas_copy(b->g, s->dev, s->pristine, bytes, b->err, sizeof b->err)
                         : meas_fill(b->g, s->dev, 0xFF, bytes, b->err, sizeof b->err)) < 0)
            return -1;
        b->argv[i] = &s->dev;
    }
    return 0;
}

/* Compares the verified outputs with the reference's. true when they agree; else the
 * reason in buf (*failed: the comparison itself failed). */
static bool outputs_agree(bench *b, char *buf, size_t size, double *max_err, int *failed)
{
    *max_err = 0;
    *failed = 0;
    const bench_verify *vf = b->vf;
    for (int k = 0; k < vf->noutputs; k++) {
        slot *s = &b->slots[vf->outputs[k]];
        const char *name = b->args[vf->outputs[k]].name;
        if (s->count != s->ref_count) {
            snprintf(buf, size, "'%s' has %lld elements, the reference %lld", name, (long long)s->count,
                     (long long)s->ref_count);
            return false;
        }
        data_mismatch mm;
        if (cmp_run(b->g, s->cmp, s->dev, s->ref, (size_t)s->count, vf->atol, vf->rtol, &mm, b->err,
                    sizeof b->err) < 0) {
            *failed = 1;
            snprintf(buf, size, "%s", b->err);
            return false;
        }
        bool ok = mm.count == 0;
        if (mm.max_abs_error > *max_err || isnan(mm.max_abs_error))
            *max_err = mm.max_abs_error;
        if (!ok) {
            snprintf(buf, size, "'%s': %zu of %lld elements differ; first at %zu: got %.9g, want %.9g", name,
                     mm.count, (long long)s->count, mm.first, mm.got, mm.want);
            return false;
        }
    }
    return true;
}

/* The outcome of a failed step: status and reason; -1 when the context is lost. */
static int failed(bench *b, bench_result *out, outcome o, const char *reason)
{
    out->status = o;
    snprintf(out->reason, sizeof out->reason, "%s", reason);
    return meas_sticky(b->g) ? -1 : 0;
}

int bench_run(bench *b, const bench_binary *bin, const bench_config *c, const meas_settings *ms,
              bench_result *out)
{
    memset(out, 0, sizeof *out);
    out->status = OUTCOME_OK;
    out->driver_blocks_per_sm = -1;
    double t0 = sys_seconds();
    if (prepare_args(b, c) < 0) {
        return failed(b, out, OUTCOME_NOT_RUN, b->err); /* gpu_seconds stays 0, as it always has */
    }
    meas_launch l;
    for (int d = 0; d < 3; d++) {
        l.grid[d] = bin->grid[d];
        l.block[d] = bin->block[d];
    }
    l.dynamic_smem = bin->dynamic_smem;
    l.args = b->argv;
    meas_kernel k;
    if (meas_load(b->g, bin->cubin, bin->symbol, &l, &k, b->err, sizeof b->err) < 0) {
        return failed(b, out, OUTCOME_LOAD_ERROR, b->err);
    }
    out->registers = k.registers;
    out->driver_blocks_per_sm = k.driver_blocks_per_sm;
    int rc = 0;
    /* The checked run; when timing follows, it is also the first (cold) sample, taken
     * as a repetition is (after an L2 flush when flushing). */
    double cold_ms = 0;
    if ((ms ? meas_run_timed(b->g, &k, &l, ms->flush_l2, &cold_ms, b->err, sizeof b->err)
            : meas_run(b->g, &k, &l, b->err, sizeof b->err)) < 0) {
        rc = failed(b, out, OUTCOME_LAUNCH_ERROR, b->err);
        out->launches = 1;
        goto done;
    }
    out->launches = 1;
    if (b->vf->present && ms) {
        int cmp_failed;
        char buf[512];
        if (!outputs_agree(b, buf, sizeof buf, &out->max_abs_error, &cmp_failed)) {
            rc = failed(b, out, cmp_failed ? OUTCOME_LAUNCH_ERROR : OUTCOME_WRONG, buf);
            goto done;
        }
        out->verified = true;
    }
    if (ms) {
        double timing_started = sys_seconds();
        int timed_rc = meas_time(b->g, &k, &l, ms, cold_ms, &out->times, b->err, sizeof b->err);
        out->timing_seconds = sys_seconds() - timing_started;
        out->launches = out->times.launches; /* the checked run included */
        if (timed_rc < 0) {
            rc = failed(b, out, OUTCOME_LAUNCH_ERROR, b->err);
            goto done;
        }
        out->timed = true;
    }
done:
    meas_unload(b->g, &k);
    out->gpu_seconds = sys_seconds() - t0;
    return rc;
}

int bench_keep_reference(bench *b, bench_keep_failure *fail)
{
    memset(fail, 0, sizeof *fail);
    const bench_verify *vf = b->vf;
    for (int k = 0; k < vf->noutputs; k++) {
        int i = vf->outputs[k];
        slot *s = &b->slots[i];
        data_type type = b->args[i].type;
        size_t bytes = (size_t)s->count * data_size(type);
        s->ref_count = s->count;
        fail->arg = i;
        if (!b->cmp_ready[type]) {
            if (cmp_prepare(b->g, type, b->arch, &b->cmps[type], fail->err, sizeof fail->err) < 0) {
                fail->kind = BENCH_KEEP_COMPARE;
                return -1;
            }
            b->cmp_ready[type] = true;
        }
        s->cmp = &b->cmps[type];
        data_mismatch self;
        if (meas_alloc(b->g, bytes, &s->ref, fail->err, sizeof fail->err) < 0 ||
            meas_copy(b->g, s->ref, s->dev, bytes, fail->err, sizeof fail->err) < 0 ||
            cmp_run(b->g, s->cmp, s->ref, s->ref, (size_t)s->count, 0, 0, &self, fail->err, sizeof fail->err) < 0) {
            fail->kind = BENCH_KEEP_DEVICE;
            return -1;
        }
        if (self.count) {
            /* NaN is never equal to itself: the reference left elements unwritten (still
             * poisoned) or computed NaN, and no variant could pass. */
            fail->kind = BENCH_KEEP_NAN;
            fail->nan = self.count;
            fail->count = s->count;
            fail->first = self.first;
            return -1;
        }
    }
    return 0;
}
