/* simulate.c - cutune_simulate, the facade over results/replay.c (a search replayed
 * over a recorded exhaustive run), and api_search_settings, which tuning shares. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../compiler/space.h"
#include "search_run.h"
#include "../results/replay.h"

int api_search_settings(cutune_spec *spec, const cutune_search_options *o, uint64_t count, search_settings *out)
{
    const model *m = spec->model;
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
    if (o->strategy) {
        strategy k;
        if (!strategy_from_name(o->strategy, &k)) {
            diag_error_noloc(&spec->diags, "unknown search strategy '%s' (the strategies are exhaustive, random, "
                             "anneal, genetic, local and guided)", o->strategy);
            return CUTUNE_EINVAL;
        }
        if (k != sr->strategy) { /* the spec's knobs belong to its own strategy */
            out->temperature = out->cooling = out->mutation = 0;
            out->population = out->restarts = 0;
        }
        out->strategy = k;
    }
    if (o->budget)
        out->budget = o->budget;
    else if (o->budget_percent != 0) {
        if (!(o->budget_percent > 0 && o->budget_percent <= 100)) {
            diag_error_noloc(&spec->diags, "a budget percentage must be above 0 and at most 100, not %g",
                             o->budget_percent);
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

int cutune_simulate(cutune_spec *spec, const char *results_path, const cutune_simulate_options *opts,
                    cutune_sim_report **out)
{
    if (!out)
        return CUTUNE_EINVAL;
    *out = NULL;
    if (!spec || !results_path || !cutune_spec_ok(spec))
        return CUTUNE_EINVAL;
    char err[1200];
    sspace *sp = NULL;
    cutune_tune_result *recording = NULL;
    int rc;
    if (sspace_new(&sp, spec->model, 0, err, sizeof err) < 0) {
        diag_error_noloc(&spec->diags, "%s", err);
        return CUTUNE_EEVAL;
    }
    uint64_t count = sspace_count(sp);
    search_settings set;
    if (!sspace_listed(sp)) {
        diag_error_noloc(&spec->diags, "the space has %llu valid configurations: too many to simulate",
                         (unsigned long long)count);
        rc = CUTUNE_EINVAL;
    } else if ((rc = api_search_settings(spec, opts ? &opts->search : NULL, count, &set)) < 0) {
        /* the diagnostic is on the spec */
    } else if ((rc = cutune_results_load(&recording, results_path)) != CUTUNE_OK) {
        /* The one results loader: what `cutune emit` refuses, this refuses too, with
         * the same message. */
        diag_error_noloc(&spec->diags, "%s", cutune_last_error());
    } else {
        rc = replay_run(spec->model, sp, recording, results_path, &set, opts ? opts->repeat : 1, out, err,
                        sizeof err);
        if (rc < 0 && err[0])
            diag_error_noloc(&spec->diags, "%s", err);
    }
    cutune_tune_result_free(recording);
    sspace_free(sp);
    return rc;
}

void cutune_sim_report_free(cutune_sim_report *r)
{
    if (!r)
        return;
    free(r->runs);
    free(r);
}
