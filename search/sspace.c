/* sspace.c - the search stage's view of the valid space (see sspace.h). */
#include "sspace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/err.h"
#include "../compiler/eval.h"
#include "../compiler/space.h"

enum { REJECTION_TRIES = 1 << 20 };

struct sspace {
    const model *m;
    int n;
    uint64_t *sizes, *strides;
    uint64_t raw, count;
    uint64_t *keys;                                 /* listed: the valid keys, ascending; NULL when unlisted */
    uint64_t shard_index, shard_count, shard_block; /* this shard of the space (count 1: all) */
    value *scratch;                                 /* unlisted validity checks */
};

/* Listing: every valid configuration's key, in listing (= key) order. */
static int list_keys(sspace *sp, space *full)
{
    sp->keys = malloc(sizeof(uint64_t) * (size_t)(sp->count ? sp->count : 1));
    space_iter *it = NULL;
    if (!sp->keys || space_iter_new(&it, full) < 0) {
        err_set(-1, "out of memory listing %llu configurations", (unsigned long long)sp->count);
        return -1;
    }
    const uint64_t *idx;
    const value *vals;
    eval_error e;
    uint64_t k = 0;
    int rc;
    while ((rc = space_iter_next(it, &idx, &vals, &e)) == 1 && k < sp->count)
        sp->keys[k++] = sspace_encode(sp, idx);
    space_iter_free(it);
    if (rc < 0) {
        err_set(-1, "%s", e.message);
        return -1;
    }
    sp->count = k;
    return 0;
}

int sspace_new(sspace **out, const model *m, uint64_t list_limit)
{
    *out = NULL;
    sspace *sp = calloc(1, sizeof *sp);
    if (!sp) {
        err_set(-1, "out of memory");
        return -1;
    }
    sp->m = m;
    sp->n = m->nparams;
    sp->shard_count = 1;
    sp->shard_block = 1;
    sp->sizes = calloc((size_t)sp->n + 1, sizeof(uint64_t));
    sp->strides = calloc((size_t)sp->n + 1, sizeof(uint64_t));
    sp->scratch = calloc((size_t)sp->n + 1, sizeof(value));
    space *full = NULL;
    if (!sp->sizes || !sp->strides || !sp->scratch || space_new(&full, m, NULL, 0) < 0) {
        err_set(-1, "out of memory");
        goto fail;
    }
    uint64_t stride = 1;
    for (int i = sp->n - 1; i >= 0; i--) {
        sp->sizes[i] = m->params[i].dom.size;
        sp->strides[i] = stride;
        if (sp->sizes[i] && stride > UINT64_MAX / sp->sizes[i]) {
            err_set(-1, "the space has more combinations than a 64-bit number holds: too large to search");
            goto fail;
        }
        stride *= sp->sizes[i];
    }
    sp->raw = stride;
    bool saturated;
    eval_error e;
    if (space_count(full, &sp->count, &saturated, &e) < 0) {
        err_set(-1, "%s", e.message);
        goto fail;
    }
    if (sp->count == 0) {
        err_set(-1, "no configuration is valid");
        goto fail;
    }
    if (sp->count <= (list_limit ? list_limit : SSPACE_LIST_LIMIT) && list_keys(sp, full) < 0)
        goto fail;
    space_free(full);
    *out = sp;
    return 0;
fail:
    space_free(full);
    sspace_free(sp);
    return -1;
}

void sspace_free(sspace *sp)
{
    if (!sp)
        return;
    free(sp->sizes);
    free(sp->strides);
    free(sp->keys);
    free(sp->scratch);
    free(sp);
}

const model *sspace_model(const sspace *sp)
{
    return sp->m;
}
int sspace_nparams(const sspace *sp)
{
    return sp->n;
}
uint64_t sspace_size(const sspace *sp, int i)
{
    return sp->sizes[i];
}
uint64_t sspace_count(const sspace *sp)
{
    return sp->count;
}
bool sspace_listed(const sspace *sp)
{
    return sp->keys != NULL;
}

void sspace_decode(const sspace *sp, uint64_t key, uint64_t *vec)
{
    for (int i = 0; i < sp->n; i++)
        vec[i] = key / sp->strides[i] % sp->sizes[i];
}

uint64_t sspace_encode(const sspace *sp, const uint64_t *vec)
{
    uint64_t key = 0;
    for (int i = 0; i < sp->n; i++)
        key += vec[i] * sp->strides[i];
    return key;
}

void sspace_values(const sspace *sp, uint64_t key, value *out)
{
    for (int i = 0; i < sp->n; i++)
        out[i] = model_domain_at(&sp->m->params[i].dom, key / sp->strides[i] % sp->sizes[i]);
}

/* The position of `key` among the listed keys, or -1. */
static int64_t find_key(const sspace *sp, uint64_t key)
{
    uint64_t lo = 0, hi = sp->count;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (sp->keys[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < sp->count && sp->keys[lo] == key ? (int64_t)lo : -1;
}

bool sspace_valid(const sspace *sp, uint64_t key)
{
    if (key >= sp->raw)
        return false;
    if (sp->keys)
        return find_key(sp, key) >= 0;
    if (!space_in_shard(key, sp->shard_index, sp->shard_count, sp->shard_block)) /* unlisted: by raw position */
        return false;
    value *vals = ((sspace *)sp)->scratch; /* scratch only: the space is not changed */
    sspace_values(sp, key, vals);
    eval_env env = {sp->m, vals, false, 0.0, NULL, false, 0.0, 0.0};
    for (int r = 0; r < sp->m->nrequires; r++) {
        bool ok;
        eval_error e;
        if (eval_bool(sp->m->requires[r].expr, &env, &ok, &e) < 0 || !ok)
            return false;
    }
    return true;
}

static uint64_t whole_ordinal(const sspace *sp, uint64_t j);

uint64_t sspace_ordinal(const sspace *sp, uint64_t key)
{
    if (!sp->keys)
        return key;
    int64_t at = find_key(sp, key);
    return at < 0 ? UINT64_MAX : whole_ordinal(sp, (uint64_t)at);
}

int sspace_shard(sspace *sp, uint64_t index, uint64_t count)
{
    if (count < 1 || index >= count || sp->shard_count != 1)
        return -1;
    if (count == 1)
        return 0;
    uint64_t block = space_shard_block(sp->m);
    if (sp->keys) { /* keep the shard's positions, in order (sspace_ordinal inverts this) */
        uint64_t j = 0;
        for (uint64_t p = 0; p < sp->count; p++)
            if (space_in_shard(p, index, count, block))
                sp->keys[j++] = sp->keys[p];
        if (j == 0)
            return -1;
        sp->count = j;
    } else {
        sp->count = sp->count / count > 0 ? sp->count / count : 1;
    }
    sp->shard_index = index;
    sp->shard_count = count;
    sp->shard_block = block;
    return 0;
}

/* A shard's j-th position as the whole space's ordinal: its run j / block is the
 * (j / block * count + index)-th of the whole space. */
static uint64_t whole_ordinal(const sspace *sp, uint64_t j)
{
    uint64_t b = sp->shard_block;
    return (j / b * sp->shard_count + sp->shard_index) * b + j % b;
}

uint64_t sspace_key_of(const sspace *sp, uint64_t ordinal)
{
    if (!space_in_shard(ordinal, sp->shard_index, sp->shard_count, sp->shard_block))
        return UINT64_MAX;
    if (!sp->keys)
        return sspace_valid(sp, ordinal) ? ordinal : UINT64_MAX;
    uint64_t b = sp->shard_block, j = ordinal / b / sp->shard_count * b + ordinal % b;
    return j < sp->count ? sp->keys[j] : UINT64_MAX;
}

uint64_t sspace_at(const sspace *sp, uint64_t ordinal)
{
    return sp->keys && ordinal < sp->count ? sp->keys[ordinal] : UINT64_MAX;
}

bool sspace_random(const sspace *sp, rng *r, uint64_t *key)
{
    if (sp->keys) {
        *key = sp->keys[rng_below(r, sp->count)];
        return true;
    }
    for (int t = 0; t < REJECTION_TRIES; t++) {
        uint64_t k = rng_below(r, sp->raw);
        if (sspace_valid(sp, k)) {
            *key = k;
            return true;
        }
    }
    return false;
}

int sspace_neighbours(const sspace *sp, uint64_t key, uint64_t *out)
{
    int n = 0;
    for (int i = 0; i < sp->n; i++) {
        uint64_t at = key / sp->strides[i] % sp->sizes[i];
        if (at > 0 && sspace_valid(sp, key - sp->strides[i]))
            out[n++] = key - sp->strides[i];
        if (at + 1 < sp->sizes[i] && sspace_valid(sp, key + sp->strides[i]))
            out[n++] = key + sp->strides[i];
    }
    return n;
}
