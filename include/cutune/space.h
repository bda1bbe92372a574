/* cutune/space.h - a part of cutune's public C API (cutune.h includes every part; its
 * opening comment gives the conventions, docs/api.md the guide).
 *
 * A spec's space: counting it, and iterating over its configurations and the
 * variants they become (api/cutune_space.c). */
#ifndef CUTUNE_SPACE_H
#define CUTUNE_SPACE_H

#include <stddef.h>
#include <stdint.h>

#include "spec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the space ------------------------------------------------------------------ */

typedef struct cutune_space_size {
    uint64_t raw;      /* combinations before constraints */
    uint64_t valid;    /* configurations satisfying every constraint (an estimate when
                              valid_estimated) */
    int raw_saturated; /* raw is at least UINT64_MAX */
    int valid_saturated;
    /* A space too large to count exactly within the time bound (5 s, docs/language.md):
     * valid is then estimated from `samples` uniformly random combinations, and
     * valid_at_least is a lower bound (what was counted before stopping). */
    int valid_estimated;
    uint64_t valid_at_least;
    uint64_t samples;
} cutune_space_size;

/* cutune_progress_fn: told the share of a long job done so far (0 to 1, roughly);
 * returning nonzero stops the job early (counting then gives its estimate). */
typedef int (*cutune_progress_fn)(void *user, double done);

/* cutune_space_count: counts the space without listing it: exactly when that takes
 * at most the time bound, else an estimate with a lower bound (valid_estimated). Returns
 * CUTUNE_OK; CUTUNE_ESPEC when no configuration is valid (a diagnostic then points at
 * the constraint that empties the space); CUTUNE_EEVAL when a constraint fails to
 * evaluate for some configuration (a diagnostic says where and for which values). *out
 * is filled in all three cases (valid = 0 on errors). */
int cutune_space_count(cutune_space_size *out, cutune_spec *spec);

/* cutune_space_count_progress: cutune_space_count, calling `progress` (when not NULL)
 * with `user` now and then while it counts. */
int cutune_space_count_progress(cutune_space_size *out, cutune_spec *spec, cutune_progress_fn progress, void *user);

/* cutune_spec_restrict: restricts the space of the kernel block the spec holds to the
 * configurations configs[0 .. n), each "NAME=VALUE,NAME=VALUE..." (what `--config`
 * takes: a NAME is a param, a VALUE one of its values, read as the param's type). A
 * configuration that names only some params pins those and leaves the others free;
 * the space is then every configuration that one of them allows and the spec's
 * constraints allow. Counting, listing, analysing and tuning the block see only that;
 * the params' values (and so each configuration's key and the reference) stay as they
 * are. It holds for the block from now on, at every size and after the device's values
 * are read. CUTUNE_OK; CUTUNE_EINVAL, with the error object naming the configuration,
 * for a name that is no param of the block, a param named twice, a value that is not
 * one of the param's, a configuration the constraints exclude (a whole one: the
 * require it breaks), a block restricted already, or n < 1 (the spec is then
 * unchanged); CUTUNE_ENOMEM. */
int cutune_spec_restrict(cutune_spec *spec, const char *const *configs, int n);

/* cutune_spec_pick: what `--kernel NAME` and `--config` make of a loaded spec: the block
 * named `block` selected (cutune_spec_select_block; NULL: the selection is left), then,
 * with n > 0, its space restricted to configs[0 .. n) (cutune_spec_restrict). CUTUNE_OK;
 * CUTUNE_EINVAL for configurations without a block named in a spec of several ("--config:
 * PATH has N kernel blocks: name one with --kernel NAME"), for a spec with errors, and
 * as those two calls return it. */
int cutune_spec_pick(cutune_spec *spec, const char *block, const char *const *configs, int n);

/* A param's value, typed (cutune_variant.typed): an int param's in i (and f), a float
 * param's in f, a bool param's in b (0 or 1); s is its text, as the variant's values[]
 * (a string param's value). */
typedef struct cutune_param_value {
    int64_t i;
    double f;
    int b;
    const char *s;
} cutune_param_value;

/* A configuration and the variant it becomes. Every pointer is owned by the iterator
 * and valid until the next cutune_configs_next or cutune_configs_free. */
typedef struct cutune_variant {
    uint64_t ordinal; /* 0, 1, 2 ... in listing order */
    int nparams;
    const char *const *values; /* each param's value as text */
    const char *types;         /* each param's type: 'i', 'f', 'b' or 's' */
    int64_t block[3], grid[3]; /* unused dimensions are 1 */
    int block_dims, grid_dims;
    int64_t smem_bytes;         /* dynamic shared memory */
    const char *const *defines; /* "-DNAME=value" */
    int ndefines;
    const char *const *options; /* compile options: common ones, then per-variant */
    int noptions;
    int ncommon_options;
    const char *name_expression;     /* "kernel" or "kernel<...>" */
    const cutune_param_value *typed; /* each param's value, typed (nparams of them) */
} cutune_variant;

typedef struct cutune_configs cutune_configs;

/* cutune_configs_new: an iterator over the valid configurations in declaration order
 * (the last param varies fastest). The spec must be ok and must outlive it. */
int cutune_configs_new(cutune_configs **out, cutune_spec *spec);

/* cutune_configs_next: the next configuration in *out. Returns 1 when there is one, 0
 * at the end, or a negative status (CUTUNE_EEVAL with a diagnostic on the spec). */
int cutune_configs_next(const cutune_variant **out, cutune_configs *it);

/* cutune_configs_free: releases the iterator; NULL is a no-op. */
void cutune_configs_free(cutune_configs *it);

#ifdef __cplusplus
}
#endif

#endif
