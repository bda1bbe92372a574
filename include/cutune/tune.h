/* cutune/tune.h - a part of cutune's public C API (cutune.h includes every part; its
 * opening comment gives the conventions, docs/api.md the guide).
 *
 * Tuning on a GPU: its options, the search, hardware counters (api/cutune_tune.c); what
 * a command that tunes decides around a run, and what it says at the end
 * (api/cutune_tune_run.c). */
#ifndef CUTUNE_TUNE_H
#define CUTUNE_TUNE_H

#include <stddef.h>
#include <stdint.h>

#include "analyze.h"
#include "results.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- tuning: compile, run, verify and time every variant on a GPU ------------------ */

/* Overrides of the spec's `search` statement (docs/search.md). A zero field (strategy
 * NULL, has_seed 0) leaves the spec's setting in force. */
#define CUTUNE_SEARCH_OPTIONS_VERSION 1

typedef struct cutune_search_options {
    unsigned int version;  /* CUTUNE_SEARCH_OPTIONS_VERSION (cutune/common.h, "Options") */
    const char *strategy;  /* "exhaustive", "random", "anneal", "genetic", "local", "guided", "auto";
                                  NULL: the spec's search, or auto when a budget is given here and the
                                  spec has no search statement */
    uint64_t budget;       /* the most evaluations */
    double budget_percent; /* the most evaluations as a percentage of the valid space (0 < P <= 100);
                                  used when budget is 0 */
    double time_s;         /* the most time, in seconds */
    uint64_t patience;     /* stop after this many evaluations without improvement */
    int has_seed;
    uint64_t seed;
    /* Results files of earlier runs of the same kernel (another GPU, another problem
     * size: --prior), borrowed: the auto strategy starts from their best configurations
     * and learns how far they predict this run (docs/search.md). 0 files: none. */
    const char *const *priors;
    int npriors;
} cutune_search_options;

/* Every field's default: the spec's search statement in force, no priors. */
#define CUTUNE_SEARCH_OPTIONS_INIT \
    { \
        .version = CUTUNE_SEARCH_OPTIONS_VERSION \
    }
int cutune_search_options_init(cutune_search_options *opts, unsigned int version);

#define CUTUNE_TUNE_OPTIONS_VERSION 1

typedef struct cutune_tune_options {
    unsigned int version;  /* CUTUNE_TUNE_OPTIONS_VERSION (cutune/common.h, "Options") */
    int device;            /* GPU ordinal */
    int jobs;              /* compile threads, 0 to CUTUNE_MAX_JOBS; 0: one per core */
    const char *cache_dir; /* as for cutune_analyze */
    int no_cache;
    uint64_t limit;             /* tune only the first N configurations (0: all) */
    int flush_l2;               /* -1: as the spec's measure(flush_l2 = ...) says; 0: off; 1: on */
    double prune;               /* stop timing a variant whose objective is worse than the best so far by
                                  this factor (on its checked run already; docs/results-format.md's
                                  race); 0: the default (1.5); < 0: never stop early */
    const char *results_path;   /* write the results JSON here (NULL: the spec's emit results, else none) */
    const volatile int *cancel; /* as for cutune_analyze: set to stop after the variant in hand */
    /* The journal: every outcome is appended and synced as soon as it exists, and a run
     * of the same spec (text, --set, kernel source) on the same device resumes from it.
     * NULL: the results path with ".journal" appended, or no journal when there is no
     * results path. */
    const char *journal_path;
    int fresh;        /* 1: discard an existing journal instead of resuming it */
    double timeout_s; /* a variant's time limit in the GPU worker (a hang is killed); 0: the spec's
                                  measure(timeout = ...), else derived from the reference's time (>= 10 s) */
    /* Called on the caller's thread after each variant is done (as often as that). */
    void (*progress)(void *user, const cutune_progress *p);
    void *progress_user;
    /* The search: strategy, seed and budgets (each unset field: the spec's `search`); a
     * version of its own, which CUTUNE_TUNE_OPTIONS_INIT sets. */
    cutune_search_options search;
    int energy;    /* 1: measure every variant timed in full for energy too, as the spec's
                                  measure(energy = true) asks; 0: as the spec says */
    int run_twins; /* 1: run every variant; 0: a variant whose machine code, launch and
                                  arguments equal those of one already run is not run again: it shares
                                  that one's outcome and times (cutune_measurement.same_code_as) */
    /* A spec with several problem sizes (`size`) is tuned at each in turn, each with its
     * own journal (the journal path with the size: "x.json.n=4096.journal"), into one
     * result (cutune_tune_size_count). 1: tune only the size the spec has selected
     * (cutune_spec_select_size). */
    int one_size;
    /* Hardware counters: after timing (and the final race), the best
     * `profile_top` variants that ran ok are launched once more under CUPTI's range
     * profiler (a separate, untimed run; cutune_measurement.hw). -1: every variant that ran
     * ok; 0: none. profile_metrics: the counters' names (CUPTI's, as Nsight Compute names
     * them), NULL: cutune_profile_default_metrics. */
    int profile_top;
    const char *const *profile_metrics;
    int nprofile_metrics;
    /* A shard of the space (as cutune_analyze_options'): the search runs over
     * the configurations whose listing ordinal / run % shard_count == shard_index, the run
     * the last param's value count (a space too large to list: the raw position), with a
     * journal identity of its own; the
     * results record the shard (settings.shard) and cutune_results_merge joins the
     * shards' files into the one-process result. shard_count 0 or 1: the whole space. */
    int shard_index, shard_count;
    /* Several GPUs of this host at once: ndevices > 1 GPUs, by ordinal (at most
     * CUTUNE_MAX_DEVICES; `device` is then not read). A GPU worker per GPU, each with its
     * own reference; the one compile pool feeds them all and each variant is measured
     * on whichever GPU is free, into one result and one journal (a resumed run may use
     * other GPUs). The GPUs must be of one model (name, architecture, SM count; else
     * CUTUNE_EINVAL: tune on each, cutune --per-device). The final race times each
     * contender on whichever GPU is free; every GPU times its first two, for
     * cutune_tune_summary.spread (against the first GPU, which runs the profiling). 0 or
     * 1: `device` alone. */
    const int *devices;
    int ndevices;
} cutune_tune_options;

/* Every field's default: GPU 0, a compile thread per core, the default cache, every
 * configuration, L2 flushing as the spec says (-1), pruning at 1.5, the spec's (or
 * derived) results path, journal and time limit, the spec's search, twins not run
 * again, every problem size, no counters, the whole space on one GPU. */
#define CUTUNE_TUNE_OPTIONS_INIT \
    { \
        .version = CUTUNE_TUNE_OPTIONS_VERSION, .flush_l2 = -1, .prune = 1.5, .search = CUTUNE_SEARCH_OPTIONS_INIT \
    }
int cutune_tune_options_init(cutune_tune_options *opts, unsigned int version);

/* cutune_strategy_list: the search strategies' names ("exhaustive", "random", ...),
 * NULL-terminated; the strings are static. */
const char *const *cutune_strategy_list(void);

/* cutune_tune_strategy: the name of the strategy cutune_tune runs on `spec` with the
 * search overrides `opts` (may be NULL): the one it names, else "auto" when it gives a
 * budget and the spec has no `search` statement, else the spec's. NULL when `opts`
 * names no strategy there is. The string is static. */
const char *cutune_tune_strategy(const cutune_spec *spec, const cutune_search_options *opts);

/* cutune_tune: tunes `spec` on a GPU: compiles every valid configuration's variant (in
 * parallel, ahead of the GPU), skips what cannot launch, runs each once with poisoned
 * outputs and compares them with the reference, times the correct ones (warm-ups,
 * repetitions until the spread is small, L2 flushed between repetitions), and picks the
 * best by the objective. *out holds every variant's outcome (free it with
 * cutune_tune_result_free); it is set whenever the run got as far as the GPU, also when
 * it stopped early. Returns CUTUNE_OK; CUTUNE_ENODEV (no GPU: see cutune_last_error);
 * CUTUNE_ESPEC / CUTUNE_EEVAL (a diagnostic on the spec); CUTUNE_ECOMPILER; or
 * CUTUNE_EIO when the results file cannot be written; CUTUNE_EINVAL for bad options (of
 * another version: cutune_tune_options or its search's). It returns while its GPU worker
 * processes may still be ending (the driver tearing their contexts down, a fraction of a
 * second; a thread of the library reaps them): the next cutune_tune in the process waits
 * for them before it starts its own; other CUDA work of the caller's may find their
 * memory not yet given back for that long. */
int cutune_tune(cutune_tune_result **out, cutune_spec *spec, const cutune_tune_options *opts);

/* ---- a run ranked; several kernel blocks; every configuration on each GPU --------- */

/* cutune_tune_rank: r's variants that were timed in full (not stopped early) with a
 * finite objective, best first by the objective (the least time, or the greatest
 * metric when the objective maximises; equal objectives in r's order): the best
 * min(max, *count) go to out[0 ..] (out may be NULL when max is 0), borrowed from r,
 * and *count is how many are ranked. For a run over problem sizes, rank each size's
 * result (cutune_tune_size). CUTUNE_OK, CUTUNE_EINVAL or CUTUNE_ENOMEM. */
int cutune_tune_rank(const cutune_measurement **out, uint64_t max, uint64_t *count, const cutune_tune_result *r);

/* cutune_tune_spread: the same variants' median times in two runs of one spec (on two
 * GPUs, say): b's over a's, for the variants (by ordinal) both timed with outcome ok.
 * out->variants is how many (0: none; the other fields then 0), median their median
 * ratio, lo and hi its 5th and 95th percentiles; out->device is left 0 for the caller.
 * CUTUNE_OK, CUTUNE_EINVAL or CUTUNE_ENOMEM. */
int cutune_tune_spread(cutune_device_spread *out, const cutune_tune_result *a, const cutune_tune_result *b);

/* cutune_tune_account: r's account as text, whole lines (what `cutune SPEC` prints on
 * stderr after a run): the device and the outcomes by kind, twins not run, where the time
 * went, the GPUs of a run on several and their spread, the reference, the files, the
 * search, the journal, warnings about the cache and compile pool. cutune_tune_warnings:
 * what needs attention even when nothing else is shown ("" when nothing): variants that
 * found an `in` argument changed since it was restored (a kernel writes into an input),
 * journal lines not trusted, an interruption. *out: free with cutune_free. CUTUNE_OK, CUTUNE_EINVAL or
 * CUTUNE_ENOMEM. */
int cutune_tune_account(char **out, const cutune_tune_result *r);
int cutune_tune_warnings(char **out, const cutune_tune_result *r);

/* One kernel block of a spec file, as cutune_tune_blocks hands it to its callback. */
typedef struct cutune_block {
    int index, count;        /* this block, of `count` the loop goes over */
    const char *header_path; /* where its header goes: cutune_blocks_options.header_path, else the
                                  block's emit header; NULL: none (borrowed from the options or spec) */
    int header_append;       /* 1: an earlier block of this loop wrote header_path: add to it */
    int header_written;      /* set by the callback (1) when it wrote header_path */
} cutune_block;

/* The callback: does a block's work (the spec holds that block selected) and returns a
 * cutune status: CUTUNE_OK; CUTUNE_ENODEV (not done for want of a GPU: the loop goes
 * on); any other status stops the loop. */
typedef int (*cutune_block_fn)(void *user, cutune_spec *spec, cutune_block *block);

#define CUTUNE_BLOCKS_OPTIONS_VERSION 1

typedef struct cutune_blocks_options {
    unsigned int version;    /* CUTUNE_BLOCKS_OPTIONS_VERSION (cutune/common.h, "Options") */
    int selected_only;       /* 1: only the block the spec has selected (cutune_spec_select_kernel);
                                  0: every block of the spec file, in order */
    const char *header_path; /* every block's header here, one section each (NULL: each block's own
                                  emit header; blocks that name one file share it) */
} cutune_blocks_options;

/* Every block of the spec file, each its own header. */
#define CUTUNE_BLOCKS_OPTIONS_INIT \
    { \
        .version = CUTUNE_BLOCKS_OPTIONS_VERSION \
    }
int cutune_blocks_options_init(cutune_blocks_options *opts, unsigned int version);

/* cutune_tune_blocks: the kernel blocks of a spec file in turn (each selected, then
 * `each` called), stopping after a block whose callback returned a status other than
 * CUTUNE_OK and CUTUNE_ENODEV; a block's header_append says whether an earlier block
 * wrote its header path. Returns the first status other than CUTUNE_OK (CUTUNE_OK when
 * every block's was), or CUTUNE_EINVAL for bad arguments. The last block visited stays
 * selected. opts NULL: CUTUNE_BLOCKS_OPTIONS_INIT. */
int cutune_tune_blocks(cutune_spec *spec, const cutune_blocks_options *opts, cutune_block_fn each, void *user);

/* cutune_blocks_emit_check: before a run over the kernel blocks cutune_tune_blocks(opts)
 * visits, each block's emit paths that may not be written (cutune_spec_emit_refused),
 * of the kinds the caller does not replace by a path of its own (given_header,
 * given_csv, given_results: 1 replaced), one line each in *out as `cutune SPEC` says it
 * ("cutune: emit header ... leaves the spec's folder ..."; "" when every one may; free
 * with cutune_free); afterwards the first block is selected (with selected_only,
 * the selection is left). CUTUNE_OK, CUTUNE_EINVAL or CUTUNE_ENOMEM. */
int cutune_blocks_emit_check(char **out, cutune_spec *spec, const cutune_blocks_options *opts, int given_header,
                             int given_csv, int given_results);

/* cutune_devices_one_model: 1 when the GPUs devices[0 .. n) are of one model (name,
 * architecture, SM count; also when the first cannot be asked: the run says why), else
 * 0. cutune_tune_set_devices: how a run on those GPUs goes: one GPU (n 1: opts->device),
 * one run over several of one model (opts->devices and ndevices, borrowed), or a process
 * per GPU (cutune_tune_per_device) when *per_device is 1 or the driver sees GPUs of
 * different models (*per_device is then set to 1). n 0 changes nothing. Returns 1 when
 * the models made it a process per GPU, 0 otherwise, CUTUNE_EINVAL for bad arguments. */
int cutune_devices_one_model(const int *devices, int n);

/* cutune_devices_parse: the GPUs `text` names as `--devices` takes it, into out[0 .. *n)
 * (at most `size`): "all", every GPU the driver sees (ordinals 0 up), or GPU numbers
 * such as "0,1" (0 to CUTUNE_MAX_GPU_NUMBER; base/num's list). CUTUNE_OK; CUTUNE_EINVAL
 * quoting the text ("devices takes all or GPU numbers such as 0,1, not 'x'") or for
 * NULL arguments; CUTUNE_ENODEV for "all" when the driver sees no GPU (the error saying
 * why). */
int cutune_devices_parse(int *out, int size, int *n, const char *text);
int cutune_tune_set_devices(cutune_tune_options *opts, const int *devices, int n, int *per_device);

/* The largest GPU number and the longest time limit in seconds an option takes (past
 * it a deadline is no limit, and its milliseconds would not fit an int). */
#define CUTUNE_MAX_GPU_NUMBER 4096
#define CUTUNE_MAX_SECONDS 1000000

/* cutune_tune_set_option: the option `name` of *opts set from `text`, read and
 * checked as `cutune SPEC --NAME VALUE` reads it, so that an application's own settings
 * (its command line, a configuration file) take the same values with the same messages:
 *   "device"   the GPU: a number from 0 to CUTUNE_MAX_GPU_NUMBER
 *   "prune"    a finite factor above 1, or -1 (never stop early)
 *   "timeout"  a variant's time limit: seconds above 0, at most CUTUNE_MAX_SECONDS
 *   "metrics"  profile_top: a count of variants from 1 to 1000000, or "all" (-1)
 * CUTUNE_OK; CUTUNE_EINVAL (opts unchanged), the last error saying what the option takes
 * and quoting the text ("prune takes a finite factor above 1 (or -1 for never), not
 * '1'"), or naming an unknown option or NULL arguments. */
int cutune_tune_set_option(cutune_tune_options *opts, const char *name, const char *text);

/* The largest count a search option takes (budget, patience, seed: what a results file
 * holds as a JSON integer). */
#define CUTUNE_MAX_COUNT ((uint64_t)INT64_MAX)

/* cutune_search_set_option: the search option `name` of *s set from `text`, read and
 * checked as `cutune SPEC --NAME VALUE` (and `cutune simulate`) reads it:
 *   "strategy"     one of cutune_strategy_list's names (s->strategy: that static name)
 *   "budget"       evaluations from 1 to CUTUNE_MAX_COUNT, or "P%" (0 < P <= 100) of the
 *                  valid space (budget_percent; budget 0)
 *   "time-budget"  a finite duration above 0: seconds, or with s, min or h ("10min")
 *   "patience"     evaluations from 1 to CUTUNE_MAX_COUNT
 *   "seed"         0 to CUTUNE_MAX_COUNT (has_seed set)
 * CUTUNE_OK; CUTUNE_EINVAL (s unchanged), the last error quoting the text and saying what
 * the option takes ("patience takes a number of evaluations from 1 to ..., not '0'";
 * "unknown search strategy 'x' (the strategies are exhaustive, ... and auto)"), or
 * naming an unknown option or NULL arguments. */
int cutune_search_set_option(cutune_search_options *s, const char *name, const char *text);

/* cutune_tune_set_metrics: opts set to read the hardware counters names[0 .. n)
 * (borrowed; n >= 1) of its best profile_top variants (5 when opts asks for none yet),
 * once CUPTI's host API has judged the names for the architecture `arch` (NULL: that of
 * GPU opts->device when the driver sees it, else sm_90): CUTUNE_OK; CUTUNE_EINVAL naming
 * the first counter that cannot be read (cutune_profile_check), or NULL arguments;
 * CUTUNE_ENODEV when CUPTI cannot be used here (opts is set: the run says why). */
int cutune_tune_set_metrics(cutune_tune_options *opts, const char *const *names, int n, const char *arch);

/* cutune_tune_set_shard: opts set for shard `index` of `count` (count >= 2) of a split
 * run: its results file named after opts->results_path (else the spec's emit results):
 * "x.json" gives "x.shard-I-of-N.json" (cutune_results_merge joins them), and a journal
 * path given named likewise (each shard its own, so one command line serves every
 * rank); with `local` >= 0 (the launcher's local rank; -1: the caller chose the GPU),
 * the GPU local % (GPUs the driver sees). *results and *journal (NULL without a journal
 * path) are the new paths, which opts borrows: free them with cutune_free after the run.
 * CUTUNE_OK; CUTUNE_EINVAL (no shard index of count, no results path); CUTUNE_ENOMEM. */
int cutune_tune_set_shard(cutune_tune_options *opts, const cutune_spec *spec, int index, int count, int local,
                          char **results, char **journal);

/* cutune_tune_setup_text: what `cutune SPEC` says on stderr of a run's setting once opts
 * is set (cutune_tune_set_shard, cutune_tune_set_devices), whole lines in *out (free with
 * cutune_free; "" when there is nothing to say): for a shard (opts->shard_count > 1),
 * "shard I of N[, from LAUNCHER] (GPU D | K GPUs): results to R[, journal J]" (K: ndevs,
 * the GPUs --devices named, when above 1), and a warning when local_count (the
 * launcher's processes on this host; -1 not said) > 1 share those ndevs GPUs; a note
 * when `mixed` (cutune_tune_set_devices returned 1), and one for each GPU of
 * opts->devices named twice. brief: the warning alone. CUTUNE_OK, CUTUNE_EINVAL (NULL
 * arguments) or CUTUNE_ENOMEM. */
int cutune_tune_setup_text(char **out, const cutune_tune_options *opts, int ndevs, int mixed, const char *launcher,
                           int local_count, int brief);

/* What a finished run found, counted (what `cutune SPEC` says at its end). */
typedef struct cutune_tune_verdict {
    int sizes;            /* the run's problem sizes (cutune_tune_size_count; 0: one run) */
    int winners;          /* the sizes (else the run: 0 or 1) with a winner (cutune_tune_best) */
    int nothing_compiled; /* 1: the run had variants and none of them compiled */
    int ran_ok;           /* 1: a variant ran correctly (timed in full or not) */
    int interrupted;      /* 1: the run was stopped before its end (summary.interrupted) */
} cutune_tune_verdict;

/* cutune_tune_verdict_of: r's verdict into *out. CUTUNE_OK or CUTUNE_EINVAL.
 * cutune_tune_verdict_text: v as `cutune SPEC` says it on stderr, whole lines in *out
 * (free with cutune_free): how many sizes have no winner (a run over sizes), and when
 * none won, that none was chosen and why (nothing compiled; variants that ran correctly
 * but none timed in full, as when a run is interrupted before its final race; or no
 * variant ran correctly); "" when every size (or the run) has a winner. CUTUNE_OK, CUTUNE_EINVAL or
 * CUTUNE_ENOMEM. */
int cutune_tune_verdict_of(cutune_tune_verdict *out, const cutune_tune_result *r);
int cutune_tune_verdict_text(char **out, const cutune_tune_verdict *v);

/* What `cutune SPEC` says at a run's end, as text of whole lines in *out (free with
 * cutune_free; "" when there is nothing to say). CUTUNE_OK, CUTUNE_EINVAL (NULL
 * arguments, i out of range) or CUTUNE_ENOMEM.
 * cutune_tune_ranking_text: the `top` best variants (cutune_tune_rank) as a table: a
 * line "rank # PARAM... median ms spread OBJECTIVE regs occ reps" after an empty line,
 * then a row each; a run over problem sizes: for each size, an empty line, "size
 * n=4096:" and its table; top <= 0: "".
 * cutune_tune_best_text: the winner of size k (0 .. cutune_tune_size_count - 1; a run
 * without sizes: k 0) as "best[ at n=4096]: #ORDINAL p=v ...  median T ms, OBJECTIVE V",
 * and its energy per launch when measured; "" when none won. *note (NULL: not asked):
 * why its energy was not measured when it was asked for, a line ("" otherwise). */
int cutune_tune_ranking_text(char **out, const cutune_tune_result *r, int top);
int cutune_tune_best_text(char **out, char **note, const cutune_tune_result *r, int k);

/* A run that could not tune for want of a GPU, after all that needs none (the spec
 * checked, its space counted and cutune_analyze at every problem size). */
typedef struct cutune_untuned {
    uint64_t variants;     /* analysed, summed over the problem sizes */
    uint64_t runnable;     /* of them compiled and can launch */
    uint64_t failed;       /* did not compile */
    uint64_t unlaunchable; /* compiled, but cannot launch */
    int limited;           /* 1: only the first configurations were analysed (a limit below the space) */
    int emits;             /* 1: a header or CSV was asked for (none is written) */
    int brief;             /* 1: the verdict line alone */
    const char *why;       /* why no GPU is usable (cutune_last_error after cutune_device_count; NULL
                              or "": the driver sees no device) */
} cutune_untuned;

/* cutune_untuned_text: u's verdict as `cutune SPEC` prints it on stderr: when some
 * variant could run, "cutune: NOT TUNED. Timing needs a GPU ..." naming u->why, then
 * (unless brief) what was done, the counts when not every variant compiled and can
 * launch, and that no header or CSV was written when u->emits; when none could, that
 * a GPU would not change that. In *out (free with cutune_free). CUTUNE_OK, CUTUNE_EINVAL
 * or CUTUNE_ENOMEM. */
int cutune_untuned_text(char **out, const cutune_untuned *u);

/* cutune_untuned_start: what `cutune SPEC` says on stderr before it compiles without a
 * GPU the first `limit` variants of spec (0: all) found at `path`, after an empty line:
 * "compiling the first N variants (--limit; ...)" when the limit is below the space
 * (counted: cutune_space_count), else "compiling every variant (...)"; "" when brief.
 * *limited: 1 when the limit is below the space (cutune_untuned.limited). In *out (free
 * with cutune_free); CUTUNE_OK, CUTUNE_EINVAL (NULL arguments) or CUTUNE_ENOMEM. */
int cutune_untuned_start(char **out, int *limited, cutune_spec *spec, uint64_t limit, const char *path, int brief);

/* Every configuration on each of several GPUs (cutune --per-device): a process per GPU,
 * each tuning into a results file of its own, "RESULTS.gpuD.json". */
#define CUTUNE_PER_DEVICE_OPTIONS_VERSION 1

typedef struct cutune_per_device_options {
    unsigned int version; /* CUTUNE_PER_DEVICE_OPTIONS_VERSION (cutune/common.h, "Options") */
    const int *devices;   /* two or more GPUs, each named once */
    int ndevices;
    int jobs; /* compile threads of each process; 0: the cores shared out among them */
    /* What each child process runs: its exit status is run's return (0 to 255). NULL:
     * cutune_tune with the tune options' device, jobs and results path set to the
     * child's (exit 0 when it returns CUTUNE_OK, else 1). A process with threads should
     * give a run that execs a program. */
    int (*run)(void *user, int device, int jobs, const char *results_path);
    void *user;
} cutune_per_device_options;

/* No GPUs, no jobs given, cutune_tune in each child. */
#define CUTUNE_PER_DEVICE_OPTIONS_INIT \
    { \
        .version = CUTUNE_PER_DEVICE_OPTIONS_VERSION \
    }
int cutune_per_device_options_init(cutune_per_device_options *opts, unsigned int version);

/* A GPU's part of cutune_tune_per_device. Strings owned by the array. */
typedef struct cutune_device_run {
    int device;                 /* the GPU */
    const char *results_path;   /* its results file */
    int started;                /* 1: its process was started */
    int exit_code;              /* its exit status; -1: killed by a signal, or not started */
    cutune_tune_result *result; /* its results file read back (owned by the array); NULL: not read */
    const char *load_error;     /* why result is NULL */
} cutune_device_run;

/* cutune_per_device_jobs: the compile threads each of n processes gets: `jobs` when
 * above 0, else the machine's cores shared out (at least 1). */
int cutune_per_device_jobs(int jobs, int n);

/* cutune_tune_per_device: a process per GPU of po->devices, each tuning every
 * configuration of `spec` (po->run, or cutune_tune with `opts`) into the results path
 * named after `results_path` (opts->results_path, else the spec's emit results:
 * "x.json" gives "x.gpu1.json"), waits for all, and reads each results file back.
 * *out: po->ndevices entries in po's order (free with cutune_device_runs_free), set
 * whenever the call got as far as starting processes. CUTUNE_OK when every process was
 * started (judge each by its exit_code and result); CUTUNE_EINVAL (fewer than two GPUs,
 * one named twice, no results path, a journal path: each GPU keeps its own); CUTUNE_EIO
 * when a process could not be started (cutune_last_error names the GPU; the others
 * were waited for); CUTUNE_ENOMEM. */
int cutune_tune_per_device(cutune_device_run **out, cutune_spec *spec, const cutune_tune_options *opts,
                           const cutune_per_device_options *po);
/* cutune_device_runs_free: frees cutune_tune_per_device's array of n (NULL: nothing). */
void cutune_device_runs_free(cutune_device_run *runs, int n);
/* cutune_device_run_text: runs[i] of cutune_tune_per_device's n as the line `cutune
 * --per-device` prints: "GPU D (NAME): best #ORDINAL p=v ...  median T ms; results:
 * PATH" (or "no winner; results: PATH"; "" when its results were not read); *spread:
 * its median times over those of the first run before it that was read, for the same
 * variants timed ok ("" when none to compare), or for a run not read why: "cutune: GPU
 * D: no results: LOAD_ERROR". Both free with cutune_free. CUTUNE_OK,
 * CUTUNE_EINVAL (NULL arguments, i out of range) or CUTUNE_ENOMEM. */
int cutune_device_run_text(char **out, char **spread, const cutune_device_run *runs, int n, int i);

/* cutune_device_runs_header: the header of cutune_tune_per_device's runs[0 .. n) whose
 * results were read back, an entry per GPU model (cutune_emit_header_devices: of GPUs of
 * one model, the first run's winner), named for the file `path` (its last part), in *out,
 * `spec` as cutune_emit_header takes it (NULL: no functions of the problem size); in
 * *notes (NULL: not asked) which runs share an earlier one's entry
 * (cutune_header_devices_notes), also when the header cannot be made. Both NULL and
 * CUTUNE_OK when no run was read back: there is no header. Both free with cutune_free.
 * CUTUNE_OK; CUTUNE_EINVAL (NULL arguments) or cutune_emit_header's status, the message
 * "no header written to PATH: WHY". */
int cutune_device_runs_header(char **out, char **notes, cutune_spec *spec, const cutune_device_run *runs, int n,
                              const char *path);

/* cutune_per_device_check: whether a run of a process per GPU on devices[0 .. n) can
 * go as asked: CUTUNE_OK, or CUTUNE_EINVAL saying why not (cutune_last_error, in the
 * words of `cutune --per-device`'s options): more than one kernel block (`nblocks`), a
 * shard (`sharded` nonzero), a journal path (each GPU keeps its own), no results path,
 * a GPU named twice. cutune_per_device_text: the line `cutune --per-device` starts
 * with: "N GPUs (D, D): a cutune process per GPU, each tuning every configuration with
 * J compile threads" (J: cutune_per_device_jobs(jobs, n)), in *out (free with
 * cutune_free); CUTUNE_OK, CUTUNE_EINVAL or CUTUNE_ENOMEM. */
int cutune_per_device_check(const int *devices, int n, int nblocks, const char *results_path, int sharded,
                            const char *journal_path);
int cutune_per_device_text(char **out, const int *devices, int n, int jobs);
/* cutune_per_device_args: the command line argv[0 .. argc) of a run on several GPUs
 * (`cutune SPEC --devices 0,1 --per-device ...`) as GPU `device`'s process runs it
 * again: less `--devices X`, `--devices=X` and `--per-device`, then `--device D --jobs J
 * --results PATH` after the rest, so that they win. *out: NULL-terminated, in one block
 * (free with cutune_free) that borrows argv's strings and results_path. CUTUNE_OK,
 * CUTUNE_EINVAL (NULL arguments) or CUTUNE_ENOMEM. */
int cutune_per_device_args(char ***out, int argc, char *const *argv, int device, int jobs, const char *results_path);

/* Hardware counters (cutune_tune_options.profile_top). cutune_profile_default_metrics:
 * the default set (the seeds' nvprof table in CUPTI's names; *names static), its count
 * returned; cutune_profile_nvprof_name: the nvprof metric a default one stands for, NULL
 * for any other. cutune_profile_chip: CUPTI's chip name for an architecture (NULL:
 * unknown; NULL arch: sm_90). cutune_profile_list: every base metric of that chip, with
 * its kind ("counter", "ratio", "throughput"), through CUPTI's host API (no GPU needed);
 * CUTUNE_OK, CUTUNE_EINVAL (an unknown architecture) or CUTUNE_ENODEV (CUPTI cannot be
 * used: cutune_last_error says why). */
int cutune_profile_default_metrics(const char *const **names);
const char *cutune_profile_nvprof_name(const char *metric);
const char *cutune_profile_chip(const char *arch);
int cutune_profile_list(const char *arch, void (*each)(void *user, const char *name, const char *kind), void *user);
/* cutune_profile_check: whether CUPTI can read counters `names` (n) on that chip (no
 * GPU needed): CUTUNE_OK; CUTUNE_EINVAL naming the first unknown or refused one
 * (SASS-patched metrics, smsp__sass_*, which the range profiler cannot read), or an
 * unknown architecture; CUTUNE_ENODEV when CUPTI cannot be used (cutune_last_error). */
int cutune_profile_check(const char *arch, const char *const *names, int n);
/* cutune_profile_defaults_text: what `cutune metrics` lists without a pattern: a line
 * per default counter, its nvprof name in 26 columns, then its CUPTI name; unless
 * `brief`, a line above them and a note below naming the chip of `arch` (NULL: sm_90).
 * cutune_profile_list_text: what `cutune metrics PATTERN` lists: a line per base metric
 * of that chip whose name contains `pattern` (NULL: every one), its kind in 11 columns,
 * then its name, in *out; in *note the count's line ("34 base metrics of GH100 (sm_90)
 * containing 'dram'\n"), in *shown (when not NULL) the count. Texts freed with
 * cutune_free. CUTUNE_OK; CUTUNE_EINVAL (NULL outputs, an unknown architecture);
 * CUTUNE_ENODEV (CUPTI cannot be used: cutune_last_error says why); CUTUNE_ENOMEM. */
int cutune_profile_defaults_text(char **out, const char *arch, int brief);
int cutune_profile_list_text(char **out, char **note, int *shown, const char *arch, const char *pattern);

#ifdef __cplusplus
}
#endif

#endif
