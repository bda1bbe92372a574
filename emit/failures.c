/* failures.c - where a run's failed variants lie in its space (failures.h). */
#include "failures.h"

#include <stdlib.h>
#include <string.h>

#include "../compiler/value.h"

/* Whether an outcome is a failure on the GPU (the variant was loaded or launched). */
static bool failed_on_gpu(outcome o)
{
    return o == OUTCOME_LAUNCH_ERROR || o == OUTCOME_TIMEOUT || o == OUTCOME_CRASHED || o == OUTCOME_LOAD_ERROR;
}

static bool wrong(outcome o)
{
    return o == OUTCOME_WRONG;
}

/* Whether a variant reached the GPU: ran correctly, ran wrong, or failed there. */
static bool ran(outcome o)
{
    return o == OUTCOME_OK || wrong(o) || failed_on_gpu(o);
}

static bool compile_error(outcome o)
{
    return o == OUTCOME_COMPILE_ERROR;
}

/* Whether a variant was planned and given to the compiler (every outcome but not run). */
static bool compiled_or_not(outcome o)
{
    return o != OUTCOME_NOT_RUN;
}

/* Orders values: by type, then numbers by value, strings by their bytes. */
static int value_order(const value *a, const value *b)
{
    if (a->type != b->type)
        return a->type < b->type ? -1 : 1;
    switch (a->type) {
    case VT_STRING: return strcmp(a->u.s, b->u.s);
    case VT_BOOL: return (a->u.b > b->u.b) - (a->u.b < b->u.b);
    case VT_INT: return (a->u.i > b->u.i) - (a->u.i < b->u.i);
    case VT_FLOAT: return (a->u.f > b->u.f) - (a->u.f < b->u.f);
    default: return 0;
    }
}

static int by_value(const void *pa, const void *pb)
{
    return value_order(*(const value *const *)pa, *(const value *const *)pb);
}

/* Sorts the n value pointers and keeps one of each value at the front: how many. */
static size_t distinct(const value **vals, size_t n)
{
    if (n == 0)
        return 0;
    qsort(vals, n, sizeof *vals, by_value);
    size_t k = 1;
    for (size_t i = 1; i < n; i++)
        if (value_order(vals[i], vals[k - 1]) != 0)
            vals[k++] = vals[i];
    return k;
}

/* Param p's values among the records that pass `keep`, sorted and distinct, into
 * vals (room for every record): how many. */
static size_t values_of(const cutune_tune_result *r, int p, bool (*keep)(outcome), const value **vals)
{
    size_t n = 0;
    for (uint64_t i = 0; i < r->n; i++)
        if (keep(r->records[i]->out))
            vals[n++] = &r->records[i]->vals[p];
    return distinct(vals, n);
}

/* Whether record rec takes, for every narrowed param, one of the failed ones' values. */
static bool in_region(const record *rec, int np, const bool *narrow, const value ***set, const size_t *count)
{
    for (int p = 0; p < np; p++) {
        const value *v = &rec->vals[p];
        if (narrow[p] && !bsearch(&v, set[p], count[p], sizeof *set[p], by_value))
            return false;
    }
    return true;
}

/* "stage 1", "unroll 3 or 5", "a 1, 2 or 4", "block_x 17 of its 32 values (32 to 576)". */
static void describe(strbuf *sb, const char *name, const value **vals, size_t k, size_t of)
{
    sb_printf(sb, "%s ", name);
    if (k > 4) {
        sb_printf(sb, "%zu of its %zu values (", k, of);
        value_format(*vals[0], sb, true);
        sb_add(sb, " to ");
        value_format(*vals[k - 1], sb, true);
        sb_add(sb, ")");
        return;
    }
    for (size_t i = 0; i < k; i++) {
        if (i > 0)
            sb_add(sb, i + 1 == k ? " or " : ", ");
        value_format(*vals[i], sb, true);
    }
}

/* The line for the records that pass `bad` (failures.h), described as `what`, against
 * those that pass `base` (the variants that could have failed so; `bad` implies it),
 * described by `verb` ("that ran"; NULL: nothing). */
static void where(strbuf *sb, const cutune_tune_result *r, bool (*bad)(outcome), bool (*base)(outcome),
                  const char *what, const char *verb)
{
    uint64_t nbad = 0, nran = 0;
    for (uint64_t i = 0; i < r->n; i++) {
        if (!r->records[i]->vals)
            return; /* every record holds its typed values; one that does not: say nothing */
        nbad += bad(r->records[i]->out);
        nran += base(r->records[i]->out);
    }
    int np = r->nparams;
    if (nbad < 2 || nbad == nran || np <= 0)
        return; /* one failure has no pattern; when all failed, nothing sets them apart */
    const value ***set = calloc((size_t)np, sizeof *set), **all = malloc(sizeof *all * (size_t)nran);
    size_t *count = calloc((size_t)np, sizeof *count), *of = calloc((size_t)np, sizeof *of);
    bool *narrow = calloc((size_t)np, sizeof *narrow), any = false, ok = set && all && count && of && narrow;
    for (int p = 0; ok && p < np; p++) {
        ok = (set[p] = malloc(sizeof **set * (size_t)nbad)) != NULL;
        if (ok) {
            count[p] = values_of(r, p, bad, set[p]);
            of[p] = values_of(r, p, base, all);
            any |= narrow[p] = count[p] < of[p];
        }
    }
    if (ok && any) {
        uint64_t region = 0;
        for (uint64_t i = 0; i < r->n; i++)
            region += base(r->records[i]->out) && in_region(r->records[i], np, narrow, set, count);
        sb_printf(sb, "the %llu %s all have ", (unsigned long long)nbad, what);
        bool first = true;
        for (int p = 0; p < np; p++)
            if (narrow[p]) {
                sb_add(sb, first ? "" : ", ");
                describe(sb, r->param_names[p], set[p], count[p], of[p]);
                first = false;
            }
        sb_printf(sb, "; %llu of the %llu %s%swith those values\n", (unsigned long long)nbad,
                  (unsigned long long)region, verb ? verb : "", verb ? " " : "");
    }
    for (int p = 0; set && p < np; p++)
        free(set[p]);
    free(set);
    free(all);
    free(count);
    free(of);
    free(narrow);
}

void failures_where(strbuf *sb, const cutune_tune_result *r)
{
    where(sb, r, compile_error, compiled_or_not, "variants that did not compile", NULL);
    where(sb, r, wrong, ran, "wrong variants", "that ran");
    where(sb, r, failed_on_gpu, ran, "variants that failed on the GPU", "that ran");
}
