/* auto.c - the default strategy for budgeted searches: model-based, learning from every
 * outcome (auto.h; the features in auto_feat.c, the models and picks in auto_pick.c).
 *
 * Two random forests (forest.h) model the space from features that describe each
 * configuration as a GPU sees it (auto_feat.c: param values, the lets and launch geometry
 * that depend on them, threads per block, warp lanes used, odd parts, a prior's score):
 * the cost model predicts log(cost) and is fitted to the configurations that ran; the
 * feasibility model, fitted to every outcome as 1 failed / 0 ran once one has failed,
 * predicts the chance that a configuration fails.
 *
 *   1. Initial design: clamp(budget * 2/5, 4, 10) configurations (10 without a budget),
 *      each a spread pick: the most distant (in params' domain positions scaled to 0..1)
 *      of 16 random unseen draws from what is chosen and known already; with a prior,
 *      the first half are the prior's best. Every other draw is moved to powers of two:
 *      each int param of 2 or more that is none goes to the nearest power of two of its
 *      domain (when the result is valid). GPU launch params (block and tile sizes,
 *      unroll factors) are fastest at powers of two far more often than not, and on the
 *      hub convolutions the optimum's basin is there (non-power-of-two widths 3 to 100x
 *      slower): +0.029 of the mean at 25 and 50 evaluations, +0.020 at 100 on the
 *      development set, +0.014 / +0.011 / +0.007 held out, 120 seeds; its price is paid
 *      where an optimum away from powers of two is found only by exploring
 *      (docs/results/2026-11-28d-search.md).
 *   2. While fewer than AUTO_YOUNG (5) outcomes are known, further picks are spread picks
 *      too: with 16 compile threads some 16 proposals leave before the first outcome
 *      returns, and a model of one to four points only repeats them.
 *   3. Then each pick maximises the expected improvement of the cost model over the best
 *      so far times the chance that the configuration runs: over the whole space when it
 *      has at most AUTO_WHOLE_LIMIT configurations (predictions cached per fit), else
 *      over AUTO_SAMPLES random ones and the neighbours of the AUTO_TOP_LARGE best. Every
 *      AUTO_LOCAL_EVERY-th pick looks only at the neighbours of the AUTO_TOP_LOCAL best
 *      (a local pass, which polishes the incumbent); those best few are each at least
 *      AUTO_TOP_APART params from every better one, so that a plateau's best few, one
 *      param apart, do not take every start; every AUTO_COND_EVERY-th restricts
 *      the space to one random param set to a value other than the best's (a conditional
 *      pass, which keeps the model honest about a param the incumbent has fixed), the
 *      whole space when nothing is left there; and every AUTO_SPREAD_EVERY-th, before
 *      those, is a spread pick: a forest trusts its plateaus, and this exploration found
 *      basins (a needle of 4 configurations in 4,362 among them) that expected
 *      improvement alone did not. A global pick made while AUTO_TS_PENDING or more
 *      proposals are in flight is a Thompson sample instead: the best unseen
 *      configuration by one random tree of the cost model, so that the picks made
 *      before their outcomes return spread over what the trees disagree on. A configuration that fails by its compile alone costs
 *      no evaluation (search_tell_static_failure) and is learnt as a failure.
 *   4. Switch picks, outside that rhythm and before it: when an outcome becomes the
 *      incumbent (the best that ran), it is asked again with each of its switches (a
 *      param of two values: a code path on or off) flipped, one flip per pick, before
 *      any other model pick. The forest learns a switch from configurations that differ
 *      in much else, and on the convolutions' landscapes the other path is slow almost
 *      everywhere, so the one comparison that isolates it, the incumbent flipped, was
 *      left to the local passes' expected improvement (in a traced seed of the A4000
 *      convolution it came 45 outcomes after its incumbent and took the best from 0.73
 *      to 0.98 of the optimum). Measured: +0.006 of the mean at 100 evaluations on the
 *      development set, +0.002 to +0.003 at 25 to 200 on the held-out set, 120 seeds
 *      (docs/results/2026-11-28d-search.md).
 *   5. The forests are refitted when more than n / AUTO_REFIT_SHARE of the n outcomes
 *      are new.
 *
 * Proposals in flight are limited to strat_in_flight: enough to keep the GPU and the
 * compile threads busy, no more, so that each pick knows as many outcomes as the pipeline
 * allows. Before the first outcome that is the compile threads' number, filled with
 * spread picks beyond the design (until 2026-11-27 auto waited for the design's first
 * outcome, leaving threads idle). The constants were tuned on the development landscapes and checked on the
 * held-out ones (bench/search/landscapes.py over bench/landscapes/; docs/search.md and
 * docs/results/2026-11-27-search.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "auto.h"

/* ---- what is known --------------------------------------------------------------- */

uint64_t auto_place(const auto_state *a, uint64_t key)
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

/* qsort: keys ascending. */
static int by_key(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

bool auto_is_taken(const auto_state *a, const strat_ctx *c, uint64_t key)
{
    if (a->whole)
        return a->taken[auto_place(a, key)] != 0;
    if (strat_known(c, key, NULL) || strat_pending(c, key))
        return true;
    for (int i = 0; i < a->nbatch; i++)
        if (a->batch[i] == key)
            return true;
    return false;
}

/* Marks `key` proposed or known (whole spaces; larger ones ask the driver). */
static void take(auto_state *a, uint64_t key)
{
    if (a->whole)
        a->taken[auto_place(a, key)] = 1;
}

/* Records an outcome (cost +inf: failed) with its feature row. 0, or -1 out of memory
 * (nothing recorded). */
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
        memcpy(row, a->fx + (size_t)auto_place(a, key) * (size_t)a->nf, sizeof(double) * (size_t)a->nf);
    else
        auto_features(a, c->set, key, row);
    a->okeys[a->nobs] = key;
    a->ocost[a->nobs] = cost;
    a->nobs++;
    take(a, key);
    return 0;
}

/* ---- spread picks and the initial design ------------------------------------------ */

/* The squared distance of x and y in params' domain positions scaled to 0..1 (vx, vy:
 * scratch of np indices). */
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

/* Whether x is a power of two of 2 or more. */
static bool power_of_two(int64_t x)
{
    return x >= 2 && (x & (x - 1)) == 0;
}

/* `key` with each int param of 2 or more that is no power of two moved to the nearest
 * power of two of its domain (ties to the smaller; 0, 1, floats, strings and params
 * without such values stay), or `key` itself when that is not valid. */
static uint64_t snap_to_powers_of_two(auto_state *a, uint64_t key)
{
    uint64_t *v = a->vec + a->np;
    sspace_decode(a->sp, key, v);
    bool moved = false;
    for (int i = 0; i < a->np; i++) {
        if (a->p2at[i] == a->p2at[i + 1])
            continue;
        value x = model_domain_at(&a->m->params[i].dom, v[i]);
        if (x.type != VT_INT || x.u.i < 2 || power_of_two(x.u.i))
            continue;
        int best = a->p2at[i];
        for (int j = a->p2at[i] + 1; j < a->p2at[i + 1]; j++)
            if (llabs(a->p2val[j] - x.u.i) < llabs(a->p2val[best] - x.u.i))
                best = j;
        v[i] = a->p2idx[best];
        moved = true;
    }
    if (!moved)
        return key;
    uint64_t snapped = sspace_encode(a->sp, v);
    return sspace_valid(a->sp, snapped) ? snapped : key;
}

bool auto_spread_pick(auto_state *a, strat_ctx *c, uint64_t *key)
{
    uint64_t *vx = a->vec + a->np, *vy = a->vec + 2 * a->np;
    bool have = false;
    double best = -1;
    for (int t = 0; t < AUTO_DESIGN_DRAWS; t++) {
        uint64_t k;
        if (!strat_random_unseen(c, &k))
            break;
        if (t % 2) /* every other draw: the prior's */
            k = snap_to_powers_of_two(a, k);
        if (auto_is_taken(a, c, k))
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

/* The next point of the initial design into *key: the prior's next best unseen valid
 * configuration while its share lasts, else a spread pick. false when none is left. */
static bool design_pick(auto_state *a, strat_ctx *c, uint64_t *key)
{
    bool have = false;
    while (a->prior_picks > 0 && a->prior_at < a->nprior && !have) {
        uint64_t k = a->prior_best[a->prior_at++].key;
        if (sspace_valid(a->sp, k) && !auto_is_taken(a, c, k)) {
            have = true;
            *key = k;
            a->prior_picks--;
        }
    }
    if (!have)
        have = auto_spread_pick(a, c, key);
    if (have)
        a->chosen[a->designed++] = *key;
    return have;
}

/* Fills a->p2at, p2idx and p2val from the model's domains (auto.h). 0, or -1 out of
 * memory. */
static int plan_powers_of_two(auto_state *a)
{
    size_t total = 0;
    for (int i = 0; i < a->np; i++)
        total += sspace_size(a->sp, i);
    if (!(a->p2at = calloc((size_t)a->np + 1, sizeof(int))) || !(a->p2idx = malloc(sizeof(uint64_t) * (total + 1))) ||
        !(a->p2val = malloc(sizeof(int64_t) * (total + 1))))
        return -1;
    int n = 0;
    for (int i = 0; i < a->np; i++) {
        a->p2at[i] = n;
        uint64_t size = sspace_size(a->sp, i);
        for (uint64_t j = 0; j < size; j++) {
            value x = model_domain_at(&a->m->params[i].dom, j);
            if (x.type == VT_INT && power_of_two(x.u.i)) {
                a->p2idx[n] = j;
                a->p2val[n++] = x.u.i;
            }
        }
    }
    a->p2at[a->np] = n;
    return 0;
}

/* ---- the strategy ---------------------------------------------------------------- */

/* strat_ops.destroy: frees the state (NULL: a no-op). */
static void auto_destroy(void *vst)
{
    auto_state *a = vst;
    if (!a)
        return;
    forest_free(a->model);
    forest_free(a->fails);
    free(a->src);
    free(a->vals);
    free(a->vec);
    free(a->nb);
    free(a->keys);
    free(a->fx);
    free(a->taken);
    free(a->mu);
    free(a->sd);
    free(a->pok);
    free(a->okeys);
    free(a->ocost);
    free(a->ox);
    free(a->y);
    free(a->chosen);
    free(a->prior_best);
    free(a->cx);
    free(a->p2at);
    free(a->p2idx);
    free(a->p2val);
    free(a);
}

/* qsort: prior entries best (lowest score) first, ties by key. */
static int by_score(const void *pa, const void *pb)
{
    const search_prior *a = pa, *b = pb;
    if (a->score != b->score)
        return a->score < b->score ? -1 : 1;
    return (a->key > b->key) - (a->key < b->key);
}

/* strat_ops.create: the state for c's space and settings, every configuration's features
 * computed in a whole space; NULL out of memory. */
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
    a->whole = sspace_listed(c->sp) && a->count <= AUTO_WHOLE_LIMIT;
    uint64_t design = set->budget ? set->budget * 2 / 5 : AUTO_DESIGN_MAX;
    design = design < AUTO_DESIGN_MIN ? AUTO_DESIGN_MIN : design > AUTO_DESIGN_MAX ? AUTO_DESIGN_MAX : design;
    a->design = (int)(design < a->count ? design : a->count);
    bool prior = set->prior && set->nprior > 0;
    if (auto_plan_features(a, prior) < 0 || !(a->vals = calloc((size_t)a->np + 1, sizeof(value))) ||
        !(a->vec = calloc(3 * (size_t)a->np + 1, sizeof(uint64_t))) ||
        !(a->nb = calloc(2 * (size_t)a->np + 1, sizeof(uint64_t))) ||
        !(a->chosen = calloc((size_t)a->design + 1, sizeof(uint64_t))) ||
        !(a->cx = calloc((size_t)a->nf, sizeof(double))) || plan_powers_of_two(a) < 0)
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
            !(a->sd = calloc((size_t)a->count, sizeof(double))) || !(a->pok = calloc((size_t)a->count, sizeof(double))))
            goto fail;
        for (uint64_t o = 0; o < a->count; o++)
            auto_features(a, set, a->keys[o], a->fx + o * (size_t)a->nf);
    }
    return a;
fail:
    auto_destroy(a);
    return NULL;
}

/* strat_ops.propose: design points, then model picks (spread picks until an outcome is
 * known), while fewer than strat_in_flight proposals are in flight. */
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
        else if (a->nobs == 0) /* no model yet: spread picks keep the compile threads busy */
            have = auto_spread_pick(a, c, &key);
        else
            have = auto_model_pick(a, c, &key);
        if (!have)
            break;
        take(a, key);
        keys[n++] = key;
    }
    a->batch = NULL;
    a->nbatch = 0;
    return n;
}

/* ---- switch picks ----------------------------------------------------------------- */

/* When `key` (cost `cost`, +inf: failed) is a new incumbent, queues it with each of its
 * switches flipped (those flips that are valid), in param order, in place of the last
 * incumbent's. */
static void queue_switches(auto_state *a, uint64_t key, double cost)
{
    if (!isfinite(cost) || (a->have_inc && !(cost < a->inc_cost)))
        return;
    a->have_inc = true;
    a->inc_cost = cost;
    a->nflips = 0;
    uint64_t *v = a->vec;
    for (int i = 0; i < a->np; i++) {
        if (sspace_size(a->sp, i) != 2)
            continue;
        sspace_decode(a->sp, key, v);
        v[i] = 1 - v[i];
        uint64_t flip = sspace_encode(a->sp, v);
        if (sspace_valid(a->sp, flip))
            a->flips[a->nflips++] = flip;
    }
}

bool auto_switch_pick(auto_state *a, strat_ctx *c, uint64_t *key)
{
    while (a->nflips > 0) {
        uint64_t flip = a->flips[0];
        a->nflips--;
        memmove(a->flips, a->flips + 1, sizeof(uint64_t) * (size_t)a->nflips);
        if (!auto_is_taken(a, c, flip)) {
            *key = flip;
            return true;
        }
    }
    return false;
}

/* strat_ops.observe and .prior: an outcome learnt. */
static void auto_observe(void *vst, strat_ctx *c, uint64_t key, double cost)
{
    /* Each key arrives once: auto never proposes what is known or in flight. Out of
     * memory: the models learn without it (and the switch picks still follow it). */
    (void)add_obs(vst, c, key, cost);
    queue_switches(vst, key, cost);
}

const strat_ops strat_auto = {"auto", auto_create, auto_propose, auto_observe, auto_destroy, auto_observe};
