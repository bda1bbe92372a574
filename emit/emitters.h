/* emitters.h - the stage that owns output: a tuning result (results/) turned into the
 * files users keep: a C header of the winners (header*.c, docs/header.md), a CSV table
 * (emit_csv.c) and Kernel Tuner's T4 format (t4.c) (docs/results-format.md). The public
 * cutune_emit_* functions (api/cutune_emit.c) check arguments and call these.
 *
 * Ownership: each returns a heap string in *out that the caller frees (free, or
 * the public free at the API). */
#ifndef CUTUNE_EMIT_EMITTERS_H
#define CUTUNE_EMIT_EMITTERS_H

#include "cutune.h"
#include "../compiler/hnames.h"
#include "../base/sys.h"
#include "../results/result.h"
#include "../results/scan.h"

/* emit_csv: the records of r as a CSV table (header row, one row per record, CRLF).
 * CUTUNE_OK with *out, or CUTUNE_ENOMEM. */
int emit_csv(char **out, const cutune_tune_result *r);

/* t4_emit: r in the T4 format, `version` as cutune's in its requirements. CUTUNE_OK
 * with *out, or CUTUNE_ENOMEM. */
int t4_emit(char **out, const cutune_tune_result *r, const char *version);

/* t4_emit_scan: the same bytes as t4_emit of the scanned file, written to `out` (named
 * `output_name` in messages) entry by entry as the scan reads them (results/scan.h):
 * memory stays near one entry's, whatever the run's size. The caller commits or aborts
 * `out`. CUTUNE_OK; CUTUNE_EIO (the file refused by the scan, or a write failed);
 * CUTUNE_ENOMEM; a failure sets the error object (base/err.h). */
int t4_emit_scan(results_scan *scan, sys_stream *out, const char *output_name, const char *version);

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
