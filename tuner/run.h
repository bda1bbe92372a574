/* run.h - the one tuning loop, every strategy's (run.c, prefix run_): proposals
 * streamed through a compile session, each run (loop.h), journaled and told; the final
 * race, the counters, the run's summary. The top of the tuner's layers. */
#ifndef CUTUNE_TUNER_RUN_H
#define CUTUNE_TUNER_RUN_H

#include "tuner.h"

/* run_search: the loop of every strategy: proposals streamed through a
 * compile session, each run, journaled and told. */
int run_search(tuner *t, const cutune_analyze_options *aopts, cutune_analyze_summary *asum);

/* run_tune: the run of tuner t: every variant the strategy proposes compiled,
 * run, journaled, and the best chosen (run_search, with the run's compile options); the
 * result's summary filled. CUTUNE_OK, or a status with a diagnostic. */
int run_tune(tuner *t);

#endif
