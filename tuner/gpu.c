/* gpu.c - the tuner's GPU worker (tuner.h): the spec's arguments made plain for
 * runtime/bench, the worker's body (set-up, then one request per variant), and the
 * tuner's side of it (start, one variant, replacement after a hang, a crash or a sticky
 * error).
 *
 * Every CUDA call happens in a worker process forked from the tuner (which never
 * initialises CUDA itself, since CUDA does not survive a fork). The worker inherits
 * the model and the argument plan, sets up the device (buffers, the reference's
 * outputs), and then serves one request per variant: the variant's parameter values
 * and geometry, its cubin and symbol, and the best objective so far (for early
 * stopping); it answers with the measurement. A sticky CUDA error (illegal address,
 * trap, misaligned access) makes the worker answer and exit; a crash closes its pipe;
 * a hang outlasts the variant's time limit and the tuner kills it. In each case the
 * tuner records the cause against the variant and starts a fresh worker for the next.
 * The messages are runtime/worker.h's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/sys.h"
#include "../compiler/eval.h"
#include "tuner.h"

enum { DEFAULT_FLUSH_FACTOR = 2 };     /* the flush buffer is twice the L2 */
#define DEFAULT_PRUNE 1.5
#define PROVISIONAL 3                  /* warm samples that place a contender (the final race times it in full) */
#define MIN_SAMPLE_MS 0.05             /* event pairs last at least this (timer resolution ~0.5 us) */
#define MIN_LIMIT_S 10.0               /* the least a derived per-variant time limit can be */
#define SETUP_LIMIT_S 600.0            /* the worker's set-up (the reference) */
#define PROFILE_EXTRA_S 120.0          /* a profiled launch's replays, beyond a variant's limit */

static data_type data_type_of(ast_ctype t)
{
    static const data_type map[] = {
        [CT_HALF] = DT_HALF, [CT_BF16] = DT_BF16, [CT_FLOAT] = DT_FLOAT, [CT_DOUBLE] = DT_DOUBLE,
        [CT_INT8] = DT_INT8, [CT_UINT8] = DT_UINT8, [CT_INT16] = DT_INT16, [CT_UINT16] = DT_UINT16,
        [CT_INT] = DT_INT32, [CT_UINT] = DT_UINT32, [CT_INT64] = DT_INT64, [CT_UINT64] = DT_UINT64,
    };
    return map[t];
}

/* A spec's argument as runtime/bench sees it. */
static bench_arg plain_arg(const m_arg *a)
{
    bench_arg b = {a->name, data_type_of(a->type), a->is_buffer, a->init != INIT_NONE, {FILL_ZEROS, 0, 0, 0},
                   a->is_buffer && a->dir == DIR_OUT, a->file, a->file_npy}; /* issue 16: the last three */
    b.fill = (data_fill_spec){FILL_ZEROS, a->seed, a->lo, a->hi};
    b.fill.kind = a->init == INIT_RANDOM ? FILL_RANDOM : a->init == INIT_RAMP ? FILL_RAMP
                  : a->init == INIT_CONSTANT ? FILL_CONSTANT : a->init == INIT_FILE ? FILL_FILE : FILL_ZEROS;
    if (a->init == INIT_CONSTANT)
        b.fill.a = value_as_double(a->value->u.k);
    return b;
}

void tuner_plain_args(tuner_gpu *g, bench_config *out)
{
    for (int i = 0; i < g->m->nargs; i++) {
        const value *v = &g->scalars[i];
        g->plain[i] = (bench_scalar){v->type == VT_INT, v->type == VT_INT ? v->u.i : 0, 0};
        if (!g->m->args[i].is_buffer)
            g->plain[i].d = value_as_double(*v);
    }
    out->counts = g->counts;
    out->scalars = g->plain;
}

void tuner_values_of(const model *m, const cutune_variant *v, value *out)
{
    for (int i = 0; i < m->nparams; i++) {
        const char *t = v->values[i];
        switch (m->params[i].dom.type) {
        case VT_INT: out[i] = value_int(strtoll(t, NULL, 10)); break;
        case VT_FLOAT: out[i] = value_float(strtod(t, NULL)); break;
        case VT_BOOL: out[i] = value_bool(strcmp(t, "true") == 0); break;
        default: out[i] = value_string(t); break;
        }
    }
}

int tuner_gpu_init(tuner_gpu *g, cutune_spec *spec, const cutune_tune_options *opts, int device,
                   const cutune_device *dev, bool flush, cutune_tune_result *res)
{
    const model *m = spec->model;
    g->spec = spec;
    g->m = m;
    g->device = device;
    g->arch = dev->arch;
    g->res = res;
    g->flush_bytes = flush ? (size_t)dev->l2_bytes * DEFAULT_FLUSH_FACTOR : 0;
    /* A variant's time limit in the worker: the spec's, else generous enough for the
     * arguments' preparation, loading, checking and all its repetitions. */
    g->limit_s = opts->timeout_s > 0 ? opts->timeout_s : m->measure.timeout_s;
    g->energy = opts->energy || m->measure.energy || m->energy_used; /* issue 18 */
    g->hw_names = opts->profile_metrics;
    g->nhw = opts->profile_top ? opts->nprofile_metrics : 0;
    int n = m->nargs;
    g->args = calloc((size_t)n + 1, sizeof(bench_arg));
    g->outputs = calloc((size_t)m->verify.noutputs + 1, sizeof(int));
    g->counts = calloc((size_t)n + 1, sizeof(int64_t));
    g->scalars = calloc((size_t)n + 1, sizeof(value));
    g->plain = calloc((size_t)n + 1, sizeof(bench_scalar));
    g->vals = calloc((size_t)m->nparams + 1, sizeof(value));
    g->hw_values = calloc((size_t)g->nhw + 1, sizeof(double));
    if (!g->hw_values || !g->args || !g->outputs || !g->counts || !g->scalars || !g->plain || !g->vals)
        return CUTUNE_ENOMEM;
    for (int i = 0; i < n; i++)
        g->args[i] = plain_arg(&m->args[i]);
    for (int k = 0; k < m->verify.noutputs; k++) {
        const m_arg *a = &m->args[m->verify.outputs[k]];
        g->outputs[k] = m->verify.outputs[k];
        if (a->count->deps) {
            diag_error(&spec->diags, a->count->loc, "output '%s' is verified, so its size cannot depend on params "
                       "(each variant must be comparable with the reference)", a->name);
            return CUTUNE_ESPEC;
        }
    }
    _Static_assert(CHECK_ELEMENTWISE == 0 && CHECK_L2 == CHK_L2 + 1 && CHECK_ULP == CHK_ULP + 1 &&
                       CHECK_KERNEL == CHK_USER + 1,
                   "bench_verify.check is the model's check_kind: 0, or a chk_mode + 1");
    g->vf = (bench_verify){m->verify.present, g->outputs, m->verify.noutputs, m->verify.atol, m->verify.rtol,
                           m->verify.check, m->verify.check_tol, NULL, NULL}; /* issue 16: check_kind + 0 = bench's */
    g->goal = (tuner_goal){m, g->vals, opts->prune == 0 ? DEFAULT_PRUNE : opts->prune, false, 0, false, 0, 0};
    if (m->objective_energy) /* issue 18: the race prunes by time; an energy objective needs every variant in full */
        g->goal.prune = -1;
    g->ms.warmup = (int)m->measure.warmup;
    g->ms.min_reps = (int)m->measure.repeat;
    g->ms.max_reps = (int)m->measure.max_repeat;
    g->ms.spread = m->measure.spread;
    g->ms.flush_l2 = flush;
    g->ms.min_sample_ms = MIN_SAMPLE_MS;
    g->ms.worse = tuner_worse;
    g->ms.worse_ctx = &g->goal;
    g->ms.prune = g->goal.prune > 0 ? g->goal.prune : 0;
    g->ms.contend = g->goal.prune > 0 ? TUNER_CONTEND : 0; /* --prune -1: every variant timed in full */
    /* A contender stops after PROVISIONAL warm samples; the run's end times in full those
     * still near the best (tuner/run.c's final race). */
    g->ms.provisional = g->goal.prune > 0 ? PROVISIONAL : 0;
    g->run_started = sys_seconds();
    g->first_sent = false;
    g->proc.pid = 0;
    return CUTUNE_OK;
}

void tuner_gpu_free(tuner_gpu *g)
{
    wk_stop(&g->proc, false);
    tuner_hooks_free(g);
    free(g->args);
    free(g->outputs);
    free(g->counts);
    free(g->scalars);
    free(g->plain);
    free(g->vals);
    free(g->hw_values);
}

/* ---- in the worker ------------------------------------------------------------------ */

/* The worker's set-up: driver, device, buffers, the reference. 0, or -1 with msg. */
static int worker_setup(tuner_gpu *g, strbuf *msg)
{
    char err[512];
    if (bench_open(&g->b, g->device, g->flush_bytes, g->arch, g->args, g->m->nargs, &g->vf, err, sizeof err) < 0) {
        sb_add(msg, err);
        return CUTUNE_ENODEV; /* the device would not serve: not the spec's fault */
    }
    /* issue 18: energy asked for; when NVML cannot give it, each variant says why */
    if (g->energy && bench_set_energy(g->b, g->m->measure.energy_window_s, err, sizeof err) < 0 &&
        g->m->objective_energy) { /* without it the objective cannot be evaluated: say so now */
        sb_printf(msg, "the objective reads the energy, which cannot be measured here: %s", err);
        return CUTUNE_ENODEV;
    }
    if (g->nhw > 0) /* issue 18: the counters a profile request reads */
        bench_set_profile(g->b, g->hw_names, g->nhw);
    int before = g->spec->diags.len;
    int hooks = tuner_hooks_prepare(g, err, sizeof err); /* issue 16: resets and a checker kernel */
    if (hooks != CUTUNE_OK) {
        const char *text = spec_render(g->spec, before, false);
        sb_add(msg, text && *text ? text : err);
        return hooks == CUTUNE_ENOMEM || hooks == CUTUNE_EEVAL || hooks == CUTUNE_ENODEV ? hooks : CUTUNE_ESPEC;
    }
    if (!g->m->verify.present)
        return CUTUNE_OK;
    int rc = tuner_reference(g);
    if (rc < 0) {
        const char *text = spec_render(g->spec, before, false);
        sb_add(msg, text && *text ? text : "the reference failed");
        return rc == CUTUNE_ENOMEM || rc == CUTUNE_EEVAL ? rc : CUTUNE_ESPEC; /* the spec's reference */
    }
    return CUTUNE_OK;
}

/* One request: the configuration's arguments planned, the binary run, the objective and
 * metrics at its median. Returns whether the context is lost. */
static bool serve(tuner_gpu *g, const wk_request *q, wk_reply *r, double *metrics, bench_result *br)
{
    cutune_variant v;
    memset(&v, 0, sizeof v);
    v.nparams = q->nvalues;
    v.values = q->values;
    tuner_values_of(g->m, &v, g->vals);
    g->goal.have_best = q->have_best;
    g->goal.best = q->best_objective;
    memset(r, 0, sizeof *r);
    r->reason = "";
    r->energy_error = "";
    r->profile_error = "";
    r->nmetrics = 0;
    r->metrics = metrics;
    eval_error e;
    if (plan_args(g->m, g->vals, g->counts, g->scalars, &e) < 0) {
        r->status = OUTCOME_NOT_RUN;
        snprintf(br->reason, sizeof br->reason, "%s", e.message);
        r->reason = br->reason; /* driver_blocks_per_sm stays 0: nothing was loaded */
        return false;
    }
    bench_config c;
    tuner_plain_args(g, &c);
    bench_binary bin = {q->cubin, q->symbol, {0}, {0}, (unsigned)q->smem_bytes};
    for (int d = 0; d < 3; d++) {
        bin.grid[d] = (unsigned)q->grid[d];
        bin.block[d] = (unsigned)q->block[d];
    }
    if (q->profile) { /* issue 18: its counters, in a profiled launch of its own */
        r->status = OUTCOME_OK;
        r->nhw = g->nhw;
        r->hw = g->hw_values;
        int prc = bench_profile(g->b, &bin, &c, g->hw_values, &r->passes, br->reason, sizeof br->reason);
        bool lost = prc < 0;
        r->profiler_off = prc == 1;
        r->profile_error = br->reason;
        r->sticky = lost;
        return lost;
    }
    meas_settings ms = g->ms; /* the final race: full statistics, no early stop */
    if (q->final) {
        ms.prune = ms.contend = 0;
        ms.provisional = 0;
    }
    bool sticky = bench_run(g->b, &bin, &c, &ms, br) < 0;
    r->status = br->status;
    r->sticky = sticky;
    r->reason = br->reason;
    r->registers = br->registers;
    r->driver_blocks_per_sm = br->driver_blocks_per_sm;
    r->verified = br->verified;
    r->max_abs_error = br->max_abs_error;
    r->gpu_seconds = br->gpu_seconds;
    r->timing_seconds = br->timing_seconds;
    r->launches = br->launches;
    r->energy = br->energy; /* issue 18 */
    r->energy_j = br->nrg.joules_per_launch;
    r->power_w = br->nrg.watts;
    r->energy_seconds = br->nrg.seconds;
    r->energy_launches = br->nrg.launches;
    r->energy_error = br->energy_error;
    if (br->timed) {
        const meas_times *tm = &br->times;
        r->timed = true;
        r->median_ms = tm->median_ms;
        r->min_ms = tm->min_ms;
        r->max_ms = tm->max_ms;
        r->q1_ms = tm->q1_ms;
        r->q3_ms = tm->q3_ms;
        r->spread = tm->spread;
        r->reps = tm->reps;
        r->batch = tm->batch;
        r->pruned = tm->pruned;
        r->provisional = tm->provisional;
        g->goal.has_energy = br->energy; /* issue 18: what energy_J and power_W read */
        g->goal.energy_j = br->nrg.joules_per_launch;
        g->goal.power_w = br->nrg.watts;
        tuner_metrics(&g->goal, tm->median_ms, metrics);
        r->nmetrics = g->m->nmetrics;
        if (tuner_objective(&g->goal, tm->median_ms, &r->objective) < 0)
            r->objective = NAN;
    }
    return sticky;
}

/* The worker's body (wk_body): never returns but by exiting. */
static int worker_main(void *ctx, int in, int out)
{
    tuner_gpu *g = ctx;
    wk_frame f = WK_FRAME_INIT;
    strbuf msg = STRBUF_INIT;
    double ref_seconds = g->res->summary.gpu_seconds;
    int status = worker_setup(g, &msg);
    bool ok = status == CUTUNE_OK;
    /* summary.reference is set by tuner_reference, here in the worker */
    const char *ref = g->res->summary.reference ? g->res->summary.reference : "";
    wk_setup s = {ok, g->res->summary.gpu_seconds - ref_seconds, sb_cstr(&msg), ref, status};
    wk_encode_setup(&f, &s);
    if (wk_send(out, &f) < 0 || !ok)
        _exit(ok ? 2 : 1);
    arena *a = arena_new();
    double *metrics = calloc((size_t)g->m->nmetrics + 1, sizeof(double));
    if (!a || !metrics)
        _exit(4);
    for (;;) {
        if (wk_recv(in, &f, 0) < 0)
            _exit(0); /* the tuner has gone: so do we */
        arena_reset(a);
        wk_request q;
        if (wk_decode_request(&f, a, &q) < 0 || q.nvalues != g->m->nparams)
            _exit(4);
        wk_reply r;
        bench_result br;
        bool sticky = serve(g, &q, &r, metrics, &br);
        wk_frame_reset(&f);
        wk_encode_reply(&f, &r);
        if (wk_send(out, &f) < 0 || sticky)
            _exit(sticky ? 3 : 0); /* a context with a sticky error is of no more use */
    }
}

/* ---- in the tuner ---------------------------------------------------------------------- */

int tuner_gpu_spawn(tuner_gpu *g)
{
    return wk_start(&g->proc, worker_main, g, g->err, sizeof g->err) < 0 ? CUTUNE_ENOMEM : CUTUNE_OK;
}

int tuner_gpu_ready(tuner_gpu *g)
{
    wk_frame f = WK_FRAME_INIT;
    int rc = wk_recv(g->proc.from, &f, sys_seconds() + SETUP_LIMIT_S);
    arena *a = arena_new();
    wk_setup s = {false, 0, NULL, NULL, 0};
    bool decoded = rc == 0 && a && wk_decode_setup(&f, a, &s) == 0;
    bool ok = decoded && s.ok;
    if (ok) { /* what the outputs are checked against, for the results' settings */
        g->res->summary.reference = s.reference && *s.reference ? arena_strdup(g->res->arena, s.reference) : NULL;
        g->res->summary.gpu_seconds += s.ref_seconds;
        /* No limit given: derive one from the reference, which did everything a variant
         * does once (arguments, load, a run): room for every repetition many times over. */
        if (g->limit_s <= 0) {
            const m_measure *ms = &g->m->measure;
            double ref = s.ref_seconds;
            double derived = 20.0 * (ref > 0 ? ref : 0.01) * (double)(ms->warmup + ms->max_repeat + 4);
            g->limit_s = derived > MIN_LIMIT_S ? derived : MIN_LIMIT_S;
        }
    } else {
        snprintf(g->err, sizeof g->err, "the GPU worker (GPU %d) could not start: %s", g->device,
                 decoded && s.message && *s.message ? s.message : rc == -2 ? "no answer in 600 s" : "it died");
    }
    arena_free(a);
    wk_frame_free(&f);
    if (!ok) {
        wk_stop(&g->proc, true);
        /* The worker's own status when it said one; a worker that died or never answered
         * says nothing of the spec: the GPU could not be used. */
        return decoded && s.status < 0 ? s.status : CUTUNE_ENODEV;
    }
    return CUTUNE_OK;
}

int tuner_gpu_start(tuner_gpu *g)
{
    int rc = tuner_gpu_spawn(g);
    return rc < 0 ? rc : tuner_gpu_ready(g);
}

/* The measurement in a reply, into rec. */
static void record_reply(tuner_gpu *g, const wk_reply *r, record *rec)
{
    cutune_measurement *m = &rec->m;
    result_set_outcome(g->res, rec, r->status, r->reason && *r->reason ? r->reason : NULL);
    m->registers = r->registers;
    m->driver_blocks_per_sm = r->driver_blocks_per_sm;
    m->timed = r->timed;
    m->median_ms = r->median_ms;
    m->min_ms = r->min_ms;
    m->max_ms = r->max_ms;
    m->q1_ms = r->q1_ms;
    m->q3_ms = r->q3_ms;
    m->spread = r->spread;
    m->reps = r->reps;
    m->batch = r->batch;
    m->pruned = r->pruned;
    m->objective = r->objective;
    for (int i = 0; i < r->nmetrics; i++) /* none unless timed: then they stay NaN */
        rec->metrics[i] = r->metrics[i];
    m->verified = r->verified;
    m->max_abs_error = r->max_abs_error;
    m->gpu_seconds = r->gpu_seconds;
    m->timing_seconds = r->timing_seconds;
    m->launches = r->launches;
    m->provisional = r->provisional;
    m->energy = r->energy; /* issue 18 */
    m->energy_j = r->energy ? r->energy_j : NAN;
    m->power_w = r->energy ? r->power_w : NAN;
    m->energy_seconds = r->energy_seconds;
    m->energy_launches = r->energy_launches;
    result_set_energy_note(g->res, rec, r->energy_error && *r->energy_error ? r->energy_error : NULL);
}

/* The worker is gone (killed or dead) while running a variant: rec says why. */
static void lost(tuner_gpu *g, bool hang, record *rec)
{
    char how[160], reason[256];
    wk_describe(wk_stop(&g->proc, true), how, sizeof how);
    if (hang)
        snprintf(reason, sizeof reason, "no answer within %.0f s (a hang?): the worker was killed and a new one "
                 "started for the next variant", g->limit_s);
    else
        snprintf(reason, sizeof reason, "the worker process died running it (%s); a new one is started", how);
    result_set_outcome(g->res, rec, hang ? OUTCOME_TIMEOUT : OUTCOME_CRASHED, reason);
    rec->m.gpu_seconds = sys_seconds() - g->sent_at;
}

int tuner_gpu_send(tuner_gpu *g, const session_binary *bin, const cutune_variant *v, bool have_best, double best,
                   bool final, record *rec)
{
    int rc;
    if (!g->proc.pid && (rc = tuner_gpu_start(g)) < 0)
        return rc;
    wk_request q = {v->ordinal, {v->block[0], v->block[1], v->block[2]}, {v->grid[0], v->grid[1], v->grid[2]},
                    v->smem_bytes, v->nparams, v->values, bin->symbol, bin->cubin, bin->cubin_size, have_best,
                    best, final, false};
    wk_frame f = WK_FRAME_INIT;
    wk_encode_request(&f, &q);
    g->sent_at = sys_seconds();
    if (!g->first_sent) { /* the first variant reaches the GPU now */
        g->first_sent = true;
        if (g->res->summary.first_variant_seconds == 0 || /* the first of the run's GPUs to start */
            g->sent_at - g->run_started < g->res->summary.first_variant_seconds)
            g->res->summary.first_variant_seconds = g->sent_at - g->run_started;
    }
    if (rec->m.started_seconds == 0)
        rec->m.started_seconds = g->sent_at - g->run_started;
    rec->m.device = g->device;
    g->send_failed = wk_send(g->proc.to, &f) < 0; /* a worker that died idle: lost at the receive */
    wk_frame_free(&f);
    return CUTUNE_OK;
}

double tuner_gpu_deadline(const tuner_gpu *g)
{
    return g->sent_at + g->limit_s;
}

void tuner_gpu_receive(tuner_gpu *g, record *rec)
{
    wk_frame f = WK_FRAME_INIT;
    int rc = g->send_failed ? -1 : wk_recv(g->proc.from, &f, tuner_gpu_deadline(g));
    arena *a = rc == 0 ? arena_new() : NULL;
    wk_reply r;
    if (rc == 0 && (!a || wk_decode_reply(&f, a, &r) < 0 || r.nmetrics != (r.timed ? g->m->nmetrics : 0)))
        rc = -1; /* a reply that does not decode: the worker is not to be trusted */
    wk_frame_free(&f);
    if (rc < 0) {
        arena_free(a);
        lost(g, rc == -2, rec);
        return;
    }
    record_reply(g, &r, rec);
    arena_free(a);
    if (r.sticky) { /* the worker has exited: its context is lost */
        wk_stop(&g->proc, false);
        char more[600];
        snprintf(more, sizeof more, "%s (the GPU context was lost: a new worker is started for the next variant)",
                 rec->m.reason ? rec->m.reason : "a sticky CUDA error");
        result_set_outcome(g->res, rec, rec->out, more);
    }
}

int tuner_gpu_run(tuner_gpu *g, const session_binary *bin, const cutune_variant *v, bool have_best, double best, bool final,
                  record *rec)
{
    int rc = tuner_gpu_send(g, bin, v, have_best, best, final, rec);
    if (rc < 0)
        return rc;
    tuner_gpu_receive(g, rec);
    return CUTUNE_OK;
}

int tuner_gpu_profile(tuner_gpu *g, const session_binary *bin, const cutune_variant *v, double *values, int *passes,
                      bool *off, char *why, size_t whysize)
{
    int rc;
    *passes = 0;
    *off = false;
    for (int i = 0; i < g->nhw; i++)
        values[i] = NAN;
    if (!g->proc.pid && (rc = tuner_gpu_start(g)) < 0)
        return rc;
    wk_request q = {v->ordinal, {v->block[0], v->block[1], v->block[2]}, {v->grid[0], v->grid[1], v->grid[2]},
                    v->smem_bytes, v->nparams, v->values, bin->symbol, bin->cubin, bin->cubin_size, false, 0, false,
                    true};
    wk_frame f = WK_FRAME_INIT;
    wk_encode_request(&f, &q);
    /* every pass is a launch with device memory saved and restored around it */
    rc = wk_exchange(&g->proc, &f, g->limit_s + PROFILE_EXTRA_S);
    arena *a = rc == 0 ? arena_new() : NULL;
    wk_reply r;
    if (rc == 0 && (!a || wk_decode_reply(&f, a, &r) < 0 || r.nhw != g->nhw))
        rc = -1;
    wk_frame_free(&f);
    if (rc < 0) {
        char how[160];
        wk_describe(wk_stop(&g->proc, true), how, sizeof how);
        if (rc == -2)
            snprintf(why, whysize, "no answer within %.0f s: the worker was killed", g->limit_s + PROFILE_EXTRA_S);
        else
            snprintf(why, whysize, "the worker process died profiling it (%s)", how);
        arena_free(a);
        return CUTUNE_OK;
    }
    for (int i = 0; i < g->nhw; i++)
        values[i] = r.hw[i];
    *passes = r.passes;
    *off = r.profiler_off;
    snprintf(why, whysize, "%s", r.profile_error ? r.profile_error : "");
    if (r.sticky)
        wk_stop(&g->proc, false);
    arena_free(a);
    return CUTUNE_OK;
}
