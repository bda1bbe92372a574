/* cached.h - one compile job through the compile cache (runtime/cache.h), and a few
 * compiled ahead on threads of their own.
 *
 * What cutune compiles for itself in a GPU worker's set-up (its fill, comparison and
 * checker kernels, a spec's reference, reset and checker kernels) goes through
 * cache_compile: keyed like every variant (the exact source and its headers, the
 * options, the architecture, NVRTC's version), so a changed kernel or NVRTC never
 * reads a stale cubin, and a damaged entry is compiled again, never trusted. Compiles
 * of one key in several processes or threads at once are made once: the first takes
 * the entry's lock file (<dir>/<key[0..2]>/<key>.lock, flock) and compiles, the others
 * wait for it and read its entry.
 *
 * cache_ahead starts such compiles on threads and returns at once: a worker compiles its
 * set-up's kernels while its main thread starts the driver, and the steps that need
 * them later find them in the cache.
 *
 * Ownership: cache_compile's output is the caller's (compile_output_free); a
 * cache_ahead owns its threads and copies nothing: the folder and the jobs given to it
 * must stay valid until cache_ahead_wait. */
#ifndef CUTUNE_RUNTIME_CACHED_H
#define CUTUNE_RUNTIME_CACHED_H

#include "compile.h"

/* cache_compile: incl_compile of `job` (runtime/includes.h) through the cache in folder
 * `dir`: the entry read when there is one (out->cached true), else compiled and stored
 * (a kernel that does not compile is never stored). dir NULL, or a folder that cannot be
 * opened, or a job that cannot be keyed: compiled as without a cache. Returns like
 * incl_compile: 0 (out->ok says whether the kernel compiled), or -1 with err_last set
 * when NVRTC itself failed. */
int cache_compile(const char *dir, const compile_job *job, compile_output *out);

typedef struct cache_ahead cache_ahead;

/* cache_ahead_start: compiles jobs[0..n) into the cache in `dir`, each on a thread of its
 * own (at most CACHE_AHEAD_MAX at once), while the caller goes on. *out is NULL when
 * there is nothing to do (dir NULL, n 0) or no thread could be started: the later
 * compiles then simply happen where they are needed. Returns 0, or -1 when out of
 * memory (*out NULL). */
enum { CACHE_AHEAD_MAX = 16 };
int cache_ahead_start(cache_ahead **out, const char *dir, const compile_job *jobs, int n);

/* cache_ahead_wait: waits for every compile `a` started and frees it; NULL is a no-op.
 * Returns how many were compiled by NVRTC (not read from the cache). A compile that
 * failed is not reported here: the step that needs the kernel compiles it again and says
 * why. */
int cache_ahead_wait(cache_ahead *a);

#endif
