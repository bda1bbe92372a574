/* replay.h - simulate's engine: a search strategy replayed over a recorded exhaustive
 * run (a results file read by the one loader and record codec), on a simulated clock.
 *
 * It lives in results/ because its input is recorded results and its product a report
 * about them; it drives search/ (ask/tell) but never the GPU, the compiler or the API. */
#ifndef CUTUNE_RESULTS_REPLAY_H
#define CUTUNE_RESULTS_REPLAY_H

#include <stddef.h>

#include "result.h"
#include "../search/search.h"

/* replay_static_of: the static facts a compiled variant's record holds (registers, spills,
 * static shared memory, theoretical occupancy, threads per block) into *out, for
 * search_tell_static: the tuner tells them of the variants it compiles, simulate of
 * those the recording holds. false (nothing to tell) when the variant did not compile
 * or its record holds no registers (a results file converted from another tool has no
 * "resources": the hub's landscapes). */
bool replay_static_of(const record *rec, search_static *out);

/* replay_run: checks that `recording` (read from `path`) is of model `m` and covers
 * every valid configuration of its space `sp`, then runs the search `settings`
 * `repeat` times (seeds settings->seed, +1, ...; at least once), each through a pipeline of
 * `threads` compile threads (at least 1) and one GPU. Returns CUTUNE_OK with
 * *out (free with cutune_sim_report_free), or a negative status with *out NULL and the
 * thread's error set (base/err.h; not set when memory ran out without a message). Borrows
 * m, sp, recording. */
int replay_run(const model *m, sspace *sp, const cutune_tune_result *recording, const char *path,
               const search_settings *settings, int repeat, int threads, cutune_sim_report **out);

#endif
