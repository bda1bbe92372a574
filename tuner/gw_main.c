/* gw_main.c - the GPU worker's set-up and serve loop (gw.h).
 *
 * Process: everything in this file runs in the GPU worker, a child forked by the tuner
 * (tuner/gpu.c) with gw_main as its body; the tuner never calls it. The worker opens
 * the device through runtime/bench, prepares the resets and checker (gw_hooks.c), runs
 * the reference (gw_reference.c), answers with wk_setup, then serves one wk_request
 * per variant: the configuration's arguments planned, the binary run, checked and timed,
 * the objective and metrics evaluated at its median (tuner/goal.c), the answer a
 * reply (tuner/reply.h: the measurement itself). A sticky CUDA error ends the worker after its reply; EOF on the pipe ends
 * it cleanly. */
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/err.h"
#include "../base/sys.h"
#include "../base/trace.h"
#include "../compiler/plan.h"
#include "../runtime/devmemo.h"
#include "../runtime/worker.h"
#include "gw.h"
#include "reply.h"

int gw_visible_device(const char *visible, int device, char *out, size_t size)
{
    if (device < 0)
        return -1;
    if (!visible) { /* every GPU visible: the ordinal names it */
        int n = snprintf(out, size, "%d", device);
        return n > 0 && (size_t)n < size ? 0 : -1;
    }
    const char *at = visible;
    for (int k = 0; k < device; k++) { /* the device-th entry of the list */
        at = strchr(at, ',');
        if (!at)
            return -1;
        at++;
    }
    size_t len = strcspn(at, ",");
    if (len == 0 || len >= size)
        return -1;
    memcpy(out, at, len);
    out[len] = '\0';
    return 0;
}

enum { TOKEN_WAIT_S = 5 }; /* the longest a worker waits for the driver's start token */

/* The worker's GPU made the only one its driver sees (CUDA_VISIBLE_DEVICES, before the
 * driver starts): set up in every worker at once, the driver would otherwise start every
 * GPU of the host in each. The ordinal to open: 0, or `device` when it cannot be done.
 * The worker has one thread here (forked, the driver not yet loaded): setenv is safe. */
static int own_gpu_only(int device)
{
    char one[256];
    if (gw_visible_device(getenv("CUDA_VISIBLE_DEVICES"), device, one, sizeof one) < 0)
        return device;
    return setenv("CUDA_VISIBLE_DEVICES", one, 1) == 0 ? 0 : device; /* NOLINT(concurrency-mt-unsafe) */
}

/* Takes the driver's start token (gw_plan.token) from the pipe `fd`: true once this
 * worker holds it; false without a token (fd -1), when every other holder is gone (end of
 * file), or after TOKEN_WAIT_S (a worker that died holding it): the driver then starts
 * without it, only slower. */
static bool token_take(int fd)
{
    if (fd < 0)
        return false;
    struct pollfd pf = {fd, POLLIN, 0};
    char c;
    trace_begin("wait for the driver token");
    bool taken = poll(&pf, 1, TOKEN_WAIT_S * 1000) == 1 && read(fd, &c, 1) == 1;
    trace_end("wait for the driver token");
    return taken;
}

/* Passes the token on when this worker held it, and closes its ends of the pipe. */
static void token_give(const int token[2], bool held)
{
    if (token[0] < 0)
        return;
    if (held && write(token[1], "t", 1) != 1) {
        /* the pipe is gone: the others find its end of file and start without it */
    }
    if (held)
        trace_instant("driver token given", NULL);
    close(token[0]);
    close(token[1]);
}

/* Whether the worker's own device is unlike what the run knows of it (gw_plan.expect:
 * the device query's answer, perhaps an earlier process's memo), with msg saying how and
 * the memo removed so that the next run asks the driver. A device whose attributes
 * cannot be read here is left to the steps that need them. */
static bool unlike_expected(bench *b, const gw_plan *p, strbuf *msg)
{
    drv_device now;
    if (!p->expect_ok || bench_device_info(b, &now) < 0 || devmemo_same_device(&now, &p->expect))
        return false;
    sb_printf(msg, "GPU %d is a %s (sm_%d, %d SMs), where the run took it for a %s (sm_%d, %d SMs)", p->device,
              now.name, now.cc, now.sm_count, p->expect.name, p->expect.cc, p->expect.sm_count);
    if (p->memo && unlink(p->memo) == 0)
        sb_printf(msg, ": the device memo %s was out of date and is removed; run again", p->memo);
    return true;
}

/* Starts compiling the set-up's kernels into the run's cache (p->cache_dir; none: nothing
 * to do) on threads while the driver starts: cutune's own (bench_helper_jobs), the
 * spec's reset and checker kernels (gw_hooks_jobs) and the reference (gw_reference_job).
 * The steps that need them later read them from the cache; several workers of a run
 * compile each once (runtime/cached.h's lock). What cannot be made here is left to
 * those steps, which compile it and say why it failed. Called once the environment
 * is settled (own_gpu_only): the threads read it. */
static void ahead_start(gw *g)
{
    const gw_plan *p = g->p;
    const model *m = p->m;
    if (!p->cache_dir || !(g->ahead_arena = arena_new()))
        return;
    int room = BENCH_MAX_HELPERS + m->nresets + 2;
    g->ahead_jobs = arena_alloc(g->ahead_arena, sizeof(compile_job) * (size_t)room);
    g->ahead_sources = calloc((size_t)room, sizeof(char *));
    if (!g->ahead_jobs || !g->ahead_sources || bench_helper_jobs(&g->helpers, p->arch, p->args, m->nargs, &g->vf) < 0)
        return;
    for (int i = 0; i < g->helpers.n; i++)
        g->ahead_jobs[g->nahead++] = g->helpers.jobs[i];
    gw_hooks_jobs(g, g->ahead_arena, g->ahead_jobs, g->ahead_sources, &g->nahead);
    if (m->verify.present) {
        char *source = NULL;
        if (gw_reference_job(g, g->ahead_arena, &g->ahead_jobs[g->nahead], &source) == CUTUNE_OK)
            g->ahead_sources[g->nahead++] = source;
        else
            free(source); /* gw_reference says why */
    }
    (void)cache_ahead_start(&g->ahead, p->cache_dir, g->ahead_jobs, g->nahead);
}

/* Waits for ahead_start's compiles and frees what they used. */
static void ahead_wait(gw *g)
{
    trace_begin("wait for own kernels' compiles");
    (void)cache_ahead_wait(g->ahead);
    trace_end("wait for own kernels' compiles");
    g->ahead = NULL;
    for (int i = 0; g->ahead_sources && i < g->nahead; i++)
        free(g->ahead_sources[i]); /* the helpers' own are the helpers' */
    free(g->ahead_sources);
    g->ahead_sources = NULL;
    bench_helpers_free(&g->helpers);
    arena_free(g->ahead_arena);
    g->ahead_arena = NULL;
    g->nahead = 0;
}

/* The worker's set-up: its scratch, the driver, device, buffers, the resets and
 * checker, the reference; where its time went into acc's device_s, compile_s, inputs_s
 * and reference_s. CUTUNE_OK, or a status with msg. */
static int worker_setup(gw *g, strbuf *msg, wk_setup *acc)
{
    const gw_plan *p = g->p;
    const model *m = p->m;
    g->goal = p->goal;
    g->ms = p->ms;
    g->vf = p->vf;
    g->counts = calloc((size_t)m->nargs + 1, sizeof(int64_t));
    g->scalars = calloc((size_t)m->nargs + 1, sizeof(value));
    g->plain = calloc((size_t)m->nargs + 1, sizeof(bench_scalar));
    g->vals = calloc((size_t)m->nparams + 1, sizeof(value));
    g->hw_values = calloc((size_t)p->nhw + 1, sizeof(double));
    if (!g->counts || !g->scalars || !g->plain || !g->vals || !g->hw_values) {
        sb_add(msg, "out of memory");
        return CUTUNE_ENOMEM;
    }
    g->goal.vals = g->vals; /* the goal judges the configuration in hand */
    g->ms.worse = goal_worse;
    g->ms.worse_ctx = &g->goal;
    double t = sys_seconds();
    int ordinal = own_gpu_only(p->device);
    /* A set-up that fails from here on returns with these compiles in flight: the worker
     * then exits (gw_main), and they with it. */
    ahead_start(g);
    bool token = token_take(p->token[0]);
    int opened = bench_open(&g->b, ordinal, p->flush_bytes, p->arch, p->args, m->nargs, &g->vf);
    token_give(p->token, token);       /* the next worker's driver starts while this one's reference runs */
    acc->device_s = sys_seconds() - t; /* the driver's time, also when it would not serve */
    if (opened < 0) {
        sb_add(msg, err_last()->message);
        return CUTUNE_ENODEV; /* the device would not serve: not the spec's fault */
    }
    bench_set_cache(g->b, p->cache_dir);
    if (unlike_expected(g->b, p, msg))
        return CUTUNE_ENODEV;
    /* energy asked for; when NVML cannot give it, each variant says why */
    if (p->energy && bench_set_energy(g->b, m->measure.energy_window_s) < 0 &&
        m->objective_energy) { /* without it the objective cannot be evaluated: say so now */
        sb_printf(msg, "the objective reads the energy, which cannot be measured here: %s", err_last()->message);
        return CUTUNE_ENODEV;
    }
    if (p->nhw > 0) /* the counters a profile request reads */
        bench_set_profile(g->b, p->hw_names, p->nhw);
    acc->device_s = sys_seconds() - t;
    int before = p->spec->diags.len;
    err_clear(); /* a failure that says nothing more than its status must not quote an older one */
    t = sys_seconds();
    ahead_wait(g); /* what the driver's start did not cover: compiling, on the critical path */
    trace_begin("resets and checker");
    int hooks = gw_hooks_prepare(g); /* resets and a checker kernel */
    trace_end("resets and checker");
    acc->compile_s = sys_seconds() - t;
    if (hooks != CUTUNE_OK) {
        const char *text = spec_render(p->spec, before, false);
        sb_add(msg, text && *text ? text : err_last() ? err_last()->message : "");
        return hooks == CUTUNE_ENOMEM || hooks == CUTUNE_EEVAL || hooks == CUTUNE_ENODEV ? hooks : CUTUNE_ESPEC;
    }
    if (!m->verify.present)
        return CUTUNE_OK;
    t = sys_seconds();
    double helpers = bench_compile_seconds(g->b); /* cutune's own kernels it compiles (fills, comparisons) */
    trace_begin("reference");
    int rc = gw_reference(g);
    trace_end("reference");
    helpers = bench_compile_seconds(g->b) - helpers;
    acc->compile_s += g->ref_compile_s + helpers;
    acc->inputs_s = g->ref_inputs_s;
    acc->reference_s = sys_seconds() - t - g->ref_compile_s - helpers - g->ref_inputs_s;
    if (rc < 0) {
        const char *text = spec_render(p->spec, before, false);
        sb_add(msg, text && *text ? text : "the reference failed");
        return rc == CUTUNE_ENOMEM || rc == CUTUNE_EEVAL ? rc : CUTUNE_ESPEC; /* the spec's reference */
    }
    return CUTUNE_OK;
}

int gw_request_values(const model *m, const wk_request *q, value *out)
{
    if (q->nvalues != m->nparams)
        return -1;
    for (int i = 0; i < m->nparams; i++) {
        const wk_value *x = &q->values[i];
        if (x->type != vtype_name(m->params[i].dom.type)[0])
            return -1;
        switch (x->type) {
        case 'i': out[i] = value_int(x->i); break;
        case 'f': out[i] = value_float(x->f); break;
        case 'b': out[i] = value_bool(x->i != 0); break;
        default: out[i] = value_string(x->s); break;
        }
    }
    return 0;
}

/* runtime/bench's steps as the results count them (cutune_work). */
static const int work_kind[BENCH_WORK_COUNT] = {
    [BENCH_WORK_ARGS] = CUTUNE_WORK_ARGS,     [BENCH_WORK_POISON] = CUTUNE_WORK_POISON,
    [BENCH_WORK_LOAD] = CUTUNE_WORK_LOAD,     [BENCH_WORK_RESET] = CUTUNE_WORK_RESET,
    [BENCH_WORK_CHECK] = CUTUNE_WORK_CHECK,   [BENCH_WORK_COMPARE] = CUTUNE_WORK_COMPARE,
    [BENCH_WORK_WARMUP] = CUTUNE_WORK_WARMUP, [BENCH_WORK_SAMPLES] = CUTUNE_WORK_SAMPLES,
    [BENCH_WORK_ENERGY] = CUTUNE_WORK_ENERGY, [BENCH_WORK_OTHER] = CUTUNE_WORK_OTHER,
    [BENCH_WORK_FLUSH] = CUTUNE_WORK_FLUSH,
};

/* One request (its configuration in g->vals: gw_request_values): the configuration's
 * arguments planned, the binary run, the objective and metrics at its median. Returns
 * whether the context is lost. */
static bool serve(gw *g, const wk_request *q, reply *r, double *metrics, bench_result *br)
{
    g->goal.have_best = q->have_best;
    g->goal.best = q->best_objective;
    g->goal.best_range = 0;
    memset(r, 0, sizeof *r);
    cutune_measurement *m = &r->m; /* the measurement, as the list's WORKER fields */
    m->reason = "";
    m->energy_note = "";
    m->profile_note = "";
    m->inputs_note = "";
    m->energy_j = m->power_w = NAN; /* not measured */
    m->nmetrics = 0;
    m->metrics = metrics;
    eval_error e;
    if (plan_args(g->p->m, g->vals, g->counts, g->scalars, &e) < 0) {
        r->status = OUTCOME_NOT_RUN;
        snprintf(br->reason, sizeof br->reason, "%s", e.message);
        m->reason = br->reason; /* driver_blocks_per_sm stays 0: nothing was loaded */
        return false;
    }
    bench_config c;
    gw_plain_args(g, &c);
    bench_binary bin = {q->cubin, q->symbol, {0}, {0}, (unsigned)q->smem_bytes};
    for (int d = 0; d < 3; d++) {
        bin.grid[d] = (unsigned)q->grid[d];
        bin.block[d] = (unsigned)q->block[d];
    }
    if (q->profile) { /* its counters, in a profiled launch of its own */
        r->status = OUTCOME_OK;
        m->nhw = g->p->nhw;
        m->hw = g->hw_values;
        int prc = bench_profile(g->b, &bin, &c, g->hw_values, &m->profile_passes, br->reason, sizeof br->reason);
        bool lost = prc < 0;
        r->profiler_off = prc == 1;
        m->profile_note = br->reason;
        r->sticky = lost;
        return lost;
    }
    meas_settings ms = g->ms; /* the final race: full statistics, no early stop */
    if (q->final) {
        ms.prune = ms.contend = 0;
        ms.provisional = 0;
    }
    if (q->final && q->have_best && q->samples > 0) { /* screened against the race's best */
        g->goal.best_range = q->best_range;
        ms.judge = goal_screen;
        ms.judge_ctx = &g->goal;
        ms.screen = q->samples;
    }
    bool sticky = bench_run(g->b, &bin, &c, &ms, br) < 0;
    r->status = br->status;
    r->sticky = sticky;
    m->reason = br->reason;
    m->registers = br->registers;
    m->driver_blocks_per_sm = br->driver_blocks_per_sm;
    m->verified = br->verified;
    m->max_abs_error = br->max_abs_error;
    m->inputs_note = br->inputs_note;
    m->gpu_seconds = br->gpu_seconds;
    m->timing_seconds = br->timing_seconds;
    m->launches = br->launches;
    m->energy = br->energy;
    m->energy_j = br->energy ? br->nrg.joules_per_launch : NAN;
    m->power_w = br->energy ? br->nrg.watts : NAN;
    m->energy_seconds = br->nrg.seconds;
    m->energy_launches = br->nrg.launches;
    m->energy_note = br->energy_error;
    for (int k = 0; k < BENCH_WORK_COUNT; k++) /* where its time went */
        r->work[work_kind[k]] = br->work[k];
    if (br->timed) {
        const meas_times *tm = &br->times;
        m->timed = true;
        m->median_ms = tm->median_ms;
        m->min_ms = tm->min_ms;
        m->max_ms = tm->max_ms;
        m->q1_ms = tm->q1_ms;
        m->q3_ms = tm->q3_ms;
        m->spread = tm->spread;
        m->reps = tm->reps;
        m->batch = tm->batch;
        m->pruned = tm->pruned;
        m->provisional = tm->provisional;
        m->tied = tm->tied;
        g->goal.has_energy = br->energy; /* what energy_J and power_W read */
        g->goal.energy_j = br->nrg.joules_per_launch;
        g->goal.power_w = br->nrg.watts;
        goal_metrics(&g->goal, tm->median_ms, metrics);
        m->nmetrics = g->p->m->nmetrics;
        if (goal_objective(&g->goal, tm->median_ms, &m->objective) < 0)
            m->objective = NAN;
    }
    return sticky;
}

/* Whatever ends the worker ends it through runtime/worker's wk_end: the caller's
 * standard streams let go first, so that the driver's teardown of its context at the
 * exit keeps none of the tuner's caller's pipes open, then the exit, which frees nothing
 * one by one: the driver reclaims the context and its memory when the process ends. */
int gw_main(void *ctx, int in, int out)
{
    gw w;
    memset(&w, 0, sizeof w);
    w.p = ctx;
    cutune_tune_result *res = w.p->res; /* the worker's copy: the reference writes here */
    wk_frame f = WK_FRAME_INIT;
    strbuf msg = STRBUF_INIT;
    double ref_seconds = res->summary.gpu_seconds;
    wk_setup s = {false, 0, "", "", 0, 0, 0, 0, 0};
    if (trace_on()) {
        char name[64];
        snprintf(name, sizeof name, "cutune: GPU %d worker", w.p->device);
        trace_name_process(name);
    }
    trace_event('B', 0, NULL, "GPU %d worker set-up", w.p->device);
    int status = worker_setup(&w, &msg, &s);
    trace_event('E', 0, status == CUTUNE_OK ? NULL : sb_cstr(&msg), "GPU %d worker set-up", w.p->device);
    bool ok = status == CUTUNE_OK;
    /* summary.reference is set by gw_reference, here in the worker */
    s.ok = ok;
    s.ref_seconds = res->summary.gpu_seconds - ref_seconds;
    s.message = sb_cstr(&msg);
    s.reference = res->summary.reference ? res->summary.reference : "";
    s.status = status;
    wk_encode_setup(&f, &s);
    if (wk_send(out, &f) < 0 || !ok)
        wk_end(out, ok ? 2 : 1);
    arena *a = arena_new();
    double *metrics = calloc((size_t)w.p->m->nmetrics + 1, sizeof(double));
    if (!a || !metrics)
        wk_end(out, 4);
    for (;;) {
        if (wk_recv(in, &f, 0) < 0)
            wk_end(out, 0); /* the tuner has gone: so do we */
        arena_reset(a);
        wk_request q;
        if (wk_decode_request(&f, a, &q) < 0 || gw_request_values(w.p->m, &q, w.vals) < 0 || q.samples < 0 ||
            q.samples > GW_MAX_SAMPLES || !(q.best_range >= 0))
            wk_end(out, 4); /* not a request of this spec's: the pipe is not to be trusted */
        reply r;
        bench_result br;
        trace_event('B', 0,
                    q.final     ? "final race"
                    : q.profile ? "hardware counters"
                                : NULL,
                    "variant %llu", (unsigned long long)q.ordinal);
        bool sticky = serve(&w, &q, &r, metrics, &br);
        trace_event('E', 0, NULL, "variant %llu", (unsigned long long)q.ordinal);
        wk_frame_reset(&f);
        reply_encode(&f, &r);
        if (wk_send(out, &f) < 0 || sticky)
            wk_end(out, sticky ? 3 : 0); /* a context with a sticky error is of no more use */
    }
}
