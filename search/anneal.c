/* anneal.c - simulated annealing. One configuration at a time: a random move from the
 * current one (one param, usually one step in its domain, sometimes anywhere in it),
 * accepted when better, or when worse with probability exp(-relative loss / T). T
 * starts at `temperature` and is multiplied by `cooling` after each evaluation; when it
 * has fallen a thousandfold the search reheats from the best configuration found. A
 * failed configuration is never accepted. With configurations known beforehand
 * (search_know), the walk starts from the best of them. */
#include <stdlib.h>
#include <string.h>

#include "strategy.h"

enum { MOVE_TRIES = 32, FREE_STREAK_JUMP = 64 };
#define FAR_MOVE 0.2 /* the chance a move jumps anywhere in the param's domain */

typedef struct sa_state {
    bool have_cur;
    uint64_t cur;
    double cur_cost;
    double t, t0, cooling;
    int free_streak;
    uint64_t *vec;
    uint64_t *nb;
} sa_state;

static void sa_destroy(void *vst)
{
    sa_state *st = vst;
    if (st) {
        free(st->vec);
        free(st->nb);
    }
    free(st);
}

static void *sa_create(strat_ctx *c)
{
    sa_state *st = calloc(1, sizeof *st);
    int n = sspace_nparams(c->sp);
    if (!st || !(st->vec = calloc((size_t)n + 1, sizeof(uint64_t))) ||
        !(st->nb = calloc((size_t)n * 2 + 1, sizeof(uint64_t)))) {
        sa_destroy(st);
        return NULL;
    }
    st->t0 = c->set->temperature > 0 ? c->set->temperature : search_default_temperature();
    st->cooling = c->set->cooling > 0 ? c->set->cooling : search_default_cooling(c->set->budget, sspace_count(c->sp));
    st->t = st->t0;
    return st;
}

/* A random valid move from `from`; false when it has none. */
static bool sa_move(sa_state *st, strat_ctx *c, uint64_t from, uint64_t *to)
{
    const sspace *sp = c->sp;
    int n = sspace_nparams(sp);
    for (int t = 0; t < MOVE_TRIES; t++) {
        sspace_decode(sp, from, st->vec);
        int p = (int)rng_below(&c->r, (uint64_t)n);
        uint64_t size = sspace_size(sp, p);
        if (size < 2)
            continue;
        if (rng_unit(&c->r) < FAR_MOVE) {
            uint64_t v = rng_below(&c->r, size - 1);
            st->vec[p] = v >= st->vec[p] ? v + 1 : v;
        } else if (st->vec[p] == 0 || (st->vec[p] + 1 < size && rng_below(&c->r, 2))) {
            st->vec[p]++;
        } else {
            st->vec[p]--;
        }
        uint64_t k = sspace_encode(sp, st->vec);
        if (sspace_valid(sp, k)) {
            *to = k;
            return true;
        }
    }
    int k = sspace_neighbours(sp, from, st->nb);
    if (k == 0)
        return false;
    *to = st->nb[rng_below(&c->r, (uint64_t)k)];
    return true;
}

static int sa_propose(void *vst, strat_ctx *c, uint64_t *keys, int max)
{
    sa_state *st = vst;
    if (max < 1)
        return 0;
    uint64_t k;
    if (!st->have_cur || st->free_streak > FREE_STREAK_JUMP || !sa_move(st, c, st->cur, &k)) {
        st->free_streak = 0;
        if (!strat_random_unseen(c, &k))
            return 0;
        st->have_cur = false; /* a fresh start (or one away from where all is known) */
    }
    keys[0] = k;
    return 1;
}

static void sa_observe(void *vst, strat_ctx *c, uint64_t key, double cost)
{
    sa_state *st = vst;
    st->free_streak = c->free_hit ? st->free_streak + 1 : 0;
    if (!st->have_cur) {
        if (cost < INFINITY) {
            st->cur = key;
            st->cur_cost = cost;
            st->have_cur = true;
        }
        return;
    }
    bool accept = cost < st->cur_cost;
    if (!accept && cost < INFINITY) {
        double scale = st->cur_cost != 0 ? fabs(st->cur_cost) : 1.0;
        accept = rng_unit(&c->r) < exp(-(cost - st->cur_cost) / scale / st->t);
    }
    if (accept) {
        st->cur = key;
        st->cur_cost = cost;
    }
    if (c->free_hit)
        return;
    st->t *= st->cooling;
    if (st->t < st->t0 * 1e-3) { /* frozen: reheat from the best so far */
        uint64_t best;
        double obj;
        st->t = st->t0;
        if (search_best(c->s, &best, &obj) && strat_known(c, best, &st->cur_cost))
            st->cur = best;
    }
}

/* A configuration known beforehand: the walk starts from the best of them. */
static void sa_prior(void *vst, strat_ctx *c, uint64_t key, double cost)
{
    (void)c;
    sa_state *st = vst;
    if (cost < INFINITY && (!st->have_cur || cost < st->cur_cost)) {
        st->cur = key;
        st->cur_cost = cost;
        st->have_cur = true;
    }
}

const strat_ops strat_anneal = {"anneal", sa_create, sa_propose, sa_observe, sa_destroy, sa_prior};
