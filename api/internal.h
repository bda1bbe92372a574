/* internal.h - what the API's files share; not part of the public interface. */
#ifndef CUTUNE_API_INTERNAL_H
#define CUTUNE_API_INTERNAL_H

#include "cutune.h"

#include <stdbool.h>

#include "../compiler/plan.h"
#include "../lang/diag.h"
#include "../tuner/session.h"

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

/* The compile session's types under the names the API's files use (kept for them;
 * tuner/session.h says what they are). */
typedef session_binary analyze_binary;
typedef session_each analyze_each;

/* api_analyze: cutune_analyze, optionally keeping every distinct binary in memory so
 * that `each` can run it (the tuner). */
int api_analyze(cutune_spec *spec, const cutune_analyze_options *opts, analyze_each each, void *user,
                bool keep_binaries, cutune_analyze_summary *summary);

/* api_variant_of: session_variant_of for `spec` (its model; a failed expression is a
 * diagnostic on it). Shared by the configuration iterator, the analyser's batches and
 * the header emitter. */
static inline int api_variant_of(cutune_spec *spec, const value *vals, arena *scratch, const char **values,
                                 const char *types, uint64_t ordinal, cutune_variant *v)
{
    return session_variant_of(spec->model, &spec->diags, vals, scratch, values, types, ordinal, v);
}

/* api_set_error: sets the calling thread's last error message (cutune_last_error). */
void api_set_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
