/* pool.c - the compile pool (see pool.h). */
#define _GNU_SOURCE /* sched_getaffinity */
#include "pool.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "../base/err.h"
#include "../base/sys.h"
#include "../base/trace.h"
#include "includes.h"
#include "worker.h"

enum { SLOT_EMPTY, SLOT_READY, SLOT_RUNNING, SLOT_DONE };

typedef struct slot {
    pool_job job;
    compile_output out;
    int state;
    uint64_t seq; /* its production number */
    bool failed;  /* NVRTC itself failed */
    char error[256];
} slot;

typedef struct pool {
    pthread_mutex_t lock;
    pthread_cond_t work, finished;
    slot *slots;
    uint64_t window;
    uint64_t produced;
    bool any_order; /* POOL_ANY_ORDER */
    bool shutdown;
    cache *cache;
    pool_stats *stats;   /* cache_errors/cache_error, worker_losses: under lock */
    bool processes;      /* compile in `workers` (else with compile_run here) */
    wk_proc *workers;    /* one per thread, pid 0 when none runs (started lazily) */
    double timeout_s;    /* one compile's deadline in a worker */
    incl_memo *includes; /* the files the jobs' #include lines reach, read once */
} pool;

/* The longest compile deadline CUTUNE_COMPILE_TIMEOUT sets, in seconds (11.6 days: a
 * wait's milliseconds fit an int; past it a deadline is no limit anyway). */
#define POOL_MAX_TIMEOUT_S 1e6

/* The settings from the environment (pool.h): worker processes or threads, and one
 * compile's deadline in a worker. A CUTUNE_COMPILE_TIMEOUT that is not a finite
 * decimal number of seconds above 0 and at most POOL_MAX_TIMEOUT_S (inf, nan, -5, 1e400,
 * "5x", hex) is refused: the default applies and `warning` (room: size) says so. */
static void pool_settings(bool *processes, double *timeout_s, char *warning, size_t size)
{
    const char *mode = getenv("CUTUNE_COMPILE_WORKERS");
    *processes = !(mode && strcmp(mode, "threads") == 0);
    *timeout_s = 300;
    const char *t = getenv("CUTUNE_COMPILE_TIMEOUT");
    if (!t || !*t)
        return;
    /* decimal only: strtod alone would take " 5", "0x10", "inf" and "nan" */
    size_t digits = strspn(t, "0123456789.eE+-");
    char *end;
    double v = digits == strlen(t) ? strtod(t, &end) : 0;
    if (digits == strlen(t) && *end == '\0' && v > 0 && v <= POOL_MAX_TIMEOUT_S) {
        *timeout_s = v;
        return;
    }
    char shown[40];
    size_t k = 0;
    for (const char *c = t; *c && k + 1 < sizeof shown; c++) /* what a terminal would act on: '?' */
        shown[k++] = (unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c;
    shown[k] = '\0';
    snprintf(warning, size,
             "CUTUNE_COMPILE_TIMEOUT='%s%s' is not a number of seconds above 0 and at most %.0f: "
             "the default, 300 s, applies",
             shown, t[k] ? "..." : "", POOL_MAX_TIMEOUT_S);
}

/* One worker thread's arguments: the pool and its index (its compile worker's). */
typedef struct thread_arg {
    pool *p;
    int index;
} thread_arg;

/* The slot in `state` produced first, or NULL (under the lock). The window is small
 * (a few jobs per thread): a scan is cheaper than keeping queues in step. */
static slot *oldest(pool *p, int state)
{
    slot *best = NULL;
    for (uint64_t i = 0; i < p->window; i++) {
        slot *s = &p->slots[i];
        if (s->state == state && (!best || s->seq < best->seq))
            best = s;
    }
    return best;
}

/* The next slot to deliver, or NULL while none may be (under the lock): in production
 * order, the oldest undelivered one once it is done; with any_order, the oldest done
 * one, except that a skip job waits for every job produced before it (it is delivered
 * with the result of one of them: a duplicate of an earlier binary). */
static slot *deliverable(pool *p)
{
    slot *first = NULL, *done = NULL;
    for (uint64_t i = 0; i < p->window; i++) {
        slot *s = &p->slots[i];
        if (s->state == SLOT_EMPTY)
            continue;
        if (!first || s->seq < first->seq)
            first = s;
        if (s->state == SLOT_DONE && !s->job.skip && (!done || s->seq < done->seq))
            done = s;
    }
    if (first && first->state == SLOT_DONE)
        return first;
    return p->any_order ? done : NULL;
}

static void (*child_hook)(const compile_job *job);

void pool_set_child_hook(void (*hook)(const compile_job *job))
{
    child_hook = hook;
}

int pool_default_threads(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        return CPU_COUNT(&set) > 0 ? CPU_COUNT(&set) : 1;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* What a trace event says of a compile job (base/trace.h): its kernel and its options
 * (the -D macros, -maxrregcount ...; not the include folders), cut to `size`. Called
 * only while tracing. */
static void job_detail(const compile_job *job, char *buf, size_t size)
{
    size_t at = 0;
    int n = snprintf(buf, size, "%s", job->name_expression ? job->name_expression : "?");
    at = n > 0 && (size_t)n < size ? (size_t)n : size - 1;
    for (int i = 0; i < job->noptions && at + 1 < size; i++) {
        if (strncmp(job->options[i], "-I", 2) == 0 || strncmp(job->options[i], "--include-path", 14) == 0)
            continue; /* the folders say nothing of the variant */
        n = snprintf(buf + at, size - at, " %s", job->options[i]);
        at = n > 0 && (size_t)n < size - at ? at + (size_t)n : size - 1;
    }
}

/* compile_run for `job` inside a "compile" span of the trace. */
static int traced_compile(const compile_job *job, compile_output *out)
{
    char detail[256];
    if (trace_on()) {
        job_detail(job, detail, sizeof detail);
        trace_event('B', 0, detail, "compile");
    }
    int rc = compile_run(job, out);
    trace_end("compile");
    return rc;
}

/* ---- compile worker processes ------------------------------------------------------ */

/* In the child: closes every descriptor but the standard ones and its two pipes, so
 * that no other worker's pipe (nor the GPU worker's, nor a cache file) stays open in
 * it: a pipe's reader must see EOF when its one writer closes it. */
static void close_other_fds(int keep1, int keep2)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d) {
        for (int fd = 3; fd < 1024; fd++)
            if (fd != keep1 && fd != keep2)
                close(fd);
        return;
    }
    int self = dirfd(d);
    struct dirent *e;
    int fds[256], n = 0;
    bool more = false;
    while ((e = readdir(d)) != NULL) {
        int fd = atoi(e->d_name);
        if (fd > 2 && fd != keep1 && fd != keep2 && fd != self) {
            if (n < 256)
                fds[n++] = fd;
            else
                more = true;
        }
    }
    closedir(d);
    for (int i = 0; i < n; i++)
        close(fds[i]);
    if (more) /* closed while listing would skip entries: list again */
        close_other_fds(keep1, keep2);
}

/* The compile worker's body (the child, forked by wk_start): reads compile jobs until
 * EOF, answers each with compile_run's result. Only this process's own memory is used:
 * the pool's lock and the cache are never touched here. 0 on EOF, 1 on a broken pipe
 * or an unreadable job. */
static int compile_worker_body(void *ctx, int in, int out)
{
    (void)ctx;
    close_other_fds(in, out);
    trace_reopen(); /* the trace file's descriptor was among those closed */
    trace_name_process("cutune: compile worker");
    sigset_t pipe_set;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_UNBLOCK, &pipe_set, NULL); /* the parent's thread blocked it */
    wk_frame f = WK_FRAME_INIT;
    arena *a = arena_new();
    int rc = a ? 0 : 1;
    while (rc == 0) {
        int got = wk_recv(in, &f, 0);
        if (got < 0)
            break; /* EOF: the pool is done */
        arena_reset(a);
        compile_job job;
        memset(&job, 0, sizeof job);
        if (wk_decode_compile_job(&f, a, &job) < 0) {
            rc = 1;
            break;
        }
        if (child_hook)
            child_hook(&job);
        wk_compiled answer;
        memset(&answer, 0, sizeof answer);
        answer.nvrtc_ran = traced_compile(&job, &answer.out) == 0;
        const err_info *why = err_last(); /* the parent sets it again from the answer */
        answer.error = answer.nvrtc_ran ? "" : why ? why->message : "NVRTC failed";
        wk_frame_reset(&f);
        wk_encode_compiled(&f, &answer);
        compile_output_free(&answer.out);
        if (wk_send(out, &f) < 0)
            rc = 1;
    }
    wk_frame_free(&f);
    arena_free(a);
    return rc;
}

/* Copies `n` bytes (a string when `nul`) to the heap; NULL when out of memory. */
static void *heap_copy(const void *src, size_t n, bool nul)
{
    char *d = malloc(n + (nul ? 1 : 0) + (n == 0));
    if (d) {
        if (n)
            memcpy(d, src, n);
        if (nul)
            d[n] = '\0';
    }
    return d;
}

/* Compiles `job` in compile worker `w` (started first when none runs). Returns like
 * compile_run; a worker that died or overran the deadline is an outcome (ok = false,
 * the reason as the log) with *keep_out_of_cache set, and is reaped (the next job
 * starts another); 1 when no worker could be started (the caller compiles here). */
static int compile_in_worker(pool *p, int w, const compile_job *job, compile_output *out, bool *keep_out_of_cache)
{
    memset(out, 0, sizeof *out);
    wk_proc *proc = &p->workers[w];
    char why[256];
    if (!proc->pid && wk_start(proc, compile_worker_body, NULL) < 0)
        return 1;
    double t0 = sys_seconds();
    wk_frame f = WK_FRAME_INIT;
    wk_encode_compile_job(&f, job);
    int rc = wk_exchange(proc, &f, p->timeout_s);
    arena *a = NULL;
    wk_compiled answer;
    memset(&answer, 0, sizeof answer);
    if (rc == 0) {
        a = arena_new();
        if (!a || wk_decode_compiled(&f, a, &answer) < 0)
            rc = -3;
    }
    wk_frame_free(&f);
    if (rc < 0) {
        /* Dead, hung or talking nonsense: kill it (no-op when dead), reap it, say why. */
        int status = wk_stop(proc, true);
        char how[128];
        wk_describe(status, how, sizeof how);
        if (rc == -2)
            snprintf(why, sizeof why,
                     "NVRTC ran past the compile deadline of %g s (CUTUNE_COMPILE_TIMEOUT); its worker was killed",
                     p->timeout_s);
        else if (rc == -3)
            snprintf(why, sizeof why, "the compile worker's answer could not be read; it was stopped (%s)", how);
        else
            snprintf(why, sizeof why, "the compile worker died while compiling this variant (%s)", how);
        arena_free(a);
        out->log = heap_copy(why, strlen(why), true);
        if (!out->log) {
            err_set(-1, "out of memory");
            return -1;
        }
        out->ok = false;
        out->seconds = sys_seconds() - t0;
        *keep_out_of_cache = true;
        pthread_mutex_lock(&p->lock);
        p->stats->worker_losses++;
        pthread_mutex_unlock(&p->lock);
        return 0;
    }
    if (!answer.nvrtc_ran) {
        err_set(-1, "%s", answer.error);
        arena_free(a);
        return -1;
    }
    *out = answer.out; /* the scalars; the storage is copied out of the arena below */
    out->cached = false;
    out->log = heap_copy(answer.out.log, strlen(answer.out.log), true);
    out->lowered_name =
        answer.out.ok ? heap_copy(answer.out.lowered_name, strlen(answer.out.lowered_name), true) : NULL;
    out->cubin = answer.out.ok ? heap_copy(answer.out.cubin, answer.out.cubin_size, false) : NULL;
    if (!answer.out.ok)
        out->cubin_size = 0;
    arena_free(a);
    if (!out->log || (answer.out.ok && (!out->lowered_name || !out->cubin))) {
        compile_output_free(out);
        err_set(-1, "out of memory");
        return -1;
    }
    return 0;
}

/* A variant whose #include lines cannot be followed (a FIFO, an unreadable file, a
 * chain too deep): a failed compile, the reason as its log, never cached. 0, or -1
 * when out of memory. */
static int refuse_includes(slot *s, const char *why)
{
    s->out.log = heap_copy(why, strlen(why), true);
    if (!s->out.log) {
        snprintf(s->error, sizeof s->error, "out of memory");
        return -1;
    }
    s->out.ok = false;
    return 0;
}

/* One job: its #include lines read (runtime/includes, through the run's memo), then
 * the cache, NVRTC on a miss (in worker `w`'s process, or here), then the cache again. */
static void run_job(pool *p, int w, slot *s)
{
    if (s->job.skip)
        return;
    incl_set own;
    const incl_set *inc = NULL;
    if (incl_memo_get(p->includes, s->job.job.source_name, s->job.job.source, s->job.job.options, s->job.job.noptions,
                      &own, &inc) < 0) {
        s->failed = refuse_includes(s, err_last() ? err_last()->message : "error") < 0;
        incl_set_free(&own);
        return;
    }
    compile_job job = s->job.job; /* the same job, as NVRTC is to see it */
    job.source = inc->source;
    job.header_names = (const char *const *)inc->names;
    job.header_texts = (const char *const *)inc->texts;
    job.nheaders = job.nheader_texts = inc->nheaders;
    cache_key key;
    bool have_key = false;
    if (p->cache) {
        if (cache_key_for(&job, &key) == 0)
            have_key = true;
        else
            snprintf(s->error, sizeof s->error, "%s", err_last() ? err_last()->message : "error");
        if (have_key && cache_get(p->cache, &key, &s->out) == 1) {
            if (trace_on()) {
                char detail[256];
                job_detail(&job, detail, sizeof detail);
                trace_instant("cache hit", detail);
            }
            incl_set_free(&own);
            return;
        }
    }
    bool keep_out = false;
    int rc = p->processes ? compile_in_worker(p, w, &job, &s->out, &keep_out) : 1;
    if (rc == 1) /* in this process: threads mode, or no worker could be started */
        rc = traced_compile(&job, &s->out);
    incl_set_free(&own);
    if (rc < 0) { /* the compile's message: the hook reads it from s->error, in its own thread */
        snprintf(s->error, sizeof s->error, "%s", err_last() ? err_last()->message : "error");
        s->failed = true;
        return;
    }
    s->error[0] = '\0';
    if (have_key && !keep_out && cache_put(p->cache, &key, &s->out) < 0) {
        pthread_mutex_lock(&p->lock);
        if (p->stats->cache_errors++ == 0)
            snprintf(p->stats->cache_error, sizeof p->stats->cache_error, "%s",
                     err_last() ? err_last()->message : "error");
        pthread_mutex_unlock(&p->lock);
    }
}

static void *worker(void *arg)
{
    pool *p = ((thread_arg *)arg)->p;
    int index = ((thread_arg *)arg)->index;
    /* A write to a compile worker that just died must fail with EPIPE, not kill the
     * process: SIGPIPE is thread-directed, so blocking it here is enough. */
    sigset_t pipe_set;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, NULL);
    pthread_mutex_lock(&p->lock);
    for (;;) {
        slot *s = NULL;
        while (!p->shutdown && !(s = oldest(p, SLOT_READY)))
            pthread_cond_wait(&p->work, &p->lock);
        if (p->shutdown)
            break;
        s->state = SLOT_RUNNING;
        pthread_mutex_unlock(&p->lock);
        run_job(p, index, s);
        pthread_mutex_lock(&p->lock);
        s->state = SLOT_DONE;
        pthread_cond_broadcast(&p->finished);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

int pool_run(int threads, int window, unsigned flags, cache *c, const pool_hooks *hooks, void *ud, pool_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    double t0 = sys_seconds();
    if (threads < 1)
        threads = pool_default_threads();
    if (window < threads * 2)
        window = threads * 2;
    pool p;
    memset(&p, 0, sizeof p);
    p.window = (uint64_t)window;
    p.any_order = (flags & POOL_ANY_ORDER) != 0;
    p.cache = c;
    p.stats = stats;
    p.slots = calloc((size_t)window, sizeof(slot));
    pthread_t *tids = calloc((size_t)threads, sizeof(pthread_t));
    thread_arg *args = calloc((size_t)threads, sizeof(thread_arg));
    p.workers = calloc((size_t)threads, sizeof(wk_proc));
    if (!p.slots || !tids || !args || !p.workers || incl_memo_new(&p.includes) < 0) {
        free(p.slots);
        free(tids);
        free(args);
        free(p.workers);
        incl_memo_free(p.includes);
        err_set(-1, "out of memory");
        return -1;
    }
    pool_settings(&p.processes, &p.timeout_s, stats->warning, sizeof stats->warning);
    if (p.processes) {
        /* Fork the workers now, before this pool's threads exist: the children start
         * from a process with one thread in it (a worker lost later is replaced from a
         * pool thread: docs/architecture.md says why that is safe). */
        char why[256] = "";
        int up = 0;
        for (int i = 0; i < threads; i++) {
            if (wk_start(&p.workers[i], compile_worker_body, NULL) == 0)
                up++;
            else if (err_last())
                snprintf(why, sizeof why, "%s", err_last()->message);
        }
        if (up == 0) {
            p.processes = false;
            size_t used = strlen(stats->warning);
            snprintf(stats->warning + used, sizeof stats->warning - used,
                     "%scompile worker processes could not be started (%s): compiling in %d thread(s) of this process",
                     used ? "; " : "", why, threads);
        }
    }
    stats->processes = p.processes;
    trace_event('i', 0, NULL, "compile pool started: %d %s", threads, p.processes ? "worker processes" : "threads");
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.work, NULL);
    pthread_cond_init(&p.finished, NULL);
    int started_threads = 0, rc = 0;
    for (; started_threads < threads; started_threads++) {
        args[started_threads] = (thread_arg){&p, started_threads};
        if (pthread_create(&tids[started_threads], NULL, worker, &args[started_threads]) != 0)
            break;
    }
    if (started_threads == 0) {
        err_set(-1, "cannot start compile threads");
        rc = -1;
    }
    uint64_t delivered = 0;
    bool no_more = rc < 0;
    pthread_mutex_lock(&p.lock);
    while (rc == 0) {
        /* Keep the window full. */
        while (!no_more && p.produced - delivered < p.window) {
            slot *s = oldest(&p, SLOT_EMPTY); /* one is empty: fewer than `window` are in flight */
            memset(s, 0, sizeof *s);
            s->seq = p.produced;
            pthread_mutex_unlock(&p.lock);
            int got = hooks->next(ud, &s->job);
            pthread_mutex_lock(&p.lock);
            if (got == 1) {
                if (p.produced == 0)
                    trace_instant("first job to the compile pool", NULL);
                s->state = SLOT_READY;
                p.produced++;
                pthread_cond_signal(&p.work);
            } else if (got == POOL_WAIT) {
                if (p.produced == delivered)
                    no_more = true; /* nothing in flight to wait for: the producer is done */
                break;              /* deliver what is in flight, then ask again */
            } else {
                no_more = true;
                if (got < 0) {
                    err_set(-1, "stopped while preparing variants");
                    rc = -1;
                }
            }
        }
        if (rc < 0 || delivered == p.produced)
            break;
        slot *s;
        while (!(s = deliverable(&p)))
            pthread_cond_wait(&p.finished, &p.lock);
        pthread_mutex_unlock(&p.lock);
        if (delivered == 0)
            trace_instant("first binary delivered", s->job.skip ? "skipped" : s->out.cached ? "from the cache" : NULL);
        if (s->job.skip)
            stats->skipped++;
        else if (s->failed)
            ; /* counted by the hook's handling of `error` */
        else if (s->out.cached)
            stats->cached++;
        else {
            stats->compiled++;
            stats->compile_seconds += s->out.seconds;
        }
        if (!s->job.skip && !s->failed && !s->out.ok)
            stats->failed++;
        stats->jobs++;
        int more = hooks->done(ud, &s->job, &s->out, s->failed ? s->error : NULL);
        memset(&s->out, 0, sizeof s->out); /* now the hook's */
        pthread_mutex_lock(&p.lock);
        s->state = SLOT_EMPTY;
        delivered++;
        if (more < 0) {
            err_set(-1, "stopped");
            rc = -1;
        }
    }
    /* Stop the workers (each finishes the job in hand), then release what was never
     * delivered. */
    p.shutdown = true;
    pthread_cond_broadcast(&p.work);
    pthread_mutex_unlock(&p.lock);
    for (int i = 0; i < started_threads; i++)
        pthread_join(tids[i], NULL);
    /* Every compile worker is idle now (or hung in a compile the run no longer wants):
     * kill and reap each, so that none is left a zombie and none can hold us up. */
    for (int i = 0; i < threads; i++)
        if (p.workers[i].pid)
            wk_stop(&p.workers[i], true);
    for (uint64_t i = 0; i < p.window; i++) {
        slot *s = &p.slots[i];
        if (s->state == SLOT_EMPTY)
            continue;
        compile_output_free(&s->out);
        if (hooks->release)
            hooks->release(ud, &s->job);
    }
    pthread_mutex_destroy(&p.lock);
    pthread_cond_destroy(&p.work);
    pthread_cond_destroy(&p.finished);
    free(p.slots);
    free(tids);
    free(args);
    free(p.workers);
    incl_memo_free(p.includes);
    stats->wall_seconds = sys_seconds() - t0;
    return rc;
}
