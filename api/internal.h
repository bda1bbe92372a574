/* internal.h - what the API's files share; not part of the public interface. */
#ifndef CUTUNE_API_INTERNAL_H
#define CUTUNE_API_INTERNAL_H

#include "cutune.h"

#include "../compiler/plan.h"
#include "../lang/diag.h"

/* A loaded spec: one arena holds the source, the syntax tree, the model and the
 * diagnostics' messages. */
struct cutune_spec {
    arena *arena;
    const src_file *src;
    ast_spec *ast;
    model *model;
    diag_list diags;
    strbuf rendered;
    const char *path;
    bool loaded_ok;   /* parsed and checked without error; later diagnostics (an empty
                         space, a failed expression) do not change it */
};

/* api_eval_failed: records an evaluation error as a diagnostic on the spec; returns
 * CUTUNE_EEVAL. */
int api_eval_failed(cutune_spec *spec, const eval_error *err);

/* api_set_error: sets the calling thread's last error message (cutune_last_error). */
void api_set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
