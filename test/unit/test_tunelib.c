/* test_tunelib.c - what `cutune SPEC` did in cli/ and the library now does for any
 * application (cutune/tune.h): a run ranked (cutune_tune_rank), two runs' same variants
 * compared (cutune_tune_spread), the kernel blocks of a spec file in turn
 * (cutune_tune_blocks) and a process per GPU (cutune_tune_per_device). No GPU: runs are
 * recorded results files (test/data), and a GPU's process copies one. Only the public
 * header, and jansson to make variants of a recording. */
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cutune.h"

#define RECORDED CUTUNE_SOURCE_DIR "/test/data/report-sum_matrix-h100.json"

#include "scratch.h"

/* dumped: `root` (taken) written to tmpdir/NAME and loaded as results. */
static cutune_tune_result *dumped(json_t *root, const char *name)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    assert_int_equal(json_dump_file(root, path, 0), 0);
    json_decref(root);
    cutune_tune_result *r = NULL;
    if (cutune_results_load(&r, path) != CUTUNE_OK)
        fail_msg("%s: %s", path, cutune_last_error());
    return r;
}

/* recording: RECORDED with `direction` as the objective's and every median time
 * multiplied by `scale`, written to tmpdir/NAME and loaded. */
static cutune_tune_result *recording(const char *name, const char *direction, double scale)
{
    json_error_t jerr;
    json_t *root = json_load_file(RECORDED, 0, &jerr);
    assert_non_null(root);
    json_object_set_new(json_object_get(root, "objective"), "direction", json_string(direction));
    size_t i;
    json_t *entry;
    json_array_foreach(json_object_get(root, "results"), i, entry)
    {
        json_t *t = json_object_get(entry, "time_ms");
        json_t *median = t ? json_object_get(t, "median") : NULL;
        if (json_is_number(median))
            json_object_set_new(t, "median", json_real(json_number_value(median) * scale));
    }
    return dumped(root, name);
}

/* rankable: what a ranking holds, by the public accessors. */
static bool rankable(const cutune_measurement *m)
{
    return cutune_measurement_value(m, CUTUNE_VALUE_TIMED) != 0 &&
           cutune_measurement_value(m, CUTUNE_VALUE_PRUNED) == 0 &&
           isfinite(cutune_measurement_value(m, CUTUNE_VALUE_OBJECTIVE));
}

static uint64_t index_of(const cutune_tune_result *r, const cutune_measurement *m)
{
    for (uint64_t i = 0; i < cutune_tune_count(r); i++)
        if (cutune_tune_at(r, i) == m)
            return i;
    fail_msg("a ranked measurement is not the result's");
    return 0;
}

/* check_ranked: `list` (n) is r's rankable variants, each once, best first in
 * `direction` (+1: greatest first), equal objectives in r's order. */
static void check_ranked(const cutune_tune_result *r, const cutune_measurement **list, uint64_t n, int direction)
{
    uint64_t expected = 0;
    for (uint64_t i = 0; i < cutune_tune_count(r); i++)
        expected += rankable(cutune_tune_at(r, i));
    assert_true(expected > 10); /* the recording has something to rank */
    assert_int_equal(n, expected);
    for (uint64_t i = 0; i < n; i++) {
        assert_true(rankable(list[i]));
        if (i == 0)
            continue;
        double before = cutune_measurement_value(list[i - 1], CUTUNE_VALUE_OBJECTIVE);
        double now = cutune_measurement_value(list[i], CUTUNE_VALUE_OBJECTIVE);
        assert_true(direction > 0 ? before >= now : before <= now);
        if (before == now)
            assert_true(index_of(r, list[i - 1]) < index_of(r, list[i]));
        else
            assert_true(list[i - 1] != list[i]);
    }
}

static void test_rank_orders_by_the_objective(void **state)
{
    (void)state;
    cutune_tune_result *most = recording("max.json", "maximize", 1.0);
    cutune_tune_result *least = recording("min.json", "minimize", 1.0);
    uint64_t n = cutune_tune_count(most), count = 0;
    const cutune_measurement **list = calloc((size_t)n, sizeof *list);
    assert_int_equal(cutune_tune_rank(list, n, &count, most), CUTUNE_OK);
    check_ranked(most, list, count, +1);
    /* The recording's own winner (by bandwidth, its objective) heads a maximising ranking. */
    assert_true(cutune_measurement_value(list[0], CUTUNE_VALUE_OBJECTIVE) >=
                cutune_measurement_value(cutune_tune_best(most), CUTUNE_VALUE_OBJECTIVE));
    uint64_t count2 = 0;
    assert_int_equal(cutune_tune_rank(list, n, &count2, least), CUTUNE_OK);
    check_ranked(least, list, count2, -1);
    assert_int_equal(count, count2);
    /* The top 3 only: the same three, and the count of all. */
    const cutune_measurement *top[3] = {NULL, NULL, NULL};
    uint64_t all = 0;
    assert_int_equal(cutune_tune_rank(top, 3, &all, least), CUTUNE_OK);
    assert_int_equal(all, count2);
    for (int i = 0; i < 3; i++)
        assert_ptr_equal(top[i], list[i]);
    /* Only the count; bad arguments. */
    assert_int_equal(cutune_tune_rank(NULL, 0, &all, least), CUTUNE_OK);
    assert_int_equal(all, count2);
    assert_int_equal(cutune_tune_rank(NULL, 3, &all, least), CUTUNE_EINVAL);
    assert_int_equal(cutune_tune_rank(top, 3, NULL, least), CUTUNE_EINVAL);
    assert_int_equal(cutune_tune_rank(top, 3, &all, NULL), CUTUNE_EINVAL);
    free(list);
    cutune_tune_result_free(most);
    cutune_tune_result_free(least);
}

static void test_spread_is_the_ratio_of_the_same_variants(void **state)
{
    (void)state;
    cutune_tune_result *a = recording("a.json", "maximize", 1.0);
    cutune_tune_result *b = recording("b.json", "maximize", 2.0);
    int ok = 0; /* the variants timed with outcome ok */
    for (uint64_t i = 0; i < cutune_tune_count(a); i++) {
        const cutune_measurement *m = cutune_tune_at(a, i);
        ok += cutune_measurement_value(m, CUTUNE_VALUE_TIMED) != 0 &&
              cutune_measurement_outcome(m) == CUTUNE_OUTCOME_OK &&
              cutune_measurement_value(m, CUTUNE_VALUE_MEDIAN_MS) > 0;
    }
    assert_true(ok > 10);
    cutune_device_spread d = {.device = 7};
    assert_int_equal(cutune_tune_spread(&d, a, b), CUTUNE_OK);
    assert_int_equal(d.variants, ok);
    assert_int_equal(d.device, 7); /* the caller's */
    assert_true(fabs(d.median - 2.0) < 1e-9 && fabs(d.lo - 2.0) < 1e-9 && fabs(d.hi - 2.0) < 1e-9);
    assert_int_equal(cutune_tune_spread(&d, b, a), CUTUNE_OK);
    assert_true(fabs(d.median - 0.5) < 1e-9);
    assert_int_equal(cutune_tune_spread(&d, a, NULL), CUTUNE_EINVAL);
    cutune_tune_result_free(a);
    cutune_tune_result_free(b);
}

/* A recording whose first `n` entries timed ok are marked stopped tied in the final
 * race (pruned and tied), as a run on one GPU writes them; written to tmpdir/NAME, loaded. */
static cutune_tune_result *tied_recording(const char *name, int n)
{
    json_error_t jerr;
    json_t *root = json_load_file(RECORDED, 0, &jerr);
    assert_non_null(root);
    size_t i;
    json_t *entry;
    int marked = 0;
    json_array_foreach(json_object_get(root, "results"), i, entry)
    {
        if (marked < n && json_is_object(json_object_get(entry, "time_ms"))) {
            json_object_set_new(entry, "pruned", json_true());
            json_object_set_new(entry, "tied", json_true());
            marked++;
        }
    }
    assert_int_equal(marked, n);
    return dumped(root, name);
}

/* Contenders stopped tied are counted in a line of their own, read back from the file
 * as the public flag says; without any, no such line. */
static void test_account_counts_the_tied(void **state)
{
    (void)state;
    char *text = NULL;
    cutune_tune_result *r = tied_recording("tied2.json", 2);
    int flagged = 0;
    for (uint64_t i = 0; i < cutune_tune_count(r); i++)
        flagged += cutune_measurement_value(cutune_tune_at(r, i), CUTUNE_VALUE_TIED) == 1;
    assert_int_equal(flagged, 2);
    assert_int_equal(cutune_tune_account(&text, r), CUTUNE_OK);
    assert_non_null(
        strstr(text, "\nfinal race: 2 contenders stopped tied, level with the best timed in full before them"));
    cutune_free(text);
    cutune_tune_result_free(r);
    r = tied_recording("tied1.json", 1);
    assert_int_equal(cutune_tune_account(&text, r), CUTUNE_OK);
    assert_non_null(
        strstr(text, "\nfinal race: 1 contender stopped tied, level with the best timed in full before it"));
    cutune_free(text);
    cutune_tune_result_free(r);
    r = tied_recording("tied0.json", 0);
    assert_int_equal(cutune_tune_account(&text, r), CUTUNE_OK);
    assert_null(strstr(text, "stopped tied"));
    cutune_free(text);
    cutune_tune_result_free(r);
}

/* The account names the device and counts what the summary counts, in whole lines;
 * a clean recording has no warnings. */
static void test_account_is_whole_lines_of_the_summary(void **state)
{
    (void)state;
    cutune_tune_result *r = recording("acct.json", "maximize", 1.0);
    const cutune_tune_summary *s = cutune_tune_summary_of(r);
    char *text = NULL, *warnings = NULL;
    assert_int_equal(cutune_tune_account(&text, r), CUTUNE_OK);
    char first[256];
    snprintf(first, sizeof first, "%s (%s): %llu variants: %llu timed", cutune_tune_device(r)->name,
             cutune_tune_device(r)->arch, (unsigned long long)cutune_tune_count(r), (unsigned long long)s->timed);
    if (strncmp(text, first, strlen(first)) != 0)
        fail_msg("the account begins '%.80s', not '%s'", text, first);
    assert_true(strlen(text) > 0 && text[strlen(text) - 1] == '\n');
    assert_non_null(strstr(text, "\nwall "));
    assert_int_equal(cutune_tune_warnings(&warnings, r), CUTUNE_OK);
    assert_string_equal(warnings, "");
    assert_int_equal(cutune_tune_account(NULL, r), CUTUNE_EINVAL);
    assert_int_equal(cutune_tune_warnings(&warnings, NULL), CUTUNE_EINVAL);
    cutune_free(text);
    cutune_free(warnings);
    cutune_tune_result_free(r);
}

/* ---- cutune_tune_blocks over a spec file of two blocks, without a GPU --------------- */

static const char two_blocks[] = "kernel first from \"k.cu\" {\n"
                                 "    param T in [32, 64];\n"
                                 "    block T;\n"
                                 "    grid 1;\n"
                                 "    emit header \"both.h\";\n"
                                 "}\n"
                                 "kernel second from \"k.cu\" {\n"
                                 "    param U in [1, 2, 4];\n"
                                 "    block 32 * U;\n"
                                 "    grid 1;\n"
                                 "    emit header \"both.h\";\n"
                                 "}\n";

typedef struct visit {
    int calls;
    char kernels[4][16];
    int index[4], count[4], append[4];
    int status[4]; /* what each call returns */
} visit;

static int each_block(void *user, cutune_spec *spec, cutune_block *b)
{
    visit *v = user;
    int k = v->calls++;
    snprintf(v->kernels[k], sizeof v->kernels[k], "%s", cutune_spec_kernel(spec));
    v->index[k] = b->index;
    v->count[k] = b->count;
    v->append[k] = b->header_append;
    assert_non_null(b->header_path);
    assert_non_null(strstr(b->header_path, "both.h"));
    b->header_written = 1;
    return v->status[k];
}

static cutune_spec *load_two_blocks(void)
{
    cutune_load_options lo = CUTUNE_LOAD_OPTIONS_INIT;
    lo.skip_file_checks = 1;
    cutune_spec *spec = NULL;
    if (cutune_spec_load_string(&spec, "two.tune", two_blocks, strlen(two_blocks), &lo) != CUTUNE_OK)
        fail_msg("load: %s", spec ? cutune_spec_diagnostics(spec, 0, 0) : cutune_last_error());
    return spec;
}

static void test_blocks_each_in_turn_sharing_a_header(void **state)
{
    (void)state;
    cutune_spec *spec = load_two_blocks();
    visit v = {0};
    assert_int_equal(cutune_tune_blocks(spec, NULL, each_block, &v), CUTUNE_OK);
    assert_int_equal(v.calls, 2);
    assert_string_equal(v.kernels[0], "first");
    assert_string_equal(v.kernels[1], "second");
    assert_int_equal(v.index[1], 1);
    assert_int_equal(v.count[0], 2);
    assert_int_equal(v.append[0], 0); /* the first writes the header, the second adds to it */
    assert_int_equal(v.append[1], 1);

    /* No GPU for the first: the loop goes on, and says so; a failure stops it. */
    visit w = {.status = {CUTUNE_ENODEV, CUTUNE_OK}};
    assert_int_equal(cutune_tune_blocks(spec, NULL, each_block, &w), CUTUNE_ENODEV);
    assert_int_equal(w.calls, 2);
    visit x = {.status = {CUTUNE_ESTOPPED, CUTUNE_OK}};
    assert_int_equal(cutune_tune_blocks(spec, NULL, each_block, &x), CUTUNE_ESTOPPED);
    assert_int_equal(x.calls, 1);

    /* Only the selected block (cutune --kernel). */
    cutune_spec_select_kernel(spec, 1);
    cutune_blocks_options bo = CUTUNE_BLOCKS_OPTIONS_INIT;
    bo.selected_only = 1;
    visit y = {0};
    assert_int_equal(cutune_tune_blocks(spec, &bo, each_block, &y), CUTUNE_OK);
    assert_int_equal(y.calls, 1);
    assert_string_equal(y.kernels[0], "second");
    assert_int_equal(y.count[0], 1);

    memset(&bo, 0, sizeof bo); /* another version of the options: refused */
    assert_int_equal(cutune_tune_blocks(spec, &bo, each_block, &y), CUTUNE_EINVAL);
    assert_int_equal(cutune_tune_blocks(spec, NULL, NULL, &y), CUTUNE_EINVAL);
    cutune_spec_free(spec);
}

/* ---- cutune_tune_per_device: each GPU's process "tunes" by copying a recording -------- */

static int copy_recording(void *user, int device, int jobs, const char *results_path)
{
    (void)user;
    if (device == 3) /* this GPU's run fails, and writes nothing */
        return 9;
    if (jobs != 2)
        return 8;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", RECORDED, results_path);
    return system(cmd) == 0 ? 0 : 7;
}

static void test_per_device_runs_a_process_per_gpu(void **state)
{
    (void)state;
    cutune_spec *spec = load_two_blocks();
    char results[128];
    snprintf(results, sizeof results, "%s/run.json", tmpdir);
    cutune_tune_options t = CUTUNE_TUNE_OPTIONS_INIT;
    t.results_path = results;
    int devs[] = {0, 1, 3};
    cutune_per_device_options po = CUTUNE_PER_DEVICE_OPTIONS_INIT;
    po.devices = devs;
    po.ndevices = 3;
    po.jobs = 2;
    po.run = copy_recording;
    cutune_device_run *runs = NULL;
    assert_int_equal(cutune_tune_per_device(&runs, spec, &t, &po), CUTUNE_OK);
    assert_non_null(runs);
    for (int i = 0; i < 3; i++) {
        char expected[160];
        snprintf(expected, sizeof expected, "%s/run.gpu%d.json", tmpdir, devs[i]);
        assert_int_equal(runs[i].device, devs[i]);
        assert_string_equal(runs[i].results_path, expected);
        assert_int_equal(runs[i].started, 1);
        assert_int_equal(runs[i].exit_code, i < 2 ? 0 : 9);
        if (i < 2) {
            assert_non_null(runs[i].result);
            assert_null(runs[i].load_error);
        } else {
            assert_null(runs[i].result);
            assert_non_null(runs[i].load_error);
        }
    }
    cutune_device_runs_free(runs, 3);
    assert_int_equal(cutune_per_device_jobs(5, 3), 5);
    assert_true(cutune_per_device_jobs(0, 3) >= 1);

    /* Refused: a GPU twice, one GPU, a journal, options of another version. */
    int twice[] = {1, 1};
    po.devices = twice;
    po.ndevices = 2;
    assert_int_equal(cutune_tune_per_device(&runs, spec, &t, &po), CUTUNE_EINVAL);
    assert_null(runs);
    po.devices = devs;
    po.ndevices = 1;
    assert_int_equal(cutune_tune_per_device(&runs, spec, &t, &po), CUTUNE_EINVAL);
    po.ndevices = 2;
    t.journal_path = "j";
    assert_int_equal(cutune_tune_per_device(&runs, spec, &t, &po), CUTUNE_EINVAL);
    t.journal_path = NULL;
    memset(&po, 0, sizeof po);
    assert_int_equal(cutune_tune_per_device(&runs, spec, &t, &po), CUTUNE_EINVAL);
    cutune_device_runs_free(NULL, 0);
    cutune_spec_free(spec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rank_orders_by_the_objective),
        cmocka_unit_test(test_spread_is_the_ratio_of_the_same_variants),
        cmocka_unit_test(test_account_is_whole_lines_of_the_summary),
        cmocka_unit_test(test_account_counts_the_tied),
        cmocka_unit_test(test_blocks_each_in_turn_sharing_a_header),
        cmocka_unit_test(test_per_device_runs_a_process_per_gpu),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
