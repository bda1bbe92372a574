/* cutune.h - the public C API of cutune, a CUDA kernel autotuner.
 *
 * Everything the `cutune` command does goes through this header. Conventions
 * (after libgit2): objects are opaque; a function that hands something back through a
 * pointer takes that pointer first (`int cutune_x(out, args...)`; a buffer as `buf, size`
 * first), constructors included (`cutune_x_new(&out, ...)`), and destructors
 * `cutune_x_free(x)` accept NULL; functions that can fail return an
 * int status (CUTUNE_OK or a negative cutune_status); the library never prints and
 * never exits. Problems with a spec are recorded as diagnostics on the spec object
 * (file:line:col, source excerpt, message) and can be rendered as text.
 *
 * Thread safety: different cutune_spec objects may be used from different threads at
 * once; one object must not be used from two threads at the same time. */
#ifndef CUTUNE_H
#define CUTUNE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CUTUNE_VERSION_MAJOR 0
#define CUTUNE_VERSION_MINOR 1
#define CUTUNE_VERSION_PATCH 0

/* cutune_version: the library's version, "MAJOR.MINOR.PATCH". */
const char *cutune_version(void);

typedef enum cutune_status {
    CUTUNE_OK = 0,
    CUTUNE_ESPEC = -1,   /* the spec is invalid: see the spec's diagnostics */
    CUTUNE_EIO = -2,     /* a file could not be read or written (a diagnostic says which) */
    CUTUNE_ENOMEM = -3,  /* out of memory */
    CUTUNE_EINVAL = -4,  /* an invalid argument to an API call */
    CUTUNE_EEVAL = -5,   /* an expression of the spec failed for some configuration (a diagnostic says where) */
    CUTUNE_ENODEV = -6,  /* no CUDA driver or GPU (cutune_last_error says which) */
    CUTUNE_ECOMPILER = -7, /* NVRTC itself failed (not a kernel's compile error) */
    CUTUNE_ESTOPPED = -8 /* a callback asked to stop */
} cutune_status;

/* cutune_status_text: a short description of a status ("spec has errors", ...). */
const char *cutune_status_text(int status);

/* ---- loading a spec ---------------------------------------------------------- */

typedef struct cutune_spec cutune_spec;

typedef struct cutune_load_options {
    /* Overrides of the spec's `let` constants, as "NAME=VALUE" strings (VALUE is read as
     * an int, a float, true/false, or else a string), e.g. {"nx=4096", "ny=4096"}. */
    const char *const *set;
    int nset;
    /* For cutune_spec_load_string: the folder relative paths in the spec are resolved
     * against (NULL: the current directory). Ignored by cutune_spec_load_file, which uses
     * the spec file's own folder. */
    const char *base_dir;
    /* Non-zero: do not require the kernel file and include folders to exist. */
    int skip_file_checks;
    /* The device whose attributes (sm_count, warp_size, ...) the spec's expressions read:
     * `device` when given (e.g. from cutune_device_get), else the assumed values of the
     * architecture `arch` ("sm_90"; NULL: sm_90). Tuning and analysing check the spec
     * again with the GPU's or the analysed architecture's values when they differ. */
    const char *arch;
    const struct cutune_device *device;
} cutune_load_options;

/* cutune_spec_load_file: reads, parses and checks the spec at `path`. On CUTUNE_OK,
 * CUTUNE_ESPEC and CUTUNE_EIO, *out is a spec object whose diagnostics say what went
 * wrong (free it with cutune_spec_free); only on CUTUNE_ENOMEM or CUTUNE_EINVAL is *out
 * NULL. `opts` may be NULL. */
int cutune_spec_load_file(cutune_spec **out, const char *path, const cutune_load_options *opts);

/* cutune_spec_load_string: as cutune_spec_load_file, for a spec held in memory; `name`
 * is how diagnostics refer to it (e.g. "<string>"). */
int cutune_spec_load_string(cutune_spec **out, const char *name, const char *text, size_t len,
                            const cutune_load_options *opts);

/* cutune_spec_free: releases the spec and everything obtained from it; NULL is a no-op. */
void cutune_spec_free(cutune_spec *spec);

/* ---- device attributes a spec reads (sm_count, warp_size, ...; docs/language.md) ---- */

/* cutune_device_attr_count / cutune_device_attr_name: the attributes, by index
 * (0 .. count-1), as specs spell them; NULL for an index out of range. */
int cutune_device_attr_count(void);
const char *cutune_device_attr_name(int i);

/* cutune_spec_device_attr_value: the value attribute `i` had when the spec was (last)
 * checked; cutune_spec_device_attr_used: 1 when the spec's expressions read it. */
long long cutune_spec_device_attr_value(const cutune_spec *spec, int i);
int cutune_spec_device_attr_used(const cutune_spec *spec, int i);

/* cutune_spec_device_assumed: 1 when those values come from an architecture's table
 * (no GPU was read), 0 when from a GPU's driver. cutune_spec_device_source: where they
 * come from, e.g. "sm_90 table: H100 SXM5 (others: H100 PCIe: 114, ...)" or
 * "GPU 0: NVIDIA H100 80GB HBM3" (owned by the spec). */
int cutune_spec_device_assumed(const cutune_spec *spec);
const char *cutune_spec_device_source(const cutune_spec *spec);

/* cutune_spec_set_device: the device attributes become `dev`'s (as cutune_device_get
 * gives them); a spec that reads one whose value changes is checked again. CUTUNE_OK;
 * CUTUNE_ESPEC when it has errors with these values (diagnostics on the spec);
 * CUTUNE_EINVAL for NULL arguments or a spec with errors. cutune_tune does this itself
 * with the GPU it tunes on, cutune_analyze with the architecture it compiles for. */
int cutune_spec_set_device(cutune_spec *spec, const struct cutune_device *dev);

/* cutune_spec_ok: 1 when the spec loaded without errors (warnings allowed), else 0. */
int cutune_spec_ok(const cutune_spec *spec);

/* cutune_spec_error_count / cutune_spec_warning_count: diagnostics recorded so far. */
int cutune_spec_error_count(const cutune_spec *spec);
int cutune_spec_warning_count(const cutune_spec *spec);

/* cutune_spec_diagnostic_count: how many diagnostics (errors, warnings and notes) are
 * recorded; later calls (counting, listing) may add more. */
int cutune_spec_diagnostic_count(const cutune_spec *spec);

/* cutune_spec_diagnostics: the diagnostics from index `from` on, rendered as text
 * ("path:line:col: error: ...", the source line, a caret line), with ANSI colours when
 * `color` is non-zero. The string is owned by the spec and valid until the next call of
 * this function or cutune_spec_free. Returns "" when there are none; NULL only when out
 * of memory. */
const char *cutune_spec_diagnostics(cutune_spec *spec, int from, int color);

/* ---- what the spec says ------------------------------------------------------- */
/* These are valid only for a spec that loaded without errors (cutune_spec_ok). */

const char *cutune_spec_path(const cutune_spec *spec);
const char *cutune_spec_kernel(const cutune_spec *spec);       /* the kernel's name */
const char *cutune_spec_kernel_file(const cutune_spec *spec);  /* resolved path */
const char *cutune_spec_strategy(const cutune_spec *spec);     /* "exhaustive", "random", ... */
int cutune_spec_constraint_count(const cutune_spec *spec);

int cutune_spec_param_count(const cutune_spec *spec);
const char *cutune_spec_param_name(const cutune_spec *spec, int i);
/* How param i reaches the variant: "define", "template", "option", "maxrregcount",
 * "smem" or "none". */
const char *cutune_spec_param_route(const cutune_spec *spec, int i);
/* The type of param i's values: "int", "float", "bool" or "string". */
const char *cutune_spec_param_type(const cutune_spec *spec, int i);
uint64_t cutune_spec_param_value_count(const cutune_spec *spec, int i);
/* cutune_spec_param_value: value k of param i as text (as the spec would write it,
 * strings unquoted), written to buf (NUL-terminated, truncated to size). Returns the
 * full length, or CUTUNE_EINVAL for an index out of range. */
int cutune_spec_param_value(char *buf, size_t size, const cutune_spec *spec, int i, uint64_t k);

/* ---- several kernels in one spec file (docs/language.md, "Several kernels") ----------- */
/* A spec file may hold several kernel blocks; the spec holds one at a time (the first,
 * until another is selected), and everything that reads the spec sees that one.
 * cutune_spec_kernel_count: the blocks (1 for most files); cutune_spec_kernel_selected:
 * the one held; cutune_spec_select_kernel: hold block i from now on (at the size it
 * held: its first at first). CUTUNE_OK or CUTUNE_EINVAL. Iterators and analyses made
 * before must not be used after it. */
int cutune_spec_kernel_count(const cutune_spec *spec);
int cutune_spec_kernel_selected(const cutune_spec *spec);
int cutune_spec_select_kernel(cutune_spec *spec, int i);

/* ---- problem sizes (the spec's `size` statement; docs/language.md) ------------------- */
/* A spec may be tuned over several problem sizes: `size n in [1 << 20, 1 << 24];` or
 * `size (nx, ny) in [(1024, 1024), (4096, 8192)];`. Each size variable is a let; the
 * spec holds one size at a time (the first, until another is selected), and everything
 * that reads the spec (count, list, analyze, the default header) sees that size. */

/* cutune_spec_size_count: how many sizes (1 without a size statement); after --set
 * picked some, those. */
int cutune_spec_size_count(const cutune_spec *spec);
/* cutune_spec_size_var_count / cutune_spec_size_var: the size variables (0 / NULL
 * without a size statement or for j out of range). */
int cutune_spec_size_var_count(const cutune_spec *spec);
const char *cutune_spec_size_var(const cutune_spec *spec, int j);
/* cutune_spec_size_value: size k's value of variable j (a positive int); 0 out of range. */
int64_t cutune_spec_size_value(const cutune_spec *spec, int k, int j);
/* cutune_spec_size_selected: the size the spec holds now (0 without a size statement). */
int cutune_spec_size_selected(const cutune_spec *spec);
/* cutune_spec_select_size: the spec holds size k from now on (the spec is checked again
 * with its values, once per size). CUTUNE_OK; CUTUNE_EINVAL (k out of range);
 * CUTUNE_ESPEC when the spec has an error at that size only (a diagnostic, with a note
 * naming the size); CUTUNE_ENOMEM. Iterators and analyses of the spec made before must
 * not be used after it. */
int cutune_spec_select_size(cutune_spec *spec, int k);

/* ---- the space ------------------------------------------------------------------ */

typedef struct cutune_space_size {
    uint64_t raw;          /* combinations before constraints */
    uint64_t valid;        /* configurations satisfying every constraint (an estimate when
                              valid_estimated) */
    int raw_saturated;     /* raw is at least UINT64_MAX */
    int valid_saturated;
    /* A space too large to count exactly within the time bound (5 s, docs/language.md):
     * valid is then estimated from `samples` uniformly random combinations, and
     * valid_at_least is a lower bound (what was counted before stopping). */
    int valid_estimated;
    uint64_t valid_at_least;
    uint64_t samples;
} cutune_space_size;

/* cutune_progress_fn: told the share of a long job done so far (0 to 1, roughly);
 * returning nonzero stops the job early (counting then gives its estimate). */
typedef int (*cutune_progress_fn)(void *user, double done);

/* cutune_space_count: counts the space without listing it: exactly when that takes
 * at most the time bound, else an estimate with a lower bound (valid_estimated). Returns
 * CUTUNE_OK; CUTUNE_ESPEC when no configuration is valid (a diagnostic then points at
 * the constraint that empties the space); CUTUNE_EEVAL when a constraint fails to
 * evaluate for some configuration (a diagnostic says where and for which values). *out
 * is filled in all three cases (valid = 0 on errors). */
int cutune_space_count(cutune_space_size *out, cutune_spec *spec);

/* cutune_space_count_progress: cutune_space_count, calling `progress` (when not NULL)
 * with `user` now and then while it counts. */
int cutune_space_count_progress(cutune_space_size *out, cutune_spec *spec, cutune_progress_fn progress, void *user);

/* A configuration and the variant it becomes. Every pointer is owned by the iterator
 * and valid until the next cutune_configs_next or cutune_configs_free. */
typedef struct cutune_variant {
    uint64_t ordinal;                 /* 0, 1, 2 ... in listing order */
    int nparams;
    const char *const *values;        /* each param's value as text */
    const char *types;                /* each param's type: 'i', 'f', 'b' or 's' */
    int64_t block[3], grid[3];        /* unused dimensions are 1 */
    int block_dims, grid_dims;
    int64_t smem_bytes;               /* dynamic shared memory */
    const char *const *defines;       /* "-DNAME=value" */
    int ndefines;
    const char *const *options;       /* compile options: common ones, then per-variant */
    int noptions;
    int ncommon_options;
    const char *name_expression;      /* "kernel" or "kernel<...>" */
} cutune_variant;

typedef struct cutune_configs cutune_configs;

/* cutune_configs_new: an iterator over the valid configurations in declaration order
 * (the last param varies fastest). The spec must be ok and must outlive it. */
int cutune_configs_new(cutune_configs **out, cutune_spec *spec);

/* cutune_configs_next: the next configuration in *out. Returns 1 when there is one, 0
 * at the end, or a negative status (CUTUNE_EEVAL with a diagnostic on the spec). */
int cutune_configs_next(const cutune_variant **out, cutune_configs *it);

/* cutune_configs_free: releases the iterator; NULL is a no-op. */
void cutune_configs_free(cutune_configs *it);

/* ---- errors ---------------------------------------------------------------------- */

/* A failed call returns a negative status; what went wrong is kept, per thread, in one
 * error object: set where the failure was found, given context on its way up, never
 * replaced by a vaguer message (libgit2's manner). A call on a spec also records a
 * diagnostic on the spec, with its place; the error object holds the same text where
 * there is no spec to hold it (devices, occupancy, results files). */
typedef struct cutune_error {
    int code;                  /* the status the failed call returned */
    const char *message;       /* never empty */
} cutune_error;

/* cutune_error_last: the calling thread's last error, or NULL when none has been set.
 * Valid until the thread's next call into the library. Calls do not clear it: read it
 * after a call returned an error, and trust it when its code is that call's status
 * (a failure recorded only as a spec diagnostic may leave an earlier error here). */
const cutune_error *cutune_error_last(void);

/* cutune_last_error: cutune_error_last's message, or "" when there is none. */
const char *cutune_last_error(void);

/* ---- occupancy --------------------------------------------------------------------- */

typedef struct cutune_occupancy {
    char arch[16];             /* "sm_90" */
    int blocks_per_sm;
    int active_warps;
    int max_warps;
    double occupancy;          /* active_warps / max_warps, 0..1 */
    const char *limiter;       /* "warps", "blocks", "registers", "shared memory", "barriers" */
    int by_warps, by_blocks, by_registers, by_shared_memory; /* blocks per SM each allows (INT32_MAX: no limit) */
    int regs_per_block;        /* allocated */
    int64_t smem_per_block;    /* allocated, with the system's reserve */
    const char *unlaunchable;  /* why no block fits (NULL when one does) */
} cutune_occupancy;

/* cutune_occupancy_for_arch: theoretical occupancy of a block of `threads` threads using
 * `regs` registers each and `smem_bytes` of shared memory (static + dynamic) on `arch`
 * ("sm_90", "9.0"...), assuming the kernel opts in to the architecture's largest shared
 * memory per block. Returns CUTUNE_OK, or CUTUNE_EINVAL (unknown architecture, bad
 * figures; see cutune_last_error). A block that cannot run is not an error: it gets
 * blocks_per_sm = 0 and a reason. */
int cutune_occupancy_for_arch(cutune_occupancy *out, const char *arch, int regs, int threads, int64_t smem_bytes);

/* cutune_arch_list: the architectures the occupancy model knows, NULL-terminated. */
const char *const *cutune_arch_list(void);

/* cutune_strategy_list: the search strategies' names ("exhaustive", "random", ...),
 * NULL-terminated; the strings are static. */
const char *const *cutune_strategy_list(void);

/* ---- devices ---------------------------------------------------------------------- */

typedef struct cutune_device { /* also `struct cutune_device` (cutune_load_options) */
    int ordinal;
    char name[256];            /* the driver bounds a device's name at 256 bytes (cuDeviceGetName) */
    char arch[16];             /* "sm_90" */
    int cc;                    /* 90 */
    int sm_count;
    int max_threads_per_sm, max_blocks_per_sm, regs_per_sm;
    int smem_per_sm, smem_per_block_optin, smem_reserved_per_block;
    int l2_bytes;
    int driver_version;        /* 13000 for CUDA 13.0 */
    /* Also readable in a spec's expressions (docs/language.md, device attributes). */
    int warp_size, max_threads_per_block, regs_per_block, smem_per_block;
} cutune_device;

/* cutune_device_count: how many GPUs the CUDA driver sees. Returns CUTUNE_OK, or
 * CUTUNE_ENODEV when there is no driver or it cannot start (cutune_last_error says
 * why: e.g. no libcuda.so.1 on a machine without a GPU). The driver is asked once per
 * process, in a child process (this one never initialises CUDA), of every GPU at once;
 * its answer is kept for this call, cutune_device_get and the rest of the process (a
 * failure is asked again). Thread-safe. */
int cutune_device_count(int *count);

/* cutune_device_get: the attributes of GPU `ordinal` (of the first 64), from the answer
 * cutune_device_count describes. CUTUNE_OK, CUTUNE_ENODEV, or CUTUNE_EINVAL for an
 * ordinal out of range. */
int cutune_device_get(cutune_device *out, int ordinal);

/* cutune_device_same_model: 1 when a and b are of one model (name, architecture, SM
 * count), so that one result may hold both's times (issue 19); 0 otherwise. */
int cutune_device_same_model(const cutune_device *a, const cutune_device *b);

/* cutune_occupancy_for_device: as cutune_occupancy_for_arch, with the device's own
 * figures as its driver reports them. */
int cutune_occupancy_for_device(cutune_occupancy *out, int ordinal, int regs, int threads, int64_t smem_bytes);

/* ---- static analysis: compile every variant, no GPU needed --------------------------- */

typedef struct cutune_progress {
    uint64_t done, total;      /* total is 0 when unknown */
    uint64_t compiled, cached, failed;
    double elapsed_seconds;
} cutune_progress;

/* The most compile threads a run takes (the jobs option): more is CUTUNE_EINVAL. */
#define CUTUNE_MAX_JOBS 256

typedef struct cutune_analyze_options {
    const char *arch;          /* "sm_90"; NULL: the first GPU's, else sm_90 */
    int jobs;                  /* compile threads, 0 to CUTUNE_MAX_JOBS; 0: one per core */
    const char *cache_dir;     /* NULL: $CUTUNE_CACHE_DIR, $XDG_CACHE_HOME/cutune or ~/.cache/cutune */
    int no_cache;              /* 1: neither read nor write the cache */
    uint64_t limit;            /* analyse only the first N configurations (0: all) */
    /* When non-NULL and set to non-zero (e.g. by a signal handler), no new variant is
     * started; those already under way finish and are reported. */
    const volatile int *cancel;
    /* Called on the caller's thread after each variant (as often as that; throttle in
     * the callback). NULL: no progress. */
    void (*progress)(void *user, const cutune_progress *p);
    void *progress_user;
    /* A shard of the space (issue 19): only shard shard_index of shard_count, the listing
     * ordinals in runs of the last param's value count dealt out in turn (ordinal / run %
     * shard_count == shard_index; ordinals stay those of the whole space). shard_count 0
     * or 1: the whole space. */
    int shard_index, shard_count;
} cutune_analyze_options;

typedef struct cutune_analysis {
    const cutune_variant *variant;
    int compiled;              /* 1: a cubin was produced */
    const char *log;           /* the compiler's errors and warnings ("" when none) */
    int has_resources;
    int registers;             /* per thread */
    int64_t static_smem;       /* bytes */
    int64_t local_bytes;       /* stack frame per thread (local memory, spills included) */
    int64_t spill_stores, spill_loads; /* bytes */
    int barriers;
    double compile_seconds;
    int cached;                /* 1: from the cache (compile_seconds is the original compile's) */
    int duplicate;             /* 1: the same binary as an earlier variant (not compiled again) */
    cutune_occupancy occupancy; /* valid when has_resources */
    int launchable;            /* 0: it cannot run (see why) */
    const char *why;           /* why not launchable, or why it failed; NULL otherwise */
} cutune_analysis;

typedef struct cutune_analyze_summary {
    char arch[16];
    uint64_t variants, compiled, cached, duplicates, failed, unlaunchable;
    double compile_seconds;    /* NVRTC time summed over what was compiled in this run */
    double wall_seconds;
    int threads;
    /* cache_dir and cache_warning are owned by the spec analysed (its arena): valid until
     * cutune_spec_free, also after the summary is copied or goes out of scope. */
    const char *cache_dir;     /* the cache folder, in full; NULL when the cache is off */
    const char *cache_warning; /* a problem with the cache (the analysis went on without it);
                                  NULL when none */
    int interrupted;           /* stopped early through `cancel` */
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
 * CUTUNE_ESTOPPED when `each` stopped it. */
int cutune_analyze(cutune_analyze_summary *summary, cutune_spec *spec, const cutune_analyze_options *opts,
                   int (*each)(void *user, const cutune_analysis *a), void *user);

/* ---- tuning: compile, run, verify and time every variant on a GPU ------------------ */

/* Overrides of the spec's `search` statement (docs/search.md). A zero field (strategy
 * NULL, has_seed 0) leaves the spec's setting in force. */
typedef struct cutune_search_options {
    const char *strategy;      /* "exhaustive", "random", "anneal", "genetic", "local", "guided", "auto";
                                  NULL: the spec's search, or auto when a budget is given here and the
                                  spec has no search statement */
    uint64_t budget;           /* the most evaluations */
    double budget_percent;     /* the most evaluations as a percentage of the valid space (0 < P <= 100);
                                  used when budget is 0 */
    double time_s;             /* the most time, in seconds */
    uint64_t patience;         /* stop after this many evaluations without improvement */
    int has_seed;
    uint64_t seed;
    /* Results files of earlier runs of the same kernel (another GPU, another problem
     * size: --prior), borrowed: the auto strategy starts from their best configurations
     * and learns how far they predict this run (docs/search.md). 0 files: none. */
    const char *const *priors;
    int npriors;
} cutune_search_options;

typedef struct cutune_tune_options {
    int device;                /* GPU ordinal */
    int jobs;                  /* compile threads, 0 to CUTUNE_MAX_JOBS; 0: one per core */
    const char *cache_dir;     /* as for cutune_analyze */
    int no_cache;
    uint64_t limit;            /* tune only the first N configurations (0: all) */
    int flush_l2;              /* -1: as the spec's measure(flush_l2 = ...) says; 0: off; 1: on */
    double prune;              /* stop timing a variant whose objective is worse than the best so far by
                                  this factor (on its checked run already; docs/results-format.md's
                                  race); 0: the default (1.5); < 0: never stop early */
    const char *results_path;  /* write the results JSON here (NULL: the spec's emit results, else none) */
    const volatile int *cancel; /* as for cutune_analyze: set to stop after the variant in hand */
    /* The journal: every outcome is appended and synced as soon as it exists, and a run
     * of the same spec (text, --set, kernel source) on the same device resumes from it.
     * NULL: the results path with ".journal" appended, or no journal when there is no
     * results path. */
    const char *journal_path;
    int fresh;                 /* 1: discard an existing journal instead of resuming it */
    double timeout_s;          /* a variant's time limit in the GPU worker (a hang is killed); 0: the spec's
                                  measure(timeout = ...), else derived from the reference's time (>= 10 s) */
    /* Called on the caller's thread after each variant is done (as often as that). */
    void (*progress)(void *user, const cutune_progress *p);
    void *progress_user;
    /* The search: strategy, seed and budgets (each unset field: the spec's `search`). */
    cutune_search_options search;
    int energy;                /* 1: measure every variant timed in full for energy too, as the spec's
                                  measure(energy = true) asks (issue 18); 0: as the spec says */
    int run_twins;             /* 1: run every variant; 0: a variant whose machine code, launch and
                                  arguments equal those of one already run is not run again: it shares
                                  that one's outcome and times (cutune_measurement.same_code_as) */
    /* A spec with several problem sizes (`size`) is tuned at each in turn, each with its
     * own journal (the journal path with the size: "x.json.n=4096.journal"), into one
     * result (cutune_tune_size_count). 1: tune only the size the spec has selected
     * (cutune_spec_select_size). */
    int one_size;
    /* Hardware counters (issue 18): after timing (and the final race), the best
     * `profile_top` variants that ran ok are launched once more under CUPTI's range
     * profiler (a separate, untimed run; cutune_measurement.hw). -1: every variant that ran
     * ok; 0: none. profile_metrics: the counters' names (CUPTI's, as Nsight Compute names
     * them), NULL: cutune_profile_default_metrics. */
    int profile_top;
    const char *const *profile_metrics;
    int nprofile_metrics;
    /* A shard of the space (issue 19; as cutune_analyze_options'): the search runs over
     * the configurations whose listing ordinal / run % shard_count == shard_index, the run
     * the last param's value count (a space too large to list: the raw position), with a
     * journal identity of its own; the
     * results record the shard (settings.shard) and cutune_results_merge joins the
     * shards' files into the one-process result. shard_count 0 or 1: the whole space. */
    int shard_index, shard_count;
    /* Several GPUs of this host at once (issue 19): ndevices > 1 GPUs, by ordinal (at most
     * CUTUNE_MAX_DEVICES; `device` is then not read). A GPU worker per GPU, each with its
     * own reference; the one compile pool feeds them all and each variant is measured
     * on whichever GPU is free, into one result and one journal (a resumed run may use
     * other GPUs). The GPUs must be of one model (name, architecture, SM count; else
     * CUTUNE_EINVAL: tune on each, cutune --per-device). The first GPU runs the final race
     * and the profiling, so the winner is chosen on one GPU's times; the others time the
     * race's contenders too, for cutune_tune_summary.spread. 0 or 1: `device` alone. */
    const int *devices;
    int ndevices;
} cutune_tune_options;

#define CUTUNE_MAX_DEVICES 16

/* How a GPU's times compare with the first GPU's for the same variants (issue 19): each
 * of the variants timed in full on both (the final race's contenders, and a few the
 * first GPU timed in full during the run: docs/scale-out.md), its median time here over
 * its median time on the first GPU. */
typedef struct cutune_device_spread {
    int device;                /* the GPU's ordinal */
    int variants;              /* how many variants were compared (0: none) */
    double median, lo, hi;     /* the ratios' median, least and greatest */
} cutune_device_spread;

/* One variant's outcome. */
typedef struct cutune_measurement {
    const cutune_variant *variant;
    const char *status;        /* "ok", "wrong", "compile error", "cannot launch", "load error",
                                  "launch error", "not run" */
    const char *reason;        /* what went wrong, NULL when ok */
    int registers;             /* per thread, as the driver reports them (ptxas's when not loaded) */
    int64_t static_smem, local_bytes, spill_stores, spill_loads;
    double occupancy;          /* theoretical, 0..1 */
    const char *limiter;
    int blocks_per_sm;         /* the model's */
    int driver_blocks_per_sm;  /* the driver's own answer for the launch (-1 when not loaded) */
    int timed;                 /* 1 when timed */
    double median_ms, min_ms, max_ms, q1_ms, q3_ms;
    double spread;             /* (q3 - q1) / median */
    int reps;                  /* timed repetitions */
    int batch;                 /* launches per event pair */
    int pruned;                /* timing stopped early: clearly worse than the best so far */
    double objective;          /* the objective's value at the median time */
    int nmetrics;
    const char *const *metric_names;
    const double *metrics;     /* each metric at the median time */
    int verified;              /* 1: the outputs were compared with the reference and agreed */
    double max_abs_error;
    double compile_seconds;
    int cached, duplicate;
    double gpu_seconds;        /* time the GPU thread spent on it: arguments, load, checked run,
                                  verification and timing */
    double timing_seconds;     /* of which timing (warm-ups and repetitions) */
    int resumed;               /* 1: read back from the journal of an earlier, interrupted run */
    int launches;              /* every launch of the variant on the GPU: the checked run, warm-ups and
                                  timing (1: pruned on its checked run; 0: never launched, or not known:
                                  a journal written before launches were counted) */
    int provisional;           /* 1: timed only far enough to know it contends for the win (a few
                                  warm samples); the end of the run times every contender near
                                  the best in full. A provisional variant never wins. */
    /* Energy (issue 18; measure(energy = true) or cutune --energy): for a variant timed in
     * full, the GPU's energy counter (NVML) read around a window of back-to-back launches
     * (docs/results-format.md says how). */
    int energy;                /* 1: measured */
    double energy_j;           /* per launch, joules, the whole board's (NaN: not measured) */
    double power_w;            /* mean board power over the window, watts (NaN: not measured) */
    double energy_seconds;     /* the window's length */
    int energy_launches;       /* launches in the window (not counted in `launches`) */
    const char *energy_note;   /* why it was not measured when it was asked for; NULL otherwise */
    double started_seconds;    /* when it was first sent to the GPU worker, in seconds from the run's
                                  start (as summary.first_variant_seconds); 0: not run by this run */
    int device;                /* the GPU (ordinal) that measured it, when the run used several
                                  (issue 19; results files say "gpu"); -1: not known or not run */
    int64_t same_code_as;      /* >= 0: not run: its machine code, resources, launch geometry and
                                  arguments are those of the variant with this ordinal, measured
                                  in this run, whose outcome and times it shares (its metrics and
                                  objective are its own, for its own values); -1: run itself */
    /* Hardware counters (issue 18; cutune_tune_options.profile_top): read in a profiled
     * launch of their own after timing, never part of the times. */
    int profiled;              /* 1: hw holds what was read */
    int nhw;                   /* the run's counters, named by hw_names (cutune_tune_profile_metric's) */
    const char *const *hw_names;
    const double *hw;          /* each counter's value, NaN where not read; NULL when nhw is 0 */
    int profile_passes;        /* the replays the counters took */
    const char *profile_note;  /* why a variant chosen for profiling has no counters; NULL otherwise */
} cutune_measurement;

typedef struct cutune_tune_summary {
    char device_name[256];
    char arch[16];
    int sm_count;
    int driver_version;
    uint64_t variants, timed, wrong, failed, unlaunchable, pruned;
    int64_t best;              /* index of the chosen variant among the results, -1 when none */
    int maximize;
    char objective_name[128];  /* "time" or the metric's name */
    double wall_seconds;       /* the whole run */
    double compile_seconds;    /* NVRTC time summed over the binaries compiled in this run */
    double compile_wall_seconds;
    double gpu_seconds;        /* the GPU thread's time over all variants (the reference included) */
    double timing_seconds;     /* of which warm-ups and timed repetitions */
    int threads;
    uint64_t compiled, cached;
    /* results_path, reference and journal_path are owned by the result: valid until
     * cutune_tune_result_free. Paths are given in full, however long. */
    const char *results_path;  /* where the results were written (NULL when not written) */
    const char *reference;     /* what outputs were checked against (NULL when not verified) */
    int interrupted;           /* stopped early through `cancel`: the results cover part of the space */
    uint64_t resumed;          /* outcomes read back from the journal, not run again */
    uint64_t twins;            /* variants not run: the same code and launch as one measured (same_code_as) */
    uint64_t journal_ignored;  /* journal lines not trusted (out of range, malformed): run again */
    double timeout_s;          /* the per-variant time limit that applied */
    const char *journal_path;  /* the journal, in full (NULL when there is none) */
    /* The search (docs/search.md): what ran and what it used. */
    char strategy[16];
    uint64_t seed;
    uint64_t budget;           /* 0: no limit */
    double time_limit_s;       /* 0: no limit */
    uint64_t patience;         /* 0: never */
    uint64_t evaluations;      /* configurations the search asked for and this run measured */
    uint64_t screened;         /* skipped on static information (guided), or failing by their compile
                                  alone (guided, auto): not evaluations */
    char stop_reason[32];      /* "budget", "time", "patience", "space exhausted", "strategy finished", or
                                  "" (exhaustive ran to its end, or was interrupted) */
    double first_variant_seconds; /* when the first variant was sent to the GPU worker, in seconds from the
                                  run's start (the tuner's set-up, after the device query); 0: none ran */
    /* Hardware counters (issue 18; cutune_tune_options.profile_top). */
    uint64_t profiled;         /* variants whose counters were read (twins that took their run's included) */
    double profile_seconds;    /* the profiling phase's wall time */
    char profile_note[512];    /* why none could be read (no CUPTI, no permission); "" otherwise */
    /* Several GPUs at once (issue 19; cutune_tune_options.devices): which, and how the
     * others' times compare with the first's (spread[0] is the first's own: unused). */
    int ndevices;              /* 0: one GPU (device_name's) */
    int devices[CUTUNE_MAX_DEVICES];
    cutune_device_spread spread[CUTUNE_MAX_DEVICES];
    /* Why journal_ignored lines were not trusted: "line 3: a NUL byte at column 23: a
     * damaged record; ..." (the first few; docs/results-format.md, "The journal"); NULL
     * when none was. Owned by the result, as journal_path. */
    const char *journal_ignored_why;
    /* As cutune_analyze_summary's, for the compiles of this run: a problem with the cache
     * (the run went on without it: "cache off: ...") and a compile pool's fallback or a
     * refused CUTUNE_COMPILE_TIMEOUT; NULL when none. Owned by the result. */
    const char *cache_warning;
    const char *compile_warning;
} cutune_tune_summary;

typedef struct cutune_tune_result cutune_tune_result;

/* cutune_tune: tunes `spec` on a GPU: compiles every valid configuration's variant (in
 * parallel, ahead of the GPU), skips what cannot launch, runs each once with poisoned
 * outputs and compares them with the reference, times the correct ones (warm-ups,
 * repetitions until the spread is small, L2 flushed between repetitions), and picks the
 * best by the objective. *out holds every variant's outcome (free it with
 * cutune_tune_result_free); it is set whenever the run got as far as the GPU, also when
 * it stopped early. Returns CUTUNE_OK; CUTUNE_ENODEV (no GPU: see cutune_last_error);
 * CUTUNE_ESPEC / CUTUNE_EEVAL (a diagnostic on the spec); CUTUNE_ECOMPILER; or
 * CUTUNE_EIO when the results file cannot be written. */
int cutune_tune(cutune_tune_result **out, cutune_spec *spec, const cutune_tune_options *opts);

/* cutune_tune_summary_of / cutune_tune_count / cutune_tune_at: what the run found. */
const cutune_tune_summary *cutune_tune_summary_of(const cutune_tune_result *r);
uint64_t cutune_tune_count(const cutune_tune_result *r);
const cutune_measurement *cutune_tune_at(const cutune_tune_result *r, uint64_t i);

/* cutune_tune_write_results: the results as JSON (docs/results-format.md) to `path`.
 * CUTUNE_OK or CUTUNE_EIO (see cutune_last_error). */
int cutune_tune_write_results(const cutune_tune_result *r, const char *path);

/* A run over several problem sizes: one result per size, each a complete result (every
 * accessor works on it; its winner is that size's). The run's own result holds every
 * size's measurements too (cutune_tune_count / cutune_tune_at, in size order), and no
 * winner of its own (summary.best is -1). cutune_tune_size_count: the sizes (0 for a
 * run without); cutune_tune_size: size k's result, owned by r (NULL out of range);
 * cutune_tune_size_var_count / cutune_tune_size_var: the size variables (of the run's
 * result or a size's); cutune_tune_size_value: a size's result's value of variable j (0
 * when r is not a size's result). cutune_tune_size_of: the index of the size a
 * measurement of r belongs to (-1 when none). */
int cutune_tune_size_count(const cutune_tune_result *r);
const cutune_tune_result *cutune_tune_size(const cutune_tune_result *r, int k);
int cutune_tune_size_var_count(const cutune_tune_result *r);
const char *cutune_tune_size_var(const cutune_tune_result *r, int j);
int64_t cutune_tune_size_value(const cutune_tune_result *r, int j);
int cutune_tune_size_of(const cutune_tune_result *r, uint64_t i);

/* Hardware counters (issue 18). cutune_tune_profile_count / cutune_tune_profile_metric:
 * the counters the run read (cutune_tune_options.profile_top; each measurement's hw
 * holds their values), 0 / NULL when none. cutune_profile_default_metrics: the default
 * set (the seeds' nvprof table in CUPTI's names; *names static), its count returned;
 * cutune_profile_nvprof_name: the nvprof metric a default one stands for, NULL for any
 * other. cutune_profile_chip: CUPTI's chip name for an architecture (NULL: unknown; NULL
 * arch: sm_90). cutune_profile_list: every base metric of that chip, with its kind
 * ("counter", "ratio", "throughput"), through CUPTI's host API (no GPU needed);
 * CUTUNE_OK, CUTUNE_EINVAL (an unknown architecture) or CUTUNE_ENODEV (CUPTI cannot be
 * used: cutune_last_error says why). */
int cutune_tune_profile_count(const cutune_tune_result *r);
const char *cutune_tune_profile_metric(const cutune_tune_result *r, int i);
int cutune_profile_default_metrics(const char *const **names);
const char *cutune_profile_nvprof_name(const char *metric);
const char *cutune_profile_chip(const char *arch);
int cutune_profile_list(const char *arch, void (*each)(void *user, const char *name, const char *kind), void *user);
/* cutune_profile_check: whether CUPTI can read counters `names` (n) on that chip (no
 * GPU needed): CUTUNE_OK; CUTUNE_EINVAL naming the first unknown or refused one
 * (SASS-patched metrics, smsp__sass_*, which the range profiler cannot read), or an
 * unknown architecture; CUTUNE_ENODEV when CUPTI cannot be used (cutune_last_error). */
int cutune_profile_check(const char *arch, const char *const *names, int n);

/* cutune_tune_result_free: NULL is a no-op. */
void cutune_tune_result_free(cutune_tune_result *r);

/* ---- stored results: reading them back; the header, CSV and T4 made of them --------- */
/* None of these needs a GPU. */

/* cutune_results_load: reads a results file (format cutune-results, version 1:
 * docs/results-format.md) into *out, a result like the one cutune_tune gives: every
 * cutune_tune_* accessor works on it; free it with cutune_tune_result_free. Returns
 * CUTUNE_OK; CUTUNE_EIO when the file cannot be read, is not JSON, is not a cutune
 * results file or is of a later version (cutune_last_error says which); CUTUNE_ENOMEM;
 * CUTUNE_EINVAL for NULL arguments. *out is NULL on failure. */
int cutune_results_load(cutune_tune_result **out, const char *path);

/* cutune_results_merge (issue 19): the shards of a run split over processes or GPUs
 * (`cutune SPEC --shard i/N`), the n results files at `paths`, as one result: what one
 * process tuning the same configurations would have given (every entry once, in
 * ordinal order; the counts recounted; the winner picked again; docs/results-format.md,
 * "Shards and merging"); write it with cutune_tune_write_results. Every shard of the
 * split must be given, unless `partial` is non-zero: the result then records the shards
 * it holds (cutune_tune_shard_holds). Returns CUTUNE_OK; CUTUNE_EIO (a file cannot be
 * read or is not a results file); CUTUNE_EINVAL (the files do not go together: not of
 * the same spec, device model or measurement settings, not shards of one split, a shard
 * missing or given twice, a configuration in two files, a run over problem sizes: see
 * cutune_last_error); CUTUNE_ENOMEM. *out is NULL on failure. */
int cutune_results_merge(cutune_tune_result **out, const char *const *paths, int n, int partial);

/* cutune_tune_shard_count: the number of shards of the split r is part of (a shard, or a
 * partial merge of shards), 0 when r is neither. cutune_tune_shard_holds: whether r
 * holds the configurations of shard i (those whose ordinal / block % count == i). */
int cutune_tune_shard_count(const cutune_tune_result *r);
int cutune_tune_shard_holds(const cutune_tune_result *r, int i);

/* cutune_tune_best: the winning measurement (the summary's best), or NULL when no
 * variant ran correctly. */
const cutune_measurement *cutune_tune_best(const cutune_tune_result *r);

/* What a result is about, as recorded: the spec's path (canonical when tuned; for a
 * loaded results file, the recorded spec's file when it is found, wherever the caller's
 * working folder is: a relative recorded path is looked for beside the results file and
 * in the folders above it; else the path as recorded), the
 * kernel's name, the date of the run (UTC, "2026-11-22T04:13:19Z"), the params (names
 * and types: "int", "float", "bool", "string"; NULL for an index out of range) and the
 * device (name, arch, cc, sm_count, l2_bytes, driver_version). */
const char *cutune_tune_spec_path(const cutune_tune_result *r);
const char *cutune_tune_kernel(const cutune_tune_result *r);
const char *cutune_tune_date(const cutune_tune_result *r);
int cutune_tune_param_count(const cutune_tune_result *r);
const char *cutune_tune_param_name(const cutune_tune_result *r, int i);
const char *cutune_tune_param_type(const cutune_tune_result *r, int i);
const cutune_device *cutune_tune_device(const cutune_tune_result *r);

/* cutune_spec_emit_path: where the spec's `emit KIND "PATH"` asks for output ("header",
 * "results" or "csv"), resolved against the spec's folder; NULL when it does not, and
 * NULL when the path leaves the spec's folder (absolute, or climbing out with "..")
 * outside the folder cutune_spec_set_emit_dir allowed: a spec must not write where it
 * likes (cutune_spec_emit_refused says why). */
const char *cutune_spec_emit_path(const cutune_spec *spec, const char *kind);

/* cutune_spec_emit_refused: why the spec's emit KIND path is not written (its place in
 * the spec, the path, and what would allow it), or NULL when it may be written or the
 * spec has none. The text is owned by the spec (valid until the next call). */
const char *cutune_spec_emit_refused(const cutune_spec *spec, const char *kind);

/* cutune_spec_set_emit_dir: allows the spec's emit paths that leave its folder to
 * write into `dir` or below it (a folder that exists; NULL allows none again). An
 * application sets it from what its user named, never from the spec. CUTUNE_OK, or
 * CUTUNE_EINVAL when `dir` is not a folder. */
int cutune_spec_set_emit_dir(cutune_spec *spec, const char *dir);

typedef struct cutune_header_options {
    const char *prefix;            /* names' prefix; NULL: the spec's `emit header ... prefix`, else the
                                      kernel's name upper-cased */
    const char *const *sources;    /* NULL, or what to call each results file in the comment */
    const char *file_name;         /* NULL, or the header's own name for its first line */
} cutune_header_options;

/* cutune_emit_header: the best-config header (docs/header.md) as a NUL-terminated string
 * in *out (free it with cutune_free). With nresults >= 1: the winners of results[0 ..
 * nresults), one entry per device; entry 0 is the default of the look-up and the one
 * the plain macros hold. `spec` may then be NULL (no functions of the problem size);
 * when given it must be of the same kernel and params. With nresults == 0: the spec's
 * default configuration (each param's default, else its first value), marked not
 * tuned. `opts` may be NULL. Returns CUTUNE_OK; CUTUNE_EINVAL (a result has no winner,
 * results or spec of different kernels or params, two results of one device (and
 * problem size), a name the header cannot define or two of its names that clash:
 * cutune_last_error says which); CUTUNE_ESPEC (the default configuration violates a
 * `require`: a diagnostic on the spec names it); CUTUNE_EEVAL (a diagnostic on the
 * spec); CUTUNE_ENOMEM. */
int cutune_emit_header(char **out, cutune_spec *spec, const cutune_tune_result *const *results, int nresults,
                       const cutune_header_options *opts);

/* Names across the headers of one file. Several kernel blocks' headers may be written
 * one after the other into one file; each defines macros, functions and types with its
 * prefix, and two can meet: with the prefixes K and K_A, K's param a_x and K_A's param
 * x both make the macro K_A_X (docs/header.md, "Names"). cutune_emit_header refuses a
 * clash within one header; a cutune_header_names set refuses one across headers. Make
 * it with cutune_header_names_new (CUTUNE_OK or CUTUNE_ENOMEM), free it with
 * cutune_header_names_free (NULL is a no-op). */
typedef struct cutune_header_names cutune_header_names;
int cutune_header_names_new(cutune_header_names **out);
void cutune_header_names_free(cutune_header_names *names);

/* cutune_header_names_claim: the names the header cutune_emit_header would make of the
 * same arguments, checked against the headers claimed before it in `names` and then
 * added. Claim each header of a file before writing it. CUTUNE_OK; CUTUNE_EINVAL when
 * a name clashes (cutune_last_error names both sides; `names` is unchanged) or for the
 * reasons cutune_emit_header gives; its other errors. */
int cutune_header_names_claim(cutune_header_names *names, cutune_spec *spec, const cutune_tune_result *const *results,
                              int nresults, const cutune_header_options *opts);

/* cutune_emit_csv: every variant of `r` as one CSV row (RFC 4180; the columns are in
 * docs/results-format.md), in *out (free with cutune_free). CUTUNE_OK or CUTUNE_ENOMEM. */
int cutune_emit_csv(char **out, const cutune_tune_result *r);

/* cutune_emit_t4: `r` in Kernel Tuner's T4 results format (JSON, schema version 1.0.0;
 * the mapping is in docs/results-format.md), in *out (free with cutune_free).
 * CUTUNE_OK or CUTUNE_ENOMEM. */
int cutune_emit_t4(char **out, const cutune_tune_result *r);

typedef struct cutune_report_options {
    const char *const *names;      /* NULL, or what to call each result on the page (e.g. its file's path);
                                      NULL entries and NULL: the results path it was read from */
    const char *title;             /* the page's title; NULL: "cutune report" */
} cutune_report_options;

/* cutune_emit_report: results[0 .. nresults) (nresults >= 1) as one self-contained HTML
 * page (docs/report.md): the winner beside the median variant, heatmaps of the objective
 * over pairs of params, the objective against occupancy and registers, its
 * distribution, each param's effect, failures by cause, a search's best so far, and
 * several results side by side; a section per problem size. Charts are inline SVG;
 * nothing is fetched. The same results give the same bytes. In *out (free with
 * cutune_free). `opts` may be NULL. Returns CUTUNE_OK; CUTUNE_EINVAL (no output or no
 * results); CUTUNE_ENOMEM. */
int cutune_emit_report(char **out, const cutune_tune_result *const *results, int nresults,
                       const cutune_report_options *opts);

/* cutune_free: releases a string the library returned; NULL is a no-op. */
void cutune_free(void *p);

/* ---- simulation: a search replayed over a recorded exhaustive run ------------------ */

typedef struct cutune_simulate_options {
    cutune_search_options search; /* strategy, budget, seed... as for tuning */
    int repeat;                /* runs, with seeds seed, seed + 1, ... (0: 1) */
    int threads;               /* compile threads of the simulated host, ahead of its one GPU (0: 16) */
} cutune_simulate_options;

/* One simulated run. */
typedef struct cutune_sim_run {
    uint64_t seed;
    uint64_t evaluations;      /* configurations evaluated (taken from the recording) */
    uint64_t screened;         /* skipped on static information (guided), or failing by their compile
                                  alone (guided, auto): not evaluations */
    int found;                 /* 0: no configuration evaluated ran correctly */
    double best;               /* the best objective found */
    uint64_t best_index;       /* its configuration's index (as `cutune list` numbers it) */
    uint64_t best_at;          /* the evaluation that found it (1-based) */
    double ratio;              /* how close to the true best: best/true (maximise) or true/best
                                  (minimise); 1 is the optimum, 0 when nothing was found */
    double seconds;            /* the simulated wall: the recorded compile seconds on `threads` compile
                                  threads and the GPU seconds on one GPU, pipelined as the tuner runs them */
    char stop_reason[32];
    double bound_seconds;      /* the least wall that work allows: max(compile seconds / threads, GPU
                                  seconds) of what it evaluated */
} cutune_sim_run;

typedef struct cutune_sim_report {
    char strategy[16];
    uint64_t seed, budget, patience;
    double time_limit_s;
    uint64_t space;            /* valid configurations */
    uint64_t recorded_ok;      /* of which ran correctly in the recording */
    double true_best;
    uint64_t true_best_index;
    int maximize;
    char objective_name[128];
    int nruns;
    cutune_sim_run *runs;
    double median, q1, q3, min, max;   /* of the runs' ratios */
    double median_evaluations;
} cutune_sim_report;

/* cutune_simulate: runs the search `opts` asks for (the spec's otherwise) `repeat` times
 * over the outcomes recorded in `results_path` (a cutune-results file of an exhaustive
 * run of the same spec) instead of a GPU. Configurations are matched by their param
 * values; a recorded failure is a failed evaluation; static information (compile errors,
 * cannot launch, registers, spills, occupancy) comes from the recording too. Returns
 * CUTUNE_OK; CUTUNE_EIO (a diagnostic says why: unreadable, not a results file, of
 * another spec, or not covering every valid configuration); CUTUNE_EINVAL (a bad
 * option, e.g. an unknown strategy); CUTUNE_ENOMEM. */
int cutune_simulate(cutune_sim_report **out, cutune_spec *spec, const char *results_path,
                    const cutune_simulate_options *opts);

/* cutune_sim_report_free: NULL is a no-op. */
void cutune_sim_report_free(cutune_sim_report *r);

/* cutune_emit_t4_to: the results file at `results_path` in Kernel Tuner's T4 format (the
 * bytes cutune_emit_t4 gives for it), written to the file `output_path` ("-": standard
 * output) as the results are read, one entry at a time: memory stays near one entry's
 * (and the run's names), however large the file, which is read twice. The output
 * replaces `output_path` atomically when complete (as every file cutune writes); on any
 * failure it is left as it was. Returns CUTUNE_OK; CUTUNE_EIO (the results file cannot
 * be read or is not one, or the output cannot be written: cutune_last_error says which,
 * naming the file); CUTUNE_EINVAL (NULL arguments); CUTUNE_ENOMEM. */
int cutune_emit_t4_to(const char *results_path, const char *output_path);

#ifdef __cplusplus
}
#endif

#endif
