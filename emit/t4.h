/* t4.h - a tuning result (results/) in Kernel Tuner's T4 format (t4.c, prefix t4_;
 * docs/results-format.md), for cutune_emit_t4 (api/cutune_emit.c).
 *
 * Ownership: returns a heap string in *out that the caller frees (free, or the public
 * free at the API). */
#ifndef CUTUNE_EMIT_T4_H
#define CUTUNE_EMIT_T4_H

#include "../base/sys.h"
#include "../results/result.h"
#include "../results/scan.h"

/* t4_emit: r in the T4 format, `version` as cutune's in its requirements. CUTUNE_OK
 * with *out, or CUTUNE_ENOMEM. */
int t4_emit(char **out, const cutune_tune_result *r, const char *version);

/* t4_emit_scan: the same bytes as t4_emit of the scanned file, written to `out` (named
 * `output_name` in messages) entry by entry as the scan reads them (results/scan.h):
 * memory stays near one entry's, whatever the run's size. The caller commits or aborts
 * `out`. CUTUNE_OK; CUTUNE_EIO (the file refused by the scan, or a write failed);
 * CUTUNE_ENOMEM; a failure sets the error object (base/err.h). */
int t4_emit_scan(results_scan *scan, sys_stream *out, const char *output_name, const char *version);

#endif
