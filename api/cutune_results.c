/* cutune_results.c - cutune/results.h: the public face of results: argument checks, the
 * last error, and the accessors; the work is in results/ (records, the record codec, the
 * results file's loader and writer). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../results/load.h"
#include "../results/merge.h"
#include "../results/result.h"
#include "../results/write.h"
#include "internal.h"

int cutune_results_load(cutune_tune_result **out, const char *path)
{
    if (!out || !path) {
        err_set(CUTUNE_EINVAL, "cutune_results_load: no output or path");
        return CUTUNE_EINVAL;
    }
    return results_load(out, path);
}

int cutune_results_merge(cutune_tune_result **out, const char *const *paths, int n, int partial)
{
    if (!out || (!paths && n > 0)) {
        err_set(CUTUNE_EINVAL, "cutune_results_merge: no output or paths");
        return CUTUNE_EINVAL;
    }
    for (int k = 0; k < n; k++)
        if (!paths[k]) {
            *out = NULL;
            err_set(CUTUNE_EINVAL, "cutune_results_merge: path %d is NULL", k);
            return CUTUNE_EINVAL;
        }
    char note[400];
    int rc = results_merge(out, paths, n, partial != 0, note, sizeof note);
    return rc != CUTUNE_OK ? err_recode(rc) : rc; /* results_merge's message, under its status */
}

int cutune_tune_shard_count(const cutune_tune_result *r)
{
    return r ? r->shard_count : 0;
}

int cutune_tune_shard_holds(const cutune_tune_result *r, int i)
{
    if (!r || r->shard_count == 0)
        return 1; /* not a shard: the whole space */
    if (r->nshard_merged == 0)
        return i == r->shard_index;
    for (int k = 0; k < r->nshard_merged; k++)
        if (r->shard_merged[k] == i)
            return 1;
    return 0;
}

int cutune_tune_write_results(const cutune_tune_result *r, const char *path)
{
    if (!r || !path) {
        err_set(CUTUNE_EINVAL, "cutune_tune_write_results: no result or path");
        return CUTUNE_EINVAL;
    }
    if (strcmp(path, "-") != 0)
        return results_write(r, path, cutune_version());
    char *text = NULL; /* standard output: the same text, through the one writer of a file */
    if (results_text(&text, r, cutune_version()) != CUTUNE_OK)
        return err_set(CUTUNE_ENOMEM, "out of memory writing results to standard output");
    int rc = cutune_write_file("-", text);
    free(text);
    return rc;
}

void cutune_tune_result_free(cutune_tune_result *r)
{
    result_destroy(r);
}

const cutune_tune_summary *cutune_tune_summary_of(const cutune_tune_result *r)
{
    return &r->summary;
}
uint64_t cutune_tune_count(const cutune_tune_result *r)
{
    return r->n;
}

const cutune_measurement *cutune_tune_at(const cutune_tune_result *r, uint64_t i)
{
    return i < r->n ? &r->records[i]->m : NULL;
}

const cutune_measurement *cutune_tune_best(const cutune_tune_result *r)
{
    return result_best(r);
}

const char *cutune_tune_spec_path(const cutune_tune_result *r)
{
    return r->spec_found ? r->spec_found : r->spec_path ? r->spec_path : "";
}
int cutune_results_spec(cutune_spec **out, const cutune_tune_result *r, const cutune_load_options *opts)
{
    if (!out || !r)
        return err_set(CUTUNE_EINVAL, "cutune_results_spec: no output or result");
    *out = NULL;
    const char *path = cutune_tune_spec_path(r), *why = NULL;
    if (!path[0])
        return err_set(CUTUNE_EINVAL, "names no spec");
    if (cutune_spec_load_file(out, path, opts) != CUTUNE_OK)
        why = "records a spec that cannot be loaded now";
    else if (cutune_spec_select_kernel_of(*out, r) != CUTUNE_OK)
        why = "records a spec whose kernel or params have changed since";
    if (!why)
        return CUTUNE_OK;
    cutune_spec_free(*out);
    *out = NULL;
    return err_set(CUTUNE_EINVAL, "%s: %s", why, path);
}

const char *cutune_tune_kernel(const cutune_tune_result *r)
{
    return r->kernel ? r->kernel : "";
}
const char *cutune_tune_block(const cutune_tune_result *r)
{
    return r->block && r->block[0] ? r->block : cutune_tune_kernel(r);
}
const char *cutune_tune_date(const cutune_tune_result *r)
{
    return r->date ? r->date : "";
}
int cutune_tune_param_count(const cutune_tune_result *r)
{
    return r->nparams;
}
const cutune_device *cutune_tune_device(const cutune_tune_result *r)
{
    return &r->device;
}

const char *cutune_tune_param_name(const cutune_tune_result *r, int i)
{
    return i >= 0 && i < r->nparams ? r->param_names[i] : NULL;
}

const char *cutune_tune_param_type(const cutune_tune_result *r, int i)
{
    return i >= 0 && i < r->nparams ? r->param_types[i] : NULL;
}

/* The hardware counters a result holds (tune.c's cutune_profile_* name the sets). */
int cutune_tune_profile_count(const cutune_tune_result *r)
{
    return r ? r->nhw : 0;
}

const char *cutune_tune_profile_metric(const cutune_tune_result *r, int i)
{
    return r && i >= 0 && i < r->nhw ? r->hw_names[i] : NULL;
}

int cutune_tune_size_count(const cutune_tune_result *r)
{
    return r ? r->nsizes : 0;
}

const cutune_tune_result *cutune_tune_size(const cutune_tune_result *r, int k)
{
    return r && k >= 0 && k < r->nsizes ? r->sizes[k] : NULL;
}

int cutune_tune_size_var_count(const cutune_tune_result *r)
{
    return r ? r->nsize_vars : 0;
}

const char *cutune_tune_size_var(const cutune_tune_result *r, int j)
{
    return r && j >= 0 && j < r->nsize_vars ? r->size_vars[j] : NULL;
}

int64_t cutune_tune_size_value(const cutune_tune_result *r, int j)
{
    return r && r->size_values && j >= 0 && j < r->nsize_vars ? r->size_values[j] : 0;
}

int cutune_tune_size_of(const cutune_tune_result *r, uint64_t i)
{
    return r && i < r->n ? r->records[i]->size : -1;
}

/* ---- a measurement, read through accessors ---------------------------------------- */

/* The public enum names the engine's outcomes by the same numbers (the worker's pipe
 * and the journal carry them): a change to either is a compile error here. */
_Static_assert(CUTUNE_OUTCOME_OK == (int)OUTCOME_OK && CUTUNE_OUTCOME_WRONG == (int)OUTCOME_WRONG &&
                   CUTUNE_OUTCOME_COMPILE_ERROR == (int)OUTCOME_COMPILE_ERROR &&
                   CUTUNE_OUTCOME_CANNOT_LAUNCH == (int)OUTCOME_CANNOT_LAUNCH &&
                   CUTUNE_OUTCOME_LOAD_ERROR == (int)OUTCOME_LOAD_ERROR &&
                   CUTUNE_OUTCOME_LAUNCH_ERROR == (int)OUTCOME_LAUNCH_ERROR &&
                   CUTUNE_OUTCOME_NOT_RUN == (int)OUTCOME_NOT_RUN && CUTUNE_OUTCOME_TIMEOUT == (int)OUTCOME_TIMEOUT &&
                   CUTUNE_OUTCOME_CRASHED == (int)OUTCOME_CRASHED && OUTCOME_COUNT == 9,
               "cutune_outcome and the engine's outcome must agree");
/* A measurement is its record's first member (result.h): the record is reached from it. */
_Static_assert(offsetof(record, m) == 0, "a record begins with its measurement");

const char *cutune_outcome_name(cutune_outcome o)
{
    return (int)o >= 0 && (int)o < OUTCOME_COUNT ? outcome_name((outcome)o) : NULL;
}

const cutune_variant *cutune_measurement_variant(const cutune_measurement *m)
{
    return m ? m->variant : NULL;
}

cutune_outcome cutune_measurement_outcome(const cutune_measurement *m)
{
    return m ? (cutune_outcome)((const record *)m)->out : CUTUNE_OUTCOME_NOT_RUN;
}

const char *cutune_measurement_reason(const cutune_measurement *m)
{
    return m ? m->reason : NULL;
}
const char *cutune_measurement_limiter(const cutune_measurement *m)
{
    return m ? m->limiter : NULL;
}
const char *cutune_measurement_energy_note(const cutune_measurement *m)
{
    return m ? m->energy_note : NULL;
}
const char *cutune_measurement_profile_note(const cutune_measurement *m)
{
    return m ? m->profile_note : NULL;
}
const char *cutune_measurement_inputs_note(const cutune_measurement *m)
{
    return m ? m->inputs_note : NULL;
}

double cutune_measurement_value(const cutune_measurement *m, cutune_value v)
{
    /* the public numbers are the fields of the one list that name one (api) */
    for (int i = 0; m && i < mfield_count; i++)
        if (mfields[i].api != NOVALUE && mfields[i].api == (int)v)
            return mfield_number(m, &mfields[i]);
    return NAN;
}

int cutune_measurement_metric_count(const cutune_measurement *m)
{
    return m ? m->nmetrics : 0;
}

const char *cutune_measurement_metric_name(const cutune_measurement *m, int i)
{
    return m && i >= 0 && i < m->nmetrics && m->metric_names ? m->metric_names[i] : NULL;
}

double cutune_measurement_metric(const cutune_measurement *m, int i)
{
    return m && i >= 0 && i < m->nmetrics && m->metrics ? m->metrics[i] : NAN;
}

int cutune_measurement_hw_count(const cutune_measurement *m)
{
    return m ? m->nhw : 0;
}

const char *cutune_measurement_hw_name(const cutune_measurement *m, int i)
{
    return m && i >= 0 && i < m->nhw && m->hw_names ? m->hw_names[i] : NULL;
}

double cutune_measurement_hw(const cutune_measurement *m, int i)
{
    return m && i >= 0 && i < m->nhw && m->hw ? m->hw[i] : NAN;
}

void cutune_results_free_all(cutune_tune_result **results, int n)
{
    for (int k = 0; results && k < n; k++)
        cutune_tune_result_free(results[k]);
    free(results);
}

int cutune_results_load_all(cutune_tune_result ***out, const char *const *paths, int n, int winners, int *winnerless)
{
    if (winnerless)
        *winnerless = -1;
    if (!out || n < 0 || (!paths && n > 0))
        return err_set(CUTUNE_EINVAL, "cutune_results_load_all: no output or paths");
    *out = NULL;
    cutune_tune_result **rs = calloc((size_t)n + 1, sizeof *rs);
    int rc = rs ? CUTUNE_OK : err_set(CUTUNE_ENOMEM, "out of memory");
    for (int k = 0; rc == CUTUNE_OK && k < n; k++) {
        rc = cutune_results_load(&rs[k], paths[k]);
        if (rc == CUTUNE_OK && winners && (rc = cutune_header_has_winner(rs[k])) != CUTUNE_OK && winnerless)
            *winnerless = k;
    }
    if (rc != CUTUNE_OK) {
        cutune_results_free_all(rs, n);
        return rc;
    }
    *out = rs;
    return CUTUNE_OK;
}
