/* spec.h - a loaded spec: what the front end (lang/, compiler/) makes of a .tune file,
 * and what every stage above reads. The public API hands it out, opaque, as
 * `cutune_spec` (include/cutune.h); api/front.c makes and frees it.
 *
 * Ownership: one arena holds the source, the syntax tree, the model and the
 * diagnostics' messages; `rendered` is heap. Stages above the compiler borrow a spec
 * and may add diagnostics to it; they never free it. */
#ifndef CUTUNE_COMPILER_SPEC_H
#define CUTUNE_COMPILER_SPEC_H

#include <stdbool.h>
#include <stdint.h>

#include "cutune.h"

#include "../base/arena.h"
#include "../base/strbuf.h"
#include "../lang/ast.h"
#include "../lang/diag.h"
#include "../lang/src.h"
#include "eval.h"
#include "model.h"
#include "sema.h"

struct cutune_spec {
    arena *arena;
    const src_file *src;
    ast_spec *ast;
    model *model;
    diag_list diags;
    strbuf rendered;
    const char *path;
    bool loaded_ok;     /* parsed and checked without error; later diagnostics (an empty
                           space, a failed expression) do not change it */
    uint64_t text_hash; /* XXH3 of the spec's text and its --set overrides (journal identity) */
    sema_options checked_with; /* the check's options (its device NULL; the values are the
                                  model's): api/spec_device.c checks again for another device */
};

/* spec_eval_failed: records an evaluation error as a diagnostic on the spec, at the
 * failing operation; returns CUTUNE_EEVAL. */
int spec_eval_failed(cutune_spec *spec, const eval_error *err);

/* spec_render: the spec's diagnostics from the `from`-th on, rendered (with ANSI
 * colours when `color`) into spec->rendered; NULL when out of memory. Valid until the
 * next render. */
const char *spec_render(cutune_spec *spec, int from, bool color);

#endif
