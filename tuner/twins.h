/* twins.h - variants that are the same experiment (twins.c, prefix twins_): a variant
 * whose launch is one already run takes that run's figures instead of running again. */
#ifndef CUTUNE_TUNER_TWINS_H
#define CUTUNE_TUNER_TWINS_H

#include "../compiler/model.h"
#include "../session/session.h"

/* A launch's identity: the machine code (runtime/cubin.h), symbol, geometry, dynamic
 * shared memory and planned arguments, as XXH3-128. */
typedef struct twin_id {
    uint64_t lo, hi;
} twin_id;

typedef struct twins twins;

/* twins_new: an empty table for runs of model m. *out is set even on failure (free it
 * with twins_free). CUTUNE_OK or CUTUNE_ENOMEM. */
int twins_new(twins **out, const model *m);

/* twins_free: NULL is a no-op. */
void twins_free(twins *tw);

/* twins_identity: the identity of variant v (configuration `vals`, binary `bin`).
 * 0, or -1 when it has none (no binary, a cubin that cannot be read, arguments that
 * cannot be planned): such a variant is always run. */
int twins_identity(twins *tw, const value *vals, const cutune_variant *v, const session_binary *bin, twin_id *out);

/* twins_find: the index of the record run for identity `id`, or -1. */
int64_t twins_find(const twins *tw, twin_id id);

/* twins_add: record `index` was run for `id` (the first one stays). CUTUNE_OK or
 * CUTUNE_ENOMEM. */
int twins_add(twins *tw, twin_id id, uint64_t index);

#endif
