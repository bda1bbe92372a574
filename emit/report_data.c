/* report_data.c - a run made into the analyses' arrays (report.h): each param's
 * distinct values (its levels, in order), each entry's level of each param and its
 * objective. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The order of a param's levels: numbers by value (int, float), anything else as text
 * (false before true). */
typedef struct level_sort {
    const char *text;
    double num;
    bool numeric;
} level_sort;

static int cmp_level(const void *pa, const void *pb)
{
    const level_sort *x = pa, *y = pb;
    if (x->numeric && y->numeric && x->num != y->num)
        return x->num < y->num ? -1 : 1;
    return strcmp(x->text, y->text);
}

const char *report_value_of(const report_run *run, size_t i, int p)
{
    const cutune_variant *v = &run->r->records[i]->v;
    return p < v->nparams && v->values[p] ? v->values[p] : "";
}

/* Param p's levels into run->levels[p] and nlevels[p], each entry's into level[]. */
static int make_levels(report_run *run, arena *a, int p, int *nlevels, int *level)
{
    const cutune_tune_result *r = run->r;
    int np = run->t.nparams;
    const char *type = r->param_types && r->param_types[p] ? r->param_types[p] : "string";
    bool numeric = strcmp(type, "int") == 0 || strcmp(type, "float") == 0;
    level_sort *ls = arena_alloc(a, sizeof *ls * (r->n ? r->n : 1));
    if (!ls)
        return CUTUNE_ENOMEM;
    int n = 0;
    for (size_t i = 0; i < r->n; i++) {
        const char *text = report_value_of(run, i, p);
        int k = 0;
        while (k < n && strcmp(ls[k].text, text) != 0)
            k++;
        if (k == n) {
            char *end;
            double d = strtod(text, &end);
            ls[n++] = (level_sort){text, d, numeric && end != text && *end == '\0'};
        }
    }
    qsort(ls, (size_t)n, sizeof *ls, cmp_level);
    const char **texts = arena_alloc(a, sizeof *texts * (size_t)(n ? n : 1));
    if (!texts)
        return CUTUNE_ENOMEM;
    for (int k = 0; k < n; k++)
        texts[k] = ls[k].text;
    for (size_t i = 0; i < r->n; i++) {
        const char *text = report_value_of(run, i, p);
        int k = 0;
        while (k < n && strcmp(texts[k], text) != 0)
            k++;
        level[i * (size_t)np + (size_t)p] = k;
    }
    run->levels[p] = texts;
    nlevels[p] = n;
    return CUTUNE_OK;
}

int report_run_make(report_run *run, arena *a, const cutune_tune_result *r, const char *label, const char *file)
{
    memset(run, 0, sizeof *run);
    run->r = r;
    run->label = label;
    run->file = file;
    run->objective = r->summary.objective_name[0] ? r->summary.objective_name : "objective";
    int np = r->nparams;
    size_t n = r->n;
    run->t.n = n;
    run->t.nparams = np;
    run->t.maximize = r->summary.maximize != 0;
    int *nlevels = arena_alloc(a, sizeof *nlevels * (size_t)(np ? np : 1));
    int *level = arena_alloc(a, sizeof *level * (n * (size_t)np + 1));
    run->levels = arena_alloc(a, sizeof *run->levels * (size_t)(np ? np : 1));
    run->y = arena_alloc(a, sizeof *run->y * (n ? n : 1));
    run->sorted = arena_alloc(a, sizeof *run->sorted * (n ? n : 1));
    if (!nlevels || !level || !run->levels || !run->y || !run->sorted)
        return CUTUNE_ENOMEM;
    for (int p = 0; p < np; p++)
        if (make_levels(run, a, p, nlevels, level) != CUTUNE_OK)
            return CUTUNE_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        const record *rec = r->records[i];
        bool has = rec->out == OUTCOME_OK && rec->m.timed && isfinite(rec->m.objective);
        run->y[i] = has ? rec->m.objective : NAN;
    }
    run->t.nlevels = nlevels;
    run->t.level = level;
    run->t.y = run->y;
    run->nok = report_sorted_finite(run->sorted, run->y, n);
    run->best = r->summary.best >= 0 && (uint64_t)r->summary.best < n ? r->summary.best : -1;
    run->median_entry = -1;
    if (run->nok > 0) {
        /* The lower median: an objective some entry really has. */
        double med = run->sorted[(run->nok - 1) / 2];
        for (size_t i = 0; i < n && run->median_entry < 0; i++)
            if (run->y[i] == med)
                run->median_entry = (int64_t)i;
    }
    return CUTUNE_OK;
}
