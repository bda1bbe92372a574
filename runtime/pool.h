/* pool.h - compile variants on all cores, results in order.
 *
 * The caller's thread produces jobs (next) and consumes results (done), in the order
 * the jobs were produced; worker threads look each job up in the cache and compile
 * it with NVRTC when it is not there. At most `window` jobs exist at once, so memory
 * stays bounded however large the space. */
#ifndef CUTUNE_RUNTIME_POOL_H
#define CUTUNE_RUNTIME_POOL_H

#include "cache.h"

typedef struct pool_job {
    compile_job job;
    const char *const *include_dirs;  /* where its #includes are looked up (cache key) */
    int ninclude_dirs;
    bool skip;                        /* deliver without compiling (e.g. a duplicate) */
    void *tag;                        /* the producer's */
} pool_job;

enum { POOL_WAIT = 2 };

typedef struct pool_hooks {
    /* next: fill *job; return 1, 0 when there are no more jobs, -1 to stop, or
     * POOL_WAIT when there is nothing to compile until a job in flight is delivered (a
     * search that needs outcomes before it proposes more): the pool asks again after
     * the next delivery, and takes POOL_WAIT with nothing in flight as the end. */
    int (*next)(void *ud, pool_job *job);
    /* done: the result of a job, in production order. `out` is the hook's to keep or
     * free (compile_output_free); `error` is non-NULL when NVRTC itself failed. Return 0
     * to go on, -1 to stop. */
    int (*done)(void *ud, pool_job *job, compile_output *out, const char *error);
    /* release: a job produced but never delivered because the run stopped early. */
    void (*release)(void *ud, pool_job *job);
} pool_hooks;

typedef struct pool_stats {
    uint64_t jobs;            /* delivered */
    uint64_t compiled;        /* compiled by NVRTC in this run */
    uint64_t cached;          /* found in the cache */
    uint64_t failed;          /* kernels that did not compile */
    uint64_t skipped;
    double compile_seconds;   /* NVRTC time summed over the jobs compiled in this run */
    double wall_seconds;
    uint64_t cache_errors;    /* entries that could not be written */
    char cache_error[256];    /* the first such error */
} pool_stats;

/* pool_run: runs until next() says there are no more jobs (or a hook stops it).
 * threads < 1 means one per core. `c` may be NULL (no cache). Returns 0, or -1 with err
 * when a hook stopped the run or threads could not be started. */
int pool_run(int threads, int window, cache *c, const pool_hooks *hooks, void *ud, pool_stats *stats, char *err,
             size_t errsize);

/* pool_default_threads: the number of cores this process may use. */
int pool_default_threads(void);

#endif
