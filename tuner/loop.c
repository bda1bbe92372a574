/* loop.c - one variant of the run (loop_each: read back from the journal, taken from
 * its twin, or sent to a GPU: fleet.c; its end is finish.c's), which variants the
 * journal holds (loop_known: the session does not compile them) and a twin's figures
 * (loop.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/sys.h"
#include "finish.h"
#include "fleet.h"
#include "loop.h"

bool loop_known(void *user, uint64_t ordinal, const value *vals)
{
    const tuner *t = user;
    /* trusted only for the configuration it names (journal.h); one without its compile's
     * figures is compiled for them, and read back as before */
    const journal_entry *e = journal_count(t->journal) > 0 ? journal_lookup(t->journal, ordinal, t->m, vals) : NULL;
    return e && journal_entry_has_compile(e);
}

int loop_each(void *user, const cutune_analysis *a, const value *vals, const session_binary *bin)
{
    tuner *t = user;
    if (tuner_ready(t) < 0) /* the GPUs' set-up, awaited once: the compiles began meanwhile */
        return -1;
    const cutune_variant *av = a->variant;
    const journal_entry *done_before = NULL;
    if (journal_count(t->journal) > 0) /* as loop_known */
        done_before = journal_lookup(t->journal, av->ordinal, t->m, vals);
    bool planned_only = a->why == session_not_compiled; /* loop_known said so: no compile figures */
    if (planned_only && !done_before) {                 /* cannot be: loop_known made this lookup */
        err_set(CUTUNE_EINVAL, "variant %llu was not compiled and is not in the journal",
                (unsigned long long)av->ordinal);
        tuner_stop(t, CUTUNE_EINVAL);
        return -1;
    }
    /* What it needs is settled before it joins the results: a GPU (waiting for one when
     * all are busy), or the outcome of its twin in flight. An answer that comes in
     * meanwhile may end the search; the variant is then not taken. */
    bool runs = !done_before && a->compiled && a->launchable;
    twin_id id;
    bool has_id = false;
    if ((runs || done_before) && t->twins) { /* the same experiment as one run: its figures (twins.c) */
        has_id = twins_identity(t->twins, vals, av, bin, &id) == 0;
        if (has_id && runs && fleet_wait_twin(t, id) < 0)
            return -1;
    }
    int64_t twin = has_id && runs ? twins_find(t->twins, id) : -1;
    int gpu = runs && twin < 0 ? fleet_idle(t) : 0;
    if (gpu < 0)
        return -1;
    if (t->stopping)
        return 1;
    record *rec = result_add(t->res, a, vals);
    if (!rec) {
        err_set(CUTUNE_ENOMEM, "out of memory");
        tuner_stop(t, CUTUNE_ENOMEM);
        return -1;
    }
    if (done_before) {
        /* measured by an earlier run: not again; without a binary it has no twin identity
         * (a later variant of the same code runs itself) */
        journal_entry_read(done_before, t->res, rec, !planned_only);
    } else if (!a->compiled) {
        result_set_outcome(t->res, rec, OUTCOME_COMPILE_ERROR, a->log);
    } else if (!a->launchable) {
        result_set_outcome(t->res, rec, OUTCOME_CANNOT_LAUNCH, a->why);
    } else if (twin >= 0) {
        loop_take_twin(t, rec, t->res->records[twin]);
        has_id = false; /* its run holds the identity */
    } else {
        if (fleet_send(t, gpu, rec, t->res->n - 1, bin, has_id, id) < 0) /* finished when it answers */
            return -1;
        /* the GPU is busy again: now the end of the variant that answered (if one did) */
        return fleet_flush(t) < 0 ? -1 : t->stopping ? 1 : 0;
    }
    if (finish_variant(t, rec, t->res->n - 1, has_id, id) < 0)
        return -1;
    return t->stopping ? 1 : 0;
}

void loop_take_twin(tuner *t, record *rec, const record *twin)
{
    result_take_twin(t->res, rec, twin);
    cutune_measurement *m = &rec->m;
    if (!m->timed)
        return;
    t->goal.vals = rec->vals;            /* the goal judges this configuration */
    t->goal.has_energy = m->energy != 0; /* its twin's energy is its own */
    t->goal.energy_j = m->energy_j;
    t->goal.power_w = m->power_w;
    goal_metrics(&t->goal, m->median_ms, rec->metrics);
    if (goal_objective(&t->goal, m->median_ms, &m->objective) < 0)
        m->objective = NAN;
}
