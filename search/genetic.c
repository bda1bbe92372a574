/* genetic.c - a genetic algorithm. A population of `population` configurations; each
 * generation breeds as many children: two parents each chosen by a tournament of two,
 * uniform crossover (each param from either parent), then each param mutated with
 * probability `mutation` (one step in its domain, or anywhere in it half the time).
 * Children that are invalid or already known are bred again (up to a limit, then a
 * random unseen configuration takes the place). The next population is the best of
 * parents and children (elitist). A generation is one batch: the tuner compiles it in
 * parallel. Configurations known beforehand (search_know) that did not fail form the
 * first population (the best `size` of them): the first generation is bred from them. */
#include <stdlib.h>
#include <string.h>

#include "strategy.h"

enum { BREED_TRIES = 64 };

typedef struct member {
    uint64_t key;
    double cost;
} member;

typedef struct ga_state {
    int size;                  /* population size */
    double mutation;
    member *pop;               /* the population (npop members) */
    int npop;
    member *kids;              /* the generation under evaluation */
    int nkids;
    uint64_t *a, *b, *child;
} ga_state;

static void ga_destroy(void *vst)
{
    ga_state *st = vst;
    if (st) {
        free(st->pop);
        free(st->kids);
        free(st->a);
        free(st->b);
        free(st->child);
    }
    free(st);
}

static void *ga_create(strat_ctx *c)
{
    ga_state *st = calloc(1, sizeof *st);
    int n = sspace_nparams(c->sp);
    if (!st)
        return NULL;
    st->size = (int)(c->set->population > 0 ? c->set->population
                                            : search_default_population(c->set, sspace_count(c->sp)));
    st->mutation = c->set->mutation > 0 ? c->set->mutation : search_default_mutation(n);
    st->pop = calloc((size_t)st->size * 2 + 1, sizeof(member));
    st->kids = calloc((size_t)st->size + 1, sizeof(member));
    st->a = calloc((size_t)n + 1, sizeof(uint64_t));
    st->b = calloc((size_t)n + 1, sizeof(uint64_t));
    st->child = calloc((size_t)n + 1, sizeof(uint64_t));
    if (!st->pop || !st->kids || !st->a || !st->b || !st->child) {
        ga_destroy(st);
        return NULL;
    }
    return st;
}

static const member *tournament(ga_state *st, strat_ctx *c)
{
    const member *x = &st->pop[rng_below(&c->r, (uint64_t)st->npop)];
    const member *y = &st->pop[rng_below(&c->r, (uint64_t)st->npop)];
    return y->cost < x->cost ? y : x;
}

static bool in_batch(const uint64_t *keys, int n, uint64_t k)
{
    for (int i = 0; i < n; i++)
        if (keys[i] == k)
            return true;
    return false;
}

/* One child: valid, not known, not pending, not already in this batch. */
static bool breed(ga_state *st, strat_ctx *c, const uint64_t *keys, int n, uint64_t *out)
{
    const sspace *sp = c->sp;
    int np = sspace_nparams(sp);
    for (int t = 0; t < BREED_TRIES && st->npop > 0; t++) {
        sspace_decode(sp, tournament(st, c)->key, st->a);
        sspace_decode(sp, tournament(st, c)->key, st->b);
        for (int p = 0; p < np; p++) {
            st->child[p] = rng_below(&c->r, 2) ? st->a[p] : st->b[p];
            uint64_t size = sspace_size(sp, p);
            if (size > 1 && rng_unit(&c->r) < st->mutation) {
                if (rng_below(&c->r, 2)) {
                    uint64_t v = rng_below(&c->r, size - 1);
                    st->child[p] = v >= st->child[p] ? v + 1 : v;
                } else if (st->child[p] == 0 || (st->child[p] + 1 < size && rng_below(&c->r, 2))) {
                    st->child[p]++;
                } else {
                    st->child[p]--;
                }
            }
        }
        uint64_t k = sspace_encode(sp, st->child);
        if (sspace_valid(sp, k) && !strat_known(c, k, NULL) && !strat_pending(c, k) && !in_batch(keys, n, k)) {
            *out = k;
            return true;
        }
    }
    for (int t = 0; t < BREED_TRIES; t++) { /* no new child: a newcomer instead */
        uint64_t k;
        if (!strat_random_unseen(c, &k))
            return false;
        if (!in_batch(keys, n, k)) {
            *out = k;
            return true;
        }
    }
    return false;
}

static int by_cost(const void *pa, const void *pb)
{
    const member *a = pa, *b = pb;
    return (a->cost > b->cost) - (a->cost < b->cost);
}

/* The generation just evaluated joins the population; the best `size` stay. */
static void select_next(ga_state *st)
{
    for (int i = 0; i < st->nkids; i++) {
        bool dup = false;
        for (int j = 0; j < st->npop && !dup; j++)
            dup = st->pop[j].key == st->kids[i].key;
        if (!dup)
            st->pop[st->npop++] = st->kids[i];
    }
    st->nkids = 0;
    qsort(st->pop, (size_t)st->npop, sizeof(member), by_cost);
    if (st->npop > st->size)
        st->npop = st->size;
}

static int ga_propose(void *vst, strat_ctx *c, uint64_t *keys, int max)
{
    ga_state *st = vst;
    select_next(st);
    int want = st->size < max ? st->size : max, n = 0;
    bool first = st->npop == 0;
    while (n < want) {
        uint64_t k;
        bool got = first ? strat_random_unseen(c, &k) && !in_batch(keys, n, k) : breed(st, c, keys, n, &k);
        if (!got) {
            if (first && strat_unseen(c) > (uint64_t)n)
                continue;
            break;
        }
        keys[n++] = k;
    }
    return n;
}

static void ga_observe(void *vst, strat_ctx *c, uint64_t key, double cost)
{
    (void)c;
    ga_state *st = vst;
    if (st->nkids < st->size)
        st->kids[st->nkids++] = (member){key, cost};
}

/* A configuration known beforehand (not a failure) joins the first population; the
 * best `size` of them are kept, and the first generation is bred from them. */
static void ga_prior(void *vst, strat_ctx *c, uint64_t key, double cost)
{
    (void)c;
    ga_state *st = vst;
    if (!(cost < INFINITY))
        return;
    if (st->npop < st->size) {
        st->pop[st->npop++] = (member){key, cost};
        return;
    }
    int worst = 0;
    for (int i = 1; i < st->npop; i++)
        if (st->pop[i].cost > st->pop[worst].cost)
            worst = i;
    if (cost < st->pop[worst].cost)
        st->pop[worst] = (member){key, cost};
}

const strat_ops strat_genetic = {"genetic", ga_create, ga_propose, ga_observe, ga_destroy, ga_prior};
