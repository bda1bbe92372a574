/* test_resume.c - a run resumed from a journal (tuner/run.c) without a GPU (NVRTC
 * compiles, no variant is run). The space is outcomes.sh's (threads 64/128/256 x
 * BROKEN 0/1, BROKEN=1 does not compile).
 *
 * test_late_read_back: every configuration the journal holds joins the results, read
 * back, even when the one configuration left to ask finishes before a read-back does.
 * The journal holds all but index 1 (threads 64, BROKEN 1: asked, a quick compile
 * error). When read-backs were compiled, the read-back of index 4 (threads 256,
 * BROKEN 0) was held up in its compile worker, the asked variant was told first: that
 * ended the search ("space exhausted") and the late read-back was dropped, "5 variants"
 * for a space of 6 (seen on an H100, 2 runs in 10). Its journal's lines lack the
 * compile's figures, so its read-backs are still compiled (journal_entry_has_compile).
 *
 * test_read_back_not_compiled: a journal written as a first run writes it (each record
 * made from the variant's compile) is resumed with no cache: only the configuration it
 * lacks is compiled, and each read-back carries the figures of the compile that the
 * resumed run did not repeat, equal to those of a session compiling it now.
 *
 * test_read_back_races: a journal of a run stopped before its final race (provisional
 * entries, each with compile figures) is resumed with a fake GPU worker: the read-back within the race's margin
 * is compiled then (the one compile of the run) and timed in full; the one outside it
 * is pruned, never compiled. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "api/internal.h"
#include "runtime/pool.h"
#include "tuner/fleet.h"
#include "tuner/reply.h"
#include "tuner/run.h"
#include "tuner/settings.h"
#include "tuner/tuner.h"

#include "scratch.h"

static void write_file(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The journal j.journal made of `n` whole lines. */
static void write_journal(const char *const *lines, size_t n)
{
    char text[4096] = "";
    for (size_t i = 0; i < n; i++)
        strcat(text, lines[i]);
    write_file("j.journal", text);
}

static const char kernel_src[] = "extern \"C\" __global__ void k(float *x)\n"
                                 "{\n"
                                 "#if BROKEN\n"
                                 "#error \"BROKEN variants do not compile\"\n"
                                 "#endif\n"
                                 "    x[threadIdx.x] *= 2.0f;\n"
                                 "}\n";

static const char spec_src[] = "kernel k from \"k.cu\" {\n"
                               "    param threads in [64, 128, 256];\n"
                               "    param BROKEN in [0, 1];\n"
                               "    block threads;\n"
                               "    grid 1;\n"
                               "    arg x : inout float[4096] = random(seed = 1);\n"
                               "}\n";

/* In the compile worker: the variant threads 256, BROKEN 0 (index 4) is slow. */
static void slow_index_4(const compile_job *job)
{
    bool t256 = false, ok = false;
    for (int i = 0; i < job->noptions; i++) {
        t256 |= strcmp(job->options[i], "-Dthreads=256") == 0;
        ok |= strcmp(job->options[i], "-DBROKEN=0") == 0;
    }
    if (t256 && ok)
        sleep(2);
}

static cutune_spec *load_spec(void)
{
    cutune_load_options lo = CUTUNE_LOAD_OPTIONS_INIT;
    lo.base_dir = tmpdir;
    cutune_spec *spec;
    int rc = cutune_spec_load_string(&spec, "s.tune", spec_src, strlen(spec_src), &lo);
    if (rc != CUTUNE_OK)
        fail_msg("load: %s\n%s", cutune_status_text(rc), cutune_spec_diagnostics(spec, 0, 0));
    return spec;
}

/* The tuner as tuner_new makes it, less the GPU worker (nothing here runs on one), its
 * journal dir/j.journal (identity {"test": 1}) opened for resuming. */
static tuner *resumed_tuner(cutune_spec *spec, const cutune_tune_options *opts)
{
    const model *m = spec->model;
    cutune_device dev;
    memset(&dev, 0, sizeof dev);
    dev.name = "test";
    dev.arch = "sm_90";
    tuner *t = calloc(1, sizeof *t);
    assert_non_null(t);
    t->res = result_new_for(m, "s.tune", &dev);
    assert_non_null(t->res);
    t->spec = spec;
    t->m = m;
    t->opts = opts;
    t->stop = "";
    t->ngpus = 1;
    t->gpus = calloc(1, sizeof *t->gpus);
    t->slots = calloc(1, sizeof *t->slots);
    t->answered = calloc(1, sizeof *t->answered);
    t->vals = calloc((size_t)m->nparams + 1, sizeof(value));
    assert_true(t->gpus && t->slots && t->answered && t->vals);
    t->gpus[0].plan.arch = "sm_90";
    t->goal = (goal_state){m, t->vals, false, false, 0, false, 0, 0, 0};
    assert_int_equal(twins_new(&t->twins, m), CUTUNE_OK);
    assert_int_equal(settings_resolve(m, &spec->diags, NULL, 6, &t->set), CUTUNE_OK);
    char path[512];
    snprintf(path, sizeof path, "%s/j.journal", tmpdir);
    json_t *identity = json_pack("{s:i}", "test", 1);
    assert_int_equal(journal_open(&t->journal, path, identity, 6, false), 0);
    json_decref(identity);
    return t;
}

/* The exhaustive search over t's space, no cache (every compile is NVRTC's), its
 * compile summary in *asum. */
static void resume(tuner *t, cutune_analyze_summary *asum)
{
    cutune_analyze_options aopts = CUTUNE_ANALYZE_OPTIONS_INIT;
    aopts.arch = "sm_90";
    aopts.jobs = 2;
    aopts.no_cache = 1;
    memset(asum, 0, sizeof *asum);
    int rc = run_search(t, &aopts, asum);
    if (rc != CUTUNE_OK)
        fail_msg("run_search: %s\n%s", cutune_status_text(rc), cutune_spec_diagnostics(t->spec, 0, 0));
}

static void test_late_read_back(void **state)
{
    (void)state;
    write_file("k.cu", kernel_src);
    /* index = threads' position * 2 + BROKEN (listing order) */
    static const char *const lines[] = {
        "{\"format\":\"cutune-journal\",\"version\":1,\"identity\":{\"test\":1}}\n",
        "{\"index\":3,\"params\":{\"threads\":128,\"BROKEN\":1},\"status\":\"compile error\",\"reason\":\"x\"}\n",
        "{\"index\":5,\"params\":{\"threads\":256,\"BROKEN\":1},\"status\":\"compile error\",\"reason\":\"x\"}\n",
        "{\"index\":4,\"params\":{\"threads\":256,\"BROKEN\":0},\"status\":\"ok\",\"objective\":0.003,"
        "\"time_ms\":{\"median\":0.003,\"min\":0.003,\"max\":0.003,\"q1\":0.003,\"q3\":0.003},\"reps\":10}\n",
        "{\"index\":0,\"params\":{\"threads\":64,\"BROKEN\":0},\"status\":\"ok\",\"objective\":0.002,"
        "\"time_ms\":{\"median\":0.002,\"min\":0.002,\"max\":0.002,\"q1\":0.002,\"q3\":0.002},\"reps\":10}\n",
        "{\"index\":2,\"params\":{\"threads\":128,\"BROKEN\":0},\"status\":\"ok\",\"objective\":0.004,"
        "\"time_ms\":{\"median\":0.004,\"min\":0.004,\"max\":0.004,\"q1\":0.004,\"q3\":0.004},\"reps\":10}\n",
    };
    write_journal(lines, sizeof lines / sizeof *lines);

    cutune_spec *spec = load_spec();
    cutune_tune_options opts = CUTUNE_TUNE_OPTIONS_INIT;
    tuner *t = resumed_tuner(spec, &opts);
    cutune_tune_result *res = t->res;
    assert_int_equal(journal_count(t->journal), 5);

    cutune_analyze_summary asum;
    pool_set_child_hook(slow_index_4);
    resume(t, &asum);
    pool_set_child_hook(NULL);
    /* every configuration once: five read back, index 1 asked (a compile error); the
     * journal's lines hold no compile figures ("resources", "occupancy"), so each
     * read-back is compiled for them, as before: six distinct compiles */
    assert_int_equal(asum.compiled, 6);
    assert_int_equal(res->n, 6);
    int seen[6] = {0};
    for (uint64_t i = 0; i < res->n; i++) {
        const record *rec = res->records[i];
        assert_true(rec->v.ordinal < 6);
        seen[rec->v.ordinal]++;
        assert_int_equal(rec->m.resumed, rec->v.ordinal != 1);
    }
    for (int i = 0; i < 6; i++)
        assert_int_equal(seen[i], 1);
    assert_int_equal(res->records[res->n - 1]->v.ordinal, 1); /* asked only after the read-backs */

    tuner_free(t);
    cutune_tune_result_free(res);
    cutune_spec_free(spec);
}

/* What a session compiling the whole space says of each variant, by ordinal; and a
 * first run's journal of every configuration but index 1, each record made from that
 * compile (as loop_each makes it), the compiled ones timed at 0.001 * (ordinal + 1). */
typedef struct first_run {
    cutune_tune_result *res; /* the first run's records */
    int registers[6];
    int64_t static_smem[6];
    double occupancy[6];
    int blocks_per_sm[6];
    int compiled[6];
    uint64_t seen;
} first_run;

static int first_each(void *user, const cutune_analysis *a, const value *vals, const session_binary *bin)
{
    (void)bin;
    first_run *f = user;
    uint64_t o = a->variant->ordinal;
    assert_true(o < 6);
    f->registers[o] = a->registers;
    f->static_smem[o] = a->static_smem;
    f->occupancy[o] = a->occupancy.occupancy;
    f->blocks_per_sm[o] = a->occupancy.blocks_per_sm;
    f->compiled[o] = a->compiled;
    f->seen++;
    if (o == 1)
        return 0; /* left for the resumed run */
    record *rec = result_add(f->res, a, vals);
    assert_non_null(rec);
    if (!a->compiled) {
        result_set_outcome(f->res, rec, OUTCOME_COMPILE_ERROR, a->log);
        return 0;
    }
    result_set_outcome(f->res, rec, OUTCOME_OK, NULL);
    cutune_measurement *m = &rec->m;
    m->timed = 1;
    m->median_ms = m->min_ms = m->max_ms = m->q1_ms = m->q3_ms = 0.001 * (double)(o + 1);
    m->objective = m->median_ms;
    m->reps = 10;
    return 0;
}

static void write_first_run(cutune_spec *spec, first_run *f)
{
    const model *m = spec->model;
    memset(f, 0, sizeof *f);
    cutune_device dev;
    memset(&dev, 0, sizeof dev);
    dev.name = "test";
    dev.arch = "sm_90";
    f->res = result_new_for(m, "s.tune", &dev);
    assert_non_null(f->res);
    cutune_analyze_options aopts = CUTUNE_ANALYZE_OPTIONS_INIT;
    aopts.jobs = 2;
    aopts.no_cache = 1;
    cutune_analyze_summary sum;
    session *ss;
    assert_int_equal(session_open(&ss, m, &spec->diags, "sm_90", &aopts, false, &sum), CUTUNE_OK);
    assert_int_equal(session_run_space(ss, first_each, f), CUTUNE_OK);
    session_close(ss);
    assert_int_equal(f->seen, 6);
    assert_int_equal(f->res->n, 5);
    char path[512];
    snprintf(path, sizeof path, "%s/j.journal", tmpdir);
    json_t *identity = json_pack("{s:i}", "test", 1);
    journal *j;
    assert_int_equal(journal_open(&j, path, identity, 6, true), 0);
    json_decref(identity);
    for (uint64_t i = 0; i < f->res->n; i++)
        assert_int_equal(journal_append_record(j, f->res, f->res->records[i]), 0);
    journal_close(j);
}

static void test_read_back_not_compiled(void **state)
{
    (void)state;
    write_file("k.cu", kernel_src);
    cutune_spec *spec = load_spec();
    first_run f;
    write_first_run(spec, &f);
    /* the space as the kernel makes it: BROKEN (odd ordinals) does not compile */
    for (int o = 0; o < 6; o++)
        assert_int_equal(f.compiled[o], o % 2 == 0);
    assert_true(f.registers[0] > 0 && f.occupancy[0] > 0 && f.blocks_per_sm[0] > 0);

    cutune_tune_options opts = CUTUNE_TUNE_OPTIONS_INIT;
    tuner *t = resumed_tuner(spec, &opts);
    assert_int_equal(journal_count(t->journal), 5);
    cutune_analyze_summary asum;
    resume(t, &asum);
    /* one compile, index 1's (NVRTC's: there is no cache); five read back, uncompiled */
    assert_int_equal(asum.variants, 6);
    assert_int_equal(asum.compiled, 1);
    assert_int_equal(asum.cached, 0);
    assert_int_equal(asum.duplicates, 0);
    assert_int_equal(asum.failed, 1);
    cutune_tune_result *res = t->res;
    assert_int_equal(res->n, 6);
    int seen[6] = {0};
    for (uint64_t i = 0; i < res->n; i++) {
        const record *rec = res->records[i];
        const cutune_measurement *m = &rec->m;
        uint64_t o = rec->v.ordinal;
        assert_true(o < 6);
        seen[o]++;
        assert_int_equal(m->resumed, o != 1);
        assert_int_equal(m->same_code_as, -1);
        assert_int_equal(rec->v.block[0], 64 << (o / 2)); /* planned: threads */
        if (o % 2 == 1) {
            assert_int_equal(rec->out, OUTCOME_COMPILE_ERROR);
            assert_non_null(m->reason);
            assert_non_null(strstr(m->reason, "BROKEN variants do not compile"));
            continue;
        }
        /* the first run's outcome and times, and its compile's figures: what this
         * session's compile of the variant says */
        assert_int_equal(rec->out, OUTCOME_OK);
        assert_true(m->timed);
        assert_true(m->median_ms == 0.001 * (double)(o + 1));
        assert_int_equal(m->reps, 10);
        assert_int_equal(m->registers, f.registers[o]);
        assert_int_equal(m->static_smem, f.static_smem[o]);
        assert_true(m->occupancy == f.occupancy[o]);
        assert_int_equal(m->blocks_per_sm, f.blocks_per_sm[o]);
        assert_non_null(m->limiter);
    }
    for (int i = 0; i < 6; i++)
        assert_int_equal(seen[i], 1);

    cutune_tune_result *first = f.res;
    tuner_free(t);
    cutune_tune_result_free(res);
    cutune_tune_result_free(first);
    cutune_spec_free(spec);
}

/* A fake GPU worker (test_fleet.c's, reduced): every request answered ok, timed, with a
 * median of (ordinal + 1) us; a final race's request in full (10 reps), any other
 * provisional. */
static int fake_worker(void *ctx, int in, int out)
{
    (void)ctx;
    wk_frame f = WK_FRAME_INIT;
    arena *a = arena_new();
    for (;;) {
        if (wk_recv(in, &f, 0) < 0)
            return 0;
        arena_reset(a);
        wk_request q;
        if (wk_decode_request(&f, a, &q) < 0)
            return 4;
        reply r;
        memset(&r, 0, sizeof r);
        r.status = OUTCOME_OK;
        r.m.reason = r.m.energy_note = r.m.profile_note = "";
        r.m.energy_j = r.m.power_w = NAN;
        r.m.timed = true;
        r.m.median_ms = r.m.min_ms = r.m.max_ms = r.m.q1_ms = r.m.q3_ms = 0.001 * (double)(q.ordinal + 1);
        r.m.reps = q.final ? 10 : 3;
        r.m.provisional = !q.final;
        r.m.objective = r.m.median_ms;
        r.m.gpu_seconds = 0.001;
        wk_frame_reset(&f);
        reply_encode(&f, &r);
        if (wk_send(out, &f) < 0)
            return 2;
    }
}

static void test_read_back_races(void **state)
{
    (void)state;
    write_file("k.cu", kernel_src);
    /* every configuration journaled: 0 timed in full (0.010 ms, the best), 2 provisional
     * within 5 % of it (a contender), 4 provisional far behind, the BROKEN ones not
     * compiled */
#define RES "\"resources\":{\"registers\":8},\"occupancy\":{\"theoretical\":1.0},"
    static const char *const lines[] = {
        "{\"format\":\"cutune-journal\",\"version\":1,\"identity\":{\"test\":1}}\n",
        "{\"index\":0," RES "\"params\":{\"threads\":64,\"BROKEN\":0},\"status\":\"ok\",\"objective\":0.010,"
        "\"time_ms\":{\"median\":0.010,\"min\":0.010,\"max\":0.010,\"q1\":0.010,\"q3\":0.010},\"reps\":10}\n",
        "{\"index\":1," RES "\"params\":{\"threads\":64,\"BROKEN\":1},\"status\":\"compile error\",\"reason\":\"x\"}\n",
        "{\"index\":2," RES "\"params\":{\"threads\":128,\"BROKEN\":0},\"status\":\"ok\",\"objective\":0.0102,"
        "\"time_ms\":{\"median\":0.0102,\"min\":0.0102,\"max\":0.0102,\"q1\":0.0102,\"q3\":0.0102},\"reps\":3,"
        "\"provisional\":true}\n",
        "{\"index\":3," RES
        "\"params\":{\"threads\":128,\"BROKEN\":1},\"status\":\"compile error\",\"reason\":\"x\"}\n",
        "{\"index\":4," RES "\"params\":{\"threads\":256,\"BROKEN\":0},\"status\":\"ok\",\"objective\":0.050,"
        "\"time_ms\":{\"median\":0.050,\"min\":0.050,\"max\":0.050,\"q1\":0.050,\"q3\":0.050},\"reps\":3,"
        "\"provisional\":true}\n",
        "{\"index\":5," RES
        "\"params\":{\"threads\":256,\"BROKEN\":1},\"status\":\"compile error\",\"reason\":\"x\"}\n",
    };
#undef RES
    write_journal(lines, sizeof lines / sizeof *lines);
    cutune_spec *spec = load_spec();
    cutune_tune_options opts = CUTUNE_TUNE_OPTIONS_INIT;
    tuner *t = resumed_tuner(spec, &opts);
    assert_int_equal(journal_count(t->journal), 6);
    cutune_device dev;
    memset(&dev, 0, sizeof dev);
    dev.name = "test";
    dev.arch = "sm_90";
    dev.l2_bytes = 1 << 20;
    assert_int_equal(gpu_init(&t->gpus[0], spec, &opts, 0, &dev, false, t->res), CUTUNE_OK);
    t->gpus[0].limit_s = 30;
    assert_int_equal(wk_start(&t->gpus[0].proc, fake_worker, NULL), 0);

    cutune_analyze_summary asum;
    resume(t, &asum);
    assert_int_equal(asum.compiled, 1); /* the contender, for the race: nothing else */
    cutune_tune_result *res = t->res;
    assert_int_equal(res->n, 6);
    for (uint64_t i = 0; i < res->n; i++) {
        const record *rec = res->records[i];
        const cutune_measurement *m = &rec->m;
        assert_true(m->resumed);
        assert_true(m->occupancy == 1.0); /* the line's, not a compile's */
        if (rec->v.ordinal != 2)          /* (the raced one has the worker's registers, the driver's) */
            assert_int_equal(m->registers, 8);
        if (rec->v.ordinal == 2) { /* raced: the fake worker's final answer, 3 us */
            assert_false(m->provisional);
            assert_int_equal(m->reps, 10);
            assert_true(m->median_ms == 0.003);
        } else if (rec->v.ordinal == 4) { /* outside the margin: not raced, cannot win */
            assert_true(m->pruned);
            assert_int_equal(m->reps, 3);
        }
    }

    tuner_free(t);
    cutune_tune_result_free(res);
    cutune_spec_free(spec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_late_read_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_back_not_compiled, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_back_races, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
