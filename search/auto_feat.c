/* auto_feat.c - how the auto strategy describes a configuration to its models (auto.h):
 * the way a GPU sees it. Each param's value (numbers as they are, booleans 0/1, strings by
 * their place in the domain), each int param's odd part where it differs over the domain
 * (a tile of 48 is not a power of two), the spec's lets and the launch geometry (block,
 * grid, dynamic shared memory) that depend on params, threads per block, the share of
 * warp lanes used and block_x modulo the warp where the block depends on params, and,
 * given a prior (results/prior.h), the prior's score. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "auto.h"

/* The odd part of v (v divided by 2 while even; 0 for 0). */
static int64_t odd_part(int64_t v)
{
    if (v == 0)
        return 0;
    while (v % 2 == 0)
        v /= 2;
    return v;
}

/* A value as a feature; strings (and anything not numeric) by `index`, their place in
 * the domain. */
static double value_feature(value v, uint64_t index)
{
    switch (v.type) {
    case VT_INT: return (double)v.u.i;
    case VT_FLOAT: return v.u.f;
    case VT_BOOL: return v.u.b ? 1.0 : 0.0;
    default: return (double)index;
    }
}

/* A type whose values are features (strings are not: their place is). */
static bool numeric(vtype t)
{
    return t == VT_INT || t == VT_FLOAT || t == VT_BOOL;
}

/* Appends a feature to a->src. 0, or -1 out of memory (a->src unchanged). */
static int add_src(auto_state *a, auto_feat_kind kind, int param, const texpr *e)
{
    auto_feat *grown = realloc(a->src, sizeof(auto_feat) * (size_t)(a->nf + 1));
    if (!grown)
        return -1;
    a->src = grown;
    a->src[a->nf++] = (auto_feat){kind, param, e};
    return 0;
}

int auto_plan_features(auto_state *a, bool prior)
{
    const model *m = a->m;
    int rc = 0;
    for (int i = 0; i < m->nparams; i++)
        if (m->params[i].dom.size > 1)
            rc |= add_src(a, AUTO_F_PARAM, i, NULL);
    for (int i = 0; i < m->nparams; i++) { /* odd parts, where they differ over the domain */
        const domain *d = &m->params[i].dom;
        if (d->type != VT_INT || d->size < 2)
            continue;
        int64_t first = odd_part(model_domain_at(d, 0).u.i);
        bool differ = false;
        for (uint64_t k = 1; k < d->size && k < 4096 && !differ; k++)
            differ = odd_part(model_domain_at(d, k).u.i) != first;
        if (differ)
            rc |= add_src(a, AUTO_F_ODD, i, NULL);
    }
    for (int i = 0; i < m->nlets; i++)
        if (m->lets[i].expr && m->lets[i].expr->deps && numeric(m->lets[i].type))
            rc |= add_src(a, AUTO_F_EXPR, -1, m->lets[i].expr);
    for (int d = 0; d < m->block_dims; d++)
        if (m->block[d]->deps)
            rc |= add_src(a, AUTO_F_EXPR, -1, m->block[d]);
    for (int d = 0; d < m->grid_dims; d++)
        if (m->grid[d]->deps)
            rc |= add_src(a, AUTO_F_EXPR, -1, m->grid[d]);
    if (m->smem && m->smem->deps)
        rc |= add_src(a, AUTO_F_EXPR, -1, m->smem);
    bool geometry = false;
    for (int d = 0; d < m->block_dims; d++)
        geometry |= m->block[d]->deps != 0;
    if (geometry) {
        rc |= add_src(a, AUTO_F_THREADS, -1, NULL);
        rc |= add_src(a, AUTO_F_LANES, -1, NULL);
        if (m->block[0]->deps)
            rc |= add_src(a, AUTO_F_BX32, -1, NULL);
    }
    if (prior)
        rc |= add_src(a, AUTO_F_PRIOR, -1, NULL);
    if (rc == 0 && a->nf == 0) /* a space of one configuration: one constant feature */
        rc = add_src(a, AUTO_F_THREADS, -1, NULL);
    return rc ? -1 : 0;
}

/* bsearch's order of a configuration's key against a prior's entry. */
static int key_order(const void *key, const void *item)
{
    uint64_t k = *(const uint64_t *)key, o = ((const search_prior *)item)->key;
    return (k > o) - (k < o);
}

/* The prior's score of `key` (set->prior is sorted by key, one entry a key); 0.5, the
 * middle, for a key it does not hold. */
static double prior_score(const search_settings *set, uint64_t key)
{
    if (set->nprior == 0)
        return 0.5;
    const search_prior *p = bsearch(&key, set->prior, (size_t)set->nprior, sizeof *set->prior, key_order);
    return p ? p->score : 0.5;
}

void auto_features(auto_state *a, const search_settings *set, uint64_t key, double *x)
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
        const auto_feat *s = &a->src[i];
        value v;
        eval_error err;
        switch (s->kind) {
        case AUTO_F_PARAM: x[i] = value_feature(a->vals[s->param], a->vec[s->param]); break;
        case AUTO_F_ODD: x[i] = (double)odd_part(a->vals[s->param].u.i); break;
        case AUTO_F_EXPR: x[i] = eval_expr(s->e, &env, &v, &err) < 0 ? NAN : value_feature(v, 0); break;
        case AUTO_F_THREADS: x[i] = (double)threads; break;
        case AUTO_F_LANES: x[i] = threads > 0 ? (double)threads / (double)(((threads + 31) / 32) * 32) : 0; break;
        case AUTO_F_BX32: x[i] = (double)(bx % 32); break;
        case AUTO_F_PRIOR: x[i] = prior_score(set, key); break;
        }
    }
}
