/* genetic.c - a steady-state genetic algorithm. A population of `population`
 * configurations: the first `population` proposals are random; after that each proposal
 * is a child of two parents, each chosen by a tournament of two, by uniform crossover
 * (each param from either parent), then each param mutated with probability `mutation`
 * (one step in its domain, or anywhere in it half the time). Children that are invalid,
 * known or in flight are bred again (up to a limit, then a random unseen configuration
 * takes the place). Each outcome joins the population as soon as it is told, replacing
 * the worst member when it is better (elitist), so every child is bred from every
 * outcome known when it is proposed. At most `population` proposals are in flight at
 * once, or strat_in_flight when that is more (the pipeline's depth: with 64 compile
 * threads and SGEMM's 0.4 s compiles against 10 ms on the GPU, about 57): the compile
 * pool keeps that many busy and the search waits for no generation; a child is bred
 * from a population that knows less of what was asked only where fewer in flight
 * would leave the GPU waiting. Configurations known beforehand (search_know) that did not
 * fail form the first population (the best `size` of them). */
#include <stdlib.h>
#include <string.h>

#include "strategy.h"

enum { BREED_TRIES = 64 };

typedef struct member {
    uint64_t key;
    double cost;
} member;

typedef struct ga_state {
    int size; /* population size */
    double mutation;
    member *pop; /* the population (npop members, at most size) */
    int npop;
    uint64_t proposed; /* proposals so far (the first `size` are random) */
    uint64_t *a, *b, *child;
} ga_state;

static void ga_destroy(void *vst)
{
    ga_state *st = vst;
    if (st) {
        free(st->pop);
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
    st->size =
        (int)(c->set->population > 0 ? c->set->population : search_default_population(c->set, sspace_count(c->sp)));
    st->mutation = c->set->mutation > 0 ? c->set->mutation : search_default_mutation(n);
    st->pop = calloc((size_t)st->size + 1, sizeof(member));
    st->a = calloc((size_t)n + 1, sizeof(uint64_t));
    st->b = calloc((size_t)n + 1, sizeof(uint64_t));
    st->child = calloc((size_t)n + 1, sizeof(uint64_t));
    if (!st->pop || !st->a || !st->b || !st->child) {
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

/* `m` joins the population: added while it is not full, else in place of the worst
 * member when it is better; a failure or a member already in it changes nothing. */
static void join(ga_state *st, member m)
{
    if (!(m.cost < INFINITY))
        return;
    int worst = 0;
    for (int i = 0; i < st->npop; i++) {
        if (st->pop[i].key == m.key)
            return;
        if (st->pop[i].cost > st->pop[worst].cost)
            worst = i;
    }
    if (st->npop < st->size)
        st->pop[st->npop++] = m;
    else if (m.cost < st->pop[worst].cost)
        st->pop[worst] = m;
}

static int ga_propose(void *vst, strat_ctx *c, uint64_t *keys, int max)
{
    ga_state *st = vst;
    uint64_t pending = strat_pending_count(c);
    int window = strat_in_flight(c) > st->size ? strat_in_flight(c) : st->size;
    int room = pending < (uint64_t)window ? window - (int)pending : 0;
    int want = room < max ? room : max, n = 0;
    while (n < want) {
        uint64_t k;
        bool random_start = st->proposed < (uint64_t)st->size || st->npop == 0;
        bool got = random_start ? strat_random_unseen(c, &k) && !in_batch(keys, n, k) : breed(st, c, keys, n, &k);
        if (!got) {
            if (random_start && strat_unseen(c) > (uint64_t)n)
                continue;
            break;
        }
        keys[n++] = k;
        st->proposed++;
    }
    return n;
}

static void ga_observe(void *vst, strat_ctx *c, uint64_t key, double cost)
{
    (void)c;
    join(vst, (member){key, cost});
}

/* A configuration known beforehand (not a failure) joins the first population (the
 * best `size` of them stay), and children are bred from them from the first proposal. */
static void ga_prior(void *vst, strat_ctx *c, uint64_t key, double cost)
{
    (void)c;
    ga_state *st = vst;
    join(st, (member){key, cost});
    if (st->npop > 0)
        st->proposed = (uint64_t)st->size; /* no random start: breed from what is known */
}

const strat_ops strat_genetic = {"genetic", ga_create, ga_propose, ga_observe, ga_destroy, ga_prior};
