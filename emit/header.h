/* header.h - the best-config C header of tuning results (header.c with header_text.c,
 * header_table.c, header_sizes.c and header_check.c, prefix hdr_; docs/header.md), for
 * cutune_emit_header (api/cutune_emit.c). What those files share is header_internal.h.
 *
 * Ownership: returns a heap string in *out that the caller frees (free, or the public
 * free at the API). */
#ifndef CUTUNE_EMIT_HEADER_H
#define CUTUNE_EMIT_HEADER_H

#include "cutune.h"
#include "../compiler/hnames.h"
#include "../results/result.h"

/* hdr_emit: the public emitter's work (include/cutune.h says what it writes);
 * errors set the error object (base/err.h). */
int hdr_emit(char **out, cutune_spec *spec, const cutune_tune_result *const *results, int nresults,
             const cutune_header_options *opts);

/* hdr_emit_names: every name the header hdr_emit would write for these arguments
 * defines (compiler/hnames.h), into *out (hn_free it), after the same checks (a name
 * clash within the header is refused here too). CUTUNE_OK or an error as hdr_emit's. */
int hdr_emit_names(hn_list **out, cutune_spec *spec, const cutune_tune_result *const *results, int nresults,
                   const cutune_header_options *opts);

#endif
