/* space.h - the parameter space: every combination of param values that satisfies
 * every constraint.
 *
 * Counting never lists: params that no constraint ties together are counted
 * separately and multiplied, and this split is repeated after each param is fixed
 * (so the count of a 10^8-point space costs far less than 10^8 evaluations).
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

/* space_count: the number of valid configurations, in *count (saturating as above).
 * Returns 0, or -1 with *err when a constraint fails to evaluate (the message names the
 * param values it failed for). */
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

#endif
