/* merge_check.h - what results/merge.c checks before it joins shards, beyond what the
 * loader checks of any results file: the parts merge reads (their shape and bounds), and
 * whether two files are shards of one run (identity). docs/results-format.md, "Shards and
 * merging", lists the rules. */
#ifndef CUTUNE_RESULTS_MERGE_CHECK_H
#define CUTUNE_RESULTS_MERGE_CHECK_H

#include <jansson.h>
#include <stddef.h>

#include "result.h"

/* merge_check_shape: the file at `path`, read into `root` (borrowed) and loaded into `r`
 * (borrowed), as merge reads it: "settings" and "summary" objects; settings.shard.merged
 * no longer than settings.shard.count, no shard listed twice; the counts merge adds up
 * (settings.search.evaluations and screened, summary.profiled) absent, null or integers
 * from 0 to 2^63 - 1. CUTUNE_OK, or CUTUNE_EIO with the thread's error
 * naming the file and the JSON path. */
int merge_check_shape(json_t *root, const cutune_tune_result *r, const char *path);

/* merge_check_identity: CUTUNE_OK when the files at `pa` and `pb` (their JSON `a`, `b`
 * and results `ra`, `rb`, all borrowed) are of one run: the same spec (spec.path), kernel
 * (spec.kernel) and kernel block (spec.block; a file without it: the kernel's name),
 * compared in that order so that shards of two blocks are named as such; then the same
 * params (names and types, in order), spec.set, spec.hash, problem size (spec.size,
 * size), device model (device.name, arch, compute_capability, sm_count), objective
 * (objective.name, direction) and settings (every field but shard, devices,
 * merged_from and the search's use: settings.search.evaluations, screened, stopped_by).
 * A field absent from both is the same. Else CUTUNE_EINVAL with the thread's error naming
 * both files, the first field that differs and its two values. */
int merge_check_identity(json_t *a, const cutune_tune_result *ra, const char *pa, json_t *b,
                         const cutune_tune_result *rb, const char *pb);

/* merge_check_sum: *total += the count at the JSON path `what` of the file at `path`
 * (`count`, borrowed: absent or null adds 0; merge_check_shape checked it). CUTUNE_OK, or
 * CUTUNE_EINVAL naming the file and `what` when the sum would pass 2^63 - 1. */
int merge_check_sum(json_int_t *total, json_t *count, const char *path, const char *what);

#endif
