/* bench.c - one binary on one device (bench.h): the device, the checked run, the comparison
 * with the reference, the timing; a configuration's arguments are bench_args.c's. */
#include "bench_internal.h"
#include "../base/err.h"
#include "../base/trace.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmem.h"

/* The message of the failure just met (base/err): what a bench_result's reason or a
 * refusal quotes. */
static const char *last_why(void)
{
    const err_info *e = err_last();
    return e ? e->message : "unknown error";
}

int bench_open(bench **out, int ordinal, size_t flush_bytes, const char *arch, const bench_arg *args, int nargs,
               const bench_verify *vf)
{
    *out = NULL;
    bench *b = calloc(1, sizeof *b);
    if (b) {
        b->slots = calloc((size_t)nargs + 1, sizeof(slot));
        b->argv = calloc((size_t)nargs + 1, sizeof(void *));
    }
    if (!b || !b->slots || !b->argv) {
        err_set(-1, "out of memory");
        bench_close(b);
        return -1;
    }
    b->arch = arch;
    b->args = args;
    b->nargs = nargs;
    b->vf = vf;
    for (int i = 0; i < nargs; i++)
        pristine_init(&b->slots[i].in);
    trace_begin("driver open");
    int opened = drv_open(&b->d);
    trace_end("driver open");
    if (opened == 0) {
        trace_begin("context");
        opened = meas_open(&b->g, b->d, ordinal, flush_bytes);
        trace_end("context");
    }
    if (opened < 0) {
        bench_close(b);
        return -1;
    }
    *out = b;
    return 0;
}

int bench_device_info(bench *b, drv_device *out)
{
    return drv_device_info(b->d, meas_ordinal(b->g), out);
}

void bench_set_cache(bench *b, const char *dir)
{
    b->cache_dir = dir;
}

double bench_compile_seconds(const bench *b)
{
    return meas_compile_seconds(b->g);
}

void bench_close(bench *b)
{
    if (!b)
        return;
    nvml_close(b->power);
    prof_close(b->prof);
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
    for (int k = 0; b->g && k <= DT_UINT64; k++)
        if (b->chk_ready[k])
            chk_release(b->g, &b->chks[k]);
    if (b->g)
        hook_free(b->hooks, b->g);
    free(b->hook_bufs);
    meas_close(b->g);
    if (b->d)
        drv_close(b->d);
    free(b->slots);
    free(b->argv);
    free(b);
}

/* Where lane `index` of an output is, for a message: "17", or for a vector type
 * "17 (element 4 .y)". */
static void where(const bench_arg *a, size_t index, char *buf, size_t size)
{
    if (a->lanes > 1)
        snprintf(buf, size, "%zu (element %zu .%c)", index, index / (size_t)a->lanes, "xyzw"[index % (size_t)a->lanes]);
    else
        snprintf(buf, size, "%zu", index);
}

/* the k-th verified output checked by vf->check against the reference's: 0
 * when accepted, 1 when not (the reason in buf), -1 when the check failed (last_why() in
 * buf). *max_err takes the score when it is larger. */
static int other_check(bench *b, int k, char *buf, size_t size, double *max_err)
{
    const bench_verify *vf = b->vf;
    int i = vf->outputs[k];
    slot *s = &b->slots[i];
    const char *name = b->args[i].name;
    chk_kernel *c = &b->chks[b->args[i].type];
    chk_result r;
    if (chk_run(b->g, c, s->dev, s->ref, (size_t)s->count, vf->check_tol, &r) < 0) {
        snprintf(buf, size, "%s", last_why());
        return -1;
    }
    if (r.score > *max_err || isnan(r.score))
        *max_err = r.score;
    if (c->mode == CHK_L2 && !(r.score <= vf->check_tol)) {
        if (r.nan)
            snprintf(buf, size, "'%s': %zu of %lld elements are NaN (here or in the reference)", name, r.nan,
                     (long long)s->count);
        else
            snprintf(buf, size, "'%s': relative L2 error %.3g is above %.3g", name, r.score, vf->check_tol);
        return 1;
    }
    if (c->mode == CHK_ULP && r.count) {
        char at[64];
        where(&b->args[i], r.first, at, sizeof at);
        snprintf(buf, size,
                 "'%s': %zu of %lld %s are more than %.0f ULP apart; first at %s: got %.9g, want "
                 "%.9g",
                 name, r.count, (long long)s->count, b->args[i].lanes > 1 ? "lanes" : "elements", vf->check_tol, at,
                 r.got, r.want);
        return 1;
    }
    if (c->mode == CHK_USER && !(r.score <= vf->check_tol)) {
        snprintf(buf, size, "'%s': the checker kernel '%s' scored %.6g (accepted: at most %.6g)", name,
                 vf->check_symbol, r.score, vf->check_tol);
        return 1;
    }
    return 0;
}

/* Compares the verified outputs with the reference's. true when they agree; else the
 * reason in buf (*failed: the comparison itself failed). */
static bool outputs_agree(bench *b, char *buf, size_t size, double *max_err, int *failed, bool stable_only)
{
    *max_err = 0;
    *failed = 0;
    const bench_verify *vf = b->vf;
    for (int k = 0; k < vf->noutputs; k++) {
        /* after the last launch, only outputs whose contents before a launch
         * must not matter and could hide it: those a reset restores, and integer `out`
         * buffers (a float one that a kernel adds into is NaN, its poison, after the
         * first launch already: the reference's NaN check or the comparison sees it). */
        const bench_arg *oa = &b->args[vf->outputs[k]];
        if (stable_only && !(oa->out_only && !data_is_float(oa->type)) && !hook_resets(b->hooks, vf->outputs[k]))
            continue;
        slot *s = &b->slots[vf->outputs[k]];
        const char *name = b->args[vf->outputs[k]].name;
        if (s->count != s->ref_count) {
            snprintf(buf, size, "'%s' has %lld elements, the reference %lld", name, (long long)s->count,
                     (long long)s->ref_count);
            return false;
        }
        if (vf->check) { /* l2, ulp or the user's checker */
            int r = other_check(b, k, buf, size, max_err);
            if (r < 0)
                *failed = 1;
            if (r != 0)
                return false;
            continue;
        }
        data_mismatch mm;
        if (cmp_run(b->g, s->cmp, s->dev, s->ref, (size_t)s->count, vf->atol, vf->rtol, &mm) < 0) {
            *failed = 1;
            snprintf(buf, size, "%s", last_why());
            return false;
        }
        bool ok = mm.count == 0;
        if (mm.max_abs_error > *max_err || isnan(mm.max_abs_error))
            *max_err = mm.max_abs_error;
        if (!ok) {
            char at[64];
            where(&b->args[vf->outputs[k]], mm.first, at, sizeof at);
            snprintf(buf, size, "'%s': %zu of %lld %s differ; first at %s: got %.9g, want %.9g", name, mm.count,
                     (long long)s->count, b->args[vf->outputs[k]].lanes > 1 ? "lanes" : "elements", at, mm.got,
                     mm.want);
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

/* the resets, enqueued before a launch (meas_settings.before's signature). */
static int run_hooks(void *ctx)
{
    bench *b = ctx;
    return hook_run(b->hooks, b->g, b->hook_bufs, b->argv);
}

int bench_set_hooks(bench *b, const hook_spec *specs, int n)
{
    if (n <= 0)
        return 0;
    b->hook_bufs = calloc((size_t)b->nargs + 1, sizeof(hook_buffer));
    if (!b->hook_bufs) {
        err_set(-1, "out of memory");
        return -1;
    }
    return hook_prepare(&b->hooks, b->g, specs, n);
}

int bench_set_energy(bench *b, double window_s)
{
    char bus[32];
    b->energy_window_s = window_s;
    if (meas_pci_bus_id(b->g, bus, (int)sizeof bus) < 0 || nvml_open(&b->power, bus) < 0) {
        snprintf(b->energy_off, sizeof b->energy_off, "energy not measured: %s", last_why());
        return -1;
    }
    return 0;
}

/* Fills the loaded module's __constant__ symbols from the constant arguments' initial
 * contents (pristine). 0; -1 when a driver call failed; -2 when the module lacks a
 * symbol or has too small a one (err_last says which, both sizes named). */
static int fill_constants(bench *b, const meas_kernel *k)
{
    for (int i = 0; i < b->nargs; i++) {
        const bench_arg *a = &b->args[i];
        const slot *s = &b->slots[i];
        size_t bytes;
        if (!a->is_constant)
            continue;
        if (!data_bytes(a->type, (size_t)s->count, &bytes)) { /* bench_prepare_args checked it */
            err_set(-1, "constant argument '%s' is too large", a->name);
            return -2;
        }
        int rc = cmem_fill(b->g, k->module, a->name, s->pristine, bytes);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* The binary's launch, with the bench's argument pointers. */
static meas_launch launch_of(const bench *b, const bench_binary *bin)
{
    meas_launch l;
    for (int d = 0; d < 3; d++) {
        l.grid[d] = bin->grid[d];
        l.block[d] = bin->block[d];
    }
    l.dynamic_smem = bin->dynamic_smem;
    l.args = b->argv;
    return l;
}

/* After verified outputs that disagree: when an `in` buffer this variant kept had
 * changed (bench_inputs_changed), every input restored and every output poisoned again
 * (bench_prepare_args, nothing kept), the resets run and the checked run made again (timed
 * as the race's cold sample into *cold_ms when cold_ms is not NULL), and its outputs
 * compared in full: *agree, buf, *max_err and *cmp_failed are then that second
 * comparison's, the verdict that stands. 0: nothing had changed (the first verdict
 * stands: a variant that is simply wrong costs only the comparison of its inputs); 1:
 * checked again; -1: a step failed (err_last). Each step's time into out->work. */
static int check_again(bench *b, const bench_config *c, meas_kernel *k, meas_launch *l, const meas_settings *ms,
                       double *cold_ms, bench_result *out, double *mark, char *buf, size_t size, double *max_err,
                       bool *agree, int *cmp_failed)
{
    double *w = out->work, poison = 0;
    int changed = bench_inputs_changed(b, out);
    w[BENCH_WORK_COMPARE] += bench_lap(mark);
    if (changed <= 0)
        return changed;
    if (bench_prepare_args(b, c, NULL, &poison, false) < 0)
        return -1;
    w[BENCH_WORK_POISON] += poison;
    w[BENCH_WORK_ARGS] += bench_lap(mark) - poison;
    if (run_hooks(b) < 0 || (b->hooks && meas_sync(b->g) < 0))
        return -1;
    w[BENCH_WORK_RESET] += bench_lap(mark);
    int ran = cold_ms ? meas_run_timed(b->g, k, l, ms->flush_l2, cold_ms) : meas_run(b->g, k, l);
    w[BENCH_WORK_CHECK] += bench_lap(mark);
    if (ran < 0)
        return -1;
    *agree = outputs_agree(b, buf, size, max_err, cmp_failed, false);
    w[BENCH_WORK_COMPARE] += bench_lap(mark);
    return 1;
}

/* bench_run's race after the checked run (its cold sample cold_ms) of configuration c:
 * the timing, the outputs checked again after the last launch, the energy window; each
 * step's time into out->work from *mark (bench_lap). 0, or failed()'s answer. */
static int time_variant(bench *b, const bench_config *c, meas_kernel *k, meas_launch *l, const meas_settings *ms,
                        double cold_ms, bench_result *out, double *mark)
{
    double *w = out->work;
    double timing_started = sys_seconds();
    if (b->hooks) /* the resets before every launch of the race, never timed */
        meas_set_before(b->g, run_hooks, b);
    int timed_rc = meas_time(b->g, k, l, ms, cold_ms, &out->times);
    meas_set_before(b->g, NULL, NULL);
    out->timing_seconds = sys_seconds() - timing_started;
    if (timed_rc == 0 && trace_on() &&
        out->times.reps > 0) { /* what the cold sample adds: meas_cold_allowance's ground */
        char d[160];
        snprintf(d, sizeof d, "cold %.4f ms, fastest warm %.4f ms (%d samples of %d launches)", cold_ms,
                 out->times.min_ms, out->times.reps, out->times.batch);
        trace_instant("cold and warm", d);
    }
    double warm = out->times.warmup_seconds < out->timing_seconds ? out->times.warmup_seconds : out->timing_seconds;
    w[BENCH_WORK_WARMUP] += warm > 0 ? warm : 0;
    double race = bench_lap(mark) - (warm > 0 ? warm : 0);
    w[BENCH_WORK_SAMPLES] += race > 0 ? race : 0;
    out->launches = out->times.launches; /* the checked run included */
    if (timed_rc < 0) {
        return failed(b, out, OUTCOME_LAUNCH_ERROR, last_why());
    }
    out->timed = true;
    /* launched again, an output that must not depend on what it held before
     * a launch is checked once more after the last one (outputs that accumulate
     * across launches without a reset are wrong). */
    if (b->vf->present && out->verified && out->launches > 1) {
        int cmp_failed;
        char buf[512], note[600];
        double again = 0;
        bool agree = outputs_agree(b, buf, sizeof buf, &again, &cmp_failed, true);
        w[BENCH_WORK_COMPARE] += bench_lap(mark);
        /* an `in` buffer it kept may have changed: then the verdict is that of a checked
         * run made again on restored inputs; the times stand, taken on the inputs as its
         * own launches left them (as when every input is restored before a variant) */
        int checked_again = 0;
        if (!agree && !cmp_failed &&
            (checked_again =
                 check_again(b, c, k, l, ms, NULL, out, mark, buf, sizeof buf, &again, &agree, &cmp_failed)) < 0) {
            out->timed = false;
            out->verified = false;
            return failed(b, out, OUTCOME_LAUNCH_ERROR, last_why());
        }
        out->launches += checked_again;
        if (!agree) {
            if (checked_again) /* the second verdict: a checked run's, on restored inputs */
                snprintf(note, sizeof note, "%s", buf);
            else
                snprintf(note, sizeof note, "after its last launch (of %d) %s%s", out->launches, buf,
                         cmp_failed ? ""
                                    : "; the output depends on what it held before the launch: reset it "
                                      "before each launch (reset NAME = zeros;) or make it inout");
            out->timed = false;
            out->verified = false;
            return failed(b, out, cmp_failed ? OUTCOME_LAUNCH_ERROR : OUTCOME_WRONG, note);
        }
        if (again > out->max_abs_error || isnan(again))
            out->max_abs_error = again;
    }
    /* a variant timed in full, its energy per launch over a window */
    if (b->energy_off[0] && !out->times.pruned && !out->times.provisional)
        snprintf(out->energy_error, sizeof out->energy_error, "%s", b->energy_off);
    if (b->power && !out->times.pruned && !out->times.provisional) {
        (void)bench_lap(mark);
        if (energy_window(b->g, k, l, b->power, b->energy_window_s, out->times.median_ms, b->hooks ? run_hooks : NULL,
                          b, &out->nrg) == 0)
            out->energy = true;
        else
            snprintf(out->energy_error, sizeof out->energy_error, "%s", last_why());
        w[BENCH_WORK_ENERGY] += bench_lap(mark);
    }
    return 0;
}

int bench_run(bench *b, const bench_binary *bin, const bench_config *c, const meas_settings *ms, bench_result *out)
{
    memset(out, 0, sizeof *out);
    out->status = OUTCOME_OK;
    out->driver_blocks_per_sm = -1;
    double t0 = sys_seconds(), mark = t0, flushed = meas_flushed_seconds(b->g);
    double *w = out->work; /* where the time goes, step by step (bench_lap) */
    bool verifying = b->vf->present && ms;
    trace_begin("args");
    int prepared = bench_prepare_args(b, c, &out->inputs_seconds, &w[BENCH_WORK_POISON], verifying);
    trace_end("args");
    w[BENCH_WORK_ARGS] = bench_lap(&mark) - w[BENCH_WORK_POISON];
    if (prepared < 0) {
        memset(out->work, 0, sizeof out->work); /* as gpu_seconds: 0, as it always has been */
        return failed(b, out, OUTCOME_NOT_RUN, last_why());
    }
    meas_launch l = launch_of(b, bin);
    meas_kernel k;
    trace_begin("load");
    if (meas_load(b->g, bin->cubin, bin->symbol, &l, &k) < 0) {
        trace_end("load");
        memset(out->work, 0, sizeof out->work);
        return failed(b, out, OUTCOME_LOAD_ERROR, last_why());
    }
    out->registers = k.registers;
    out->driver_blocks_per_sm = k.driver_blocks_per_sm;
    int rc = 0;
    int filled = fill_constants(b, &k); /* once per load: no kernel writes __constant__ memory */
    trace_end("load");
    w[BENCH_WORK_LOAD] += bench_lap(&mark);
    if (filled < 0) {
        rc = failed(b, out, filled == -2 ? OUTCOME_LOAD_ERROR : OUTCOME_LAUNCH_ERROR, last_why());
        goto done;
    }
    /* The checked run; when timing follows, it is also the first (cold) sample, taken
     * as a repetition is (after an L2 flush when flushing). The resets before it are
     * waited for when there are any, so their time is theirs. */
    double cold_ms = 0;
    if (run_hooks(b) < 0 || (b->hooks && meas_sync(b->g) < 0)) {
        rc = failed(b, out, OUTCOME_LAUNCH_ERROR, last_why());
        goto done;
    }
    w[BENCH_WORK_RESET] += bench_lap(&mark);
    trace_begin("checked run");
    int checked = ms ? meas_run_timed(b->g, &k, &l, ms->flush_l2, &cold_ms) : meas_run(b->g, &k, &l);
    trace_end("checked run");
    w[BENCH_WORK_CHECK] += bench_lap(&mark);
    if (checked < 0) {
        rc = failed(b, out, OUTCOME_LAUNCH_ERROR, last_why());
        out->launches = 1;
        goto done;
    }
    out->launches = 1;
    int checked_again = 0;
    if (verifying) {
        int cmp_failed;
        char buf[512];
        trace_begin("compare");
        bool agree = outputs_agree(b, buf, sizeof buf, &out->max_abs_error, &cmp_failed, false);
        trace_end("compare");
        w[BENCH_WORK_COMPARE] += bench_lap(&mark);
        /* an `in` buffer it kept may have changed: then the checked run is made again on
         * restored inputs, its verdict stands, and it is the cold sample the timing takes
         * (whose launches then start from restored inputs, as when every input is
         * restored before a variant) */
        if (!agree && !cmp_failed &&
            (checked_again = check_again(b, c, &k, &l, ms, &cold_ms, out, &mark, buf, sizeof buf, &out->max_abs_error,
                                         &agree, &cmp_failed)) < 0) {
            rc = failed(b, out, OUTCOME_LAUNCH_ERROR, last_why());
            goto done;
        }
        out->launches += checked_again;
        if (!agree) {
            rc = failed(b, out, cmp_failed ? OUTCOME_LAUNCH_ERROR : OUTCOME_WRONG, buf);
            goto done;
        }
        out->verified = true;
    }
    if (ms) {
        trace_begin("timing");
        rc = time_variant(b, c, &k, &l, ms, cold_ms, out, &mark);
        trace_end("timing");
        out->launches += checked_again; /* the timing counts the launches from the last checked run */
    }
done:
    (void)bench_lap(&mark);
    meas_unload(b->g, &k);
    w[BENCH_WORK_LOAD] += bench_lap(&mark);
    w[BENCH_WORK_FLUSH] = meas_flushed_seconds(b->g) - flushed;
    out->gpu_seconds = mark - t0;
    double steps = 0;
    for (int i = 0; i < BENCH_WORK_OTHER; i++)
        steps += w[i];
    w[BENCH_WORK_OTHER] = out->gpu_seconds > steps ? out->gpu_seconds - steps : 0;
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
        size_t bytes = 0;
        (void)data_bytes(type, (size_t)s->count, &bytes); /* checked by bench_prepare_args before the run */
        s->ref_count = s->count;
        fail->arg = i;
        if (!(s->cmp = bench_cmp_for(b, type))) {
            fail->kind = BENCH_KEEP_COMPARE;
            return -1;
        }
        if (vf->check && !b->chk_ready[type]) { /* l2, ulp or the user's checker */
            int rc = vf->check - 1 == CHK_USER
                         ? chk_load_user(b->g, vf->check_cubin, vf->check_symbol, type, &b->chks[type])
                         : chk_prepare(b->g, (chk_mode)(vf->check - 1), type, b->arch, b->cache_dir, &b->chks[type]);
            if (rc < 0) {
                fail->kind = BENCH_KEEP_COMPARE;
                return -1;
            }
            b->chk_ready[type] = true;
        }
        data_mismatch self;
        if (meas_alloc(b->g, bytes, &s->ref) < 0 || meas_copy(b->g, s->ref, s->dev, bytes) < 0 ||
            cmp_run(b->g, s->cmp, s->ref, s->ref, (size_t)s->count, 0, 0, &self) < 0) {
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

void bench_set_profile(bench *b, const char *const *names, int n)
{
    b->prof_names = names;
    b->nprof = n;
}

/* bench_profile's launch: the kernel once, waited for. */
typedef struct one_launch {
    bench *b;
    meas_kernel *k;
    meas_launch *l;
} one_launch;

static int launch_once(void *user)
{
    one_launch *o = user;
    return meas_run(o->b->g, o->k, o->l);
}

int bench_profile(bench *b, const bench_binary *bin, const bench_config *c, double *values, int *passes, char *why,
                  size_t whysize)
{
    *passes = 0;
    why[0] = '\0';
    for (int i = 0; i < b->nprof; i++)
        values[i] = NAN;
    if (!b->prof && !b->prof_off[0] &&
        prof_open(&b->prof, meas_context(b->g), meas_ordinal(b->g), b->prof_names, b->nprof) < 0)
        snprintf(b->prof_off, sizeof b->prof_off, "%s",
                 err_last() ? err_last()->message : "CUPTI's profiler could not start");
    if (!b->prof) {
        snprintf(why, whysize, "%s", b->prof_off);
        return 1;
    }
    /* every input restored: no verification follows to notice one a variant changed */
    if (bench_prepare_args(b, c, NULL, NULL, false) < 0) {
        snprintf(why, whysize, "its arguments: %s", last_why());
        return meas_sticky(b->g) ? -1 : 0;
    }
    meas_launch l = launch_of(b, bin);
    meas_kernel k;
    if (meas_load(b->g, bin->cubin, bin->symbol, &l, &k) < 0) {
        snprintf(why, whysize, "loading it: %s", last_why());
        return meas_sticky(b->g) ? -1 : 0;
    }
    int rc = 0;
    bool launch_failed = false;
    one_launch o = {b, &k, &l};
    /* the resets and the L2 flush first, waited for: only the variant runs in the range */
    if (fill_constants(b, &k) < 0) {
        snprintf(why, whysize, "its constant arguments: %s", last_why());
    } else if (run_hooks(b) < 0 || meas_flush(b->g) < 0) {
        snprintf(why, whysize, "before its profiled launch: %s", last_why());
    } else if (prof_measure(b->prof, launch_once, &o, values, &launch_failed) < 0) {
        snprintf(why, whysize, "%s%s", launch_failed ? "its profiled launch: " : "", last_why());
    } else {
        *passes = prof_passes(b->prof);
    }
    if (meas_sticky(b->g))
        rc = -1;
    meas_unload(b->g, &k);
    return rc;
}
