/* guided.c - iterated local search steered by what is known without running anything.
 *
 * cutune knows, for free or for a compile (no GPU time, no evaluation), whether a
 * configuration compiles, whether it can launch at all (threads, registers, shared
 * memory per block), its registers, its spills and its theoretical occupancy. guided
 * uses that three ways:
 *   1. Never spends an evaluation on a configuration that does not compile or cannot
 *      launch: such candidates are screened out before they are asked (counted as
 *      screened, not as evaluations).
 *   2. Starts are drawn from a handful of random candidates, preferring those that do
 *      not spill (spills to local memory almost always cost time), and among those the
 *      one whose occupancy level has had the fewest starts so far: restarts spread over
 *      the register/tile trade-offs instead of ranking by occupancy, which does not
 *      predict the fastest configuration (the seeds' own conclusion).
 *   3. Descent and kicks are the local strategy's (local.h).
 * Without static information (no hook) it is the local strategy. */
#include <stdlib.h>
#include <string.h>

#include "local.h"

enum { START_CANDIDATES = 8, OCC_LEVELS = 8 };

typedef struct guided_state {
    void *local;
    int starts_at[OCC_LEVELS + 1];
} guided_state;

static int screen(strat_ctx *c, uint64_t *keys, int *n)
{
    search_static *st = malloc(sizeof(search_static) * (size_t)(*n ? *n : 1));
    bool have;
    if (!st || strat_static(c, keys, *n, st, &have) < 0) {
        free(st);
        return -1;
    }
    int m = 0;
    for (int i = 0; i < *n; i++) {
        if (have && (!st[i].compiled || !st[i].launchable)) {
            strat_screened(c, keys[i]);
            continue;
        }
        keys[m++] = keys[i];
    }
    *n = m;
    free(st);
    return 0;
}

static int level_of(double occupancy)
{
    int l = (int)(occupancy * OCC_LEVELS);
    return l < 0 ? 0 : l > OCC_LEVELS ? OCC_LEVELS : l;
}

static bool start(void *vst, strat_ctx *c, uint64_t *key)
{
    guided_state *g = vst;
    uint64_t cand[START_CANDIDATES];
    int n = 0;
    for (int t = 0; t < START_CANDIDATES * 4 && n < START_CANDIDATES; t++) {
        uint64_t k;
        if (!strat_random_unseen(c, &k))
            break;
        bool dup = false;
        for (int i = 0; i < n && !dup; i++)
            dup = cand[i] == k;
        if (!dup)
            cand[n++] = k;
    }
    if (n == 0)
        return false;
    search_static st[START_CANDIDATES];
    bool have;
    if (strat_static(c, cand, n, st, &have) < 0)
        return false;
    if (!have) {
        *key = cand[0];
        return true;
    }
    int best = -1;
    for (int i = 0; i < n; i++) {
        if (!st[i].compiled || !st[i].launchable)
            continue;
        if (best < 0)
            best = i;
        else {
            bool spill_i = st[i].spill_bytes > 0, spill_b = st[best].spill_bytes > 0;
            int li = g->starts_at[level_of(st[i].occupancy)], lb = g->starts_at[level_of(st[best].occupancy)];
            if (spill_i < spill_b || (spill_i == spill_b && li < lb))
                best = i;
        }
    }
    if (best < 0) { /* every candidate screened out: the ILS screens it and asks again */
        *key = cand[0];
        return true;
    }
    g->starts_at[level_of(st[best].occupancy)]++;
    *key = cand[best];
    return true;
}

static void guided_destroy(void *vst)
{
    guided_state *g = vst;
    if (g)
        local_destroy(g->local);
    free(g);
}

static void *guided_create(strat_ctx *c)
{
    guided_state *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    local_hooks h = {screen, start, g};
    if (!(g->local = local_create(c, &h))) {
        free(g);
        return NULL;
    }
    return g;
}

static int guided_propose(void *vst, strat_ctx *c, uint64_t *keys, int max)
{
    return local_propose(((guided_state *)vst)->local, c, keys, max);
}

static void guided_observe(void *vst, strat_ctx *c, uint64_t key, double cost)
{
    local_observe(((guided_state *)vst)->local, c, key, cost);
}

static void guided_prior(void *vst, strat_ctx *c, uint64_t key, double cost)
{
    local_prior(((guided_state *)vst)->local, c, key, cost);
}

const strat_ops strat_guided = {"guided", guided_create, guided_propose, guided_observe, guided_destroy, guided_prior};
