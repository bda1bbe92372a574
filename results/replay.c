/* replay.c - a search replayed over a recorded exhaustive run (see replay.h).
 *
 * The recording is matched to the spec's space by param values (not by index, so a
 * recording stays usable when the listing order would differ); every valid
 * configuration must be in it. The simulated clock advances by what the recording says
 * each configuration cost, through the tuner's pipeline (run_once): its compile seconds
 * on one of `threads` compile threads the first time its binary is compiled (evaluated,
 * or screened by guided; configurations that differ only in what reaches the kernel
 * through the launch share a binary, compiled once, as the tuner does), its GPU seconds
 * on the one GPU. */
#include "replay.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "../base/arena.h"
#include "../base/err.h"
#include "../base/strbuf.h"
#include "../compiler/plan.h"
#include "../compiler/space.h"
#include "prior.h"

/* ---- the recording -------------------------------------------------------------- */

bool replay_static_of(const record *rec, search_static *out)
{
    const cutune_measurement *m = &rec->m;
    memset(out, 0, sizeof *out);
    if (rec->out == OUTCOME_COMPILE_ERROR || m->registers <= 0)
        return false;
    out->compiled = true;
    out->launchable = rec->out != OUTCOME_CANNOT_LAUNCH;
    out->registers = m->registers;
    out->spill_bytes = m->spill_stores + m->spill_loads;
    out->occupancy = m->occupancy;
    out->static_smem = m->static_smem;
    out->threads = search_static_threads(rec->v.block);
    return true;
}

typedef struct rec_entry {
    bool present, ok;
    double objective;
    search_static st;
    bool has_static; /* st holds what the compile said (replay_static_of) */
    double gpu_seconds, compile_seconds;
    uint64_t binary; /* the first ordinal whose variant is the same binary (itself when none before) */
} rec_entry;

typedef struct sim {
    const model *m;
    sspace *sp;
    rec_entry *by_ordinal;
    bool *compiled;      /* per binary (its first ordinal): its compile has been paid for in this run */
    double *compiled_at; /* per binary, once compiled: when its compile ends */
    double clock;        /* now, on the simulated clock */
    int threads;         /* compile threads */
    double *free_at;     /* per compile thread: when it is free */
    double compile_sum;  /* compile seconds paid (evaluated and screened) */
} sim;

/* A compile of `seconds` on the compile thread free first (the lowest-numbered among
 * equals), from now on; when it ends. */
static double compile_on_pool(sim *s, double seconds)
{
    int t = 0;
    for (int i = 1; i < s->threads; i++)
        if (s->free_at[i] < s->free_at[t])
            t = i;
    double start = s->free_at[t] > s->clock ? s->free_at[t] : s->clock;
    s->free_at[t] = start + seconds;
    s->compile_sum += seconds;
    return s->free_at[t];
}

/* When the binary of ordinal `o` is compiled: its compile goes on the pool the first
 * time the run needs that binary; *paid (may be NULL) gets the compile seconds this call
 * paid, 0 for a binary compiled or compiling already. */
static double binary_ready(sim *s, uint64_t o, double *paid)
{
    uint64_t b = s->by_ordinal[o].binary;
    double seconds = 0;
    if (!s->compiled[b]) {
        s->compiled[b] = true;
        seconds = s->by_ordinal[o].compile_seconds;
        s->compiled_at[b] = compile_on_pool(s, seconds);
    }
    if (paid)
        *paid = seconds;
    return s->compiled_at[b];
}

static double sim_clock(void *user)
{
    return ((sim *)user)->clock;
}

static int sim_static(void *user, const uint64_t *keys, int n, search_static *out)
{
    sim *s = user;
    for (int i = 0; i < n; i++) {
        uint64_t o = sspace_ordinal(s->sp, keys[i]);
        out[i] = s->by_ordinal[o].st;
        (void)binary_ready(s, o, NULL); /* screening compiles occupy the compile threads too */
    }
    return 0;
}

static int fail(sim *s, const char *path, const char *what)
{
    (void)s;
    return err_set(CUTUNE_EIO, "%s: %s", path, what);
}

/* Reads the recording `r` (loaded by results/load.c: the same checks and messages
 * as `cutune emit`) into s->by_ordinal, after checking it is of this spec. CUTUNE_OK or
 * a status with a diagnostic. */
static int load_recording(sim *s, const char *path, const cutune_tune_result *r)
{
    const model *m = s->m;
    char msg[700];
    if (strcmp(r->kernel, m->kernel) != 0) {
        snprintf(msg, sizeof msg, "recorded for kernel '%s', but the spec tunes '%s': the results of another spec",
                 r->kernel, m->kernel);
        return fail(s, path, msg);
    }
    bool same = r->nparams == m->nparams;
    for (int i = 0; same && i < m->nparams; i++)
        same = strcmp(r->param_names[i], m->params[i].name) == 0;
    if (!same)
        return fail(s, path,
                    "its params are not the spec's (names and order must match): the results of "
                    "another spec");
    if ((r->summary.maximize != 0) != (m->maximize != 0))
        return fail(s, path, "its objective's direction is not the spec's: the results of another spec");
    uint64_t *vec = calloc((size_t)m->nparams + 1, sizeof(uint64_t));
    if (!vec)
        return CUTUNE_ENOMEM;
    for (uint64_t i = 0; i < r->n; i++) {
        const record *rec = r->records[i];
        const cutune_measurement *mm = &rec->m;
        bool in_space = prior_config_of(m, rec, NULL, vec); /* the names matched in order above */
        uint64_t key = in_space ? sspace_encode(s->sp, vec) : 0;
        if (!in_space || !sspace_valid(s->sp, key))
            continue; /* recorded, but not in this space (e.g. other --set values): not needed */
        rec_entry *e = &s->by_ordinal[sspace_ordinal(s->sp, key)];
        e->present = true;
        e->objective = mm->timed ? mm->objective : NAN;
        e->ok = rec->out == OUTCOME_OK && mm->timed && isfinite(e->objective);
        e->has_static = replay_static_of(rec, &e->st);
        if (!e->has_static) { /* what guided's screening still learns: compiled, launchable */
            e->st.compiled = rec->out != OUTCOME_COMPILE_ERROR;
            e->st.launchable = e->st.compiled && rec->out != OUTCOME_CANNOT_LAUNCH;
            e->st.registers = mm->registers;
            e->st.spill_bytes = mm->spill_stores + mm->spill_loads;
            e->st.occupancy = mm->occupancy;
        }
        e->gpu_seconds = mm->gpu_seconds;
        e->compile_seconds = mm->compile_seconds;
    }
    free(vec);
    uint64_t missing = 0, first = 0;
    for (uint64_t o = 0; o < sspace_count(s->sp); o++)
        if (!s->by_ordinal[o].present && missing++ == 0)
            first = o;
    if (missing) {
        value *vals = calloc((size_t)m->nparams + 1, sizeof(value));
        strbuf sb = STRBUF_INIT;
        if (vals)
            sspace_values(s->sp, sspace_at(s->sp, first), vals);
        if (vals)
            space_describe_config(m, vals, ~(param_set)0, &sb);
        snprintf(msg, sizeof msg,
                 "the recording does not cover the space: %llu of its %llu valid configurations "
                 "are missing (the first: %s); simulate needs an exhaustive run of this spec, with the same --set",
                 (unsigned long long)missing, (unsigned long long)sspace_count(s->sp), sb_ok(&sb) ? sb_cstr(&sb) : "?");
        sb_free(&sb);
        free(vals);
        return fail(s, path, msg);
    }
    return CUTUNE_OK;
}

/* A configuration's binary as a 128-bit hash of what it compiles (its plan's name
 * expression, -D macros and options: the identity session.c tells binaries apart by). */
typedef struct binary_id {
    XXH128_hash_t h;
    uint64_t ordinal;
} binary_id;

static int by_binary(const void *pa, const void *pb)
{
    const binary_id *a = pa, *b = pb;
    if (a->h.high64 != b->h.high64)
        return a->h.high64 < b->h.high64 ? -1 : 1;
    if (a->h.low64 != b->h.low64)
        return a->h.low64 < b->h.low64 ? -1 : 1;
    return (a->ordinal > b->ordinal) - (a->ordinal < b->ordinal);
}

/* Sets by_ordinal[o].binary for every configuration o: the first ordinal that plans the
 * same binary, so that a run pays each binary's compile once, as the tuner does (a
 * variant that differs from an earlier one only in its launch is not compiled again).
 * The recording cannot say this: a converted one lists no macros. CUTUNE_OK,
 * CUTUNE_ENOMEM, or CUTUNE_EEVAL when a configuration cannot be planned. */
static int group_binaries(sim *s)
{
    uint64_t count = sspace_count(s->sp);
    binary_id *ids = malloc(sizeof *ids * (size_t)(count ? count : 1));
    value *vals = calloc((size_t)s->m->nparams + 1, sizeof(value));
    arena *a = arena_new();
    strbuf sb = STRBUF_INIT;
    int rc = ids && vals && a ? CUTUNE_OK : CUTUNE_ENOMEM;
    for (uint64_t o = 0; o < count && rc == CUTUNE_OK; o++) {
        variant v;
        eval_error err;
        arena_reset(a);
        sb_reset(&sb);
        sspace_values(s->sp, sspace_at(s->sp, o), vals);
        if (plan_variant(s->m, vals, a, &v, &err) < 0) {
            rc = err_set(CUTUNE_EEVAL, "%s", err.message);
            break;
        }
        plan_identity(&sb, v.name_expression, (const char *const *)v.defines, v.ndefines,
                      (const char *const *)v.options, v.noptions);
        if (!sb_ok(&sb)) {
            rc = CUTUNE_ENOMEM;
            break;
        }
        ids[o] = (binary_id){XXH3_128bits(sb_cstr(&sb), sb.len), o};
    }
    if (rc == CUTUNE_OK) {
        qsort(ids, (size_t)count, sizeof *ids, by_binary);
        for (uint64_t i = 0; i < count; i++) { /* sorted: each binary's first ordinal leads its run */
            bool same = i > 0 && XXH128_isEqual(ids[i].h, ids[i - 1].h);
            s->by_ordinal[ids[i].ordinal].binary = same ? s->by_ordinal[ids[i - 1].ordinal].binary : ids[i].ordinal;
        }
    }
    sb_free(&sb);
    arena_free(a);
    free(vals);
    free(ids);
    return rc;
}

static int by_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* The q-quantile of sorted v (linear interpolation). */
static double quantile(const double *v, int n, double q)
{
    if (n == 0)
        return NAN;
    double at = q * (n - 1);
    int lo = (int)floor(at);
    int hi = lo + 1 < n ? lo + 1 : lo;
    return v[lo] + (v[hi] - v[lo]) * (at - lo);
}

/* A variant in flight: asked, compiling or compiled, waiting for the GPU. */
typedef struct flight {
    uint64_t key;
    double ready; /* when its compile ends */
    double paid;  /* the compile seconds it paid: 0 when its binary was another's first */
    uint64_t seq; /* the order asked */
} flight;

/* One run: the search over the recording, through the pipeline the tuner runs
 * (tuner/run.c): the strategy is asked whenever fewer than the window are in flight;
 * each variant asked is compiled on the first free of `threads` compile threads (in the
 * order asked), then run on the one GPU in the order its compile finished; its outcome
 * is told when its GPU run ends, so a strategy proposes with the outcomes a real run
 * would have in hand, no more. The run's wall is the last outcome's time. */
static int run_once(sim *s, const search_settings *settings, double true_best, cutune_sim_run *out)
{
    uint64_t count = sspace_count(s->sp);
    memset(s->compiled, 0, sizeof(bool) * (size_t)count);
    for (int i = 0; i < s->threads; i++)
        s->free_at[i] = 0;
    s->clock = 0;
    s->compile_sum = 0;
    search_settings set = *settings;
    set.parallel = s->threads;
    search_hooks h = {s, sim_clock, sim_static, NULL};
    if (set.strategy != STRAT_GUIDED)
        h.static_info = NULL;
    search *se;
    if (search_new(&se, s->sp, &set, &h) < 0)
        return err_recode(CUTUNE_ENOMEM);
    /* The window as the tuner's: 4 a compile thread, at least 16. */
    int window = s->threads * 4 > 16 ? s->threads * 4 : 16, nflight = 0, n, rc = CUTUNE_OK;
    flight *fl = malloc(sizeof(flight) * (size_t)window);
    uint64_t *asked = malloc(sizeof(uint64_t) * (size_t)window), seq = 0;
    double gpu_sum = 0;
    if (!fl || !asked) {
        free(fl);
        free(asked);
        search_free(se);
        return CUTUNE_ENOMEM;
    }
    for (;;) {
        if (nflight < window && !search_stopped(se)) {
            if (search_ask(se, asked, window - nflight, &n) < 0)
                break;
            for (int i = 0; i < n; i++) {
                double paid, at = binary_ready(s, sspace_ordinal(s->sp, asked[i]), &paid);
                fl[nflight++] = (flight){asked[i], at > s->clock ? at : s->clock, paid, seq++};
            }
        }
        if (nflight == 0 || search_stopped(se))
            break;    /* what is still in flight is never evaluated */
        int next = 0; /* the GPU takes the variant compiled first */
        for (int i = 1; i < nflight; i++)
            if (fl[i].ready < fl[next].ready || (fl[i].ready == fl[next].ready && fl[i].seq < fl[next].seq))
                next = i;
        flight f = fl[next];
        fl[next] = fl[--nflight];
        const rec_entry *e = &s->by_ordinal[sspace_ordinal(s->sp, f.key)];
        bool static_failure = !e->st.compiled || !e->st.launchable; /* known from its compile: no GPU run */
        double gpu = static_failure ? 0.0 : e->gpu_seconds;
        s->clock = (f.ready > s->clock ? f.ready : s->clock) + gpu;
        gpu_sum += gpu;
        search_tell_seconds(se, f.paid, gpu);
        if (e->has_static) /* what its compile said, as the tuner tells it, before the outcome */
            (void)search_tell_static(se, f.key, &e->st);
        if (static_failure)
            search_tell_static_failure(se, f.key);
        else
            search_tell(se, f.key, e->ok, e->objective);
    }
    free(fl);
    free(asked);
    if (search_error(se)[0])
        rc = err_set(CUTUNE_ENOMEM, "%s", search_error(se));
    out->seed = set.seed;
    out->evaluations = search_evaluations(se);
    out->screened = search_screened(se);
    uint64_t key;
    double best;
    out->found = search_best(se, &key, &best);
    out->best = out->found ? best : NAN;
    out->best_index = out->found ? sspace_ordinal(s->sp, key) : 0;
    out->best_at = out->found ? search_best_at(se) : 0; /* the count when found: 1-based already */
    out->ratio = !out->found ? 0.0 : set.maximize ? best / true_best : true_best / best;
    out->seconds = s->clock;
    double compile = s->compile_sum / s->threads;
    out->bound_seconds = compile > gpu_sum ? compile : gpu_sum;
    out->stop_reason = search_stop_reason(se); /* static: the search's own words */
    search_free(se);
    return rc;
}

int replay_run(const model *m, sspace *sp, const cutune_tune_result *recording, const char *path,
               const search_settings *settings, int repeat, int threads, cutune_sim_report **out)
{
    *out = NULL;
    sim s = {.m = m, .sp = sp, .threads = threads > 0 ? threads : 1};
    search_settings set = *settings;
    uint64_t count = sspace_count(sp);
    cutune_sim_report *rep = NULL;
    int rc = CUTUNE_OK;
    if (repeat < 1)
        repeat = 1;
    s.by_ordinal = calloc((size_t)count, sizeof(rec_entry));
    s.compiled = calloc((size_t)count, sizeof(bool));
    s.compiled_at = calloc((size_t)count, sizeof(double));
    s.free_at = calloc((size_t)s.threads, sizeof(double));
    rep = calloc(1, sizeof *rep);
    if (!s.by_ordinal || !s.compiled || !s.compiled_at || !s.free_at || !rep ||
        !(rep->runs = calloc((size_t)repeat, sizeof(cutune_sim_run)))) {
        rc = CUTUNE_ENOMEM;
        goto done;
    }
    if ((rc = load_recording(&s, path, recording)) < 0 || (rc = group_binaries(&s)) < 0)
        goto done;
    bool maximize = recording->summary.maximize;
    if (!(rep->objective_name = strdup(recording->summary.objective_name))) { /* the report's own: freed with it */
        rc = CUTUNE_ENOMEM;
        goto done;
    }
    rep->maximize = maximize;
    rep->space = count;
    int64_t best = -1;
    for (uint64_t o = 0; o < count; o++) {
        const rec_entry *e = &s.by_ordinal[o];
        if (!e->ok)
            continue;
        rep->recorded_ok++;
        if (best < 0 ||
            (maximize ? e->objective > s.by_ordinal[best].objective : e->objective < s.by_ordinal[best].objective))
            best = (int64_t)o;
    }
    if (best < 0) {
        rc = fail(&s, path, "no configuration ran correctly in the recording: there is no best to find");
        goto done;
    }
    rep->true_best = s.by_ordinal[best].objective;
    rep->true_best_index = (uint64_t)best;
    rep->strategy = model_strategy_name(set.strategy); /* static */
    rep->seed = set.seed;
    rep->budget = set.budget;
    rep->patience = set.patience;
    rep->time_limit_s = set.time_limit_s;
    double *ratios = malloc(sizeof(double) * (size_t)repeat), *evals = malloc(sizeof(double) * (size_t)repeat);
    if (!ratios || !evals) {
        free(ratios);
        free(evals);
        rc = CUTUNE_ENOMEM;
        goto done;
    }
    for (int r = 0; r < repeat && rc == CUTUNE_OK; r++) {
        search_settings one = set;
        one.seed = set.seed + (uint64_t)r;
        rc = run_once(&s, &one, rep->true_best, &rep->runs[r]);
        ratios[r] = rep->runs[r].ratio;
        evals[r] = (double)rep->runs[r].evaluations;
        rep->nruns = r + 1;
    }
    qsort(ratios, (size_t)rep->nruns, sizeof(double), by_double);
    qsort(evals, (size_t)rep->nruns, sizeof(double), by_double);
    rep->median = quantile(ratios, rep->nruns, 0.5);
    rep->q1 = quantile(ratios, rep->nruns, 0.25);
    rep->q3 = quantile(ratios, rep->nruns, 0.75);
    rep->min = rep->nruns ? ratios[0] : NAN;
    rep->max = rep->nruns ? ratios[rep->nruns - 1] : NAN;
    rep->median_evaluations = quantile(evals, rep->nruns, 0.5);
    free(ratios);
    free(evals);
done:
    free(s.by_ordinal);
    free(s.compiled);
    free(s.compiled_at);
    free(s.free_at);
    if (rc < 0) {
        if (rep) { /* as the public free of a report does, without reaching back into api/ */
            free(rep->runs);
            free((char *)rep->objective_name);
        }
        free(rep);
        rep = NULL;
    }
    *out = rep;
    return rc;
}
