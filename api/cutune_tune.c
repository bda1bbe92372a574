/* cutune_tune.c - cutune/tune.h: cutune_tune, the facade over the tuning engine
 * (tuner/): arguments checked, the device asked for, one run (or one per problem size:
 * tuner/sizes.c) made, the results file written; the search strategies' names; the
 * hardware counters' default set and a chip's names. What a run does is tuner/tuner.h's. */
#include <stdio.h>
#include <string.h>

#include "../base/sys.h"
#include "../compiler/space.h"
#include "../runtime/compile.h"
#include "../runtime/profiler.h"
#include "../tuner/tuner.h"
#include "internal.h"

int cutune_tune(cutune_tune_result **out, cutune_spec *spec, const cutune_tune_options *opts)
{
    if (!out)
        return CUTUNE_EINVAL;
    *out = NULL;
    if (!spec || !opts || !cutune_spec_ok(spec))
        return CUTUNE_EINVAL;
    int rc = api_options_ok(opts, CUTUNE_TUNE_OPTIONS_VERSION, "cutune_tune_options");
    if (rc < 0 || (rc = api_options_ok(&opts->search, CUTUNE_SEARCH_OPTIONS_VERSION, "cutune_search_options")) < 0)
        return rc;
    if (opts->shard_count > 1 && (opts->shard_index < 0 || opts->shard_index >= opts->shard_count))
        return err_set(CUTUNE_EINVAL, "shard %d of %d: the index runs from 0 to %d", opts->shard_index,
                       opts->shard_count, opts->shard_count - 1);
    if (opts->ndevices > CUTUNE_MAX_DEVICES)
        return err_set(CUTUNE_EINVAL, "at most %d GPUs at once, not %d", CUTUNE_MAX_DEVICES, opts->ndevices);
    if (opts->ndevices > 1 && !opts->devices)
        return err_set(CUTUNE_EINVAL, "%d GPUs asked for, but no list of them (cutune_tune_options.devices)",
                       opts->ndevices);
    /* A results path that leaves the spec's folder, not allowed by the caller: refused
     * before anything runs, not after the tuning it would have held. */
    const char *refusal = opts->results_path ? NULL : cutune_spec_emit_refused(spec, "results");
    if (refusal)
        return err_set(CUTUNE_EINVAL, "%s", refusal);
    double t0 = sys_seconds();
    const model *m = spec->model;
    cutune_device dev;
    rc = cutune_device_get(&dev, opts->ndevices > 1 ? opts->devices[0] : opts->device);
    if (rc < 0)
        return rc;
    for (int k = 1; k < opts->ndevices; k++) { /* one result set needs one model of GPU */
        cutune_device other;
        if ((rc = cutune_device_get(&other, opts->devices[k])) < 0)
            return rc;
        if (!cutune_device_same_model(&other, &dev))
            return err_set(CUTUNE_EINVAL, "GPU %d (%s, %s, %d SMs) is not the model of GPU %d (%s, %s, %d SMs): one "
                           "result needs GPUs of one model; tune on each (cutune --per-device)", opts->devices[k],
                           other.name, other.arch, other.sm_count, opts->devices[0], dev.name, dev.arch, dev.sm_count);
    }
    if (!compile_supported_arch(dev.arch)) {
        diag_error_noloc(&spec->diags, "NVRTC cannot compile for this GPU's architecture %s", dev.arch);
        return CUTUNE_ECOMPILER;
    }
    dev_values dv; /* the device attributes the spec reads: this GPU's, before the space is counted */
    dev_values_from_device(&dv, &dev);
    if ((rc = api_spec_recheck(spec, &dv)) < 0)
        return rc;
    m = spec->model;
    cutune_tune_options resolved; /* the hardware counters' names, checked */
    if ((rc = counters_options(spec, opts, dev.arch, &resolved)) < 0)
        return rc;
    opts = &resolved;
    bool flush = opts->flush_l2 < 0 ? m->measure.flush_l2 : opts->flush_l2 != 0;
    cutune_tune_result *res = NULL;
    if (spec_size_count(spec) > 1 && !opts->one_size) {
        /* One run per problem size (tuner/sizes.c), each a result the run's adopts. */
        if (!(res = result_new_for(m, spec->path, &dev)) ||
            result_set_profile(res, opts->profile_metrics, opts->profile_top ? opts->nprofile_metrics : 0,
                               opts->profile_top) < 0) {
            cutune_tune_result_free(res);
            return CUTUNE_ENOMEM;
        }
        if (opts->shard_count > 1) { /* the parent of a sharded run over sizes */
            res->shard_index = opts->shard_index;
            res->shard_count = opts->shard_count;
            res->shard_block = (int)space_shard_block(m);
        }
        rc = sizes_run_all(res, spec, opts, &dev, flush);
    } else {
        rc = sizes_run_one(&res, spec, opts, &dev, flush);
    }
    if (res) {
        res->summary.wall_seconds = sys_seconds() - t0;
        const char *path = opts->results_path ? opts->results_path : cutune_spec_emit_path(spec, "results");
        if (path && (res->n > 0 || res->nsizes > 0)) {
            if (cutune_tune_write_results(res, path) == CUTUNE_OK)
                res->summary.results_path = arena_strdup(res->arena, path); /* NULL (not reported) only out of memory */
            else if (rc == CUTUNE_OK) {
                diag_error_noloc(&spec->diags, "%s", cutune_last_error());
                rc = CUTUNE_EIO;
            }
        }
    }
    *out = res;
    return rc;
}

const char *const *cutune_strategy_list(void) { return strategy_names(); }

/* ---- hardware counters: the default set and a chip's names (runtime/profiler, CUPTI;
 * the profiling phase of a run is tuner/counters.c's) ------------------------------ */

int cutune_profile_default_metrics(const char *const **names)
{
    if (names)
        *names = prof_default_names;
    return PROF_NDEFAULT;
}

const char *cutune_profile_nvprof_name(const char *metric)
{
    return prof_nvprof_name(metric);
}

int cutune_profile_list(const char *arch, void (*each)(void *user, const char *name, const char *kind), void *user)
{
    if (!each)
        return CUTUNE_EINVAL;
    const char *chip = prof_chip_of_arch(arch ? arch : "sm_90");
    if (!chip)
        return err_set(CUTUNE_EINVAL, "cutune does not know CUPTI's chip for %s", arch);
    if (prof_list(chip, each, user) < 0)
        return err_recode(CUTUNE_ENODEV);
    return CUTUNE_OK;
}

const char *cutune_profile_chip(const char *arch)
{
    return prof_chip_of_arch(arch ? arch : "sm_90");
}

int cutune_profile_check(const char *arch, const char *const *names, int n)
{
    if (!names || n < 0)
        return CUTUNE_EINVAL;
    const char *chip = prof_chip_of_arch(arch ? arch : "sm_90");
    if (!chip)
        return err_set(CUTUNE_EINVAL, "cutune does not know CUPTI's chip for %s", arch);
    int bad = -1;
    int rc = prof_check_names(chip, names, n, &bad);
    if (rc < 0)
        return err_recode(CUTUNE_ENODEV);
    if (rc > 0)
        return err_recode(CUTUNE_EINVAL);
    return CUTUNE_OK;
}
