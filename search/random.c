/* random.c - uniform random sampling without replacement: every valid configuration is
 * equally likely to come next among those not yet evaluated. Batches as large as asked
 * (the tuner compiles them in parallel). */
#include <stdlib.h>

#include "strategy.h"

static void *rnd_create(strat_ctx *c)
{
    (void)c;
    return calloc(1, 1);
}

static int rnd_propose(void *st, strat_ctx *c, uint64_t *keys, int max)
{
    (void)st;
    int n = 0;
    while (n < max) {
        uint64_t k;
        if (!strat_random_unseen(c, &k))
            break;
        bool dup = false;
        for (int i = 0; i < n && !dup; i++)
            dup = keys[i] == k;
        if (dup) {
            if ((uint64_t)n >= strat_unseen(c))
                break;
            continue;
        }
        keys[n++] = k;
    }
    return n;
}

static void rnd_observe(void *st, strat_ctx *c, uint64_t key, double cost)
{
    (void)st, (void)c, (void)key, (void)cost;
}

const strat_ops strat_random = {"random", rnd_create, rnd_propose, rnd_observe, free, NULL};
