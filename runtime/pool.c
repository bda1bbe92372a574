/* pool.c - the compile pool (see pool.h). */
#define _GNU_SOURCE /* sched_getaffinity */
#include "pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "../base/sys.h"

enum { SLOT_EMPTY, SLOT_READY, SLOT_RUNNING, SLOT_DONE };

typedef struct slot {
    pool_job job;
    compile_output out;
    int state;
    bool failed;              /* NVRTC itself failed */
    char error[256];
} slot;

typedef struct pool {
    pthread_mutex_t lock;
    pthread_cond_t work, finished;
    slot *slots;
    uint64_t window;
    uint64_t produced, started;
    bool shutdown;
    cache *cache;
    pool_stats *stats;        /* cache_errors/cache_error, updated under lock */
} pool;

int pool_default_threads(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        return CPU_COUNT(&set) > 0 ? CPU_COUNT(&set) : 1;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* One job: the cache first, NVRTC on a miss, then the cache again. */
static void run_job(pool *p, slot *s)
{
    if (s->job.skip)
        return;
    cache_key key;
    char err[256];
    bool have_key = false;
    if (p->cache) {
        if (cache_key_for(&s->job.job, s->job.include_dirs, s->job.ninclude_dirs, &key, err, sizeof err) == 0)
            have_key = true;
        else
            snprintf(s->error, sizeof s->error, "%s", err); /* kept only if compiling fails too */
        if (have_key && cache_get(p->cache, &key, &s->out) == 1)
            return;
    }
    if (compile_run(&s->job.job, &s->out, s->error, sizeof s->error) < 0) {
        s->failed = true;
        return;
    }
    s->error[0] = '\0';
    if (have_key && cache_put(p->cache, &key, &s->out, err, sizeof err) < 0) {
        pthread_mutex_lock(&p->lock);
        if (p->stats->cache_errors++ == 0)
            snprintf(p->stats->cache_error, sizeof p->stats->cache_error, "%s", err);
        pthread_mutex_unlock(&p->lock);
    }
}

static void *worker(void *arg)
{
    pool *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->shutdown && p->started == p->produced)
            pthread_cond_wait(&p->work, &p->lock);
        if (p->shutdown)
            break;
        slot *s = &p->slots[p->started++ % p->window];
        s->state = SLOT_RUNNING;
        pthread_mutex_unlock(&p->lock);
        run_job(p, s);
        pthread_mutex_lock(&p->lock);
        s->state = SLOT_DONE;
        pthread_cond_broadcast(&p->finished);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

int pool_run(int threads, int window, cache *c, const pool_hooks *hooks, void *ud, pool_stats *stats, char *err,
             size_t errsize)
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
    p.cache = c;
    p.stats = stats;
    p.slots = calloc((size_t)window, sizeof(slot));
    pthread_t *tids = calloc((size_t)threads, sizeof(pthread_t));
    if (!p.slots || !tids) {
        free(p.slots);
        free(tids);
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    pthread_mutex_init(&p.lock, NULL);
    pthread_cond_init(&p.work, NULL);
    pthread_cond_init(&p.finished, NULL);
    int started_threads = 0, rc = 0;
    for (; started_threads < threads; started_threads++)
        if (pthread_create(&tids[started_threads], NULL, worker, &p) != 0)
            break;
    if (started_threads == 0) {
        snprintf(err, errsize, "cannot start compile threads");
        rc = -1;
    }
    uint64_t delivered = 0;
    bool no_more = rc < 0;
    pthread_mutex_lock(&p.lock);
    while (rc == 0) {
        /* Keep the window full. */
        while (!no_more && p.produced - delivered < p.window) {
            slot *s = &p.slots[p.produced % p.window];
            memset(s, 0, sizeof *s);
            pthread_mutex_unlock(&p.lock);
            int got = hooks->next(ud, &s->job);
            pthread_mutex_lock(&p.lock);
            if (got == 1) {
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
                    snprintf(err, errsize, "stopped while preparing variants");
                    rc = -1;
                }
            }
        }
        if (rc < 0 || delivered == p.produced)
            break;
        slot *s = &p.slots[delivered % p.window];
        while (s->state != SLOT_DONE)
            pthread_cond_wait(&p.finished, &p.lock);
        pthread_mutex_unlock(&p.lock);
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
            snprintf(err, errsize, "stopped");
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
    for (uint64_t i = delivered; i < p.produced; i++) {
        slot *s = &p.slots[i % p.window];
        compile_output_free(&s->out);
        if (hooks->release)
            hooks->release(ud, &s->job);
    }
    pthread_mutex_destroy(&p.lock);
    pthread_cond_destroy(&p.work);
    pthread_cond_destroy(&p.finished);
    free(p.slots);
    free(tids);
    stats->wall_seconds = sys_seconds() - t0;
    return rc;
}
