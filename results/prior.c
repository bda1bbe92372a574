/* prior.c - earlier runs as a prior for the search (see prior.h). */
#include "prior.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/err.h"
#include "load.h"

bool prior_config_of(const model *m, const record *rec, const int *column, uint64_t *vec)
{
    for (int p = 0; p < m->nparams; p++) {
        value v = rec->vals[column ? column[p] : p];
        vtype want = m->params[p].dom.type;
        if (v.type == VT_INT && want == VT_FLOAT)
            v = value_float((double)v.u.i);
        int64_t at = v.type == want ? model_domain_find(&m->params[p].dom, v) : -1;
        if (at < 0)
            return false;
        vec[p] = (uint64_t)at;
    }
    return true;
}

/* A configuration of one file: its key and how it did. */
typedef struct scored {
    uint64_t key;
    double objective; /* NaN: failed */
    double rank;
} scored;

static int by_objective(const void *pa, const void *pb)
{
    const scored *a = pa, *b = pb;
    bool fa = isnan(a->objective), fb = isnan(b->objective);
    if (fa != fb)
        return fa ? 1 : -1;
    if (!fa && a->objective != b->objective)
        return a->objective < b->objective ? -1 : 1;
    return (a->key > b->key) - (a->key < b->key);
}

static int by_key(const void *pa, const void *pb)
{
    const scored *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->rank > b->rank) - (a->rank < b->rank);
}

/* The configurations of `sp` in recording r, ranked (0 best .. 1 the worst that ran,
 * PRIOR_FAILED failed), into *out (malloc'd) and *count. CUTUNE_OK, or a status with
 * the thread's error set. */
static int rank_file(const model *m, const sspace *sp, const cutune_tune_result *r, const char *path, scored **out,
                     uint64_t *count)
{
    *out = NULL;
    *count = 0;
    if (strcmp(r->kernel, m->kernel) != 0) {
        return err_set(CUTUNE_EIO, "%s: recorded for kernel '%s', but the spec tunes '%s': not a prior for it", path,
                       r->kernel, m->kernel);
    }
    if (r->nsizes > 0) {
        return err_set(CUTUNE_EIO, "%s: a run over %d problem sizes: give one size's results as a prior", path,
                       r->nsizes);
    }
    int column[MODEL_MAX_PARAMS];
    for (int i = 0; i < m->nparams; i++) {
        column[i] = -1;
        for (int j = 0; j < r->nparams && column[i] < 0; j++)
            if (strcmp(r->param_names[j], m->params[i].name) == 0)
                column[i] = j;
        if (column[i] < 0) {
            return err_set(CUTUNE_EIO, "%s: it has no param '%s': not a prior for this spec", path, m->params[i].name);
        }
    }
    scored *s = malloc(sizeof(scored) * (size_t)(r->n + 1));
    uint64_t *vec = calloc((size_t)m->nparams + 1, sizeof(uint64_t));
    if (!s || !vec) {
        free(s);
        free(vec);
        return err_set(CUTUNE_ENOMEM, "out of memory");
    }
    uint64_t n = 0;
    bool maximize = r->summary.maximize != 0;
    for (uint64_t i = 0; i < r->n; i++) {
        const record *rec = r->records[i];
        bool in_space = prior_config_of(m, rec, column, vec);
        uint64_t key = in_space ? sspace_encode(sp, vec) : 0;
        if (!in_space || !sspace_valid(sp, key))
            continue;
        bool ok = rec->out == OUTCOME_OK && rec->m.timed && isfinite(rec->m.objective);
        s[n].key = key;
        s[n].objective = !ok ? NAN : maximize ? -rec->m.objective : rec->m.objective;
        n++;
    }
    free(vec);
    if (n == 0) {
        free(s);
        return err_set(CUTUNE_EIO, "%s: none of its configurations is one of this spec's space: not a prior for it",
                       path);
    }
    qsort(s, (size_t)n, sizeof(scored), by_objective);
    uint64_t ran = 0;
    while (ran < n && !isnan(s[ran].objective))
        ran++;
    for (uint64_t i = 0; i < n; i++) {
        if (i >= ran)
            s[i].rank = PRIOR_FAILED;
        else if (i > 0 && s[i].objective == s[i - 1].objective)
            s[i].rank = s[i - 1].rank; /* ties share the better rank */
        else
            s[i].rank = ran > 1 ? (double)i / (double)(ran - 1) : 0.0;
    }
    *out = s;
    *count = n;
    return CUTUNE_OK;
}

int prior_load(const model *m, const sspace *sp, const char *const *paths, int n, search_prior **out, uint64_t *count)
{
    *out = NULL;
    *count = 0;
    scored *all = NULL;
    uint64_t nall = 0;
    int rc = CUTUNE_OK;
    for (int f = 0; f < n && rc == CUTUNE_OK; f++) {
        cutune_tune_result *r = NULL;
        scored *s = NULL;
        uint64_t ns = 0;
        if ((rc = results_load(&r, paths[f])) != CUTUNE_OK)
            break;
        rc = rank_file(m, sp, r, paths[f], &s, &ns);
        result_destroy(r);
        if (rc != CUTUNE_OK)
            break;
        scored *grown = realloc(all, sizeof(scored) * (size_t)(nall + ns));
        if (!grown) {
            free(s);
            rc = err_set(CUTUNE_ENOMEM, "out of memory");
            break;
        }
        all = grown;
        memcpy(all + nall, s, sizeof(scored) * (size_t)ns);
        nall += ns;
        free(s);
    }
    search_prior *p = rc == CUTUNE_OK ? malloc(sizeof(search_prior) * (size_t)(nall + 1)) : NULL;
    if (rc == CUTUNE_OK && !p) {
        rc = err_set(CUTUNE_ENOMEM, "out of memory");
    }
    if (rc == CUTUNE_OK) { /* a key's score: the mean of its ranks (over files, and repeats within one) */
        qsort(all, (size_t)nall, sizeof(scored), by_key); /* by key, then rank: one order to sum in */
        uint64_t k = 0;
        for (uint64_t i = 0; i < nall;) {
            uint64_t j = i;
            double sum = 0;
            while (j < nall && all[j].key == all[i].key)
                sum += all[j++].rank;
            p[k++] = (search_prior){all[i].key, sum / (double)(j - i)};
            i = j;
        }
        *out = p;
        *count = k;
    }
    free(all);
    return rc;
}
