/* gpu.c - the tuner's side of a GPU worker (gpu.h): the spec's arguments made plain
 * for runtime/bench (the plan the worker inherits, gw.h), the worker started, one
 * variant sent and its reply received, and the worker replaced after a hang, a crash or
 * a sticky error.
 *
 * Process: all of this runs in the tuner, which never initialises CUDA (it does not
 * survive a fork). The worker forked here runs gw_main (tuner/gw_main.c) on its copy of
 * the plan: it sets up the device and the reference, then answers one request per
 * variant (its parameter values and geometry, cubin and symbol, the best objective so
 * far for early stopping) with the measurement. A sticky CUDA error (illegal address,
 * trap, misaligned access) makes the worker answer and exit; a crash closes its pipe; a
 * hang outlasts the variant's time limit and the tuner kills it. In each case the tuner
 * records the cause against the variant and starts a fresh worker for the next. The
 * messages are runtime/worker.h's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/err.h"
#include "../base/sys.h"
#include "../base/trace.h"
#include "../compiler/eval.h"
#include "../runtime/cache.h"
#include "../runtime/devices.h"
#include "gpu.h"
#include "reply.h"

enum { DEFAULT_FLUSH_FACTOR = 2 }; /* the flush buffer is twice the L2 */
#define DEFAULT_PRUNE 1.5
#define PROVISIONAL 3         /* warm samples that place a contender (the final race times it in full) */
#define MIN_SAMPLE_MS 0.05    /* event pairs last at least this (timer resolution ~0.5 us) */
#define MIN_LIMIT_S 10.0      /* the least a derived per-variant time limit can be */
#define SETUP_LIMIT_S 600.0   /* the worker's set-up (the reference) */
#define PROFILE_EXTRA_S 120.0 /* a profiled launch's replays, beyond a variant's limit */

static data_type data_type_of(ast_ctype t)
{
    static const data_type map[] = {
        [CT_HALF] = DT_HALF, [CT_BF16] = DT_BF16,   [CT_FLOAT] = DT_FLOAT, [CT_DOUBLE] = DT_DOUBLE,
        [CT_INT8] = DT_INT8, [CT_UINT8] = DT_UINT8, [CT_INT16] = DT_INT16, [CT_UINT16] = DT_UINT16,
        [CT_INT] = DT_INT32, [CT_UINT] = DT_UINT32, [CT_INT64] = DT_INT64, [CT_UINT64] = DT_UINT64,
    };
    return map[ast_ctype_component(t)]; /* a vector is its lanes to runtime/ (bench_arg.lanes) */
}

/* A spec's argument as runtime/bench sees it. */
static bench_arg plain_arg(const m_arg *a)
{
    bench_arg b = {a->name,
                   data_type_of(a->type),
                   a->is_buffer,
                   a->init != INIT_NONE,
                   {FILL_ZEROS, 0, 0, 0},
                   a->is_buffer && a->dir == DIR_OUT,
                   a->file,
                   a->file_npy,
                   a->dir == DIR_CONSTANT,
                   ast_ctype_lanes(a->type),
                   a->is_buffer && a->dir == DIR_IN}; /* the last six */
    b.fill = (data_fill_spec){FILL_ZEROS, a->seed, a->lo, a->hi};
    b.fill.kind = a->init == INIT_RANDOM     ? FILL_RANDOM
                  : a->init == INIT_RAMP     ? FILL_RAMP
                  : a->init == INIT_CONSTANT ? FILL_CONSTANT
                  : a->init == INIT_FILE     ? FILL_FILE
                  : a->init == INIT_NORMAL   ? FILL_NORMAL
                                             : FILL_ZEROS;
    if (a->init == INIT_CONSTANT)
        b.fill.a = value_as_double(a->value->u.k);
    return b;
}

int gpu_init(gpu_handle *g, cutune_spec *spec, const cutune_tune_options *opts, int device, const cutune_device *dev,
             bool flush, cutune_tune_result *res)
{
    const model *m = spec->model;
    gw_plan *p = &g->plan;
    p->spec = spec;
    p->m = m;
    p->device = device;
    p->arch = dev->arch;
    p->expect_ok = devices_raw(device, &p->expect);
    p->memo = devices_memo_path();
    p->token[0] = p->token[1] = -1; /* spawn_gpus hands several workers the start token */
    p->res = res;
    p->flush_bytes = flush ? (size_t)dev->l2_bytes * DEFAULT_FLUSH_FACTOR : 0;
    /* A variant's time limit in the worker: the spec's, else generous enough for the
     * arguments' preparation, loading, checking and all its repetitions. */
    g->limit_s = opts->timeout_s > 0 ? opts->timeout_s : m->measure.timeout_s;
    p->energy = opts->energy || m->measure.energy || m->energy_used;
    p->hw_names = opts->profile_metrics;
    p->nhw = opts->profile_top ? opts->nprofile_metrics : 0;
    int n = m->nargs;
    p->args = calloc((size_t)n + 1, sizeof(bench_arg));
    p->outputs = calloc((size_t)m->verify.noutputs + 1, sizeof(int));
    if (!p->args || !p->outputs)
        return CUTUNE_ENOMEM;
    for (int i = 0; i < n; i++)
        p->args[i] = plain_arg(&m->args[i]);
    for (int k = 0; k < m->verify.noutputs; k++) {
        const m_arg *a = &m->args[m->verify.outputs[k]];
        p->outputs[k] = m->verify.outputs[k];
        if (a->count->deps) {
            diag_error(&spec->diags, a->count->loc,
                       "output '%s' is verified, so its size cannot depend on params "
                       "(each variant must be comparable with the reference)",
                       a->name);
            return CUTUNE_ESPEC;
        }
    }
    _Static_assert(CHECK_ELEMENTWISE == 0 && CHECK_L2 == CHK_L2 + 1 && CHECK_ULP == CHK_ULP + 1 &&
                       CHECK_KERNEL == CHK_USER + 1,
                   "bench_verify.check is the model's check_kind: 0, or a chk_mode + 1");
    p->vf = (bench_verify){m->verify.present,   p->outputs,     m->verify.noutputs,
                           m->verify.atol,      m->verify.rtol, m->verify.check,
                           m->verify.check_tol, NULL,           NULL}; /* check_kind + 0 = bench's */
    p->goal = (goal_state){m, NULL, opts->prune == 0 ? DEFAULT_PRUNE : opts->prune, false, 0, false, 0, 0, 0};
    if (m->objective_energy) /* the race prunes by time; an energy objective needs every variant in full */
        p->goal.prune = -1;
    p->ms.warmup = (int)m->measure.warmup;
    p->ms.min_reps = (int)m->measure.repeat;
    p->ms.max_reps = (int)m->measure.max_repeat;
    p->ms.spread = m->measure.spread;
    p->ms.flush_l2 = flush;
    p->ms.min_sample_ms = MIN_SAMPLE_MS;
    p->ms.prune = p->goal.prune > 0 ? p->goal.prune : 0;
    p->ms.contend = p->goal.prune > 0 ? GOAL_CONTEND : 0; /* --prune -1: every variant timed in full */
    /* A contender stops after PROVISIONAL warm samples; the run's end times in full those
     * still near the best (tuner/run.c's final race). */
    p->ms.provisional = p->goal.prune > 0 ? PROVISIONAL : 0;
    /* The worker's set-up kernels (the reference, the spec's resets and checker, cutune's
     * own fills, comparisons and checkers) are compiled through the run's cache: a warm
     * run's workers start without NVRTC, each of them (NULL: no cache; a folder that
     * cannot be opened is then the worker's to skip). */
    p->cache_dir = opts->no_cache ? NULL : opts->cache_dir ? strdup(opts->cache_dir) : cache_default_dir();
    g->run_started = sys_seconds();
    g->first_sent = false;
    g->proc.pid = 0;
    return CUTUNE_OK;
}

void gpu_free(gpu_handle *g)
{
    wk_stop(&g->proc, false);
    free(g->plan.args);
    free(g->plan.outputs);
    free(g->plan.cache_dir);
    g->plan.cache_dir = NULL;
}

int gpu_spawn(gpu_handle *g)
{
    if (g->plan.res->clock) /* the time up to now is not the set-up's (gpu_ready splits it) */
        phases_tick(g->plan.res->clock);
    if (wk_start(&g->proc, gw_main, &g->plan) < 0)
        return err_recode(CUTUNE_ENOMEM);
    trace_event('i', 0, NULL, "GPU %d worker spawned (pid %ld)", g->plan.device, (long)g->proc.pid);
    if (trace_on()) { /* the track of the variants sent to it (gpu_send) */
        char name[64];
        snprintf(name, sizeof name, "GPU %d: variants sent and answered", g->plan.device);
        trace_name_track(TRACE_TRACK + g->plan.device, name);
    }
    g->setup_deadline = sys_seconds() + SETUP_LIMIT_S;
    return CUTUNE_OK;
}

/* The wait for a worker's set-up (s: its answer) into the run's phases: each step the
 * worker timed (driver and context, compiles, inputs, the reference) to its phase, never
 * more than the wait; the rest (the process, the pipe) to the phase the run is in. The
 * wait may begin when the set-up is well under way (the run compiled meanwhile:
 * tuner_ready), so what it covers is the set-up's end: its steps are counted from the
 * last one back. */
static void setup_phases(gpu_handle *g, const wk_setup *s)
{
    static const int into[] = {CUTUNE_PHASE_REFERENCE, CUTUNE_PHASE_INPUTS, CUTUNE_PHASE_COMPILE, CUTUNE_PHASE_DEVICE};
    double parts[] = {s->reference_s, s->inputs_s, s->compile_s, s->device_s};
    if (g->plan.res->clock)
        phases_split(g->plan.res->clock, parts, into, 4);
}

int gpu_ready(gpu_handle *g, bool waited)
{
    wk_frame f = WK_FRAME_INIT;
    int rc = wk_recv(g->proc.from, &f, g->setup_deadline);
    arena *a = arena_new();
    wk_setup s = {false, 0, NULL, NULL, 0, 0, 0, 0, 0};
    bool decoded = rc == 0 && a && wk_decode_setup(&f, a, &s) == 0;
    bool ok = decoded && s.ok;
    if (!decoded) /* a worker that said nothing: its time is the phase's the run is in */
        s = (wk_setup){false, 0, NULL, NULL, 0, 0, 0, 0, 0};
    if (waited)
        setup_phases(g, &s);
    if (ok) { /* what the outputs are checked against, for the results' settings */
        g->plan.res->summary.reference =
            s.reference && *s.reference ? arena_strdup(g->plan.res->arena, s.reference) : NULL;
        g->plan.res->summary.gpu_seconds += s.ref_seconds;
        g->plan.res->summary.work_seconds[CUTUNE_WORK_REFERENCE] += s.ref_seconds;
        /* No limit given: derive one from the reference, which did everything a variant
         * does once (arguments, load, a run): room for every repetition many times over. */
        if (g->limit_s <= 0) {
            const m_measure *ms = &g->plan.m->measure;
            double ref = s.ref_seconds;
            double derived = 20.0 * (ref > 0 ? ref : 0.01) * (double)(ms->warmup + ms->max_repeat + 4);
            g->limit_s = derived > MIN_LIMIT_S ? derived : MIN_LIMIT_S;
        }
    } else {
        /* The worker's own status when it said one; a worker that died or never answered
         * says nothing of the spec: the GPU could not be used. */
        err_set(decoded && s.status < 0 ? s.status : CUTUNE_ENODEV, "the GPU worker (GPU %d) could not start: %s",
                g->plan.device,
                decoded && s.message && *s.message ? s.message
                : rc == -2                         ? "no answer in 600 s"
                                                   : "it died");
    }
    arena_free(a);
    wk_frame_free(&f);
    if (!ok) {
        wk_stop(&g->proc, true);
        return err_last()->code;
    }
    return CUTUNE_OK;
}

int gpu_start(gpu_handle *g)
{
    int rc = gpu_spawn(g);
    return rc < 0 ? rc : gpu_ready(g, true);
}

/* The worker is gone (killed or dead) while running a variant: rec says why. */
static void lost(gpu_handle *g, bool hang, record *rec)
{
    char how[160], reason[256];
    wk_describe(wk_stop(&g->proc, true), how, sizeof how);
    if (hang)
        snprintf(reason, sizeof reason,
                 "no answer within %.0f s (a hang?): the worker was killed and a new one "
                 "started for the next variant",
                 g->limit_s);
    else
        snprintf(reason, sizeof reason, "the worker process died running it (%s); a new one is started", how);
    result_set_outcome(g->plan.res, rec, hang ? OUTCOME_TIMEOUT : OUTCOME_CRASHED, reason);
    rec->m.gpu_seconds = sys_seconds() - g->sent_at;
    g->plan.res->summary.work_seconds[CUTUNE_WORK_OTHER] += rec->m.gpu_seconds; /* no step of it is known */
}

void gpu_plain_values(const value *vals, int n, wk_value *out)
{
    for (int i = 0; i < n; i++) {
        const value *x = &vals[i];
        out[i] = (wk_value){vtype_name(x->type)[0],
                            x->type == VT_INT    ? x->u.i
                            : x->type == VT_BOOL ? x->u.b
                                                 : 0,
                            x->type == VT_FLOAT ? x->u.f : 0, x->type == VT_STRING ? x->u.s : NULL};
    }
}

/* Request `q` for record src's variant (binary bin) encoded into f: its configuration
 * typed (src->vals made plain as wk_values, never its text). The caller sets the
 * request's flags in q first. CUTUNE_OK, or CUTUNE_ENOMEM with the thread's error set. */
static int encode_request(gpu_handle *g, wk_frame *f, wk_request *q, const record *src, const session_binary *bin)
{
    (void)g;
    const cutune_variant *v = &src->v;
    wk_value *plain = malloc(sizeof *plain * (size_t)(v->nparams + 1));
    if (!plain)
        return err_set(CUTUNE_ENOMEM, "out of memory");
    gpu_plain_values(src->vals, v->nparams, plain);
    q->ordinal = v->ordinal;
    for (int d = 0; d < 3; d++) {
        q->block[d] = v->block[d];
        q->grid[d] = v->grid[d];
    }
    q->smem_bytes = v->smem_bytes;
    q->nvalues = v->nparams;
    q->values = plain;
    q->symbol = bin->symbol;
    q->cubin = bin->cubin;
    q->cubin_size = bin->cubin_size;
    wk_encode_request(f, q);
    q->values = NULL;
    free(plain);
    return CUTUNE_OK;
}

int gpu_send(gpu_handle *g, const session_binary *bin, const record *src, bool have_best, double best, bool final,
             const gpu_screen *screen, record *rec)
{
    int rc;
    if (!g->proc.pid && (rc = gpu_start(g)) < 0)
        return rc;
    wk_request q = {.have_best = have_best, .best_objective = best, .final = final};
    if (final && screen) {
        q.samples = screen->samples;
        q.best_range = screen->best_range;
    }
    wk_frame f = WK_FRAME_INIT;
    if ((rc = encode_request(g, &f, &q, src, bin)) < 0)
        return rc;
    g->sent_at = sys_seconds();
    if (!g->first_sent) { /* the first variant reaches the GPU now */
        g->first_sent = true;
        if (g->plan.res->summary.first_variant_seconds == 0 || /* the first of the run's GPUs to start */
            g->sent_at - g->run_started < g->plan.res->summary.first_variant_seconds)
            g->plan.res->summary.first_variant_seconds = g->sent_at - g->run_started;
    }
    if (rec->m.started_seconds == 0)
        rec->m.started_seconds = g->sent_at - g->run_started;
    rec->m.device = g->plan.device;
    if (g->plan.res->clock) /* a GPU busy until gpu_receive */
        phases_busy(g->plan.res->clock, 1);
    /* each GPU a track of the tuner's: a variant from its sending to its answer */
    trace_event('B', TRACE_TRACK + g->plan.device, final ? "final race" : NULL, "variant %llu",
                (unsigned long long)src->v.ordinal);
    g->send_failed = wk_send(g->proc.to, &f) < 0; /* a worker that died idle: lost at the receive */
    wk_frame_free(&f);
    return CUTUNE_OK;
}

double gpu_deadline(const gpu_handle *g)
{
    return g->sent_at + g->limit_s;
}

void gpu_receive(gpu_handle *g, record *rec)
{
    wk_frame f = WK_FRAME_INIT;
    int rc = g->send_failed ? -1 : wk_recv(g->proc.from, &f, gpu_deadline(g));
    trace_event('E', TRACE_TRACK + g->plan.device, rc == 0 ? NULL : "no answer", "variant %llu",
                (unsigned long long)rec->v.ordinal);
    if (g->plan.res->clock) /* answered, dead or out of time: no longer busy */
        phases_busy(g->plan.res->clock, -1);
    arena *a = rc == 0 ? arena_new() : NULL;
    reply r;
    if (rc == 0 && (!a || reply_decode(&f, a, &r) < 0 || r.m.nmetrics != (r.m.timed ? g->plan.m->nmetrics : 0)))
        rc = -1; /* a reply that does not decode: the worker is not to be trusted */
    wk_frame_free(&f);
    if (rc < 0) {
        arena_free(a);
        lost(g, rc == -2, rec);
        return;
    }
    result_take_measured(g->plan.res, rec, r.status, &r.m);    /* the measurement, as the worker sent it */
    for (int k = CUTUNE_WORK_ARGS; k < CUTUNE_WORK_COUNT; k++) /* where its time went */
        if (isfinite(r.work[k]) && r.work[k] > 0)
            g->plan.res->summary.work_seconds[k] += r.work[k];
    arena_free(a);
    if (r.sticky) { /* the worker has exited: its context is lost */
        wk_stop(&g->proc, false);
        char more[600];
        snprintf(more, sizeof more, "%s (the GPU context was lost: a new worker is started for the next variant)",
                 rec->m.reason ? rec->m.reason : "a sticky CUDA error");
        result_set_outcome(g->plan.res, rec, rec->out, more);
    }
}

int gpu_run(gpu_handle *g, const session_binary *bin, const record *src, bool have_best, double best, bool final,
            const gpu_screen *screen, record *rec)
{
    int rc = gpu_send(g, bin, src, have_best, best, final, screen, rec);
    if (rc < 0)
        return rc;
    gpu_receive(g, rec);
    return CUTUNE_OK;
}

int gpu_profile(gpu_handle *g, const session_binary *bin, const record *src, double *values, int *passes, bool *off,
                char *why, size_t whysize)
{
    int rc;
    *passes = 0;
    *off = false;
    for (int i = 0; i < g->plan.nhw; i++)
        values[i] = NAN;
    if (!g->proc.pid && (rc = gpu_start(g)) < 0)
        return rc;
    wk_request q = {.profile = true};
    wk_frame f = WK_FRAME_INIT;
    if ((rc = encode_request(g, &f, &q, src, bin)) < 0)
        return rc;
    /* every pass is a launch with device memory saved and restored around it */
    rc = wk_exchange(&g->proc, &f, g->limit_s + PROFILE_EXTRA_S);
    arena *a = rc == 0 ? arena_new() : NULL;
    reply r;
    if (rc == 0 && (!a || reply_decode(&f, a, &r) < 0 || r.m.nhw != g->plan.nhw))
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
    for (int i = 0; i < g->plan.nhw; i++)
        values[i] = r.m.hw[i];
    *passes = r.m.profile_passes;
    *off = r.profiler_off;
    snprintf(why, whysize, "%s", r.m.profile_note ? r.m.profile_note : "");
    if (r.sticky)
        wk_stop(&g->proc, false);
    arena_free(a);
    return CUTUNE_OK;
}
