/* loop.h - one variant of the run (loop.c, prefix loop_): read back from the journal,
 * taken from its twin, or sent to a GPU (fleet.h); its end is finish.h's. */
#ifndef CUTUNE_TUNER_LOOP_H
#define CUTUNE_TUNER_LOOP_H

#include "tuner.h"

/* loop_each: a session_each for the tuner (user: a tuner): one variant read
 * back from the journal, or taken from its twin, or sent to an idle GPU (fleet.c: it
 * is finished when its answer comes); each finished by finish_variant. Returns 0, 1 when
 * t->done has said the search is over (the variant is then not taken), -1 with
 * t->status on a failure. */
int loop_each(void *user, const cutune_analysis *a, const value *vals, const session_binary *bin);

/* loop_known: a session_known for the tuner (user: a tuner): whether its journal holds a
 * trusted entry of configuration `vals` numbered `ordinal` (journal_lookup) with its
 * compile's figures (journal_entry_has_compile). Such a variant is read back by
 * loop_each without being compiled; one whose entry lacks them is compiled first. */
bool loop_known(void *user, uint64_t ordinal, const value *vals);

/* loop_take_twin: record `rec` (not run) takes the figures of record
 * `twin`, the same experiment (twins.c), and its own metrics and objective. */
void loop_take_twin(tuner *t, record *rec, const record *twin);

#endif
