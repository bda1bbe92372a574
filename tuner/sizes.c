/* sizes.c - tuning over problem sizes (the spec's `size` statement): one tuning run
 * (tuner.c and the one loop, run.c) per size, above that loop, each into a result of its
 * own that the run's result adopts (results/result.h). What is shared across sizes: the
 * compile cache (a variant whose code does not depend on the size is compiled once and
 * read from the cache at the other sizes) and the device. What is not: the reference's
 * run, the journal (one per size: a size is part of a journal's identity), the search. */
#include <stdio.h>
#include <string.h>

#include "../base/sys.h"
#include "../compiler/space.h"
#include "run.h"
#include "sizes.h"

int sizes_run_one(cutune_tune_result **out, cutune_spec *spec, const cutune_tune_options *opts,
                  const cutune_device *dev, bool flush, phases *clock)
{
    double t0 = sys_seconds();
    const model *m = spec->model;
    *out = NULL;
    cutune_space_size size;
    int rc = spec_count(&size, spec, NULL, NULL);
    if (rc < 0)
        return rc; /* an expression that fails, or an empty space: a diagnostic says which */
    cutune_tune_result *res = result_new_for(m, spec->path, dev);
    tuner *t = NULL;
    if (!res || result_set_profile(res, opts->profile_metrics, opts->profile_top ? opts->nprofile_metrics : 0,
                                   opts->profile_top) < 0) {
        result_destroy(res);
        return CUTUNE_ENOMEM;
    }
    if (opts->shard_count > 1) {
        res->shard_index = opts->shard_index;
        res->shard_count = opts->shard_count;
        res->shard_block = (int)space_shard_block(m);
    }
    if (m->sizes.nvars > 0) {
        const char *names[MODEL_MAX_SIZE_VARS];
        for (int j = 0; j < m->sizes.nvars; j++)
            names[j] = m->lets[m->sizes.lets[j]].name;
        if (result_set_size(res, m->sizes.nvars, names, &m->sizes.values[m->sizes.selected * m->sizes.nvars]) < 0) {
            result_destroy(res);
            return CUTUNE_ENOMEM;
        }
    }
    res->clock = clock;
    if ((rc = tuner_new(&t, spec, &size, opts, dev, flush, res)) == CUTUNE_OK)
        rc = run_tune(t);
    res->summary.wall_seconds = sys_seconds() - t0;
    result_finish(res, flush, &m->measure);
    int was = clock ? phases_enter(clock, CUTUNE_PHASE_DEVICE) : 0; /* the workers let go (not awaited) */
    tuner_free(t);                                                  /* the workers end and the journal closes */
    if (clock)
        phases_enter(clock, was);
    res->clock = NULL; /* the run's, not the result's */
    *out = res;
    return rc;
}

/* The journal of size `label` of a run whose journal is `base`: "x.json.journal" gives
 * "x.json.n=4096.journal"; a path not ending in ".journal" gets ".n=4096" appended. */
static const char *size_journal(arena *a, const char *base, const char *label)
{
    size_t n = strlen(base), suffix = strlen(".journal");
    if (n > suffix && strcmp(base + n - suffix, ".journal") == 0)
        return arena_printf(a, "%.*s.%s.journal", (int)(n - suffix), base, label);
    return arena_printf(a, "%s.%s", base, label);
}

int sizes_run_all(cutune_tune_result *parent, cutune_spec *spec, const cutune_tune_options *opts,
                  const cutune_device *dev, bool flush)
{
    int first = spec->model->sizes.selected, nsizes = spec_size_count(spec);
    const char *results = opts->results_path ? opts->results_path : spec->model->emit.results_path;
    const char *base = opts->journal_path;
    if (!base && results && !(base = arena_printf(parent->arena, "%s.journal", results)))
        return CUTUNE_ENOMEM;
    int rc = CUTUNE_OK;
    for (int k = 0; k < nsizes && rc == CUTUNE_OK; k++) {
        if ((rc = spec_select_size(spec, k)) < 0)
            break; /* an error at this size only: a diagnostic names it */
        cutune_tune_options o = *opts;
        const char *label = spec_size_label(spec, k);
        if (!label)
            return CUTUNE_ENOMEM;
        if (base && *base && !(o.journal_path = size_journal(parent->arena, base, label)))
            return CUTUNE_ENOMEM;
        cutune_tune_result *res = NULL;
        rc = sizes_run_one(&res, spec, &o, dev, flush, parent->clock);
        if (res && result_adopt_size(parent, res) < 0)
            rc = CUTUNE_ENOMEM;
        if (res && res->summary.interrupted)
            break; /* Ctrl-C: the sizes not begun are not begun */
    }
    if (spec_select_size(spec, first) < 0 && rc == CUTUNE_OK)
        rc = CUTUNE_ENOMEM;
    return rc;
}
