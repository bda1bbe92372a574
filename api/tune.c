/* tune.c - cutune_tune: the facade over the tuning engine (tuner/): arguments checked,
 * the device asked for, the result and the run created and released, the results file
 * written. What a run does is tuner/tuner.h's. */
#include <stdio.h>

#include "../base/sys.h"
#include "../runtime/compile.h"
#include "../tuner/tuner.h"
#include "internal.h"

int cutune_tune(cutune_tune_result **out, cutune_spec *spec, const cutune_tune_options *opts)
{
    if (!out)
        return CUTUNE_EINVAL;
    *out = NULL;
    if (!spec || !opts || !cutune_spec_ok(spec))
        return CUTUNE_EINVAL;
    double t0 = sys_seconds();
    const model *m = spec->model;
    cutune_device dev;
    int rc = cutune_device_get(&dev, opts->device);
    if (rc < 0)
        return rc;
    if (!compile_supported_arch(dev.arch)) {
        diag_error_noloc(&spec->diags, "NVRTC cannot compile for this GPU's architecture %s", dev.arch);
        return CUTUNE_ECOMPILER;
    }
    dev_values dv; /* the device attributes the spec reads: this GPU's, before the space is counted */
    dev_values_from_device(&dv, &dev);
    if ((rc = api_spec_recheck(spec, &dv)) < 0)
        return rc;
    m = spec->model;
    cutune_space_size size;
    if ((rc = cutune_space_count(&size, spec)) < 0)
        return rc; /* an expression that fails, or an empty space: a diagnostic says which */
    bool flush = opts->flush_l2 < 0 ? m->measure.flush_l2 : opts->flush_l2 != 0;
    cutune_tune_result *res = result_new_for(spec->model, spec->path, &dev);
    tuner *t = NULL;
    if (!res)
        rc = CUTUNE_ENOMEM;
    else if ((rc = tuner_new(&t, spec, &size, opts, &dev, flush, res)) == CUTUNE_OK)
        rc = tuner_tune(t);
    if (res) {
        res->summary.wall_seconds = sys_seconds() - t0;
        result_finish(res, flush, &m->measure);
        const char *path = opts->results_path ? opts->results_path : m->emit.results_path;
        if (path && res->n > 0) {
            if (cutune_tune_write_results(res, path) == CUTUNE_OK)
                res->summary.results_path = arena_strdup(res->arena, path); /* NULL (not reported) only out of memory */
            else if (rc == CUTUNE_OK) {
                diag_error_noloc(&spec->diags, "%s", cutune_last_error());
                rc = CUTUNE_EIO;
            }
        }
    }
    tuner_free(t); /* the worker ends and the journal closes after the results are written */
    *out = res;
    return rc;
}
