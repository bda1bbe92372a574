/* settings.h - a run's search settings (settings.c, prefix settings_): the spec's
 * `search` statement with the caller's overrides. */
#ifndef CUTUNE_TUNER_SETTINGS_H
#define CUTUNE_TUNER_SETTINGS_H

#include "../compiler/model.h"
#include "../search/search.h"
#include "cutune.h"

/* settings_strategy: the strategy a run of model m with the overrides in `o` (may be
 * NULL) uses, into *out: o's, else auto for a budget given to a spec without a `search`
 * statement, else the spec's. false when o names no strategy there is (*out unspecified). */
bool settings_strategy(const model *m, const cutune_search_options *o, strategy *out);

/* settings_resolve: the spec's `search` (model m) with the overrides in `o` (may
 * be NULL) applied; a budget percentage becomes a count of the `count` valid
 * configurations. CUTUNE_OK, or CUTUNE_EINVAL with a diagnostic on `diags` (an unknown
 * strategy, a percentage out of range). Shared with the simulator (api/cutune_simulate.c). */
int settings_resolve(const model *m, diag_list *diags, const cutune_search_options *o, uint64_t count,
                     search_settings *out);

#endif
