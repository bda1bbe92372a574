/* pool.h - compile variants on all cores, results in order (or as they are ready).
 *
 * The caller's thread produces jobs (next) and consumes results (done), in the order
 * the jobs were produced, or with POOL_ANY_ORDER as they are ready (so one slow compile
 * holds up nothing behind it); worker threads look each job up in the cache and compile
 * it with NVRTC when it is not there. At most `window` jobs exist at once, so memory
 * stays bounded however large the space.
 *
 * NVRTC does not scale with threads in one process (16 threads of one process
 * compile 61 variants/s where 16 processes compile 173/s), so by default each thread
 * hands its compiles to a compile worker process of its own (runtime/worker's fork,
 * pipes and codec), one compile at a time. The cache stays in this process. Settings,
 * read from the environment at each pool_run:
 *   CUTUNE_COMPILE_WORKERS  "processes" (the default) or "threads" (NVRTC in this
 *                           process's threads, as before)
 *   CUTUNE_COMPILE_TIMEOUT  seconds one compile may take in a worker before it is
 *                           killed (default 300; the variant fails with the reason);
 *                           a value that is not a finite decimal above 0 and at most
 *                           1e6 is refused, the default kept, pool_stats.warning saying so
 * A worker that dies (a crash, an OOM kill) or is killed for its deadline makes that
 * variant a failed compile whose log says so (not cached), and is replaced for the
 * next job. When no worker can be started the pool compiles in-process and says so
 * in pool_stats.warning. */
#ifndef CUTUNE_RUNTIME_POOL_H
#define CUTUNE_RUNTIME_POOL_H

#include "cache.h"

typedef struct pool_job {
    compile_job job; /* its #include lines are read by the pool (runtime/includes) */
    bool skip;       /* deliver without compiling (e.g. a duplicate) */
    void *tag;       /* the producer's */
} pool_job;

enum { POOL_WAIT = 2 };

/* pool_run's flags. POOL_ANY_ORDER: deliver each job once it is done, the oldest done
 * first, not in production order; a skip job still waits for every job produced before
 * it (its result is one of theirs). Jobs start in production order either way. */
enum { POOL_ANY_ORDER = 1 };

typedef struct pool_hooks {
    /* next: fill *job; return 1, 0 when there are no more jobs, -1 to stop, or
     * POOL_WAIT when there is nothing to compile until a job in flight is delivered (a
     * search that needs outcomes before it proposes more): the pool asks again after
     * the next delivery, and takes POOL_WAIT with nothing in flight as the end. */
    int (*next)(void *ud, pool_job *job);
    /* done: the result of a job, in production order (see POOL_ANY_ORDER). `out` is the hook's to keep or
     * free (compile_output_free); `error` is non-NULL when NVRTC itself failed. Return 0
     * to go on, -1 to stop. */
    int (*done)(void *ud, pool_job *job, compile_output *out, const char *error);
    /* release: a job produced but never delivered because the run stopped early. */
    void (*release)(void *ud, pool_job *job);
} pool_hooks;

typedef struct pool_stats {
    uint64_t jobs;     /* delivered */
    uint64_t compiled; /* compiled by NVRTC in this run */
    uint64_t cached;   /* found in the cache */
    uint64_t failed;   /* kernels that did not compile */
    uint64_t skipped;
    double compile_seconds; /* NVRTC time summed over the jobs compiled in this run */
    double wall_seconds;
    uint64_t cache_errors;  /* entries that could not be written */
    char cache_error[256];  /* the first such error */
    bool processes;         /* compiled in worker processes (else in this process's threads) */
    uint64_t worker_losses; /* compile workers that died or were killed for their deadline */
    char warning[256];      /* why the pool fell back to threads, or refused CUTUNE_COMPILE_TIMEOUT ("" when
                                 neither) */
} pool_stats;

/* pool_run: runs until next() says there are no more jobs (or a hook stops it).
 * threads < 1 means one per core; at most `window` jobs are produced and not yet
 * delivered (at least 2 per thread); `flags`: POOL_ANY_ORDER or 0. `c` may be NULL (no
 * cache). Returns 0, or -1 with err_last set when a hook stopped the run or threads could not be
 * started. */
int pool_run(int threads, int window, unsigned flags, cache *c, const pool_hooks *hooks, void *ud, pool_stats *stats);

/* pool_default_threads: the number of cores this process may use. */
int pool_default_threads(void);

/* pool_set_child_hook: tests only. `hook` runs in each compile worker process before
 * each compile (e.g. to die on a marker in the source); NULL removes it. Not for use
 * while a pool runs. */
void pool_set_child_hook(void (*hook)(const compile_job *job));

#endif
