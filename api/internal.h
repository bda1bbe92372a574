/* internal.h - what the API's files share; not part of the public interface. */
#ifndef CUTUNE_API_INTERNAL_H
#define CUTUNE_API_INTERNAL_H

#include "cutune.h"

#include <stdbool.h>

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
    uint64_t text_hash; /* XXH3 of the spec's text and its --set overrides (journal identity) */
};

/* api_eval_failed: records an evaluation error as a diagnostic on the spec; returns
 * CUTUNE_EEVAL. */
int api_eval_failed(cutune_spec *spec, const eval_error *err);

/* A variant's binary, for callers of api_analyze that run it. */
typedef struct analyze_binary {
    const unsigned char *cubin;
    size_t cubin_size;
    const char *symbol;        /* the kernel's lowered name */
} analyze_binary;

/* Called for each variant in listing order; `bin` is NULL unless binaries are kept and
 * the variant compiled. Return non-zero to stop. */
typedef int (*analyze_each)(void *user, const cutune_analysis *a, const analyze_binary *bin);

/* api_analyze: cutune_analyze, optionally keeping every distinct binary in memory so
 * that `each` can run it (the tuner). */
int api_analyze(cutune_spec *spec, const cutune_analyze_options *opts, analyze_each each, void *user,
                bool keep_binaries, cutune_analyze_summary *summary);

/* api_variant_of: plans configuration `vals` (a value per param) of `spec` as variant
 * `*v` numbered `ordinal`: its values as text go to `values` (nparams slots), its text
 * and plan into `scratch`; `types` is borrowed. Returns 0, CUTUNE_ENOMEM, or CUTUNE_EEVAL
 * with a diagnostic on the spec. Shared by the configuration iterator and the analyser's
 * batches. */
int api_variant_of(cutune_spec *spec, const value *vals, arena *scratch, const char **values, const char *types,
                   uint64_t ordinal, cutune_variant *v);

/* api_set_error: sets the calling thread's last error message (cutune_last_error). */
void api_set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
