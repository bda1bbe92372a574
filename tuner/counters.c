/* counters.c - hardware counters after a run (counters.h). Before the run the
 * counters' names are resolved (the default set unless the caller names its own) and
 * checked against the device's chip without a GPU (runtime/profiler.h), so a typo stops
 * the run before anything is measured. After the run (and its final race) the variants
 * chosen (the best N that ran ok, by the objective, or every one) are each launched
 * once more in the GPU worker under CUPTI's range profiler; a twin (twins.c) takes the
 * counters of the run it shares. Each variant's counters are journaled with it, so a
 * resumed run profiles only what it had not. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/sys.h"
#include "../runtime/profiler.h"
#include "counters.h"
#include "finish.h"

int counters_options(cutune_spec *spec, const cutune_tune_options *in, const char *arch, cutune_tune_options *out)
{
    *out = *in;
    if (in->profile_top == 0)
        return CUTUNE_OK;
    if (in->profile_top < -1)
        return err_set(CUTUNE_EINVAL, "profile_top is %d: a count of variants, -1 (all) or 0", in->profile_top);
    if (!in->profile_metrics || in->nprofile_metrics <= 0) {
        out->profile_metrics = prof_default_names;
        out->nprofile_metrics = PROF_NDEFAULT;
    }
    const char *chip = prof_chip_of_arch(arch);
    if (!chip)
        return CUTUNE_OK; /* checked by the device's own CUPTI, on the first variant profiled */
    int bad = -1;
    int rc = prof_check_names(chip, out->profile_metrics, out->nprofile_metrics, &bad);
    if (rc == 1) {
        diag_error_noloc(&spec->diags, "%s", err_last()->message);
        return err_recode(CUTUNE_EINVAL);
    }
    return CUTUNE_OK; /* rc < 0: CUPTI cannot be used here; the profiling phase says why, and tuning goes on */
}

/* A chosen record: its index and the objective it is ranked by (better first). */
typedef struct chosen {
    double key;
    uint64_t index;
} chosen;

static int by_key(const void *a, const void *b)
{
    double x = ((const chosen *)a)->key, y = ((const chosen *)b)->key;
    return x < y ? -1 : x > y ? 1 : 0;
}

/* Binaries for records read back from a journal (none was compiled by this run). */
typedef struct pending {
    session_binary *bins;
    const uint64_t *index_of; /* the record index of each ordinal asked for, by position */
    const uint64_t *ordinals;
    int n;
} pending;

static int keep_binary(void *user, const cutune_analysis *a, const value *vals, const session_binary *bin)
{
    (void)vals;
    pending *p = user;
    for (int i = 0; i < p->n; i++)
        if (p->ordinals[i] == a->variant->ordinal && bin)
            p->bins[p->index_of[i]] = *bin;
    return 0;
}

/* The record of ordinal `ordinal`, or NULL. */
static record *record_of(cutune_tune_result *r, int64_t ordinal)
{
    for (uint64_t i = 0; i < r->n; i++)
        if ((int64_t)r->records[i]->v.ordinal == ordinal)
            return r->records[i];
    return NULL;
}

/* Compiles (from the cache, as a rule) the chosen records that have no binary. */
static int fetch_binaries(tuner *t, session *ss, session_binary *bins, const chosen *c, int n)
{
    uint64_t *ordinals = calloc((size_t)n + 1, sizeof(uint64_t)), *index_of = calloc((size_t)n + 1, sizeof(uint64_t));
    value *vals = calloc(((size_t)n + 1) * ((size_t)t->m->nparams + 1), sizeof(value));
    int missing = 0, rc = CUTUNE_OK;
    if (!ordinals || !index_of || !vals) {
        rc = CUTUNE_ENOMEM;
        goto done;
    }
    for (int i = 0; i < n; i++) {
        const record *rec = t->res->records[c[i].index];
        if (bins[c[i].index].cubin || rec->m.same_code_as >= 0)
            continue;
        memcpy(&vals[(size_t)missing * (size_t)t->m->nparams], rec->vals, sizeof(value) * (size_t)t->m->nparams);
        ordinals[missing] = rec->v.ordinal;
        index_of[missing++] = c[i].index;
    }
    if (missing > 0) {
        pending p = {bins, index_of, ordinals, missing};
        rc = session_run(ss, vals, ordinals, missing, keep_binary, &p);
    }
done:
    free(ordinals);
    free(index_of);
    free(vals);
    return rc;
}

int counters_read(tuner *t, session *ss, session_binary *bins, uint64_t nbins)
{
    gpu_handle *g = &t->gpus[0]; /* the GPU that chose the winner */
    cutune_tune_result *r = t->res;
    if (g->plan.nhw == 0 || r->n == 0)
        return CUTUNE_OK;
    double started = sys_seconds();
    chosen *c = calloc((size_t)r->n, sizeof *c);
    double *values = calloc((size_t)g->plan.nhw + 1, sizeof(double));
    if (!c || !values) {
        free(c);
        free(values);
        return CUTUNE_ENOMEM;
    }
    /* the objective's direction: keys ascend from the best */
    double sign = goal_better(&t->goal, 1.0, 2.0) ? 1.0 : -1.0;
    int n = 0;
    for (uint64_t i = 0; i < r->n && i < nbins; i++) {
        const record *rec = r->records[i];
        if (rec->out == OUTCOME_OK && rec->m.timed && isfinite(rec->m.objective))
            c[n++] = (chosen){sign * rec->m.objective, i};
    }
    qsort(c, (size_t)n, sizeof *c, by_key);
    if (t->opts->profile_top > 0 && n > t->opts->profile_top)
        n = t->opts->profile_top;
    int rc = fetch_binaries(t, ss, bins, c, n);
    char why[512];
    for (int k = 0; rc == CUTUNE_OK && k < n; k++) {
        record *rec = r->records[c[k].index];
        if (rec->m.profiled)
            continue; /* read back from the journal */
        record *run = rec->m.same_code_as >= 0 ? record_of(r, rec->m.same_code_as) : NULL;
        if (r->summary.profile_note) {
            result_set_profile_note(r, rec, r->summary.profile_note); /* CUPTI cannot be used: not tried again */
        } else if (run && run->m.profiled) {
            result_take_profile(r, rec, run);
        } else if (!bins[c[k].index].cubin) {
            result_set_profile_note(r, rec, "its binary could not be found again (not compiled)");
        } else {
            int passes = 0;
            bool off = false;
            if ((rc = gpu_profile(g, &bins[c[k].index], rec, values, &passes, &off, why, sizeof why)) < 0)
                break;
            if (why[0]) {
                result_set_profile_note(r, rec, why);
                if (off && !(r->summary.profile_note = arena_strdup(r->arena, why))) {
                    rc = CUTUNE_ENOMEM;
                    break;
                }
            } else {
                for (int i = 0; i < g->plan.nhw; i++)
                    rec->hw[i] = values[i];
                rec->m.profiled = 1;
                rec->m.profile_passes = passes;
                result_set_profile_note(r, rec, NULL);
            }
        }
        if (rec->m.profiled)
            r->summary.profiled++;
        if ((rc = finish_rejournal(t, rec)) < 0)
            break;
    }
    r->summary.profile_seconds = sys_seconds() - started;
    free(c);
    free(values);
    return rc;
}
