/* verdict.h - what a tuning command says about a run at its end, as text (prefix
 * verdict_), for any application: the ranking of the variants timed in full, each
 * problem size's best, each GPU's part of a run on several GPUs (cutune --per-device),
 * the verdict of a finished run, and that of a run that could not tune for want of a
 * GPU; and of an analysis of which nothing can run. The public calls are
 * cutune_tune_ranking_text, cutune_tune_best_text, cutune_device_run_text,
 * cutune_tune_verdict_text and cutune_untuned_text (include/cutune/tune.h,
 * api/cutune_tune_run.c), which `cutune SPEC` prints, and cutune_analyze_verdict_text
 * (include/cutune/analyze.h, api/cutune_analyze.c), which `cutune analyze` prints too;
 * their contracts there say what each line holds.
 *
 * Ownership: each returns a heap string (the caller frees it), NULL out of memory; the
 * results are borrowed. */
#ifndef CUTUNE_EMIT_VERDICT_H
#define CUTUNE_EMIT_VERDICT_H

#include "../results/result.h"

/* verdict_ranking: the `top` best of r (a table each size's, under its "size" line, for
 * a run over sizes); "" when top <= 0. */
char *verdict_ranking(const cutune_tune_result *r, int top);

/* verdict_best: the best line of r's size k (of r itself without sizes: k 0), "" when
 * none won; *note (may be NULL): why its energy was not measured, a line ("" when
 * nothing). */
char *verdict_best(const cutune_tune_result *r, int k, char **note);

/* verdict_device_run: runs[i]'s line (its result read back), and in *spread its
 * times over those of the first run before it with a result ("" when none). */
char *verdict_device_run(const cutune_device_run *runs, int i, char **spread);

/* verdict_of_run: a finished run's verdict v (cutune_tune_verdict_text). */
char *verdict_of_run(const cutune_tune_verdict *v);

/* verdict_untuned: the verdict of a run without a GPU (cutune_untuned_text). */
char *verdict_untuned(const cutune_untuned *u);

/* verdict_nothing_runs: that no variant of the analysis `sum` can run, with the counts
 * (cutune_analyze_verdict_text); "" when some can. */
char *verdict_nothing_runs(const cutune_analyze_summary *sum);

#endif
