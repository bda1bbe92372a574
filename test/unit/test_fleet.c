/* test_fleet.c - the fleet's dispatch and final race (tuner/fleet.c) without a GPU:
 * which idle GPU gets the next variant (fleet_pick) in a simulated run whose GPUs wait
 * for the compiler, the race's plan (fleet_race_plan) over simulated GPUs, and both with
 * fake GPU workers (processes that answer each request as a worker would, with made-up
 * figures): the answers that come together are all taken, and the race spreads its
 * contenders over the GPUs, each timed once, the spread measured on the pairs; on one
 * GPU it screens each contender against the best timed in full before it; the run's end
 * does not wait for workers slow to end (their contexts torn down). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "api/internal.h"
#include "base/sys.h"
#include "tuner/fleet.h"
#include "tuner/reply.h"

/* ---- fleet_pick ------------------------------------------------------------------- */

static void test_pick_longest_idle(void **state)
{
    (void)state;
    record busy;
    fleet_slot s[4];
    memset(s, 0, sizeof s);
    assert_int_equal(fleet_pick(s, 4), 0); /* all idle from the start: the first */
    s[0].rec = &busy;
    s[1].idle_since = 5.0;
    s[2].idle_since = 3.0;
    s[3].idle_since = 4.0;
    assert_int_equal(fleet_pick(s, 4), 2); /* idle the longest, whatever its place */
    s[2].rec = &busy;
    assert_int_equal(fleet_pick(s, 4), 3);
    s[1].rec = s[3].rec = &busy;
    assert_int_equal(fleet_pick(s, 4), -1);
    /* a GPU whose worker is still setting up is never picked, however long it waited */
    memset(s, 0, sizeof s);
    s[0].starting = true;
    s[1].idle_since = 2.0;
    assert_int_equal(fleet_pick(s, 2), 1);
    s[1].starting = true;
    assert_int_equal(fleet_pick(s, 2), -1);
}

/* A run simulated in whole milliseconds: a variant comes from the compiler every
 * `every` ms and goes to fleet_pick's GPU at once; each GPU takes `cost` ms a variant.
 * counts[k]: how many GPU k measured. Returns the time the last one ended. */
static int simulate_dispatch(int ngpus, int every, int cost, int variants, int *counts)
{
    fleet_slot s[8];
    int ends[8];
    record busy;
    memset(s, 0, sizeof s);
    int last = 0;
    for (int k = 0; k < ngpus; k++)
        counts[k] = ends[k] = 0;
    for (int v = 0; v < variants; v++) {
        int now = v * every;
        for (int k = 0; k < ngpus; k++)
            if (s[k].rec && ends[k] <= now) { /* it answered at ends[k] */
                s[k].rec = NULL;
                s[k].idle_since = ends[k];
            }
        int k = fleet_pick(s, ngpus);
        assert_true(k >= 0); /* the compiler is the slower here: a GPU is always idle */
        s[k].rec = &busy;
        ends[k] = now + cost;
        counts[k]++;
        last = ends[k] > last ? ends[k] : last;
    }
    return last;
}

static void test_dispatch_does_not_favour_gpu0(void **state)
{
    (void)state;
    int counts[8];
    /* Three GPUs of 20 ms a variant fed every 12 ms: taking the first idle GPU by its
     * place would give GPU 0 and 1 every variant and GPU 2 none after the first round. */
    simulate_dispatch(3, 12, 20, 60, counts);
    for (int k = 0; k < 3; k++)
        if (counts[k] < 19 || counts[k] > 21)
            fail_msg("GPU %d measured %d of 60 (want 20 each): %d %d %d", k, counts[k], counts[0], counts[1],
                     counts[2]);
    /* Four GPUs fed faster than one can go, slower than four: still even. */
    simulate_dispatch(4, 7, 20, 400, counts);
    for (int k = 0; k < 4; k++)
        if (counts[k] < 99 || counts[k] > 101)
            fail_msg("GPU %d measured %d of 400 (want 100 each)", k, counts[k]);
}

/* ---- fleet_race_plan ---------------------------------------------------------------- */

/* A race simulated on ngpus GPUs: job i takes cost[i] on any GPU; each GPU takes its
 * next job from the plan when it is free, the lowest-numbered free GPU first.
 * timed[k * n + i]: GPU k timed job i. Returns the time the last job ended. */
static double simulate_race(int ngpus, int n, int ncontend, const double *cost, bool *timed, fleet_race_plan *p)
{
    assert_int_equal(fleet_race_plan_init(p, ngpus, n, ncontend), CUTUNE_OK);
    double free_at[8] = {0};
    bool done[8] = {false};
    double end = 0;
    memset(timed, 0, sizeof(bool) * (size_t)ngpus * (size_t)n);
    for (;;) {
        int k = -1; /* the GPU free first that still has work */
        for (int j = 0; j < ngpus; j++)
            if (!done[j] && (k < 0 || free_at[j] < free_at[k]))
                k = j;
        if (k < 0)
            break;
        int i = fleet_race_plan_next(p, k);
        if (i < 0) {
            done[k] = true;
            continue;
        }
        assert_true(i < n);
        assert_false(timed[(size_t)k * (size_t)n + (size_t)i]); /* never the same job twice on one GPU */
        timed[(size_t)k * (size_t)n + (size_t)i] = true;
        free_at[k] += cost[i];
        end = free_at[k] > end ? free_at[k] : end;
    }
    return end;
}

static void test_race_plan_spreads_the_contenders(void **state)
{
    (void)state;
    enum { N = 12, NC = 10, K = 4 };
    double cost[N];
    bool timed[K * N];
    for (int i = 0; i < N; i++)
        cost[i] = 1.0;
    fleet_race_plan p;
    double end = simulate_race(K, N, NC, cost, timed, &p);
    for (int i = 0; i < NC; i++) { /* each contender's race run: one GPU's, and that GPU timed it */
        assert_true(p.owner[i] >= 0 && p.owner[i] < K);
        assert_true(timed[p.owner[i] * N + i]);
        int on = 0;
        for (int k = 0; k < K; k++)
            on += timed[k * N + i];
        /* the pairs on every GPU (the first's the race's), the rest once */
        assert_int_equal(on, i < FLEET_RACE_PAIRS ? K : 1);
        if (i < FLEET_RACE_PAIRS)
            assert_int_equal(p.owner[i], 0);
    }
    for (int k = 0; k < K; k++) /* the run's variants: every GPU but the first */
        for (int i = NC; i < N; i++)
            assert_int_equal(timed[k * N + i], k > 0);
    /* One GPU would take NC = 10; here 2 + (2 + 2) * 3 + 8 = 22 jobs over four GPUs. */
    if (end > 6.0)
        fail_msg("the race took %.0f jobs' time on %d GPUs (one GPU: %d)", end, K, NC);
    bool some_other = false;
    for (int i = 0; i < NC; i++)
        some_other |= p.owner[i] > 0;
    assert_true(some_other);
    fleet_race_plan_free(&p);
}

static void test_race_plan_one_gpu_in_order(void **state)
{
    (void)state;
    fleet_race_plan p;
    assert_int_equal(fleet_race_plan_init(&p, 1, 5, 5), CUTUNE_OK);
    for (int i = 0; i < 5; i++) /* as the race always ran on one GPU: each in order */
        assert_int_equal(fleet_race_plan_next(&p, 0), i);
    assert_int_equal(fleet_race_plan_next(&p, 0), -1);
    fleet_race_plan_free(&p);
    /* no contender (only the spread's variants): the first GPU has nothing to do */
    assert_int_equal(fleet_race_plan_init(&p, 2, 1, 0), CUTUNE_OK);
    assert_int_equal(fleet_race_plan_next(&p, 0), -1);
    assert_int_equal(fleet_race_plan_next(&p, 1), 0);
    assert_int_equal(fleet_race_plan_next(&p, 1), -1);
    fleet_race_plan_free(&p);
}

static void test_race_plan_drop_goes_to_another(void **state)
{
    (void)state;
    fleet_race_plan p;
    assert_int_equal(fleet_race_plan_init(&p, 2, 4, 4), CUTUNE_OK);
    assert_int_equal(fleet_race_plan_next(&p, 1), 0); /* the pairs first */
    assert_int_equal(fleet_race_plan_next(&p, 1), 1);
    assert_int_equal(fleet_race_plan_next(&p, 1), 2); /* the first contender no GPU has */
    fleet_race_plan_drop(&p, 1, 2);                   /* its worker could not start */
    assert_int_equal(p.owner[2], -1);
    assert_int_equal(fleet_race_plan_next(&p, 0), 0);
    assert_int_equal(fleet_race_plan_next(&p, 0), 1);
    assert_int_equal(fleet_race_plan_next(&p, 0), 2);
    assert_int_equal(p.owner[2], 0);
    fleet_race_plan_drop(&p, 1, 0); /* a pair's race run stays the first GPU's */
    assert_int_equal(p.owner[0], 0);
    fleet_race_plan_free(&p);
}

/* ---- fake workers ------------------------------------------------------------------- */

/* A fake GPU worker: answers every request, ok and timed, with a median of
 * (ordinal + 1) ms times its scale (ctx: a double), quartiles 1 % either side; a final
 * race's request after 10 ms (the GPU busy), any other at once. A final request screened
 * against a best (the race on one GPU) stops after its `samples`, pruned, when its
 * median is above best_objective + best_range, and pruned and tied when it equals
 * best_objective (the fake's own rules), and tells what it was told: best_range in
 * max_abs_error, best_objective in power_w. */
static int fake_worker(void *ctx, int in, int out)
{
    double scale = *(const double *)ctx;
    wk_frame f = WK_FRAME_INIT;
    arena *a = arena_new();
    for (;;) {
        if (wk_recv(in, &f, 0) < 0)
            return 0;
        arena_reset(a);
        wk_request q;
        if (wk_decode_request(&f, a, &q) < 0)
            return 4;
        if (q.final)
            nanosleep(&(struct timespec){0, 10000000}, NULL);
        reply r;
        memset(&r, 0, sizeof r);
        r.status = OUTCOME_OK;
        r.m.reason = r.m.energy_note = r.m.profile_note = "";
        r.m.energy_j = r.m.power_w = NAN;
        r.m.timed = true;
        r.m.median_ms = r.m.min_ms = r.m.max_ms = scale * (double)(q.ordinal + 1);
        r.m.q1_ms = 0.99 * r.m.median_ms;
        r.m.q3_ms = 1.01 * r.m.median_ms;
        r.m.reps = q.final ? 10 : 3;
        if (q.final && q.have_best && q.samples > 0) {
            r.m.max_abs_error = q.best_range;
            r.m.power_w = q.best_objective;
            if (r.m.median_ms > q.best_objective + q.best_range || r.m.median_ms == q.best_objective) {
                r.m.pruned = true;
                r.m.tied = r.m.median_ms == q.best_objective;
                r.m.reps = q.samples;
            }
        }
        r.m.provisional = !q.final;
        r.m.objective = r.m.median_ms;
        r.m.gpu_seconds = 0.001;
        wk_frame_reset(&f);
        reply_encode(&f, &r);
        if (wk_send(out, &f) < 0)
            return 2;
    }
}

/* A fake worker whose end is slow, as a GPU worker's is (the driver tearing its context
 * down in the exit): it answers as fake_worker, then, at EOF, does what wk_end does
 * before the exit (its standard streams let go, its pipe to the tuner closed) and takes
 * 1.5 s more to end. */
static int slow_end_worker(void *ctx, int in, int out)
{
    int rc = fake_worker(ctx, in, out);
    wk_drop_stdio();
    close(out);
    nanosleep(&(struct timespec){1, 500000000}, NULL);
    return rc;
}

/* A fake worker that first sets up as a GPU worker does: after `delay_ms`, its set-up
 * answer (ok, or the failure `status` with a message), then it answers as fake_worker. */
typedef struct fake_setup {
    double scale;
    long delay_ms;
    int status; /* 0: the set-up succeeds */
} fake_setup;

static int fake_setup_worker(void *ctx, int in, int out)
{
    const fake_setup *fs = ctx;
    nanosleep(&(struct timespec){fs->delay_ms / 1000, (fs->delay_ms % 1000) * 1000000}, NULL);
    wk_setup su = {fs->status == 0, 0.001, fs->status ? "no device here" : "", "", fs->status, 0.001, 0, 0, 0};
    wk_frame f = WK_FRAME_INIT;
    wk_encode_setup(&f, &su);
    int rc = wk_send(out, &f);
    wk_frame_free(&f);
    if (rc < 0 || fs->status)
        return 0;
    double scale = fs->scale;
    return fake_worker(&scale, in, out);
}

static const char spec_src[] = "kernel k from \"poly.cu\" {\n"
                               "    param threads in [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416];\n"
                               "    block threads;\n"
                               "    grid 1;\n"
                               "    arg x : inout float[4096] = random(seed = 1);\n"
                               "    arg n : int = 4096;\n"
                               "}\n";

typedef struct fake_fleet {
    cutune_spec *spec;
    cutune_tune_result *res;
    cutune_tune_options opts;
    cutune_device dev;
    tuner *t;
    double scale[4];
    value vals[16];
    unsigned char cubin[16];
    session_binary bin;
} fake_fleet;

/* The tuner as tuner_new makes it, with `ngpus` fake workers (GPU k's times scaled by
 * scale[k]) instead of GPU workers. */
static void fake_fleet_new(fake_fleet *ff, int ngpus, const double *scale)
{
    memset(ff, 0, sizeof *ff);
    cutune_load_options lo = CUTUNE_LOAD_OPTIONS_INIT;
    lo.base_dir = CUTUNE_SOURCE_DIR "/kernels"; /* the kernel is never compiled: only found */
    int rc = cutune_spec_load_string(&ff->spec, "s.tune", spec_src, strlen(spec_src), &lo);
    if (rc != CUTUNE_OK)
        fail_msg("load: %s\n%s", cutune_status_text(rc), cutune_spec_diagnostics(ff->spec, 0, 0));
    ff->dev.name = "test";
    ff->dev.arch = "sm_90";
    ff->dev.l2_bytes = 1 << 20;
    ff->res = result_new_for(ff->spec->model, "s.tune", &ff->dev);
    assert_non_null(ff->res);
    ff->opts = (cutune_tune_options)CUTUNE_TUNE_OPTIONS_INIT;
    tuner *t = ff->t = calloc(1, sizeof *t);
    assert_non_null(t);
    t->spec = ff->spec;
    t->m = ff->spec->model;
    t->opts = &ff->opts;
    t->res = ff->res;
    t->stop = "";
    t->ngpus = ngpus;
    t->gpus = calloc((size_t)ngpus, sizeof *t->gpus);
    t->slots = calloc((size_t)ngpus, sizeof *t->slots);
    t->answered = calloc((size_t)ngpus, sizeof *t->answered);
    t->vals = calloc((size_t)t->m->nparams + 1, sizeof(value));
    assert_true(t->gpus && t->slots && t->answered && t->vals);
    t->goal = (goal_state){t->m, t->vals, 1.5, false, 0, false, 0, 0, 0};
    ff->res->summary.ndevices = ngpus;
    for (int k = 0; k < ngpus; k++) {
        assert_int_equal(gpu_init(&t->gpus[k], ff->spec, &ff->opts, k, &ff->dev, false, ff->res), CUTUNE_OK);
        t->gpus[k].limit_s = 30;
        ff->scale[k] = scale[k];
        assert_int_equal(wk_start(&t->gpus[k].proc, fake_worker, &ff->scale[k]), 0);
        ff->res->summary.devices[k] = k;
    }
    for (int i = 0; i < 16; i++)
        ff->vals[i] = value_int(32 * (i + 1));
    ff->bin = (session_binary){ff->cubin, sizeof ff->cubin, "k"};
}

/* A record of the results for configuration `ordinal`, as the session would deliver it. */
static record *fake_record(fake_fleet *ff, uint64_t ordinal)
{
    record *rec = result_append(ff->res);
    assert_non_null(rec);
    rec->v.ordinal = ordinal;
    rec->v.nparams = 1;
    rec->v.block[0] = 32;
    rec->v.block[1] = rec->v.block[2] = rec->v.grid[0] = rec->v.grid[1] = rec->v.grid[2] = 1;
    rec->vals = &ff->vals[ordinal];
    return rec;
}

static void fake_fleet_free(fake_fleet *ff)
{
    tuner_free(ff->t);
    cutune_tune_result_free(ff->res);
    cutune_spec_free(ff->spec);
}

/* Waits until every fake worker has its answer ready (at most 10 s). */
static void wait_all_answered(tuner *t)
{
    for (int k = 0; k < t->ngpus; k++) {
        int fd = t->gpus[k].proc.from;
        assert_int_equal(wk_wait_any(&fd, 1, sys_seconds() + 10), 0);
    }
}

static void test_answers_together_all_taken(void **state)
{
    (void)state;
    fake_fleet ff;
    double scale[3] = {1, 1, 1};
    fake_fleet_new(&ff, 3, scale);
    tuner *t = ff.t;
    for (int k = 0; k < 3; k++) {
        assert_int_equal(fleet_idle(t), k); /* all idle from the start: in order */
        record *rec = fake_record(&ff, (uint64_t)k);
        assert_int_equal(fleet_send(t, k, rec, ff.res->n - 1, &ff.bin, false, (twin_id){0, 0}), 0);
    }
    wait_all_answered(t);
    /* Every GPU has answered: the first wait takes all three answers, not GPU 0's
     * alone (GPU 0 answering again first would keep the others waiting). */
    int k = fleet_idle(t);
    assert_true(k >= 0);
    assert_int_equal(t->nanswered, 3);
    for (int j = 0; j < 3; j++)
        assert_null(t->slots[j].rec);
    assert_int_equal(fleet_flush(t), 0);
    for (uint64_t i = 0; i < 3; i++) {
        assert_int_equal(ff.res->records[i]->out, OUTCOME_OK);
        assert_int_equal(ff.res->records[i]->m.device, (int)i);
    }
    fake_fleet_free(&ff);
}

/* Fake workers whose set-ups answer after delay_ms[k] (status[k]: a failure), started
 * as spawn_gpus starts GPU workers: each slot starting. */
static void fake_fleet_setup(fake_fleet *ff, int ngpus, fake_setup *fs)
{
    double scale[4] = {1, 1, 1, 1};
    fake_fleet_new(ff, ngpus, scale);
    tuner *t = ff->t;
    for (int k = 0; k < ngpus; k++) {
        wk_stop(&t->gpus[k].proc, true); /* fake_fleet_new's plain worker, replaced */
        assert_int_equal(wk_start(&t->gpus[k].proc, fake_setup_worker, &fs[k]), 0);
        t->gpus[k].setup_deadline = sys_seconds() + 10;
        t->slots[k].starting = true;
    }
}

static void test_gpus_join_as_their_setups_answer(void **state)
{
    (void)state;
    fake_fleet ff;
    fake_setup fs[2] = {{1, 1000, 0}, {1, 0, 0}}; /* GPU 0's driver is slow to start */
    fake_fleet_setup(&ff, 2, fs);
    tuner *t = ff.t;
    assert_true(fleet_busy(t)); /* set-ups to wait for */
    double t0 = sys_seconds();
    assert_int_equal(tuner_ready(t), CUTUNE_OK);
    assert_false(t->slots[1].starting); /* the first set-up to answer: GPU 1's */
    assert_true(t->slots[0].starting);  /* GPU 0's is not awaited */
    assert_true(sys_seconds() - t0 < 0.9);
    /* GPU 1 takes the first variants while GPU 0 sets up; GPU 0 joins when it answers */
    int sent[2] = {0, 0};
    for (uint64_t i = 0; i < 8; i++) {
        int k = fleet_idle(t);
        assert_true(k == 0 || k == 1);
        if (i == 0) /* GPU 0 still setting up: GPU 1 at once */
            assert_int_equal(k, 1);
        record *rec = fake_record(&ff, i);
        assert_int_equal(fleet_send(t, k, rec, ff.res->n - 1, &ff.bin, false, (twin_id){0, 0}), 0);
        sent[k]++;
        assert_int_equal(fleet_flush(t), 0);
    }
    assert_int_equal(fleet_drain(t), 0);
    assert_false(t->slots[0].starting); /* the drain waited for its set-up too */
    assert_true(sent[1] >= 1);
    assert_int_equal(sent[0] + sent[1], 8);
    for (uint64_t i = 0; i < 8; i++)
        assert_int_equal(ff.res->records[i]->out, OUTCOME_OK);
    assert_int_equal(tuner_ready(t), CUTUNE_OK);
    fake_fleet_free(&ff);
}

/* The run's wait for its first GPU's set-up (its driver starting) is the device's time
 * in the run's phases, not the phase the run waited in (it said "compile" for a driver's
 * 0.25 s). */
static void test_setup_wait_is_the_devices(void **state)
{
    (void)state;
    fake_fleet ff;
    fake_setup fs[1] = {{1, 300, 0}}; /* the set-up answers after 0.3 s */
    fake_fleet_setup(&ff, 1, fs);
    phases clock;
    phases_init(&clock, CUTUNE_PHASE_COUNT, CUTUNE_PHASE_COMPILE, NULL, NULL);
    ff.res->clock = &clock;
    assert_int_equal(tuner_ready(ff.t), CUTUNE_OK);
    phases_tick(&clock);
    assert_true(clock.seconds[CUTUNE_PHASE_DEVICE] >= 0.25);
    assert_true(clock.seconds[CUTUNE_PHASE_COMPILE] < 0.1);
    assert_int_equal(clock.base, CUTUNE_PHASE_COMPILE); /* the run's phase again */
    ff.res->clock = NULL;
    fake_fleet_free(&ff);
}

static void test_failed_setup_stops_the_run(void **state)
{
    (void)state;
    fake_fleet ff;
    fake_setup fs[2] = {{1, 0, 0}, {1, 150, CUTUNE_ENODEV}}; /* GPU 1 cannot be used */
    fake_fleet_setup(&ff, 2, fs);
    tuner *t = ff.t;
    assert_int_equal(tuner_ready(t), CUTUNE_OK); /* GPU 0 answers first, and well */
    record *rec = fake_record(&ff, 0);
    assert_int_equal(fleet_send(t, 0, rec, ff.res->n - 1, &ff.bin, false, (twin_id){0, 0}), 0);
    assert_int_equal(fleet_drain(t), -1); /* GPU 1's set-up fails meanwhile */
    assert_int_equal(t->status, CUTUNE_ENODEV);
    assert_int_equal(t->ready_status, CUTUNE_ENODEV);
    assert_int_equal(tuner_ready(t), CUTUNE_ENODEV);       /* said again, not waited for again */
    assert_int_equal(ff.res->records[0]->out, OUTCOME_OK); /* what GPU 0 measured is kept */
    assert_non_null(strstr(cutune_spec_diagnostics(ff.spec, 0, 0), "no device here"));
    fake_fleet_free(&ff);
}

/* The run's end does not wait for its workers' ends: every answer is taken first
 * (fleet_drain), then tuner_free lets the workers go and returns while they are still
 * ending; they are reaped meanwhile (wk_wait_released: a next run's start), none left a
 * zombie. tuner_free waiting for them would take their 1.5 s. */
static void test_run_end_does_not_wait_for_workers(void **state)
{
    (void)state;
    alarm(30);
    /* The earlier tests' released workers first: their reapers may still be waiting on a
     * loaded machine, and the count below is this run's two. */
    wk_wait_released();
    fake_fleet ff;
    double scale[2] = {1, 1};
    fake_fleet_new(&ff, 2, scale);
    tuner *t = ff.t;
    pid_t pids[2];
    for (int k = 0; k < 2; k++) {
        wk_stop(&t->gpus[k].proc, true); /* fake_fleet_new's plain worker, replaced */
        assert_int_equal(wk_start(&t->gpus[k].proc, slow_end_worker, &ff.scale[k]), 0);
        pids[k] = t->gpus[k].proc.pid;
        record *rec = fake_record(&ff, (uint64_t)k);
        assert_int_equal(fleet_send(t, k, rec, ff.res->n - 1, &ff.bin, false, (twin_id){0, 0}), 0);
    }
    assert_int_equal(fleet_drain(t), 0);
    for (int i = 0; i < 2; i++) /* every answer taken before the end */
        assert_int_equal(ff.res->records[i]->out, OUTCOME_OK);
    double t0 = sys_seconds();
    tuner_free(t);
    ff.t = NULL;
    assert_true(sys_seconds() - t0 < 0.75); /* not the workers' 1.5 s */
    assert_int_equal(wk_released_pending(), 2);
    wk_wait_released();
    assert_true(sys_seconds() - t0 >= 1.4);
    assert_int_equal(wk_released_pending(), 0);
    for (int k = 0; k < 2; k++) { /* reaped: no zombie, no child of ours left */
        errno = 0;
        assert_int_equal(waitpid(pids[k], NULL, WNOHANG), -1);
        assert_int_equal(errno, ECHILD);
    }
    fake_fleet_free(&ff);
    alarm(0);
}

static void test_race_on_fake_workers(void **state)
{
    (void)state;
    enum { NC = 12, N = 13, K = 3 };
    fake_fleet ff;
    double scale[K] = {1.0, 1.02, 0.99}; /* GPU 1 2 % slower, GPU 2 1 % faster */
    fake_fleet_new(&ff, K, scale);
    tuner *t = ff.t;
    const session_binary *bins[N];
    const record *vs[N], *refs[N];
    record *first[NC];
    for (int i = 0; i < N; i++) {
        record *rec = fake_record(&ff, (uint64_t)i);
        rec->out = OUTCOME_OK;
        rec->m.timed = true;
        rec->m.median_ms = (double)(i + 1); /* as the first GPU timed it during the run */
        bins[i] = &ff.bin;
        vs[i] = refs[i] = rec;
    }
    assert_int_equal(fleet_race(t, bins, vs, refs, N, NC, first), CUTUNE_OK);
    int on[K] = {0};
    for (int i = 0; i < NC; i++) {
        assert_non_null(first[i]);
        assert_int_equal(first[i]->out, OUTCOME_OK);
        assert_int_equal(first[i]->m.reps, 10); /* timed in full */
        int k = first[i]->m.device;
        assert_true(k >= 0 && k < K);
        on[k]++;
        if (i < FLEET_RACE_PAIRS)
            assert_int_equal(k, 0); /* the pairs' race runs are the first GPU's */
        /* its times are the GPU's that timed it */
        assert_true(fabs(first[i]->m.median_ms - scale[k] * (double)(i + 1)) < 1e-9);
    }
    assert_true(on[1] + on[2] > 0); /* spread over the GPUs, not all on the first */
    for (int k = 1; k < K; k++) {   /* the pairs and the run's variant */
        const cutune_device_spread *s = &ff.res->summary.spread[k];
        assert_int_equal(s->device, k);
        assert_int_equal(s->variants, FLEET_RACE_PAIRS + (N - NC));
        assert_true(fabs(s->median - scale[k]) < 1e-9);
    }
    fake_fleet_free(&ff);
}

/* On one GPU the race times the contenders in the order given, the first in full and
 * each next screened against the best timed in full before it: told that best's
 * objective and its noise (goal_best_range of its quartiles: for a time, twice the
 * interquartile range, 4 % here); one that is clearly behind stops after GOAL_SCREEN
 * samples, pruned; one level with it stops there too, pruned and tied, and is never the
 * best the next are screened against; a new best becomes what the next are screened
 * against. */
static void test_race_screens_on_one_gpu(void **state)
{
    (void)state;
    enum { N = 6 };
    fake_fleet ff;
    double scale[1] = {1.0};
    fake_fleet_new(&ff, 1, scale);
    const uint64_t ordinals[N] = {2, 0, 0, 1, 5, 3}; /* medians 3, 1, 1, 2, 6, 4 ms */
    const session_binary *bins[N];
    const record *vs[N];
    record *first[N];
    for (int i = 0; i < N; i++) {
        record *rec = fake_record(&ff, ordinals[i]);
        bins[i] = &ff.bin;
        vs[i] = rec;
    }
    assert_int_equal(fleet_race(ff.t, bins, vs, vs, N, N, first), CUTUNE_OK);
    /* the first: timed in full, nothing to be screened against */
    assert_int_equal(first[0]->m.reps, 10);
    assert_false(first[0]->m.pruned);
    assert_true(isnan(first[0]->m.power_w));
    /* 1 ms: screened against 3 ms (range 4 % of it), not behind: in full, the new best */
    assert_true(fabs(first[1]->m.power_w - 3.0) < 1e-12);
    assert_true(fabs(first[1]->m.max_abs_error - 0.04 * 3.0) < 1e-12);
    assert_int_equal(first[1]->m.reps, 10);
    assert_false(first[1]->m.pruned);
    assert_false(first[1]->m.tied);
    /* 1 ms again: level with the best, stopped tied after GOAL_SCREEN samples */
    assert_true(fabs(first[2]->m.power_w - 1.0) < 1e-12);
    assert_true(first[2]->m.pruned);
    assert_true(first[2]->m.tied);
    assert_int_equal(first[2]->m.reps, GOAL_SCREEN);
    /* the others: screened against 1 ms with the first 1 ms's range (the tied one's
     * figures never are the best's), behind, stopped after GOAL_SCREEN samples */
    for (int i = 3; i < N; i++) {
        assert_true(fabs(first[i]->m.power_w - 1.0) < 1e-12);
        assert_true(fabs(first[i]->m.max_abs_error - 0.04) < 1e-12);
        assert_true(first[i]->m.pruned);
        assert_false(first[i]->m.tied);
        assert_int_equal(first[i]->m.reps, GOAL_SCREEN);
    }
    fake_fleet_free(&ff);
}

/* A run cancelled (Ctrl-C, a signal) when its final race begins: no contender is sent,
 * none is taken (first[i] NULL), the run says it was interrupted, and the race returns
 * as one that ended, so that the results are written. */
static void test_race_cancelled_sends_nothing(void **state)
{
    (void)state;
    enum { N = 4 };
    fake_fleet ff;
    double scale[2] = {1.0, 1.0};
    fake_fleet_new(&ff, 2, scale);
    static const volatile int cancelled = 1;
    ff.opts.cancel = &cancelled;
    const session_binary *bins[N];
    const record *vs[N];
    record *first[N];
    for (int i = 0; i < N; i++) {
        bins[i] = &ff.bin;
        vs[i] = fake_record(&ff, (uint64_t)i);
        first[i] = (record *)&ff; /* anything but NULL: the race must set it */
    }
    assert_int_equal(fleet_race(ff.t, bins, vs, vs, N, N, first), CUTUNE_OK);
    for (int i = 0; i < N; i++)
        assert_null(first[i]);
    assert_int_equal(ff.res->summary.interrupted, 1);
    fake_fleet_free(&ff);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pick_longest_idle),
        cmocka_unit_test(test_dispatch_does_not_favour_gpu0),
        cmocka_unit_test(test_race_plan_spreads_the_contenders),
        cmocka_unit_test(test_race_plan_one_gpu_in_order),
        cmocka_unit_test(test_race_plan_drop_goes_to_another),
        cmocka_unit_test(test_answers_together_all_taken),
        cmocka_unit_test(test_race_on_fake_workers),
        cmocka_unit_test(test_race_screens_on_one_gpu),
        cmocka_unit_test(test_race_cancelled_sends_nothing),
        cmocka_unit_test(test_gpus_join_as_their_setups_answer),
        cmocka_unit_test(test_setup_wait_is_the_devices),
        cmocka_unit_test(test_failed_setup_stops_the_run),
        cmocka_unit_test(test_run_end_does_not_wait_for_workers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
