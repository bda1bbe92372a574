/* tune.c - cutune_tune: every variant compiled (api_analyze, ahead of the GPU), run
 * once against poisoned outputs and checked against the reference, then timed; the
 * best by the objective is chosen.
 *
 * Pipelining: api_analyze's pool keeps compiling the next variants on every core
 * while this thread, in the per-variant callback, runs the current one on the GPU.
 * Inputs are restored from pristine device copies before each variant's checked run,
 * so every variant sees the same data whatever ran before it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "../compiler/eval.h"
#include "../runtime/cache.h"
#include "../runtime/compare.h"
#include "../runtime/compile.h"
#include "../runtime/data.h"
#include "../runtime/measure.h"
#include "../runtime/outcome.h"
#include "internal.h"
#include "../runtime/journal.h"
#include "../results/record.h"
#include "../results/result.h"
#include "search_run.h"
#include "../base/sys.h"

enum { DEFAULT_FLUSH_FACTOR = 2 };     /* the flush buffer is twice the L2 */
#define DEFAULT_PRUNE 1.5
#define MIN_SAMPLE_MS 0.05             /* event pairs last at least this (timer resolution ~0.5 us) */
#define MIN_LIMIT_S 10.0               /* the least a derived per-variant time limit can be */

typedef struct arg_state {
    const m_arg *a;
    data_type type;
    bool verified;
    int64_t count;            /* elements in the current configuration */
    size_t capacity;          /* bytes allocated in dev and pristine */
    CUdeviceptr dev, pristine;
    int64_t pristine_count;   /* elements of initial contents in pristine */
    CUdeviceptr ref;          /* the reference's output, on the device (verified outputs) */
    int64_t ref_count;
    cmp_kernel *cmp;          /* compares it with a variant's */
    unsigned char scalar[8];
} arg_state;

typedef struct tuner {
    cutune_spec *spec;
    const model *m;
    const cutune_tune_options *opts;
    drv *d;
    meas_gpu *g;
    cutune_device dev;
    arg_state *args;
    void **argv;
    cmp_kernel cmps[DT_UINT64 + 1]; /* one per element type in use */
    bool cmp_ready[DT_UINT64 + 1];
    int64_t *counts;
    value *scalars, *vals;
    meas_settings ms;
    double prune;
    bool have_best;
    double best_objective;
    cutune_tune_result *res;
    journal *journal;         /* NULL: none */
    pid_t worker;             /* the GPU worker process (0: none running) */
    int to_worker, from_worker;
    double limit_s;           /* a variant's time limit in the worker */
    size_t flush_bytes;
    int status;               /* set when the run must stop */
    char err[512];
    /* The search (docs/search.md). Exhaustive: budgets applied here, per variant. */
    search_settings set;
    double started;
    uint64_t evaluations, since_improvement;
    const char *stop;         /* why the search stopped ("" while it runs) */
} tuner;

static data_type data_type_of(ast_ctype t)
{
    static const data_type map[] = {
        [CT_HALF] = DT_HALF, [CT_BF16] = DT_BF16, [CT_FLOAT] = DT_FLOAT, [CT_DOUBLE] = DT_DOUBLE,
        [CT_INT8] = DT_INT8, [CT_UINT8] = DT_UINT8, [CT_INT16] = DT_INT16, [CT_UINT16] = DT_UINT16,
        [CT_INT] = DT_INT32, [CT_UINT] = DT_UINT32, [CT_INT64] = DT_INT64, [CT_UINT64] = DT_UINT64,
    };
    return map[t];
}

/* The typed values of a configuration, read back from the variant's text (floats are
 * written in their shortest exact form, so this is lossless). */
static void values_of(const model *m, const cutune_variant *v, value *out)
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

/* Makes every buffer hold this configuration's count, initial contents restored and
 * outputs poisoned, and every scalar its value. 0, or -1 with t->err. */
static int prepare_args(tuner *t)
{
    for (int i = 0; i < t->m->nargs; i++) {
        arg_state *s = &t->args[i];
        const m_arg *a = s->a;
        if (!a->is_buffer) {
            data_set(s->scalar, s->type, 0, value_as_double(t->scalars[i]));
            if (t->scalars[i].type == VT_INT && !data_is_float(s->type)) {
                /* exact for 64-bit integers too */
                int64_t v = t->scalars[i].u.i;
                memcpy(s->scalar, &v, data_size(s->type) <= 8 ? data_size(s->type) : 8);
            }
            t->argv[i] = s->scalar;
            continue;
        }
        s->count = t->counts[i];
        size_t bytes = (size_t)s->count * data_size(s->type);
        bool needs_init = a->init != INIT_NONE;
        if (bytes > s->capacity) {
            meas_free(t->g, s->dev);
            meas_free(t->g, s->pristine);
            s->dev = s->pristine = 0;
            s->capacity = 0;
            s->pristine_count = 0;
            if (meas_alloc(t->g, bytes, &s->dev, t->err, sizeof t->err) < 0 ||
                (needs_init && meas_alloc(t->g, bytes, &s->pristine, t->err, sizeof t->err) < 0))
                return -1;
            s->capacity = bytes;
        }
        if (needs_init && s->pristine_count != s->count) {
            void *host = malloc(bytes);
            if (!host) {
                snprintf(t->err, sizeof t->err, "out of memory for the contents of '%s'", a->name);
                return -1;
            }
            data_fill_spec f = {FILL_ZEROS, a->seed, a->lo, a->hi};
            f.kind = a->init == INIT_RANDOM ? FILL_RANDOM : a->init == INIT_RAMP ? FILL_RAMP
                     : a->init == INIT_CONSTANT ? FILL_CONSTANT : FILL_ZEROS;
            if (a->init == INIT_CONSTANT)
                f.a = value_as_double(a->value->u.k);
            data_fill(host, s->type, (size_t)s->count, &f);
            int rc = meas_upload(t->g, s->pristine, host, bytes, t->err, sizeof t->err);
            free(host);
            if (rc < 0)
                return -1;
            s->pristine_count = s->count;
        }
        /* Inputs as they started; outputs poisoned (0xFF bytes: NaN for floats, -1 for
         * ints), so an element the kernel never writes is caught. */
        if ((needs_init ? meas_copy(t->g, s->dev, s->pristine, bytes, t->err, sizeof t->err)
                        : meas_fill(t->g, s->dev, 0xFF, bytes, t->err, sizeof t->err)) < 0)
            return -1;
        t->argv[i] = &s->dev;
    }
    return 0;
}

static void launch_of(const cutune_variant *v, void **argv, meas_launch *l)
{
    for (int d = 0; d < 3; d++) {
        l->grid[d] = (unsigned)v->grid[d];
        l->block[d] = (unsigned)v->block[d];
    }
    l->dynamic_smem = (unsigned)v->smem_bytes;
    l->args = argv;
}

/* Compares the verified outputs with the reference's. true when they agree; else the
 * reason in buf. */
static bool outputs_agree(tuner *t, char *buf, size_t size, double *max_err, int *failed)
{
    *max_err = 0;
    *failed = 0;
    const m_verify *vf = &t->m->verify;
    for (int k = 0; k < vf->noutputs; k++) {
        arg_state *s = &t->args[vf->outputs[k]];
        if (s->count != s->ref_count) {
            snprintf(buf, size, "'%s' has %lld elements, the reference %lld", s->a->name, (long long)s->count,
                     (long long)s->ref_count);
            return false;
        }
        data_mismatch mm;
        if (cmp_run(t->g, s->cmp, s->dev, s->ref, (size_t)s->count, vf->atol, vf->rtol, &mm, t->err,
                    sizeof t->err) < 0) {
            *failed = 1;
            snprintf(buf, size, "%s", t->err);
            return false;
        }
        bool ok = mm.count == 0;
        if (mm.max_abs_error > *max_err || isnan(mm.max_abs_error))
            *max_err = mm.max_abs_error;
        if (!ok) {
            snprintf(buf, size, "'%s': %zu of %lld elements differ; first at %zu: got %.9g, want %.9g", s->a->name,
                     mm.count, (long long)s->count, mm.first, mm.got, mm.want);
            return false;
        }
    }
    return true;
}

/* The objective at a median time (ms): the time itself, or the spec's objective. */
static int objective_at(tuner *t, double median_ms, double *out)
{
    if (!t->m->objective) {
        *out = median_ms;
        return 0;
    }
    eval_env env = {t->m, t->vals, true, median_ms * 1e-3, NULL};
    value v;
    eval_error e;
    if (eval_expr(t->m->objective, &env, &v, &e) < 0)
        return -1;
    *out = value_as_double(v);
    return 0;
}

static bool better(const tuner *t, double a, double b)
{
    return t->m->maximize ? a > b : a < b;
}

/* Timing stops early when the objective at the median so far is worse than the best
 * by the prune factor. */
static bool prune_now(void *ctx, double median_ms)
{
    tuner *t = ctx;
    double v;
    if (!t->have_best || t->prune <= 0 || objective_at(t, median_ms, &v) < 0)
        return false;
    return t->m->maximize ? v * t->prune < t->best_objective : v > t->best_objective * t->prune;
}

/* Loads, runs once, checks and (when `timing`) times one binary with the current
 * configuration's arguments. The outcome goes into rec. Returns -1 when the GPU context
 * is lost (the run must stop). */
static int run_variant(tuner *t, const analyze_binary *bin, const cutune_variant *v, bool timing, record *rec)
{
    cutune_measurement *mm = &rec->m;
    char buf[512];
    double t0 = sys_seconds();
    mm->driver_blocks_per_sm = -1;
    if (prepare_args(t) < 0) {
        result_set_status(t->res, rec, "not run", t->err);
        return meas_sticky(t->g) ? -1 : 0;
    }
    meas_launch l;
    launch_of(v, t->argv, &l);
    meas_kernel k;
    if (meas_load(t->g, bin->cubin, bin->symbol, &l, &k, t->err, sizeof t->err) < 0) {
        result_set_status(t->res, rec, "load error", t->err);
        return meas_sticky(t->g) ? -1 : 0;
    }
    mm->registers = k.registers;
    mm->driver_blocks_per_sm = k.driver_blocks_per_sm;
    int rc = 0;
    if (meas_run(t->g, &k, &l, t->err, sizeof t->err) < 0) {
        result_set_status(t->res, rec, "launch error", t->err);
        rc = meas_sticky(t->g) ? -1 : 0;
        goto done;
    }
    if (t->m->verify.present && timing) {
        int failed;
        if (!outputs_agree(t, buf, sizeof buf, &mm->max_abs_error, &failed)) {
            result_set_status(t->res, rec, failed ? "launch error" : "wrong", buf);
            rc = meas_sticky(t->g) ? -1 : 0;
            goto done;
        }
        mm->verified = 1;
    }
    if (timing) {
        meas_times tm;
        double timing_started = sys_seconds();
        int timed_rc = meas_time(t->g, &k, &l, &t->ms, &tm, t->err, sizeof t->err);
        mm->timing_seconds = sys_seconds() - timing_started;
        if (timed_rc < 0) {
            result_set_status(t->res, rec, "launch error", t->err);
            rc = meas_sticky(t->g) ? -1 : 0;
            goto done;
        }
        mm->timed = 1;
        mm->median_ms = tm.median_ms;
        mm->min_ms = tm.min_ms;
        mm->max_ms = tm.max_ms;
        mm->q1_ms = tm.q1_ms;
        mm->q3_ms = tm.q3_ms;
        mm->spread = tm.spread;
        mm->reps = tm.reps;
        mm->batch = tm.batch;
        mm->pruned = tm.pruned;
        eval_env env = {t->m, t->vals, true, tm.median_ms * 1e-3, NULL};
        for (int i = 0; i < t->m->nmetrics; i++) {
            value mv;
            eval_error e;
            rec->metrics[i] = eval_expr(t->m->metrics[i].expr, &env, &mv, &e) < 0 ? NAN : value_as_double(mv);
        }
        if (objective_at(t, tm.median_ms, &mm->objective) < 0)
            mm->objective = NAN;
        result_set_status(t->res, rec, "ok", NULL);
    }
done:
    meas_unload(t->g, &k);
    mm->gpu_seconds = sys_seconds() - t0;
    return rc;
}


static int run_reference(tuner *t);

/* ---- the GPU worker process ------------------------------------------------------
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
 *
 * Messages are frames: a 32-bit length, then the fields in order (64-bit integers,
 * doubles, and length-prefixed strings), native byte order (same machine). */

typedef struct frame {
    strbuf buf;
    size_t at;          /* read position */
    bool bad;
} frame;

static void put_u64(frame *f, uint64_t v) { sb_addn(&f->buf, (const char *)&v, 8); }
static void put_f64(frame *f, double v) { sb_addn(&f->buf, (const char *)&v, 8); }
static void put_bytes(frame *f, const void *p, size_t n)
{
    put_u64(f, n);
    sb_addn(&f->buf, p, n);
}
static void put_str(frame *f, const char *s) { put_bytes(f, s ? s : "", s ? strlen(s) : 0); }

static uint64_t get_u64(frame *f)
{
    uint64_t v = 0;
    if (f->at + 8 > f->buf.len) {
        f->bad = true;
        return 0;
    }
    memcpy(&v, f->buf.data + f->at, 8);
    f->at += 8;
    return v;
}
static double get_f64(frame *f)
{
    uint64_t bits = get_u64(f);
    double v;
    memcpy(&v, &bits, 8);
    return v;
}
/* The next length-prefixed string, copied into `a` (NUL-terminated); NULL when the
 * frame is short. */
static char *get_str(frame *f, arena *a)
{
    uint64_t n = get_u64(f);
    if (f->bad || f->at + n > f->buf.len) {
        f->bad = true;
        return NULL;
    }
    char *s = arena_strndup(a, f->buf.data + f->at, (size_t)n);
    f->at += n;
    return s;
}

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

static int send_frame(int fd, frame *f)
{
    uint32_t len = (uint32_t)f->buf.len;
    if (!sb_ok(&f->buf) || write_all(fd, &len, 4) < 0 || write_all(fd, f->buf.data, f->buf.len) < 0)
        return -1;
    return 0;
}

/* Reads n bytes by `deadline` (sys_seconds; 0: wait forever). 0, -1 on EOF or error,
 * -2 on timeout. */
static int read_all(int fd, void *p, size_t n, double deadline)
{
    char *c = p;
    while (n) {
        if (deadline > 0) {
            double left = deadline - sys_seconds();
            if (left <= 0)
                return -2;
            struct pollfd pfd = {fd, POLLIN, 0};
            int pr = poll(&pfd, 1, (int)(left * 1000) + 1);
            if (pr < 0 && errno == EINTR)
                continue;
            if (pr == 0)
                return -2;
            if (pr < 0)
                return -1;
        }
        ssize_t r = read(fd, c, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        c += r;
        n -= (size_t)r;
    }
    return 0;
}

static int recv_frame(int fd, frame *f, double deadline)
{
    uint32_t len;
    sb_reset(&f->buf);
    f->at = 0;
    f->bad = false;
    int rc = read_all(fd, &len, 4, deadline);
    if (rc < 0)
        return rc;
    char *data = malloc(len ? len : 1);
    if (!data)
        return -1;
    rc = read_all(fd, data, len, deadline);
    if (rc == 0)
        sb_addn(&f->buf, data, len);
    free(data);
    return rc;
}

/* status_index: the outcome's number on the pipe (runtime/outcome.h). */
static uint64_t status_index(const char *s)
{
    outcome o = OUTCOME_NOT_RUN;
    outcome_from_name(s, &o);
    return (uint64_t)o;
}

/* The worker's set-up: driver, device, buffers, the reference. 0, or -1 with msg. */
static int worker_setup(tuner *t, strbuf *msg)
{
    char err[512];
    if (drv_open(&t->d, err, sizeof err) < 0 ||
        meas_open(&t->g, t->d, t->opts->device, t->flush_bytes, err, sizeof err) < 0) {
        sb_add(msg, err);
        return -1;
    }
    if (!t->m->verify.present)
        return 0;
    int before = cutune_spec_diagnostic_count(t->spec);
    if (run_reference(t) < 0) {
        const char *text = cutune_spec_diagnostics(t->spec, before, 0);
        sb_add(msg, text && *text ? text : "the reference failed");
        return -1;
    }
    return 0;
}

/* The worker: never returns. */
static void worker_main(tuner *t, int in, int out)
{
    frame f = {STRBUF_INIT, 0, false};
    strbuf msg = STRBUF_INIT;
    double ref_seconds = t->res->summary.gpu_seconds;
    int ok = worker_setup(t, &msg) == 0;
    put_u64(&f, (uint64_t)ok);
    put_f64(&f, t->res->summary.gpu_seconds - ref_seconds);
    put_str(&f, sb_cstr(&msg));
    put_str(&f, t->res->summary.reference); /* set by run_reference, here in the worker */
    if (send_frame(out, &f) < 0 || !ok)
        _exit(ok ? 2 : 1);
    arena *a = arena_new();
    record *rec = result_scratch(t->res);
    for (;;) {
        sb_reset(&f.buf);
        if (recv_frame(in, &f, 0) < 0)
            _exit(0); /* the tuner has gone: so do we */
        arena_reset(a);
        cutune_variant v;
        memset(&v, 0, sizeof v);
        v.ordinal = get_u64(&f);
        for (int d = 0; d < 3; d++)
            v.block[d] = (int64_t)get_u64(&f);
        for (int d = 0; d < 3; d++)
            v.grid[d] = (int64_t)get_u64(&f);
        v.smem_bytes = (int64_t)get_u64(&f);
        v.nparams = (int)get_u64(&f);
        const char **values = arena_alloc(a, sizeof(char *) * (size_t)(v.nparams + 1));
        for (int i = 0; values && i < v.nparams; i++)
            values[i] = get_str(&f, a);
        v.values = values;
        char *symbol = get_str(&f, a);
        uint64_t cubin_size = get_u64(&f);
        const unsigned char *cubin = (const unsigned char *)f.buf.data + f.at;
        f.at += cubin_size;
        t->have_best = get_u64(&f) != 0;
        t->best_objective = get_f64(&f);
        if (f.bad || f.at > f.buf.len || !values || !symbol)
            _exit(4);
        memset(rec, 0, sizeof *rec);
        rec->metrics = t->res->scratch_metrics;
        rec->m.metrics = rec->metrics;
        values_of(t->m, &v, t->vals);
        eval_error e;
        int sticky = 0;
        if (plan_args(t->m, t->vals, t->counts, t->scalars, &e) < 0) {
            result_set_status(t->res, rec, "not run", e.message);
        } else {
            analyze_binary bin = {cubin, (size_t)cubin_size, symbol};
            sticky = run_variant(t, &bin, &v, true, rec) < 0;
        }
        frame r = {STRBUF_INIT, 0, false};
        const cutune_measurement *m = &rec->m;
        put_u64(&r, status_index(m->status));
        put_u64(&r, (uint64_t)sticky);
        put_str(&r, m->reason);
        put_u64(&r, (uint64_t)(int64_t)m->registers);
        put_u64(&r, (uint64_t)(int64_t)m->driver_blocks_per_sm);
        put_u64(&r, (uint64_t)m->timed);
        put_f64(&r, m->median_ms);
        put_f64(&r, m->min_ms);
        put_f64(&r, m->max_ms);
        put_f64(&r, m->q1_ms);
        put_f64(&r, m->q3_ms);
        put_f64(&r, m->spread);
        put_u64(&r, (uint64_t)m->reps);
        put_u64(&r, (uint64_t)m->batch);
        put_u64(&r, (uint64_t)m->pruned);
        put_f64(&r, m->objective);
        for (int i = 0; i < t->m->nmetrics; i++)
            put_f64(&r, rec->metrics[i]);
        put_u64(&r, (uint64_t)m->verified);
        put_f64(&r, m->max_abs_error);
        put_f64(&r, m->gpu_seconds);
        put_f64(&r, m->timing_seconds);
        int sent = send_frame(out, &r);
        sb_free(&r.buf);
        if (sent < 0 || sticky)
            _exit(sticky ? 3 : 0); /* a context with a sticky error is of no more use */
    }
}

/* Starts a worker and waits for its set-up. 0, or a status with t->err. */
static int worker_start(tuner *t)
{
    int to[2], from[2];
    if (pipe(to) != 0 || pipe(from) != 0) {
        snprintf(t->err, sizeof t->err, "cannot create pipes: %s", strerror(errno));
        return CUTUNE_ENOMEM;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(t->err, sizeof t->err, "cannot start the GPU worker: %s", strerror(errno));
        return CUTUNE_ENOMEM;
    }
    if (pid == 0) {
        close(to[1]);
        close(from[0]);
        signal(SIGINT, SIG_IGN); /* Ctrl-C is the tuner's to handle */
        signal(SIGPIPE, SIG_DFL);
        worker_main(t, to[0], from[1]);
    }
    close(to[0]);
    close(from[1]);
    t->worker = pid;
    t->to_worker = to[1];
    t->from_worker = from[0];
    frame f = {STRBUF_INIT, 0, false};
    int rc = recv_frame(t->from_worker, &f, sys_seconds() + 600);
    bool ok = rc == 0 && get_u64(&f) == 1;
    double ref = rc == 0 ? get_f64(&f) : 0;
    arena *a = arena_new();
    char *msg = rc == 0 && a ? get_str(&f, a) : NULL;
    char *reference = msg ? get_str(&f, a) : NULL;
    if (ok && reference) /* what the outputs are checked against, for the results' settings */
        snprintf(t->res->summary.reference, sizeof t->res->summary.reference, "%s", reference);
    if (!ok) {
        snprintf(t->err, sizeof t->err, "the GPU worker could not start: %s",
                 msg && *msg ? msg : rc == -2 ? "no answer in 600 s" : "it died");
    } else {
        t->res->summary.gpu_seconds += ref;
        /* No limit given: derive one from the reference, which did everything a variant
         * does once (arguments, load, a run): room for every repetition many times over. */
        if (t->limit_s <= 0) {
            const m_measure *ms = &t->m->measure;
            double derived = 20.0 * (ref > 0 ? ref : 0.01) * (double)(ms->warmup + ms->max_repeat + 4);
            t->limit_s = derived > MIN_LIMIT_S ? derived : MIN_LIMIT_S;
        }
    }
    arena_free(a);
    sb_free(&f.buf);
    if (!ok) {
        kill(pid, SIGKILL);
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        close(t->to_worker);
        close(t->from_worker);
        t->worker = 0;
        return CUTUNE_ENODEV;
    }
    return CUTUNE_OK;
}

/* Ends the worker (killed when `force`), and says how it ended in buf. */
static void worker_end(tuner *t, bool force, char *buf, size_t size)
{
    if (!t->worker)
        return;
    close(t->to_worker); /* an idle worker exits on EOF */
    if (force)
        kill(t->worker, SIGKILL);
    int status = 0;
    while (waitpid(t->worker, &status, 0) < 0 && errno == EINTR)
        ;
    close(t->from_worker);
    t->worker = 0;
    if (buf) {
        if (WIFSIGNALED(status))
            snprintf(buf, size, "signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
        else
            snprintf(buf, size, "exit status %d", WEXITSTATUS(status));
    }
}

/* Runs a variant in the worker (starting one when none runs) and fills rec. Returns -1
 * when no worker can be started (the run must stop). */
static int run_in_worker(tuner *t, const analyze_binary *bin, const cutune_variant *v, record *rec)
{
    if (!t->worker && (t->status = worker_start(t)) < 0)
        return -1;
    frame f = {STRBUF_INIT, 0, false};
    put_u64(&f, v->ordinal);
    for (int d = 0; d < 3; d++)
        put_u64(&f, (uint64_t)v->block[d]);
    for (int d = 0; d < 3; d++)
        put_u64(&f, (uint64_t)v->grid[d]);
    put_u64(&f, (uint64_t)v->smem_bytes);
    put_u64(&f, (uint64_t)v->nparams);
    for (int i = 0; i < v->nparams; i++)
        put_str(&f, v->values[i]);
    put_str(&f, bin->symbol);
    put_bytes(&f, bin->cubin, bin->cubin_size);
    put_u64(&f, (uint64_t)t->have_best);
    put_f64(&f, t->best_objective);
    int sent = send_frame(t->to_worker, &f);
    double started = sys_seconds();
    int rc = sent < 0 ? -1 : recv_frame(t->from_worker, &f, started + t->limit_s);
    char how[160];
    if (rc == -2) {
        worker_end(t, true, how, sizeof how);
        char reason[256];
        snprintf(reason, sizeof reason, "no answer within %.0f s (a hang?): the worker was killed and a new one "
                 "started for the next variant", t->limit_s);
        result_set_status(t->res, rec, "timeout", reason);
        rec->m.gpu_seconds = sys_seconds() - started;
        sb_free(&f.buf);
        return 0;
    }
    if (rc < 0) {
        worker_end(t, true, how, sizeof how);
        char reason[256];
        snprintf(reason, sizeof reason, "the worker process died running it (%s); a new one is started", how);
        result_set_status(t->res, rec, "crashed", reason);
        rec->m.gpu_seconds = sys_seconds() - started;
        sb_free(&f.buf);
        return 0;
    }
    cutune_measurement *m = &rec->m;
    arena *a = arena_new();
    uint64_t st = get_u64(&f);
    bool sticky = get_u64(&f) != 0;
    char *reason = a ? get_str(&f, a) : NULL;
    result_set_status(t->res, rec, outcome_name(st < OUTCOME_COUNT ? (outcome)st : OUTCOME_NOT_RUN), reason && *reason ? reason : NULL);
    m->registers = (int)(int64_t)get_u64(&f);
    m->driver_blocks_per_sm = (int)(int64_t)get_u64(&f);
    m->timed = (int)get_u64(&f);
    m->median_ms = get_f64(&f);
    m->min_ms = get_f64(&f);
    m->max_ms = get_f64(&f);
    m->q1_ms = get_f64(&f);
    m->q3_ms = get_f64(&f);
    m->spread = get_f64(&f);
    m->reps = (int)get_u64(&f);
    m->batch = (int)get_u64(&f);
    m->pruned = (int)get_u64(&f);
    m->objective = get_f64(&f);
    for (int i = 0; i < t->m->nmetrics; i++)
        rec->metrics[i] = get_f64(&f);
    m->verified = (int)get_u64(&f);
    m->max_abs_error = get_f64(&f);
    m->gpu_seconds = get_f64(&f);
    m->timing_seconds = get_f64(&f);
    arena_free(a);
    sb_free(&f.buf);
    if (sticky) { /* the worker has exited: its context is lost */
        worker_end(t, false, how, sizeof how);
        char more[600];
        snprintf(more, sizeof more, "%s (the GPU context was lost: a new worker is started for the next variant)",
                 m->reason ? m->reason : "a sticky CUDA error");
        result_set_status(t->res, rec, m->status, more);
    }
    return 0;
}

static bool params_match(const model *m, const value *vals, json_t *line);

static int tune_each(void *user, const cutune_analysis *a, const analyze_binary *bin)
{
    tuner *t = user;
    record *rec = result_add(t->res, a);
    if (!rec) {
        t->status = CUTUNE_ENOMEM;
        return -1;
    }
    const cutune_variant *v = &rec->v;
    json_t *done_before = journal_find(t->journal, v->ordinal);
    if (done_before) { /* trusted only for the configuration it names (journal.h) */
        values_of(t->m, v, t->vals);
        if (!params_match(t->m, t->vals, done_before))
            done_before = NULL;
    }
    if (done_before) {
        result_load(t->res, rec, done_before); /* measured by an earlier run: not again */
    } else if (!a->compiled) {
        result_set_status(t->res, rec, "compile error", a->log);
    } else if (!a->launchable) {
        result_set_status(t->res, rec, "cannot launch", a->why);
    } else {
        values_of(t->m, v, t->vals); /* for the objective of what comes back */
        if (run_in_worker(t, bin, v, rec) < 0)
            return -1;
    }
    cutune_measurement *mm = &rec->m;
    if (t->journal && !done_before) {
        json_t *line = result_record_json(t->res, rec);
        char err[512];
        int rc = line ? journal_append(t->journal, line, err, sizeof err) : -1;
        json_decref(line);
        if (rc < 0) { /* losing the journal would lose what is measured: stop */
            snprintf(t->err, sizeof t->err, "%s", line ? err : "out of memory");
            t->status = CUTUNE_EIO;
            return -1;
        }
    }
    if (!done_before)
        t->since_improvement++;
    if (result_can_win(mm) && (!t->have_best || better(t, mm->objective, t->best_objective))) {
        t->have_best = true;
        t->best_objective = mm->objective;
        result_set_best(t->res, rec);
        t->since_improvement = 0;
    }
    if (done_before || t->set.strategy != STRAT_EXHAUSTIVE)
        return 0;
    /* Exhaustive under budgets: configurations from the journal cost nothing. */
    t->evaluations++;
    if (t->set.budget && t->evaluations >= t->set.budget)
        t->stop = "budget";
    else if (t->set.patience && t->since_improvement >= t->set.patience)
        t->stop = "patience";
    else if (t->set.time_limit_s > 0 && sys_seconds() - t->started >= t->set.time_limit_s)
        t->stop = "time";
    return t->stop[0] ? 1 : 0;
}

/* Runs the reference (a configuration, or a kernel of its own) once and keeps its
 * verified outputs. 0, or a status with a diagnostic on the spec. */
static int run_reference(tuner *t)
{
    const model *m = t->m;
    const m_verify *vf = &m->verify;
    arena *a = arena_new();
    if (!a)
        return CUTUNE_ENOMEM;
    int rc = CUTUNE_OK;
    eval_error e;
    cutune_variant v;
    memset(&v, 0, sizeof v);
    compile_job job;
    memset(&job, 0, sizeof job);
    const char **opts = NULL;
    int nopts = 0;
    char *source = NULL;
    const char *source_path;
    if (!vf->against_kernel) {
        for (int i = 0; i < m->nparams; i++)
            t->vals[i] = domain_at(&m->params[i].dom, vf->config[i]);
        variant pv;
        if (plan_variant(m, t->vals, a, &pv, &e) < 0 || plan_args(m, t->vals, t->counts, t->scalars, &e) < 0) {
            rc = api_eval_failed(t->spec, &e);
            goto done;
        }
        for (int d = 0; d < 3; d++) {
            v.block[d] = pv.block[d];
            v.grid[d] = pv.grid[d];
        }
        v.smem_bytes = pv.smem_bytes;
        job.name_expression = pv.name_expression;
        opts = arena_alloc(a, sizeof(char *) * (size_t)(pv.ndefines + pv.noptions + 2));
        if (!opts) {
            rc = CUTUNE_ENOMEM;
            goto done;
        }
        for (int i = 0; i < pv.ndefines; i++)
            opts[nopts++] = pv.defines[i];
        for (int i = 0; i < pv.noptions; i++)
            opts[nopts++] = pv.options[i];
        source_path = m->kernel_file;
        snprintf(t->res->summary.reference, sizeof t->res->summary.reference, "configuration %s",
                 "given by verify ... against config(...)");
    } else {
        /* The reference kernel: the spec's common options, its own geometry; arguments
         * may not depend on params (there is no configuration to take them from). */
        eval_env env = {m, NULL, false, 0.0, NULL};
        int64_t dims[6] = {1, 1, 1, 1, 1, 1};
        for (int d = 0; d < vf->ref_block_dims; d++)
            if (eval_int(vf->ref_block[d], &env, &dims[d], &e) < 0) {
                rc = api_eval_failed(t->spec, &e);
                goto done;
            }
        for (int d = 0; d < vf->ref_grid_dims; d++)
            if (eval_int(vf->ref_grid[d], &env, &dims[3 + d], &e) < 0) {
                rc = api_eval_failed(t->spec, &e);
                goto done;
            }
        for (int d = 0; d < 3; d++) {
            v.block[d] = dims[d];
            v.grid[d] = dims[3 + d];
        }
        if (plan_args(m, NULL, t->counts, t->scalars, &e) < 0) {
            diag_error(&t->spec->diags, vf->ref_loc, "the reference kernel's arguments cannot depend on params: %s",
                       e.message);
            rc = CUTUNE_ESPEC;
            goto done;
        }
        job.name_expression =
            plan_template_name(m, vf->ref_kernel, vf->ref_targs, vf->ref_ntargs, vf->ref_has_targs, NULL, a, &e);
        if (!job.name_expression) {
            rc = api_eval_failed(t->spec, &e);
            goto done;
        }
        opts = arena_alloc(a, sizeof(char *) * (size_t)(m->noptions + m->nincludes + 2));
        if (!opts) {
            rc = CUTUNE_ENOMEM;
            goto done;
        }
        for (int i = 0; i < m->noptions; i++)
            opts[nopts++] = m->options[i];
        for (int i = 0; i < m->nincludes; i++)
            opts[nopts++] = arena_printf(a, "-I%s", m->includes[i]);
        source_path = vf->ref_file;
        snprintf(t->res->summary.reference, sizeof t->res->summary.reference, "kernel %s", job.name_expression);
    }
    source = sys_read_file(source_path, SYS_LIMIT_SOURCE, NULL);
    if (!source) {
        diag_error_noloc(&t->spec->diags, "cannot read '%s': %s", source_path, sys_strerror(errno));
        rc = CUTUNE_EIO;
        goto done;
    }
    const char *slash = strrchr(source_path, '/');
    opts[nopts++] = slash ? arena_printf(a, "-I%.*s", (int)(slash - source_path), source_path) : "-I.";
    job.source_name = source_path;
    job.source = source;
    job.options = opts;
    job.noptions = nopts;
    job.arch = t->dev.arch;
    compile_output out;
    char err[512];
    if (compile_run(&job, &out, err, sizeof err) < 0) {
        diag_error_noloc(&t->spec->diags, "compiling the reference: %s", err);
        rc = CUTUNE_ECOMPILER;
        goto done;
    }
    if (!out.ok) {
        char *log = compile_log_excerpt(out.log);
        diag_error(&t->spec->diags, vf->ref_loc, "the reference does not compile:\n%s", log ? log : out.log);
        free(log);
        compile_output_free(&out);
        rc = CUTUNE_ESPEC;
        goto done;
    }
    analyze_binary bin = {out.cubin, out.cubin_size, out.lowered_name};
    record *rec = result_scratch(t->res);
    int run = run_variant(t, &bin, &v, false, rec);
    if (run < 0 || (rec->m.status && strcmp(rec->m.status, "ok") != 0)) {
        diag_error(&t->spec->diags, vf->ref_loc, "the reference failed to run: %s",
                   rec->m.reason ? rec->m.reason : t->err);
        rc = run < 0 ? CUTUNE_ENODEV : CUTUNE_ESPEC;
    } else {
        t->res->summary.gpu_seconds += rec->m.gpu_seconds;
        /* Keep the reference's outputs on the device, and compare there. */
        for (int k = 0; k < vf->noutputs && rc == CUTUNE_OK; k++) {
            arg_state *s = &t->args[vf->outputs[k]];
            size_t bytes = (size_t)s->count * data_size(s->type);
            s->ref_count = s->count;
            if (!t->cmp_ready[s->type]) {
                if (cmp_prepare(t->g, s->type, t->dev.arch, &t->cmps[s->type], err, sizeof err) < 0) {
                    diag_error_noloc(&t->spec->diags, "preparing verification: %s", err);
                    rc = CUTUNE_ECOMPILER;
                    break;
                }
                t->cmp_ready[s->type] = true;
            }
            s->cmp = &t->cmps[s->type];
            data_mismatch self;
            if (meas_alloc(t->g, bytes, &s->ref, err, sizeof err) < 0 ||
                meas_copy(t->g, s->ref, s->dev, bytes, err, sizeof err) < 0 ||
                cmp_run(t->g, s->cmp, s->ref, s->ref, (size_t)s->count, 0, 0, &self, err, sizeof err) < 0) {
                diag_error_noloc(&t->spec->diags, "keeping the reference's output: %s", err);
                rc = CUTUNE_ENODEV;
            } else if (self.count) {
                /* NaN is never equal to itself: the reference left elements unwritten
                 * (still poisoned) or computed NaN, and no variant could pass. */
                diag_error(&t->spec->diags, vf->ref_loc, "the reference's output '%s' has %zu NaN elements of %lld "
                           "(the first at %zu): unwritten or not a number, so no variant could match it",
                           s->a->name, self.count, (long long)s->count, self.first);
                rc = CUTUNE_ESPEC;
            }
        }
    }
    compile_output_free(&out);
done:
    free(source);
    arena_free(a);
    return rc;
}


/* ---- searches other than exhaustive ------------------------------------------------
 *
 * The strategy (search/) asks for configurations; each batch it asks for is compiled in
 * parallel through a compile session (binaries kept, so a configuration compiled for
 * guided's screening is not compiled again) and run here one after another, as the
 * exhaustive path runs them; every outcome is journaled as it happens and told to the
 * strategy. Every configuration in the journal (of the same identity) is told to the
 * search before it starts (search_know: known, free, never asked, possibly the best) and
 * joins the results in the first batch, read back, not run: a second search on the same
 * journal loses nothing the first measured, whatever its strategy proposes. */

typedef struct search_run {
    tuner *t;
    sspace *sp;
    search *se;
    api_session *ss;
    uint64_t *keys;           /* the batch: journal read-backs first, then asked */
    int nkeys, cap;
    value *vals;
    uint64_t *ordinals;
    search_static *st;        /* static_info's output */
    int st_at;
} search_run;

static uint64_t key_of(const search_run *sr, uint64_t ordinal)
{
    return sspace_listed(sr->sp) ? sspace_at(sr->sp, ordinal) : ordinal;
}

static int push_key(search_run *sr, uint64_t key)
{
    if (sr->nkeys == sr->cap) {
        int cap = sr->cap ? sr->cap * 2 : 256;
        uint64_t *k = realloc(sr->keys, sizeof(uint64_t) * (size_t)cap);
        if (!k)
            return -1;
        sr->keys = k;
        sr->cap = cap;
    }
    sr->keys[sr->nkeys++] = key;
    return 0;
}

/* Compiles (and, with `each`, runs) keys[0 .. n) through the session. */
static int run_keys(search_run *sr, const uint64_t *keys, int n, analyze_each each)
{
    int np = sr->t->m->nparams;
    value *vals = malloc(sizeof(value) * (size_t)(n * np + 1));
    uint64_t *ords = malloc(sizeof(uint64_t) * (size_t)(n + 1));
    if (!vals || !ords) {
        free(vals);
        free(ords);
        return CUTUNE_ENOMEM;
    }
    for (int i = 0; i < n; i++) {
        sspace_values(sr->sp, keys[i], vals + (size_t)i * (size_t)np);
        ords[i] = sspace_ordinal(sr->sp, keys[i]);
    }
    int rc = api_session_run(sr->ss, vals, ords, n, each, sr);
    free(vals);
    free(ords);
    return rc;
}

/* Whether a journal line's params are the configuration `vals` (a guard: a journal
 * written under another numbering, e.g. an exhaustive run over a space too large to
 * list, whose indices are listing positions rather than keys, is not misread). */
static bool params_match(const model *m, const value *vals, json_t *line)
{
    json_t *params = json_object_get(line, "params");
    for (int i = 0; i < m->nparams; i++) {
        json_t *p = json_object_get(params, m->params[i].name);
        bool same;
        switch (vals[i].type) {
        case VT_INT: same = json_is_integer(p) && json_integer_value(p) == vals[i].u.i; break;
        case VT_FLOAT: same = json_is_number(p) && json_number_value(p) == vals[i].u.f; break;
        case VT_BOOL: same = json_is_boolean(p) && json_is_true(p) == vals[i].u.b; break;
        default: same = json_is_string(p) && strcmp(json_string_value(p), vals[i].u.s) == 0; break;
        }
        if (!same)
            return false;
    }
    return true;
}

/* Tells the search every configuration in the journal and queues each for the first
 * batch (read back into the results, not run). Returns how many, or -1 when out of
 * memory (with a diagnostic). */
static int64_t know_journal(search_run *sr)
{
    tuner *t = sr->t;
    int64_t n = 0;
    for (uint64_t i = 0; i < journal_count(t->journal); i++) {
        uint64_t ord;
        json_t *j = journal_at(t->journal, i, &ord);
        uint64_t key = key_of(sr, ord);
        if (!sspace_valid(sr->sp, key) || sspace_ordinal(sr->sp, key) != ord)
            continue; /* not a configuration of this space (cannot happen with the same identity) */
        sspace_values(sr->sp, key, t->vals);
        if (!params_match(t->m, t->vals, j))
            continue;
        const char *status = json_string_value(json_object_get(j, "status"));
        json_t *obj = json_object_get(j, "objective");
        double objective = json_is_number(obj) ? json_number_value(obj) : NAN;
        bool ok = status && strcmp(status, "ok") == 0 && isfinite(objective); /* as search_each tells it */
        uint64_t before = search_known_count(sr->se);
        if (search_know(sr->se, key, ok, objective) < 0) {
            diag_error_noloc(&t->spec->diags, "%s", search_error(sr->se));
            return -1;
        }
        if (search_known_count(sr->se) == before)
            continue; /* known already */
        if (push_key(sr, key) < 0) {
            diag_error_noloc(&t->spec->diags, "out of memory");
            return -1;
        }
        n++;
    }
    return n;
}

static int static_each(void *user, const cutune_analysis *a, const analyze_binary *bin)
{
    (void)bin;
    search_run *sr = user;
    search_static *st = &sr->st[sr->st_at++];
    st->compiled = a->compiled;
    st->launchable = a->launchable;
    st->registers = a->registers;
    st->spill_bytes = a->spill_stores + a->spill_loads;
    st->occupancy = a->occupancy.occupancy;
    return 0;
}

static int static_info(void *user, const uint64_t *keys, int n, search_static *out)
{
    search_run *sr = user;
    sr->st = out;
    sr->st_at = 0;
    int rc = run_keys(sr, keys, n, static_each);
    return rc == CUTUNE_OK && sr->st_at == n ? 0 : -1;
}

static int search_each(void *user, const cutune_analysis *a, const analyze_binary *bin)
{
    search_run *sr = user;
    tuner *t = sr->t;
    bool resumed = journal_find(t->journal, a->variant->ordinal) != NULL;
    int rc = tune_each(t, a, bin);
    if (rc < 0)
        return rc;
    if (!resumed) {
        const cutune_measurement *m = &t->res->records[t->res->n - 1]->m;
        search_tell(sr->se, key_of(sr, a->variant->ordinal), strcmp(m->status, "ok") == 0 && m->timed,
                    m->objective);
        if (search_stopped(sr->se))
            return 1; /* the rest of the batch is not run */
    }
    return 0;
}

/* The search loop. CUTUNE_OK, or a status with a diagnostic. */
static int run_search(tuner *t, const cutune_analyze_options *aopts, cutune_analyze_summary *asum)
{
    search_run sr;
    memset(&sr, 0, sizeof sr);
    sr.t = t;
    char err[512];
    int rc = CUTUNE_OK;
    if (sspace_new(&sr.sp, t->m, 0, err, sizeof err) < 0) {
        diag_error_noloc(&t->spec->diags, "%s", err);
        return CUTUNE_EEVAL;
    }
    search_hooks hooks = {&sr, NULL, t->set.strategy == STRAT_GUIDED ? static_info : NULL, NULL};
    uint64_t *asked = NULL;
    if (search_new(&sr.se, sr.sp, &t->set, &hooks, err, sizeof err) < 0) {
        diag_error_noloc(&t->spec->diags, "%s", err);
        rc = CUTUNE_ENOMEM;
        goto done;
    }
    if ((rc = api_session_open(&sr.ss, t->spec, aopts, true, asum)) < 0)
        goto done;
    /* A batch: enough configurations to keep every compile thread (known once the
     * session is open) busy ahead of the GPU. */
    int batch = asum->threads * 4 > 16 ? asum->threads * 4 : 16;
    if (!(asked = malloc(sizeof(uint64_t) * (size_t)batch))) {
        diag_error_noloc(&t->spec->diags, "out of memory");
        rc = CUTUNE_ENOMEM;
        goto done;
    }
    int64_t read_back = know_journal(&sr);
    if (read_back < 0) {
        rc = CUTUNE_ENOMEM;
        goto done;
    }
    api_session_set_total(sr.ss, t->set.budget ? t->set.budget + (uint64_t)read_back : sspace_count(sr.sp));
    for (;;) {
        if (aopts->cancel && *aopts->cancel) {
            asum->interrupted = 1;
            break;
        }
        int n = 0;
        if (search_ask(sr.se, asked, batch, &n) < 0) {
            diag_error_noloc(&t->spec->diags, "%s", search_error(sr.se));
            rc = CUTUNE_ENOMEM;
            break;
        }
        for (int i = 0; i < n; i++)
            if (push_key(&sr, asked[i]) < 0) {
                rc = CUTUNE_ENOMEM;
                break;
            }
        if (rc < 0 || sr.nkeys == 0)
            break;
        int nk = sr.nkeys;
        uint64_t *keys = sr.keys;
        sr.keys = NULL;
        sr.nkeys = sr.cap = 0;
        rc = run_keys(&sr, keys, nk, search_each);
        free(keys);
        if (rc == CUTUNE_ESTOPPED && !t->status)
            rc = CUTUNE_OK; /* a budget ran out mid-batch */
        if (rc < 0)
            break;
    }
    if (rc == CUTUNE_ESTOPPED && t->status)
        rc = t->status;
    t->evaluations = search_evaluations(sr.se);
    t->stop = search_stop_reason(sr.se);
    t->res->summary.screened = search_screened(sr.se);
done:
    api_session_close(sr.ss);
    search_free(sr.se);
    sspace_free(sr.sp);
    free(sr.keys);
    free(asked);
    return rc;
}

/* Exhaustive runs that stop early (a budget, patience, time, --limit): the journal
 * entries past the point where they stopped join the results too, read back through a
 * compile session (binaries from the cache), not run, as a search's do. CUTUNE_OK, or a
 * status with a diagnostic. */
static int by_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

static int read_back_rest(tuner *t, const cutune_analyze_options *aopts, cutune_analyze_summary *asum)
{
    uint64_t count = journal_count(t->journal);
    if (!count)
        return CUTUNE_OK;
    /* The ordinals already in the results, sorted, so that the journal's entries (as
     * many as its lines, whatever their ordinals) are looked up, never tabled. */
    uint64_t *have = malloc(sizeof(uint64_t) * (size_t)(t->res->n + 1));
    uint64_t *ords = malloc(sizeof(uint64_t) * (size_t)count);
    value *vals = NULL;
    sspace *sp = NULL;
    api_session *ss = NULL;
    int rc = CUTUNE_OK, n = 0;
    char err[512];
    if (!have || !ords) {
        diag_error_noloc(&t->spec->diags, "out of memory");
        rc = CUTUNE_ENOMEM;
        goto done;
    }
    for (uint64_t i = 0; i < t->res->n; i++)
        have[i] = t->res->records[i]->v.ordinal;
    qsort(have, (size_t)t->res->n, sizeof(uint64_t), by_u64);
    for (uint64_t i = 0; i < count; i++) {
        uint64_t ord;
        journal_at(t->journal, i, &ord);
        if (!bsearch(&ord, have, (size_t)t->res->n, sizeof(uint64_t), by_u64))
            ords[n++] = ord;
    }
    if (n == 0)
        goto done;
    if (!(vals = malloc(sizeof(value) * (size_t)n * (size_t)(t->m->nparams + 1)))) {
        diag_error_noloc(&t->spec->diags, "out of memory");
        rc = CUTUNE_ENOMEM;
        goto done;
    }
    if (sspace_new(&sp, t->m, 0, err, sizeof err) < 0) {
        diag_error_noloc(&t->spec->diags, "%s", err);
        rc = CUTUNE_EEVAL;
        goto done;
    }
    int m = 0;
    for (int i = 0; i < n; i++) {
        uint64_t key = sspace_listed(sp) ? sspace_at(sp, ords[i]) : ords[i];
        if (!sspace_valid(sp, key) || sspace_ordinal(sp, key) != ords[i])
            continue; /* not a configuration of this space (cannot happen with the same identity) */
        value *at = vals + (size_t)m * (size_t)t->m->nparams;
        sspace_values(sp, key, at);
        if (params_match(t->m, at, journal_find(t->journal, ords[i])))
            ords[m++] = ords[i];
    }
    cutune_analyze_options o = *aopts;
    o.limit = 0;
    cutune_analyze_summary more;
    if (m > 0 && (rc = api_session_open(&ss, t->spec, &o, true, &more)) == CUTUNE_OK) {
        api_session_set_total(ss, (uint64_t)m);
        rc = api_session_run(ss, vals, ords, m, tune_each, t);
        if (rc == CUTUNE_ESTOPPED)
            rc = t->status ? t->status : CUTUNE_OK;
        asum->compiled += more.compiled;
        asum->cached += more.cached;
        asum->compile_seconds += more.compile_seconds;
        asum->wall_seconds += more.wall_seconds;
        asum->interrupted |= more.interrupted;
    }
done:
    api_session_close(ss);
    sspace_free(sp);
    free(have);
    free(ords);
    free(vals);
    return rc;
}

/* Opens the journal: its identity is the spec's text and --set overrides, the kernel
 * source, the device and the L2 flush setting, all of which change what is measured. */
static int open_journal(tuner *t, const char *path, bool flush)
{
    /* Every ordinal of this space is below the bound: listing positions when the valid
     * configurations are listed, else positions among the raw combinations. */
    cutune_space_size size;
    uint64_t bound = UINT64_MAX;
    if (cutune_space_count(t->spec, &size) == CUTUNE_OK && !size.valid_saturated)
        bound = size.valid <= SSPACE_LIST_LIMIT && !size.valid_estimated ? size.valid
                : size.raw_saturated                                      ? UINT64_MAX
                                                                          : size.raw;
    /* The kernel's source and every file its #include lines reach, as the compile
     * cache sees them: a changed header changes the identity too. Canonical paths, as
     * the analyser gives them (api/analyze.c), so a run resumed from another working
     * folder, or with the spec's path spelled otherwise, is the same run. */
    char *kernel = sys_read_file(t->m->kernel_file, SYS_LIMIT_SOURCE, NULL);
    char *kpath = sys_canonical_path(t->m->kernel_file);
    char spec_hex[32], kernel_hex[40] = "unreadable";
    snprintf(spec_hex, sizeof spec_hex, "%016llx", (unsigned long long)t->spec->text_hash);
    char **dirs = calloc((size_t)t->m->nincludes + 2, sizeof(char *));
    int n = 0;
    bool complete = kernel && kpath && dirs;
    for (int i = 0; complete && i < t->m->nincludes; i++) {
        char *c = sys_canonical_path(t->m->includes[i]); /* as it is when it cannot be resolved */
        complete = (dirs[n++] = c ? c : strdup(t->m->includes[i])) != NULL;
    }
    if (complete) {
        const char *slash = strrchr(kpath, '/');
        if ((dirs[n] = slash ? strndup(kpath, (size_t)(slash - kpath)) : strdup(".")) != NULL)
            n++;
        compile_job job = {kpath, kernel, "", NULL, 0, t->dev.arch};
        cache_key key;
        char ignored[256];
        if (cache_key_for(&job, (const char *const *)dirs, n, &key, ignored, sizeof ignored) == 0)
            snprintf(kernel_hex, sizeof kernel_hex, "%s", key.hex);
    }
    for (int i = 0; dirs && i < n; i++)
        free(dirs[i]);
    free(dirs);
    free(kpath);
    free(kernel);
    json_t *identity = json_pack("{s:s, s:s, s:s, s:s, s:b}", "spec", spec_hex, "kernel", kernel_hex, "device",
                                 t->dev.name, "arch", t->dev.arch, "flush_l2", flush);
    char err[600];
    int rc = identity ? journal_open(&t->journal, path, identity, bound, t->opts->fresh, err, sizeof err) : -1;
    json_decref(identity);
    if (rc < 0) {
        diag_error_noloc(&t->spec->diags, "%s", identity ? err : "out of memory");
        return CUTUNE_EIO;
    }
    t->res->summary.resumed = journal_count(t->journal);
    t->res->summary.journal_ignored = journal_ignored(t->journal);
    snprintf(t->res->summary.journal_path, sizeof t->res->summary.journal_path, "%s", path);
    return CUTUNE_OK;
}

static void free_args(tuner *t)
{
    for (int i = 0; t->args && i < t->m->nargs; i++) {
        if (t->g) {
            meas_free(t->g, t->args[i].dev);
            meas_free(t->g, t->args[i].pristine);
            meas_free(t->g, t->args[i].ref);
        }
    }
    for (int k = 0; t->g && k <= DT_UINT64; k++)
        if (t->cmp_ready[k])
            cmp_release(t->g, &t->cmps[k]);
    free(t->args);
    free(t->argv);
    free(t->counts);
    free(t->scalars);
    free(t->vals);
}

int cutune_tune(cutune_spec *spec, const cutune_tune_options *opts, cutune_tune_result **out)
{
    if (!out)
        return CUTUNE_EINVAL;
    *out = NULL;
    if (!spec || !opts || !cutune_spec_ok(spec))
        return CUTUNE_EINVAL;
    double t0 = sys_seconds();
    tuner t;
    memset(&t, 0, sizeof t);
    t.spec = spec;
    t.m = spec->model;
    t.opts = opts;
    const model *m = t.m;
    int rc = cutune_device_get(opts->device, &t.dev);
    if (rc < 0)
        return rc;
    if (!compile_supported_arch(t.dev.arch)) {
        diag_error_noloc(&spec->diags, "NVRTC cannot compile for this GPU's architecture %s", t.dev.arch);
        return CUTUNE_ECOMPILER;
    }
    bool flush = opts->flush_l2 < 0 ? m->measure.flush_l2 : opts->flush_l2 != 0;
    t.flush_bytes = flush ? (size_t)t.dev.l2_bytes * DEFAULT_FLUSH_FACTOR : 0;
    /* A variant's time limit in the worker: the spec's, else generous enough for the
     * arguments' preparation, loading, checking and all its repetitions. */
    t.limit_s = opts->timeout_s > 0 ? opts->timeout_s : m->measure.timeout_s;
    t.res = result_new(spec, &t.dev);
    int n = m->nargs;
    t.args = calloc((size_t)n + 1, sizeof(arg_state));
    t.argv = calloc((size_t)n + 1, sizeof(void *));
    t.counts = calloc((size_t)n + 1, sizeof(int64_t));
    t.scalars = calloc((size_t)n + 1, sizeof(value));
    t.vals = calloc((size_t)m->nparams + 1, sizeof(value));
    if (!t.res || !t.args || !t.argv || !t.counts || !t.scalars || !t.vals) {
        rc = CUTUNE_ENOMEM;
        goto done;
    }
    for (int i = 0; i < n; i++) {
        t.args[i].a = &m->args[i];
        t.args[i].type = data_type_of(m->args[i].type);
    }
    for (int k = 0; k < m->verify.noutputs; k++) {
        const m_arg *a = &m->args[m->verify.outputs[k]];
        t.args[m->verify.outputs[k]].verified = true;
        if (a->count->deps) {
            diag_error(&spec->diags, a->count->loc, "output '%s' is verified, so its size cannot depend on params "
                       "(each variant must be comparable with the reference)", a->name);
            rc = CUTUNE_ESPEC;
            goto done;
        }
    }
    t.ms.warmup = (int)m->measure.warmup;
    t.ms.min_reps = (int)m->measure.repeat;
    t.ms.max_reps = (int)m->measure.max_repeat;
    t.ms.spread = m->measure.spread;
    t.ms.flush_l2 = flush;
    t.ms.min_sample_ms = MIN_SAMPLE_MS;
    t.ms.prune = prune_now;
    t.ms.prune_ctx = &t;
    t.prune = opts->prune == 0 ? DEFAULT_PRUNE : opts->prune;
    cutune_analyze_options aopts;
    memset(&aopts, 0, sizeof aopts);
    aopts.arch = t.dev.arch;
    aopts.jobs = opts->jobs;
    aopts.cache_dir = opts->cache_dir;
    aopts.no_cache = opts->no_cache;
    aopts.limit = opts->limit;
    aopts.progress = opts->progress;
    aopts.progress_user = opts->progress_user;
    aopts.cancel = opts->cancel;
    t.stop = "";
    {
        cutune_space_size size;
        uint64_t count = cutune_space_count(spec, &size) == CUTUNE_OK ? size.valid : 0;
        if ((rc = api_search_settings(spec, &opts->search, count, &t.set)) < 0)
            goto done;
        if (t.set.strategy != STRAT_EXHAUSTIVE && !t.set.budget && opts->limit)
            t.set.budget = opts->limit; /* --limit N: at most N configurations, whatever the strategy */
    }
    /* The first worker runs the reference: a reference that fails is a spec problem,
     * found before anything else runs. */
    if ((rc = worker_start(&t)) < 0) {
        diag_error_noloc(&spec->diags, "%s", t.err);
        api_set_error("%s", t.err);
        rc = m->verify.present ? CUTUNE_ESPEC : rc;
        goto done;
    }
    const char *results = opts->results_path ? opts->results_path : m->emit.results_path;
    char journal_path[1100] = "";
    if (opts->journal_path)
        snprintf(journal_path, sizeof journal_path, "%s", opts->journal_path);
    else if (results)
        snprintf(journal_path, sizeof journal_path, "%s.journal", results);
    if (journal_path[0] && (rc = open_journal(&t, journal_path, flush)) < 0)
        goto done;
    cutune_analyze_summary asum;
    memset(&asum, 0, sizeof asum);
    t.started = sys_seconds();
    if (t.set.strategy == STRAT_EXHAUSTIVE) {
        rc = api_analyze(spec, &aopts, tune_each, &t, true, &asum);
        if (rc == CUTUNE_ESTOPPED)
            rc = t.status ? t.status : t.stop[0] ? CUTUNE_OK : rc;
        if (rc == CUTUNE_OK && t.journal && !asum.interrupted && !t.status)
            rc = read_back_rest(&t, &aopts, &asum);
    } else {
        aopts.limit = 0;
        rc = run_search(&t, &aopts, &asum);
    }
    {
        cutune_tune_summary *ss = &t.res->summary;
        snprintf(ss->strategy, sizeof ss->strategy, "%s", strategy_name(t.set.strategy));
        ss->seed = t.set.seed;
        ss->budget = t.set.budget;
        ss->time_limit_s = t.set.time_limit_s;
        ss->patience = t.set.patience;
        ss->evaluations = t.evaluations;
        snprintf(ss->stop_reason, sizeof ss->stop_reason, "%s", t.stop);
    }
    if (t.status == CUTUNE_EIO)
        diag_error_noloc(&spec->diags, "%s", t.err);
    if (t.status == CUTUNE_ENODEV || t.status == CUTUNE_ENOMEM) {
        diag_error_noloc(&spec->diags, "%s", t.err);
        api_set_error("%s", t.err);
    }
    cutune_tune_summary *s = &t.res->summary;
    s->compile_seconds = asum.compile_seconds;
    s->compile_wall_seconds = asum.wall_seconds;
    s->threads = asum.threads;
    s->compiled = asum.compiled;
    s->cached = asum.cached;
    s->interrupted = asum.interrupted;
    s->timeout_s = t.limit_s;
done:
    if (t.res) {
        t.res->summary.wall_seconds = sys_seconds() - t0;
        result_finish(t.res, flush, &m->measure);
        const char *path = opts->results_path ? opts->results_path : m->emit.results_path;
        if (path && t.res->n > 0) {
            if (cutune_tune_write_results(t.res, path) == CUTUNE_OK)
                snprintf(t.res->summary.results_path, sizeof t.res->summary.results_path, "%s", path);
            else if (rc == CUTUNE_OK) {
                diag_error_noloc(&spec->diags, "%s", cutune_last_error());
                rc = CUTUNE_EIO;
            }
        }
    }
    worker_end(&t, false, NULL, 0);
    journal_close(t.journal);
    free_args(&t);
    *out = t.res;
    return rc;
}
