/* space.h - the parameter space: every combination of param values that satisfies
 * every constraint.
 *
 * Counting never lists: params that no constraint ties together are counted
 * separately and multiplied, and this split is repeated after each param is fixed
 * (so the count of a 10^8-point space costs far less than 10^8 evaluations). A space
 * that is still too costly to count exactly (a constraint over every param of a 10^15
 * space) is estimated from a sample instead, within a bounded time.
 * Listing streams configurations in declaration order (the last param varies
 * fastest), testing each constraint as soon as the params it reads are fixed. */
#ifndef CUTUNE_COMPILER_SPACE_H
#define CUTUNE_COMPILER_SPACE_H

#include "eval.h"

typedef struct space space;

/* space_new: prepares counting and listing for `m` under the constraints whose indices
 * are in `reqs` (NULL: all of them; a subset is how an empty space is explained). The
 * model must outlive the space. Returns 0, or -1 when out of memory. */
int space_new(space **out, const model *m, const int *reqs, int nreqs);

/* space_free: releases the space; NULL is a no-op. */
void space_free(space *sp);

/* space_raw: the number of combinations before constraints (saturates at UINT64_MAX,
 * then *saturated is set). */
uint64_t space_raw(const space *sp, bool *saturated);

/* How hard space_count_ex tries to count exactly, and how it reports progress. A zero
 * field takes its default. */
typedef struct space_count_opts {
    uint64_t max_work;  /* constraint evaluations before the exact count gives up (default: no bound) */
    double max_seconds; /* seconds before it gives up (default SPACE_COUNT_SECONDS) */
    uint64_t samples;   /* random configurations drawn for the estimate then (default SPACE_COUNT_SAMPLES) */
    uint64_t seed;      /* of that sample */
    /* Called every 65,536 evaluations or so with the share of the exact count done (0
     * to 1, roughly); a nonzero return stops the exact count (the result is then an
     * estimate). NULL: no calls. */
    int (*progress)(void *user, double done);
    void *user;
} space_count_opts;

#define SPACE_COUNT_SECONDS 5.0
enum { SPACE_COUNT_SAMPLES = 1000000 };

/* What space_count_ex found. */
typedef struct space_count_result {
    bool exact;             /* count is the number of valid configurations */
    uint64_t count;         /* exact: the count; else the estimate, raw * hits / samples (rounded) */
    bool saturated;         /* count saturated at UINT64_MAX */
    uint64_t at_least;      /* a lower bound: the count when exact; else what was counted before
                              stopping, or 1 when only the sample found a valid configuration */
    uint64_t samples, hits; /* inexact: the uniform random sample the estimate comes from */
    double share;           /* inexact: hits / samples, the estimated valid share of the raw space */
} space_count_result;

/* space_count_ex: counts the valid configurations exactly when that takes at most the
 * work and time in `opts` (NULL: the defaults); otherwise stops there and estimates
 * the count from a uniform random sample of the raw combinations, with a lower bound
 * (*r says which). Never takes much longer than max_seconds plus the sample. Returns 0,
 * or -1 with *err when a constraint fails to evaluate (the message names the param
 * values it failed for). */
int space_count_ex(space *sp, const space_count_opts *opts, space_count_result *r, eval_error *err);

/* space_count: the number of valid configurations, in *count (saturating as above), with
 * the default bounds of space_count_ex. Returns 0, or -1 with *err when a constraint
 * fails to evaluate (the message names the param values it failed for) or when the
 * space is too large to count exactly within the bounds (the message gives the estimate
 * and the lower bound; err->loc is the kernel's name). */
int space_count(space *sp, uint64_t *count, bool *saturated, eval_error *err);

typedef struct space_iter space_iter;

/* space_iter_new: an iterator over the valid configurations. The space must outlive it. */
int space_iter_new(space_iter **out, const space *sp);

/* space_iter_next: advances to the next valid configuration. Returns 1 with *indices
 * (a domain index per param) and *values (a value per param) pointing at storage owned
 * by the iterator and valid until the next call; 0 when there are no more; -1 with *err
 * when a constraint fails to evaluate. */
int space_iter_next(space_iter *it, const uint64_t **indices, const value **values, eval_error *err);

/* space_iter_free: releases the iterator; NULL is a no-op. */
void space_iter_free(space_iter *it);

/* space_describe_config: appends "p1 = v1, p2 = v2" for the params in `which` (all
 * when which is ~0) to out. */
void space_describe_config(const model *m, const value *values, param_set which, strbuf *out);

/* Shards. Shard `index` of `count` holds the configurations whose ordinal o (listed:
 * the listing ordinal; unlisted: the key) has (o / block) % count == index: runs of
 * `block` consecutive ordinals dealt out in turn. The block is space_shard_block: the
 * last param's domain size, so that configurations differing only in the param that
 * varies fastest (as often the ones that compile to the same code: a register cap that
 * does not bind) land in one shard, where twins are found (tuner/twins.c), while the
 * dealing keeps the shards' loads alike. space_shard_of is that rule, the one copy
 * (space_in_shard asks it of one shard; search/sspace's sspace_shard narrows a search
 * space to a shard). */
uint64_t space_shard_block(const model *m);
uint64_t space_shard_of(uint64_t ordinal, uint64_t count, uint64_t block);
bool space_in_shard(uint64_t ordinal, uint64_t index, uint64_t count, uint64_t block);

#endif
