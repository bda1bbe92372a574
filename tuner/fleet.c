/* fleet.c - the variants in flight on the run's GPU workers, one per GPU (fleet.h;
 * the workers are started with the tuner, tuner.c).
 *
 * The compile session hands the tuner one variant at a time, on this thread. A variant
 * that must run goes to an idle GPU's worker (runtime/worker's pipe) and the tuner
 * returns for the next at once. Of several idle GPUs, the one idle the longest gets it
 * (fleet_pick), so no GPU is favoured by its place. Only when every GPU is busy does
 * it wait, for whichever worker answers first (wk_wait_any), and then takes every other
 * answer already there too, looking at the GPUs in turn: a GPU whose variants are
 * short cannot keep another's answer waiting behind its own. It sends the next variant,
 * and only then finishes those that answered (finish_variant: journal, the search
 * told; their journal lines synced once), so no GPU waits for the journal's sync. So
 * the one compile pool feeds every GPU, each variant is measured on one GPU against
 * that GPU's own reference, and the one journal holds everything whatever ran where.
 * With one GPU this is the loop it always was: a variant runs while the next is
 * compiled.
 *
 * The final race (fleet_race) is spread over the GPUs too: each contender is timed in
 * full once, on whichever GPU is free (fleet_race_plan), and may win on those figures,
 * as on one GPU. For the spread between the GPUs, the first GPU and every other time the
 * first FLEET_RACE_PAIRS contenders, and the others a few variants the first timed in
 * full during the run. On one GPU the contenders after the first are screened: each
 * request carries the best timed in full so far and its noise, and the worker stops a
 * contender after GOAL_SCREEN samples, pruned, when it is clearly behind that best
 * (goal_behind: by more than both their noise and GOAL_SCREEN_FLOOR). With several GPUs
 * they are not: a contender's times are its GPU's, and the GPUs differ by more than a
 * contender's noise (the spread).
 *
 * Ownership: the tuner owns the GPUs and the slots; a slot borrows its record (the
 * result's) until the variant is finished. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/sys.h"
#include "finish.h"
#include "fleet.h"

bool fleet_busy(const tuner *t)
{
    if (t->nanswered > 0)
        return true;
    for (int k = 0; k < t->ngpus; k++)
        if (t->slots[k].rec || t->slots[k].starting)
            return true;
    return false;
}

/* Waits for the first answer (or deadline) among the GPUs that busy(ctx, k) says are
 * busy, by the workers' pipes: the index of that GPU, or -1 when none is busy. The
 * GPUs are looked at in turn from t->poll_from, so that of several answers that are
 * there together no GPU's is always taken first. now: waits for nothing (-1 when no
 * answer is there yet; a deadline passed is left for the wait that follows). */
static int first_done(tuner *t, bool (*busy)(void *ctx, int k), void *ctx, bool now)
{
    int fds[CUTUNE_MAX_DEVICES], at[CUTUNE_MAX_DEVICES], n = 0;
    double deadline = 0;
    int soonest = -1;
    for (int j = 0; j < t->ngpus; j++) {
        int k = (t->poll_from + j) % t->ngpus;
        if (!busy(ctx, k))
            continue;
        if (t->gpus[k].send_failed)
            return k; /* lost already: its receive says so */
        double d = t->slots[k].starting ? t->gpus[k].setup_deadline : gpu_deadline(&t->gpus[k]);
        if (soonest < 0 || d < deadline) {
            deadline = d;
            soonest = k;
        }
        fds[n] = t->gpus[k].proc.from;
        at[n++] = k;
    }
    if (n == 0)
        return -1;
    int i = wk_wait_any(fds, n, now ? sys_seconds() : deadline);
    if (i >= 0)
        t->poll_from = (at[i] + 1) % t->ngpus;  /* the next look starts after it */
    return i >= 0 ? at[i] : now ? -1 : soonest; /* at the deadline: the one whose time ran out */
}

/* A GPU with a variant in flight, or whose worker's set-up has not answered yet: an
 * answer is awaited from it. */
static bool slot_busy(void *ctx, int k)
{
    const fleet_slot *s = &((tuner *)ctx)->slots[k];
    return s->rec != NULL || s->starting;
}

/* Takes GPU k's answer: the record gets its figures and the best so far is updated
 * (the next variant sent carries it), but the rest of its end (journal, search) waits
 * in t->answered for fleet_flush, so that the GPU gets its next variant first. */
static int take_answer(tuner *t, int k)
{
    if (t->slots[k].starting) /* its set-up: the GPU joins the run (idle), or the run stops */
        return tuner_take_setup(t, k, false) < 0 ? -1 : 0;
    fleet_slot s = t->slots[k];
    t->slots[k].rec = NULL;
    gpu_receive(&t->gpus[k], s.rec);
    t->slots[k].idle_since = sys_seconds();
    finish_note_best(t, s.rec);
    t->answered[t->nanswered++] = s;
    return 0;
}

/* Waits for the first GPU to answer and takes its answer, then every other answer
 * that is there already (in turn from the GPU after it): the GPUs that answered
 * together are all idle, each waits its turn (fleet_pick), none is left unseen behind
 * a GPU that answers again first. A worker's set-up answers here too: its GPU joins.
 * 0, or -1 when none was in flight or a set-up failed (the run has stopped). */
static int receive_ready(tuner *t)
{
    int k = first_done(t, slot_busy, t, false);
    if (k < 0)
        return -1;
    int rc = take_answer(t, k);
    while ((k = first_done(t, slot_busy, t, true)) >= 0)
        if (take_answer(t, k) < 0)
            rc = -1; /* the others' answers are still taken */
    return rc;
}

int fleet_pick(const fleet_slot *slots, int n)
{
    int pick = -1;
    for (int k = 0; k < n; k++)
        if (!slots[k].rec && !slots[k].starting && (pick < 0 || slots[k].idle_since < slots[pick].idle_since))
            pick = k;
    return pick;
}

int fleet_flush(tuner *t)
{
    int rc = 0;
    if (t->nanswered > 1) /* their lines written one by one, synced once */
        journal_hold(t->journal);
    for (int i = 0; i < t->nanswered; i++) { /* in the order they answered */
        const fleet_slot *s = &t->answered[i];
        if (finish_variant(t, s->rec, s->index, s->has_id, s->id) < 0)
            rc = -1; /* the others are still finished */
    }
    if (t->nanswered > 1 && journal_release(t->journal) < 0 && rc == 0) {
        tuner_stop(t, CUTUNE_EIO); /* as finish_rejournal: losing the journal would lose what is measured */
        rc = -1;
    }
    t->nanswered = 0;
    return rc;
}

int fleet_collect(tuner *t)
{
    if (t->nanswered == 0 && receive_ready(t) < 0)
        return -1;
    return fleet_flush(t);
}

int fleet_drain(tuner *t)
{
    int rc = fleet_flush(t);
    while (fleet_busy(t))
        if (fleet_collect(t) < 0)
            rc = -1; /* the rest are still finished: what they measured is kept */
    return rc;
}

int fleet_idle(tuner *t)
{
    for (;;) {
        int k = fleet_pick(t->slots, t->ngpus);
        if (k >= 0)
            return k;
        if (receive_ready(t) < 0)
            return -1;
    }
}

static bool same_id(const fleet_slot *s, twin_id id)
{
    return s->rec && s->has_id && s->id.lo == id.lo && s->id.hi == id.hi;
}

int fleet_wait_twin(tuner *t, twin_id id)
{
    for (;;) {
        bool answered = false, waiting = false;
        for (int i = 0; i < t->nanswered; i++)
            answered |= same_id(&t->answered[i], id);
        for (int k = 0; k < t->ngpus; k++)
            waiting |= same_id(&t->slots[k], id);
        if (answered && fleet_flush(t) < 0) /* its end makes it a twin's run */
            return -1;
        if (!waiting)
            return 0;
        if (fleet_collect(t) < 0)
            return -1;
    }
}

int fleet_send(tuner *t, int k, record *rec, uint64_t index, const session_binary *bin, bool has_id, twin_id id)
{
    int rc = gpu_send(&t->gpus[k], bin, rec, t->goal.have_best, t->goal.best, false, NULL, rec);
    if (rc < 0) { /* no worker could be started */
        tuner_stop(t, rc);
        return -1;
    }
    t->slots[k] = (fleet_slot){rec, index, has_id, id, 0, false}; /* busy: idle_since is set when it answers */
    return 0;
}

/* ---- the final race ------------------------------------------------------------------ */

/* How many contenders every GPU times (the spread's pairs; the first GPU's runs of
 * them are their race runs). */
static int pairs_of(const fleet_race_plan *p)
{
    return p->ncontend < FLEET_RACE_PAIRS ? p->ncontend : FLEET_RACE_PAIRS;
}

int fleet_race_plan_init(fleet_race_plan *p, int ngpus, int n, int ncontend)
{
    *p = (fleet_race_plan){ngpus, n, ncontend, calloc((size_t)ngpus, sizeof(int)),
                           malloc(sizeof(int) * ((size_t)ncontend + 1))};
    if (!p->own_at || !p->owner) {
        fleet_race_plan_free(p);
        return CUTUNE_ENOMEM;
    }
    for (int i = 0; i < ncontend; i++)
        p->owner[i] = i < pairs_of(p) ? 0 : -1; /* the pairs' race runs are GPU 0's */
    return CUTUNE_OK;
}

void fleet_race_plan_free(fleet_race_plan *p)
{
    free(p->own_at);
    free(p->owner);
    p->own_at = p->owner = NULL;
}

int fleet_race_plan_next(fleet_race_plan *p, int k)
{
    int pairs = pairs_of(p);
    int own = pairs + (k > 0 ? p->n - p->ncontend : 0); /* GPU 0: the pairs; another: the pairs, the run's */
    if (p->own_at[k] < own) {
        int j = p->own_at[k]++;
        return j < pairs ? j : p->ncontend + (j - pairs);
    }
    for (int i = pairs; i < p->ncontend; i++) /* then the contenders no GPU has taken, in order */
        if (p->owner[i] < 0) {
            p->owner[i] = k;
            return i;
        }
    return -1;
}

void fleet_race_plan_drop(fleet_race_plan *p, int k, int i)
{
    if (i >= pairs_of(p) && i < p->ncontend && p->owner[i] == k)
        p->owner[i] = -1; /* another GPU takes it */
}

typedef struct race {
    tuner *t;
    int n, ncontend;           /* jobs; the first ncontend are the contenders */
    const record *const *refs; /* refs[i], i >= ncontend: the record whose first-GPU figures job i is
                                  compared with */
    int *doing;                /* per GPU: the job in flight (-1: idle) */
    bool *off;                 /* per GPU: gave up (its worker could not be started) */
    record **out;              /* out[k * n + i]: job i on GPU k */
    bool have_best;            /* one GPU: the best contender timed in full so far, */
    double best, best_range;   /* its objective and its noise in it (goal_best_range) */
} race;

static bool race_busy(void *ctx, int k)
{
    return ((race *)ctx)->doing[k] >= 0;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Whether r ran ok and has a median time. */
static bool timed_ok(const record *r)
{
    return r && r->out == OUTCOME_OK && r->m.timed && r->m.median_ms > 0;
}

/* GPU k's spread against the first: its median time over the first's, per job both
 * timed ok (a contender both raced: the first GPU's race run; another: its figures
 * from the run). */
static void spread_of(race *r, int k, cutune_device_spread *out)
{
    double *ratio = calloc((size_t)r->n + 1, sizeof(double));
    int m = 0;
    for (int i = 0; ratio && i < r->n; i++) {
        const record *a = i < r->ncontend ? r->out[i] : r->refs[i];
        const record *b = r->out[(size_t)k * (size_t)r->n + (size_t)i];
        if (timed_ok(a) && timed_ok(b))
            ratio[m++] = b->m.median_ms / a->m.median_ms;
    }
    *out = (cutune_device_spread){r->t->gpus[k].plan.device, m, NAN, NAN, NAN};
    if (m > 0) {
        qsort(ratio, (size_t)m, sizeof *ratio, by_value);
        out->median = m % 2 ? ratio[m / 2] : 0.5 * (ratio[m / 2 - 1] + ratio[m / 2]);
        out->lo = ratio[0];
        out->hi = ratio[m - 1];
    }
    free(ratio);
}

/* A contender's race run `rec` answered: when timed in full and the best so far, the
 * best that the next contenders are screened against (one GPU). */
static void note_race_best(race *r, const record *rec)
{
    goal_state g = r->t->goal;
    g.vals = rec->vals;
    double range;
    if (timed_ok(rec) && !rec->m.pruned && !rec->m.provisional && isfinite(rec->m.objective) &&
        (!r->have_best || goal_better(&g, rec->m.objective, r->best)) &&
        goal_best_range(&g, rec->m.q1_ms, rec->m.q3_ms, &range) == 0) {
        r->have_best = true;
        r->best = rec->m.objective;
        r->best_range = range;
    }
}

int fleet_race(tuner *t, const session_binary *const *bins, const record *const *vs, const record *const *refs, int n,
               int ncontend, record **first)
{
    int K = t->ngpus;
    race r = {t,
              n,
              ncontend,
              refs,
              calloc((size_t)K, sizeof(int)),
              calloc((size_t)K, sizeof(bool)),
              calloc((size_t)K * (size_t)n + 1, sizeof(record *)),
              false,
              0,
              0};
    fleet_race_plan plan;
    int rc = fleet_race_plan_init(&plan, K, n, ncontend);
    if (rc == CUTUNE_OK && (!r.doing || !r.off || !r.out))
        rc = CUTUNE_ENOMEM;
    for (int k = 0; r.doing && k < K; k++)
        r.doing[k] = -1;
    bool cancelled = false;
    while (rc == CUTUNE_OK) {
        bool dropped = false; /* a contender went back: the GPUs are asked again at once */
        /* Ctrl-C or a signal: no contender is sent any more; those in flight end theirs */
        if (!cancelled && t->opts->cancel && *t->opts->cancel) {
            cancelled = true;
            t->res->summary.interrupted = 1;
        }
        for (int k = 0; rc == CUTUNE_OK && !cancelled && k < K; k++) {
            if (r.doing[k] >= 0 || r.off[k])
                continue;
            int i = fleet_race_plan_next(&plan, k);
            if (i < 0)
                continue;
            record *rec = result_loose(t->res);
            if (!rec) {
                rc = CUTUNE_ENOMEM;
                break;
            }
            rec->v = vs[i]->v;
            rec->vals = vs[i]->vals; /* borrowed: the results' record outlives the race's */
            /* one GPU: screened against the best timed in full so far (goal_behind) */
            gpu_screen screen = {GOAL_SCREEN, r.best_range};
            bool screened = K == 1 && r.have_best;
            int s = gpu_send(&t->gpus[k], bins[i], vs[i], screened, r.best, true, screened ? &screen : NULL, rec);
            if (s < 0 && k == 0) { /* the first GPU, whose runs the spread is against, cannot go on: the run stops */
                tuner_stop(t, s);
                rc = s;
            } else if (s < 0) {
                r.off[k] = true; /* another: its spread is what it timed so far */
                fleet_race_plan_drop(&plan, k, i);
                dropped = true;
            } else {
                r.out[(size_t)k * (size_t)n + (size_t)i] = rec;
                r.doing[k] = i;
            }
        }
        if (dropped)
            continue;
        int k = rc == CUTUNE_OK ? first_done(t, race_busy, &r, false) : -1;
        if (k < 0)
            break;
        gpu_receive(&t->gpus[k], r.out[(size_t)k * (size_t)n + (size_t)r.doing[k]]);
        if (K == 1)
            note_race_best(&r, r.out[r.doing[k]]);
        r.doing[k] = -1;
    }
    for (int k = 0; k < K; k++) /* after a failure: nothing is left in flight */
        if (r.doing && r.out && r.doing[k] >= 0)
            gpu_receive(&t->gpus[k], r.out[(size_t)k * (size_t)n + (size_t)r.doing[k]]);
    if (rc == CUTUNE_OK) {
        for (int i = 0; i < ncontend; i++) /* each contender's race run, on the GPU that timed it */
            first[i] = plan.owner[i] >= 0 ? r.out[(size_t)plan.owner[i] * (size_t)n + (size_t)i] : NULL;
        for (int k = 1; k < K; k++)
            spread_of(&r, k, &t->res->summary.spread[k]);
    }
    fleet_race_plan_free(&plan);
    free(r.doing);
    free(r.off);
    free(r.out);
    return rc;
}
