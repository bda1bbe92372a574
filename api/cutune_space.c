/* cutune_space.c - cutune/space.h: a spec's space counted (compiler/spec_count.c) and
 * its valid configurations listed, each planned into the variant it becomes (session/'s
 * planner, the one the tuner uses). */
#include "cutune.h"

#include <stdint.h>
#include <stdlib.h>

#include "../compiler/space.h"
#include "internal.h"

int cutune_space_count_progress(cutune_space_size *out, cutune_spec *spec, cutune_progress_fn progress, void *user)
{
    if (!spec || !out || !cutune_spec_ok(spec))
        return CUTUNE_EINVAL;
    return spec_count(out, spec, progress, user);
}

int cutune_space_count(cutune_space_size *out, cutune_spec *spec)
{
    return cutune_space_count_progress(out, spec, NULL, NULL);
}

int cutune_spec_restrict(cutune_spec *spec, const char *const *configs, int n)
{
    if (!spec || !cutune_spec_ok(spec))
        return err_set(CUTUNE_EINVAL, "cutune_spec_restrict: %s", spec ? "the spec has errors" : "no spec");
    return spec_restrict(spec, configs, n);
}

int cutune_spec_pick(cutune_spec *spec, const char *block, const char *const *configs, int n)
{
    if (!spec || !cutune_spec_ok(spec))
        return err_set(CUTUNE_EINVAL, "cutune_spec_pick: %s", spec ? "the spec has errors" : "no spec");
    int blocks = cutune_spec_kernel_count(spec), rc = CUTUNE_OK;
    if (n > 0 && !block && blocks > 1)
        return err_set(CUTUNE_EINVAL, "--config: %s has %d kernel blocks: name one with --kernel NAME",
                       cutune_spec_path(spec), blocks);
    if (block && (rc = cutune_spec_select_block(spec, block)) != CUTUNE_OK)
        return rc;
    return n > 0 ? cutune_spec_restrict(spec, configs, n) : CUTUNE_OK;
}

struct cutune_configs {
    cutune_spec *spec;
    space *space;
    space_iter *iter;
    arena *scratch; /* strings of the current variant; reset per configuration */
    cutune_variant v;
    const char **values;
    char *types;
};

int cutune_configs_new(cutune_configs **out, cutune_spec *spec)
{
    if (!out || !spec || !cutune_spec_ok(spec))
        return CUTUNE_EINVAL;
    *out = NULL;
    cutune_configs *it = calloc(1, sizeof *it);
    if (!it)
        return CUTUNE_ENOMEM;
    int n = spec->model->nparams;
    it->spec = spec;
    it->scratch = arena_new();
    it->values = calloc((size_t)n + 1, sizeof(char *));
    it->types = calloc((size_t)n + 1, 1);
    if (!it->scratch || !it->values || !it->types || space_new(&it->space, spec->model, NULL, 0) < 0 ||
        space_iter_new(&it->iter, it->space) < 0) {
        cutune_configs_free(it);
        return CUTUNE_ENOMEM;
    }
    for (int i = 0; i < n; i++)
        it->types[i] = vtype_name(spec->model->params[i].dom.type)[0];
    it->v.ordinal = UINT64_MAX;
    *out = it;
    return CUTUNE_OK;
}

int cutune_configs_next(const cutune_variant **out, cutune_configs *it)
{
    const uint64_t *idx;
    const value *vals;
    eval_error err;
    int rc = space_iter_next(it->iter, &idx, &vals, &err);
    if (rc < 0)
        return spec_eval_failed(it->spec, &err);
    if (rc == 0)
        return 0;
    arena_reset(it->scratch);
    int st = session_variant_of(it->spec->model, &it->spec->diags, vals, it->scratch, it->values, it->types,
                                it->v.ordinal + 1, &it->v);
    if (st < 0)
        return st;
    *out = &it->v;
    return 1;
}

void cutune_configs_free(cutune_configs *it)
{
    if (!it)
        return;
    space_iter_free(it->iter);
    space_free(it->space);
    arena_free(it->scratch);
    free(it->values);
    free(it->types);
    free(it);
}
