/* cutune_tune.c - cutune/tune.h: cutune_tune, the facade over the tuning engine
 * (tuner/): arguments checked, the device asked for, one run (or one per problem size:
 * tuner/sizes.c) made, the results file written; the search strategies' names; the
 * hardware counters' default set and a chip's names. What a run does is tuner/tuner.h's. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/phases.h"
#include "../base/sys.h"
#include "../base/trace.h"
#include "../compiler/space.h"
#include "../runtime/compile.h"
#include "../runtime/devices.h"
#include "../runtime/profiler.h"
#include "../emit/account.h"
#include "../results/rank.h"
#include "../tuner/perdev.h"
#include "../tuner/counters.h"
#include "../tuner/settings.h"
#include "../tuner/sizes.h"
#include "internal.h"

/* The process's start, for the first run of the process only (a later one's would be
 * the earlier runs'): its age now into CUTUNE_PHASE_START, of which the device query
 * made before this call (the CLI's: a child that initialised the driver) is moved to
 * CUTUNE_PHASE_DEVICE. `now`: sys_seconds at the call. */
static void count_process_start(phases *clock, double now)
{
    static atomic_flag counted = ATOMIC_FLAG_INIT;
    if (atomic_flag_test_and_set(&counted))
        return;
    phases_add(clock, CUTUNE_PHASE_START, sys_process_age());
    double took, at;
    if (devices_query_time(&took, &at) && at <= now)
        phases_move(clock, CUTUNE_PHASE_START, CUTUNE_PHASE_DEVICE, took);
}

/* The run's phases up to now into summary s: each phase's seconds and their sum. */
static void phases_into(phases *clock, cutune_tune_summary *s)
{
    phases_tick(clock);
    for (int k = 0; k < CUTUNE_PHASE_COUNT; k++)
        s->phase_seconds[k] = clock->seconds[k];
    s->phases_wall_seconds = phases_total(clock);
}

/* cutune_tune_write_results, a span of the run's trace (base/trace.h). */
static int write_results(const cutune_tune_result *res, const char *path)
{
    trace_begin("results written");
    int rc = cutune_tune_write_results(res, path);
    trace_end("results written");
    return rc;
}

int cutune_tune(cutune_tune_result **out, cutune_spec *spec, const cutune_tune_options *opts)
{
    if (!out)
        return CUTUNE_EINVAL;
    *out = NULL;
    if (!spec || !opts || !cutune_spec_ok(spec))
        return CUTUNE_EINVAL;
    int rc = api_options_ok(opts, CUTUNE_TUNE_OPTIONS_VERSION, "cutune_tune_options");
    if (rc < 0 || (rc = api_options_ok(&opts->search, CUTUNE_SEARCH_OPTIONS_VERSION, "cutune_search_options")) < 0)
        return rc;
    if (opts->shard_count > 1 && (opts->shard_index < 0 || opts->shard_index >= opts->shard_count))
        return err_set(CUTUNE_EINVAL, "shard %d of %d: the index runs from 0 to %d", opts->shard_index,
                       opts->shard_count, opts->shard_count - 1);
    if (opts->ndevices > CUTUNE_MAX_DEVICES)
        return err_set(CUTUNE_EINVAL, "at most %d GPUs at once, not %d", CUTUNE_MAX_DEVICES, opts->ndevices);
    if (opts->ndevices > 1 && !opts->devices)
        return err_set(CUTUNE_EINVAL, "%d GPUs asked for, but no list of them (cutune_tune_options.devices)",
                       opts->ndevices);
    /* A results path that leaves the spec's folder, not allowed by the caller: refused
     * before anything runs, not after the tuning it would have held. */
    const char *refusal = opts->results_path ? NULL : cutune_spec_emit_refused(spec, "results");
    if (refusal)
        return err_set(CUTUNE_EINVAL, "%s", refusal);
    trace_name_process("cutune: the tuner");
    trace_instant("run start", spec->path); /* CUTUNE_TRACE: the run's timeline, in every process it starts */
    double t0 = sys_seconds();
    phases clock; /* where the time goes: the device first; in the loop, compiles awaited or a GPU's work */
    phases_init(&clock, CUTUNE_PHASE_COUNT, CUTUNE_PHASE_DEVICE, NULL, NULL);
    phases_overlay(&clock, CUTUNE_PHASE_COMPILE, CUTUNE_PHASE_GPU);
    count_process_start(&clock, t0);
    const model *m = spec->model;
    cutune_device dev;
    rc = cutune_device_get(&dev, opts->ndevices > 1 ? opts->devices[0] : opts->device);
    if (rc < 0)
        return rc;
    for (int k = 1; k < opts->ndevices; k++) { /* one result set needs one model of GPU */
        cutune_device other;
        if ((rc = cutune_device_get(&other, opts->devices[k])) < 0)
            return rc;
        if (!cutune_device_same_model(&other, &dev))
            return err_set(CUTUNE_EINVAL,
                           "GPU %d (%s, %s, %d SMs) is not the model of GPU %d (%s, %s, %d SMs): one "
                           "result needs GPUs of one model; tune on each (cutune --per-device)",
                           opts->devices[k], other.name, other.arch, other.sm_count, opts->devices[0], dev.name,
                           dev.arch, dev.sm_count);
    }
    if (!compile_supported_arch(dev.arch)) {
        diag_error_noloc(&spec->diags, "NVRTC cannot compile for this GPU's architecture %s", dev.arch);
        return CUTUNE_ECOMPILER;
    }
    phases_enter(&clock, CUTUNE_PHASE_OTHER);
    dev_values dv; /* the device attributes the spec reads: this GPU's, before the space is counted */
    dev_values_from_device(&dv, &dev);
    if ((rc = api_spec_recheck(spec, &dv)) < 0)
        return rc;
    m = spec->model;
    cutune_tune_options resolved; /* the hardware counters' names, checked */
    if ((rc = counters_options(spec, opts, dev.arch, &resolved)) < 0)
        return rc;
    opts = &resolved;
    bool flush = opts->flush_l2 < 0 ? m->measure.flush_l2 : opts->flush_l2 != 0;
    cutune_tune_result *res = NULL;
    if (spec_size_count(spec) > 1 && !opts->one_size) {
        /* One run per problem size (tuner/sizes.c), each a result the run's adopts. */
        if (!(res = result_new_for(m, spec->path, &dev)) ||
            result_set_profile(res, opts->profile_metrics, opts->profile_top ? opts->nprofile_metrics : 0,
                               opts->profile_top) < 0) {
            cutune_tune_result_free(res);
            return CUTUNE_ENOMEM;
        }
        if (opts->shard_count > 1) { /* the parent of a sharded run over sizes */
            res->shard_index = opts->shard_index;
            res->shard_count = opts->shard_count;
            res->shard_block = (int)space_shard_block(m);
        }
        res->clock = &clock;
        rc = sizes_run_all(res, spec, opts, &dev, flush);
        res->clock = NULL;
    } else {
        rc = sizes_run_one(&res, spec, opts, &dev, flush, &clock);
    }
    if (res) {
        res->summary.wall_seconds = sys_seconds() - t0;
        phases_enter(&clock, CUTUNE_PHASE_WRITE);
        phases_into(&clock, &res->summary); /* the file's: up to its writing */
        const char *path = opts->results_path ? opts->results_path : cutune_spec_emit_path(spec, "results");
        if (path && (res->n > 0 || res->nsizes > 0)) {
            if (write_results(res, path) == CUTUNE_OK)
                res->summary.results_path = arena_strdup(res->arena, path); /* NULL (not reported) only out of memory */
            else if (rc == CUTUNE_OK) {
                diag_error_noloc(&spec->diags, "%s", cutune_last_error());
                rc = CUTUNE_EIO;
            }
        }
        phases_enter(&clock, CUTUNE_PHASE_OTHER);
        phases_into(&clock, &res->summary); /* the whole run's */
    }
    trace_instant("run end", NULL);
    *out = res;
    return rc;
}

const char *const *cutune_strategy_list(void)
{
    return model_strategy_names();
}

const char *cutune_tune_strategy(const cutune_spec *spec, const cutune_search_options *opts)
{
    strategy k;
    return settings_strategy(spec->model, opts, &k) ? model_strategy_name(k) : NULL;
}

/* ---- a run ranked (results/rank.c), its account (emit/account.c); several kernel
 * blocks; a process per GPU (tuner/perdev.c) ------------------------------------------------------------------ */

int cutune_tune_rank(const cutune_measurement **out, uint64_t max, uint64_t *count, const cutune_tune_result *r)
{
    if (!count || !r || (max > 0 && !out))
        return err_set(CUTUNE_EINVAL, "cutune_tune_rank: no result, count or output");
    return rank_of(out, max, count, r) < 0 ? err_set(CUTUNE_ENOMEM, "out of memory") : CUTUNE_OK;
}

int cutune_tune_spread(cutune_device_spread *out, const cutune_tune_result *a, const cutune_tune_result *b)
{
    if (!out || !a || !b)
        return err_set(CUTUNE_EINVAL, "cutune_tune_spread: no output or result");
    return rank_spread(out, a, b) < 0 ? err_set(CUTUNE_ENOMEM, "out of memory") : CUTUNE_OK;
}

/* account_out: *out = text (account_text's or account_warnings'), or CUTUNE_ENOMEM. */
static int account_out(char **out, char *text)
{
    *out = text;
    return text ? CUTUNE_OK : err_set(CUTUNE_ENOMEM, "out of memory");
}

int cutune_tune_account(char **out, const cutune_tune_result *r)
{
    if (!out || !r)
        return err_set(CUTUNE_EINVAL, "cutune_tune_account: no output or result");
    return account_out(out, account_text(r));
}

int cutune_tune_warnings(char **out, const cutune_tune_result *r)
{
    if (!out || !r)
        return err_set(CUTUNE_EINVAL, "cutune_tune_warnings: no output or result");
    return account_out(out, account_warnings(r));
}

int cutune_tune_blocks(cutune_spec *spec, const cutune_blocks_options *opts, cutune_block_fn each, void *user)
{
    cutune_blocks_options defaults = CUTUNE_BLOCKS_OPTIONS_INIT;
    int rc = api_options_ok(opts, CUTUNE_BLOCKS_OPTIONS_VERSION, "cutune_blocks_options");
    if (rc < 0)
        return rc;
    if (!spec || !each || !cutune_spec_ok(spec))
        return err_set(CUTUNE_EINVAL, "cutune_tune_blocks: no spec or callback");
    if (!opts)
        opts = &defaults;
    int n = opts->selected_only ? 1 : cutune_spec_kernel_count(spec), worst = CUTUNE_OK;
    const char **written = calloc((size_t)n + 1, sizeof *written); /* the header paths written so far */
    if (!written)
        return err_set(CUTUNE_ENOMEM, "out of memory");
    int nwritten = 0;
    for (int i = 0; i < n; i++) {
        if (!opts->selected_only)
            cutune_spec_select_kernel(spec, i);
        cutune_block b = {.index = i, .count = n};
        b.header_path = opts->header_path ? opts->header_path : cutune_spec_emit_path(spec, "header");
        for (int w = 0; b.header_path && w < nwritten; w++)
            b.header_append |= strcmp(written[w], b.header_path) == 0;
        rc = each(user, spec, &b);
        if (b.header_written && b.header_path && !b.header_append)
            written[nwritten++] = b.header_path;
        if (rc != CUTUNE_OK && worst == CUTUNE_OK)
            worst = rc;
        if (rc != CUTUNE_OK && rc != CUTUNE_ENODEV)
            break; /* a failure: the blocks after it are not begun */
    }
    free(written);
    return worst;
}

int cutune_per_device_jobs(int jobs, int n)
{
    return perdev_jobs(jobs, n);
}

void cutune_device_runs_free(cutune_device_run *runs, int n)
{
    for (int i = 0; runs && i < n; i++) {
        free((char *)runs[i].results_path);
        free((char *)runs[i].load_error);
        cutune_tune_result_free(runs[i].result);
    }
    free(runs);
}

/* per_device_check: po's GPUs (two or more, each once) and a results path to name each
 * GPU's after, no journal. CUTUNE_OK or CUTUNE_EINVAL. */
static int per_device_check(const cutune_tune_options *opts, const cutune_per_device_options *po, const char *base)
{
    if (!po->devices || po->ndevices < 2 || !po->run)
        return err_set(CUTUNE_EINVAL, "cutune_tune_per_device: two GPUs or more, and a function to run on each");
    for (int i = 0; i < po->ndevices; i++)
        for (int j = 0; j < i; j++)
            if (po->devices[j] == po->devices[i])
                return err_set(CUTUNE_EINVAL, "GPU %d is named twice: each GPU tunes once", po->devices[i]);
    if (!base)
        return err_set(CUTUNE_EINVAL, "no results path to name each GPU's after (cutune_tune_options.results_path)");
    if (opts->journal_path)
        return err_set(CUTUNE_EINVAL, "each GPU keeps its own journal: leave cutune_tune_options.journal_path NULL");
    return CUTUNE_OK;
}

int cutune_tune_per_device(cutune_device_run **out, cutune_spec *spec, const cutune_tune_options *opts,
                           const cutune_per_device_options *po)
{
    if (!out)
        return err_set(CUTUNE_EINVAL, "cutune_tune_per_device: no output");
    *out = NULL;
    if (!spec || !opts || !po || !cutune_spec_ok(spec))
        return err_set(CUTUNE_EINVAL, "cutune_tune_per_device: no spec or options");
    int rc = api_options_ok(opts, CUTUNE_TUNE_OPTIONS_VERSION, "cutune_tune_options");
    if (rc < 0 || (rc = api_options_ok(po, CUTUNE_PER_DEVICE_OPTIONS_VERSION, "cutune_per_device_options")) < 0)
        return rc;
    const char *base = opts->results_path ? opts->results_path : cutune_spec_emit_path(spec, "results");
    if ((rc = per_device_check(opts, po, base)) < 0)
        return rc;
    int n = po->ndevices;
    cutune_device_run *runs = calloc((size_t)n, sizeof *runs);
    int *started = calloc((size_t)n, sizeof(int)), *codes = calloc((size_t)n, sizeof(int));
    const char **paths = calloc((size_t)n, sizeof *paths);
    for (int i = 0; runs && paths && i < n; i++) {
        runs[i].device = po->devices[i];
        paths[i] = runs[i].results_path = perdev_path(base, po->devices[i]);
        if (!paths[i])
            rc = CUTUNE_ENOMEM;
    }
    if (!runs || !started || !codes || !paths || rc < 0) {
        cutune_device_runs_free(runs, runs ? n : 0);
        free(started), free(codes), free(paths);
        return err_set(CUTUNE_ENOMEM, "out of memory");
    }
    rc = perdev_run(po->devices, n, perdev_jobs(po->jobs, n), paths, po->run, po->user, started, codes);
    char *why = rc < 0 && err_last() ? strdup(err_last()->message) : NULL; /* the loads below replace it */
    for (int i = 0; i < n; i++) {
        runs[i].started = started[i];
        runs[i].exit_code = codes[i];
        if (cutune_results_load(&runs[i].result, paths[i]) != CUTUNE_OK)
            runs[i].load_error = strdup(cutune_last_error());
    }
    if (rc < 0)
        err_set(rc, "%s", why ? why : "a run could not be started");
    free(why), free(started), free(codes), free(paths);
    *out = runs;
    return rc;
}

/* ---- hardware counters: the default set and a chip's names (runtime/profiler, CUPTI;
 * the profiling phase of a run is tuner/counters.c's) ------------------------------ */

int cutune_profile_default_metrics(const char *const **names)
{
    if (names)
        *names = prof_default_names;
    return PROF_NDEFAULT;
}

const char *cutune_profile_nvprof_name(const char *metric)
{
    return prof_nvprof_name(metric);
}

int cutune_profile_list(const char *arch, void (*each)(void *user, const char *name, const char *kind), void *user)
{
    if (!each)
        return CUTUNE_EINVAL;
    const char *chip = prof_chip_of_arch(arch ? arch : "sm_90");
    if (!chip)
        return err_set(CUTUNE_EINVAL, "cutune does not know CUPTI's chip for %s", arch);
    if (prof_list(chip, each, user) < 0)
        return err_recode(CUTUNE_ENODEV);
    return CUTUNE_OK;
}

const char *cutune_profile_chip(const char *arch)
{
    return prof_chip_of_arch(arch ? arch : "sm_90");
}

int cutune_profile_check(const char *arch, const char *const *names, int n)
{
    if (!names || n < 0)
        return CUTUNE_EINVAL;
    const char *chip = prof_chip_of_arch(arch ? arch : "sm_90");
    if (!chip)
        return err_set(CUTUNE_EINVAL, "cutune does not know CUPTI's chip for %s", arch);
    int bad = -1;
    int rc = prof_check_names(chip, names, n, &bad);
    if (rc < 0)
        return err_recode(CUTUNE_ENODEV);
    if (rc > 0)
        return err_recode(CUTUNE_EINVAL);
    return CUTUNE_OK;
}
