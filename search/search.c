/* search.c - the search driver (see search.h): budgets, and the record of what is known
 * (search_internal.h), on which the strategies' services stand (strategy.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../base/err.h"
#include "search_internal.h"

/* The most proposals in a row answered from what is known before the driver decides
 * the strategy is going round in circles. */
enum { FREE_STREAK_LIMIT = 200000, MAX_BATCH = 4096 };

static double wall_clock(void *user)
{
    (void)user;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double now(search *s)
{
    return s->hooks.clock ? s->hooks.clock(s->hooks.user) : wall_clock(NULL);
}

static uint64_t mix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return k;
}

slot *search_slot(search *s, uint64_t key, bool create)
{
    if (create && (s->used + 1) * 2 > s->cap) {
        uint64_t cap = s->cap ? s->cap * 2 : 1024;
        slot *t = malloc(sizeof(slot) * cap);
        if (!t)
            return NULL;
        for (uint64_t i = 0; i < cap; i++)
            t[i].key = UINT64_MAX;
        for (uint64_t i = 0; i < s->cap; i++)
            if (s->table[i].key != UINT64_MAX) {
                uint64_t h = mix(s->table[i].key) & (cap - 1);
                while (t[h].key != UINT64_MAX)
                    h = (h + 1) & (cap - 1);
                t[h] = s->table[i];
            }
        free(s->table);
        s->table = t;
        s->cap = cap;
    }
    if (!s->cap)
        return NULL;
    uint64_t h = mix(key) & (s->cap - 1);
    while (s->table[h].key != UINT64_MAX) {
        if (s->table[h].key == key)
            return &s->table[h];
        h = (h + 1) & (s->cap - 1);
    }
    if (!create)
        return NULL;
    memset(&s->table[h], 0, sizeof(slot));
    s->table[h].key = key;
    s->used++;
    return &s->table[h];
}

static const strat_ops *ops_of(strategy st)
{
    switch (st) {
    case STRAT_RANDOM: return &strat_random;
    case STRAT_ANNEAL: return &strat_anneal;
    case STRAT_GENETIC: return &strat_genetic;
    case STRAT_LOCAL: return &strat_local;
    case STRAT_GUIDED: return &strat_guided;
    case STRAT_AUTO: return &strat_auto;
    default: return &strat_exhaustive;
    }
}

int search_new(search **out, const sspace *sp, const search_settings *set, const search_hooks *hooks)
{
    *out = NULL;
    search *s = calloc(1, sizeof *s);
    if (!s || !(s->buf = malloc(sizeof(uint64_t) * MAX_BATCH))) {
        free(s);
        err_set(-1, "out of memory");
        return -1;
    }
    s->sp = sp;
    s->set = *set;
    if (hooks)
        s->hooks = *hooks;
    s->ops = ops_of(set->strategy);
    s->stop = "";
    s->ctx.sp = sp;
    s->ctx.set = &s->set;
    s->ctx.s = s;
    rng_seed(&s->ctx.r, set->seed);
    s->started = now(s);
    s->cap = 1024;
    s->table = malloc(sizeof(slot) * s->cap);
    for (uint64_t i = 0; s->table && i < s->cap; i++)
        s->table[i].key = UINT64_MAX;
    if (!s->table || !(s->state = s->ops->create(&s->ctx))) {
        search_free(s);
        err_set(-1, "out of memory");
        return -1;
    }
    *out = s;
    return 0;
}

void search_free(search *s)
{
    if (!s)
        return;
    if (s->state)
        s->ops->destroy(s->state);
    free(s->table);
    free(s->buf);
    free(s);
}

static void note_cost(search *s, uint64_t key, double cost, bool counted)
{
    if (isfinite(cost) && (!s->have_best || cost < s->best_cost)) {
        s->have_best = true;
        s->best_cost = cost;
        s->best_key = key;
        s->best_at = s->evaluations;
        s->since_improvement = 0;
    } else if (counted) {
        s->since_improvement++;
    }
}

static double cost_of(const search *s, bool ok, double objective)
{
    if (!ok || !isfinite(objective))
        return INFINITY;
    return s->set.maximize ? -objective : objective;
}

bool search_stopped(search *s)
{
    if (s->stop[0])
        return true;
    if (s->set.budget && s->evaluations >= s->set.budget)
        s->stop = "budget";
    else if (s->set.patience && s->since_improvement >= s->set.patience)
        s->stop = "patience";
    else if (s->set.time_limit_s > 0 && now(s) - s->started >= s->set.time_limit_s)
        s->stop = "time";
    else if (s->known + s->pending >= sspace_count(s->sp) && s->pending == 0)
        s->stop = "space exhausted";
    return s->stop[0] != '\0';
}

int search_know(search *s, uint64_t key, bool ok, double objective)
{
    if (!sspace_valid(s->sp, key))
        return 0;
    slot *sl = search_slot(s, key, true);
    if (!sl) {
        snprintf(s->error, sizeof s->error, "out of memory");
        return -1;
    }
    if (sl->state != 0)
        return 0;
    sl->state = 1;
    sl->cost = cost_of(s, ok, objective);
    s->known++;
    note_cost(s, key, sl->cost, false);
    if (s->ops->prior) {
        s->ctx.free_hit = true;
        s->ops->prior(s->state, &s->ctx, key, sl->cost);
    }
    return 0;
}

uint64_t search_known_count(const search *s)
{
    return s->known;
}

uint64_t search_remaining(const search *s)
{
    if (!s->set.budget)
        return UINT64_MAX;
    uint64_t spent = s->evaluations + s->pending;
    return spent >= s->set.budget ? 0 : s->set.budget - spent;
}

int search_ask(search *s, uint64_t *keys, int max, int *n)
{
    *n = 0;
    if (max > MAX_BATCH)
        max = MAX_BATCH;
    uint64_t streak = 0;
    while (!search_stopped(s)) {
        uint64_t left = search_remaining(s);
        int want = left < (uint64_t)max ? (int)left : max;
        int got = s->ops->propose(s->state, &s->ctx, s->buf, want);
        if (got < 0) {
            if (!s->error[0])
                snprintf(s->error, sizeof s->error, "the %s strategy failed (out of memory?)", s->ops->name);
            return -1;
        }
        if (got == 0) {
            if (s->pending == 0)
                s->stop = "strategy finished";
            return 0;
        }
        int in_flight = 0; /* proposals already asked and not yet told */
        for (int i = 0; i < got; i++) {
            uint64_t key = s->buf[i];
            if (!sspace_valid(s->sp, key))
                continue; /* strategies propose valid keys; an invalid one is never evaluated */
            slot *sl = search_slot(s, key, true);
            if (!sl) {
                snprintf(s->error, sizeof s->error, "out of memory");
                return -1;
            }
            if (sl->state == 2) {
                in_flight++;
                continue; /* asked already, its outcome not yet told */
            }
            if (sl->state == 0 && s->hooks.known) {
                bool ok;
                double objective;
                if (s->hooks.known(s->hooks.user, key, &ok, &objective)) {
                    sl->state = 1;
                    sl->cost = cost_of(s, ok, objective);
                    s->known++;
                    note_cost(s, key, sl->cost, false);
                }
            }
            if (sl->state == 1) {
                s->free_hits++;
                streak++;
                s->ctx.free_hit = true;
                s->ops->observe(s->state, &s->ctx, key, sl->cost);
                continue;
            }
            sl->state = 2;
            s->pending++;
            keys[(*n)++] = key;
        }
        if (*n > 0)
            return 0;
        if (in_flight == got && s->pending > 0)
            return 0; /* it asks only for what is in flight: it waits for those outcomes */
        if (streak > FREE_STREAK_LIMIT) {
            s->stop = "strategy finished";
            return 0;
        }
    }
    return 0;
}

void search_tell(search *s, uint64_t key, bool ok, double objective)
{
    slot *sl = search_slot(s, key, false);
    if (!sl || sl->state != 2)
        return; /* not asked: ignored */
    sl->state = 1;
    sl->cost = cost_of(s, ok, objective);
    s->pending--;
    s->known++;
    s->evaluations++;
    note_cost(s, key, sl->cost, true);
    s->ctx.free_hit = false;
    s->ops->observe(s->state, &s->ctx, key, sl->cost);
}

void search_tell_static_failure(search *s, uint64_t key)
{
    if (s->set.strategy != STRAT_GUIDED && s->set.strategy != STRAT_AUTO) {
        search_tell(s, key, false, 0.0);
        return;
    }
    slot *sl = search_slot(s, key, false);
    if (!sl || sl->state != 2)
        return; /* not asked: ignored */
    sl->state = 1;
    sl->cost = INFINITY;
    s->pending--;
    s->known++;
    s->screened++;
    s->ctx.free_hit = false;
    s->ops->observe(s->state, &s->ctx, key, sl->cost);
}

/* static_plausible: every fact of st within the ranges search.h states. */
static bool static_plausible(const search_static *st)
{
    return st->registers >= 0 && st->registers <= SEARCH_STATIC_MAX_REGISTERS && st->spill_bytes >= 0 &&
           st->spill_bytes <= SEARCH_STATIC_MAX_BYTES && st->static_smem >= 0 &&
           st->static_smem <= SEARCH_STATIC_MAX_BYTES && st->threads >= 0 && st->threads <= SEARCH_STATIC_MAX_THREADS &&
           st->occupancy >= 0.0 && st->occupancy <= 1.0;
}

bool search_tell_static(search *s, uint64_t key, const search_static *st)
{
    if (!st || !sspace_valid(s->sp, key) || !static_plausible(st))
        return false;
    slot *sl = search_slot(s, key, true);
    if (!sl)
        return false; /* out of memory: the search goes on without them */
    if (!sl->has_static)
        s->statics++;
    sl->has_static = 1;
    sl->st = *st;
    return true;
}

int64_t search_static_threads(const int64_t block[3])
{
    int64_t threads = 1;
    for (int d = 0; d < 3; d++) {
        if (block[d] < 1 || block[d] > SEARCH_STATIC_MAX_THREADS)
            return 0;
        threads *= block[d];
        if (threads > SEARCH_STATIC_MAX_THREADS)
            return 0;
    }
    return threads;
}

uint64_t search_statics_told(const search *s)
{
    return s->statics;
}

void search_tell_seconds(search *s, double compile_s, double gpu_s)
{
    if (!(compile_s >= 0) || !(gpu_s >= 0) || !isfinite(compile_s) || !isfinite(gpu_s))
        return;
    s->compile_s += compile_s;
    s->gpu_s += gpu_s;
    s->timed++;
}

uint64_t search_evaluations(const search *s)
{
    return s->evaluations;
}
uint64_t search_free_hits(const search *s)
{
    return s->free_hits;
}
uint64_t search_screened(const search *s)
{
    return s->screened;
}
uint64_t search_best_at(const search *s)
{
    return s->best_at;
}
const char *search_stop_reason(const search *s)
{
    return s->stop;
}
const char *search_error(const search *s)
{
    return s->error;
}
double search_elapsed(search *s)
{
    return now(s) - s->started;
}

bool search_best(const search *s, uint64_t *key, double *objective)
{
    if (!s->have_best)
        return false;
    *key = s->best_key;
    *objective = s->set.maximize ? -s->best_cost : s->best_cost;
    return true;
}

/* ---- defaults ---------------------------------------------------------------------- */

int64_t search_default_population(const search_settings *set, uint64_t count)
{
    (void)set;
    (void)count;
    return 20;
}

double search_default_mutation(int nparams)
{
    return nparams > 0 ? 1.0 / nparams : 0.1;
}

double search_default_temperature(void)
{
    return 1.0;
}

double search_default_cooling(uint64_t budget, uint64_t count)
{
    (void)budget;
    (void)count;
    return 0.99;
}

int64_t search_default_restarts(void)
{
    return 3;
}
