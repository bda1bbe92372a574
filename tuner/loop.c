/* loop.c - one variant of the run (tuner_each: read back from the journal, or run in
 * the worker; journaled; the best updated; exhaustive's budgets) and what an exhaustive
 * run that stopped early reads back from the journal (tuner.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/sys.h"
#include "tuner.h"

int tuner_each(void *user, const cutune_analysis *a, const session_binary *bin)
{
    tuner *t = user;
    record *rec = result_add(t->res, a);
    if (!rec) {
        t->status = CUTUNE_ENOMEM;
        return -1;
    }
    const cutune_variant *v = &rec->v;
    json_t *done_before = journal_find(t->journal, v->ordinal);
    if (done_before) { /* trusted only for the configuration it names (journal.h) */
        tuner_values_of(t->m, v, t->vals);
        if (!tuner_params_match(t->m, t->vals, done_before))
            done_before = NULL;
    }
    if (done_before) {
        record_from_json(t->res, rec, done_before, RECORD_RESUME, NULL, 0); /* measured by an earlier run: not again */
    } else if (!a->compiled) {
        result_set_outcome(t->res, rec, OUTCOME_COMPILE_ERROR, a->log);
    } else if (!a->launchable) {
        result_set_outcome(t->res, rec, OUTCOME_CANNOT_LAUNCH, a->why);
    } else {
        int rc = tuner_gpu_run(&t->gpu, bin, v, t->goal.have_best, t->goal.best, rec);
        if (rc < 0) { /* no worker could be started */
            t->status = rc;
            snprintf(t->err, sizeof t->err, "%s", t->gpu.err);
            return -1;
        }
    }
    cutune_measurement *mm = &rec->m;
    if (t->journal && !done_before) {
        json_t *line = record_to_json(t->res, rec);
        char err[512];
        int rc = line ? journal_append(t->journal, line, err, sizeof err) : -1;
        json_decref(line);
        if (rc < 0) { /* losing the journal would lose what is measured: stop */
            snprintf(t->err, sizeof t->err, "%s", line ? err : "out of memory");
            t->status = CUTUNE_EIO;
            return -1;
        }
    }
    if (!done_before)
        t->since_improvement++;
    if (record_can_win(rec) && (!t->goal.have_best || tuner_better(&t->goal, mm->objective, t->goal.best))) {
        t->goal.have_best = true;
        t->goal.best = mm->objective;
        result_set_best(t->res, rec);
        t->since_improvement = 0;
    }
    if (done_before || t->set.strategy != STRAT_EXHAUSTIVE)
        return 0;
    /* Exhaustive under budgets: configurations from the journal cost nothing. */
    t->evaluations++;
    if (t->set.budget && t->evaluations >= t->set.budget)
        t->stop = "budget";
    else if (t->set.patience && t->since_improvement >= t->set.patience)
        t->stop = "patience";
    else if (t->set.time_limit_s > 0 && sys_seconds() - t->started >= t->set.time_limit_s)
        t->stop = "time";
    return t->stop[0] ? 1 : 0;
}

/* Whether a journal line's params are the configuration `vals` (a guard: a journal
 * written under another numbering, e.g. an exhaustive run over a space too large to
 * list, whose indices are listing positions rather than keys, is not misread). */
bool tuner_params_match(const model *m, const value *vals, json_t *line)
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

/* Exhaustive runs that stop early (a budget, patience, time, --limit): the journal
 * entries past the point where they stopped join the results too, read back through a
 * compile session (binaries from the cache), not run, as a search's do. CUTUNE_OK, or a
 * status with a diagnostic. */
static int by_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

int tuner_read_back_rest(tuner *t, const cutune_analyze_options *aopts, cutune_analyze_summary *asum)
{
    uint64_t count = journal_count(t->journal);
    if (!count)
        return CUTUNE_OK;
    /* The ordinals already in the results, sorted, so that the journal's entries (as
     * many as its lines, whatever their ordinals) are looked up, never tabled. */
    uint64_t *have = malloc(sizeof(uint64_t) * (size_t)(t->res->n + 1));
    uint64_t *ords = malloc(sizeof(uint64_t) * (size_t)count);
    value *vals = NULL;
    sspace *sp = NULL;
    session *ss = NULL;
    int rc = CUTUNE_OK, n = 0;
    char err[512];
    if (!have || !ords) {
        diag_error_noloc(&t->spec->diags, "out of memory");
        rc = CUTUNE_ENOMEM;
        goto done;
    }
    for (uint64_t i = 0; i < t->res->n; i++)
        have[i] = t->res->records[i]->v.ordinal;
    qsort(have, (size_t)t->res->n, sizeof(uint64_t), by_u64);
    for (uint64_t i = 0; i < count; i++) {
        uint64_t ord;
        journal_at(t->journal, i, &ord);
        if (!bsearch(&ord, have, (size_t)t->res->n, sizeof(uint64_t), by_u64))
            ords[n++] = ord;
    }
    if (n == 0)
        goto done;
    if (!(vals = malloc(sizeof(value) * (size_t)n * (size_t)(t->m->nparams + 1)))) {
        diag_error_noloc(&t->spec->diags, "out of memory");
        rc = CUTUNE_ENOMEM;
        goto done;
    }
    if (sspace_new(&sp, t->m, 0, err, sizeof err) < 0) {
        diag_error_noloc(&t->spec->diags, "%s", err);
        rc = CUTUNE_EEVAL;
        goto done;
    }
    int m = 0;
    for (int i = 0; i < n; i++) {
        uint64_t key = sspace_listed(sp) ? sspace_at(sp, ords[i]) : ords[i];
        if (!sspace_valid(sp, key) || sspace_ordinal(sp, key) != ords[i])
            continue; /* not a configuration of this space (cannot happen with the same identity) */
        value *at = vals + (size_t)m * (size_t)t->m->nparams;
        sspace_values(sp, key, at);
        if (tuner_params_match(t->m, at, journal_find(t->journal, ords[i])))
            ords[m++] = ords[i];
    }
    cutune_analyze_options o = *aopts;
    o.limit = 0;
    cutune_analyze_summary more;
    if (m > 0 && (rc = tuner_session(t, &o, (uint64_t)m, &more, &ss)) == CUTUNE_OK) {
        rc = session_run(ss, vals, ords, m, tuner_each, t);
        if (rc == CUTUNE_ESTOPPED)
            rc = t->status ? t->status : CUTUNE_OK;
        asum->compiled += more.compiled;
        asum->cached += more.cached;
        asum->compile_seconds += more.compile_seconds;
        asum->wall_seconds += more.wall_seconds;
        asum->interrupted |= more.interrupted;
    }
done:
    session_close(ss);
    sspace_free(sp);
    free(have);
    free(ords);
    free(vals);
    return rc;
}
