/* load.h - a results file read back (docs/results-format.md, "Reading results back":
 * what is checked before it is trusted). */
#ifndef CUTUNE_RESULTS_LOAD_H
#define CUTUNE_RESULTS_LOAD_H

#include <jansson.h>
#include <stddef.h>

#include "result.h"

/* results_load: reads the results file at `path`. Returns CUTUNE_OK with *out (the
 * caller owns it: result_destroy), or CUTUNE_EIO / CUTUNE_ENOMEM with *out NULL and
 * the message, naming the path, in the error object (base/err.h). */
int results_load(cutune_tune_result **out, const char *path);

/* The most shards a run is split into (settings.shard.count). */
#define RESULTS_MAX_SHARDS 65536

/* results_read_json: the JSON of the file at `path` into *root (the caller's reference).
 * CUTUNE_OK, or CUTUNE_EIO / CUTUNE_ENOMEM with *root NULL and the error set. */
int results_read_json(json_t **root, const char *path);

/* results_load_json: results_load of a file already read into `root` (borrowed), named
 * `path` in messages and in the result's summary.results_path. */
int results_load_json(cutune_tune_result **out, json_t *root, const char *path);

/* results_check_entry: what the loader checks of an entry before the record codec reads
 * it (docs/results-format.md, "What is refused on load"): each param's value exactly of
 * its type in r (record_value_of), launch dimensions and shared memory bounded. `j` is
 * the entry at JSON path `where` ("results[3]", "sizes[1].results[0]") of the file
 * `path`. CUTUNE_OK, or CUTUNE_EIO with "PATH: WHERE.params.NAME: ..." in the error
 * object. The scan (results/scan.h) checks each entry with it, as the loader does. */
int results_check_entry(const cutune_tune_result *r, json_t *j, const char *path, const char *where);

#endif
