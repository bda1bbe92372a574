/* cutune_simulate.c - cutune/simulate.h: cutune_simulate, the facade over
 * results/replay.c (a search replayed over a recorded exhaustive run). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../compiler/space.h"
#include "../emit/emit_text.h"
#include "internal.h"
#include "../tuner/settings.h"
#include "../results/prior.h"
#include "../results/replay.h"

/* The recorded size whose values are those of the size the spec holds, or NULL. */
static const cutune_tune_result *size_recorded(const cutune_spec *spec, const cutune_tune_result *r)
{
    const m_sizes *sz = &spec->model->sizes;
    for (int k = 0; sz->nvars > 0 && k < r->nsizes; k++) {
        const cutune_tune_result *one = r->sizes[k];
        bool same = one->nsize_vars == sz->nvars;
        for (int j = 0; same && j < sz->nvars; j++)
            same = strcmp(one->size_vars[j], spec->model->lets[sz->lets[j]].name) == 0 &&
                   one->size_values[j] == sz->values[sz->selected * sz->nvars + j];
        if (same)
            return one;
    }
    return NULL;
}

int cutune_simulate(cutune_sim_report **out, cutune_spec *spec, const char *results_path,
                    const cutune_simulate_options *opts)
{
    if (!out)
        return CUTUNE_EINVAL;
    *out = NULL;
    if (!spec || !results_path || !cutune_spec_ok(spec))
        return CUTUNE_EINVAL;
    int rc = api_options_ok(opts, CUTUNE_SIMULATE_OPTIONS_VERSION, "cutune_simulate_options");
    if (rc < 0 ||
        (opts && (rc = api_options_ok(&opts->search, CUTUNE_SEARCH_OPTIONS_VERSION, "cutune_search_options")) < 0) ||
        (opts && (rc = cutune_simulate_check(opts)) < 0))
        return rc;
    sspace *sp = NULL;
    cutune_tune_result *recording = NULL;
    const cutune_tune_result *recorded = NULL; /* the size replayed, of a run over sizes */
    search_prior *prior = NULL;                /* --prior: earlier runs' scores */
    /* The space as the recorded run had it: the spec checked with its device's attributes
     * (a file that cannot be read is reported by the load below). */
    if (cutune_results_load(&recording, results_path) == CUTUNE_OK) {
        rc = api_spec_recheck_recorded(spec, cutune_tune_device(recording));
        cutune_tune_result_free(recording);
        recording = NULL;
        if (rc < 0)
            return rc;
    }
    if (sspace_new(&sp, spec->model, 0) < 0) {
        diag_error_noloc(&spec->diags, "%s", err_last()->message);
        return CUTUNE_EEVAL;
    }
    uint64_t count = sspace_count(sp);
    search_settings set;
    if (!sspace_listed(sp)) {
        diag_error_noloc(&spec->diags, "the space has %llu valid configurations: too many to simulate",
                         (unsigned long long)count);
        rc = CUTUNE_EINVAL;
    } else if ((rc = settings_resolve(spec->model, &spec->diags, opts ? &opts->search : NULL, count, &set)) < 0) {
        /* the diagnostic is on the spec */
    } else if ((rc = cutune_results_load(&recording, results_path)) != CUTUNE_OK) {
        /* The one results loader: what `cutune emit` refuses, this refuses too, with
         * the same message. */
        diag_error_noloc(&spec->diags, "%s", cutune_last_error());
    } else if (recording->nsizes > 0 && !(recorded = size_recorded(spec, recording))) {
        /* a run over sizes: the size the spec holds is replayed, when it was recorded */
        diag_error_noloc(&spec->diags,
                         "'%s' records %d problem sizes and not the spec's size %s; pick a recorded "
                         "one with --set",
                         results_path, recording->nsizes, spec_size_label(spec, spec->model->sizes.selected));
        rc = CUTUNE_EINVAL;
    } else if (opts && opts->search.npriors > 0 &&
               (rc = prior_load(spec->model, sp, opts->search.priors, opts->search.npriors, &prior, &set.nprior)) !=
                   CUTUNE_OK) {
        diag_error_noloc(&spec->diags, "--prior: %s", err_last()->message);
    } else {
        set.prior = prior;
        int threads = opts && opts->threads > 0 ? opts->threads : 16;
        err_clear(); /* set again only by a failure that has a message */
        rc = replay_run(spec->model, sp, recorded ? recorded : recording, results_path, &set, opts ? opts->repeat : 1,
                        threads, out);
        if (rc < 0 && err_last())
            diag_error_noloc(&spec->diags, "%s", err_last()->message);
    }
    cutune_tune_result_free(recording);
    sspace_free(sp);
    free(prior);
    return rc;
}

int cutune_simulate_check(const cutune_simulate_options *opts)
{
    if (!opts)
        return err_set(CUTUNE_EINVAL, "cutune_simulate_check: no options");
    int repeat = opts->repeat > 0 ? opts->repeat : 1;
    if (opts->search.has_seed && opts->search.seed > CUTUNE_MAX_COUNT - (uint64_t)(repeat - 1))
        return err_set(CUTUNE_EINVAL,
                       "--seed %llu with --repeat %d takes seeds past %llu (the largest a results file holds)",
                       (unsigned long long)opts->search.seed, repeat, (unsigned long long)CUTUNE_MAX_COUNT);
    return CUTUNE_OK;
}

void cutune_sim_report_free(cutune_sim_report *r)
{
    if (!r)
        return;
    free(r->runs);
    free((char *)r->objective_name);
    free(r);
}

int cutune_sim_report_json(char **out, const cutune_sim_report *r, const char *results_path, int threads)
{
    if (!out || !r)
        return err_set(CUTUNE_EINVAL, "cutune_sim_report_json: no output or report");
    int rc = emit_sim_json(out, r, results_path, threads > 0 ? threads : 16);
    return rc == CUTUNE_ENOMEM ? err_set(rc, "out of memory") : rc;
}

int cutune_sim_report_text(char **out, const cutune_sim_report *r, const char *results_path, int threads)
{
    if (!out || !r || !results_path)
        return err_set(CUTUNE_EINVAL, "cutune_sim_report_text: no output, report or results path");
    int rc = emit_sim_text(out, r, results_path, threads > 0 ? threads : 16);
    return rc == CUTUNE_ENOMEM ? err_set(rc, "out of memory") : rc;
}
