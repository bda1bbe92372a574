/* account.h - a tuning run's account as text (prefix account_): cutune_tune_account and
 * cutune_tune_warnings (api/cutune_tune.c), which `cutune SPEC` prints on stderr.
 *
 * The account: the device and the outcomes by kind (compile errors among the failures;
 * where in the space the wrong variants, and those that failed on the GPU, lie: failures.h),
 * twins not run, where the time went (NVRTC, the GPU, the bound; the run's phases and
 * the GPU workers' time by what they did, as tables), the GPUs of a run on
 * several and their spread, the reference, the files, the search and the journal, and
 * warnings about the cache and the compile pool. The warnings: what needs attention
 * also when nothing else is shown: variants that found an `in` argument changed (a
 * kernel writes into an input), journal lines not trusted, an interruption, a trace
 * file (CUTUNE_TRACE) that could not be opened. */
#ifndef CUTUNE_EMIT_ACCOUNT_H
#define CUTUNE_EMIT_ACCOUNT_H

#include "../results/result.h"

/* account_text / account_warnings: r's account, or its warnings ("" when none), as
 * text of whole lines (malloc'd; NULL out of memory). */
char *account_text(const cutune_tune_result *r);
char *account_warnings(const cutune_tune_result *r);

#endif
