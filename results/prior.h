/* prior.h - earlier runs of the same kernel as a prior for the search (prefix prior_):
 * `--prior FILE` (tune and simulate), read into a score per configuration of the space
 * that the auto strategy takes as a feature and as the start of its initial design.
 *
 * A recording of the kernel on another GPU or at another problem size ranks its
 * configurations much as this one would, not exactly (moving the best configuration
 * between GPUs keeps 58-100 % of the optimum): so the prior guides, it does not decide.
 * Each file's configurations are ranked by its own objective and direction: 0 the best,
 * 1 the worst that ran, PRIOR_FAILED one that failed; a configuration's score is the
 * mean of its ranks over the files that hold it. */
#ifndef CUTUNE_RESULTS_PRIOR_H
#define CUTUNE_RESULTS_PRIOR_H

#include <stddef.h>

#include "result.h"
#include "../search/search.h"

#define PRIOR_FAILED 1.25

/* prior_config_of: the configuration of record `rec` (read from a results file: its
 * typed rec->vals) as indices into the domains of m's params, into vec (m->nparams of
 * them): param p's value is rec->vals[column[p]] (column NULL: rec->vals[p]). True when
 * every value is one of its param's domain; false when one is of another type (an int
 * recorded for a float param counts as that float, as a spec that widened the param
 * reads it) or not among its param's values (a file of an older spec, other --set
 * values): the caller leaves the entry out, as the loader leaves out keys it does not
 * know. Shared with replay.c. */
bool prior_config_of(const model *m, const record *rec, const int *column, uint64_t *vec);

/* prior_load: the scores of the configurations of `sp` (the space of model `m`) held by
 * the results files paths[0 .. n), in *out (malloc'd, sorted by key; the caller frees
 * it) and *count. Files are matched to the spec by param names (any order; params the
 * spec lacks are ignored) and values. Refused, with a message naming the file: one
 * that cannot be read or is not a results file, another kernel's, one without a param
 * of the spec, one over several problem sizes (give the size's own file), one that
 * holds no configuration of this space. Returns CUTUNE_OK, CUTUNE_EIO (refused) or
 * CUTUNE_ENOMEM, with the thread's error (base/err.h) set. */
int prior_load(const model *m, const sspace *sp, const char *const *paths, int n, search_prior **out, uint64_t *count);

#endif
