/* fleet.h - the variants in flight on the run's GPUs (fleet.c, prefix fleet_): an idle
 * GPU found, a variant sent, the answers collected and finished (finish.h), the final
 * race on every GPU. */
#ifndef CUTUNE_TUNER_FLEET_H
#define CUTUNE_TUNER_FLEET_H

#include "tuner.h"

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

#endif
