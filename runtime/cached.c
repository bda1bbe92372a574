/* cached.c - a compile job through the cache, and compiles ahead on threads (cached.h).
 *
 * Runs in whichever process calls it (the GPU worker's set-up, analyze's own_check,
 * the tests); safe from several threads at once: each call opens its own cache handle,
 * and NVRTC compiles programs on several threads (runtime/pool's threads do). */
#include "cached.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "../base/err.h"
#include "../base/sys.h"
#include "../base/trace.h"
#include "cache.h"
#include "includes.h"

/* The lock file of `key`'s entry, held (flock, exclusive) until close: -1 when it cannot
 * be made or taken (the compile then goes on unlocked: a second compile of the same key
 * costs time, never correctness, since entries are written whole). */
static int lock_entry(const cache *c, const cache_key *key)
{
    char dir[PATH_MAX], path[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/%.2s", cache_dir(c), key->hex);
    snprintf(path, sizeof path, "%s/%s.lock", dir, key->hex);
    if (sys_make_dirs(dir) < 0)
        return -1;
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
        return -1;
    while (flock(fd, LOCK_EX) < 0) {
        if (errno != EINTR) {
            close(fd);
            return -1;
        }
    }
    return fd;
}

int cache_compile(const char *dir, const compile_job *job, compile_output *out)
{
    cache *c = NULL;
    incl_set inc;
    memset(&inc, 0, sizeof inc);
    memset(out, 0, sizeof *out);
    trace_event('B', 0, job->name_expression, "compile through the cache");
    if (!dir || cache_open(&c, dir) < 0 ||
        incl_resolve(&inc, job->source_name, job->source, job->options, job->noptions) < 0) {
        incl_set_free(&inc);
        cache_close(c);
        int rc = incl_compile(job, out); /* which says why a file could not be read */
        trace_end("compile through the cache");
        return rc;
    }
    compile_job resolved = *job; /* as incl_compile hands it to NVRTC, and as the cache keys it */
    resolved.source = inc.source;
    resolved.header_names = (const char *const *)inc.names;
    resolved.header_texts = (const char *const *)inc.texts;
    resolved.nheaders = resolved.nheader_texts = inc.nheaders;
    cache_key key;
    bool keyed = cache_key_for(&resolved, &key) == 0;
    int rc = 0, lock = -1;
    if (keyed && cache_get(c, &key, out) == 1)
        goto done;
    if (keyed) {                  /* another process or thread may be compiling it: wait for its entry */
        compile_output_free(out); /* what a damaged entry left half read */
        trace_begin("wait for the entry's lock");
        lock = lock_entry(c, &key);
        trace_end("wait for the entry's lock");
        if (cache_get(c, &key, out) == 1)
            goto done;
        compile_output_free(out);
    }
    rc = compile_run(&resolved, out);
    if (rc == 0 && keyed && out->ok)
        (void)cache_put(c, &key, out); /* a cache that cannot be written costs only the next compile */
done:
    if (lock >= 0)
        close(lock); /* the lock goes with it */
    incl_set_free(&inc);
    cache_close(c);
    trace_event('E', 0, out->cached ? "from the cache" : NULL, "compile through the cache");
    return rc;
}

struct cache_ahead {
    const char *dir;
    const compile_job *jobs;
    int njobs;
    atomic_int next;     /* the next job to take */
    atomic_int compiled; /* compiled by NVRTC, not read */
    int nthreads;
    pthread_t threads[CACHE_AHEAD_MAX];
};

/* A thread's body: takes jobs until none is left. */
static void *ahead_thread(void *arg)
{
    cache_ahead *a = arg;
    for (int i; (i = atomic_fetch_add(&a->next, 1)) < a->njobs;) {
        compile_output out;
        if (cache_compile(a->dir, &a->jobs[i], &out) == 0 && !out.cached)
            atomic_fetch_add(&a->compiled, 1);
        compile_output_free(&out);
    }
    return NULL;
}

int cache_ahead_start(cache_ahead **out, const char *dir, const compile_job *jobs, int n)
{
    *out = NULL;
    if (!dir || n <= 0)
        return 0;
    cache_ahead *a = calloc(1, sizeof *a);
    if (!a) {
        err_set(-1, "out of memory");
        return -1;
    }
    a->dir = dir;
    a->jobs = jobs;
    a->njobs = n;
    atomic_init(&a->next, 0);
    atomic_init(&a->compiled, 0);
    int want = n < CACHE_AHEAD_MAX ? n : CACHE_AHEAD_MAX;
    while (a->nthreads < want && pthread_create(&a->threads[a->nthreads], NULL, ahead_thread, a) == 0)
        a->nthreads++;
    if (a->nthreads == 0) { /* no thread: the steps that need the kernels compile them */
        free(a);
        return 0;
    }
    *out = a;
    return 0;
}

int cache_ahead_wait(cache_ahead *a)
{
    if (!a)
        return 0;
    for (int i = 0; i < a->nthreads; i++)
        pthread_join(a->threads[i], NULL);
    int compiled = atomic_load(&a->compiled);
    free(a);
    return compiled;
}
