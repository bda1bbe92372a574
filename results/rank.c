/* rank.c - a run's variants ranked by the objective; two runs compared (rank.h). */
#include <math.h>
#include <stdlib.h>

#include "rank.h"

/* One ranked variant: its measurement, its objective, and its place in the result
 * (the tie-break, so that the order does not depend on the sort). */
typedef struct rank_entry {
    const cutune_measurement *m;
    double objective;
    uint64_t index;
} rank_entry;

static int rank_ascending(const void *pa, const void *pb)
{
    const rank_entry *a = pa, *b = pb;
    int c = (a->objective > b->objective) - (a->objective < b->objective);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

static int rank_descending(const void *pa, const void *pb)
{
    const rank_entry *a = pa, *b = pb;
    int c = (a->objective < b->objective) - (a->objective > b->objective);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

int rank_of(const cutune_measurement **out, uint64_t max, uint64_t *count, const cutune_tune_result *r)
{
    *count = 0;
    rank_entry *list = malloc(((size_t)r->n + 1) * sizeof *list);
    if (!list)
        return CUTUNE_ENOMEM;
    uint64_t k = 0;
    for (uint64_t i = 0; i < r->n; i++) {
        const cutune_measurement *m = &r->records[i]->m;
        if (m->timed && !m->pruned && isfinite(m->objective))
            list[k++] = (rank_entry){m, m->objective, i};
    }
    qsort(list, (size_t)k, sizeof *list, r->summary.maximize ? rank_descending : rank_ascending);
    for (uint64_t i = 0; i < k && i < max; i++)
        out[i] = list[i].m;
    *count = k;
    free(list);
    return CUTUNE_OK;
}

/* rank_ok_ms: the median time of a variant timed with outcome ok, else 0. */
static double rank_ok_ms(const record *rec)
{
    return rec->m.timed && rec->out == OUTCOME_OK && rec->m.median_ms > 0 ? rec->m.median_ms : 0;
}

static int rank_by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int rank_spread(cutune_device_spread *out, const cutune_tune_result *a, const cutune_tune_result *b)
{
    out->variants = 0;
    out->median = out->lo = out->hi = 0;
    double *ratio = calloc((size_t)a->n + 1, sizeof(double));
    if (!ratio)
        return CUTUNE_ENOMEM;
    uint64_t k = 0;
    for (uint64_t i = 0; i < a->n; i++) {
        double ta = rank_ok_ms(a->records[i]);
        if (!(ta > 0))
            continue;
        for (uint64_t j = 0; j < b->n; j++) { /* the same ordinal in the other run */
            if (b->records[j]->v.ordinal == a->records[i]->v.ordinal) {
                double tb = rank_ok_ms(b->records[j]);
                if (tb > 0)
                    ratio[k++] = tb / ta;
                break;
            }
        }
    }
    if (k > 0) {
        qsort(ratio, (size_t)k, sizeof *ratio, rank_by_value);
        out->variants = (int)(k > INT32_MAX ? INT32_MAX : k);
        out->median = ratio[k / 2];
        out->lo = ratio[(size_t)((double)(k - 1) * 0.05)];
        out->hi = ratio[(size_t)((double)(k - 1) * 0.95)];
    }
    free(ratio);
    return CUTUNE_OK;
}
