/* finish.c - the end of a variant (finish.h): once it has its outcome, read back, taken
 * from its twin or answered by a GPU (fleet.c), it joins the twins, is journaled, may
 * become the best so far and the winner, and the search is told; the final race
 * journals a variant again. */
#include <math.h>
#include <stdio.h>

#include "finish.h"

int finish_variant(tuner *t, record *rec, uint64_t index, bool has_id, twin_id id)
{
    /* Only outcomes the code decides are shared: a crash or a hang may be the device's,
     * and a twin of one is run itself. */
    if (has_id && (rec->out == OUTCOME_OK || rec->out == OUTCOME_WRONG) && twins_add(t->twins, id, index) < 0) {
        err_set(CUTUNE_ENOMEM, "out of memory");
        tuner_stop(t, CUTUNE_ENOMEM);
        return CUTUNE_ENOMEM;
    }
    if (!rec->m.resumed && finish_rejournal(t, rec) < 0) /* losing the journal would lose what is measured */
        return CUTUNE_EIO;
    finish_note_best(t, rec);
    finish_note_winner(t, rec);
    if (t->done && t->done(t->done_user, rec) > 0)
        t->stopping = true;
    return CUTUNE_OK;
}

void finish_note_best(tuner *t, const record *rec)
{
    /* The race's best counts provisional figures (a contender's few samples); the
     * winner only figures timed in full (finish_note_winner). */
    const cutune_measurement *m = &rec->m;
    if (rec->out == OUTCOME_OK && m->timed && !m->pruned && isfinite(m->objective) &&
        (!t->goal.have_best || goal_better(&t->goal, m->objective, t->goal.best))) {
        t->goal.have_best = true;
        t->goal.best = m->objective;
    }
}

void finish_note_winner(tuner *t, const record *rec)
{
    const cutune_tune_result *r = t->res;
    const record *best = r->summary.best >= 0 ? r->records[r->summary.best] : NULL;
    if (record_can_win(rec) && (!best || goal_better(&t->goal, rec->m.objective, best->m.objective)))
        result_set_best(t->res, rec);
}

int finish_rejournal(tuner *t, const record *rec)
{
    if (!t->journal)
        return CUTUNE_OK;
    if (journal_append_record(t->journal, t->res, rec) < 0) {
        if (!err_last())
            err_set(CUTUNE_EIO, "the journal could not be written");
        tuner_stop(t, CUTUNE_EIO);
        return CUTUNE_EIO;
    }
    return CUTUNE_OK;
}
