/* replay.c - a search replayed over a recorded exhaustive run (see replay.h).
 *
 * The recording is matched to the spec's space by param values (not by index, so a
 * recording stays usable when the listing order would differ); every valid
 * configuration must be in it. The simulated clock advances by what the recording says
 * each configuration cost: its GPU seconds when evaluated, its compile seconds the
 * first time it is compiled (evaluated, or screened by guided). */
#include "replay.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../compiler/space.h"

/* Proposals in flight while replaying: the tuner asks for up to 4 per compile thread
 * ahead of the GPU (tuner/run.c), 64 on a 16-core host. */
enum { REPLAY_WINDOW = 64 };

/* ---- the recording -------------------------------------------------------------- */

typedef struct rec_entry {
    bool present, ok;
    double objective;
    search_static st;
    double gpu_seconds, compile_seconds;
} rec_entry;

typedef struct sim {
    const model *m;
    sspace *sp;
    char *err;                 /* the message of a failure */
    size_t errsize;
    rec_entry *by_ordinal;
    bool *compiled;            /* per ordinal: its compile has been paid for in this run */
    double clock;
} sim;

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
        if (!s->compiled[o]) {
            s->compiled[o] = true;
            s->clock += s->by_ordinal[o].compile_seconds;
        }
    }
    return 0;
}

static int fail(sim *s, const char *path, const char *what)
{
    snprintf(s->err, s->errsize, "%s: %s", path, what);
    return CUTUNE_EIO;
}

/* A recorded param value (as the results loader keeps it: text, docs/results-format.md)
 * as the param's type `t`; false when it is not a value of that type. The loader writes
 * integers in decimal, floats in the shortest form that reads back equal, booleans as
 * true/false, so this reads back exactly what the file held. */
static bool value_of(const char *text, vtype t, value *out)
{
    char *end;
    errno = 0;
    switch (t) {
    case VT_INT: {
        long long i = strtoll(text, &end, 10);
        if (end == text || *end || errno)
            return false;
        *out = value_int(i);
        return true;
    }
    case VT_FLOAT: {
        double d = strtod(text, &end);
        if (end == text || *end)
            return false;
        *out = value_float(d);
        return true;
    }
    case VT_BOOL:
        if (strcmp(text, "true") != 0 && strcmp(text, "false") != 0)
            return false;
        *out = value_bool(strcmp(text, "true") == 0);
        return true;
    default:
        *out = value_string(text);
        return true;
    }
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
        return fail(s, path, "its params are not the spec's (names and order must match): the results of "
                                   "another spec");
    if ((r->summary.maximize != 0) != (m->maximize != 0))
        return fail(s, path, "its objective's direction is not the spec's: the results of another spec");
    uint64_t *vec = calloc((size_t)m->nparams + 1, sizeof(uint64_t));
    if (!vec)
        return CUTUNE_ENOMEM;
    for (uint64_t i = 0; i < r->n; i++) {
        const record *rec = r->records[i];
        const cutune_variant *v = &rec->v;
        const cutune_measurement *mm = &rec->m;
        bool in_space = true;
        for (int p = 0; in_space && p < m->nparams; p++) {
            value val;
            int64_t at = -1;
            if (value_of(v->values[p], m->params[p].dom.type, &val))
                at = domain_find(&m->params[p].dom, val);
            in_space = at >= 0;
            vec[p] = (uint64_t)at;
        }
        uint64_t key = in_space ? sspace_encode(s->sp, vec) : 0;
        if (!in_space || !sspace_valid(s->sp, key))
            continue; /* recorded, but not in this space (e.g. other --set values): not needed */
        rec_entry *e = &s->by_ordinal[sspace_ordinal(s->sp, key)];
        e->present = true;
        e->objective = mm->timed ? mm->objective : NAN;
        e->ok = rec->out == OUTCOME_OK && mm->timed && isfinite(e->objective);
        e->st.compiled = rec->out != OUTCOME_COMPILE_ERROR;
        e->st.launchable = e->st.compiled && rec->out != OUTCOME_CANNOT_LAUNCH;
        e->st.registers = mm->registers;
        e->st.spill_bytes = mm->spill_stores + mm->spill_loads;
        e->st.occupancy = mm->occupancy;
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
        snprintf(msg, sizeof msg, "the recording does not cover the space: %llu of its %llu valid configurations "
                 "are missing (the first: %s); simulate needs an exhaustive run of this spec, with the same --set",
                 (unsigned long long)missing, (unsigned long long)sspace_count(s->sp), sb_ok(&sb) ? sb_cstr(&sb) : "?");
        sb_free(&sb);
        free(vals);
        return fail(s, path, msg);
    }
    return CUTUNE_OK;
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

/* One run: the search over the recording. */
static int run_once(sim *s, const search_settings *set, const rec_entry *best_entry, double true_best,
                    cutune_sim_run *out)
{
    (void)best_entry;
    uint64_t count = sspace_count(s->sp);
    memset(s->compiled, 0, sizeof(bool) * (size_t)count);
    s->clock = 0;
    search_hooks h = {s, sim_clock, sim_static, NULL};
    if (set->strategy != STRAT_GUIDED)
        h.static_info = NULL;
    search *se;
    char err[256];
    if (search_new(&se, s->sp, set, &h, err, sizeof err) < 0) {
        snprintf(s->err, s->errsize, "%s", err);
        return CUTUNE_ENOMEM;
    }
    /* As the tuner streams them (tuner/run.c): the strategy is asked whenever fewer than
     * REPLAY_WINDOW proposals are in flight, and each outcome is told as its variant
     * finishes, first in first out, so a strategy proposes with the outcomes a real run
     * would have in hand, no more. */
    uint64_t queue[REPLAY_WINDOW], asked[REPLAY_WINDOW];
    int head = 0, queued = 0, n, rc = CUTUNE_OK;
    for (;;) {
        if (queued < REPLAY_WINDOW && !search_stopped(se)) {
            if (search_ask(se, asked, REPLAY_WINDOW - queued, &n) < 0)
                break;
            for (int i = 0; i < n; i++)
                queue[(head + queued++) % REPLAY_WINDOW] = asked[i];
        }
        if (queued == 0 || search_stopped(se))
            break; /* what is still queued is never evaluated */
        uint64_t key = queue[head];
        head = (head + 1) % REPLAY_WINDOW;
        queued--;
        uint64_t o = sspace_ordinal(s->sp, key);
        const rec_entry *e = &s->by_ordinal[o];
        if (!s->compiled[o]) {
            s->compiled[o] = true;
            s->clock += e->compile_seconds;
        }
        s->clock += e->gpu_seconds;
        search_tell(se, key, e->ok, e->objective);
    }
    if (search_error(se)[0]) {
        snprintf(s->err, s->errsize, "%s", search_error(se));
        rc = CUTUNE_ENOMEM;
    }
    out->seed = set->seed;
    out->evaluations = search_evaluations(se);
    out->screened = search_screened(se);
    uint64_t key;
    double best;
    out->found = search_best(se, &key, &best);
    out->best = out->found ? best : NAN;
    out->best_index = out->found ? sspace_ordinal(s->sp, key) : 0;
    out->best_at = out->found ? search_best_at(se) + 1 : 0;
    out->ratio = !out->found ? 0.0 : set->maximize ? best / true_best : true_best / best;
    out->seconds = s->clock;
    snprintf(out->stop_reason, sizeof out->stop_reason, "%s", search_stop_reason(se));
    search_free(se);
    return rc;
}

int replay_run(const model *m, sspace *sp, const cutune_tune_result *recording, const char *path,
               const search_settings *settings, int repeat, cutune_sim_report **out, char *err, size_t errsize)
{
    *out = NULL;
    err[0] = '\0';
    sim s = {.m = m, .sp = sp, .err = err, .errsize = errsize};
    search_settings set = *settings;
    uint64_t count = sspace_count(sp);
    cutune_sim_report *rep = NULL;
    int rc = CUTUNE_OK;
    if (repeat < 1)
        repeat = 1;
    s.by_ordinal = calloc((size_t)count, sizeof(rec_entry));
    s.compiled = calloc((size_t)count, sizeof(bool));
    rep = calloc(1, sizeof *rep);
        if (!s.by_ordinal || !s.compiled || !rep || !(rep->runs = calloc((size_t)repeat, sizeof(cutune_sim_run)))) {
        rc = CUTUNE_ENOMEM;
        goto done;
    }
    if ((rc = load_recording(&s, path, recording)) < 0)
        goto done;
    bool maximize = recording->summary.maximize;
    snprintf(rep->objective_name, sizeof rep->objective_name, "%s", recording->summary.objective_name);
    rep->maximize = maximize;
    rep->space = count;
    int64_t best = -1;
    for (uint64_t o = 0; o < count; o++) {
        const rec_entry *e = &s.by_ordinal[o];
        if (!e->ok)
            continue;
        rep->recorded_ok++;
        if (best < 0 || (maximize ? e->objective > s.by_ordinal[best].objective
                                  : e->objective < s.by_ordinal[best].objective))
            best = (int64_t)o;
    }
    if (best < 0) {
        rc = fail(&s, path, "no configuration ran correctly in the recording: there is no best to find");
        goto done;
    }
    rep->true_best = s.by_ordinal[best].objective;
    rep->true_best_index = (uint64_t)best;
    snprintf(rep->strategy, sizeof rep->strategy, "%s", strategy_name(set.strategy));
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
        rc = run_once(&s, &one, &s.by_ordinal[best], rep->true_best, &rep->runs[r]);
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
    if (rc < 0) {
        if (rep)
            free(rep->runs); /* as the public free of a report does, without reaching back into api/ */
        free(rep);
        rep = NULL;
    }
    *out = rep;
    return rc;
}
