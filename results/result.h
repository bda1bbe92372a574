/* result.h - the outcome of a tuning run (cutune_tune_result): every variant's record,
 * the summary, and what is needed to write them out after the spec is gone.
 *
 * Ownership: a cutune_tune_result owns everything it points to: the records and their
 * strings live in its arena, the records' index in `records` (malloc). It is freed with
 * cutune_tune_result_free (api/cutune_results.c). A record's status is its `out` (an outcome),
 * kept there only: its name is outcome_name(out). */
#ifndef CUTUNE_RESULTS_RESULT_H
#define CUTUNE_RESULTS_RESULT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "cutune.h"
#include "../base/arena.h"
#include "../base/phases.h"
#include "../compiler/model.h"
#include "../runtime/outcome.h"
#include "measurement.h"

/* A record: m first, so that the public accessors, given &rec->m, reach the record
 * (api/cutune_results.c: its outcome is `out`). */
typedef struct record {
    cutune_measurement m;
    cutune_variant v; /* a deep copy, in the result's arena */
    value *vals;      /* the configuration v was made from, typed (v.nparams values, in the
                         result's arena; vals[i] is what v.values[i] writes): set by result_add
                         from the session's values, and by the record codec from a results
                         file's entry (each value exactly of its param's type; the text then made
                         from it); never read back from the text. A race's loose record borrows
                         its variant's (tuner/fleet.c) */
    double *metrics;  /* m.metrics */
    double *hw;       /* m.hw: the result's nhw counters, NaN until read */
    outcome out;
    int size; /* in a run over sizes: its size's index (parent->sizes); else -1 */
} record;

struct cutune_tune_result {
    arena *arena;
    record **records;
    uint64_t n, cap;
    record *scratch; /* for runs outside the results (the reference; the worker's) */
    double *scratch_metrics;
    cutune_tune_summary summary;
    cutune_device device;
    char *spec_path, *kernel, *kernel_file, *strategy, *date; /* spec_path: as recorded (canonical
                                                                    when tuned by this cutune) */
    /* the kernel block's name (`kernel k as NAME`; the kernel's when it has none of its own);
     * NULL: not recorded (a file written before blocks had names) */
    char *block;
    char *spec_found; /* read back: the recorded spec's file, found and canonical; NULL if not */
    int nparams;
    const char **param_names, **param_types;
    const char **param_routes; /* each param's route ("define", ...); NULL, or NULL entries: not recorded */
    int nmetrics;
    const char **metric_names;
    /* the hardware counters read (result_set_profile), and for how many
     * variants (cutune_tune_options.profile_top: -1 all); nhw 0: none */
    int nhw;
    const char **hw_names;
    int profile_top;
    bool flush_l2;
    int64_t warmup, repeat, max_repeat;
    double spread;
    /* Problem sizes (the spec's `size`; docs/results-format.md). A run over several sizes
     * is a parent whose `sizes` are one complete result per size (owned, freed with it);
     * the parent's `records` point into theirs, in size order, so that whatever walks
     * every record (CSV, T4, the accessors) sees every size. Each size's result holds
     * its own values; the parent's size_values is NULL. Names and values are in the
     * arena of the result that holds them. */
    int nsize_vars; /* 0: not a run over sizes */
    const char **size_vars;
    int64_t *size_values; /* a size's result: each variable's value */
    int nsizes;
    cutune_tune_result **sizes;
    bool borrowed_records; /* the parent: records belong to the sizes' results */
    /* a shard of a run split over processes (settings.shard). shard_count 0:
     * not a shard. A shard holds the configurations whose ordinal % shard_count ==
     * shard_index. A partial merge of shards (results/merge.h) holds those of the
     * nshard_merged indices in shard_merged instead (shard_index -1 then). merged_from:
     * the files a merge was made of (nmerged_from 0: not a merge). All in the arena. */
    int shard_index, shard_count;
    int shard_block; /* ordinals go to shards in runs of this many (space_shard_block; 0 read as 1) */
    int nshard_merged;
    int *shard_merged;
    int nmerged_from;
    const char **merged_from;
    /* Imported from another tool's file (import/): where the data came from, the results
     * file's "source" object (docs/results-format.md; owned: json_decref), and its
     * account in one line (cutune_tune_source; in the arena). NULL for a run's. */
    json_t *source;
    const char *source_line;
    /* While the run is tuned: its phase account (cutune_phase; the facade's, borrowed;
     * NULL otherwise), which the tuner counts into. */
    phases *clock;
};

/* result_record_of: the record whose measurement m is (m is a record's first member:
 * every measurement a result hands out is one). */
const record *result_record_of(const cutune_measurement *m);

/* result_create: an empty result (no records) with its arena and summary.best = -1;
 * NULL when out of memory. */
cutune_tune_result *result_create(void);

/* result_new_for: an empty result for a run of model `m`, whose spec is at `spec_path`,
 * on `dev` (NULL when out of memory). */
cutune_tune_result *result_new_for(const model *m, const char *spec_path, const cutune_device *dev);

/* result_route_name: a param's route as results files write it ("define", "template",
 * "option", "maxrregcount", "smem", "none"). */
const char *result_route_name(ast_route_kind route);

/* result_set_size: makes r the result of one size: variables `names` (n of them) with
 * `values`, copied. 0, or -1 out of memory. */
int result_set_size(cutune_tune_result *r, int n, const char *const *names, const int64_t *values);

/* result_adopt_size: the parent takes `size` (a size's result) as its next size: it
 * owns it from now on, and its records become the parent's too (each record's `size`
 * set). The parent's counts add up the sizes' (result_finish on each size first). 0, or
 * -1 out of memory (the size's result is freed then). */
int result_adopt_size(cutune_tune_result *parent, cutune_tune_result *size);

/* result_set_source: r's data came from another tool's file, as `src` says (a JSON
 * object of at most 64 keys, each value a string of at most 4096 bytes, a number, a
 * boolean, null, or a list of at most 64 numbers and strings: docs/results-format.md,
 * "source"); r takes a reference to it and makes its one-line account. 0, or -1 with
 * what is wrong in why (the key named) or "out of memory". */
int result_set_source(cutune_tune_result *r, json_t *src, char *why, size_t whysize);

/* result_destroy: frees the result and all it owns; NULL is a no-op. */
void result_destroy(cutune_tune_result *r);

/* result_add: a new record for the analysed variant `a`, made from configuration `vals`
 * (nparams values, as the session delivers them: session_each), both copied into the
 * result's arena; outcome OUTCOME_NOT_RUN (NULL when out of memory). */
record *result_add(cutune_tune_result *r, const cutune_analysis *a, const value *vals);

/* result_append: a new empty record (metrics NaN, outcome OUTCOME_NOT_RUN) appended to
 * the results, for a loader to fill; NULL when out of memory. */
record *result_append(cutune_tune_result *r);

/* result_loose: a new record in r's arena that is not part of the results
 * (a run timed only to compare GPUs), as result_append makes one; NULL out of memory. */
record *result_loose(cutune_tune_result *r);

/* result_scratch: a record that is not part of the results (the reference's run). */
record *result_scratch(cutune_tune_result *r);

/* result_set_outcome: the record's outcome and (copied) reason; reason may be NULL. */
void result_set_outcome(cutune_tune_result *r, record *rec, outcome o, const char *reason);

/* record_can_win: whether the record may be a run's winner: outcome ok, timed in full
 * (not pruned), with a finite objective. The tuner's best, a results file's summary.best
 * and cutune_tune_best all obey it. */
bool record_can_win(const record *rec);

/* result_take_run: rec takes the outcome and figures of `run` (the same variant timed
 * again, in full: the final race): its WORKER and TAKEN fields (measurement_fields.h:
 * times, statistics, metrics, objective, verification, energy); its SUMMED ones
 * (launches, GPU and timing seconds) are added to rec's (a note: rec's kept, else run's);
 * rec is no longer provisional. */
void result_take_run(cutune_tune_result *r, record *rec, const record *run);

/* result_take_twin: rec (not run) takes the outcome and figures of `twin`, the run of
 * the same machine code with the same launch and arguments (as result_take_run, the
 * provisional mark included); its same_code_as names twin, its SUMMED fields (launches,
 * GPU seconds) are 0 (a note: none). The caller evaluates rec's own metrics and objective. */

/* result_take_measured: rec takes the `origin` fields of `from` (measurement_fields.h:
 * MO_WORKER also takes the SUMMED ones): numbers as they are, strings copied into r's
 * arena ("" as NULL), metrics (from->nmetrics of them) into rec's. With the outcome
 * `o`, the GPU worker's reply becomes the record this way. */
void result_take_measured(cutune_tune_result *r, record *rec, outcome o, const cutune_measurement *from);
void result_take_twin(cutune_tune_result *r, record *rec, const record *twin);

/* result_set_profile (before any record is added): the run reads counters
 * `names` (n, copied) of the best `top` variants (-1: all). 0, or -1 out of memory. */
int result_set_profile(cutune_tune_result *r, const char *const *names, int n, int top);

/* result_take_profile: rec takes the counters of `from` (its twin: the same machine
 * code, launch and arguments), with their passes and note. */
void result_take_profile(cutune_tune_result *r, record *rec, const record *from);

/* result_set_profile_note: the record's profile_note (copied; NULL clears it). */
void result_set_profile_note(cutune_tune_result *r, record *rec, const char *note);

/* result_set_energy_note: the record's energy_note (copied; NULL clears it). */
void result_set_energy_note(cutune_tune_result *r, record *rec, const char *note);

/* result_set_best: the record is the best so far. */
void result_set_best(cutune_tune_result *r, const record *rec);

/* result_count: the summary's counts over every record (variants, timed, resumed,
 * pruned, twins, wrong, cannot launch, failed). */
void result_count(cutune_tune_result *r);

/* result_finish: fills the summary's counts (result_count), adds the records' GPU and
 * timing seconds to it, and records the measurement settings. */
void result_finish(cutune_tune_result *r, bool flush_l2, const m_measure *ms);

/* result_best: the winner (a measurement that can win at summary.best), or NULL. */
const cutune_measurement *result_best(const cutune_tune_result *r);

#endif
