/* tuner.c - the tuner, a tuning run's state (tuner.h): its set-up (the GPUs' workers
 * started, the journal opened), its compile session, its stop and its end. The run
 * itself, the same for every strategy, is run.c's, above it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>
#include <xxhash.h>

#include "../base/sys.h"
#include "../base/trace.h"
#include "../runtime/cache.h"
#include "../runtime/compile.h"
#include "../runtime/includes.h"
#include "settings.h"
#include "tuner.h"

void tuner_inputs_identity(const model *m, char *hex, size_t size)
{
    hex[0] = '\0';
    XXH3_state_t *h = NULL;
    for (int i = 0; i < m->nargs; i++) {
        const m_arg *a = &m->args[i];
        if (a->init != INIT_FILE || !a->file)
            continue;
        if (!h && (!(h = XXH3_createState()) || XXH3_64bits_reset(h) != XXH_OK)) {
            snprintf(hex, size, "unhashed");
            XXH3_freeState(h);
            return;
        }
        char *canon = sys_canonical_path(a->file);
        const char *path = canon ? canon : a->file;
        struct stat st;
        long long parts[3] = {-1, -1, -1};
        if (stat(path, &st) == 0) {
            parts[0] = (long long)st.st_size;
            parts[1] = (long long)st.st_mtim.tv_sec;
            parts[2] = (long long)st.st_mtim.tv_nsec;
        }
        XXH3_64bits_update(h, path, strlen(path) + 1);
        XXH3_64bits_update(h, parts, sizeof parts);
        free(canon);
    }
    if (h) {
        snprintf(hex, size, "%016llx", (unsigned long long)XXH3_64bits_digest(h));
        XXH3_freeState(h);
    }
}

/* Opens the journal: its identity is the spec's text and --set overrides, the kernel
 * source, the device and the L2 flush setting, all of which change what is measured,
 * and the input files, when the spec reads any. */
static int open_journal(tuner *t, const char *path, bool flush, const cutune_device *dev)
{
    /* Every ordinal of this space is below the bound: listing positions when the valid
     * configurations are listed, else positions among the raw combinations. */
    const cutune_space_size *size = &t->size;
    uint64_t bound = UINT64_MAX;
    if (!size->valid_saturated)
        bound = size->valid <= SSPACE_LIST_LIMIT && !size->valid_estimated ? size->valid
                : size->raw_saturated                                      ? UINT64_MAX
                                                                           : size->raw;
    /* The kernel's source and every file its #include lines reach, as the compile
     * cache sees them: a changed header changes the identity too. Canonical paths, as
     * the compile session gives them (session/session.c), so a run resumed from another working
     * folder, or with the spec's path spelled otherwise, is the same run. */
    char *kernel = sys_read_file(t->m->kernel_file, SYS_LIMIT_SOURCE, NULL);
    char *kpath = sys_canonical_path(t->m->kernel_file);
    char spec_hex[32], kernel_hex[40] = "unreadable";
    snprintf(spec_hex, sizeof spec_hex, "%016llx", (unsigned long long)t->spec->text_hash);
    /* The -I options as the session gives them: the spec's folders, then the kernel's. */
    char **dirs = calloc((size_t)t->m->nincludes + 2, sizeof(char *));
    int n = 0;
    bool complete = kernel && kpath && dirs;
    for (int i = 0; complete && i < t->m->nincludes; i++) {
        char *c = sys_canonical_path(t->m->includes[i]); /* as it is when it cannot be resolved */
        size_t len = strlen(c ? c : t->m->includes[i]) + 3;
        complete = (dirs[n] = malloc(len)) != NULL;
        if (complete)
            snprintf(dirs[n++], len, "-I%s", c ? c : t->m->includes[i]);
        free(c);
    }
    if (complete) {
        const char *slash = strrchr(kpath, '/');
        size_t len = strlen(kpath) + 4;
        if ((dirs[n] = malloc(len)) != NULL)
            snprintf(dirs[n++], len, "-I%.*s", slash ? (int)(slash - kpath) : 1, slash ? kpath : ".");
        incl_set inc;
        if (incl_resolve(&inc, kpath, kernel, (const char *const *)dirs, n) == 0) { /* else no kernel hash */
            compile_job job = {kpath,
                               inc.source,
                               "",
                               NULL,
                               0,
                               t->gpus[0].plan.arch,
                               (const char *const *)inc.names,
                               inc.nheaders,
                               (const char *const *)inc.texts,
                               inc.nheaders};
            cache_key key;
            if (cache_key_for(&job, &key) == 0)
                snprintf(kernel_hex, sizeof kernel_hex, "%s", key.hex);
        }
        incl_set_free(&inc);
    }
    for (int i = 0; dirs && i < n; i++)
        free(dirs[i]);
    free(dirs);
    free(kpath);
    free(kernel);
    char inputs_hex[32]; /* the input files, when the spec reads any */
    tuner_inputs_identity(t->m, inputs_hex, sizeof inputs_hex);
    journal_identity id = {spec_hex,
                           kernel_hex,
                           dev->name,
                           t->gpus[0].plan.arch,
                           flush,
                           t->opts->shard_index,
                           t->opts->shard_count,
                           spec_kernel_count(t->spec) > 1 ? t->spec->kernel : -1,
                           NULL,
                           inputs_hex};
    if (t->m->sizes.nvars > 0) { /* a size is part of what is measured */
        const char *label = spec_size_label(t->spec, t->m->sizes.selected);
        id.size = label ? label : "";
    }
    if (journal_open_run(&t->journal, path, &id, bound, t->opts->fresh) < 0) {
        diag_error_noloc(&t->spec->diags, "%s", err_last() ? err_last()->message : "the journal could not be opened");
        return CUTUNE_EIO;
    }
    t->res->summary.resumed = journal_count(t->journal);
    t->res->summary.journal_ignored = journal_ignored(t->journal);
    if (journal_ignored(t->journal))
        t->res->summary.journal_ignored_why = arena_strdup(t->res->arena, journal_ignored_why(t->journal));
    t->res->summary.journal_path = arena_strdup(t->res->arena, path);
    return CUTUNE_OK;
}

/* Every GPU's worker started at once; their set-ups (the driver, the reference) go on
 * while the compile pool starts, and each GPU is taken as soon as its own has answered
 * (tuner_ready, tuner_take_setup). CUTUNE_OK, or the first failure's status with the
 * thread's error (base/err.h) saying why (the workers started are stopped by
 * tuner_free). */
static int spawn_gpus(tuner *t)
{
    /* The workers of a run before this one in the process (another size, another kernel
     * block, an application's earlier run) may still be giving their GPUs back: a new
     * context never starts beside one still being torn down (its memory, a GPU in
     * exclusive-process mode). Their ends are the driver's time. */
    phases *clock = t->res->clock;
    int was = clock ? phases_enter(clock, CUTUNE_PHASE_DEVICE) : 0;
    wk_wait_released();
    if (clock)
        phases_enter(clock, was);
    /* Several GPUs: the driver's start passes from worker to worker, a token in a pipe.
     * The driver serialises its start-ups anyway (bench/driver_start on four H100s: four
     * contexts made at once all end at 1.2 s, one alone at 0.34 s), so taken in turn the
     * first GPU works from about 0.35 s and each next one a start-up later, not all of
     * them from the last's end. The tuner's ends are closed once every worker has its
     * own, so that no compile worker forked later holds them. */
    int token[2] = {-1, -1};
    if (t->ngpus > 1 && (pipe(token) < 0 || write(token[1], "t", 1) != 1)) {
        if (token[0] >= 0) {
            close(token[0]);
            close(token[1]);
        }
        token[0] = token[1] = -1; /* no token: the workers start together, as before */
    }
    int rc = CUTUNE_OK;
    for (int k = 0; k < t->ngpus && rc == CUTUNE_OK; k++) {
        t->gpus[k].plan.token[0] = token[0];
        t->gpus[k].plan.token[1] = token[1];
        if ((rc = gpu_spawn(&t->gpus[k])) == CUTUNE_OK)
            t->slots[k].starting = true;
    }
    for (int k = 0; k < t->ngpus; k++) /* a worker started again later (gpu_start) starts alone */
        t->gpus[k].plan.token[0] = t->gpus[k].plan.token[1] = -1;
    if (token[0] >= 0) {
        close(token[0]);
        close(token[1]);
    }
    return rc;
}

int tuner_take_setup(tuner *t, int k, bool waited)
{
    int rc = gpu_ready(&t->gpus[k], waited); /* waited: the wait split by the set-up's steps (gpu.c) */
    trace_event('i', 0, rc < 0 ? "failed" : "ready", "GPU %d set-up answered", t->gpus[k].plan.device);
    t->slots[k].starting = false;
    t->slots[k].idle_since = sys_seconds();
    if (rc < 0 && t->ready_status == CUTUNE_OK) { /* the worker's own status: a failed reference is ESPEC */
        diag_error_noloc(&t->spec->diags, "%s", err_last()->message);
        tuner_stop(t, rc);
        t->ready_status = rc;
    }
    return rc < 0 ? t->ready_status : CUTUNE_OK;
}

int tuner_ready(tuner *t)
{
    int fds[CUTUNE_MAX_DEVICES], at[CUTUNE_MAX_DEVICES], n = 0;
    double deadline = 0;
    for (int k = 0; k < t->ngpus; k++) {
        if (!t->slots[k].starting)
            return t->ready_status; /* one is ready (or failed: the run has stopped) */
        if (n == 0 || t->gpus[k].setup_deadline < deadline)
            deadline = t->gpus[k].setup_deadline;
        fds[n] = t->gpus[k].proc.from;
        at[n++] = k;
    }
    /* The wait is the set-up's: the time so far counted in the run's phase, the wait left
     * uncounted until gpu_ready splits it by the steps the worker timed (driver and
     * context, compiles, inputs, reference), the rest the device's. (Entering the device
     * phase after the wait counted the whole wait in the run's phase first: a run that
     * waited 0.25 s for its GPU's driver said "compile".) */
    phases *clock = t->res->clock;
    int was = clock ? phases_enter(clock, CUTUNE_PHASE_DEVICE) : 0;
    trace_begin("wait for a GPU's set-up");
    int i = wk_wait_any(fds, n, deadline);                  /* n is ngpus, at least 1: none was ready */
    int rc = tuner_take_setup(t, at[i >= 0 ? i : 0], true); /* none by the deadline: the first says so */
    trace_end("wait for a GPU's set-up");
    if (clock)
        phases_enter(clock, was);
    return rc;
}

int tuner_new(tuner **out, cutune_spec *spec, const cutune_space_size *size, const cutune_tune_options *opts,
              const cutune_device *dev, bool flush, cutune_tune_result *res)
{
    tuner *t = calloc(1, sizeof *t);
    *out = t;
    if (!t)
        return CUTUNE_ENOMEM;
    t->spec = spec;
    t->m = spec->model;
    t->opts = opts;
    t->res = res;
    t->stop = "";
    t->size = *size;
    const model *m = t->m;
    /* A worker per GPU (the facade has checked they are of one model, so
     * `dev` describes each). */
    t->ngpus = opts->ndevices > 1 ? opts->ndevices : 1;
    t->gpus = calloc((size_t)t->ngpus, sizeof *t->gpus);
    t->slots = calloc((size_t)t->ngpus, sizeof *t->slots);
    t->answered = calloc((size_t)t->ngpus, sizeof *t->answered);
    if (!t->gpus || !t->slots || !t->answered) {
        t->ngpus = 0;
        return CUTUNE_ENOMEM;
    }
    int rc = CUTUNE_OK;
    for (int k = 0; k < t->ngpus && rc == CUTUNE_OK; k++) {
        rc = gpu_init(&t->gpus[k], spec, opts, opts->ndevices > 1 ? opts->devices[k] : opts->device, dev, flush, res);
        t->gpus[k].run_started = t->gpus[0].run_started; /* one clock for the run */
    }
    if (rc < 0)
        return rc;
    if (t->ngpus > 1) { /* before any journal line: each names its GPU */
        cutune_tune_summary *s = &res->summary;
        s->ndevices = t->ngpus;
        for (int k = 0; k < t->ngpus; k++) {
            s->devices[k] = t->gpus[k].plan.device;
            s->spread[k] = (cutune_device_spread){t->gpus[k].plan.device, 0, NAN, NAN, NAN};
        }
    }
    t->vals = calloc((size_t)m->nparams + 1, sizeof(value));
    if (!t->vals)
        return CUTUNE_ENOMEM;
    t->goal = (goal_state){m, t->vals, t->gpus[0].plan.goal.prune, false, 0, false, 0, 0, 0};
    if (!opts->run_twins && (rc = twins_new(&t->twins, m)) < 0)
        return rc;
    if ((rc = settings_resolve(m, &spec->diags, &opts->search, size->valid, &t->set)) < 0)
        return rc; /* a diagnostic on the spec says why */
    if (!t->set.budget && opts->limit)
        t->set.budget = opts->limit; /* --limit N: at most N configurations, whatever the strategy */
    /* Each worker runs the reference as it starts: awaited (tuner_ready) before the
     * first variant is taken, so that the compiles overlap the drivers' start-up; a
     * reference that fails is a spec problem, found before any variant is measured. */
    if ((rc = spawn_gpus(t)) < 0) {
        diag_error_noloc(&spec->diags, "%s", err_last()->message);
        return rc;
    }
    const char *results = opts->results_path ? opts->results_path : m->emit.results_path;
    const char *journal_path = opts->journal_path;
    if (!journal_path && results && !(journal_path = arena_printf(t->res->arena, "%s.journal", results)))
        return CUTUNE_ENOMEM;
    if (journal_path && *journal_path && (rc = open_journal(t, journal_path, flush, dev)) < 0)
        return rc;
    return CUTUNE_OK;
}

int tuner_session(tuner *t, const cutune_analyze_options *o, uint64_t total, cutune_analyze_summary *sum, session **out)
{
    *out = NULL;
    int rc = session_open(out, t->m, &t->spec->diags, t->gpus[0].plan.arch, o, true, sum);
    if (rc == CUTUNE_OK && total)
        session_set_total(*out, total);
    return rc;
}

void tuner_stop(tuner *t, int status)
{
    const err_info *e = err_last();
    free(t->why);
    t->why = strdup(e ? e->message : "error");
    t->status = status;
}

void tuner_free(tuner *t)
{
    if (!t)
        return;
    free(t->why);
    /* Every worker let go, not waited for: each has given its last answer (one left in
     * flight by a failure, or still setting up, is killed), so its end, the driver tearing
     * its context down, holds nothing measured; the results are written and the caller
     * goes on meanwhile (runtime/worker's wk_release; a later run waits for it before it
     * starts its own workers: spawn_gpus). */
    for (int k = 0; k < t->ngpus; k++)
        wk_release(&t->gpus[k].proc, t->slots[k].rec != NULL || t->slots[k].starting);
    for (int k = 0; k < t->ngpus; k++)
        gpu_free(&t->gpus[k]);
    free(t->gpus);
    free(t->slots);
    free(t->answered);
    journal_close(t->journal);
    twins_free(t->twins);
    free(t->vals);
    free(t);
}
