/* forest.c - random-forest regression (see forest.h).
 *
 * Fitting sorts the observations once per feature; each tree then keeps, per feature,
 * its bootstrap sample in that order and splits a node by scanning its range once per
 * candidate feature and partitioning every feature's range stably (the classic CART
 * arrangement): no sort inside the tree, so a fit over a few hundred observations and
 * some tens of features takes milliseconds. Ties are ordered by target, then by index,
 * so every sum is taken in one order on every platform. */
#include "forest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct fnode {
    int feature;      /* -1: a leaf */
    double threshold; /* x[feature] <= threshold goes left */
    int left, right;
    double mean, var; /* of the targets in the node (its prediction when a leaf) */
} fnode;

typedef struct ftree {
    fnode *nodes;
    int n, cap;
} ftree;

struct forest {
    int ntrees, nf;
    ftree *trees;
    double *gain; /* per feature, summed over the trees' splits */
};

/* What growing one tree needs (scratch shared by the trees of one fit). */
typedef struct grower {
    const double *x, *y; /* the observations (x sanitised) */
    int n, nf;
    int min_split, min_leaf, mtry;
    int *obs;            /* slot -> observation */
    int *lists;          /* nf lists of n slots, each sorted by its feature */
    int *tmp;            /* n slots: partition scratch */
    unsigned char *left; /* per slot: goes left at the split in hand */
    int *feats;          /* nf: the features in a random order */
    rng *r;
    double *gain;
    int depth_limit;
} grower;

/* An observation's value of the feature being sorted, with what breaks ties. */
typedef struct keyed {
    double x, y;
    int index;
} keyed;

static int by_value(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    if (a->x != b->x)
        return a->x < b->x ? -1 : 1;
    if (a->y != b->y)
        return a->y < b->y ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

static double xval(const grower *g, int slot, int f)
{
    return g->x[(size_t)g->obs[slot] * (size_t)g->nf + (size_t)f];
}

/* A new node of t (-1 out of memory). */
static int add_node(ftree *t)
{
    if (t->n == t->cap) {
        int cap = t->cap ? t->cap * 2 : 64;
        fnode *grown = realloc(t->nodes, sizeof(fnode) * (size_t)cap);
        if (!grown)
            return -1;
        t->nodes = grown;
        t->cap = cap;
    }
    memset(&t->nodes[t->n], 0, sizeof(fnode));
    t->nodes[t->n].feature = -1;
    return t->n++;
}

/* Grows the node over slots lists[f][lo .. hi) into t; its index, or -1 out of memory. */
static int grow(grower *g, ftree *t, int lo, int hi, int depth)
{
    int id = add_node(t);
    if (id < 0)
        return -1;
    const int *l0 = g->lists; /* any feature's list holds the node's slots */
    int m = hi - lo;
    double sum = 0, sumsq = 0;
    for (int i = lo; i < hi; i++) {
        double v = g->y[g->obs[l0[i]]];
        sum += v;
        sumsq += v * v;
    }
    double mean = sum / m, sse = sumsq - sum * sum / m;
    if (sse < 0)
        sse = 0;
    t->nodes[id].mean = mean;
    t->nodes[id].var = sse / m;
    if (m < g->min_split || m < 2 * g->min_leaf || depth >= g->depth_limit || sse <= 1e-12 * (1 + sumsq))
        return id;
    /* The features to try: mtry at random, then, while none of them splits (constant
     * in this node), the others in random order (a split is found when one exists). */
    for (int i = 0; i < g->nf; i++)
        g->feats[i] = i;
    for (int i = g->nf - 1; i > 0; i--) {
        int j = (int)rng_below(g->r, (uint64_t)i + 1), s = g->feats[i];
        g->feats[i] = g->feats[j];
        g->feats[j] = s;
    }
    int best_f = -1, best_at = -1;
    double best_gain = 0, best_thr = 0;
    for (int k = 0; k < g->nf && (k < g->mtry || best_f < 0); k++) {
        int f = g->feats[k];
        const int *l = g->lists + (size_t)f * (size_t)g->n;
        double sl = 0, ql = 0;
        for (int i = lo; i < hi - 1; i++) {
            double v = g->y[g->obs[l[i]]];
            sl += v;
            ql += v * v;
            int nl = i - lo + 1, nr = m - nl;
            if (nl < g->min_leaf)
                continue;
            if (nr < g->min_leaf)
                break;
            double xa = xval(g, l[i], f), xb = xval(g, l[i + 1], f);
            if (!(xa < xb))
                continue;
            double sr = sum - sl, qr = sumsq - ql;
            double split_sse = (ql - sl * sl / nl) + (qr - sr * sr / nr);
            double gain = sse - split_sse;
            if (gain > best_gain * (1 + 1e-12) + 1e-15) {
                best_gain = gain;
                best_f = f;
                best_at = i;
                best_thr = 0.5 * (xa + xb);
                if (!(best_thr > xa && best_thr <= xb)) /* halfway rounded onto xa */
                    best_thr = xa;
            }
        }
    }
    if (best_f < 0)
        return id;
    g->gain[best_f] += best_gain;
    const int *lb = g->lists + (size_t)best_f * (size_t)g->n;
    for (int i = lo; i < hi; i++)
        g->left[lb[i]] = i <= best_at;
    int nl = best_at - lo + 1;
    for (int f = 0; f < g->nf; f++) { /* stable partition of every feature's range */
        int *l = g->lists + (size_t)f * (size_t)g->n, a = lo, b = 0;
        for (int i = lo; i < hi; i++) {
            if (g->left[l[i]])
                l[a++] = l[i];
            else
                g->tmp[b++] = l[i];
        }
        memcpy(l + a, g->tmp, sizeof(int) * (size_t)b);
    }
    int left = grow(g, t, lo, lo + nl, depth + 1);
    if (left < 0)
        return -1;
    int right = grow(g, t, lo + nl, hi, depth + 1);
    if (right < 0)
        return -1;
    t->nodes[id].feature = best_f;
    t->nodes[id].threshold = best_thr;
    t->nodes[id].left = left;
    t->nodes[id].right = right;
    return id;
}

void forest_free(forest *f)
{
    if (!f)
        return;
    for (int i = 0; f->trees && i < f->ntrees; i++)
        free(f->trees[i].nodes);
    free(f->trees);
    free(f->gain);
    free(f);
}

int forest_fit(forest **out, const double *x, const double *y, int n, int nf, const forest_options *opts, uint64_t seed)
{
    *out = NULL;
    if (n < 1 || nf < 1)
        return -1;
    for (int i = 0; i < n; i++)
        if (!isfinite(y[i]))
            return -1;
    forest_options o = {0, 0, 0, 0};
    if (opts)
        o = *opts;
    int ntrees = o.trees > 0 ? o.trees : 32;
    double share = o.feature_share > 0 && o.feature_share <= 1 ? o.feature_share : 5.0 / 6.0;
    forest *f = calloc(1, sizeof *f);
    double *xs = malloc(sizeof(double) * (size_t)n * (size_t)nf);
    int *order = malloc(sizeof(int) * (size_t)n * (size_t)nf);
    int *count = malloc(sizeof(int) * (size_t)n), *start = malloc(sizeof(int) * (size_t)n);
    keyed *keys = malloc(sizeof(keyed) * (size_t)n);
    grower g = {0};
    g.obs = malloc(sizeof(int) * (size_t)n);
    g.lists = malloc(sizeof(int) * (size_t)n * (size_t)nf);
    g.tmp = malloc(sizeof(int) * (size_t)n);
    g.left = malloc((size_t)n);
    g.feats = malloc(sizeof(int) * (size_t)nf);
    int rc = -1;
    if (!f || !xs || !order || !count || !start || !keys || !g.obs || !g.lists || !g.tmp || !g.left || !g.feats ||
        !(f->trees = calloc((size_t)ntrees, sizeof(ftree))) || !(f->gain = calloc((size_t)nf, sizeof(double))))
        goto done;
    f->ntrees = ntrees;
    f->nf = nf;
    for (size_t i = 0; i < (size_t)n * (size_t)nf; i++)
        xs[i] = isfinite(x[i]) ? x[i] : 0.0;
    for (int k = 0; k < nf; k++) {
        int *ord = order + (size_t)k * (size_t)n;
        for (int i = 0; i < n; i++)
            keys[i] = (keyed){xs[(size_t)i * (size_t)nf + (size_t)k], y[i], i};
        qsort(keys, (size_t)n, sizeof(keyed), by_value);
        for (int i = 0; i < n; i++)
            ord[i] = keys[i].index;
    }
    rng r;
    rng_seed(&r, seed);
    g.x = xs;
    g.y = y;
    g.n = n;
    g.nf = nf;
    g.min_split = o.min_split > 0 ? o.min_split : 3;
    g.min_leaf = o.min_leaf > 0 ? o.min_leaf : 1;
    g.mtry = (int)ceil(share * nf - 1e-9);
    if (g.mtry < 1)
        g.mtry = 1;
    g.r = &r;
    g.gain = f->gain;
    g.depth_limit = 64;
    for (int t = 0; t < ntrees; t++) {
        memset(count, 0, sizeof(int) * (size_t)n);
        for (int i = 0; i < n; i++) /* the bootstrap sample */
            count[rng_below(&r, (uint64_t)n)]++;
        for (int i = 0, s = 0; i < n; i++) {
            start[i] = s;
            for (int c = 0; c < count[i]; c++)
                g.obs[s++] = i;
        }
        for (int k = 0; k < nf; k++) {
            const int *ord = order + (size_t)k * (size_t)n;
            int *l = g.lists + (size_t)k * (size_t)n, at = 0;
            for (int i = 0; i < n; i++)
                for (int c = 0; c < count[ord[i]]; c++)
                    l[at++] = start[ord[i]] + c;
        }
        if (grow(&g, &f->trees[t], 0, n, 0) < 0)
            goto done;
    }
    rc = 0;
done:
    free(xs);
    free(order);
    free(count);
    free(start);
    free(keys);
    free(g.obs);
    free(g.lists);
    free(g.tmp);
    free(g.left);
    free(g.feats);
    if (rc < 0)
        forest_free(f);
    else
        *out = f;
    return rc;
}

/* The leaf of tree t that row x falls in. */
static const fnode *leaf_of(const ftree *t, const double *x)
{
    const fnode *nd = &t->nodes[0];
    while (nd->feature >= 0) {
        double v = x[nd->feature];
        if (!isfinite(v))
            v = 0;
        nd = &t->nodes[v <= nd->threshold ? nd->left : nd->right];
    }
    return nd;
}

void forest_predict(const forest *f, const double *x, double *mean, double *sd)
{
    double s = 0, second = 0;
    for (int t = 0; t < f->ntrees; t++) {
        const fnode *l = leaf_of(&f->trees[t], x);
        s += l->mean;
        second += l->var + l->mean * l->mean;
    }
    double mu = s / f->ntrees, var = second / f->ntrees - mu * mu;
    *mean = mu;
    *sd = var > 0 ? sqrt(var) : 0;
}

double forest_predict_some(const forest *f, const double *x, int k, rng *r)
{
    if (k < 1)
        k = 1;
    double s = 0;
    for (int i = 0; i < k; i++)
        s += leaf_of(&f->trees[rng_below(r, (uint64_t)f->ntrees)], x)->mean;
    return s / k;
}

double forest_predict_trees(const forest *f, const double *x, const int *idx, int k)
{
    double s = 0;
    for (int i = 0; i < k; i++)
        s += leaf_of(&f->trees[idx[i]], x)->mean;
    return k > 0 ? s / k : 0;
}

int forest_trees(const forest *f)
{
    return f->ntrees;
}

void forest_importance(const forest *f, double *out)
{
    double total = 0;
    for (int i = 0; i < f->nf; i++)
        total += f->gain[i];
    for (int i = 0; i < f->nf; i++)
        out[i] = total > 0 ? f->gain[i] / total : 0;
}

int forest_features(const forest *f)
{
    return f->nf;
}
