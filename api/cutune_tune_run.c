/* cutune_tune_run.c - cutune/tune.h: what a command that tunes decides around
 * cutune_tune, for any application: the emit paths every kernel block may not write
 * (before anything runs), how a run goes on the GPUs named (one, a fleet of one model,
 * or a process per GPU), a shard's files and GPU, what the command says of them
 * (cutune_tune_setup_text), and what a finished run found,
 * counted (its verdict), and what a command says at a run's end (the texts emit/verdict.c
 * makes); the options a command reads as text, checked (cutune_tune_set_option,
 * cutune_search_set_option). The
 * caller owns the spec, the options and the results; nothing here prints. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/num.h"
#include "../base/strbuf.h"
#include "../emit/verdict.h"
#include "../results/result.h"
#include "internal.h"

int cutune_blocks_emit_check(char **out, cutune_spec *spec, const cutune_blocks_options *opts, int given_header,
                             int given_csv, int given_results)
{
    if (!out || !spec || !cutune_spec_ok(spec))
        return err_set(CUTUNE_EINVAL, "cutune_blocks_emit_check: no output or valid spec");
    *out = NULL;
    int rc = api_options_ok(opts, CUTUNE_BLOCKS_OPTIONS_VERSION, "cutune_blocks_options");
    if (rc < 0)
        return rc;
    bool selected_only = opts && opts->selected_only;
    int n = selected_only ? 1 : cutune_spec_kernel_count(spec);
    const char *kinds[] = {given_header ? NULL : "header", given_csv ? NULL : "csv", given_results ? NULL : "results"};
    strbuf lines = STRBUF_INIT;
    for (int b = 0; b < n; b++) {
        if (!selected_only)
            cutune_spec_select_kernel(spec, b);
        for (int k = 0; k < 3; k++) {
            const char *why = kinds[k] ? cutune_spec_emit_refused(spec, kinds[k]) : NULL;
            if (why)
                sb_printf(&lines, "cutune: %s\n", why);
        }
    }
    if (!selected_only)
        cutune_spec_select_kernel(spec, 0);
    return (*out = sb_steal(&lines)) ? CUTUNE_OK : err_set(CUTUNE_ENOMEM, "out of memory");
}

int cutune_devices_one_model(const int *devices, int n)
{
    cutune_device first, other;
    if (!devices || n < 1 || cutune_device_get(&first, devices[0]) != CUTUNE_OK)
        return 1; /* the run itself says what is wrong with the GPU */
    for (int i = 1; i < n; i++)
        if (cutune_device_get(&other, devices[i]) == CUTUNE_OK && !cutune_device_same_model(&other, &first))
            return 0;
    return 1;
}

int cutune_devices_parse(int *out, int size, int *n, const char *text)
{
    if (!out || size < 1 || !n || !text)
        return err_set(CUTUNE_EINVAL, "cutune_devices_parse: no list to fill, or no text");
    int count = 0;
    if (strcmp(text, "all") != 0)
        return num_read_list(text, 0, CUTUNE_MAX_GPU_NUMBER, out, size, n)
                   ? CUTUNE_OK
                   : err_set(CUTUNE_EINVAL, "devices takes all or GPU numbers such as 0,1, not '%s'", text);
    if (cutune_device_count(&count) != CUTUNE_OK || count <= 0)
        return err_set(CUTUNE_ENODEV, "%s", cutune_last_error()[0] ? cutune_last_error() : "the driver sees no GPU");
    for (*n = 0; *n < count && *n < size; (*n)++)
        out[*n] = *n;
    return CUTUNE_OK;
}

int cutune_tune_set_devices(cutune_tune_options *opts, const int *devices, int n, int *per_device)
{
    if (!opts || !per_device || n < 0 || (n > 0 && !devices))
        return err_set(CUTUNE_EINVAL, "cutune_tune_set_devices: no options, or no list of GPUs");
    int ngpus = 0, mixed = 0; /* GPUs of different models cannot share one result: each tunes it all */
    if (n > 1 && !*per_device && cutune_device_count(&ngpus) == CUTUNE_OK && ngpus > 0 &&
        !cutune_devices_one_model(devices, n))
        *per_device = mixed = 1;
    if (n == 1)
        opts->device = devices[0];
    if (n > 1 && !*per_device) { /* one process: a GPU worker each, fed by the one compile pool */
        opts->devices = devices;
        opts->ndevices = n;
    }
    return mixed;
}

int cutune_tune_verdict_of(cutune_tune_verdict *out, const cutune_tune_result *r)
{
    if (!out || !r)
        return err_set(CUTUNE_EINVAL, "cutune_tune_verdict_of: no output or result");
    memset(out, 0, sizeof *out);
    out->sizes = cutune_tune_size_count(r);
    for (int k = 0; k < (out->sizes ? out->sizes : 1); k++)
        out->winners += cutune_tune_best(out->sizes ? cutune_tune_size(r, k) : r) != NULL;
    uint64_t failed = 0;
    for (uint64_t i = 0; i < cutune_tune_count(r); i++) {
        int o = cutune_measurement_outcome(cutune_tune_at(r, i));
        failed += o == CUTUNE_OUTCOME_COMPILE_ERROR;
        out->ran_ok |= o == CUTUNE_OUTCOME_OK;
    }
    const cutune_tune_summary *s = cutune_tune_summary_of(r);
    out->nothing_compiled = s->variants > 0 && failed == s->variants;
    out->interrupted = s->interrupted != 0;
    return CUTUNE_OK;
}

int cutune_tune_set_option(cutune_tune_options *opts, const char *name, const char *text)
{
    if (!opts || !name || !text)
        return err_set(CUTUNE_EINVAL, "cutune_tune_set_option: no options, name or text");
    long long n = -1; /* "all" */
    double x;
    if (strcmp(name, "device") == 0) {
        if (!num_read_int(text, 0, CUTUNE_MAX_GPU_NUMBER, &n))
            return err_set(CUTUNE_EINVAL, "device takes a GPU number from 0 to %d, not '%s'", CUTUNE_MAX_GPU_NUMBER,
                           text);
        opts->device = (int)n;
    } else if (strcmp(name, "prune") == 0) {
        if (!num_read_double(text, NULL, &x) || !(x == -1 || x > 1))
            return err_set(CUTUNE_EINVAL, "prune takes a finite factor above 1 (or -1 for never), not '%s'", text);
        opts->prune = x;
    } else if (strcmp(name, "timeout") == 0) {
        if (!num_read_double(text, NULL, &x) || !(x > 0 && x <= CUTUNE_MAX_SECONDS))
            return err_set(CUTUNE_EINVAL, "timeout takes seconds above 0, at most %d, not '%s'", CUTUNE_MAX_SECONDS,
                           text);
        opts->timeout_s = x;
    } else if (strcmp(name, "metrics") == 0) {
        if (strcmp(text, "all") != 0 && !num_read_int(text, 1, 1000000, &n))
            return err_set(CUTUNE_EINVAL, "metrics takes a count of variants from 1 to 1000000, or all, not '%s'",
                           text);
        opts->profile_top = (int)n;
    } else {
        return err_set(CUTUNE_EINVAL, "cutune_tune_set_option: no option '%s' (device, prune, timeout, metrics)", name);
    }
    return CUTUNE_OK;
}

int cutune_tune_set_metrics(cutune_tune_options *opts, const char *const *names, int n, const char *arch)
{
    if (!opts || !names || n < 1)
        return err_set(CUTUNE_EINVAL, "cutune_tune_set_metrics: no options or counters");
    opts->profile_metrics = names;
    opts->nprofile_metrics = n;
    if (opts->profile_top == 0)
        opts->profile_top = 5;
    int count = 0; /* a mistyped counter is found before anything runs */
    cutune_device gpu;
    if (!arch && cutune_device_count(&count) == CUTUNE_OK && count > opts->device &&
        cutune_device_get(&gpu, opts->device) == CUTUNE_OK)
        arch = gpu.arch;
    return cutune_profile_check(arch, names, n);
}

/* shard_path: "x.json" -> "x.shard-I-of-N.json" (any other name: the suffix appended),
 * malloc'd; NULL out of memory. */
static char *shard_path(const char *path, int index, int count)
{
    size_t n = strlen(path);
    const char *dot = n > 5 && strcmp(path + n - 5, ".json") == 0 ? path + n - 5 : path + n;
    size_t size = n + 64;
    char *out = malloc(size);
    if (out)
        snprintf(out, size, "%.*s.shard-%d-of-%d%s", (int)(dot - path), path, index, count, dot);
    return out;
}

int cutune_tune_set_shard(cutune_tune_options *opts, const cutune_spec *spec, int index, int count, int local,
                          char **results, char **journal)
{
    if (!opts || !spec || !results || !journal || count < 2 || index < 0 || index >= count)
        return err_set(CUTUNE_EINVAL, "cutune_tune_set_shard: no options or spec, or no shard %d of %d", index, count);
    *results = *journal = NULL;
    const char *base = opts->results_path ? opts->results_path : cutune_spec_emit_path(spec, "results");
    if (!base)
        return err_set(CUTUNE_EINVAL, "a shard needs a results file to write (cutune_tune_options.results_path)");
    /* the journal (a local disk when the results are on a slow shared one): each shard's
     * own, named as its results file is, so that one command line serves every rank */
    if (!(*results = shard_path(base, index, count)) ||
        (opts->journal_path && !(*journal = shard_path(opts->journal_path, index, count)))) {
        free(*results);
        *results = NULL;
        return err_set(CUTUNE_ENOMEM, "out of memory");
    }
    opts->results_path = *results;
    if (*journal)
        opts->journal_path = *journal;
    opts->shard_index = index;
    opts->shard_count = count;
    int ndev = 0; /* the GPU the launcher's local rank names */
    if (local >= 0 && cutune_device_count(&ndev) == CUTUNE_OK && ndev > 0)
        opts->device = local % ndev;
    return CUTUNE_OK;
}

int cutune_tune_setup_text(char **out, const cutune_tune_options *opts, int ndevs, int mixed, const char *launcher,
                           int local_count, int brief)
{
    if (!out || !opts)
        return err_set(CUTUNE_EINVAL, "cutune_tune_setup_text: no output or options");
    strbuf sb = STRBUF_INIT;
    bool shard = opts->shard_count > 1;
    if (shard && !brief) {
        char on[48]; /* a shard per host may use every GPU of its host */
        snprintf(on, sizeof on, ndevs > 1 ? "%d GPUs" : "GPU %d", ndevs > 1 ? ndevs : opts->device);
        sb_printf(&sb, "shard %d of %d%s%s (%s): results to %s%s%s\n", opts->shard_index, opts->shard_count,
                  launcher ? ", from " : "", launcher ? launcher : "", on, opts->results_path ? opts->results_path : "",
                  opts->journal_path ? ", journal " : "", opts->journal_path ? opts->journal_path : "");
    }
    if (shard && ndevs > 1 && local_count > 1) /* every rank of the host on every GPU */
        sb_printf(&sb,
                  "cutune: warning: %d ranks on this host each use %d GPUs (--devices): their runs share the "
                  "GPUs and disturb each other's times; start one rank per host (mpirun --map-by "
                  "ppr:1:node, srun --ntasks-per-node=1) or drop --devices for a rank per GPU\n",
                  local_count, ndevs);
    if (mixed && !brief)
        sb_printf(&sb, "note: these GPUs are not all of one model: each tunes every configuration "
                       "(as --per-device)\n");
    for (int i = 1; !brief && opts->devices && i < opts->ndevices; i++)
        for (int j = 0; j < i; j++)
            if (opts->devices[j] == opts->devices[i]) /* allowed: a check of the machinery on one GPU */
                sb_printf(&sb,
                          "note: --devices names GPU %d twice: two workers share it, and their times "
                          "disturb each other\n",
                          opts->devices[i]);
    return (*out = sb_steal(&sb)) ? CUTUNE_OK : err_set(CUTUNE_ENOMEM, "out of memory");
}

/* ---- what a command that tunes says at a run's end (emit/verdict.c) --------------- */

/* text_out: *out = text (a verdict_* call's), or CUTUNE_ENOMEM. */
static int text_out(char **out, char *text)
{
    *out = text;
    return text ? CUTUNE_OK : err_set(CUTUNE_ENOMEM, "out of memory");
}

int cutune_tune_verdict_text(char **out, const cutune_tune_verdict *v)
{
    if (!out || !v)
        return err_set(CUTUNE_EINVAL, "cutune_tune_verdict_text: no output or verdict");
    return text_out(out, verdict_of_run(v));
}

int cutune_tune_ranking_text(char **out, const cutune_tune_result *r, int top)
{
    if (!out || !r)
        return err_set(CUTUNE_EINVAL, "cutune_tune_ranking_text: no output or result");
    return text_out(out, verdict_ranking(r, top));
}

int cutune_tune_best_text(char **out, char **note, const cutune_tune_result *r, int k)
{
    if (!out || !r || k < 0 || k >= (r->nsizes ? r->nsizes : 1))
        return err_set(CUTUNE_EINVAL, "cutune_tune_best_text: no output or result, or no size %d", k);
    return text_out(out, verdict_best(r, k, note));
}

int cutune_device_run_text(char **out, char **spread, const cutune_device_run *runs, int n, int i)
{
    if (!out || !spread || !runs || i < 0 || i >= n)
        return err_set(CUTUNE_EINVAL, "cutune_device_run_text: no output or runs, or no run %d of %d", i, n);
    return text_out(out, verdict_device_run(runs, i, spread));
}

int cutune_untuned_start(char **out, int *limited, cutune_spec *spec, uint64_t limit, const char *path, int brief)
{
    if (!out || !limited || !spec || !path)
        return err_set(CUTUNE_EINVAL, "cutune_untuned_start: no output, spec or path");
    cutune_space_size size;
    bool sized = cutune_space_count(&size, spec) == CUTUNE_OK && !size.valid_saturated && !size.valid_estimated;
    *limited = limit > 0 && !(sized && limit >= size.valid);
    strbuf sb = STRBUF_INIT;
    if (*limited && !brief)
        sb_printf(&sb, "\ncompiling the first %llu variants (--limit; no GPU needed; details: cutune analyze %s)\n",
                  (unsigned long long)limit, path);
    else if (!brief)
        sb_printf(&sb, "\ncompiling every variant (no GPU needed; details: cutune analyze %s)\n", path);
    return (*out = sb_steal(&sb)) ? CUTUNE_OK : err_set(CUTUNE_ENOMEM, "out of memory");
}

int cutune_untuned_text(char **out, const cutune_untuned *u)
{
    if (!out || !u)
        return err_set(CUTUNE_EINVAL, "cutune_untuned_text: no output or verdict");
    return text_out(out, verdict_untuned(u));
}

/* strategy_named: s->strategy set to the strategy `text` names; CUTUNE_EINVAL naming
 * them all when none is. */
static int strategy_named(cutune_search_options *s, const char *text)
{
    const char *const *names = cutune_strategy_list();
    int count = 0;
    for (; names[count]; count++)
        if (strcmp(text, names[count]) == 0) {
            s->strategy = names[count];
            return CUTUNE_OK;
        }
    strbuf sb = STRBUF_INIT; /* "a, b and c" */
    for (int i = 0; i < count; i++)
        sb_printf(&sb, "%s%s", i == 0 ? "" : i == count - 1 ? " and " : ", ", names[i]);
    int rc =
        err_set(CUTUNE_EINVAL, "unknown search strategy '%s' (the strategies are %s)", text, sb.data ? sb.data : "");
    sb_free(&sb);
    return rc;
}

/* budget_read: "N" (evaluations) or "P%" (of the valid space) into s. */
static int budget_read(cutune_search_options *s, const char *text)
{
    const char *rest = NULL;
    double v;
    uint64_t n;
    if (num_read_double(text, &rest, &v) && strcmp(rest, "%") == 0) {
        if (!(v > 0 && v <= 100))
            return err_set(CUTUNE_EINVAL, "budget P%% takes a percentage above 0 and at most 100, not '%s'", text);
        s->budget = 0;
        s->budget_percent = v;
    } else if (num_read_uint(text, CUTUNE_MAX_COUNT, &n) && n > 0) {
        s->budget = n;
        s->budget_percent = 0;
    } else {
        return err_set(CUTUNE_EINVAL,
                       "budget takes a number of evaluations from 1 to %llu or a percentage (5%%), not '%s'",
                       (unsigned long long)CUTUNE_MAX_COUNT, text);
    }
    return CUTUNE_OK;
}

int cutune_search_set_option(cutune_search_options *s, const char *name, const char *text)
{
    if (!s || !name || !text)
        return err_set(CUTUNE_EINVAL, "cutune_search_set_option: no options, name or text");
    const char *unit = NULL;
    uint64_t n;
    double t;
    if (strcmp(name, "strategy") == 0)
        return strategy_named(s, text);
    if (strcmp(name, "budget") == 0)
        return budget_read(s, text);
    if (strcmp(name, "time-budget") == 0) {
        bool ok = num_read_double(text, &unit, &t) && t > 0 &&
                  (*unit == '\0' || strcmp(unit, "s") == 0 || strcmp(unit, "min") == 0 || strcmp(unit, "h") == 0);
        if (ok)
            t *= strcmp(unit, "min") == 0 ? 60 : strcmp(unit, "h") == 0 ? 3600 : 1;
        if (!ok || !isfinite(t))
            return err_set(CUTUNE_EINVAL,
                           "time-budget takes a finite duration above 0 (seconds, or 90s, 10min, 2h), not '%s'", text);
        s->time_s = t;
    } else if (strcmp(name, "patience") == 0 || strcmp(name, "seed") == 0) {
        bool seed = name[0] == 's';
        if (!num_read_uint(text, CUTUNE_MAX_COUNT, &n) || (!seed && n == 0))
            return err_set(CUTUNE_EINVAL, "%s takes %s from %d to %llu, not '%s'", name,
                           seed ? "a seed" : "a number of evaluations", seed ? 0 : 1,
                           (unsigned long long)CUTUNE_MAX_COUNT, text);
        if (seed)
            s->has_seed = 1, s->seed = n;
        else
            s->patience = n;
    } else {
        return err_set(CUTUNE_EINVAL,
                       "cutune_search_set_option: no option '%s' (strategy, budget, time-budget, patience, seed)",
                       name);
    }
    return CUTUNE_OK;
}
