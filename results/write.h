/* write.h - a tuning result written as a results file (format cutune-results,
 * version 1: docs/results-format.md). */
#ifndef CUTUNE_RESULTS_WRITE_H
#define CUTUNE_RESULTS_WRITE_H

#include <stddef.h>

#include "result.h"

/* results_write: writes r to `path` through the one file writer (sys_write_text: a
 * unique temporary, synced, renamed), "cutune" set to `version`. Returns CUTUNE_OK, or
 * CUTUNE_ENOMEM / CUTUNE_EIO with the message, naming the path, in the error object
 * (base/err.h). */
int results_write(const cutune_tune_result *r, const char *path, const char *version);

/* results_text: r as the text results_write writes, in *out (the caller's; free it).
 * CUTUNE_OK, or CUTUNE_ENOMEM (*out NULL; the error object untouched). */
int results_text(char **out, const cutune_tune_result *r, const char *version);

/* The keys of a summary's "phases" (cutune_phase) and "gpu_work" (cutune_work) objects. */
extern const char *const results_phase_keys[CUTUNE_PHASE_COUNT];
extern const char *const results_work_keys[CUTUNE_WORK_COUNT];

#endif
