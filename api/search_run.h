/* search_run.h - what api/tune.c, api/simulate.c and api/analyze.c share for searches
 * (not part of the public interface). */
#ifndef CUTUNE_API_SEARCH_RUN_H
#define CUTUNE_API_SEARCH_RUN_H

#include "../search/search.h"
#include "internal.h"

/* api_search_settings: the spec's `search` with the overrides in `o` (may be NULL)
 * applied; a budget percentage becomes a count of the `count` valid configurations.
 * Returns CUTUNE_OK, or CUTUNE_EINVAL with a diagnostic on the spec (an unknown
 * strategy, a percentage out of range). */
int api_search_settings(cutune_spec *spec, const cutune_search_options *o, uint64_t count, search_settings *out);

/* A compile session: api_analyze's machinery (source, cache, compile pool, the table of
 * distinct binaries) kept open across several batches of configurations, so that a
 * search can compile each batch in parallel and reuse binaries between batches. */
typedef struct api_session api_session;

/* api_session_open: as api_analyze's set-up. `summary` is filled as batches run. */
int api_session_open(api_session **out, cutune_spec *spec, const cutune_analyze_options *opts, bool keep_binaries,
                     cutune_analyze_summary *summary);

/* api_session_run: compiles the n configurations `values` (n rows of nparams values),
 * numbered ordinals[i], in parallel, and calls `each` for each in order (as api_analyze
 * does). Returns CUTUNE_OK, CUTUNE_ESTOPPED when `each` stopped it, or another status. */
int api_session_run(api_session *s, const value *values, const uint64_t *ordinals, int n, analyze_each each,
                    void *user);

/* api_session_set_total: the total progress reports count towards (e.g. the budget). */
void api_session_set_total(api_session *s, uint64_t total);

/* api_session_close: NULL is a no-op. */
void api_session_close(api_session *s);

#endif
