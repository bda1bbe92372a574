/* sizes.h - a run over problem sizes (sizes.c, prefix sizes_): one tuning run per size
 * (tuner.c's state, run.c's loop), above that run. */
#ifndef CUTUNE_TUNER_SIZES_H
#define CUTUNE_TUNER_SIZES_H

#include "../compiler/spec.h"
#include "../results/result.h"

/* sizes_run_one: one tuning run of the spec's model as it is (one size): the space
 * counted (compiler/spec's spec_count: an empty one explained), a result made (*out,
 * also on failure once made), a tuner run over it and the result finished. CUTUNE_OK or
 * a status with a diagnostic on the spec. The tuner counts its time into `clock` (the
 * run's phase account, borrowed; NULL: none) while it runs. */
int sizes_run_one(cutune_tune_result **out, cutune_spec *spec, const cutune_tune_options *opts,
                  const cutune_device *dev, bool flush, phases *clock);

/* sizes_run_all: sizes_run_one for each of the spec's sizes in turn, each adopted by
 * `parent` (results/result.h), with a journal per size (the run's journal path with the
 * size: "x.json.n=4096.journal"). Stops at the first failure or interruption; the spec's
 * selected size is restored. Each size's run counts into parent->clock.
 * CUTUNE_OK or the failing size's status. */
int sizes_run_all(cutune_tune_result *parent, cutune_spec *spec, const cutune_tune_options *opts,
                  const cutune_device *dev, bool flush);

#endif
