/* report_stats.c - the report's analyses (report.h): pure computations over a run's
 * levels and objectives, so that the unit tests can hold them to hand-made answers. */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool report_better(const report_table *t, double x, double y)
{
    if (!isfinite(x))
        return false;
    if (!isfinite(y))
        return true;
    return t->maximize ? x > y : x < y;
}

/* The group of entry i over params a and b (b < 0: a alone). */
static size_t group_of(const report_table *t, size_t i, int a, int b)
{
    size_t g = (size_t)t->level[i * (size_t)t->nparams + (size_t)a];
    if (b >= 0)
        g = g * (size_t)t->nlevels[b] + (size_t)t->level[i * (size_t)t->nparams + (size_t)b];
    return g;
}

/* An entry with an objective, by its group: the groups are the runs of equal keys once
 * sorted (ties in entry order, so that every sum is taken in one order). */
typedef struct grouped {
    size_t key, i;
    double y;
} grouped;

static int cmp_grouped(const void *pa, const void *pb)
{
    const grouped *x = pa, *y = pb;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

double report_explained(const report_table *t, int a, int b)
{
    if (a < 0 || a >= t->nparams || b >= t->nparams)
        return NAN;
    /* Sorted by group rather than an array of every possible group: two params of
     * 100,000 values each make 10^10 possible groups but at most n real ones. */
    grouped *e = malloc((t->n ? t->n : 1) * sizeof *e);
    if (!e)
        return NAN;
    size_t n = 0;
    double total = 0;
    for (size_t i = 0; i < t->n; i++)
        if (isfinite(t->y[i])) {
            e[n++] = (grouped){group_of(t, i, a, b), i, t->y[i]};
            total += t->y[i];
        }
    qsort(e, n, sizeof *e, cmp_grouped);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += i == 0 || e[i].key != e[i - 1].key;
    double result = NAN;
    if (n >= 2 && n > k) {
        double mean = total / (double)n, sst = 0, ssw = 0;
        for (size_t first = 0, last; first < n; first = last) {
            double sum = 0;
            for (last = first; last < n && e[last].key == e[first].key; last++)
                sum += e[last].y;
            double group_mean = sum / (double)(last - first);
            for (size_t i = first; i < last; i++) {
                double d = e[i].y - mean, w = e[i].y - group_mean;
                sst += d * d;
                ssw += w * w;
            }
        }
        if (sst > 0)
            result = 1.0 - (ssw / (double)(n - k)) / (sst / (double)(n - 1));
    }
    free(e);
    return result;
}

static int pair_order(const void *pa, const void *pb)
{
    const report_pair *x = pa, *y = pb;
    bool fx = isfinite(x->explained), fy = isfinite(y->explained);
    if (fx != fy)
        return fx ? -1 : 1;
    if (fx && x->explained != y->explained)
        return x->explained > y->explained ? -1 : 1;
    if (x->a != y->a)
        return x->a - y->a;
    return x->b - y->b;
}

int report_rank_pairs(report_pair *out, const report_table *t)
{
    int k = 0;
    for (int a = 0; a < t->nparams; a++)
        for (int b = a + 1; b < t->nparams; b++)
            out[k++] = (report_pair){a, b, report_explained(t, a, b)};
    qsort(out, (size_t)k, sizeof *out, pair_order);
    return k;
}

void report_cells(double *cell, const report_table *t, int a, int b)
{
    size_t ncells = (size_t)t->nlevels[a] * (size_t)t->nlevels[b];
    for (size_t c = 0; c < ncells; c++)
        cell[c] = NAN;
    for (size_t i = 0; i < t->n; i++) {
        size_t c = group_of(t, i, a, b);
        if (report_better(t, t->y[i], cell[c]))
            cell[c] = t->y[i];
    }
}

static int cmp_double(const void *pa, const void *pb)
{
    double x = *(const double *)pa, y = *(const double *)pb;
    return x < y ? -1 : x > y ? 1 : 0;
}

size_t report_sorted_finite(double *out, const double *v, size_t n)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]))
            out[m++] = v[i];
    qsort(out, m, sizeof *out, cmp_double);
    return m;
}

double report_quantile(const double *sorted, size_t n, double q)
{
    if (n == 0)
        return NAN;
    double pos = q * (double)(n - 1);
    size_t lo = (size_t)floor(pos);
    if (lo >= n - 1)
        return sorted[n - 1];
    double frac = pos - (double)lo, a = sorted[lo], b = sorted[lo + 1];
    /* a + frac (b - a) overflows for a = -1e308, b = 1e308; the weighted sum does not,
     * and is kept between a and b against rounding */
    double v = isfinite(b - a) ? a + frac * (b - a) : a * (1 - frac) + b * frac;
    return v < a ? a : v > b ? b : v;
}

report_range report_scale(const double *sorted, size_t n)
{
    if (n == 0)
        return (report_range){NAN, NAN};
    double q1 = report_quantile(sorted, n, 0.25), q3 = report_quantile(sorted, n, 0.75);
    double med = report_quantile(sorted, n, 0.5);
    double spread = q3 * 0.5 - q1 * 0.5; /* half the IQR: finite whatever the values */
    if (!(spread > 0))
        spread = fabs(med) > 0 ? fabs(med) * 0.5 : 0.5;
    /* the fences, REPORT_FENCE IQRs out, saturating rather than overflowing */
    double reach = spread * (2.0 * REPORT_FENCE);
    double lo_fence = q1 - reach, hi_fence = q3 + reach;
    report_range r = {NAN, NAN};
    for (size_t i = 0; i < n; i++) /* the least and the greatest value within them */
        if (sorted[i] >= lo_fence && sorted[i] <= hi_fence) {
            if (isnan(r.lo))
                r.lo = sorted[i];
            r.hi = sorted[i];
        }
    return r;
}

bool report_in(report_range r, double v)
{
    return v >= r.lo && v <= r.hi;
}

void report_marginal(double *best, double *median, size_t *count, const report_table *t, int p)
{
    int nl = t->nlevels[p];
    for (int l = 0; l < nl; l++) {
        best[l] = NAN;
        median[l] = NAN;
        count[l] = 0;
    }
    for (size_t i = 0; i < t->n; i++) {
        int l = t->level[i * (size_t)t->nparams + (size_t)p];
        if (l < 0 || l >= nl || !isfinite(t->y[i]))
            continue;
        count[l]++;
        if (report_better(t, t->y[i], best[l]))
            best[l] = t->y[i];
    }
    /* The medians: the objectives bucketed by level (each level's slice of vals starts
     * at start[l]), each slice sorted: O(n log n) however many levels there are. */
    double *vals = malloc((t->n ? t->n : 1) * sizeof *vals);
    size_t *start = malloc(((size_t)nl + 1) * sizeof *start), *fill = malloc(((size_t)nl + 1) * sizeof *fill);
    if (vals && start && fill) {
        start[0] = 0;
        for (int l = 0; l < nl; l++)
            start[l + 1] = start[l] + count[l];
        memcpy(fill, start, ((size_t)nl + 1) * sizeof *fill);
        for (size_t i = 0; i < t->n; i++) {
            int l = t->level[i * (size_t)t->nparams + (size_t)p];
            if (l >= 0 && l < nl && isfinite(t->y[i]))
                vals[fill[l]++] = t->y[i];
        }
        for (int l = 0; l < nl; l++)
            if (count[l]) {
                qsort(vals + start[l], count[l], sizeof *vals, cmp_double);
                median[l] = report_quantile(vals + start[l], count[l], 0.5);
            }
    }
    free(vals);
    free(start);
    free(fill);
}

void report_histogram(size_t *counts, int nbins, double lo, double hi, const double *v, size_t n)
{
    for (int b = 0; b < nbins; b++)
        counts[b] = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(v[i]) || v[i] < lo || v[i] > hi)
            continue;
        double at = hi > lo ? report_frac(v[i], lo, hi) * nbins : 0;
        int b = at >= nbins ? nbins - 1 : at > 0 ? (int)at : 0; /* NaN: bin 0 */
        counts[b]++;
    }
}

int report_bin_count(size_t m)
{
    int b = (int)ceil(sqrt((double)m));
    return b < 5 ? 5 : b > 40 ? 40 : b;
}

void report_best_so_far(double *out, const double *y, size_t n, bool maximize)
{
    report_table t = {0};
    t.maximize = maximize;
    double best = NAN;
    for (size_t i = 0; i < n; i++) {
        if (report_better(&t, y[i], best))
            best = y[i];
        out[i] = best;
    }
}

/* An index sorted by value, for ranking. */
typedef struct ranked {
    double v;
    size_t i;
} ranked;

static int cmp_ranked(const void *pa, const void *pb)
{
    const ranked *x = pa, *y = pb;
    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* Ranks of v[0 .. m) (1-based; ties their mean) into rank. 0, or -1 out of memory. */
static int ranks(double *rank, const double *v, size_t m)
{
    ranked *r = malloc((m ? m : 1) * sizeof *r);
    if (!r)
        return -1;
    for (size_t i = 0; i < m; i++)
        r[i] = (ranked){v[i], i};
    qsort(r, m, sizeof *r, cmp_ranked);
    for (size_t i = 0; i < m;) {
        size_t j = i;
        while (j + 1 < m && r[j + 1].v == r[i].v)
            j++;
        double mean = (double)(i + j) / 2.0 + 1.0;
        for (size_t k = i; k <= j; k++)
            rank[r[k].i] = mean;
        i = j + 1;
    }
    free(r);
    return 0;
}

double report_spearman(const double *x, const double *y, size_t n)
{
    double *buf = malloc((n ? n : 1) * 4 * sizeof *buf);
    if (!buf)
        return NAN;
    double *xs = buf, *ys = buf + n, *rx = buf + 2 * n, *ry = buf + 3 * n;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]) && isfinite(y[i])) {
            xs[m] = x[i];
            ys[m] = y[i];
            m++;
        }
    double result = NAN;
    if (m >= 3 && ranks(rx, xs, m) == 0 && ranks(ry, ys, m) == 0) {
        double mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;
        for (size_t i = 0; i < m; i++) {
            mx += rx[i];
            my += ry[i];
        }
        mx /= (double)m;
        my /= (double)m;
        for (size_t i = 0; i < m; i++) {
            sxy += (rx[i] - mx) * (ry[i] - my);
            sxx += (rx[i] - mx) * (rx[i] - mx);
            syy += (ry[i] - my) * (ry[i] - my);
        }
        if (sxx > 0 && syy > 0)
            result = sxy / sqrt(sxx * syy);
    }
    free(buf);
    return result;
}
