/* rank.h - a run's variants ranked by the objective, and two runs' same variants
 * compared (prefix rank_): what `cutune SPEC` prints as its ranking and as the spread
 * between GPUs (--per-device), and cutune_tune_rank and cutune_tune_spread hand an
 * application.
 *
 * Ranked are the variants timed in full (not stopped early) whose objective is finite,
 * best first (the least time, or the greatest metric when the objective maximises);
 * equal objectives keep the result's order. Nothing is copied: the measurements are the
 * result's. */
#ifndef CUTUNE_RESULTS_RANK_H
#define CUTUNE_RESULTS_RANK_H

#include <stdint.h>

#include "result.h"

/* rank_of: ranks r's variants; the best min(max, *count) go to out[0 ..] (out may be
 * NULL when max is 0) and *count is how many are ranked. 0, or CUTUNE_ENOMEM. */
int rank_of(const cutune_measurement **out, uint64_t max, uint64_t *count, const cutune_tune_result *r);

/* rank_spread: b's median times over a's for the variants (matched by ordinal) both
 * timed with outcome ok: out->variants how many, out->median the median ratio, lo and
 * hi the 5th and 95th percentiles (all 0 when none); out->device untouched. 0, or
 * CUTUNE_ENOMEM. */
int rank_spread(cutune_device_spread *out, const cutune_tune_result *a, const cutune_tune_result *b);

#endif
