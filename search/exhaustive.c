/* exhaustive.c - every valid configuration, in listing order: for the tuner's one loop
 * (it proposes without waiting for outcomes, so the compile pool streams), the simulator
 * and the tests. */
#include <stdlib.h>

#include "strategy.h"

typedef struct ex_state {
    uint64_t next; /* ordinal (listed) or raw key (unlisted) */
    uint64_t raw;
} ex_state;

static void *ex_create(strat_ctx *c)
{
    ex_state *st = calloc(1, sizeof *st);
    if (st) {
        st->raw = 1;
        for (int i = 0; i < sspace_nparams(c->sp); i++)
            st->raw *= sspace_size(c->sp, i);
    }
    return st;
}

static int ex_propose(void *vst, strat_ctx *c, uint64_t *keys, int max)
{
    ex_state *st = vst;
    int n = 0;
    if (sspace_listed(c->sp)) {
        while (n < max && st->next < sspace_count(c->sp))
            keys[n++] = sspace_at(c->sp, st->next++);
    } else {
        while (n < max && st->next < st->raw) {
            uint64_t k = st->next++;
            if (sspace_valid(c->sp, k))
                keys[n++] = k;
        }
    }
    return n;
}

static void ex_observe(void *st, strat_ctx *c, uint64_t key, double cost)
{
    (void)st, (void)c, (void)key, (void)cost;
}

const strat_ops strat_exhaustive = {"exhaustive", ex_create, ex_propose, ex_observe, free, NULL};
