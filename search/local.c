/* local.c - iterated local search (the `local` strategy) and the engine `guided` uses
 * too (local.h). */
#include <stdlib.h>
#include <string.h>

#include "local.h"

enum { KICK_TRIES = 64 };

typedef enum local_phase { PH_START, PH_DESCEND } local_phase;

typedef struct local_state {
    local_hooks hooks;
    local_phase phase;
    int restarts;
    int failed_kicks;
    bool have_cur, have_opt;
    uint64_t cur, opt; /* where descent stands; the best local optimum of this run */
    double cur_cost, opt_cost;
    int outstanding; /* asked in the batch in hand, not yet observed */
    uint64_t *nb, *vec;
} local_state;

void local_destroy(void *vst)
{
    local_state *st = vst;
    if (st) {
        free(st->nb);
        free(st->vec);
    }
    free(st);
}

void *local_create(strat_ctx *c, const local_hooks *hooks)
{
    local_state *st = calloc(1, sizeof *st);
    int n = sspace_nparams(c->sp);
    if (!st || !(st->nb = calloc((size_t)n * 2 + 1, sizeof(uint64_t))) ||
        !(st->vec = calloc((size_t)n + 1, sizeof(uint64_t)))) {
        local_destroy(st);
        return NULL;
    }
    if (hooks)
        st->hooks = *hooks;
    st->restarts = (int)(c->set->restarts > 0 ? c->set->restarts : search_default_restarts());
    return st;
}

/* A kick from the best optimum: 2 or 3 params jump anywhere in their domains. */
static bool kick(local_state *st, strat_ctx *c, uint64_t *out)
{
    const sspace *sp = c->sp;
    int n = sspace_nparams(sp);
    for (int t = 0; t < KICK_TRIES; t++) {
        sspace_decode(sp, st->opt, st->vec);
        int moves = 2 + (int)rng_below(&c->r, 2);
        for (int m = 0; m < moves; m++) {
            int p = (int)rng_below(&c->r, (uint64_t)n);
            st->vec[p] = rng_below(&c->r, sspace_size(sp, p));
        }
        uint64_t k = sspace_encode(sp, st->vec);
        if (k != st->opt && sspace_valid(sp, k) && !strat_known(c, k, NULL)) {
            *out = k;
            return true;
        }
    }
    return false;
}

static bool new_start(local_state *st, strat_ctx *c, uint64_t *key)
{
    if (st->hooks.start)
        return st->hooks.start(st->hooks.start_state, c, key);
    return strat_random_unseen(c, key);
}

/* Moves to the best known neighbour when it improves; false at a local optimum. */
static bool step(local_state *st, strat_ctx *c)
{
    int k = sspace_neighbours(c->sp, st->cur, st->nb);
    bool moved = false;
    for (int i = 0; i < k; i++) {
        double cost;
        if (strat_known(c, st->nb[i], &cost) && cost < st->cur_cost) {
            st->cur = st->nb[i];
            st->cur_cost = cost;
            moved = true;
        }
    }
    return moved;
}

int local_propose(void *vst, strat_ctx *c, uint64_t *keys, int max)
{
    local_state *st = vst;
    if (max < 1)
        return 0;
    for (int guard = 0; guard < 1000000; guard++) {
        if (st->phase == PH_START || !st->have_cur) {
            uint64_t k;
            bool got = false;
            if (st->have_opt && st->failed_kicks < st->restarts)
                got = kick(st, c, &k);
            if (!got) {
                st->failed_kicks = 0;
                st->have_opt = false;
                if (!new_start(st, c, &k))
                    return 0;
            }
            int one = 1;
            if (st->hooks.screen && st->hooks.screen(c, &k, &one) < 0)
                return -1;
            if (one == 0) {
                st->failed_kicks++;
                continue;
            }
            st->have_cur = false;
            st->phase = PH_DESCEND;
            st->outstanding = 1;
            keys[0] = k;
            return 1;
        }
        /* Descent from cur: ask the unseen neighbours; when none is left, move or stop. */
        int k = sspace_neighbours(c->sp, st->cur, st->nb), n = 0;
        for (int i = 0; i < k && n < max; i++)
            if (!strat_known(c, st->nb[i], NULL))
                keys[n++] = st->nb[i];
        if (n > 0 && st->hooks.screen && st->hooks.screen(c, keys, &n) < 0)
            return -1;
        if (n > 0) {
            st->outstanding = n;
            return n;
        }
        if (step(st, c))
            continue;
        /* A local optimum. */
        if (!st->have_opt || st->cur_cost < st->opt_cost) {
            if (st->have_opt)
                st->failed_kicks = 0;
            st->have_opt = true;
            st->opt = st->cur;
            st->opt_cost = st->cur_cost;
        } else {
            st->failed_kicks++;
        }
        st->phase = PH_START;
    }
    return 0;
}

void local_observe(void *vst, strat_ctx *c, uint64_t key, double cost)
{
    (void)c;
    local_state *st = vst;
    if (!st->have_cur) { /* the start (or kick) configuration */
        if (cost < INFINITY) {
            st->have_cur = true;
            st->cur = key;
            st->cur_cost = cost;
        } else {
            st->phase = PH_START;
            if (st->have_opt)
                st->failed_kicks++;
        }
    }
    if (st->outstanding > 0)
        st->outstanding--;
}

void local_prior(void *vst, strat_ctx *c, uint64_t key, double cost)
{
    (void)c;
    local_state *st = vst;
    if (cost < INFINITY && (!st->have_cur || cost < st->cur_cost)) { /* descend from the best known */
        st->have_cur = true;
        st->cur = key;
        st->cur_cost = cost;
        st->phase = PH_DESCEND;
    }
}

static void *plain_create(strat_ctx *c)
{
    return local_create(c, NULL);
}

const strat_ops strat_local = {"local", plain_create, local_propose, local_observe, local_destroy, local_prior};
