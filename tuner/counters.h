/* counters.h - the hardware counters (counters.c, prefix counters_): their names
 * checked before a run, the chosen variants' counters read after it (run.c). */
#ifndef CUTUNE_TUNER_COUNTERS_H
#define CUTUNE_TUNER_COUNTERS_H

#include "tuner.h"

/* counters_options: `in` with the counters resolved into *out (the default set
 * when none are named) and their names checked against the chip of `arch` with CUPTI's
 * host API (no GPU needed). CUTUNE_OK (also when CUPTI cannot be used here: the
 * profiling phase says so, and tuning goes on), or CUTUNE_EINVAL with a diagnostic on
 * the spec (an unknown name, a bad profile_top). */
int counters_options(cutune_spec *spec, const cutune_tune_options *in, const char *arch, cutune_tune_options *out);

/* counters_read (after the final race, run.c): the counters of the chosen variants
 * (the best opts->profile_top that ran ok, or all), read in the worker and journaled;
 * bins[i] (nbins) is record i's binary (cubin NULL: none; those are compiled again
 * through `ss`). The summary's profiled, profile_seconds and profile_note are set.
 * CUTUNE_OK, or a status (the worker could not start, the journal, memory). */
int counters_read(tuner *t, session *ss, session_binary *bins, uint64_t nbins);

#endif
