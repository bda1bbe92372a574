/* tuner.h - the tuning engine above runtime/ and search/: a run's state (the tuner
 * struct: its GPUs, its variants in flight, the best so far, the journal) and its life
 * (tuner.c, prefix tuner_). Not part of the public interface; api/cutune_tune.c
 * (cutune_tune) is its facade.
 *
 * The engine's files, each with its header and its prefix, from the bottom up (a file
 * calls only those below it):
 *   goal.c     goal_      the objective, the metrics, the best so far (goal.h);
 *   twins.c    twins_     variants that are the same experiment (twins.h);
 *   gpu.c      gpu_       the tuner's handle on a GPU worker (gpu.h; gw_*.c and gw.h:
 *                         what runs inside the worker);
 *   settings.c settings_  the search settings, the spec's with the caller's overrides;
 *   tuner.c    tuner_     the run's state: set-up (its GPUs' workers started, the
 *                         journal opened), its compile session, tuner_stop, tuner_free;
 *   finish.c   finish_    a variant's end: journal line, best, winner, the search told;
 *   fleet.c    fleet_     the GPUs' variants in flight (fleet_slot), the final race;
 *   counters.c counters_  the hardware counters' phase after a run;
 *   loop.c     loop_      one variant: journal read-back, twin, or sent to a GPU;
 *   run.c      run_       the one loop of every strategy (run_search), the summary;
 *   sizes.c    sizes_     a run per problem size, above the one loop. */
#ifndef CUTUNE_TUNER_TUNER_H
#define CUTUNE_TUNER_TUNER_H

#include "../base/err.h"
#include "../compiler/spec.h"
#include "../results/journal.h"
#include "../results/result.h"
#include "../search/search.h"
#include "../session/session.h"
#include "goal.h"
#include "gpu.h"
#include "twins.h"

/* tuner_inputs_identity: a hash of the spec's input files as they are now
 * (canonical path, size, modification time) into hex, "" when it reads none: part of
 * the journal's identity, so a run resumed after a data file changed starts afresh. */
void tuner_inputs_identity(const model *m, char *hex, size_t size);

/* A GPU's variant in flight (fleet.c): its record, and its identity when it has one
 * (a twin of it waits for its outcome). rec NULL: the GPU is idle, since idle_since
 * (sys_seconds(); 0: since the start), which orders the idle GPUs for the next variant. */
typedef struct fleet_slot {
    record *rec;
    uint64_t index; /* its index in the results */
    bool has_id;
    twin_id id;
    double idle_since;
    bool starting; /* its worker's set-up has not answered yet: not to be sent to */
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
    int ready_status; /* CUTUNE_OK, or why a GPU's set-up failed (the run has stopped) */
    int poll_from;    /* fleet.c: the GPU whose answer is looked at first (turns, so that
                      answers that come together are taken in turn, not GPU 0's first) */
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
 * (borrowed): settings checked, the workers of an earlier run in this process awaited
 * (wk_wait_released), every GPU's worker started (each sets up its driver and
 * runs the reference meanwhile: tuner_ready awaits them), the journal opened. *out is
 * set even on failure (tuner_free it). CUTUNE_OK, or a status with a diagnostic and the
 * error object set. */
int tuner_new(tuner **out, cutune_spec *spec, const cutune_space_size *size, const cutune_tune_options *opts,
              const cutune_device *dev, bool flush, cutune_tune_result *res);

/* tuner_ready: waits, when no GPU is ready yet, for the first worker's set-up to
 * answer, and takes it (tuner_take_setup): called before the first variant is taken,
 * so that a reference that fails (a spec problem) is found before anything is
 * measured, while the compiles started meanwhile. The other GPUs join as their
 * set-ups answer (fleet.c waits on them with its answers). CUTUNE_OK, or the failure's
 * status as tuner_take_setup's. */
int tuner_ready(tuner *t);

/* tuner_take_setup: takes GPU k's set-up answer (gpu_ready; `waited`: the run's clock
 * is in the device phase since the wait began, uncounted, and the wait is split by the
 * set-up's steps) and makes the GPU idle. CUTUNE_OK, or, when it failed, the
 * run's setup failure status (ESPEC: the reference; ENODEV: the GPU could not be used)
 * with a diagnostic on the spec (the first failure's only), the error object set and
 * the run stopped (tuner_stop). */
int tuner_take_setup(tuner *t, int k, bool waited);

/* tuner_session: opens a compile session for the run (binaries kept, the GPU's
 * architecture), its progress counting towards `total` (0: unknown). As session_open. */
int tuner_session(tuner *t, const cutune_analyze_options *o, uint64_t total, cutune_analyze_summary *sum,
                  session **out);

/* tuner_free: lets every GPU's worker go without waiting for its end (the driver
 * tearing its context down: runtime/worker's wk_release; the next tuner_new waits for
 * it), closes the journal, frees the run's state; NULL is a no-op. */
void tuner_free(tuner *t);

/* tuner_stop: the run must stop with `status` (t->status), for the reason the
 * thread's error (base/err.h) gives now, kept in t->why. */
void tuner_stop(tuner *t, int status);

#endif
