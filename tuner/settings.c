/* settings.c - a run's search settings: the spec's `search` statement with the
 * caller's overrides (settings.h). Shared by tuning and the simulator (api/cutune_simulate.c). */
#include <math.h>
#include <string.h>

#include "settings.h"

bool settings_strategy(const model *m, const cutune_search_options *o, strategy *out)
{
    *out = m->search.strategy;
    if (!o)
        return true;
    /* A budget without a strategy (none named here, no `search` statement in the spec,
     * whose location is then empty): the model-based default, which spends a budget best. */
    if (!o->strategy && m->search.loc.end == 0 && (o->budget || o->budget_percent != 0 || o->time_s > 0))
        *out = STRAT_AUTO;
    return !o->strategy || model_strategy_from_name(o->strategy, out);
}

int settings_resolve(const model *m, diag_list *diags, const cutune_search_options *o, uint64_t count,
                     search_settings *out)
{
    const m_search *sr = &m->search;
    memset(out, 0, sizeof *out);
    out->strategy = sr->strategy;
    out->seed = sr->seed;
    out->budget = sr->budget > 0 ? (uint64_t)sr->budget : 0;
    out->time_limit_s = sr->time_limit_s;
    out->patience = sr->patience > 0 ? (uint64_t)sr->patience : 0;
    out->maximize = m->maximize;
    out->temperature = sr->temperature;
    out->cooling = sr->cooling;
    out->mutation = sr->mutation;
    out->population = sr->population;
    out->restarts = sr->restarts;
    if (!o)
        return CUTUNE_OK;
    if (!settings_strategy(m, o, &out->strategy)) {
        diag_error_noloc(diags,
                         "unknown search strategy '%s' (the strategies are exhaustive, random, "
                         "anneal, genetic, local, guided and auto)",
                         o->strategy);
        return CUTUNE_EINVAL;
    }
    if (out->strategy != sr->strategy) { /* the spec's knobs belong to its own strategy */
        out->temperature = out->cooling = out->mutation = 0;
        out->population = out->restarts = 0;
    }
    if (o->budget)
        out->budget = o->budget;
    else if (o->budget_percent != 0) {
        if (!(o->budget_percent > 0 && o->budget_percent <= 100)) {
            diag_error_noloc(diags, "a budget percentage must be above 0 and at most 100, not %g", o->budget_percent);
            return CUTUNE_EINVAL;
        }
        double b = ceil(o->budget_percent / 100.0 * (double)count - 1e-9);
        out->budget = b < 1 ? 1 : (uint64_t)b;
    }
    if (o->time_s > 0)
        out->time_limit_s = o->time_s;
    if (o->patience)
        out->patience = o->patience;
    if (o->has_seed)
        out->seed = o->seed;
    return CUTUNE_OK;
}
