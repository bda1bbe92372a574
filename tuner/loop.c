/* loop.c - one variant of the run (loop_each: read back from the journal, taken from
 * its twin, or sent to a GPU: fleet.c; its end is finish.c's), a twin's figures, and
 * whether a journal line is the configuration it claims (tuner.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/sys.h"
#include "tuner.h"

int loop_each(void *user, const cutune_analysis *a, const value *vals, const session_binary *bin)
{
    tuner *t = user;
    const cutune_variant *av = a->variant;
    json_t *done_before = journal_find(t->journal, av->ordinal);
    if (done_before && !loop_params_match(t->m, vals, done_before))
        done_before = NULL; /* trusted only for the configuration it names (journal.h) */
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
        t->status = CUTUNE_ENOMEM;
        snprintf(t->err, sizeof t->err, "out of memory");
        return -1;
    }
    if (done_before) {
        record_from_json(t->res, rec, done_before, RECORD_RESUME, NULL, 0); /* measured by an earlier run: not again */
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
    t->goal.vals = rec->vals; /* the goal judges this configuration */
    t->goal.has_energy = m->energy != 0; /* its twin's energy is its own */
    t->goal.energy_j = m->energy_j;
    t->goal.power_w = m->power_w;
    goal_metrics(&t->goal, m->median_ms, rec->metrics);
    if (goal_objective(&t->goal, m->median_ms, &m->objective) < 0)
        m->objective = NAN;
}

/* Whether a journal line's params are the configuration `vals` (a guard: a journal
 * written under another numbering, e.g. an exhaustive run over a space too large to
 * list, whose indices are listing positions rather than keys, is not misread). */
bool loop_params_match(const model *m, const value *vals, json_t *line)
{
    json_t *params = json_object_get(line, "params");
    for (int i = 0; i < m->nparams; i++) {
        json_t *p = json_object_get(params, m->params[i].name);
        bool same;
        switch (vals[i].type) {
        case VT_INT: same = json_is_integer(p) && json_integer_value(p) == vals[i].u.i; break;
        case VT_FLOAT: same = json_is_number(p) && json_number_value(p) == vals[i].u.f; break;
        case VT_BOOL: same = json_is_boolean(p) && json_is_true(p) == vals[i].u.b; break;
        default: same = json_is_string(p) && strcmp(json_string_value(p), vals[i].u.s) == 0; break;
        }
        if (!same)
            return false;
    }
    return true;
}

