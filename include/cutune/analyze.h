/* cutune/analyze.h - a part of cutune's public C API (cutune.h includes every part; its
 * opening comment gives the conventions, docs/api.md the guide).
 *
 * Static analysis: every variant compiled for an architecture, no GPU needed
 * (api/cutune_analyze.c). */
#ifndef CUTUNE_ANALYZE_H
#define CUTUNE_ANALYZE_H

#include <stddef.h>
#include <stdint.h>

#include "space.h"
#include "device.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- static analysis: compile every variant, no GPU needed --------------------------- */

typedef struct cutune_progress {
    uint64_t done, total; /* total is 0 when unknown */
    uint64_t compiled, cached, failed;
    double elapsed_seconds;
} cutune_progress;

/* The most compile threads a run takes (the jobs option): more is CUTUNE_EINVAL. */
#define CUTUNE_MAX_JOBS 256

#define CUTUNE_ANALYZE_OPTIONS_VERSION 1

typedef struct cutune_analyze_options {
    unsigned int version;  /* CUTUNE_ANALYZE_OPTIONS_VERSION (cutune/common.h, "Options") */
    const char *arch;      /* "sm_90"; NULL: the first GPU's, else sm_90 */
    int jobs;              /* compile threads, 0 to CUTUNE_MAX_JOBS; 0: one per core */
    const char *cache_dir; /* NULL: $CUTUNE_CACHE_DIR, $XDG_CACHE_HOME/cutune or ~/.cache/cutune */
    int no_cache;          /* 1: neither read nor write the cache */
    uint64_t limit;        /* analyse only the first N configurations (0: all) */
    /* When non-NULL and set to non-zero (e.g. by a signal handler), no new variant is
     * started; those already under way finish and are reported. */
    const volatile int *cancel;
    /* Called on the caller's thread after each variant (as often as that; throttle in
     * the callback). NULL: no progress. */
    void (*progress)(void *user, const cutune_progress *p);
    void *progress_user;
    /* A shard of the space: only shard shard_index of shard_count, the listing
     * ordinals in runs of the last param's value count dealt out in turn (ordinal / run %
     * shard_count == shard_index; ordinals stay those of the whole space). shard_count 0
     * or 1: the whole space. */
    int shard_index, shard_count;
} cutune_analyze_options;

/* Every field's default: the first GPU's architecture (else sm_90), a compile thread per
 * core, the default cache, every configuration, no cancel flag, no progress, the whole
 * space. */
#define CUTUNE_ANALYZE_OPTIONS_INIT \
    { \
        .version = CUTUNE_ANALYZE_OPTIONS_VERSION \
    }
int cutune_analyze_options_init(cutune_analyze_options *opts, unsigned int version);

typedef struct cutune_analysis {
    const cutune_variant *variant;
    int compiled;    /* 1: a cubin was produced */
    const char *log; /* the compiler's errors and warnings ("" when none) */
    int has_resources;
    int registers;                     /* per thread */
    int64_t static_smem;               /* bytes */
    int64_t local_bytes;               /* stack frame per thread (local memory, spills included) */
    int64_t spill_stores, spill_loads; /* bytes */
    int barriers;
    double compile_seconds;
    int cached;                 /* 1: from the cache (compile_seconds is the original compile's) */
    int duplicate;              /* 1: the same binary as an earlier variant (not compiled again) */
    cutune_occupancy occupancy; /* valid when has_resources */
    int launchable;             /* 0: it cannot run (see why) */
    const char *why;            /* why not launchable, or why it failed; NULL otherwise */
} cutune_analysis;

typedef struct cutune_analyze_summary {
    const char *arch; /* the architecture compiled for, "sm_90" (owned by the spec, as cache_dir) */
    uint64_t variants, compiled, cached, duplicates, failed, unlaunchable;
    double compile_seconds; /* NVRTC time summed over what was compiled in this run */
    double wall_seconds;
    int threads;
    /* cache_dir and cache_warning are owned by the spec analysed (its arena): valid until
     * cutune_spec_free, also after the summary is copied or goes out of scope. */
    const char *cache_dir;       /* the cache folder, in full; NULL when the cache is off */
    const char *cache_warning;   /* a problem with the cache (the analysis went on without it);
                                  NULL when none */
    int interrupted;             /* stopped early through `cancel` */
    const char *compile_warning; /* why NVRTC ran in this process's threads rather than in
                                  compile worker processes, or why CUTUNE_COMPILE_TIMEOUT was
                                  refused; NULL when neither (owned by the spec, as cache_dir) */
} cutune_analyze_summary;

/* cutune_analyze: compiles every valid configuration's variant for one architecture
 * (in parallel, through the cache) and calls `each` with its static resources and
 * theoretical occupancy, in listing order. A variant that fails to compile is reported
 * through `each` (compiled = 0, with its log) and the analysis goes on. `each` returns 0
 * to go on, non-zero to stop. Returns CUTUNE_OK; CUTUNE_EEVAL (a diagnostic on the
 * spec); CUTUNE_EIO when the kernel file cannot be read; CUTUNE_EINVAL for an
 * architecture NVRTC cannot target; CUTUNE_ECOMPILER when NVRTC itself fails;
 * CUTUNE_ESTOPPED when `each` stopped it. `opts` may be NULL (every default); another
 * version is CUTUNE_EINVAL. */
int cutune_analyze(cutune_analyze_summary *summary, cutune_spec *spec, const cutune_analyze_options *opts,
                   int (*each)(void *user, const cutune_analysis *a), void *user);

/* cutune_analysis_csv: one variant's analysis (as `each` receives it) as the CSV row
 * `cutune analyze --format csv` prints: cutune_variant_csv's columns, then compiled,
 * registers, static_smem, local_bytes, spill_stores, spill_loads, blocks_per_sm,
 * occupancy, limiter, launchable, why, compile_seconds, cached, duplicate; a NULL: the
 * header row. No line end. cutune_analysis_json: the compact JSON object `analyze
 * --format json` prints for it (docs/cli.md). In *out (free with cutune_free).
 * CUTUNE_OK; CUTUNE_EINVAL (NULL arguments); CUTUNE_ENOMEM. */
int cutune_analysis_csv(char **out, const cutune_spec *spec, const cutune_analysis *a);
int cutune_analysis_json(char **out, const cutune_spec *spec, const cutune_analysis *a);

#ifdef __cplusplus
}
#endif

#endif
