/* cache.h - a persistent cache of compiled variants, keyed by everything that
 * changes the binary: the source and the contents of every file it includes (the
 * compile job's in-memory headers), the options, the name expression, the
 * architecture and NVRTC's version.
 *
 * Safe for concurrent runs and against crashes: an entry is written to a temporary
 * file in the cache folder and renamed into place, so a reader sees a whole entry or
 * none. Entries carry a checksum over their metadata and cubin, and every field is
 * checked when read: a damaged, edited, torn or older-format entry is a miss (compiled
 * again and rewritten), never a hit (cache.c says what is checked). */
#ifndef CUTUNE_RUNTIME_CACHE_H
#define CUTUNE_RUNTIME_CACHE_H

#include "compile.h"

typedef struct cache_key {
    char hex[33]; /* 128-bit XXH3 digest in hex */
} cache_key;

/* cache_default_dir: $CUTUNE_CACHE_DIR, else $XDG_CACHE_HOME/cutune, else
 * $HOME/.cache/cutune, in full, as a heap string (caller frees); NULL when none of them
 * is set, or out of memory. */
char *cache_default_dir(void);

/* cache_key_for: the key of `job`: everything NVRTC is given, its in-memory headers
 * included (runtime/includes reads them); the source_name and options enter it as given
 * (they are NVRTC's input), so callers give canonical paths there. Returns 0, or -1
 * with err_last set when NVRTC's version cannot be had or memory runs out. */
int cache_key_for(const compile_job *job, cache_key *key);

typedef struct cache cache;

/* cache_open: a cache in folder `dir` (created if missing). Returns 0, or -1 with err_last set;
 * a folder whose path, with the entries' names under it, would pass PATH_MAX, or with a
 * name past NAME_MAX, is refused before anything is created. */
int cache_open(cache **out, const char *dir);

/* cache_close: releases the handle; NULL is a no-op. */
void cache_close(cache *c);

/* cache_dir: the cache's folder. */
const char *cache_dir(const cache *c);

/* cache_get: fills *out (heap storage; out->cached set) from the entry for `key`.
 * Returns 1 on a hit, 0 on a miss (including a damaged entry). */
int cache_get(cache *c, const cache_key *key, compile_output *out);

/* cache_put: stores `out` under `key`. Returns 0, or -1 with err_last set (the tuning goes on
 * without the cache; the caller decides whether to say so). */
int cache_put(cache *c, const cache_key *key, const compile_output *out);

#endif
