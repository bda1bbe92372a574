/* cutune/results.h - a part of cutune's public C API (cutune.h includes every part; its
 * opening comment gives the conventions, docs/api.md the guide).
 *
 * A run's result, live or read back from a results file: the summary, each
 * variant's measurement, problem sizes, shards (api/cutune_results.c). */
#ifndef CUTUNE_RESULTS_H
#define CUTUNE_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "space.h"
#include "device.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUTUNE_MAX_DEVICES 16

/* How a GPU's times compare with the first GPU's for the same variants: each
 * of the variants timed in full on both (the final race's first two contenders, and a few the
 * first GPU timed in full during the run: docs/scale-out.md), its median time here over
 * its median time on the first GPU. */
typedef struct cutune_device_spread {
    int device;            /* the GPU's ordinal */
    int variants;          /* how many variants were compared (0: none) */
    double median, lo, hi; /* the ratios' median, least and greatest */
} cutune_device_spread;

/* What became of a variant. cutune_outcome_name gives each its name as results files
 * and the CLI spell it (docs/results-format.md); the numbers do not change. */
typedef enum cutune_outcome {
    CUTUNE_OUTCOME_OK = 0,            /* ran, verified (or nothing to verify), timed */
    CUTUNE_OUTCOME_WRONG = 1,         /* ran; its outputs differ from the reference's */
    CUTUNE_OUTCOME_COMPILE_ERROR = 2, /* NVRTC refused it */
    CUTUNE_OUTCOME_CANNOT_LAUNCH = 3, /* its geometry or resources exceed the device */
    CUTUNE_OUTCOME_LOAD_ERROR = 4,    /* the driver would not load its module */
    CUTUNE_OUTCOME_LAUNCH_ERROR = 5,  /* a launch or a run failed (a fault, a trap) */
    CUTUNE_OUTCOME_NOT_RUN = 6,       /* not run: the search left it, or the run stopped first */
    CUTUNE_OUTCOME_TIMEOUT = 7,       /* ran past its time limit (the GPU worker was replaced) */
    CUTUNE_OUTCOME_CRASHED = 8        /* the GPU worker died while running it */
} cutune_outcome;

/* cutune_outcome_name: "ok", "wrong", "compile error", "cannot launch", "load error",
 * "launch error", "not run", "timeout" or "crashed" (static); NULL for a value outside
 * the enum. */
const char *cutune_outcome_name(cutune_outcome o);

/* One variant's outcome: what became of it, its resources, times, metrics, energy and
 * counters. The record behind it is the library's own (it grows as the library does);
 * it is read through the accessors below, which take NULL too. A measurement belongs
 * to its result: valid until cutune_tune_result_free. */
typedef struct cutune_measurement cutune_measurement;

/* cutune_measurement_variant: its configuration and variant (param values, launch
 * geometry, macros; owned by the result). */
const cutune_variant *cutune_measurement_variant(const cutune_measurement *m);
/* cutune_measurement_outcome: what became of it (CUTUNE_OUTCOME_NOT_RUN for NULL). */
cutune_outcome cutune_measurement_outcome(const cutune_measurement *m);
/* cutune_measurement_reason: what went wrong; NULL when ok. */
const char *cutune_measurement_reason(const cutune_measurement *m);
/* cutune_measurement_limiter: what limits its theoretical occupancy ("warps", "blocks",
 * "registers", "shared memory", "barriers"); NULL when not known. */
const char *cutune_measurement_limiter(const cutune_measurement *m);
/* cutune_measurement_energy_note: why its energy was not measured when it was asked
 * for; NULL otherwise. cutune_measurement_profile_note: why a variant chosen for
 * profiling has no counters; NULL otherwise. cutune_measurement_inputs_note: which `in`
 * arguments it found changed since they were restored (a kernel writes into an input;
 * the variant was checked again with them restored); NULL otherwise. */
const char *cutune_measurement_energy_note(const cutune_measurement *m);
const char *cutune_measurement_profile_note(const cutune_measurement *m);
const char *cutune_measurement_inputs_note(const cutune_measurement *m);

/* A measurement's numbers, each read with cutune_measurement_value. Flags read 1 or 0.
 * New ones are added at the end; none is renumbered. */
typedef enum cutune_value {
    CUTUNE_VALUE_REGISTERS,            /* per thread, as the driver reports them (ptxas's when not loaded) */
    CUTUNE_VALUE_STATIC_SMEM,          /* bytes of static shared memory per block */
    CUTUNE_VALUE_LOCAL_BYTES,          /* stack frame per thread (local memory, spills included) */
    CUTUNE_VALUE_SPILL_STORES,         /* bytes */
    CUTUNE_VALUE_SPILL_LOADS,          /* bytes */
    CUTUNE_VALUE_OCCUPANCY,            /* theoretical, 0..1 */
    CUTUNE_VALUE_BLOCKS_PER_SM,        /* the occupancy model's */
    CUTUNE_VALUE_DRIVER_BLOCKS_PER_SM, /* the driver's own answer for the launch (-1 when not loaded) */
    CUTUNE_VALUE_TIMED,                /* flag: timed */
    CUTUNE_VALUE_MEDIAN_MS,            /* the timed repetitions' median, milliseconds */
    CUTUNE_VALUE_MIN_MS,
    CUTUNE_VALUE_MAX_MS,
    CUTUNE_VALUE_Q1_MS,         /* first quartile */
    CUTUNE_VALUE_Q3_MS,         /* third quartile */
    CUTUNE_VALUE_SPREAD,        /* (q3 - q1) / median */
    CUTUNE_VALUE_REPS,          /* timed repetitions */
    CUTUNE_VALUE_BATCH,         /* launches per event pair */
    CUTUNE_VALUE_PRUNED,        /* flag: timing stopped early, clearly worse than the best so far */
    CUTUNE_VALUE_OBJECTIVE,     /* the objective's value at the median time */
    CUTUNE_VALUE_VERIFIED,      /* flag: the outputs were compared with the reference and agreed */
    CUTUNE_VALUE_MAX_ABS_ERROR, /* the largest difference from the reference */
    CUTUNE_VALUE_COMPILE_SECONDS,
    CUTUNE_VALUE_CACHED,          /* flag: its binary came from the cache */
    CUTUNE_VALUE_DUPLICATE,       /* flag: the same binary as an earlier variant (not compiled again) */
    CUTUNE_VALUE_GPU_SECONDS,     /* time the GPU thread spent on it: arguments, load, checked run,
                                      verification and timing */
    CUTUNE_VALUE_TIMING_SECONDS,  /* of which timing (warm-ups and repetitions) */
    CUTUNE_VALUE_RESUMED,         /* flag: read back from the journal of an earlier, interrupted run */
    CUTUNE_VALUE_LAUNCHES,        /* every launch of it on the GPU: the checked run, warm-ups and timing
                                      (1: pruned on its checked run; 0: never launched, or not known) */
    CUTUNE_VALUE_PROVISIONAL,     /* flag: timed only far enough to know it contends for the win; the
                                      end of the run times every contender in full; it never wins */
    CUTUNE_VALUE_ENERGY,          /* flag: its energy was measured (measure(energy = true), --energy:
                                      the board's NVML counter around a window of launches) */
    CUTUNE_VALUE_ENERGY_J,        /* per launch, joules, the whole board's (NaN: not measured) */
    CUTUNE_VALUE_POWER_W,         /* mean board power over the window, watts (NaN: not measured) */
    CUTUNE_VALUE_ENERGY_SECONDS,  /* the window's length */
    CUTUNE_VALUE_ENERGY_LAUNCHES, /* launches in the window (not counted in LAUNCHES) */
    CUTUNE_VALUE_STARTED_SECONDS, /* when it was first sent to the GPU worker, seconds from the run's
                                      start; 0: not run by this run */
    CUTUNE_VALUE_DEVICE,          /* the GPU (ordinal) that measured it in a run on several; -1: not
                                      known or not run */
    CUTUNE_VALUE_SAME_CODE_AS,    /* >= 0: not run, the twin of the variant with this ordinal (the same
                                      machine code, launch and arguments), whose outcome and times it
                                      shares (its metrics and objective are its own); -1: run itself */
    CUTUNE_VALUE_PROFILED,        /* flag: its hardware counters were read (cutune_measurement_hw) */
    CUTUNE_VALUE_PROFILE_PASSES   /* the replays the counters took */
} cutune_value;

/* cutune_measurement_value: number `v` of the measurement; NaN for NULL or a `v`
 * outside the enum. */
double cutune_measurement_value(const cutune_measurement *m, cutune_value v);

/* The spec's metrics at the median time (cutune_tune_summary's objective is one of them
 * or the time): their count, the name of metric i and its value (NULL / NaN for i out
 * of range). */
int cutune_measurement_metric_count(const cutune_measurement *m);
const char *cutune_measurement_metric_name(const cutune_measurement *m, int i);
double cutune_measurement_metric(const cutune_measurement *m, int i);

/* Hardware counters (cutune_tune_options.profile_top), read in a profiled launch of
 * their own after timing, never part of the times: the run's counters (as
 * cutune_tune_profile_metric names them), the name of counter i and its value (NaN
 * where not read, and for i out of range). */
int cutune_measurement_hw_count(const cutune_measurement *m);
const char *cutune_measurement_hw_name(const cutune_measurement *m, int i);
double cutune_measurement_hw(const cutune_measurement *m, int i);

/* Where a tuning run's wall time went (cutune_tune_summary.phase_seconds; docs/results-
 * format.md, "phases"): each moment of the run, on the tuner's monotonic clock, in
 * exactly one phase, so the phases add up to phases_wall_seconds. */
typedef enum cutune_phase {
    CUTUNE_PHASE_START,     /* the process's start to cutune_tune's first call (the CLI: the spec
                               read, its space counted), less the device query made meanwhile */
    CUTUNE_PHASE_DEVICE,    /* the driver and the context: the device query, the GPU workers
                               started (process, driver, context, buffers); their ends are
                               not waited for but by a later run in the process */
    CUTUNE_PHASE_INPUTS,    /* the inputs made on the device for the reference's run */
    CUTUNE_PHASE_REFERENCE, /* the reference's run, its outputs kept */
    CUTUNE_PHASE_COMPILE,   /* NVRTC in the GPU workers' set-up (the reference's, resets',
                               checker's kernels; cutune's own fill and comparison kernels),
                               and the loop with no GPU busy: waiting for compiles (and the
                               journal, the strategy) */
    CUTUNE_PHASE_GPU,       /* the loop while a GPU has a variant in flight */
    CUTUNE_PHASE_RACE,      /* the final race */
    CUTUNE_PHASE_PROFILE,   /* the hardware counters' phase */
    CUTUNE_PHASE_WRITE,     /* the results file written */
    CUTUNE_PHASE_OTHER,     /* the rest: the space counted, the journal opened, the compile pool's end */
    CUTUNE_PHASE_COUNT
} cutune_phase;

/* What the GPU workers did with their time (cutune_tune_summary.work_seconds), summed
 * over every variant this run sent to a GPU (the final race included) on every GPU: the
 * GPU time besides timing. Each is measured in the worker, around the step itself; the
 * kinds but CUTUNE_WORK_FLUSH add up to the workers' time. */
typedef enum cutune_work {
    CUTUNE_WORK_REFERENCE, /* the workers' set-up runs of the reference */
    CUTUNE_WORK_ARGS,      /* buffers allocated, inputs made or restored from their copies */
    CUTUNE_WORK_POISON,    /* outputs poisoned (0xFF bytes) before the checked run */
    CUTUNE_WORK_LOAD,      /* the module loaded (its constants filled) and unloaded */
    CUTUNE_WORK_RESET,     /* the resets before the checked run */
    CUTUNE_WORK_CHECK,     /* the checked run (after its L2 flush) */
    CUTUNE_WORK_COMPARE,   /* the outputs compared with the reference's */
    CUTUNE_WORK_WARMUP,    /* warm-ups and a short kernel's three batch-sizing launches */
    CUTUNE_WORK_SAMPLES,   /* the timed samples (with the resets and L2 flushes between them) */
    CUTUNE_WORK_ENERGY,    /* the energy window */
    CUTUNE_WORK_OTHER,     /* the rest of the workers' time on variants (and the wait for one
                              that hung or crashed) */
    CUTUNE_WORK_FLUSH,     /* of the above, the L2 flushes' GPU time (event-timed): not added */
    CUTUNE_WORK_COUNT
} cutune_work;

/* What a run found, as a whole. Its strings are owned by the result: valid until
 * cutune_tune_result_free, given in full however long; a string with nothing to say is
 * NULL, except the four that always have something (device_name, arch, objective_name,
 * strategy: "" when a results file did not record them). */
typedef struct cutune_tune_summary {
    const char *device_name; /* the GPU's name, as the driver gives it */
    const char *arch;        /* "sm_90" */
    int sm_count;
    int driver_version;
    uint64_t variants, timed, wrong, failed, unlaunchable, pruned;
    int64_t best; /* index of the chosen variant among the results, -1 when none */
    int maximize;
    const char *objective_name; /* "time_ms" or the metric's name */
    double wall_seconds;        /* the whole run */
    double compile_seconds;     /* NVRTC time summed over the binaries compiled in this run */
    double compile_wall_seconds;
    double gpu_seconds;    /* the GPU thread's time over all variants (the reference included) */
    double timing_seconds; /* of which warm-ups and timed repetitions */
    int threads;
    uint64_t compiled, cached;
    const char *results_path; /* where the results were written (NULL when not written) */
    const char *reference;    /* what outputs were checked against (NULL when not verified) */
    int interrupted;          /* stopped early through `cancel`: the results cover part of the space */
    uint64_t resumed;         /* outcomes read back from the journal, not run again */
    uint64_t twins;           /* variants not run: the same code and launch as one measured (same_code_as) */
    uint64_t journal_ignored; /* journal lines not trusted (out of range, malformed): run again */
    double timeout_s;         /* the per-variant time limit that applied */
    const char *journal_path; /* the journal, in full (NULL when there is none) */
    /* The search (docs/search.md): what ran and what it used. */
    const char *strategy; /* "exhaustive", "random", ... */
    uint64_t seed;
    uint64_t budget;              /* 0: no limit */
    double time_limit_s;          /* 0: no limit */
    uint64_t patience;            /* 0: never */
    uint64_t evaluations;         /* configurations the search asked for and this run measured */
    uint64_t screened;            /* skipped on static information (guided), or failing by their compile
                                  alone (guided, auto): not evaluations */
    const char *stop_reason;      /* "budget", "time", "patience", "space exhausted", "strategy finished", or
                                  NULL (exhaustive ran to its end, or was interrupted) */
    double first_variant_seconds; /* when the first variant was sent to the GPU worker, in seconds from the
                                  run's start (the tuner's set-up, after the device query); 0: none ran */
    /* Hardware counters (cutune_tune_options.profile_top). */
    uint64_t profiled;        /* variants whose counters were read (twins that took their run's included) */
    double profile_seconds;   /* the profiling phase's wall time */
    const char *profile_note; /* why none could be read (no CUPTI, no permission); NULL otherwise */
    /* Several GPUs at once (cutune_tune_options.devices): which, and how the
     * others' times compare with the first's (spread[0] is the first's own: unused). */
    int ndevices; /* 0: one GPU (device_name's) */
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
    /* Where the wall time went (cutune_phase), and the GPU work besides timing
     * (cutune_work); all 0 when not measured (a results file written before them, a
     * merge). phases_wall_seconds: the phases' sum, from the process's start to the end
     * of cutune_tune (a results file's: to its writing). */
    double phase_seconds[CUTUNE_PHASE_COUNT];
    double phases_wall_seconds;
    double work_seconds[CUTUNE_WORK_COUNT];
} cutune_tune_summary;

typedef struct cutune_tune_result cutune_tune_result;

/* cutune_tune_summary_of / cutune_tune_count / cutune_tune_at: what the run found. */
const cutune_tune_summary *cutune_tune_summary_of(const cutune_tune_result *r);
uint64_t cutune_tune_count(const cutune_tune_result *r);
const cutune_measurement *cutune_tune_at(const cutune_tune_result *r, uint64_t i);

/* cutune_tune_write_results: the results as JSON (docs/results-format.md) to `path`, or
 * for "-" the same text on standard output (cutune_write_file). CUTUNE_OK, CUTUNE_EIO
 * or CUTUNE_ENOMEM (see cutune_last_error). */
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

/* Hardware counters (cutune_tune_options.profile_top). cutune_tune_profile_count /
 * cutune_tune_profile_metric: the counters the run read (cutune_measurement_hw holds
 * their values), 0 / NULL when none. */
int cutune_tune_profile_count(const cutune_tune_result *r);
const char *cutune_tune_profile_metric(const cutune_tune_result *r, int i);
/* cutune_tune_profile_text: the table of r's hardware counters as `cutune SPEC
 * --metrics N` prints it: an empty line, a heading per counter ([a] ..., the nvprof name
 * of a default one with its unit), then a row per profiled variant, best objective first
 * (median ms, theoretical occupancy, the counters, its params named by `spec`); "" when
 * the run read none. In *out (free with cutune_free). CUTUNE_OK; CUTUNE_EINVAL (NULL
 * arguments); CUTUNE_ENOMEM. */
int cutune_tune_profile_text(char **out, const cutune_spec *spec, const cutune_tune_result *r);
/* cutune_tune_profile_note: what to say beside that table when counters were asked for
 * and not all read: "no hardware counters were read: WHY; the times above stand\n" (none
 * was), "some counters were not read: WHY\n" (the run has a note), else "". In *out
 * (free with cutune_free). CUTUNE_OK; CUTUNE_EINVAL (NULL arguments); CUTUNE_ENOMEM. */
int cutune_tune_profile_note(char **out, const cutune_tune_result *r);

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

/* cutune_results_load_all: the n results files paths[0 .. n), each read in turn
 * (cutune_results_load) into *out (n results; free with cutune_results_free_all), and
 * with `winners` nonzero each checked, as soon as it is read, to have a winner to put in
 * a header (cutune_header_has_winner). Stops at the first file that fails: CUTUNE_OK;
 * that file's status (cutune_last_error names it), and for one without a winner
 * CUTUNE_EINVAL with *winnerless (may be NULL) its index (-1 otherwise); CUTUNE_ENOMEM.
 * *out is NULL on failure, what was read freed. cutune_results_free_all: frees
 * results[0 .. n) and the array; NULL is a no-op. */
int cutune_results_load_all(cutune_tune_result ***out, const char *const *paths, int n, int winners, int *winnerless);
void cutune_results_free_all(cutune_tune_result **results, int n);

/* cutune_results_merge: the shards of a run split over processes or GPUs
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

/* cutune_merge_text: what `cutune merge` says of r, merged from `nfiles` files and
 * written to `output`: in *out "merged N files: V variants, T timed, best #O (OBJECTIVE
 * VALUE)" (no best when none won) and "results: OUTPUT", a line each; in *missing the
 * shards r lacks (a partial merge), "cutune merge: partial: shards I, J of N missing;
 * ..." ("" when none). Both free with cutune_free. CUTUNE_OK, CUTUNE_EINVAL (NULL
 * arguments) or CUTUNE_ENOMEM. */
int cutune_merge_text(char **out, char **missing, const cutune_tune_result *r, int nfiles, const char *output);

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
/* cutune_tune_block: the name of the kernel block the result is of (`kernel k as NAME`:
 * NAME), the kernel's name for a block without one of its own or a results file written
 * before blocks had names (which records none). */
const char *cutune_tune_block(const cutune_tune_result *r);
const char *cutune_tune_date(const cutune_tune_result *r);
int cutune_tune_param_count(const cutune_tune_result *r);
const char *cutune_tune_param_name(const cutune_tune_result *r, int i);
const char *cutune_tune_param_type(const cutune_tune_result *r, int i);

/* cutune_results_spec: the spec r records (cutune_tune_spec_path), loaded with `opts`
 * (NULL: every default; `skip_file_checks` for one whose kernel file moved), with the
 * block of r's kernel and params held, in *out (free with cutune_spec_free). CUTUNE_OK;
 * CUTUNE_EINVAL when r names no spec, the spec cannot be loaded now or its kernel or
 * params have changed since: cutune_last_error() says which, worded to follow the
 * results file's name ("names no spec", "records a spec that cannot be loaded now:
 * PATH", "records a spec whose kernel or params have changed since: PATH"). */
int cutune_results_spec(cutune_spec **out, const cutune_tune_result *r, const cutune_load_options *opts);
const cutune_device *cutune_tune_device(const cutune_tune_result *r);

#ifdef __cplusplus
}
#endif

#endif
