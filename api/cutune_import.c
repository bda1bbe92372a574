/* cutune_import.c - cutune/import.h: other tools' files as cutune results or specs, the
 * facade over import/ (argument checks, the options, the error object, the objects'
 * life); the reading and checking is import/kt.c's, a T1 file's translation import/t1.c's. */
#include <stdlib.h>
#include <string.h>

#include "../base/strbuf.h"
#include "../import/kt.h"
#include "../import/t1.h"
#include "../results/result.h"
#include "internal.h"

int cutune_import_block(cutune_spec *spec, const char *name)
{
    if (!spec || !cutune_spec_ok(spec))
        return err_set(CUTUNE_EINVAL, "cutune_import_block: %s", spec ? "the spec has errors" : "no spec");
    if (name)
        return cutune_spec_select_block(spec, name);
    int n = cutune_spec_kernel_count(spec);
    if (n <= 1)
        return CUTUNE_OK;
    strbuf sb = STRBUF_INIT;
    api_spec_blocks(&sb, spec);
    int rc = err_set(CUTUNE_EINVAL, "%s has %d kernel blocks (%s): a recording is of one; name it with --kernel NAME",
                     cutune_spec_path(spec), n, sb_ok(&sb) ? sb_cstr(&sb) + 1 : "...");
    sb_free(&sb);
    return rc;
}

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

int cutune_import_results_to(char **said, cutune_spec *spec, const char *path, const char *output,
                             const cutune_import_options *opts)
{
    if (said)
        *said = NULL;
    if (!output)
        return err_set(CUTUNE_EINVAL, "cutune_import_results_to: no output");
    bool to_stdout = strcmp(output, "-") == 0;
    cutune_tune_result *r = NULL;
    int rc = cutune_import_results(&r, spec, path, opts);
    if (rc == CUTUNE_OK)
        rc = cutune_tune_write_results(r, output); /* "-": standard output */
    if (rc == CUTUNE_OK && said) {
        strbuf sb = STRBUF_INIT;
        const char *source = cutune_tune_source(r);
        if (source)
            sb_printf(&sb, "%s\n", source);
        if (!to_stdout)
            sb_printf(&sb, "results: %s\n", output);
        if (!(*said = sb_steal(&sb)))
            rc = err_set(CUTUNE_ENOMEM, "out of memory");
        sb_free(&sb);
    }
    cutune_tune_result_free(r);
    return rc;
}

const char *cutune_tune_source(const cutune_tune_result *r)
{
    return r ? r->source_line : NULL;
}

struct cutune_import {
    t1_result *r;
};

int cutune_import_t1(cutune_import **out, const char *t1_path, const char *spec_path)
{
    if (!out)
        return err_set(CUTUNE_EINVAL, "cutune_import_t1: out is NULL");
    *out = NULL;
    if (!t1_path)
        return err_set(CUTUNE_EINVAL, "cutune_import_t1: no T1 file given");
    cutune_import *imp = calloc(1, sizeof *imp);
    if (!imp)
        return err_set(CUTUNE_ENOMEM, "out of memory");
    if (t1_import(&imp->r, t1_path, spec_path, NULL) != 0) {
        free(imp);
        return err_last() ? err_last()->code : CUTUNE_EIO;
    }
    *out = imp;
    if (imp->r->nerrors > 0)
        return err_set(CUTUNE_ESPEC, "%s%s", imp->r->errors[0],
                       imp->r->nerrors > 1 ? " (and more: cutune_import_error)" : "");
    return CUTUNE_OK;
}

const char *cutune_import_text(const cutune_import *imp)
{
    return imp ? imp->r->text : NULL;
}

int cutune_import_error_count(const cutune_import *imp)
{
    return imp ? imp->r->nerrors : 0;
}

const char *cutune_import_error(const cutune_import *imp, int i)
{
    return imp && i >= 0 && i < imp->r->nerrors ? imp->r->errors[i] : NULL;
}

int cutune_import_note_count(const cutune_import *imp)
{
    return imp ? imp->r->nnotes : 0;
}

const char *cutune_import_note(const cutune_import *imp, int i)
{
    return imp && i >= 0 && i < imp->r->nnotes ? imp->r->notes[i] : NULL;
}

void cutune_import_free(cutune_import *imp)
{
    if (!imp)
        return;
    t1_result_free(imp->r);
    free(imp);
}
