/* auto_pick.c - the auto strategy's models and its picks after the initial design
 * (auto.h; the strategy as a whole is described in auto.c).
 *
 * Two random forests (forest.h) over the features of auto_feat.c: the cost model,
 * fitted to log(cost) of the configurations that ran, and, once some configuration has
 * failed, the feasibility model, fitted to every outcome as 1 failed / 0 ran, whose mean
 * is the chance that a configuration fails. A pick maximises the expected improvement
 * of the cost model over the best target, times the chance that the configuration runs;
 * with many in flight, a global pick is a Thompson sample (one tree's best).
 * Keeping failures out of the cost model leaves its scale to the times; learning them as
 * a very slow time instead (as auto did before 2026-11-27) made the cost model's
 * plateaus and spread follow the failures, and cost 0.09 of the optimum at 100
 * evaluations on the A6000 convolution (docs/results/2026-11-27-search.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "auto.h"

/* The expected improvement below `best` of a normal (mu, sd); sd 0: the plain gain. */
static double expected_improvement(double best, double mu, double sd)
{
    double d = best - mu;
    if (!(sd > 1e-12))
        return d > 0 ? d : 0;
    double z = d / sd;
    return d * 0.5 * erfc(-z / sqrt(2.0)) + sd * exp(-0.5 * z * z) * 0.3989422804014327 /* 1 / sqrt(2 pi) */;
}

/* The feature rows and targets of the outcomes that ran into fresh arrays (*x, *y; the
 * caller frees them), a->y holding every outcome's target. -1 out of memory. */
static int successes(const auto_state *a, double **x, double **y)
{
    size_t row = sizeof(double) * (size_t)a->nf;
    *x = malloc(row * (size_t)a->nobs);
    *y = malloc(sizeof(double) * (size_t)a->nobs);
    if (!*x || !*y)
        return -1;
    int k = 0;
    for (int i = 0; i < a->nobs; i++)
        if (isfinite(a->ocost[i])) {
            memcpy(*x + (size_t)k * (size_t)a->nf, a->ox + (size_t)i * (size_t)a->nf, row);
            (*y)[k++] = a->y[i];
        }
    return 0;
}

/* Fits the models to what is known and, in a whole space, predicts every configuration
 * not taken. 1 fitted; 0 when nothing ran yet (no model); -1 out of memory (no model).
 * Takes one seed from c->r for the cost model, and one more for the feasibility model
 * when some outcome failed. */
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
    forest_free(a->fails);
    a->model = a->fails = NULL;
    if (ok == 0)
        return 0;
    a->sign = pos ? 1 : neg ? -1 : 0;
    double lo = INFINITY;
    for (int i = 0; i < a->nobs; i++) {
        double cst = a->ocost[i];
        if (!isfinite(cst))
            continue;
        double t = a->sign > 0 ? log(cst) : a->sign < 0 ? -log(-cst) : cst;
        a->y[i] = t;
        lo = t < lo ? t : lo;
    }
    a->best_t = lo;
    forest_options fo = {AUTO_TREES, 0, 0, 0};
    if (ok == a->nobs) {
        if (forest_fit(&a->model, a->ox, a->y, a->nobs, a->nf, &fo, rng_next(&c->r)) < 0)
            return -1;
    } else {
        double *sx = NULL, *sy = NULL;
        int rc = successes(a, &sx, &sy);
        if (rc == 0)
            rc = forest_fit(&a->model, sx, sy, ok, a->nf, &fo, rng_next(&c->r));
        free(sx);
        free(sy);
        for (int i = 0; i < a->nobs; i++)
            a->y[i] = isfinite(a->ocost[i]) ? 0.0 : 1.0;
        if (rc < 0 || forest_fit(&a->fails, a->ox, a->y, a->nobs, a->nf, &fo, rng_next(&c->r)) < 0) {
            forest_free(a->model);
            a->model = NULL;
            return -1;
        }
    }
    if (a->whole)
        for (uint64_t o = 0; o < a->count; o++)
            if (!a->taken[o]) {
                const double *x = a->fx + o * (size_t)a->nf;
                forest_predict(a->model, x, &a->mu[o], &a->sd[o]);
                a->pok[o] = 1.0;
                if (a->fails) {
                    double pf, sdf;
                    forest_predict(a->fails, x, &pf, &sdf);
                    a->pok[o] = 1.0 - pf;
                }
            }
    return 1;
}

/* The best candidate so far of a pick: the highest score, ties to the lower predicted
 * cost, then to the lower key. */
typedef struct pick {
    bool have;
    uint64_t key;
    double score, mu;
    /* A Thompson sample: the score is tree `tree` of `model`'s prediction at x (the
     * candidate's features), not the expected improvement; tree -1: expected improvement. */
    int tree;
    const forest *model;
    const double *x;
} pick;

/* Scores `key` (predicted mu, sd; chance pok that it runs) into p. A Thompson sample
 * scores the tree's predicted cost (lower is better), a likely failure (pok < 1/2) last. */
static void consider(pick *p, uint64_t key, double mu, double sd, double pok, double best)
{
    double e = p->tree >= 0 ? -forest_predict_trees(p->model, p->x, &p->tree, 1) - (pok < 0.5 ? 1e6 : 0)
                            : expected_improvement(best, mu, sd) * pok;
    if (!p->have || e > p->score || (e == p->score && (mu < p->mu || (mu == p->mu && key < p->key)))) {
        p->have = true;
        p->key = key;
        p->score = e;
        p->mu = mu;
    }
}

/* Scores `key` into p: from the cached predictions in a whole space, else predicted now. */
static void consider_key(auto_state *a, strat_ctx *c, pick *p, uint64_t key)
{
    double mu, sd, pok = 1.0;
    if (a->whole) {
        uint64_t o = auto_place(a, key);
        p->x = a->fx + o * (size_t)a->nf;
        mu = a->mu[o];
        sd = a->sd[o];
        pok = a->pok[o];
    } else {
        auto_features(a, c->set, key, a->cx);
        p->x = a->cx;
        forest_predict(a->model, a->cx, &mu, &sd);
        if (a->fails) {
            double pf, sdf;
            forest_predict(a->fails, a->cx, &pf, &sdf);
            pok = 1.0 - pf;
        }
    }
    consider(p, key, mu, sd, pok, a->best_t);
}

/* The number of params in which x and y differ (a->vec's second and third rows: scratch). */
static int params_apart(const auto_state *a, uint64_t x, uint64_t y)
{
    uint64_t *vx = a->vec + a->np, *vy = a->vec + 2 * a->np;
    sspace_decode(a->sp, x, vx);
    sspace_decode(a->sp, y, vy);
    int d = 0;
    for (int i = 0; i < a->np; i++)
        d += vx[i] != vy[i];
    return d;
}

/* The index into a->okeys of the k-th best outcome that ran among those that differ from
 * every better one picked in at least AUTO_TOP_APART params (k from 0; picked: room for
 * k + 1), or -1 when fewer than k + 1 are left. The passes that start from the best few
 * (local passes, the neighbours of large spaces' global picks) so start from different
 * basins: the best few of a plateau are one param apart, and the neighbours of all of
 * them are the plateau again (the convolutions' plateaus are such: no configuration one
 * param away is better; docs/results/2026-11-27g-search.md). Small k: a selection by
 * repeated scans. */
static int nth_best(const auto_state *a, int k, int *picked)
{
    for (int r = 0; r <= k; r++) {
        int best = -1;
        for (int i = 0; i < a->nobs; i++) {
            if (!isfinite(a->ocost[i]))
                continue;
            bool used = false;
            for (int j = 0; j < r && !used; j++)
                used = picked[j] == i || params_apart(a, a->okeys[i], a->okeys[picked[j]]) < AUTO_TOP_APART;
            if (!used && (best < 0 || a->ocost[i] < a->ocost[best]))
                best = i;
        }
        if (best < 0)
            return -1;
        picked[r] = best;
    }
    return picked[k];
}

/* The unseen neighbours (one param one step) of the `top` best configurations, scored
 * into p. */
static void neighbours_of_best(auto_state *a, strat_ctx *c, int top, pick *p)
{
    int picked[AUTO_TOP_LARGE > AUTO_TOP_LOCAL ? AUTO_TOP_LARGE : AUTO_TOP_LOCAL];
    for (int k = 0; k < top; k++) {
        int i = nth_best(a, k, picked);
        if (i < 0)
            break;
        int n = sspace_neighbours(a->sp, a->okeys[i], a->nb);
        for (int j = 0; j < n; j++)
            if (!auto_is_taken(a, c, a->nb[j]))
                consider_key(a, c, p, a->nb[j]);
    }
}

/* The best unseen configuration over the space, or only where param `param` has domain
 * index `index` (param -1: everywhere), scored into p. A whole space is scanned; a larger
 * one sampled (AUTO_SAMPLES, and everywhere also the neighbours of the AUTO_TOP_LARGE best). */
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
            p->x = a->fx + o * (size_t)a->nf;
            consider(p, key, a->mu[o], a->sd[o], a->pok[o], a->best_t);
        }
        return;
    }
    for (int s = 0; s < AUTO_SAMPLES; s++) {
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
        if (!auto_is_taken(a, c, key))
            consider_key(a, c, p, key);
    }
    if (param < 0)
        neighbours_of_best(a, c, AUTO_TOP_LARGE, p);
}

/* A conditional pass: one random param (of more than one value) set to a random value
 * other than the best's, and the best pick there into p (nothing when none is left). */
static void conditional_pick(auto_state *a, strat_ctx *c, pick *p)
{
    int params[MODEL_MAX_PARAMS], n = 0, picked[1];
    for (int i = 0; i < a->np; i++)
        if (sspace_size(a->sp, i) > 1)
            params[n++] = i;
    int b = nth_best(a, 0, picked);
    if (n == 0 || b < 0)
        return;
    int param = params[rng_below(&c->r, (uint64_t)n)];
    sspace_decode(a->sp, a->okeys[b], a->vec);
    uint64_t size = sspace_size(a->sp, param), at = rng_below(&c->r, size - 1);
    if (at >= a->vec[param])
        at++; /* another value than the best's */
    global_pick(a, c, param, at, p);
}

bool auto_model_pick(auto_state *a, strat_ctx *c, uint64_t *key)
{
    if (!a->model || a->nobs - a->fitted_at > a->nobs / AUTO_REFIT_SHARE) {
        if (refit(a, c) < 0)
            return false;
    }
    if (!a->model || a->nobs < AUTO_YOUNG) /* nothing ran yet, or too little to trust: spread */
        return auto_spread_pick(a, c, key);
    a->picks++;
    if (a->picks % AUTO_SPREAD_EVERY == 0) /* exploration the model cannot argue with */
        return auto_spread_pick(a, c, key);
    pick p = {.tree = -1, .model = a->model};
    if (a->picks % AUTO_COND_EVERY == 0)
        conditional_pick(a, c, &p);
    else if (a->picks % AUTO_LOCAL_EVERY == 0)
        neighbours_of_best(a, c, AUTO_TOP_LOCAL, &p);
    if (!p.have) {
        /* Many in flight: the picks made before their outcomes return would all climb the
         * same peak of the expected improvement; each takes one tree's view instead. */
        if (strat_pending_count(c) + (uint64_t)a->nbatch >= AUTO_TS_PENDING)
            p.tree = (int)rng_below(&c->r, (uint64_t)forest_trees(a->model));
        global_pick(a, c, -1, 0, &p);
    }
    if (!p.have)
        return auto_spread_pick(a, c, key);
    *key = p.key;
    return true;
}
