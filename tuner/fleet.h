/* fleet.h - the variants in flight on the run's GPUs (fleet.c, prefix fleet_): an idle
 * GPU found, a variant sent, the answers collected and finished (finish.h), the final
 * race spread over every GPU. */
#ifndef CUTUNE_TUNER_FLEET_H
#define CUTUNE_TUNER_FLEET_H

#include "tuner.h"

/* fleet_idle: a GPU with nothing in flight (fleet_pick's), waiting for one to answer
 * when all are busy: the answers there are taken (figures, the best so far), every one
 * of them, but their variants are finished by the next fleet_flush, after the caller
 * has given the GPU its next variant. Its index, or -1 (nothing was in flight: cannot
 * happen with every GPU busy). */
int fleet_idle(tuner *t);

/* fleet_pick: of the n GPUs' slots, the idle one (rec NULL, not starting) that has been idle the
 * longest (the smallest idle_since; the first of a tie): no GPU is favoured by its
 * place, and one that waits gets the next variant. -1 when none is idle. */
int fleet_pick(const fleet_slot *slots, int n);

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

/* How many of the final race's contenders every GPU times, for the spread between
 * them (the first GPU's runs of these are the race's). */
#define FLEET_RACE_PAIRS 2

/* fleet_race_plan: which job each GPU times next in the final race. Jobs 0 ..
 * ncontend are the contenders, each timed in full once, by whichever GPU takes it;
 * jobs ncontend .. n are variants the first GPU timed in full during the run. The
 * first GPU times the first FLEET_RACE_PAIRS contenders (their race runs); every
 * other GPU times those too and then the run's variants (the pairs of the spread),
 * and then every GPU takes the contenders no GPU has taken, in order, as it comes free.
 * With one GPU: every contender in order, on it. */
typedef struct fleet_race_plan {
    int ngpus, n, ncontend;
    int *own_at; /* per GPU: how many of its own jobs (the pairs, the run's) it has taken */
    int *owner;  /* per contender: the GPU whose run is its race run (-1: not taken yet) */
} fleet_race_plan;

/* fleet_race_plan_init: a plan for ngpus GPUs and n jobs, the first ncontend the
 * contenders (fleet_race_plan_free frees it, also after a failure). CUTUNE_OK or
 * CUTUNE_ENOMEM. fleet_race_plan_next: the job GPU k times next (taken: a contender's
 * owner is k), -1 when it has none left. fleet_race_plan_drop: GPU k could not time job
 * i (its worker could not be started): a contender it took is left for another GPU. */
int fleet_race_plan_init(fleet_race_plan *p, int ngpus, int n, int ncontend);
int fleet_race_plan_next(fleet_race_plan *p, int k);
void fleet_race_plan_drop(fleet_race_plan *p, int k, int i);
void fleet_race_plan_free(fleet_race_plan *p);

/* fleet_race: times variants in full, nothing else in flight, as fleet_race_plan says:
 * the contenders vs[0 .. ncontend) (records: their variants; binaries bins[i]), each on
 * whichever GPU is free, into first[i] (records of the result's arena, not in the
 * results, each naming its GPU); the GPUs after the first also time the first
 * contenders and the variants vs[ncontend .. n) that the first GPU timed in full during
 * the run (records refs[i]); then summary.spread[k] is each other GPU's median time over
 * the first's for the variants both timed (a pair's race run, another's record). A
 * GPU other than the first whose worker cannot be started is left out (its contender
 * goes to another). With one GPU, each contender after the first is screened against
 * the best of those timed in full before it (fleet.c's opening comment): its first[i]
 * may then be pruned, over GOAL_SCREEN samples. Once the run is cancelled (the options'
 * cancel flag: Ctrl-C, a signal) no job is sent any more, those in flight end theirs,
 * summary.interrupted is set, and a contender no GPU took has first[i] NULL. CUTUNE_OK,
 * CUTUNE_ENOMEM, or the status of GPU 0's start (t->status, t->why). */
int fleet_race(tuner *t, const session_binary *const *bins, const record *const *vs, const record *const *refs, int n,
               int ncontend, record **first);

#endif
