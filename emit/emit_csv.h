/* emit_csv.h - a tuning result (results/) as a CSV table (emit_csv.c; the columns:
 * docs/results-format.md), for cutune_emit_csv (api/cutune_emit.c).
 *
 * Ownership: returns a heap string in *out that the caller frees (free, or the public
 * free at the API). */
#ifndef CUTUNE_EMIT_EMIT_CSV_H
#define CUTUNE_EMIT_EMIT_CSV_H

#include "../results/result.h"

/* emit_csv: the records of r as a CSV table (header row, one row per record, CRLF).
 * CUTUNE_OK with *out, or CUTUNE_ENOMEM. */
int emit_csv(char **out, const cutune_tune_result *r);

#endif
