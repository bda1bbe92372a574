/* cached.h - one compile job through the compile cache (runtime/cache.h).
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
 * Ownership: cache_compile's output is the caller's (compile_output_free). */
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

#endif
