/* report_data.c - a run made into the analyses' arrays (report.h): each param's
 * distinct values (its levels, in order), each entry's level of each param and its
 * objective. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One entry's value of a param, for sorting: its text, its number when the param is
 * numeric and its value (record.vals) a number that is not NaN. */
typedef struct level_sort {
    const char *text;
    double num;
    bool numeric;
    size_t entry;
} level_sort;

/* The order of a param's levels, a total order in which equal texts (and only they)
 * compare equal, so that sorting brings each value's entries together: numbers first,
 * by value (equal values by text: "8" and "8.0" stay two levels), then anything else by
 * text (false before true). */
static int cmp_level(const void *pa, const void *pb)
{
    const level_sort *x = pa, *y = pb;
    if (x->numeric != y->numeric)
        return x->numeric ? -1 : 1;
    if (x->numeric && x->num != y->num)
        return x->num < y->num ? -1 : 1;
    return strcmp(x->text, y->text);
}

const char *report_value_of(const report_run *run, size_t i, int p)
{
    const cutune_variant *v = &run->r->records[i]->v;
    return p < v->nparams && v->values[p] ? v->values[p] : "";
}

/* Param p's levels into run->levels[p] and nlevels[p], each entry's into level[]: the
 * entries sorted by value (O(n log n): a run may hold a million variants, each with its
 * own value), each run of equal values one level. */
static int make_levels(report_run *run, arena *a, int p, int *nlevels, int *level)
{
    const cutune_tune_result *r = run->r;
    int np = run->t.nparams;
    const char *type = r->param_types && r->param_types[p] ? r->param_types[p] : "string";
    bool numeric = strcmp(type, "int") == 0 || strcmp(type, "float") == 0;
    level_sort *ls = malloc(sizeof *ls * (r->n ? r->n : 1));
    const char **texts = arena_alloc(a, sizeof *texts * (r->n ? r->n : 1));
    if (!ls || !texts) {
        free(ls);
        return CUTUNE_ENOMEM;
    }
    for (size_t i = 0; i < r->n; i++) { /* ordered by the typed value (record.vals), shown by its text */
        const record *rec = r->records[i];
        value x = rec->vals && p < rec->v.nparams ? rec->vals[p] : value_string("");
        bool number = numeric && (x.type == VT_INT || x.type == VT_FLOAT) && !isnan(value_as_double(x));
        ls[i] = (level_sort){report_value_of(run, i, p), number ? value_as_double(x) : 0, number, i};
    }
    qsort(ls, r->n, sizeof *ls, cmp_level);
    int n = 0;
    for (size_t i = 0; i < r->n; i++) {
        if (i == 0 || cmp_level(&ls[i - 1], &ls[i]) != 0)
            texts[n++] = ls[i].text;
        level[ls[i].entry * (size_t)np + (size_t)p] = n - 1;
    }
    free(ls);
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
    run->scale = report_scale(run->sorted, run->nok);
    for (size_t i = 0; i < run->nok; i++)
        run->noff += !report_in(run->scale, run->sorted[i]);
    if (run->nok > 0) {
        /* The lower median: an objective some entry really has. */
        double med = run->sorted[(run->nok - 1) / 2];
        for (size_t i = 0; i < n && run->median_entry < 0; i++)
            if (run->y[i] == med)
                run->median_entry = (int64_t)i;
    }
    return CUTUNE_OK;
}
