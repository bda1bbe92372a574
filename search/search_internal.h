/* search_internal.h - the search driver's state, shared by the driver (search.c) and
 * the services it gives the strategies (strategy.c), and by nothing else in search/ or
 * above: a strategy sees strategy.h, a caller search.h. */
#ifndef CUTUNE_SEARCH_SEARCH_INTERNAL_H
#define CUTUNE_SEARCH_SEARCH_INTERNAL_H

#include "strategy.h"

/* An open-addressing table of keys: known costs, pending marks, static information. */
typedef struct slot {
    uint64_t key; /* UINT64_MAX: empty */
    double cost;
    unsigned char state; /* 1 known, 2 pending */
    unsigned char has_static;
    search_static st;
} slot;

struct search {
    const sspace *sp;
    search_settings set;
    search_hooks hooks;
    const strat_ops *ops;
    void *state;
    strat_ctx ctx;
    slot *table;
    uint64_t cap, used; /* slots in use (any state) */
    uint64_t known, pending;
    uint64_t evaluations, free_hits, screened, since_improvement, best_at;
    bool have_best;
    uint64_t best_key;
    double best_cost;
    double started;
    double compile_s, gpu_s; /* told by search_tell_seconds */
    uint64_t timed;          /* how many told them */
    uint64_t statics;        /* slots with static facts (has_static) */
    const char *stop;
    char error[256];
    uint64_t *buf;
};

/* search_slot: the slot of `key` (NULL when absent, or when `create` and out of memory;
 * a slot created is empty: state 0, no static facts). */
slot *search_slot(search *s, uint64_t key, bool create);

/* search_remaining: evaluations left in the budget, counting those asked and not yet
 * told (UINT64_MAX: no limit). */
uint64_t search_remaining(const search *s);

#endif
