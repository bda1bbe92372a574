/* run.c - the one tuning loop, every strategy's, exhaustive included, and the run's
 * summary (run.h). Above tuner.c (the run's state) and the loop's steps
 * (loop.c, fleet.c, finish.c, counters.c), none of which calls back up into it.
 *
 * The strategy (search/) proposes configurations; a compile session streams them
 * (session_stream): the pool compiles a bounded window ahead while this thread sends
 * each variant, as soon as it is compiled (not in the order proposed), to an idle GPU's
 * worker (loop.c, fleet.c), and journals each outcome when its answer comes and tells
 * the strategy (finish.c). The window is refilled from the strategy whenever it
 * has room, so the GPU never waits for a batch to drain unless the strategy itself must
 * wait for outcomes (a genetic generation, a local search's neighbourhood). Budgets,
 * patience and the time limit are the search driver's, for every strategy. Every configuration in the journal (of the same identity) is told to the
 * search before it starts (search_know: known, free, never asked, possibly the best) and
 * joins the results in the first batch, read back, not run: a second search on the same
 * journal loses nothing the first measured, whatever its strategy proposes. */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/sys.h"
#include "../base/trace.h"
#include "../results/prior.h"
#include "../results/replay.h"
#include "counters.h"
#include "finish.h"
#include "fleet.h"
#include "loop.h"
#include "run.h"

typedef struct search_run {
    tuner *t;
    sspace *sp;
    search *se;
    session *ss;
    uint64_t *keys; /* the batch: journal read-backs first, then asked */
    int nkeys, cap;
    value *vals;
    uint64_t *ordinals;
    int qi;             /* the next key of `keys` to feed */
    int64_t read_back;  /* how many of the first keys are the journal's read-backs */
    uint64_t delivered; /* variants the session has delivered (search_each calls) */
    uint64_t *asked;    /* scratch for search_ask */
    int chunk;          /* how many to ask for at once */
    value *feed_vals;   /* the fed configuration's values */
    session *static_ss; /* guided's screening compiles (a session of its own: the
                                 stream's session is busy while the strategy proposes) */
    search_static *st;  /* static_info's output */
    int st_at;
    session_binary *bins; /* each record's binary (its pointers the session's, valid
                                 until it closes), for the final race; cubin NULL: none */
    uint64_t nbins;
    search_prior *prior; /* --prior's scores (t->set.prior borrows them until done) */
} search_run;

static uint64_t key_of(const search_run *sr, uint64_t ordinal)
{
    return sspace_key_of(sr->sp, ordinal);
}

static int push_key(search_run *sr, uint64_t key)
{
    if (sr->nkeys == sr->cap) {
        int cap = sr->cap ? sr->cap * 2 : 256;
        uint64_t *k = realloc(sr->keys, sizeof(uint64_t) * (size_t)cap);
        if (!k)
            return -1;
        sr->keys = k;
        sr->cap = cap;
    }
    sr->keys[sr->nkeys++] = key;
    return 0;
}

/* Compiles keys[0 .. n) through session `ss`, calling `each` for each. */
static int run_keys(search_run *sr, session *ss, const uint64_t *keys, int n, session_each each)
{
    int np = sr->t->m->nparams;
    value *vals = malloc(sizeof(value) * (size_t)(n * np + 1));
    uint64_t *ords = malloc(sizeof(uint64_t) * (size_t)(n + 1));
    if (!vals || !ords) {
        free(vals);
        free(ords);
        return CUTUNE_ENOMEM;
    }
    for (int i = 0; i < n; i++) {
        sspace_values(sr->sp, keys[i], vals + (size_t)i * (size_t)np);
        ords[i] = sspace_ordinal(sr->sp, keys[i]);
    }
    int rc = session_run(ss, vals, ords, n, each, sr);
    free(vals);
    free(ords);
    return rc;
}

/* Tells the search every configuration in the journal and queues each for the first
 * batch (read back into the results, not run). Returns how many, or -1 when out of
 * memory (with a diagnostic). */
static int64_t know_journal(search_run *sr)
{
    tuner *t = sr->t;
    int64_t n = 0;
    for (uint64_t i = 0; i < journal_count(t->journal); i++) {
        uint64_t ord;
        const journal_entry *e = journal_entry_at(t->journal, i, &ord);
        uint64_t key = key_of(sr, ord);
        if (!sspace_valid(sr->sp, key) || sspace_ordinal(sr->sp, key) != ord)
            continue; /* not a configuration of this space (cannot happen with the same identity) */
        sspace_values(sr->sp, key, t->vals);
        if (!journal_entry_is(e, t->m, t->vals))
            continue;
        double objective;
        bool ok = journal_entry_outcome(e, &objective) == OUTCOME_OK && isfinite(objective); /* as search_each tells */
        uint64_t before = search_known_count(sr->se);
        if (search_know(sr->se, key, ok, objective) < 0) {
            diag_error_noloc(&t->spec->diags, "%s", search_error(sr->se));
            return -1;
        }
        if (search_known_count(sr->se) == before)
            continue; /* known already */
        if (push_key(sr, key) < 0) {
            diag_error_noloc(&t->spec->diags, "out of memory");
            return -1;
        }
        n++;
    }
    return n;
}

static int static_each(void *user, const cutune_analysis *a, const value *vals, const session_binary *bin)
{
    (void)vals;
    (void)bin;
    search_run *sr = user;
    search_static *st = &sr->st[sr->st_at++];
    st->compiled = a->compiled;
    st->launchable = a->launchable;
    st->registers = a->registers;
    st->spill_bytes = a->spill_stores + a->spill_loads;
    st->occupancy = a->occupancy.occupancy;
    st->static_smem = a->static_smem;
    st->threads = a->variant ? search_static_threads(a->variant->block) : 0;
    return 0;
}

static int static_info(void *user, const uint64_t *keys, int n, search_static *out)
{
    search_run *sr = user;
    sr->st = out;
    sr->st_at = 0;
    int rc = run_keys(sr, sr->static_ss, keys, n, static_each);
    return rc == CUTUNE_OK && sr->st_at == n ? 0 : -1;
}

static int search_each(void *user, const cutune_analysis *a, const value *vals, const session_binary *bin)
{
    search_run *sr = user;
    tuner *t = sr->t;
    uint64_t before = t->res->n;
    sr->delivered++;
    int rc = loop_each(t, a, vals, bin);
    if (rc < 0 || t->res->n == before)
        return rc;               /* a failure, or not taken: the search is over */
    if (t->res->n > sr->nbins) { /* the record's binary, for the final race */
        uint64_t cap = t->res->n * 2;
        session_binary *grown = realloc(sr->bins, sizeof *grown * (size_t)cap);
        if (!grown)
            return -1;
        memset(grown + sr->nbins, 0, sizeof *grown * (size_t)(cap - sr->nbins));
        sr->bins = grown;
        sr->nbins = cap;
    }
    if (bin)
        sr->bins[t->res->n - 1] = *bin;
    return rc; /* 1: a budget is spent: what is in flight in the session is not run */
}

/* tuner.done over the strategy: a finished variant's outcome is told (one read back
 * from the journal was known before the search began). 1 when a budget is spent. */
static int search_done(void *user, const record *rec)
{
    search_run *sr = user;
    if (rec->m.resumed)
        return 0;
    /* what compiling it cost this run: nothing when its binary came from the cache or an earlier variant */
    search_tell_seconds(sr->se, rec->m.cached || rec->m.duplicate ? 0.0 : rec->m.compile_seconds, rec->m.gpu_seconds);
    uint64_t key = key_of(sr, rec->v.ordinal);
    search_static st; /* what its compile said, told before its outcome */
    if (replay_static_of(rec, &st))
        (void)search_tell_static(sr->se, key, &st);
    if (rec->out == OUTCOME_COMPILE_ERROR || rec->out == OUTCOME_CANNOT_LAUNCH) /* known from the compile */
        search_tell_static_failure(sr->se, key);
    else
        search_tell(sr->se, key, rec->out == OUTCOME_OK && rec->m.timed, rec->m.objective);
    return search_stopped(sr->se) ? 1 : 0;
}

/* session_feed over the strategy: the journal's read-backs first, then what the
 * strategy proposes, asked `chunk` at a time. The strategy is asked only once every
 * read-back has been delivered (joined the results): the search counts them known
 * from the start (search_know), so the outcome of the last configuration it asks can
 * end it ("space exhausted", a budget), and a variant delivered after the end is not
 * taken (loop_each): a read-back still compiling then would be lost, neither read
 * back nor run (seen resuming: "5 variants" for a space of 6). */
static int feed(void *user, const value **vals, uint64_t *ordinal)
{
    search_run *sr = user;
    if (sr->qi == sr->nkeys && sr->delivered < (uint64_t)sr->read_back)
        return SESSION_WAIT; /* read-backs in flight (the first ones fed): they come first */
    if (sr->qi == sr->nkeys) {
        sr->qi = sr->nkeys = 0;
        int n = 0;
        if (search_ask(sr->se, sr->asked, sr->chunk, &n) < 0) {
            diag_error_noloc(&sr->t->spec->diags, "%s", search_error(sr->se));
            return CUTUNE_ENOMEM;
        }
        if (n == 0 && !search_stop_reason(sr->se)[0] && session_in_flight(sr->ss) > 0)
            /* what is in flight first: compiled, it would keep the idle GPUs busy while
             * this waited on a busy one's answer (at the end of an exhaustive run, a
             * window's worth of variants ran one at a time on a single GPU) */
            return SESSION_WAIT;
        if (n == 0 && !search_stop_reason(sr->se)[0] && fleet_busy(sr->t)) {
            /* waiting for outcomes, some of them on a GPU: the first answer may be
             * what the strategy waits for (it is told, then asked again) */
            if (fleet_collect(sr->t) < 0)
                return sr->t->status ? sr->t->status : CUTUNE_ENOMEM;
            return feed(user, vals, ordinal);
        }
        if (n == 0) /* over, or waiting for the outcomes of what the session has in flight */
            return search_stop_reason(sr->se)[0] ? 0 : SESSION_WAIT;
        for (int i = 0; i < n; i++)
            if (push_key(sr, sr->asked[i]) < 0)
                return CUTUNE_ENOMEM;
    }
    uint64_t key = sr->keys[sr->qi++];
    sspace_values(sr->sp, key, sr->feed_vals);
    *vals = sr->feed_vals;
    *ordinal = sspace_ordinal(sr->sp, key);
    return 1;
}

/* The record run for provisional twin `i` (the same experiment, found again by its
 * identity), or NULL when it cannot be found (then the twin is raced itself). */
static record *twin_run(search_run *sr, uint64_t i)
{
    tuner *t = sr->t;
    record *rec = t->res->records[i];
    twin_id id;
    if (!t->twins || rec->m.same_code_as < 0 || i >= sr->nbins ||
        twins_identity(t->twins, rec->vals, &rec->v, &sr->bins[i], &id) < 0)
        return NULL;
    int64_t at = twins_find(t->twins, id);
    return at >= 0 && (uint64_t)at < i ? t->res->records[at] : NULL;
}

/* With several GPUs, the spread between them is measured on the final race's first
 * contenders, which every GPU times (fleet_race_plan), and, up to
 * SPREAD_SAMPLE variants in all, on variants the first GPU timed in full during the run,
 * which the others time again: the cheapest first, while their GPU time adds up to
 * at most SPREAD_BUDGET of the run's GPU time per GPU (the spread must not
 * cost the run its scaling), and at least one when there is no contender. */
#define SPREAD_SAMPLE 8
#define SPREAD_BUDGET 0.02

/* The most contenders the final race times in full, the likeliest first (by their
 * provisional figures). A flat landscape has thousands within GOAL_CONTEND of the best
 * (the hub's dedispersion on an H100: 4,534 of 11,130 within 5 %, each some 30 ms a
 * launch): timing them all in full took longer than measuring the whole space, to tell
 * apart differences the race cannot resolve anyway (GOAL_SCREEN_FLOOR). The others keep
 * their provisional figures (they never win) and the account says how many. */
#define FINAL_RACE_MAX 16

/* Which records the race times: the contenders (marked in `race`, in order), then with
 * several GPUs the others the spread compares (above). Their indices into *out
 * (malloc'd), *n in all, the first *ncontend the contenders. -1 out of memory. */
static int race_list(search_run *sr, const bool *race, uint64_t **out, int *n, int *ncontend)
{
    tuner *t = sr->t;
    uint64_t *list = malloc(sizeof(uint64_t) * (size_t)(t->res->n + 1));
    if (!list)
        return -1;
    int k = 0;
    for (uint64_t i = 0; i < t->res->n; i++)
        if (race[i])
            list[k++] = i;
    for (int a = 1; a < k; a++) { /* the likeliest winners first: on one GPU, the others are
                                     screened against the best timed in full (fleet_race) */
        uint64_t at = list[a];
        int b = a;
        for (; b > 0 &&
               goal_better(&t->goal, t->res->records[at]->m.objective, t->res->records[list[b - 1]]->m.objective);
             b--)
            list[b] = list[b - 1];
        list[b] = at;
    }
    if (k > FINAL_RACE_MAX) /* the likeliest FINAL_RACE_MAX; race[] still marks all of them */
        k = FINAL_RACE_MAX;
    *ncontend = k;
    double run = 0, spent = 0; /* the GPU time this run has spent on its variants */
    for (uint64_t i = 0; i < t->res->n; i++)
        run += t->res->records[i]->m.resumed ? 0 : t->res->records[i]->m.gpu_seconds;
    double budget = SPREAD_BUDGET * run / t->ngpus;
    while (t->ngpus > 1 && k < SPREAD_SAMPLE) { /* the cheapest other, one at a time */
        int64_t cheapest = -1;
        for (uint64_t i = 0; i < t->res->n; i++) {
            const record *rec = t->res->records[i];
            const cutune_measurement *m = &rec->m;
            bool listed = race[i];
            for (int j = *ncontend; !listed && j < k; j++)
                listed = list[j] == i;
            if (!listed && rec->out == OUTCOME_OK && m->timed && !m->provisional && !m->pruned && !m->resumed &&
                m->same_code_as < 0 && m->device == t->gpus[0].plan.device && i < sr->nbins && sr->bins[i].cubin &&
                (cheapest < 0 || m->gpu_seconds < t->res->records[cheapest]->m.gpu_seconds))
                cheapest = (int64_t)i;
        }
        if (cheapest < 0 || (k > 0 && spent + t->res->records[cheapest]->m.gpu_seconds > budget))
            break; /* over the budget, unless nothing would be compared at all */
        spent += t->res->records[cheapest]->m.gpu_seconds;
        list[k++] = (uint64_t)cheapest;
    }
    *out = list;
    *n = k;
    return 0;
}

/* The records of ordinals ords[0 .. n) (by position: index_of), whose binaries a batch
 * compiles for the final race. */
typedef struct race_fetch {
    search_run *sr;
    const uint64_t *ords, *index_of;
    int n;
} race_fetch;

static int keep_race_binary(void *user, const cutune_analysis *a, const value *vals, const session_binary *bin)
{
    (void)vals;
    race_fetch *f = user;
    for (int i = 0; bin && i < f->n; i++)
        if (f->ords[i] == a->variant->ordinal)
            f->sr->bins[f->index_of[i]] = *bin;
    return 0;
}

/* The read-backs that may race (provisional, within the contender margin, among the
 * likeliest FINAL_RACE_MAX) have no binary: the stream read them back without compiling
 * them (loop_known). They are compiled now (from the cache, as a rule), a few where the
 * stream would have compiled every one, and those that ran themselves join the twins, so
 * that a twin read back with them takes their final figures. CUTUNE_OK, or a status. */
static int race_binaries(search_run *sr)
{
    tuner *t = sr->t;
    int np = t->m->nparams, n = 0, rc = CUTUNE_OK;
    uint64_t *ords = malloc(sizeof(uint64_t) * (size_t)(t->res->n + 1));
    uint64_t *index_of = malloc(sizeof(uint64_t) * (size_t)(t->res->n + 1));
    value *vals = malloc(sizeof(value) * ((size_t)t->res->n * (size_t)np + 1));
    if (!ords || !index_of || !vals)
        rc = CUTUNE_ENOMEM;
    /* the likeliest FINAL_RACE_MAX of every provisional variant within the margin (the
     * race's own choice, race_list), in index_of[0 .. top) by their objectives */
    int top = 0;
    for (uint64_t i = 0; rc == CUTUNE_OK && i < t->res->n && i < sr->nbins; i++) {
        const record *rec = t->res->records[i];
        t->goal.vals = rec->vals; /* the goal judges this configuration */
        if (!rec->m.provisional || !t->goal.have_best || goal_worse(&t->goal, rec->m.min_ms, GOAL_CONTEND))
            continue;
        int at = top < FINAL_RACE_MAX ? top++ : top;
        for (; at > 0 && goal_better(&t->goal, rec->m.objective, t->res->records[index_of[at - 1]]->m.objective); at--)
            if (at < FINAL_RACE_MAX)
                index_of[at] = index_of[at - 1];
        if (at < FINAL_RACE_MAX)
            index_of[at] = i;
    }
    for (int j = 0; rc == CUTUNE_OK && j < top; j++) { /* of those, the read-backs without a binary */
        const record *rec = t->res->records[index_of[j]];
        if (!rec->m.resumed || sr->bins[index_of[j]].cubin)
            continue;
        memcpy(&vals[(size_t)n * (size_t)np], rec->vals, sizeof(value) * (size_t)np);
        ords[n] = rec->v.ordinal;
        index_of[n++] = index_of[j]; /* n <= j: nothing still to be read is overwritten */
    }
    race_fetch f = {sr, ords, index_of, n};
    if (rc == CUTUNE_OK && n > 0)
        rc = session_run(sr->ss, vals, ords, n, keep_race_binary, &f);
    for (int k = 0; rc == CUTUNE_OK && t->twins && k < n; k++) {
        uint64_t i = index_of[k];
        const record *rec = t->res->records[i];
        twin_id id;
        if (rec->m.same_code_as < 0 && sr->bins[i].cubin &&
            twins_identity(t->twins, rec->vals, &rec->v, &sr->bins[i], &id) == 0 &&
            twins_add(t->twins, id, i) != CUTUNE_OK)
            rc = CUTUNE_ENOMEM;
    }
    free(ords);
    free(index_of);
    free(vals);
    return rc;
}

/* The final race: every provisional variant still within the contender margin of the
 * race's best is timed in full (no early stop: warm-ups, the spread rule, up to
 * max_repeat) and may then win; the others cannot win and are marked pruned. The
 * contenders go in the order of their provisional objectives, the likeliest first: on
 * one GPU each after the first is screened against the best timed in full before it
 * (fleet_race) and, when clearly behind after a few samples, stops there, pruned, or
 * when level with it, pruned and tied (the place stays with the one timed in full). With
 * several GPUs, each contender is timed on whichever GPU is free, and the first
 * contenders (and a few more, above) on every GPU, for the spread (fleet_race). A twin (twins.c) takes its run's
 * final figures instead: its run comes first in the results. Each is journaled again,
 * in order. CUTUNE_OK, or a status (the worker could not start, the journal). */
static int final_race(search_run *sr)
{
    tuner *t = sr->t;
    int st = race_binaries(sr);
    if (st != CUTUNE_OK)
        return st;
    bool *race = calloc((size_t)t->res->n + 1, sizeof(bool));
    bool *left = calloc((size_t)t->res->n + 1, sizeof(bool));
    record **twin = calloc((size_t)t->res->n + 1, sizeof(record *));
    if (!race || !left || !twin) {
        free(race);
        free(left);
        free(twin);
        return CUTUNE_ENOMEM;
    }
    for (uint64_t i = 0; i < t->res->n; i++) { /* who races, who takes a twin's, who is pruned */
        cutune_measurement *m = &t->res->records[i]->m;
        if (!m->provisional)
            continue;
        t->goal.vals = t->res->records[i]->vals; /* the goal judges this configuration */
        if ((twin[i] = twin_run(sr, i)) != NULL)
            continue;
        bool near = t->goal.have_best && !goal_worse(&t->goal, m->min_ms, GOAL_CONTEND);
        race[i] = near && i < sr->nbins && sr->bins[i].cubin;
        left[i] = near && !race[i]; /* a read-back past FINAL_RACE_MAX, not compiled: provisional */
    }
    uint64_t *list = NULL;
    int n = 0, ncontend = 0, rc = race_list(sr, race, &list, &n, &ncontend) < 0 ? CUTUNE_ENOMEM : CUTUNE_OK;
    const session_binary **bins = calloc((size_t)n + 1, sizeof *bins);
    const record **vs = calloc((size_t)n + 1, sizeof *vs);
    const record **refs = calloc((size_t)n + 1, sizeof *refs);
    record **full = calloc((size_t)n + 1, sizeof *full);
    if (rc == CUTUNE_OK && (!bins || !vs || !refs || !full))
        rc = CUTUNE_ENOMEM;
    for (int j = 0; rc == CUTUNE_OK && j < n; j++) {
        bins[j] = &sr->bins[list[j]];
        vs[j] = t->res->records[list[j]];
        refs[j] = t->res->records[list[j]];
    }
    if (rc == CUTUNE_OK && n > 0) {
        trace_event('B', 0, NULL, "final race: %d variants", n);
        rc = fleet_race(t, bins, vs, refs, n, ncontend, full);
        trace_event('E', 0, rc == CUTUNE_OK ? NULL : "failed", "final race: %d variants", n);
    }
    for (uint64_t i = 0; rc == CUTUNE_OK && i < t->res->n; i++) {
        record *rec = t->res->records[i];
        if (!rec->m.provisional)
            continue;
        if (race[i]) {
            int j = 0;
            while (j < ncontend && list[j] != i) /* the contenders are in the race's order */
                j++;
            if (j == ncontend || !full[j])
                continue; /* past FINAL_RACE_MAX, or not timed (interrupted): provisional, as it was */
            result_take_run(t->res, rec, full[j]); /* its race's figures, launches and times added */
        } else if (twin[i] && !twin[i]->m.provisional) {
            loop_take_twin(t, rec, twin[i]);
        } else if (left[i] || (twin[i] && twin[i]->m.provisional)) {
            continue; /* past FINAL_RACE_MAX, or its run is: provisional */
        } else {
            rec->m.provisional = 0;
            rec->m.pruned = 1; /* it cannot win: not timed further */
        }
        if ((rc = finish_rejournal(t, rec)) < 0)
            break;
        finish_note_winner(t, rec);
    }
    free(race);
    free(left);
    free(twin);
    free(list);
    free(bins);
    free(vs);
    free(refs);
    free(full);
    return rc;
}

/* open_space: sr->sp, the space searched (this shard of it), and sr->prior (--prior's
 * scores of it, also lent to t->set). CUTUNE_OK, or a status with a diagnostic and
 * nothing left open. */
static int open_space(search_run *sr)
{
    tuner *t = sr->t;
    if (sspace_new(&sr->sp, t->m, 0) < 0) {
        diag_error_noloc(&t->spec->diags, "%s", err_last()->message);
        return CUTUNE_EEVAL;
    }
    if (t->opts->shard_count > 1 &&
        sspace_shard(sr->sp, (uint64_t)t->opts->shard_index, (uint64_t)t->opts->shard_count) < 0) {
        diag_error_noloc(&t->spec->diags, "shard %d/%d of a space of %llu configurations is empty",
                         t->opts->shard_index, t->opts->shard_count, (unsigned long long)sspace_count(sr->sp));
        sspace_free(sr->sp);
        return CUTUNE_EINVAL;
    }
    if (t->opts->search.npriors > 0) { /* --prior: earlier runs' scores of this space */
        search_prior *prior = NULL;
        int prc = prior_load(t->m, sr->sp, t->opts->search.priors, t->opts->search.npriors, &prior, &t->set.nprior);
        if (prc != CUTUNE_OK) {
            diag_error_noloc(&t->spec->diags, "--prior: %s", err_last()->message);
            sspace_free(sr->sp);
            return prc;
        }
        t->set.prior = sr->prior = prior;
    }
    return CUTUNE_OK;
}

/* The loop. CUTUNE_OK, or a status with a diagnostic. */
int run_search(tuner *t, const cutune_analyze_options *aopts, cutune_analyze_summary *asum)
{
    search_run sr;
    memset(&sr, 0, sizeof sr);
    sr.t = t;
    int rc = open_space(&sr);
    if (rc != CUTUNE_OK)
        return rc;
    phases *clock = t->res->clock; /* the loop: compiles awaited, or a GPU at work (gpu.c) */
    int was = clock ? phases_enter(clock, CUTUNE_PHASE_COMPILE) : 0;
    search_hooks hooks = {&sr, NULL, t->set.strategy == STRAT_GUIDED ? static_info : NULL, NULL};
    cutune_analyze_summary static_sum;
    memset(&static_sum, 0, sizeof static_sum);
    if ((rc = tuner_session(t, aopts, 0, asum, &sr.ss)) < 0 ||
        (hooks.static_info && (rc = tuner_session(t, aopts, 0, &static_sum, &sr.static_ss)) < 0))
        goto done;
    session_set_known(sr.ss, loop_known, t); /* the journal's variants are read back, not compiled */
    /* The search is made once the compile threads are known: a strategy that learns
     * from every outcome keeps as few in flight as keep the GPU fed from them. */
    t->set.parallel = asum->threads > 0 ? asum->threads : 1;
    if (search_new(&sr.se, sr.sp, &t->set, &hooks) < 0) {
        diag_error_noloc(&t->spec->diags, "%s", err_last()->message);
        rc = CUTUNE_ENOMEM;
        goto done;
    }
    /* Asked at once: enough to keep every compile thread (known once the session is
     * open) busy ahead of the GPU; a strategy may propose fewer. */
    sr.chunk = asum->threads * 4 > 16 ? asum->threads * 4 : 16;
    sr.asked = malloc(sizeof(uint64_t) * (size_t)sr.chunk);
    sr.feed_vals = calloc((size_t)t->m->nparams + 1, sizeof(value));
    if (!sr.asked || !sr.feed_vals) {
        diag_error_noloc(&t->spec->diags, "out of memory");
        rc = CUTUNE_ENOMEM;
        goto done;
    }
    int64_t read_back = sr.read_back = know_journal(&sr);
    if (read_back < 0) {
        rc = CUTUNE_ENOMEM;
        goto done;
    }
    uint64_t total = t->set.budget ? t->set.budget + (uint64_t)read_back : sspace_count(sr.sp);
    session_set_total(sr.ss, total < sspace_count(sr.sp) ? total : sspace_count(sr.sp));
    t->done = search_done;
    t->done_user = &sr;
    rc = session_stream(sr.ss, feed, &sr, search_each, &sr);
    if (rc == CUTUNE_OK) /* no variant was taken: the GPUs' set-up still says whether they serve */
        rc = tuner_ready(t);
    /* What the GPUs have in flight is finished whatever stopped the stream: it is
     * measured, and journaled. */
    if (fleet_drain(t) < 0 && (rc == CUTUNE_OK || rc == CUTUNE_ESTOPPED))
        rc = t->status;
    t->done = NULL;
    if (rc == CUTUNE_ESTOPPED)
        rc = t->status ? t->status : CUTUNE_OK; /* a budget ran out with variants in flight */
    if (hooks.static_info) {                    /* guided's screening compiles count as this run's */
        asum->compiled += static_sum.compiled;
        asum->cached += static_sum.cached;
        asum->compile_seconds += static_sum.compile_seconds;
    }
    if (clock)
        phases_enter(clock, CUTUNE_PHASE_RACE);
    if (rc == CUTUNE_OK && !asum->interrupted && (rc = final_race(&sr)) < 0 && rc != CUTUNE_ENOMEM)
        diag_error_noloc(&t->spec->diags, "the final race: %s",
                         t->status && t->why ? t->why
                         : err_last()        ? err_last()->message
                                             : "error");
    /* the chosen variants' hardware counters, apart from their times */
    if (clock)
        phases_enter(clock, CUTUNE_PHASE_PROFILE);
    if (rc == CUTUNE_OK && !asum->interrupted && (rc = counters_read(t, sr.ss, sr.bins, sr.nbins)) < 0 &&
        rc != CUTUNE_ENOMEM)
        diag_error_noloc(&t->spec->diags, "profiling: %s",
                         t->status && t->why ? t->why
                         : err_last()        ? err_last()->message
                                             : "error");
    t->evaluations = search_evaluations(sr.se);
    t->stop = search_stop_reason(sr.se);
    t->res->summary.screened = search_screened(sr.se);
done:
    if (clock)
        phases_enter(clock, CUTUNE_PHASE_OTHER); /* the compile pool's end */
    session_close(sr.ss);
    session_close(sr.static_ss);
    search_free(sr.se);
    sspace_free(sr.sp);
    free(sr.keys);
    free(sr.asked);
    free(sr.feed_vals);
    free(sr.bins);
    free(sr.prior);
    t->set.prior = NULL;
    t->set.nprior = 0;
    if (clock)
        phases_enter(clock, was);
    return rc;
}

int run_tune(tuner *t)
{
    const cutune_tune_options *opts = t->opts;
    cutune_analyze_options aopts = CUTUNE_ANALYZE_OPTIONS_INIT; /* every default, then the run's */
    aopts.arch = t->gpus[0].plan.arch;
    aopts.jobs = opts->jobs;
    aopts.cache_dir = opts->cache_dir;
    aopts.no_cache = opts->no_cache;
    aopts.limit = opts->limit;
    aopts.progress = opts->progress;
    aopts.progress_user = opts->progress_user;
    aopts.cancel = opts->cancel;
    cutune_analyze_summary asum;
    memset(&asum, 0, sizeof asum);
    t->started = sys_seconds();
    int rc;
    aopts.limit = 0; /* a budget now (tuner_new): the search driver's, as every budget */
    rc = run_search(t, &aopts, &asum);
    /* An exhaustive run that ran to its end stopped for no reason worth a word. */
    if (t->set.strategy == STRAT_EXHAUSTIVE &&
        (strcmp(t->stop, "space exhausted") == 0 || strcmp(t->stop, "strategy finished") == 0))
        t->stop = "";
    cutune_tune_summary *s = &t->res->summary;
    s->strategy = model_strategy_name(t->set.strategy); /* static */
    s->seed = t->set.seed;
    s->budget = t->set.budget;
    s->time_limit_s = t->set.time_limit_s;
    s->patience = t->set.patience;
    s->evaluations = t->evaluations;
    s->stop_reason = t->stop[0] ? t->stop : NULL; /* static: the search's words */
    const char *why = t->why ? t->why : "out of memory";
    if (t->status == CUTUNE_EIO && t->ready_status == CUTUNE_OK)
        diag_error_noloc(&t->spec->diags, "%s", why);
    if ((t->status == CUTUNE_ENODEV || t->status == CUTUNE_ENOMEM) && t->ready_status == CUTUNE_OK) {
        diag_error_noloc(&t->spec->diags, "%s", why);
        err_set(t->status, "%s", why);
    }
    s->compile_seconds = asum.compile_seconds;
    s->compile_wall_seconds = asum.wall_seconds;
    s->threads = asum.threads;
    s->compiled = asum.compiled;
    s->cached = asum.cached;
    if (asum.cache_warning) /* the spec's strings: copied, the result may outlive it */
        s->cache_warning = arena_strdup(t->res->arena, asum.cache_warning);
    if (asum.compile_warning)
        s->compile_warning = arena_strdup(t->res->arena, asum.compile_warning);
    s->interrupted = asum.interrupted;
    s->timeout_s = t->gpus[0].limit_s;
    return rc;
}
