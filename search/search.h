/* search.h - the search driver: which configurations to evaluate, and when to stop.
 *
 * An ask/tell interface over an abstract evaluation ("configuration -> objective, or
 * failure"), so the same strategies serve the GPU tuner (api/cutune_tune.c) and the simulator
 * (api/cutune_simulate.c, which replays a recorded exhaustive run):
 *
 *     search_new(&s, space, &settings, &hooks, ...);
 *     while (search_ask(s, keys, max, &n) == 0 && n > 0)
 *         for (i = 0; i < n && !search_stopped(s); i++)
 *             search_tell(s, keys[i], evaluate(keys[i]), objective);
 *
 * A batch (n > 1) may be evaluated in any order and in parallel; strategies that can
 * (random, genetic populations, a local search's neighbourhood) ask for several at once.
 * The driver owns the budgets: a configuration evaluated once (or known beforehand, e.g.
 * from a journal, through search_know or hooks.known) is never asked again, and a
 * strategy that proposes it gets the known outcome for free. Budgets (evaluations, time, patience) count only
 * evaluations that were asked. Strategies: docs/search.md. */
#ifndef CUTUNE_SEARCH_SEARCH_H
#define CUTUNE_SEARCH_SEARCH_H

#include "sspace.h"

/* A configuration's score from earlier runs (results/prior.h): 0 the best of its
 * recordings, 1 the worst that ran, above 1 a failure. */
typedef struct search_prior {
    uint64_t key;
    double score;
} search_prior;

typedef struct search_settings {
    strategy strategy;
    uint64_t seed;
    uint64_t budget;     /* the most evaluations; 0: no limit */
    double time_limit_s; /* 0: no limit */
    uint64_t patience;   /* stop after this many evaluations without improvement; 0: never */
    bool maximize;       /* the objective's direction */
    /* Strategy knobs (0: the strategy's default). */
    double temperature, cooling, mutation;
    int64_t population, restarts;
    /* Compile threads working ahead of the GPU (0: 1): how many proposals a strategy
     * may keep in flight before the costs are known (strat_in_flight). */
    int parallel;
    /* Earlier runs' scores, sorted by key, borrowed (NULL: none): auto's prior. */
    const search_prior *prior;
    uint64_t nprior;
} search_settings;

/* What is known of a configuration without running it (the compile and the occupancy
 * model): what `guided` screens with (hooks.static_info), and what the tuner tells of
 * every variant it compiled (search_tell_static). */
typedef struct search_static {
    bool compiled;       /* false: does not compile (the rest is then unknown: 0) */
    bool launchable;     /* false: cannot launch (too many threads, registers, smem) */
    int registers;       /* per thread */
    int64_t spill_bytes; /* spill stores + loads */
    double occupancy;    /* theoretical, 0..1 */
    int64_t static_smem; /* static shared memory per block, bytes */
    int64_t threads;     /* threads per block (the launch's); 0: unknown */
} search_static;

/* The ranges search_tell_static accepts (a file is not trusted because cutune wrote it). */
#define SEARCH_STATIC_MAX_REGISTERS 255
#define SEARCH_STATIC_MAX_BYTES ((int64_t)1 << 40)
#define SEARCH_STATIC_MAX_THREADS ((int64_t)1 << 20)

typedef struct search_hooks {
    void *user;
    /* The clock the time limit is measured on (seconds); NULL: the wall clock. */
    double (*clock)(void *user);
    /* Static information for n configurations (one call, so a tuner can compile them in
     * parallel). 0, or -1 to stop the search. NULL: none (guided then screens nothing). */
    int (*static_info)(void *user, const uint64_t *keys, int n, search_static *out);
    /* An outcome known without evaluating (a journal of an earlier run): true with *ok and
     * *objective when known. Such a configuration costs nothing. NULL: none. */
    bool (*known)(void *user, uint64_t key, bool *ok, double *objective);
} search_hooks;

typedef struct search search;

/* search_new: a search of `sp` (which must outlive it). Returns 0, or -1 with err_last set. */
int search_new(search **out, const sspace *sp, const search_settings *set, const search_hooks *hooks);

/* search_free: NULL is a no-op. */
void search_free(search *s);

/* search_know: the outcome of a configuration known before the search starts (a
 * journal of an earlier run): from now on it is known, at no cost (never asked, not in
 * any budget), it may be the best, and the strategy is told (its prior operation).
 * Call it before the first search_ask, once per configuration; a key that is not a
 * valid configuration, or is known already, is ignored. ok and objective as for
 * search_tell. Returns 0, or -1 with search_error (out of memory). */
int search_know(search *s, uint64_t key, bool ok, double objective);

/* search_known_count: how many configurations are known (told, told beforehand,
 * screened, or answered by hooks.known). */
uint64_t search_known_count(const search *s);

/* search_ask: up to `max` configurations to evaluate next, in keys[0 .. *n). *n == 0
 * means the search is over (search_stop_reason says why). Every key asked must be told
 * (or the search abandoned) before the next ask. Returns 0, or -1 with
 * search_error (a hook failed, no memory). */
int search_ask(search *s, uint64_t *keys, int max, int *n);

/* search_tell: the outcome of an asked configuration: ok with its objective, or a
 * failure (any status but ok, or a non-finite objective). */
void search_tell(search *s, uint64_t key, bool ok, double objective);

/* search_tell_static_failure: an asked configuration found, by its compile alone, not to
 * compile or unable to launch: no GPU ran it. A strategy that screens on what a compile
 * tells (guided, auto) spends no evaluation on it: it is counted as screened. For the
 * others it is a failed evaluation, as search_tell(s, key, false, 0). */
void search_tell_static_failure(search *s, uint64_t key);

/* search_tell_static: what the compile of configuration `key` says of it (registers,
 * spills, static shared memory, theoretical occupancy, threads per block), kept by the
 * driver for the search's life (strategies read it: strat_static_known). The tuner tells
 * it of every variant it compiled, before the outcome (search_tell, or
 * search_tell_static_failure), so that the strategy's observe can read it; simulate
 * tells what the recording holds. Any valid key may be told, asked or not; a second
 * telling replaces the first. Returns true when kept; false, keeping nothing, when `key`
 * is not a valid configuration, a fact is out of range (registers 0 to
 * SEARCH_STATIC_MAX_REGISTERS, bytes 0 to SEARCH_STATIC_MAX_BYTES, threads 0 to
 * SEARCH_STATIC_MAX_THREADS, occupancy 0 to 1), or memory runs out: the facts are an
 * aid, and a search without them goes on as before. */
bool search_tell_static(search *s, uint64_t key, const search_static *st);

/* search_static_threads: threads per block of a launch of `block` (x, y, z), for
 * search_static.threads: 0 (unknown) when a dimension is below 1 or the product is above
 * SEARCH_STATIC_MAX_THREADS. */
int64_t search_static_threads(const int64_t block[3]);

/* search_statics_told: how many configurations' static facts are kept (told, or fetched
 * through hooks.static_info). */
uint64_t search_statics_told(const search *s);

/* search_tell_seconds: what the variant just told cost: its compile seconds (CPU, one
 * thread; 0 when cached) and its GPU seconds. Summed, they set how many proposals a
 * strategy keeps in flight (strat_in_flight). Optional. */
void search_tell_seconds(search *s, double compile_s, double gpu_s);

/* search_stopped: a budget is spent (evaluations, time, patience): evaluate no more of
 * the batch in hand. */
bool search_stopped(search *s);

/* Statistics. */
uint64_t search_evaluations(const search *s); /* asked and told */
uint64_t search_free_hits(const search *s);   /* proposals answered from what was known */
uint64_t search_screened(const search *s);    /* skipped on static information (guided), or
                                                     failed statically (guided, auto) */
bool search_best(const search *s, uint64_t *key, double *objective);
uint64_t search_best_at(const search *s);        /* the evaluation count when the best was found */
const char *search_stop_reason(const search *s); /* "budget", "time", "patience", "space exhausted",
                                                     "strategy finished", or "" while running */
const char *search_error(const search *s);
double search_elapsed(search *s); /* seconds on its clock since search_new */

/* search_strategy_default_*: the defaults a strategy uses for a knob left at 0
 * (documented in docs/search.md; the tests and the docs read them from here). */
int64_t search_default_population(const search_settings *set, uint64_t count);
double search_default_mutation(int nparams);
double search_default_temperature(void);
double search_default_cooling(uint64_t budget, uint64_t count);
int64_t search_default_restarts(void);

#endif
