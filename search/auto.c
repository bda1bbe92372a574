/* auto.c - the default strategy for budgeted searches: model-based, learning from every
 * outcome.
 *
 * A random forest (forest.h) predicts log(cost) of every configuration from features
 * that describe it the way a GPU sees it: the param values, the spec's lets and the
 * launch geometry that depend on them, threads per block, the share of warp lanes used,
 * block_x modulo the warp, the odd part of each int param (a tile of 48 is not a power of
 * two), and, given a prior (earlier runs of the same kernel: results/prior.h), the prior's
 * score. A failed configuration counts as the worst that ran plus the targets' range, so
 * the model learns where failures are.
 *
 *   1. Initial design: clamp(budget * 2/5, 4, 10) configurations (10 without a budget),
 *      each the most distant (in normalised param indices) of 16 random draws from those
 *      chosen and known already; with a prior, the first half are the prior's best.
 *   2. Then each pick maximises the expected improvement over the best so far: over the
 *      whole space when it has at most WHOLE_LIMIT configurations (predictions cached per
 *      fit), else over SAMPLES random ones and the neighbours of the TOP_LARGE best.
 *      Every LOCAL_EVERY-th pick looks only at the neighbours of the TOP_LOCAL best (a
 *      local pass, which polishes the incumbent); every COND_EVERY-th pick restricts the
 *      space to one random param set to a value other than the best's (a conditional
 *      pass, which keeps the model honest about a param the incumbent has fixed),
 *      falling back to the whole space when nothing is left there; and every
 *      RANDOM_EVERY-th pick, before those, is a spread pick as in the design: a forest
 *      trusts its plateaus, and on the development landscapes this exploration found
 *      the basins (a needle of 4 configurations in 4,362 among them) that expected
 *      improvement alone did not. A configuration that fails by its compile alone
 *      costs no evaluation (search_tell_static_failure) and is learnt as a failure.
 *   3. The forest is refitted when more than n / REFIT_SHARE of the n outcomes are new.
 *
 * Proposals in flight are limited to strat_in_flight: enough to keep the GPU fed from the
 * compile threads, no more, so that each pick knows as many outcomes as the pipeline
 * allows. The constants were tuned on the development landscapes
 * (bench/search/landscapes.py over bench/landscapes/; docs/search.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../compiler/eval.h"
#include "forest.h"
#include "strategy.h"

/* Tuned on the development landscapes (docs/search.md). */
enum {
    WHOLE_LIMIT = 32768, /* expected improvement over every configuration up to this many */
    SAMPLES = 4096,      /* larger spaces: random candidates per pick ... */
    TOP_LARGE = 8,       /* ... and the neighbours of this many best */
    TOP_LOCAL = 4,       /* a local pass: the neighbours of this many best */
    LOCAL_EVERY = 3,     /* every 3rd pick a local pass */
    COND_EVERY = 5,      /* every 5th a conditional pass */
    RANDOM_EVERY = 4,    /* every 4th a spread random pick (before the passes) */
    DESIGN_DRAWS = 16,   /* a design point: the most distant of this many draws */
    DESIGN_MIN = 4,
    DESIGN_MAX = 10,
    REFIT_SHARE = 20,    /* refit when more than n / 20 outcomes are new */
    TREES = 32,
};

typedef enum feat_kind { FS_PARAM, FS_ODD, FS_EXPR, FS_THREADS, FS_LANES, FS_BX32, FS_PRIOR } feat_kind;

/* Where a feature comes from. */
typedef struct feat_src {
    feat_kind kind;
    int param;               /* FS_PARAM, FS_ODD */
    const texpr *e;          /* FS_EXPR */
} feat_src;

typedef struct auto_state {
    const sspace *sp;
    const model *m;
    int np, nf;
    feat_src *src;
    value *vals;             /* scratch: a configuration's values */
    uint64_t *vec;           /* scratch: its domain indices */
    uint64_t *nb;            /* scratch: neighbours */
    bool whole;              /* expected improvement over every configuration (listed, small) */
    uint64_t count;
    uint64_t *keys;          /* whole: every configuration's key, ascending (its place: the index) */
    double *fx;              /* whole: count rows of nf features, by ordinal */
    unsigned char *taken;    /* whole: proposed or known, by ordinal */
    double *mu, *sd;         /* whole: the current fit's predictions, by ordinal */
    /* What is known: keys, costs (+inf: failed) and feature rows, in the order told. */
    uint64_t *okeys;
    double *ocost, *ox, *y;
    int nobs, cap;
    forest *model;
    int fitted_at;           /* nobs at the last fit */
    double best_t;           /* the best target at the last fit */
    int sign;                /* the targets' transform: 1 log(cost), -1 -log(-cost), 0 cost */
    /* The initial design. */
    int design, designed;
    uint64_t *chosen;        /* its points so far */
    search_prior *prior_best; /* the prior's entries, best first */
    uint64_t nprior, prior_at;
    int prior_picks;
    uint64_t picks;          /* model picks so far */
    /* Larger spaces: candidates and their features. */
    uint64_t *cand;
    double *cx;
    /* This batch's proposals (larger spaces: not yet pending in the driver). */
    const uint64_t *batch;
    int nbatch;
} auto_state;

/* ---- features ------------------------------------------------------------------ */

static int64_t odd_part(int64_t v)
{
    if (v == 0)
        return 0;
    while (v % 2 == 0)
        v /= 2;
    return v;
}

static double value_feature(value v, uint64_t index)
{
    switch (v.type) {
    case VT_INT: return (double)v.u.i;
    case VT_FLOAT: return v.u.f;
    case VT_BOOL: return v.u.b ? 1.0 : 0.0;
    default: return (double)index; /* strings: by their place in the domain */
    }
}

static bool numeric(vtype t)
{
    return t == VT_INT || t == VT_FLOAT || t == VT_BOOL;
}

static int add_src(auto_state *a, feat_kind kind, int param, const texpr *e)
{
    feat_src *grown = realloc(a->src, sizeof(feat_src) * (size_t)(a->nf + 1));
    if (!grown)
        return -1;
    a->src = grown;
    a->src[a->nf++] = (feat_src){kind, param, e};
    return 0;
}

/* The features this model has (a->src, a->nf). -1 out of memory. */
static int plan_features(auto_state *a, bool prior)
{
    const model *m = a->m;
    int rc = 0;
    for (int i = 0; i < m->nparams; i++)
        if (m->params[i].dom.size > 1)
            rc |= add_src(a, FS_PARAM, i, NULL);
    for (int i = 0; i < m->nparams; i++) { /* odd parts, where they differ over the domain */
        const domain *d = &m->params[i].dom;
        if (d->type != VT_INT || d->size < 2)
            continue;
        int64_t first = odd_part(domain_at(d, 0).u.i);
        bool differ = false;
        for (uint64_t k = 1; k < d->size && k < 4096 && !differ; k++)
            differ = odd_part(domain_at(d, k).u.i) != first;
        if (differ)
            rc |= add_src(a, FS_ODD, i, NULL);
    }
    for (int i = 0; i < m->nlets; i++)
        if (m->lets[i].expr && m->lets[i].expr->deps && numeric(m->lets[i].type))
            rc |= add_src(a, FS_EXPR, -1, m->lets[i].expr);
    for (int d = 0; d < m->block_dims; d++)
        if (m->block[d]->deps)
            rc |= add_src(a, FS_EXPR, -1, m->block[d]);
    for (int d = 0; d < m->grid_dims; d++)
        if (m->grid[d]->deps)
            rc |= add_src(a, FS_EXPR, -1, m->grid[d]);
    if (m->smem && m->smem->deps)
        rc |= add_src(a, FS_EXPR, -1, m->smem);
    bool geometry = false;
    for (int d = 0; d < m->block_dims; d++)
        geometry |= m->block[d]->deps != 0;
    if (geometry) {
        rc |= add_src(a, FS_THREADS, -1, NULL);
        rc |= add_src(a, FS_LANES, -1, NULL);
        if (m->block[0]->deps)
            rc |= add_src(a, FS_BX32, -1, NULL);
    }
    if (prior)
        rc |= add_src(a, FS_PRIOR, -1, NULL);
    if (rc == 0 && a->nf == 0) /* a space of one configuration: one constant feature */
        rc = add_src(a, FS_THREADS, -1, NULL);
    return rc ? -1 : 0;
}

static double prior_score(const search_settings *set, uint64_t key)
{
    uint64_t lo = 0, hi = set->nprior;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (set->prior[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < set->nprior && set->prior[lo].key == key ? set->prior[lo].score : 0.5; /* unknown: the middle */
}

/* The feature row of `key` into x (nf values; NaN where an expression fails). */
static void features(auto_state *a, const search_settings *set, uint64_t key, double *x)
{
    const model *m = a->m;
    sspace_decode(a->sp, key, a->vec);
    sspace_values(a->sp, key, a->vals);
    eval_env env;
    memset(&env, 0, sizeof env);
    env.m = m;
    env.params = a->vals;
    int64_t threads = 1, bx = 1;
    for (int d = 0; d < m->block_dims; d++) {
        int64_t v = 1;
        eval_error err;
        if (eval_int(m->block[d], &env, &v, &err) < 0)
            v = 0;
        threads *= v;
        if (d == 0)
            bx = v;
    }
    for (int i = 0; i < a->nf; i++) {
        const feat_src *s = &a->src[i];
        value v;
        eval_error err;
        switch (s->kind) {
        case FS_PARAM: x[i] = value_feature(a->vals[s->param], a->vec[s->param]); break;
        case FS_ODD: x[i] = (double)odd_part(a->vals[s->param].u.i); break;
        case FS_EXPR: x[i] = eval_expr(s->e, &env, &v, &err) < 0 ? NAN : value_feature(v, 0); break;
        case FS_THREADS: x[i] = (double)threads; break;
        case FS_LANES: x[i] = threads > 0 ? (double)threads / (double)(((threads + 31) / 32) * 32) : 0; break;
        case FS_BX32: x[i] = (double)(bx % 32); break;
        case FS_PRIOR: x[i] = prior_score(set, key); break;
        }
    }
}

/* ---- what is known --------------------------------------------------------------- */

/* The place of a valid key among a->keys (whole spaces). */
static uint64_t place(const auto_state *a, uint64_t key)
{
    uint64_t lo = 0, hi = a->count;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (a->keys[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int by_key(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

static bool is_taken(const auto_state *a, const strat_ctx *c, uint64_t key)
{
    if (a->whole)
        return a->taken[place(a, key)] != 0;
    if (strat_known(c, key, NULL) || strat_pending(c, key))
        return true;
    for (int i = 0; i < a->nbatch; i++)
        if (a->batch[i] == key)
            return true;
    return false;
}

static void take(auto_state *a, uint64_t key)
{
    if (a->whole)
        a->taken[place(a, key)] = 1;
}

static int add_obs(auto_state *a, strat_ctx *c, uint64_t key, double cost)
{
    if (a->nobs == a->cap) {
        int cap = a->cap ? a->cap * 2 : 64;
        uint64_t *k = realloc(a->okeys, sizeof(uint64_t) * (size_t)cap);
        if (k)
            a->okeys = k;
        double *co = realloc(a->ocost, sizeof(double) * (size_t)cap);
        if (co)
            a->ocost = co;
        double *y = realloc(a->y, sizeof(double) * (size_t)cap);
        if (y)
            a->y = y;
        double *x = realloc(a->ox, sizeof(double) * (size_t)cap * (size_t)a->nf);
        if (x)
            a->ox = x;
        if (!k || !co || !y || !x)
            return -1;
        a->cap = cap;
    }
    double *row = a->ox + (size_t)a->nobs * (size_t)a->nf;
    if (a->whole)
        memcpy(row, a->fx + (size_t)place(a, key) * (size_t)a->nf, sizeof(double) * (size_t)a->nf);
    else
        features(a, c->set, key, row);
    a->okeys[a->nobs] = key;
    a->ocost[a->nobs] = cost;
    a->nobs++;
    take(a, key);
    return 0;
}

/* The index of the k-th best observation that ran (k from 0), or -1. Small k: a
 * selection by repeated scans. */
static int nth_best(const auto_state *a, int k, int *picked)
{
    for (int r = 0; r <= k; r++) {
        int best = -1;
        for (int i = 0; i < a->nobs; i++) {
            if (!isfinite(a->ocost[i]))
                continue;
            bool used = false;
            for (int j = 0; j < r && !used; j++)
                used = picked[j] == i;
            if (!used && (best < 0 || a->ocost[i] < a->ocost[best]))
                best = i;
        }
        if (best < 0)
            return -1;
        picked[r] = best;
    }
    return picked[k];
}

/* ---- the model ------------------------------------------------------------------- */

static double expected_improvement(double best, double mu, double sd)
{
    double d = best - mu;
    if (!(sd > 1e-12))
        return d > 0 ? d : 0;
    double z = d / sd;
    return d * 0.5 * erfc(-z / sqrt(2.0)) + sd * exp(-0.5 * z * z) * 0.3989422804014327 /* 1 / sqrt(2 pi) */;
}

/* Fits the forest to what is known; false when nothing ran yet (no model). -1 out of
 * memory. */
static int refit(auto_state *a, strat_ctx *c)
{
    bool pos = true, neg = true;
    int ok = 0;
    for (int i = 0; i < a->nobs; i++)
        if (isfinite(a->ocost[i])) {
            ok++;
            pos &= a->ocost[i] > 0;
            neg &= a->ocost[i] < 0;
        }
    a->fitted_at = a->nobs;
    forest_free(a->model);
    a->model = NULL;
    if (ok == 0)
        return 0;
    a->sign = pos ? 1 : neg ? -1 : 0;
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < a->nobs; i++) {
        double cst = a->ocost[i];
        if (!isfinite(cst))
            continue;
        double t = a->sign > 0 ? log(cst) : a->sign < 0 ? -log(-cst) : cst;
        a->y[i] = t;
        lo = t < lo ? t : lo;
        hi = t > hi ? t : hi;
    }
    double range = hi > lo ? hi - lo : 1.0;
    for (int i = 0; i < a->nobs; i++)
        if (!isfinite(a->ocost[i]))
            a->y[i] = hi + range;
    a->best_t = lo;
    forest_options fo = {TREES, 0, 0, 0};
    if (forest_fit(&a->model, a->ox, a->y, a->nobs, a->nf, &fo, rng_next(&c->r)) < 0)
        return -1;
    if (a->whole)
        for (uint64_t o = 0; o < a->count; o++)
            if (!a->taken[o])
                forest_predict(a->model, a->fx + o * (size_t)a->nf, &a->mu[o], &a->sd[o]);
    return 1;
}

/* A candidate's score against the best so far: higher is better. */
typedef struct pick {
    bool have;
    uint64_t key;
    double ei, mu;
} pick;

static void consider(pick *p, uint64_t key, double mu, double sd, double best)
{
    double e = expected_improvement(best, mu, sd);
    if (!p->have || e > p->ei || (e == p->ei && (mu < p->mu || (mu == p->mu && key < p->key)))) {
        p->have = true;
        p->key = key;
        p->ei = e;
        p->mu = mu;
    }
}

static void consider_key(auto_state *a, strat_ctx *c, pick *p, uint64_t key)
{
    double mu, sd;
    if (a->whole) {
        uint64_t o = place(a, key);
        mu = a->mu[o];
        sd = a->sd[o];
    } else {
        features(a, c->set, key, a->cx);
        forest_predict(a->model, a->cx, &mu, &sd);
    }
    consider(p, key, mu, sd, a->best_t);
}

/* The unseen neighbours of the `top` best configurations, scored into p. */
static void neighbours_of_best(auto_state *a, strat_ctx *c, int top, pick *p)
{
    int picked[TOP_LARGE > TOP_LOCAL ? TOP_LARGE : TOP_LOCAL];
    for (int k = 0; k < top; k++) {
        int i = nth_best(a, k, picked);
        if (i < 0)
            break;
        int n = sspace_neighbours(a->sp, a->okeys[i], a->nb);
        for (int j = 0; j < n; j++)
            if (!is_taken(a, c, a->nb[j]))
                consider_key(a, c, p, a->nb[j]);
    }
}

/* The best by expected improvement over the space, or only where param `param` has
 * domain index `index` (param -1: everywhere). */
static void global_pick(auto_state *a, strat_ctx *c, int param, uint64_t index, pick *p)
{
    if (a->whole) {
        for (uint64_t o = 0; o < a->count; o++) {
            if (a->taken[o])
                continue;
            uint64_t key = a->keys[o];
            if (param >= 0) {
                sspace_decode(a->sp, key, a->vec);
                if (a->vec[param] != index)
                    continue;
            }
            consider(p, key, a->mu[o], a->sd[o], a->best_t);
        }
        return;
    }
    for (int s = 0; s < SAMPLES; s++) {
        uint64_t key;
        if (!sspace_random(a->sp, &c->r, &key))
            break;
        if (param >= 0) {
            sspace_decode(a->sp, key, a->vec);
            a->vec[param] = index;
            key = sspace_encode(a->sp, a->vec);
            if (!sspace_valid(a->sp, key))
                continue;
        }
        if (!is_taken(a, c, key))
            consider_key(a, c, p, key);
    }
    if (param < 0)
        neighbours_of_best(a, c, TOP_LARGE, p);
}

/* ---- the initial design ---------------------------------------------------------- */

static double distance(auto_state *a, uint64_t x, uint64_t y, uint64_t *vx, uint64_t *vy)
{
    sspace_decode(a->sp, x, vx);
    sspace_decode(a->sp, y, vy);
    double d = 0;
    for (int i = 0; i < a->np; i++) {
        uint64_t size = sspace_size(a->sp, i);
        if (size < 2)
            continue;
        double t = ((double)vx[i] - (double)vy[i]) / (double)(size - 1);
        d += t * t;
    }
    return d;
}

/* The most distant (from what is chosen and known) of DESIGN_DRAWS random unseen
 * configurations; false when none is left. */
static bool spread_pick(auto_state *a, strat_ctx *c, uint64_t *key)
{
    uint64_t *vx = a->vec + a->np, *vy = a->vec + 2 * a->np;
    bool have = false;
    double best = -1;
    for (int t = 0; t < DESIGN_DRAWS; t++) {
        uint64_t k;
        if (!strat_random_unseen(c, &k))
            break;
        if (is_taken(a, c, k))
            continue;
        double near = INFINITY;
        for (int i = 0; i < a->designed; i++) {
            double d = distance(a, k, a->chosen[i], vx, vy);
            near = d < near ? d : near;
        }
        for (int i = 0; i < a->nobs; i++) {
            double d = distance(a, k, a->okeys[i], vx, vy);
            near = d < near ? d : near;
        }
        if (!have || near > best) {
            have = true;
            best = near;
            *key = k;
        }
    }
    if (!have) { /* the draws were all taken: walk the space (listed) */
        for (uint64_t o = 0; a->whole && o < a->count && !have; o++)
            if (!a->taken[o]) {
                have = true;
                *key = a->keys[o];
            }
    }
    return have;
}

static bool design_pick(auto_state *a, strat_ctx *c, uint64_t *key)
{
    bool have = false;
    while (a->prior_picks > 0 && a->prior_at < a->nprior && !have) {
        uint64_t k = a->prior_best[a->prior_at++].key;
        if (sspace_valid(a->sp, k) && !is_taken(a, c, k)) {
            have = true;
            *key = k;
            a->prior_picks--;
        }
    }
    if (!have)
        have = spread_pick(a, c, key);
    if (have)
        a->chosen[a->designed++] = *key;
    return have;
}

/* ---- the strategy ---------------------------------------------------------------- */

static bool model_pick(auto_state *a, strat_ctx *c, uint64_t *key)
{
    if (!a->model || a->nobs - a->fitted_at > a->nobs / REFIT_SHARE) {
        int rc = refit(a, c);
        if (rc < 0)
            return false;
    }
    if (!a->model) /* nothing ran yet: spread further */
        return spread_pick(a, c, key);
    a->picks++;
    pick p = {0};
    if (a->picks % RANDOM_EVERY == 0) /* exploration the model cannot argue with */
        return spread_pick(a, c, key);
    if (a->picks % COND_EVERY == 0) {
        int params[MODEL_MAX_PARAMS], n = 0, picked[1];
        for (int i = 0; i < a->np; i++)
            if (sspace_size(a->sp, i) > 1)
                params[n++] = i;
        int b = nth_best(a, 0, picked);
        if (n > 0 && b >= 0) {
            int param = params[rng_below(&c->r, (uint64_t)n)];
            sspace_decode(a->sp, a->okeys[b], a->vec);
            uint64_t size = sspace_size(a->sp, param), at = rng_below(&c->r, size - 1);
            if (at >= a->vec[param])
                at++; /* another value than the best's */
            global_pick(a, c, param, at, &p);
        }
    } else if (a->picks % LOCAL_EVERY == 0) {
        neighbours_of_best(a, c, TOP_LOCAL, &p);
    }
    if (!p.have)
        global_pick(a, c, -1, 0, &p);
    if (!p.have)
        return spread_pick(a, c, key);
    *key = p.key;
    return true;
}

static void auto_destroy(void *vst)
{
    auto_state *a = vst;
    if (!a)
        return;
    forest_free(a->model);
    free(a->src);
    free(a->vals);
    free(a->vec);
    free(a->nb);
    free(a->keys);
    free(a->fx);
    free(a->taken);
    free(a->mu);
    free(a->sd);
    free(a->okeys);
    free(a->ocost);
    free(a->ox);
    free(a->y);
    free(a->chosen);
    free(a->prior_best);
    free(a->cand);
    free(a->cx);
    free(a);
}

static int by_score(const void *pa, const void *pb)
{
    const search_prior *a = pa, *b = pb;
    if (a->score != b->score)
        return a->score < b->score ? -1 : 1;
    return (a->key > b->key) - (a->key < b->key);
}

static void *auto_create(strat_ctx *c)
{
    auto_state *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    const search_settings *set = c->set;
    a->sp = c->sp;
    a->m = sspace_model(c->sp);
    a->np = sspace_nparams(c->sp);
    a->count = sspace_count(c->sp);
    a->whole = sspace_listed(c->sp) && a->count <= WHOLE_LIMIT;
    uint64_t design = set->budget ? set->budget * 2 / 5 : DESIGN_MAX;
    design = design < DESIGN_MIN ? DESIGN_MIN : design > DESIGN_MAX ? DESIGN_MAX : design;
    a->design = (int)(design < a->count ? design : a->count);
    bool prior = set->prior && set->nprior > 0;
    if (plan_features(a, prior) < 0 || !(a->vals = calloc((size_t)a->np + 1, sizeof(value))) ||
        !(a->vec = calloc(3 * (size_t)a->np + 1, sizeof(uint64_t))) ||
        !(a->nb = calloc(2 * (size_t)a->np + 1, sizeof(uint64_t))) ||
        !(a->chosen = calloc((size_t)a->design + 1, sizeof(uint64_t))) ||
        !(a->cx = calloc((size_t)a->nf, sizeof(double))))
        goto fail;
    if (prior) {
        if (!(a->prior_best = malloc(sizeof(search_prior) * (size_t)set->nprior)))
            goto fail;
        memcpy(a->prior_best, set->prior, sizeof(search_prior) * (size_t)set->nprior);
        qsort(a->prior_best, (size_t)set->nprior, sizeof(search_prior), by_score);
        a->nprior = set->nprior;
        a->prior_picks = a->design / 2;
    }
    if (a->whole) {
        if (!(a->keys = malloc(sizeof(uint64_t) * (size_t)a->count)))
            goto fail;
        for (uint64_t o = 0; o < a->count; o++)
            a->keys[o] = sspace_at(a->sp, o);
        qsort(a->keys, (size_t)a->count, sizeof(uint64_t), by_key); /* a shard's may not ascend */
        if (!(a->fx = malloc(sizeof(double) * (size_t)a->count * (size_t)a->nf)) ||
            !(a->taken = calloc((size_t)a->count, 1)) || !(a->mu = calloc((size_t)a->count, sizeof(double))) ||
            !(a->sd = calloc((size_t)a->count, sizeof(double))))
            goto fail;
        for (uint64_t o = 0; o < a->count; o++)
            features(a, set, a->keys[o], a->fx + o * (size_t)a->nf);
    }
    return a;
fail:
    auto_destroy(a);
    return NULL;
}

static int auto_propose(void *vst, strat_ctx *c, uint64_t *keys, int max)
{
    auto_state *a = vst;
    int64_t room = (int64_t)strat_in_flight(c) - (int64_t)strat_pending_count(c);
    int n = 0;
    a->batch = keys;
    while (n < max && n < room) {
        a->nbatch = n;
        uint64_t key;
        bool have;
        if (a->designed < a->design)
            have = design_pick(a, c, &key);
        else if (a->nobs == 0)
            break; /* the design's outcomes are awaited */
        else
            have = model_pick(a, c, &key);
        if (!have)
            break;
        take(a, key);
        keys[n++] = key;
    }
    a->batch = NULL;
    a->nbatch = 0;
    return n;
}

static void auto_observe(void *vst, strat_ctx *c, uint64_t key, double cost)
{
    /* Each key arrives once: auto never proposes what is known or in flight. Out of
     * memory: the model learns without it. */
    (void)add_obs(vst, c, key, cost);
}

const strat_ops strat_auto = {"auto", auto_create, auto_propose, auto_observe, auto_destroy, auto_observe};
