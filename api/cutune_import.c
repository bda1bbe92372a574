/* cutune_import.c - cutune/import.h: other tools' files as cutune results, the facade
 * over import/ (argument checks, the options, the error object); the reading and
 * checking is import/kt.c's. */
#include "../import/kt.h"
#include "../results/result.h"
#include "internal.h"

int cutune_import_results(cutune_tune_result **out, cutune_spec *spec, const char *path,
                          const cutune_import_options *opts)
{
    if (!out)
        return err_set(CUTUNE_EINVAL, "cutune_import_results: no output");
    *out = NULL;
    if (!spec || !path)
        return err_set(CUTUNE_EINVAL, "cutune_import_results: no spec or path");
    if (!cutune_spec_ok(spec))
        return err_set(CUTUNE_EINVAL, "cutune_import_results: the spec has errors (see its diagnostics)");
    int rc = api_options_ok(opts, CUTUNE_IMPORT_OPTIONS_VERSION, "cutune_import_options");
    if (rc < 0)
        return rc;
    kt_options ko = {opts ? opts->device_name : NULL, opts && opts->complete};
    return kt_import(out, spec->model, spec->path, path, &ko);
}

const char *cutune_tune_source(const cutune_tune_result *r)
{
    return r ? r->source_line : NULL;
}
