/* strategy.c - the driver's services to the strategies (strategy.h): what is known and
 * pending, the budget left, how many to keep in flight, static facts, an unseen
 * configuration. They read the driver's record of what is known (search_internal.h);
 * the driver calls none of them. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search_internal.h"
#include "strategy.h"

bool strat_known(const strat_ctx *c, uint64_t key, double *cost)
{
    slot *sl = search_slot(c->s, key, false);
    if (!sl || sl->state != 1)
        return false;
    if (cost)
        *cost = sl->cost;
    return true;
}

uint64_t strat_pending_count(const strat_ctx *c)
{
    return c->s->pending;
}

bool strat_pending(const strat_ctx *c, uint64_t key)
{
    slot *sl = search_slot(c->s, key, false);
    return sl && sl->state == 2;
}

uint64_t strat_remaining(const strat_ctx *c)
{
    return search_remaining(c->s);
}

int strat_in_flight(const strat_ctx *c)
{
    const search *s = c->s;
    int parallel = s->set.parallel > 0 ? s->set.parallel : 1;
    int most = parallel * 4 > 16 ? parallel * 4 : 16; /* the tuner's window */
    if (s->timed == 0 || !(s->compile_s + s->gpu_s > 0))
        return parallel;
    /* Each stage's seconds per variant: the compile threads deliver one every `comp`, the
     * GPU takes one every `gpu`; the slower sets the pace (`period`). By Little's law,
     * keeping both busy at that pace takes latency / period in flight. With that many
     * alone, a compile that runs long leaves the GPU idle and a long GPU run the threads,
     * as often as the lighter stage is nearly as loaded as the heavier: a queue of half
     * the lighter stage's share of the pace (0 when one stage dominates, 1 when balanced)
     * absorbs most of it. More in flight idles less and learns less: a queue of the whole
     * share, or one more variant, cost 0.01 of the optimum at 50 and 100 evaluations on
     * the development landscapes, by evaluations and by time (2026-11-27b sweep). */
    double compile = s->compile_s / (double)s->timed, gpu = s->gpu_s / (double)s->timed;
    double comp = compile / parallel, period = comp > gpu ? comp : gpu, lighter = comp > gpu ? gpu : comp;
    double k = ceil((compile + gpu) / period * (1 + 0.5 * lighter / period) - 1e-9);
    return k < 2 ? 2 : k > most ? most : (int)k;
}

uint64_t strat_unseen(const strat_ctx *c)
{
    uint64_t seen = c->s->known + c->s->pending, all = sspace_count(c->sp);
    return seen >= all ? 0 : all - seen;
}

void strat_screened(strat_ctx *c, uint64_t key)
{
    slot *sl = search_slot(c->s, key, true);
    if (!sl || sl->state != 0)
        return;
    sl->state = 1;
    sl->cost = INFINITY;
    c->s->known++;
    c->s->screened++;
}

int strat_static(strat_ctx *c, const uint64_t *keys, int n, search_static *out, bool *have)
{
    search *s = c->s;
    *have = s->hooks.static_info != NULL;
    if (!*have)
        return 0;
    uint64_t *ask = malloc(sizeof(uint64_t) * (size_t)(n ? n : 1));
    search_static *got = calloc((size_t)(n ? n : 1), sizeof(search_static)); /* a hook may leave fields */
    int m = 0, rc = 0;
    if (!ask || !got) {
        rc = -1;
        goto done;
    }
    for (int i = 0; i < n; i++) {
        slot *sl = search_slot(s, keys[i], true);
        if (!sl) {
            rc = -1;
            goto done;
        }
        if (!sl->has_static) {
            bool dup = false;
            for (int j = 0; j < m && !dup; j++)
                dup = ask[j] == keys[i];
            if (!dup)
                ask[m++] = keys[i];
        }
    }
    if (m && s->hooks.static_info(s->hooks.user, ask, m, got) < 0) {
        snprintf(s->error, sizeof s->error, "static analysis failed");
        rc = -1;
        goto done;
    }
    for (int j = 0; j < m; j++) {
        slot *sl = search_slot(s, ask[j], false);
        if (!sl->has_static)
            s->statics++;
        sl->has_static = 1;
        sl->st = got[j];
    }
    for (int i = 0; i < n; i++)
        out[i] = search_slot(s, keys[i], false)->st;
done:
    free(ask);
    free(got);
    return rc;
}

bool strat_static_known(const strat_ctx *c, uint64_t key, search_static *out)
{
    slot *sl = search_slot(c->s, key, false);
    if (!sl || !sl->has_static)
        return false;
    if (out)
        *out = sl->st;
    return true;
}

uint64_t strat_static_count(const strat_ctx *c)
{
    return c->s->statics;
}

bool strat_random_unseen(strat_ctx *c, uint64_t *key)
{
    const sspace *sp = c->sp;
    if (strat_unseen(c) == 0)
        return false;
    for (int t = 0; t < 64; t++) {
        uint64_t k;
        if (!sspace_random(sp, &c->r, &k))
            return false;
        if (!search_slot(c->s, k, false) || search_slot(c->s, k, false)->state == 0) {
            *key = k;
            return true;
        }
    }
    if (!sspace_listed(sp))
        return false;
    /* Mostly seen: walk on from a random place to the first unseen. */
    uint64_t count = sspace_count(sp), start = rng_below(&c->r, count);
    for (uint64_t i = 0; i < count; i++) {
        uint64_t k = sspace_at(sp, (start + i) % count);
        slot *sl = search_slot(c->s, k, false);
        if (!sl || sl->state == 0) {
            *key = k;
            return true;
        }
    }
    return false;
}
