/* tuner.h - the tuning engine above runtime/ and search/: a run's set-up, the reference,
 * the loop over variants, selection, the journal's writes and resume, and what the spec
 * says turned into runtime/bench's plain arguments. Not part of the public interface;
 * api/cutune_tune.c (cutune_tune) is its facade.
 *
 * One prefix per file (its module), each owning its state:
 *   tuner.c   tuner_     the run's set-up, its summary, tuner_free (the tuner struct);
 *   run.c     run_       the one loop of every strategy (run_search);
 *   loop.c    loop_      one variant: journal read-back, twin, or sent to a GPU;
 *   finish.c  finish_    a variant's end: journal line, best, winner, the search told;
 *   fleet.c   fleet_     the GPUs' variants in flight (fleet_slot), the final race;
 *   gpu.c     gpu_       the tuner's handle on a GPU worker (gpu_handle);
 *   gw_*.c    gw_        what runs inside the GPU worker (gw.h: its own header);
 *   goal.c    goal_      the objective, the metrics, the best so far (goal.h: goal_state);
 *   twins.c   twins_     variants that are the same experiment;
 *   settings.c settings_ the search settings, the spec's with the caller's overrides;
 *   sizes.c   sizes_     a run per problem size, above the one loop;
 *   counters.c counters_ the hardware counters' phase after a run. */
#ifndef CUTUNE_TUNER_TUNER_H
#define CUTUNE_TUNER_TUNER_H

#include "../base/err.h"
#include "../compiler/spec.h"
#include "../results/journal.h"
#include "../search/search.h"
#include "../results/result.h"
#include "../runtime/bench.h"
#include "../runtime/worker.h"
#include "../session/session.h"
#include "goal.h"
#include "gw.h"

/* ---- the tuner's side of a GPU worker (gpu.c) --------------------------------------
 *
 * Runs in the tuner: the worker's plan made (gpu_init), its process started,
 * variants sent and replies received over the pipe, the worker replaced after a hang, a
 * crash or a sticky error. What runs inside the worker is gw.h's. */

typedef struct gpu_handle {
    gw_plan plan;       /* what the worker inherits (read-only once made) */
    wk_proc proc;       /* pid 0: no worker runs */
    double sent_at;     /* sys_seconds() when the variant in hand was sent */
    bool send_failed;   /* it could not be sent (the worker had died): lost at the receive */
    double limit_s;     /* a variant's time limit; derived at the first start when 0 */
    double run_started; /* sys_seconds() at gpu_init: the run's start */
    bool first_sent;    /* a variant has been sent to a worker (first_variant_seconds is set) */
} gpu_handle;

/* tuner_inputs_identity (tuner.c): a hash of the spec's input files as they are now
 * (canonical path, size, modification time) into hex, "" when it reads none: part of
 * the journal's identity, so a run resumed after a data file changed starts afresh. */
void tuner_inputs_identity(const model *m, char *hex, size_t size);

/* gpu_init: prepares `g` for `spec` on GPU `device` (whose attributes are `dev`):
 * the plan (arguments, settings) and the time limit. CUTUNE_OK, CUTUNE_ENOMEM, or
 * CUTUNE_ESPEC with a diagnostic (a verified output whose size depends on params). */
int gpu_init(gpu_handle *g, cutune_spec *spec, const cutune_tune_options *opts, int device, const cutune_device *dev,
             bool flush, cutune_tune_result *res);

/* gpu_start: starts a worker and waits for its set-up (the reference's run): the
 * results learn the reference and its GPU time. CUTUNE_OK, or CUTUNE_ENOMEM (no process)
 * or CUTUNE_ENODEV (its set-up failed) with the thread's error set. The same as gpu_spawn, then
 * gpu_ready: several GPUs' workers are spawned first, so their references run at
 * once. */
int gpu_start(gpu_handle *g);
int gpu_spawn(gpu_handle *g);
int gpu_ready(gpu_handle *g);

/* gpu_send: sends the variant of record `src` (its view and its typed values; binary
 * bin) to the worker, starting one when none runs, and notes in rec (src itself, or
 * another record that takes the answer) when and where it started; the reply is awaited with
 * gpu_receive, by gpu_deadline. have_best/best: for early stopping; final:
 * timed in full whatever the best (the run's final race). CUTUNE_OK, or the status of
 * gpu_start or CUTUNE_ENOMEM, with the thread's error set (the run must stop). */
int gpu_send(gpu_handle *g, const session_binary *bin, const record *src, bool have_best, double best, bool final,
             record *rec);

/* gpu_plain_values: configuration `vals` (n values) as a request carries it to the
 * worker, typed (out: n slots; strings borrowed): gw_request_values' inverse. */
void gpu_plain_values(const value *vals, int n, wk_value *out);

/* gpu_deadline: when the variant sent runs out of time (sys_seconds). */
double gpu_deadline(const gpu_handle *g);

/* gpu_receive: the reply to the variant sent, into rec, waiting for it until the
 * deadline; a hang, a crash or a sticky error is recorded against the variant and the
 * worker replaced for the next. */
void gpu_receive(gpu_handle *g, record *rec);

/* gpu_run: gpu_send, then gpu_receive. */
int gpu_run(gpu_handle *g, const session_binary *bin, const record *src, bool have_best, double best, bool final,
            record *rec);

/* gpu_profile: the hardware counters of record src's variant (g->plan.nhw of them, into
 * values; NaN where not read) from a profiled launch in the worker, starting one when
 * none runs; *passes: the replays. When they could not be read, `why` says why (CUPTI,
 * the permission, a launch that failed, a worker that died or hung: it is replaced);
 * "" otherwise; *off: the profiler itself cannot be used (no variant's can be read).
 * CUTUNE_OK, or the status of gpu_start or CUTUNE_ENOMEM (the thread's error set). */
int gpu_profile(gpu_handle *g, const session_binary *bin, const record *src, double *values, int *passes, bool *off,
                char *why, size_t whysize);

/* gpu_free: ends the worker (if any) and frees what init allocated. */
void gpu_free(gpu_handle *g);

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
typedef struct fleet_slot {
    record *rec;
    uint64_t index; /* its index in the results */
    bool has_id;
    twin_id id;
} fleet_slot;

typedef struct tuner {
    cutune_spec *spec;
    const model *m;
    const cutune_tune_options *opts;
    cutune_tune_result *res; /* borrowed */
    gpu_handle *gpus;        /* a worker per GPU; gpus[0] runs the reference first, the
                                  final race and the profiling */
    fleet_slot *slots;       /* what each GPU has in flight */
    fleet_slot *answered;    /* variants that have answered, not yet finished (fleet.c) */
    int ngpus, nanswered;
    /* Called when a variant is finished (journaled, the best updated): the search is
     * told. Returns 1 when the search is over (the run then stops taking variants). */
    int (*done)(void *user, const record *rec);
    void *done_user;
    bool stopping;    /* done said the search is over */
    goal_state goal;  /* the tuner's best so far */
    value *vals;      /* scratch: a configuration's values */
    journal *journal; /* NULL: none */
    twins *twins;     /* NULL: every variant is run (cutune_tune_options.run_twins) */
    search_settings set;
    cutune_space_size size; /* the space's size, as spec_count counted it */
    double started;
    uint64_t evaluations;
    const char *stop; /* why the search stopped ("" while it runs) */
    int status;       /* set when the run must stop (tuner_stop) */
    char *why;        /* its reason (heap; NULL while it runs): the run drains the
                                  variants in flight before it reports, and those may fail too */
} tuner;

/* tuner_new: a run of `spec` (whose space has `size`) with `opts` on `dev` into `res`
 * (borrowed): settings checked, the first worker started (the reference runs now: one
 * that fails is a spec problem, found before anything else runs), the journal opened.
 * *out is set even on failure (tuner_free it). CUTUNE_OK, or a status with a diagnostic
 * and the error object set. */
int tuner_new(tuner **out, cutune_spec *spec, const cutune_space_size *size, const cutune_tune_options *opts,
              const cutune_device *dev, bool flush, cutune_tune_result *res);

/* settings_strategy: the strategy a run of model m with the overrides in `o` (may be
 * NULL) uses, into *out: o's, else auto for a budget given to a spec without a `search`
 * statement, else the spec's. false when o names no strategy there is (*out unspecified). */
bool settings_strategy(const model *m, const cutune_search_options *o, strategy *out);

/* settings_resolve: the spec's `search` (model m) with the overrides in `o` (may
 * be NULL) applied; a budget percentage becomes a count of the `count` valid
 * configurations. CUTUNE_OK, or CUTUNE_EINVAL with a diagnostic on `diags` (an unknown
 * strategy, a percentage out of range). Shared with the simulator (api/cutune_simulate.c). */
int settings_resolve(const model *m, diag_list *diags, const cutune_search_options *o, uint64_t count,
                     search_settings *out);

/* tuner_session: opens a compile session for the run (binaries kept, the GPU's
 * architecture), its progress counting towards `total` (0: unknown). As session_open. */
int tuner_session(tuner *t, const cutune_analyze_options *o, uint64_t total, cutune_analyze_summary *sum,
                  session **out);

/* tuner_tune: every variant the strategy proposes compiled, run, journaled, and the best
 * chosen; the result's summary filled. CUTUNE_OK, or a status with a diagnostic. */
int tuner_tune(tuner *t);

/* ---- hardware counters (counters.c) --------------------------------------- */

/* counters_options: `in` with the counters resolved into *out (the default set
 * when none are named) and their names checked against the chip of `arch` with CUPTI's
 * host API (no GPU needed). CUTUNE_OK (also when CUPTI cannot be used here: the
 * profiling phase says so, and tuning goes on), or CUTUNE_EINVAL with a diagnostic on
 * the spec (an unknown name, a bad profile_top). */
int counters_options(cutune_spec *spec, const cutune_tune_options *in, const char *arch, cutune_tune_options *out);

/* counters_read (run.c, after the final race): the counters of the chosen variants
 * (the best opts->profile_top that ran ok, or all), read in the worker and journaled;
 * bins[i] (nbins) is record i's binary (cubin NULL: none; those are compiled again
 * through `ss`). The summary's profiled, profile_seconds and profile_note are set.
 * CUTUNE_OK, or a status (the worker could not start, the journal, memory). */
int counters_read(tuner *t, session *ss, session_binary *bins, uint64_t nbins);

/* ---- problem sizes (sizes.c) ------------------------------------------------------ */

/* sizes_run_one: one tuning run of the spec's model as it is (one size): the space
 * counted (compiler/spec's spec_count: an empty one explained), a result made (*out,
 * also on failure once made), a tuner run over it and the result finished. CUTUNE_OK or
 * a status with a diagnostic on the spec. */
int sizes_run_one(cutune_tune_result **out, cutune_spec *spec, const cutune_tune_options *opts,
                  const cutune_device *dev, bool flush);

/* sizes_run_all: sizes_run_one for each of the spec's sizes in turn, each adopted by
 * `parent` (results/result.h), with a journal per size (the run's journal path with the
 * size: "x.json.n=4096.journal"). Stops at the first failure or interruption; the spec's
 * selected size is restored. CUTUNE_OK or the failing size's status. */
int sizes_run_all(cutune_tune_result *parent, cutune_spec *spec, const cutune_tune_options *opts,
                  const cutune_device *dev, bool flush);

/* tuner_free: ends the worker, closes the journal; NULL is a no-op. */
void tuner_free(tuner *t);

/* tuner_stop (tuner.c): the run must stop with `status` (t->status), for the reason the
 * thread's error (base/err.h) gives now, kept in t->why. */
void tuner_stop(tuner *t, int status);

/* loop_each (loop.c): a session_each for the tuner (user: a tuner): one variant read
 * back from the journal, or taken from its twin, or sent to an idle GPU (fleet.c: it
 * is finished when its answer comes); each finished by finish_variant. Returns 0, 1 when
 * t->done has said the search is over (the variant is then not taken), -1 with
 * t->status on a failure. */
int loop_each(void *user, const cutune_analysis *a, const value *vals, const session_binary *bin);

/* finish_variant (finish.c): variant rec (the results' record `index`) has its outcome: its identity (when has_id and
 * the outcome is one the code decides) joins the twins, it is journaled (unless read
 * back from the journal), the best and the winner are updated and t->done is told.
 * CUTUNE_OK, or a status in t->status with t->why (the journal, memory). */
int finish_variant(tuner *t, record *rec, uint64_t index, bool has_id, twin_id id);

/* ---- several GPUs (fleet.c) --------------------------------------------- */

/* fleet_idle: a GPU with nothing in flight, waiting for one to answer when all
 * are busy: the answer is taken (figures, the best so far) but its variant is finished
 * by the next fleet_flush, after the caller has given the GPU its next variant.
 * Its index, or -1 (nothing was in flight: cannot happen with every GPU busy). */
int fleet_idle(tuner *t);

/* fleet_flush: finishes (finish_variant) the variants that have answered, in the
 * order they did. 0, or -1 when finishing one failed (t->status; the rest are still
 * finished). */
int fleet_flush(tuner *t);

/* fleet_send: sends rec (the results' record `index`; binary bin; its identity
 * when has_id) to idle GPU k.
 * 0, or -1 with t->status (no worker could be started). */
int fleet_send(tuner *t, int k, record *rec, uint64_t index, const session_binary *bin, bool has_id, twin_id id);

/* fleet_busy: whether a variant is in flight or answered and not yet finished. */
bool fleet_busy(const tuner *t);

/* fleet_collect: finishes the variants that have answered, or when none has,
 * waits for the first GPU to answer (or run out of time) and finishes its variant. 0; -1
 * when none was in flight or finishing failed (t->status). */
int fleet_collect(tuner *t);

/* fleet_drain: collects until nothing is in flight (every variant is finished,
 * also after a failure). 0, or -1 when finishing one failed. */
int fleet_drain(tuner *t);

/* fleet_wait_twin: collects until no variant of identity `id` is in flight. 0 or
 * -1 as fleet_collect. */
int fleet_wait_twin(tuner *t, twin_id id);

/* fleet_race: times variants in full, nothing else in flight: the first GPU the
 * ncontend contenders vs[0 .. ncontend) (records: their variants; binaries bins[i]), into first[i] (records of the
 * result's arena, not in the results); every other GPU all n, the rest being variants the
 * first GPU timed in full during the run, whose records are refs[i]; then
 * summary.spread[k] is each other GPU's median time over the first's (a contender's race
 * run, another's record). A GPU other than the first whose worker cannot be started is
 * left out. CUTUNE_OK, CUTUNE_ENOMEM, or the status of GPU 0's start (t->status, t->why). */
int fleet_race(tuner *t, const session_binary *const *bins, const record *const *vs, const record *const *refs, int n,
               int ncontend, record **first);

/* loop_take_twin (loop.c): record `rec` (not run) takes the figures of record
 * `twin`, the same experiment (twins.c), and its own metrics and objective. */
void loop_take_twin(tuner *t, record *rec, const record *twin);

/* finish_rejournal (finish.c): journals rec again (its figures now replace the earlier
 * line on resume). CUTUNE_OK, or CUTUNE_EIO with t->status and t->why set. */
int finish_rejournal(tuner *t, const record *rec);

/* finish_note_best (finish.c): the best so far (early stopping's, the race's) becomes
 * rec's objective when rec ran ok, was timed, not pruned, and beats it. */
void finish_note_best(tuner *t, const record *rec);

/* finish_note_winner (finish.c): rec becomes the result's winner when it may win (timed in
 * full, not pruned, not provisional) and beats the winner so far. */
void finish_note_winner(tuner *t, const record *rec);

/* run_search (run.c): the loop of every strategy: proposals streamed through a
 * compile session, each run, journaled and told. */
int run_search(tuner *t, const cutune_analyze_options *aopts, cutune_analyze_summary *asum);

#endif
