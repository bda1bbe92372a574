/* finish.h - a variant's end (finish.c, prefix finish_): journal line, best, winner,
 * the search told. Above tuner.h; below fleet.c, loop.c, counters.c and run.c. */
#ifndef CUTUNE_TUNER_FINISH_H
#define CUTUNE_TUNER_FINISH_H

#include "tuner.h"

/* finish_variant: variant rec (the results' record `index`) has its outcome: its identity (when has_id and
 * the outcome is one the code decides) joins the twins, it is journaled (unless read
 * back from the journal), the best and the winner are updated and t->done is told.
 * CUTUNE_OK, or a status in t->status with t->why (the journal, memory). */
int finish_variant(tuner *t, record *rec, uint64_t index, bool has_id, twin_id id);

/* finish_rejournal: journals rec again (its figures now replace the earlier
 * line on resume). CUTUNE_OK, or CUTUNE_EIO with t->status and t->why set. */
int finish_rejournal(tuner *t, const record *rec);

/* finish_note_best: the best so far (early stopping's, the race's) becomes
 * rec's objective when rec ran ok, was timed, not pruned, and beats it. */
void finish_note_best(tuner *t, const record *rec);

/* finish_note_winner: rec becomes the result's winner when it may win (timed in
 * full, not pruned, not provisional) and beats the winner so far. */
void finish_note_winner(tuner *t, const record *rec);

#endif
