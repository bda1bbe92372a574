/* local.h - the iterated local search engine that `local` and `guided` share (search/
 * only). Descent: every unseen neighbour of the current configuration (one param one
 * step in its domain) is asked as one batch; the search moves to the best neighbour
 * while that improves. At a local optimum it kicks: from the best optimum so far, a few
 * params jump anywhere in their domains, and descent starts again there. After
 * `restarts` kicks in a row that find nothing better, it starts afresh from a new
 * start configuration. Configurations known before the search (search_know) are not
 * asked again; the first descent starts from the best of them. */
#ifndef CUTUNE_SEARCH_LOCAL_H
#define CUTUNE_SEARCH_LOCAL_H

#include "strategy.h"

typedef struct local_hooks {
    /* Filters candidates in place (keys[0 .. *n)); NULL keeps them all. 0, or -1 to stop. */
    int (*screen)(strat_ctx *c, uint64_t *keys, int *n);
    /* A start configuration; NULL: a random unseen one. */
    bool (*start)(void *st, strat_ctx *c, uint64_t *key);
    void *start_state;
} local_hooks;

void *local_create(strat_ctx *c, const local_hooks *hooks);
int local_propose(void *st, strat_ctx *c, uint64_t *keys, int max);
void local_observe(void *st, strat_ctx *c, uint64_t key, double cost);
void local_destroy(void *st);
/* local_prior: a configuration known beforehand; descent starts from the best of them. */
void local_prior(void *st, strat_ctx *c, uint64_t key, double cost);

#endif
