/* strategy.h - what a strategy implements, and what the driver gives it (search/ only).
 *
 * A strategy proposes configurations (keys) and observes their costs; it never sees
 * budgets, clocks or evaluations directly. Costs are "lower is better" (the driver
 * negates a maximised objective); a failed evaluation costs +INFINITY. A proposal the
 * driver already knows is observed at once, for free, before propose is called again;
 * the others are observed as their evaluations come back, in any order. */
#ifndef CUTUNE_SEARCH_STRATEGY_H
#define CUTUNE_SEARCH_STRATEGY_H

#include <math.h>

#include "search.h"

typedef struct strat_ctx {
    const sspace *sp;
    const search_settings *set;
    rng r;
    search *s;
    bool free_hit; /* the observation in hand was known already and cost nothing */
} strat_ctx;

typedef struct strat_ops {
    const char *name;
    /* create: the strategy's state (NULL when out of memory). */
    void *(*create)(strat_ctx *c);
    /* propose: up to max keys (valid configurations) into keys. Returns how many; 0 when
     * the strategy has nothing more to propose; -1 on error (out of memory, a hook). */
    int (*propose)(void *st, strat_ctx *c, uint64_t *keys, int max);
    /* observe: the cost of a proposed key. */
    void (*observe)(void *st, strat_ctx *c, uint64_t key, double cost);
    void (*destroy)(void *st);
    /* prior: a configuration known before the search started (search_know), with its
     * cost; called before the first propose, never for a key proposed since. NULL: the
     * strategy sees such configurations only through strat_known and free proposals. */
    void (*prior)(void *st, strat_ctx *c, uint64_t key, double cost);
} strat_ops;

extern const strat_ops strat_exhaustive, strat_random, strat_anneal, strat_genetic, strat_local, strat_guided,
    strat_auto;

/* strat_known: the cost of a configuration evaluated (or known) already. */
bool strat_known(const strat_ctx *c, uint64_t key, double *cost);

/* strat_pending: proposed and not yet observed. */
bool strat_pending(const strat_ctx *c, uint64_t key);

/* strat_pending_count: how many proposals are in flight (asked, not yet observed). */
uint64_t strat_pending_count(const strat_ctx *c);

/* strat_remaining: evaluations left in the budget (UINT64_MAX: no limit). */
uint64_t strat_remaining(const strat_ctx *c);

/* strat_in_flight: how many proposals a strategy that learns from every outcome should
 * keep in flight so that neither the GPU nor the compile threads wait: settings.parallel
 * (P, at least 1) until the costs are known (search_tell_seconds); then, with c and g a
 * variant's mean compile and GPU seconds, period = max(c / P, g) (the pipeline's pace)
 * and lighter = min(c / P, g): ceil((c + g) / period x (1 + lighter / period / 2))
 * (Little's law, with a queue that grows as the two stages near balance), at least 2
 * and at most the tuner's window, max(4 P, 16). */
int strat_in_flight(const strat_ctx *c);

/* strat_unseen: how many valid configurations are neither known nor pending. */
uint64_t strat_unseen(const strat_ctx *c);

/* strat_static: static information for n keys (cached; the hook is called for the ones
 * not seen before). false in *have when there is no hook. 0, or -1 when the hook failed. */
int strat_static(strat_ctx *c, const uint64_t *keys, int n, search_static *out, bool *have);

/* strat_static_known: the static facts kept of `key` (told: search_tell_static, or
 * fetched by strat_static) into *out; false when none are (the hook is not called). */
bool strat_static_known(const strat_ctx *c, uint64_t key, search_static *out);

/* strat_static_count: how many configurations have static facts kept. 0 for a search
 * told none (a recording without them: the hub's conversions). */
uint64_t strat_static_count(const strat_ctx *c);

/* strat_random_unseen: a valid configuration neither known nor pending (uniform among
 * them when the space is listed; rejection sampling otherwise). false when none found. */
bool strat_random_unseen(strat_ctx *c, uint64_t *key);

/* strat_screened: a configuration skipped on static information: from now on it is
 * known (as a failure, at no cost) and never proposed as unseen again. */
void strat_screened(strat_ctx *c, uint64_t key);

#endif
