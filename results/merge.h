/* merge.h - the shards of a run split over processes (`cutune SPEC --shard i/N`)
 * gathered into one results file: what a single process tuning the same configurations
 * would have written (docs/results-format.md, "Shards and merging"). */
#ifndef CUTUNE_RESULTS_MERGE_H
#define CUTUNE_RESULTS_MERGE_H

#include <stdbool.h>
#include <stddef.h>

#include "result.h"

/* results_merge: reads the n results files at `paths` (each a shard: settings.shard)
 * and makes one result of them: every entry once, in ordinal order, the summary's counts
 * recounted, its seconds added up (wall_seconds and compile_wall_seconds: the largest,
 * as the shards ran side by side), the winner picked again among the entries that can
 * win, settings.merged_from the paths. Every shard of the split must be there, unless
 * `partial`: then the result records the shards it holds (shard_merged) and the missing
 * ones are named in `note` (empty when none is missing). Returns CUTUNE_OK with *out (the
 * caller's: result_destroy); CUTUNE_EIO when a file cannot be read or is not a results
 * file; CUTUNE_EINVAL when the files do not go together (another spec, device model or
 * measurement settings; not shards, or of splits of different counts; a shard missing
 * or given twice; a configuration in two files; a run over problem sizes); CUTUNE_ENOMEM.
 * On failure *out is NULL and the thread's error (base/err.h) names the files and says
 * why. */
int results_merge(cutune_tune_result **out, const char *const *paths, int n, bool partial, char *note, size_t notesize);

#endif
