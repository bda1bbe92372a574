/* emit.c - the public emitters (include/cutune.h): argument checks over emit/ (the
 * header, the CSV table, Kernel Tuner's T4 format), and where a spec says to emit. */
#include <stdlib.h>
#include <string.h>

#include "../emit/emitters.h"
#include "../emit/report.h"
#include "internal.h"

int cutune_emit_header(char **out, cutune_spec *spec, const cutune_tune_result *const *results, int nresults,
                       const cutune_header_options *opts)
{
    if (!out || nresults < 0 || (nresults > 0 && !results) || (nresults == 0 && !spec))
        return err_set(CUTUNE_EINVAL, "cutune_emit_header: no output, or neither results nor a spec");
    *out = NULL;
    if (spec && !cutune_spec_ok(spec))
        return err_set(CUTUNE_EINVAL, "cutune_emit_header: the spec has errors");
    /* The spec's device attributes as entry 0's run had them (its functions of the
     * problem size are written with them). */
    int rc = spec && nresults > 0 ? api_spec_recheck_recorded(spec, cutune_tune_device(results[0])) : CUTUNE_OK;
    if (rc < 0)
        return rc;
    return emit_header(out, spec, results, nresults, opts);
}

int cutune_emit_csv(char **out, const cutune_tune_result *r)
{
    if (!out || !r)
        return CUTUNE_EINVAL;
    return emit_csv(out, r);
}

int cutune_emit_t4(char **out, const cutune_tune_result *r)
{
    if (!out || !r)
        return CUTUNE_EINVAL;
    return emit_t4(out, r, cutune_version());
}

int cutune_emit_report(char **out, const cutune_tune_result *const *results, int nresults,
                       const cutune_report_options *opts)
{
    if (!out || nresults < 1 || !results)
        return err_set(CUTUNE_EINVAL, "cutune_emit_report: no output, or no results");
    *out = NULL;
    const char **files = calloc((size_t)nresults, sizeof *files);
    if (!files)
        return err_set(CUTUNE_ENOMEM, "cutune_emit_report: out of memory");
    for (int k = 0; k < nresults; k++) {
        if (!results[k]) {
            free(files);
            return err_set(CUTUNE_EINVAL, "cutune_emit_report: result %d is NULL", k);
        }
        const char *name = opts && opts->names ? opts->names[k] : NULL;
        files[k] = name ? name : results[k]->summary.results_path ? results[k]->summary.results_path : "(not written)";
    }
    int rc = emit_report(out, results, files, nresults, opts ? opts->title : NULL, cutune_version());
    free(files);
    if (rc != CUTUNE_OK)
        err_set(rc, "cutune_emit_report: out of memory");
    return rc;
}

const char *cutune_spec_emit_path(const cutune_spec *spec, const char *kind)
{
    if (!spec || !spec->model || !kind)
        return NULL;
    const m_emit *em = &spec->model->emit;
    return strcmp(kind, "header") == 0 ? em->header_path : strcmp(kind, "results") == 0 ? em->results_path
                                       : strcmp(kind, "csv") == 0                       ? em->csv_path
                                                                                        : NULL;
}
