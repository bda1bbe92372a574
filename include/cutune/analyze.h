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

/* cutune_analyze_sizes: cutune_analyze at each of the spec's problem sizes in turn
 * (cutune_spec_select_size; one analysis when it has no `size` statement), as a tuning
 * run goes over them: what `cutune SPEC` does without a GPU. `size`, when not NULL, is
 * called before size k's analysis with `sum` NULL, and after it with that analysis's
 * summary (also one that `each` stopped; not one that failed); non-zero from it stops the loop there
 * (CUTUNE_ESTOPPED). `each` and `user` as cutune_analyze's (`user` goes to both). The
 * loop also stops after a size whose analysis was interrupted or failed. *total: the
 * sizes' counts and seconds summed, the other fields the last size's, interrupted when
 * one was. The first size is selected again at the end (not after a size that could not
 * be selected). Returns CUTUNE_OK; cutune_spec_select_size's failure (CUTUNE_ESPEC: the
 * spec has an error at that size, a diagnostic); cutune_analyze's; CUTUNE_ESTOPPED;
 * CUTUNE_EINVAL for NULL arguments. */
typedef int (*cutune_size_fn)(void *user, int k, const cutune_analyze_summary *sum);
int cutune_analyze_sizes(cutune_analyze_summary *total, cutune_spec *spec, const cutune_analyze_options *opts,
                         cutune_size_fn size, int (*each)(void *user, const cutune_analysis *a), void *user);

/* cutune_analyze_verdict_text: when no variant of the analysis `sum` can run (none was
 * analysed, none compiled, or none that compiled can launch), the line that says so,
 * with the counts, for the caller to put after its name ("NOTHING COMPILED: none of the
 * 12 variants compiled for sm_90"); "" when some variant can run. In *out (free with
 * cutune_free). CUTUNE_OK, CUTUNE_EINVAL or CUTUNE_ENOMEM. */
int cutune_analyze_verdict_text(char **out, const cutune_analyze_summary *sum);

/* cutune_analysis_csv: one variant's analysis (as `each` receives it) as the CSV row
 * `cutune analyze --format csv` prints: cutune_variant_csv's columns, then compiled,
 * registers, static_smem, local_bytes, spill_stores, spill_loads, blocks_per_sm,
 * occupancy, limiter, launchable, why, compile_seconds, cached, duplicate; a NULL: the
 * header row. No line end. cutune_analysis_json: the compact JSON object `analyze
 * --format json` prints for it (docs/cli.md). In *out (free with cutune_free).
 * CUTUNE_OK; CUTUNE_EINVAL (NULL arguments); CUTUNE_ENOMEM. */
int cutune_analysis_csv(char **out, const cutune_spec *spec, const cutune_analysis *a);
int cutune_analysis_json(char **out, const cutune_spec *spec, const cutune_analysis *a);

/* ---- the tables `cutune list` and `cutune analyze` print ----------------------------- */

/* A table of one spec block's configurations, its lines as the CLI prints them: the index,
 * a column per param (as wide as its name and longest value), block, grid, dynamic shared
 * memory, and the kernel name when the first row's is a template instantiation; the
 * heading comes before the first row. It also counts the analyses given for
 * cutune_table_summary. It borrows the spec, which must outlive it. */
typedef struct cutune_table cutune_table;

/* cutune_table_new: a table of the block `spec` holds (loaded and valid) in *out; free
 * with cutune_table_free (NULL: a no-op). CUTUNE_OK; CUTUNE_EINVAL (NULL arguments, a
 * spec with errors); CUTUNE_ENOMEM. */
int cutune_table_new(cutune_table **out, const cutune_spec *spec);
void cutune_table_free(cutune_table *t);

/* cutune_table_variant: v (from cutune_configs_next) as the line `cutune list` prints:
 * the columns, then its -D macros and per-variant options; before the first, a line of
 * the common compile options (when there are any) and the heading. In *out (free with
 * cutune_free), each line ending in a line feed. CUTUNE_OK; CUTUNE_EINVAL (NULL
 * arguments); CUTUNE_ENOMEM. */
int cutune_table_variant(char **out, cutune_table *t, const cutune_variant *v);

/* cutune_table_analysis: counts `a` (as cutune_analyze's `each` receives it) for
 * cutune_table_summary and, with `out` non-NULL, makes its line as `cutune analyze`
 * prints it (the heading before the first): the columns, registers, static and local
 * memory, spill stores/loads, occupancy and limiter, the compile time ("cached",
 * "same"), and its status: "COMPILE ERROR: " and the log's first line, "CANNOT LAUNCH: "
 * and why, or "ok". Returns as cutune_table_variant. */
int cutune_table_analysis(char **out, cutune_table *t, const cutune_analysis *a);

/* cutune_table_summary: what `cutune analyze` says after the analysis `sum` of the
 * variants counted: the counts (compiled, from the cache, the same binary, failed,
 * cannot launch), the best theoretical occupancy and how many reach it, the device
 * attributes the spec reads, the cache, warnings, whether it was interrupted, and the
 * first compile failure's log. It begins with an empty line. In *out (free with
 * cutune_free). Returns as cutune_table_variant. */
int cutune_table_summary(char **out, const cutune_table *t, const cutune_analyze_summary *sum);

#ifdef __cplusplus
}
#endif

#endif
