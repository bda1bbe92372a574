/* tuner.h - the tuning engine above runtime/ and search/: a run's set-up, the reference,
 * the loop over variants, selection, the journal's writes and resume, and what the spec
 * says turned into runtime/bench's plain arguments. Not part of the public interface;
 * api/tune.c (cutune_tune) is its facade.
 *
 * Parts and what each owns:
 *   tuner_goal (goal.h, goal.c)  the objective, the metrics and the best so far;
 *   tuner_gpu  (gpu.c)  the tuner's handle on a GPU worker: its process, the plan it
 *              inherits (gw.h: the code that runs inside the worker is gw_*.c's), and
 *              the variant's time limit;
 *   tuner      (tuner.c, run.c, loop.c, fleet.c, finish.c)  the run: journal, search
 *              settings, budgets, the GPUs' variants in flight and the counts of the
 *              summary. */
#ifndef CUTUNE_TUNER_TUNER_H
#define CUTUNE_TUNER_TUNER_H

#include "../base/err.h"
#include "../compiler/spec.h"
#include "../results/journal.h"
#include "../search/search.h"
#include "../results/record.h"
#include "../results/result.h"
#include "../runtime/bench.h"
#include "../runtime/worker.h"
#include "../session/session.h"
#include "goal.h"
#include "gw.h"

/* ---- the tuner's side of a GPU worker (gpu.c) --------------------------------------
 *
 * Runs in the tuner: the worker's plan made (tuner_gpu_init), its process started,
 * variants sent and replies received over the pipe, the worker replaced after a hang, a
 * crash or a sticky error. What runs inside the worker is gw.h's. */

typedef struct tuner_gpu {
    gw_plan plan;              /* what the worker inherits (read-only once made) */
    wk_proc proc;              /* pid 0: no worker runs */
    double sent_at;            /* sys_seconds() when the variant in hand was sent */
    bool send_failed;          /* it could not be sent (the worker had died): lost at the receive */
    double limit_s;            /* a variant's time limit; derived at the first start when 0 */
    double run_started;        /* sys_seconds() at tuner_gpu_init: the run's start */
    bool first_sent;           /* a variant has been sent to a worker (first_variant_seconds is set) */
    char err[512];
} tuner_gpu;

/* tuner_inputs_identity (tuner.c): a hash of the spec's input files as they are now
 * (canonical path, size, modification time) into hex, "" when it reads none: part of
 * the journal's identity, so a run resumed after a data file changed starts afresh. */
void tuner_inputs_identity(const model *m, char *hex, size_t size);

/* tuner_gpu_init: prepares `g` for `spec` on GPU `device` (whose attributes are `dev`):
 * the plan (arguments, settings) and the time limit. CUTUNE_OK, CUTUNE_ENOMEM, or
 * CUTUNE_ESPEC with a diagnostic (a verified output whose size depends on params). */
int tuner_gpu_init(tuner_gpu *g, cutune_spec *spec, const cutune_tune_options *opts, int device,
                   const cutune_device *dev, bool flush, cutune_tune_result *res);

/* tuner_gpu_start: starts a worker and waits for its set-up (the reference's run): the
 * results learn the reference and its GPU time. CUTUNE_OK, or CUTUNE_ENOMEM (no process)
 * or CUTUNE_ENODEV (its set-up failed) with g->err. The same as tuner_gpu_spawn, then
 * tuner_gpu_ready: several GPUs' workers are spawned first, so their references run at
 * once (issue 19). */
int tuner_gpu_start(tuner_gpu *g);
int tuner_gpu_spawn(tuner_gpu *g);
int tuner_gpu_ready(tuner_gpu *g);

/* tuner_gpu_send: sends variant v (binary bin) to the worker, starting one when none
 * runs, and notes in rec when and where it started; the reply is awaited with
 * tuner_gpu_receive, by tuner_gpu_deadline. have_best/best: for early stopping; final:
 * timed in full whatever the best (the run's final race). CUTUNE_OK, or the status of
 * tuner_gpu_start (the run must stop). */
int tuner_gpu_send(tuner_gpu *g, const session_binary *bin, const cutune_variant *v, bool have_best, double best,
                   bool final, record *rec);

/* tuner_gpu_deadline: when the variant sent runs out of time (sys_seconds). */
double tuner_gpu_deadline(const tuner_gpu *g);

/* tuner_gpu_receive: the reply to the variant sent, into rec, waiting for it until the
 * deadline; a hang, a crash or a sticky error is recorded against the variant and the
 * worker replaced for the next. */
void tuner_gpu_receive(tuner_gpu *g, record *rec);

/* tuner_gpu_run: tuner_gpu_send, then tuner_gpu_receive. */
int tuner_gpu_run(tuner_gpu *g, const session_binary *bin, const cutune_variant *v, bool have_best, double best, bool final,
                  record *rec);

/* tuner_gpu_profile (issue 18): variant v's hardware counters (g->plan.nhw of them, into
 * values; NaN where not read) from a profiled launch in the worker, starting one when
 * none runs; *passes: the replays. When they could not be read, `why` says why (CUPTI,
 * the permission, a launch that failed, a worker that died or hung: it is replaced);
 * "" otherwise; *off: the profiler itself cannot be used (no variant's can be read).
 * CUTUNE_OK, or the status of tuner_gpu_start. */
int tuner_gpu_profile(tuner_gpu *g, const session_binary *bin, const cutune_variant *v, double *values, int *passes,
                      bool *off, char *why, size_t whysize);

/* tuner_gpu_free: ends the worker (if any) and frees what init allocated. */
void tuner_gpu_free(tuner_gpu *g);

/* ---- twins: variants that are the same experiment (twins.c) ------------------------ */

/* A launch's identity: the machine code (runtime/cubin.h), symbol, geometry, dynamic
 * shared memory and planned arguments, as XXH3-128. */
typedef struct twin_id {
    uint64_t lo, hi;
} twin_id;

typedef struct twins twins;

/* twins_new: an empty table for runs of model m. *out is set even on failure (free it
 * with twins_free). CUTUNE_OK or CUTUNE_ENOMEM. */
int twins_new(twins **out, const model *m);

/* twins_free: NULL is a no-op. */
void twins_free(twins *tw);

/* twins_identity: the identity of variant v (configuration `vals`, binary `bin`).
 * 0, or -1 when it has none (no binary, a cubin that cannot be read, arguments that
 * cannot be planned): such a variant is always run. */
int twins_identity(twins *tw, const value *vals, const cutune_variant *v, const session_binary *bin, twin_id *out);

/* twins_find: the index of the record run for identity `id`, or -1. */
int64_t twins_find(const twins *tw, twin_id id);

/* twins_add: record `index` was run for `id` (the first one stays). CUTUNE_OK or
 * CUTUNE_ENOMEM. */
int twins_add(twins *tw, twin_id id, uint64_t index);

/* ---- the run (tuner.c, loop.c, finish.c, run.c) ---------------------------------- */

/* A GPU's variant in flight (fleet.c): its record, and its identity when it has one
 * (a twin of it waits for its outcome). rec NULL: the GPU is idle. */
typedef struct tuner_slot {
    record *rec;
    uint64_t index;            /* its index in the results */
    bool has_id;
    twin_id id;
} tuner_slot;

typedef struct tuner {
    cutune_spec *spec;
    const model *m;
    const cutune_tune_options *opts;
    cutune_tune_result *res;   /* borrowed */
    tuner_gpu *gpus;           /* a worker per GPU (issue 19); gpus[0] runs the reference first, the
                                  final race and the profiling */
    tuner_slot *slots;         /* what each GPU has in flight */
    tuner_slot *answered;      /* variants that have answered, not yet finished (fleet.c) */
    int ngpus, nanswered;
    /* Called when a variant is finished (journaled, the best updated): the search is
     * told. Returns 1 when the search is over (the run then stops taking variants). */
    int (*done)(void *user, const record *rec);
    void *done_user;
    bool stopping;             /* done said the search is over */
    tuner_goal goal;           /* the tuner's best so far */
    value *vals;               /* scratch: a configuration's values */
    journal *journal;          /* NULL: none */
    twins *twins;              /* NULL: every variant is run (cutune_tune_options.run_twins) */
    search_settings set;
    cutune_space_size size;    /* the space's size, as spec_count counted it */
    double started;
    uint64_t evaluations;
    const char *stop;          /* why the search stopped ("" while it runs) */
    int status;                /* set when the run must stop */
    char err[512];
} tuner;

/* tuner_new: a run of `spec` (whose space has `size`) with `opts` on `dev` into `res`
 * (borrowed): settings checked, the first worker started (the reference runs now: one
 * that fails is a spec problem, found before anything else runs), the journal opened.
 * *out is set even on failure (tuner_free it). CUTUNE_OK, or a status with a diagnostic
 * and the error object set. */
int tuner_new(tuner **out, cutune_spec *spec, const cutune_space_size *size, const cutune_tune_options *opts,
              const cutune_device *dev, bool flush, cutune_tune_result *res);

/* tuner_search_settings: the spec's `search` (model m) with the overrides in `o` (may
 * be NULL) applied; a budget percentage becomes a count of the `count` valid
 * configurations. CUTUNE_OK, or CUTUNE_EINVAL with a diagnostic on `diags` (an unknown
 * strategy, a percentage out of range). Shared with the simulator (api/simulate.c). */
int tuner_search_settings(const model *m, diag_list *diags, const cutune_search_options *o, uint64_t count,
                          search_settings *out);

/* tuner_session: opens a compile session for the run (binaries kept, the GPU's
 * architecture), its progress counting towards `total` (0: unknown). As session_open. */
int tuner_session(tuner *t, const cutune_analyze_options *o, uint64_t total, cutune_analyze_summary *sum,
                  session **out);

/* tuner_tune: every variant the strategy proposes compiled, run, journaled, and the best
 * chosen; the result's summary filled. CUTUNE_OK, or a status with a diagnostic. */
int tuner_tune(tuner *t);

/* ---- hardware counters (counters.c, issue 18) --------------------------------------- */

/* tuner_profile_options: `in` with the counters resolved into *out (the default set
 * when none are named) and their names checked against the chip of `arch` with CUPTI's
 * host API (no GPU needed). CUTUNE_OK (also when CUPTI cannot be used here: the
 * profiling phase says so, and tuning goes on), or CUTUNE_EINVAL with a diagnostic on
 * the spec (an unknown name, a bad profile_top). */
int tuner_profile_options(cutune_spec *spec, const cutune_tune_options *in, const char *arch,
                          cutune_tune_options *out);

/* tuner_profile (run.c, after the final race): the counters of the chosen variants
 * (the best opts->profile_top that ran ok, or all), read in the worker and journaled;
 * bins[i] (nbins) is record i's binary (cubin NULL: none; those are compiled again
 * through `ss`). The summary's profiled, profile_seconds and profile_note are set.
 * CUTUNE_OK, or a status (the worker could not start, the journal, memory). */
int tuner_profile(tuner *t, session *ss, session_binary *bins, uint64_t nbins);

/* ---- problem sizes (sizes.c) ------------------------------------------------------ */

/* tuner_run_one: one tuning run of the spec's model as it is (one size): the space
 * counted (compiler/spec's spec_count: an empty one explained), a result made (*out,
 * also on failure once made), a tuner run over it and the result finished. CUTUNE_OK or
 * a status with a diagnostic on the spec. */
int tuner_run_one(cutune_tune_result **out, cutune_spec *spec, const cutune_tune_options *opts,
                  const cutune_device *dev, bool flush);

/* tuner_run_sizes: tuner_run_one for each of the spec's sizes in turn, each adopted by
 * `parent` (results/result.h), with a journal per size (the run's journal path with the
 * size: "x.json.n=4096.journal"). Stops at the first failure or interruption; the spec's
 * selected size is restored. CUTUNE_OK or the failing size's status. */
int tuner_run_sizes(cutune_tune_result *parent, cutune_spec *spec, const cutune_tune_options *opts,
                    const cutune_device *dev, bool flush);

/* tuner_free: ends the worker, closes the journal; NULL is a no-op. */
void tuner_free(tuner *t);

/* tuner_each (loop.c): a session_each for the tuner (user: a tuner): one variant read
 * back from the journal, or taken from its twin, or sent to an idle GPU (fleet.c: it
 * is finished when its answer comes); each finished by tuner_finish. Returns 0, 1 when
 * t->done has said the search is over (the variant is then not taken), -1 with
 * t->status on a failure. */
int tuner_each(void *user, const cutune_analysis *a, const session_binary *bin);

/* tuner_finish (finish.c): variant rec (the results' record `index`) has its outcome: its identity (when has_id and
 * the outcome is one the code decides) joins the twins, it is journaled (unless read
 * back from the journal), the best and the winner are updated and t->done is told.
 * CUTUNE_OK, or a status in t->status with t->err (the journal, memory). */
int tuner_finish(tuner *t, record *rec, uint64_t index, bool has_id, twin_id id);

/* ---- several GPUs (fleet.c, issue 19) --------------------------------------------- */

/* tuner_fleet_start: every GPU's worker started at once, then each one's set-up (its
 * reference) awaited. CUTUNE_OK, or the first failure's status with t->err. */
int tuner_fleet_start(tuner *t);

/* tuner_fleet_idle: a GPU with nothing in flight, waiting for one to answer when all
 * are busy: the answer is taken (figures, the best so far) but its variant is finished
 * by the next tuner_fleet_flush, after the caller has given the GPU its next variant.
 * Its index, or -1 (nothing was in flight: cannot happen with every GPU busy). */
int tuner_fleet_idle(tuner *t);

/* tuner_fleet_flush: finishes (tuner_finish) the variants that have answered, in the
 * order they did. 0, or -1 when finishing one failed (t->status; the rest are still
 * finished). */
int tuner_fleet_flush(tuner *t);

/* tuner_fleet_send: sends rec (the results' record `index`; binary bin; its identity
 * when has_id) to idle GPU k.
 * 0, or -1 with t->status (no worker could be started). */
int tuner_fleet_send(tuner *t, int k, record *rec, uint64_t index, const session_binary *bin, bool has_id,
                     twin_id id);

/* tuner_fleet_busy: whether a variant is in flight or answered and not yet finished. */
bool tuner_fleet_busy(const tuner *t);

/* tuner_fleet_collect: finishes the variants that have answered, or when none has,
 * waits for the first GPU to answer (or run out of time) and finishes its variant. 0; -1
 * when none was in flight or finishing failed (t->status). */
int tuner_fleet_collect(tuner *t);

/* tuner_fleet_drain: collects until nothing is in flight (every variant is finished,
 * also after a failure). 0, or -1 when finishing one failed. */
int tuner_fleet_drain(tuner *t);

/* tuner_fleet_wait_twin: collects until no variant of identity `id` is in flight. 0 or
 * -1 as tuner_fleet_collect. */
int tuner_fleet_wait_twin(tuner *t, twin_id id);

/* tuner_fleet_race: times variants in full, nothing else in flight: the first GPU the
 * ncontend contenders vs[0 .. ncontend) (binaries bins[i]), into first[i] (records of the
 * result's arena, not in the results); every other GPU all n, the rest being variants the
 * first GPU timed in full during the run, whose records are refs[i]; then
 * summary.spread[k] is each other GPU's median time over the first's (a contender's race
 * run, another's record). A GPU other than the first whose worker cannot be started is
 * left out. CUTUNE_OK, CUTUNE_ENOMEM, or the status of GPU 0's start (t->status, t->err). */
int tuner_fleet_race(tuner *t, const session_binary *const *bins, const cutune_variant *const *vs,
                     const record *const *refs, int n, int ncontend, record **first);

/* tuner_take_twin (loop.c): record `rec` (not run) takes the figures of record
 * `twin`, the same experiment (twins.c), and its own metrics and objective. */
void tuner_take_twin(tuner *t, record *rec, const record *twin);

/* tuner_rejournal (finish.c): journals rec again (its figures now replace the earlier
 * line on resume). CUTUNE_OK, or CUTUNE_EIO with t->err and t->status set. */
int tuner_rejournal(tuner *t, const record *rec);

/* tuner_note_best (finish.c): the best so far (early stopping's, the race's) becomes
 * rec's objective when rec ran ok, was timed, not pruned, and beats it. */
void tuner_note_best(tuner *t, const record *rec);

/* tuner_note_winner (finish.c): rec becomes the result's winner when it may win (timed in
 * full, not pruned, not provisional) and beats the winner so far. */
void tuner_note_winner(tuner *t, const record *rec);

/* tuner_params_match: whether a journal line's params are the configuration `vals`. */
bool tuner_params_match(const model *m, const value *vals, json_t *line);

/* tuner_search (run.c): the loop of every strategy: proposals streamed through a
 * compile session, each run, journaled and told. */
int tuner_search(tuner *t, const cutune_analyze_options *aopts, cutune_analyze_summary *asum);

#endif
