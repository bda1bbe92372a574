/* sspace.h - the valid space as the search strategies see it (prefix sspace_).
 *
 * A configuration is a vector of domain indices, one per param, and is named by its
 * *key*: the vector read as a mixed-radix number, the last param varying fastest (its
 * position among every raw combination). Keys of valid configurations therefore grow
 * in listing order.
 *
 * Two modes. *Listed* (the valid configurations number at most the listing limit): the
 * sorted keys of every valid configuration are held (8 bytes each), so the ordinal <->
 * key map is an array index one way and a binary search the other, validity is a
 * look-up, and uniform sampling is exact. *Unlisted* (larger spaces): validity is
 * decided by evaluating the constraints, uniform sampling is rejection sampling over
 * the raw product, and a configuration's ordinal is its key (its position among the raw
 * combinations; docs/search.md). */
#ifndef CUTUNE_SEARCH_SSPACE_H
#define CUTUNE_SEARCH_SSPACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../compiler/model.h"
#include "rng.h"

enum { SSPACE_LIST_LIMIT = 1 << 22 }; /* 4 Mi configurations: 32 MiB of keys */

typedef struct sspace sspace;

/* sspace_new: the space of `m` (which must outlive it). `list_limit` 0 means
 * SSPACE_LIST_LIMIT. Returns 0, or -1 with err_last set (no valid configuration, more raw
 * combinations than 64 bits hold, a constraint that fails to evaluate, no memory). */
int sspace_new(sspace **out, const model *m, uint64_t list_limit);

/* sspace_free: NULL is a no-op. */
void sspace_free(sspace *sp);

const model *sspace_model(const sspace *sp);
int sspace_nparams(const sspace *sp);
/* sspace_size: how many values param i takes. */
uint64_t sspace_size(const sspace *sp, int i);
/* sspace_count: the number of valid configurations. */
uint64_t sspace_count(const sspace *sp);
bool sspace_listed(const sspace *sp);

/* sspace_decode / sspace_encode: key <-> index vector (nparams entries). */
void sspace_decode(const sspace *sp, uint64_t key, uint64_t *vec);
uint64_t sspace_encode(const sspace *sp, const uint64_t *vec);

/* sspace_values: the configuration's typed values (nparams entries). */
void sspace_values(const sspace *sp, uint64_t key, value *out);

/* sspace_valid: whether the key names a valid configuration (false for keys beyond the
 * raw product; a constraint that fails to evaluate makes it invalid). */
bool sspace_valid(const sspace *sp, uint64_t key);

/* sspace_ordinal: the configuration's number as `cutune list` gives it (listed), else
 * its key. The key must be valid. */
uint64_t sspace_ordinal(const sspace *sp, uint64_t key);

/* sspace_at: the key of the i-th valid configuration of this space (listed only; a
 * shard's i-th, whose ordinal is i * count + index). */
uint64_t sspace_at(const sspace *sp, uint64_t ordinal);

/* sspace_shard narrows the space to shard `index` of `count` (compiler/space.h's
 * rule, space_shard_of): ordinals stay the whole space's; sspace_at, sspace_count,
 * sspace_valid and sampling see the shard only (unlisted: sspace_count becomes an
 * estimate, the whole count / count). 0, or -1 when the shard is empty or index/count
 * are out of range. */
int sspace_shard(sspace *sp, uint64_t index, uint64_t count);

/* sspace_key_of: the key of the configuration with (whole-space) ordinal `ordinal`, or
 * UINT64_MAX when it is not in this (sharded) space. */
uint64_t sspace_key_of(const sspace *sp, uint64_t ordinal);

/* sspace_random: a uniformly drawn valid configuration. false when rejection sampling
 * found none in its tries (a space whose valid part is a tiny fraction of the raw). */
bool sspace_random(const sspace *sp, rng *r, uint64_t *key);

/* sspace_neighbours: the valid configurations one step away: one param moved to the
 * previous or next value of its domain. Writes at most 2 * nparams keys to out and
 * returns how many. */
int sspace_neighbours(const sspace *sp, uint64_t key, uint64_t *out);

#endif
