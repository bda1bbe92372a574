/* test_resume.c - a run resumed from a journal (tuner/run.c) without a GPU: every
 * configuration the journal holds joins the results, read back, even when the one
 * configuration left to ask finishes before a read-back does. The space is outcomes.sh's
 * (threads 64/128/256 x BROKEN 0/1, BROKEN=1 does not compile); the journal holds all
 * but index 1 (threads 64, BROKEN 1: asked, a quick compile error). The read-back of
 * index 4 (threads 256, BROKEN 0) is held up in its compile worker, so the asked
 * variant is told first: that ended the search ("space exhausted") and the late
 * read-back was dropped, "5 variants" for a space of 6 (seen on an H100, 2 runs in 10). */
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
#include "tuner/run.h"
#include "tuner/settings.h"
#include "tuner/tuner.h"

static char dir[256];

static void write_file(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
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

static void test_late_read_back(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/cutune-test-resume-XXXXXX");
    assert_non_null(mkdtemp(dir));
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
    char text[4096] = "";
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        strcat(text, lines[i]);
    write_file("j.journal", text);

    cutune_load_options lo = CUTUNE_LOAD_OPTIONS_INIT;
    lo.base_dir = dir;
    cutune_spec *spec;
    int rc = cutune_spec_load_string(&spec, "s.tune", spec_src, strlen(spec_src), &lo);
    if (rc != CUTUNE_OK)
        fail_msg("load: %s\n%s", cutune_status_text(rc), cutune_spec_diagnostics(spec, 0, 0));
    const model *m = spec->model;
    cutune_device dev;
    memset(&dev, 0, sizeof dev);
    dev.name = "test";
    dev.arch = "sm_90";
    cutune_tune_result *res = result_new_for(m, "s.tune", &dev);
    assert_non_null(res);
    cutune_tune_options opts = CUTUNE_TUNE_OPTIONS_INIT;

    /* The tuner as tuner_new makes it, less the GPU worker (nothing here runs on one). */
    tuner *t = calloc(1, sizeof *t);
    assert_non_null(t);
    t->spec = spec;
    t->m = m;
    t->opts = &opts;
    t->res = res;
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
    snprintf(path, sizeof path, "%s/j.journal", dir);
    json_t *identity = json_pack("{s:i}", "test", 1);
    assert_int_equal(journal_open(&t->journal, path, identity, 6, false), 0);
    json_decref(identity);
    assert_int_equal(journal_count(t->journal), 5);

    cutune_analyze_options aopts = CUTUNE_ANALYZE_OPTIONS_INIT;
    aopts.arch = "sm_90";
    aopts.jobs = 2;
    aopts.no_cache = 1;
    cutune_analyze_summary asum;
    memset(&asum, 0, sizeof asum);
    pool_set_child_hook(slow_index_4);
    rc = run_search(t, &aopts, &asum);
    pool_set_child_hook(NULL);
    if (rc != CUTUNE_OK)
        fail_msg("run_search: %s\n%s", cutune_status_text(rc), cutune_spec_diagnostics(spec, 0, 0));
    /* every configuration once: five read back, index 1 asked (a compile error) */
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
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_late_read_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
