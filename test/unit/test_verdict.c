/* test_verdict.c - what `cutune SPEC` says at a run's end, made by the library for any
 * application (emit/verdict.c through include/cutune/tune.h): the ranking
 * (cutune_tune_ranking_text), each size's winner (cutune_tune_best_text), each GPU's
 * part of a run on several (cutune_device_run_text), the verdict without a GPU
 * (cutune_untuned_text) and its start (cutune_untuned_start), what a run's setting makes it say (cutune_tune_setup_text) and that of an analysis of which nothing can run
 * (cutune_analyze_verdict_text). Runs are recorded results files (test/emit); the expected
 * figures are those files' (their winners' indices, params and median times). Only the
 * public header. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>
#include <unistd.h>

#include "cutune.h"

static cutune_tune_result *load(const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", CUTUNE_SOURCE_DIR, rel);
    cutune_tune_result *r = NULL;
    if (cutune_results_load(&r, path) != CUTUNE_OK)
        fail_msg("%s: %s", rel, cutune_last_error());
    return r;
}

/* count: how many times `what` occurs in text. */
static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

/* h100.json: four variants, two ran ok (#10 0.52 ms, #11 0.50 ms): #11 first. */
static void test_ranking(void **state)
{
    (void)state;
    cutune_tune_result *r = load("test/emit/h100.json");
    char *text = NULL;
    assert_int_equal(cutune_tune_ranking_text(&text, r, 10), CUTUNE_OK);
    assert_int_equal(count(text, "\n"), 4); /* an empty line, the header, a row each */
    assert_true(strncmp(text, "\nrank ", 6) == 0);
    const char *header = strchr(text + 1, '\n');
    assert_non_null(strstr(text, "block_x  tile_y  maxrreg"));
    assert_non_null(strstr(text, "time_ms")); /* the objective's name */
    const char *first = header + 1, *second = strchr(first, '\n') + 1;
    assert_true(strncmp(first, "   1     11 ", 12) == 0);
    assert_non_null(strstr(first, "0.5000"));
    assert_true(strncmp(second, "   2     10 ", 12) == 0);
    assert_non_null(strstr(second, "0.5200"));
    cutune_free(text);
    assert_int_equal(cutune_tune_ranking_text(&text, r, 1), CUTUNE_OK); /* the best alone */
    assert_int_equal(count(text, "\n"), 3);
    cutune_free(text);
    assert_int_equal(cutune_tune_ranking_text(&text, r, 0), CUTUNE_OK); /* none asked */
    assert_string_equal(text, "");
    cutune_free(text);
    assert_int_equal(cutune_tune_ranking_text(NULL, r, 1), CUTUNE_EINVAL);
    assert_int_equal(cutune_tune_ranking_text(&text, NULL, 1), CUTUNE_EINVAL);
    cutune_tune_result_free(r);
}

/* sizes.json: three sizes of six variants each. */
static void test_ranking_sizes(void **state)
{
    (void)state;
    cutune_tune_result *r = load("test/emit/sizes.json");
    char *text = NULL;
    assert_int_equal(cutune_tune_ranking_text(&text, r, 2), CUTUNE_OK);
    const char *a = strstr(text, "\nsize n=1048576:\nrank"), *b = strstr(text, "\nsize n=4194304:\nrank"),
               *c = strstr(text, "\nsize n=16777216:\nrank");
    assert_true(a == text && a < b && b < c);
    assert_int_equal(count(text, "\nrank "), 3);
    assert_int_equal(count(text, "\n   2 "), 3);
    assert_int_equal(count(text, "\n   3 "), 0);
    assert_non_null(strstr(text, "threads  items"));
    assert_non_null(strstr(text, "gbps"));
    cutune_free(text);
    cutune_tune_result_free(r);
}

static void test_best(void **state)
{
    (void)state;
    cutune_tune_result *r = load("test/emit/h100.json");
    char *text = NULL, *note = NULL;
    assert_int_equal(cutune_tune_best_text(&text, &note, r, 0), CUTUNE_OK);
    assert_string_equal(text, "best: #11 block_x=64 tile_y=4 maxrreg=32  median 0.5000 ms, time_ms 0.5\n");
    assert_string_equal(note, ""); /* no energy asked */
    cutune_free(text);
    cutune_free(note);
    assert_int_equal(cutune_tune_best_text(&text, NULL, r, 0), CUTUNE_OK); /* the note is not asked for */
    cutune_free(text);
    assert_int_equal(cutune_tune_best_text(&text, NULL, r, 1), CUTUNE_EINVAL); /* no sizes: k 0 only */
    cutune_tune_result_free(r);

    r = load("test/emit/sizes.json");
    const char *want[] = {"best at n=1048576: #0 threads=128 items=1  median 4.1943 ms, gbps 2\n",
                          "best at n=4194304: #4 threads=256 items=2  median 16.7772 ms, gbps 2\n",
                          "best at n=16777216: #5 threads=256 items=4  median 67.1089 ms, gbps 2\n"};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(cutune_tune_best_text(&text, NULL, r, k), CUTUNE_OK);
        assert_string_equal(text, want[k]);
        cutune_free(text);
    }
    assert_int_equal(cutune_tune_best_text(&text, NULL, r, 3), CUTUNE_EINVAL);
    assert_int_equal(cutune_tune_best_text(&text, NULL, r, -1), CUTUNE_EINVAL);
    cutune_tune_result_free(r);

    r = load("test/emit/nowinner.json");
    assert_int_equal(cutune_tune_best_text(&text, &note, r, 0), CUTUNE_OK);
    assert_string_equal(text, ""); /* none won: nothing to say */
    assert_string_equal(note, "");
    cutune_free(text);
    cutune_free(note);
    cutune_tune_result_free(r);
}

/* The winner's energy was asked for and not measured: why, as a line of its own. The
 * recorded H100 run with that note added to its winner's entry (#11, results[2]). */
static void test_best_energy_note(void **state)
{
    (void)state;
    char path[1024], out[] = "/tmp/cutune-verdict-XXXXXX";
    snprintf(path, sizeof path, "%s/test/emit/h100.json", CUTUNE_SOURCE_DIR);
    json_t *root = json_load_file(path, 0, NULL);
    assert_non_null(root);
    json_object_set_new(json_array_get(json_object_get(root, "results"), 2), "energy",
                        json_pack("{s:s}", "not_measured", "NVML cannot read this board"));
    int fd = mkstemp(out);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(json_dump_file(root, out, 0), 0);
    json_decref(root);
    cutune_tune_result *r = NULL;
    assert_int_equal(cutune_results_load(&r, out), CUTUNE_OK);
    unlink(out);
    char *text = NULL, *note = NULL;
    assert_int_equal(cutune_tune_best_text(&text, &note, r, 0), CUTUNE_OK);
    assert_true(strncmp(text, "best: #11 ", 10) == 0);
    assert_string_equal(note, "NVML cannot read this board\n");
    cutune_free(text);
    cutune_free(note);
    cutune_tune_result_free(r);
}

/* Three GPUs: the first's results not read, then the H100's and the H200's, which
 * share one variant timed ok (#11: 0.45 ms over 0.50 ms). */
static void test_device_runs(void **state)
{
    (void)state;
    cutune_device_run runs[3] = {
        {.device = 2, .results_path = "x.gpu2.json", .started = 1, .exit_code = 5, .load_error = "gone"},
        {.device = 0, .results_path = "x.gpu0.json", .started = 1, .result = load("test/emit/h100.json")},
        {.device = 1, .results_path = "x.gpu1.json", .started = 1, .result = load("test/emit/h200.json")},
    };
    char *line = NULL, *spread = NULL;
    assert_int_equal(cutune_device_run_text(&line, &spread, runs, 3, 0), CUTUNE_OK);
    assert_string_equal(line, ""); /* not read: why, for stderr */
    assert_string_equal(spread, "cutune: GPU 2: no results: gone\n");
    cutune_free(line);
    cutune_free(spread);
    assert_int_equal(cutune_device_run_text(&line, &spread, runs, 3, 1), CUTUNE_OK);
    assert_string_equal(line, "GPU 0 (NVIDIA H100 80GB HBM3): best #11 block_x=64 tile_y=4 maxrreg=32  median 0.5000 "
                              "ms; results: x.gpu0.json\n");
    assert_string_equal(spread, ""); /* the first read: nothing to compare with */
    cutune_free(line);
    cutune_free(spread);
    assert_int_equal(cutune_device_run_text(&line, &spread, runs, 3, 2), CUTUNE_OK);
    assert_true(strncmp(line, "GPU 1 (NVIDIA H200", 18) == 0);
    assert_non_null(strstr(line, "best #16 block_x=128 tile_y=4 maxrreg=0  median 0.4000 ms; results: x.gpu1.json\n"));
    assert_string_equal(spread, "spread: GPU 1's median time over GPU 0's, same variants (1): median 0.9000, 90 % "
                                "within 0.9000..0.9000\n");
    cutune_free(line);
    cutune_free(spread);
    assert_int_equal(cutune_device_run_text(&line, &spread, runs, 3, 3), CUTUNE_EINVAL);
    assert_int_equal(cutune_device_run_text(&line, NULL, runs, 3, 1), CUTUNE_EINVAL);
    cutune_tune_result_free(runs[1].result);
    cutune_tune_result_free(runs[2].result);
}

static void test_verdict_text(void **state)
{
    (void)state;
    char *text = NULL;
    cutune_tune_verdict v = {.sizes = 3, .winners = 1};
    assert_int_equal(cutune_tune_verdict_text(&text, &v), CUTUNE_OK);
    assert_string_equal(text, "cutune: 2 of 3 sizes have no variant that ran correctly\n");
    cutune_free(text);
    v = (cutune_tune_verdict){.sizes = 2, .winners = 0};
    assert_int_equal(cutune_tune_verdict_text(&text, &v), CUTUNE_OK);
    assert_string_equal(text, "cutune: 2 of 2 sizes have no variant that ran correctly\n"
                              "cutune: no variant ran correctly, so none was chosen\n");
    cutune_free(text);
    v = (cutune_tune_verdict){.winners = 0, .nothing_compiled = 1};
    assert_int_equal(cutune_tune_verdict_text(&text, &v), CUTUNE_OK);
    assert_string_equal(text, "cutune: NOTHING COMPILED: no variant compiled, so none was chosen\n");
    cutune_free(text);
    v = (cutune_tune_verdict){.winners = 0, .ran_ok = 1};
    assert_int_equal(cutune_tune_verdict_text(&text, &v), CUTUNE_OK);
    assert_string_equal(text, "cutune: variants ran correctly, but none was timed in full, so none was chosen\n");
    cutune_free(text);
    v = (cutune_tune_verdict){.winners = 1};
    assert_int_equal(cutune_tune_verdict_text(&text, &v), CUTUNE_OK);
    assert_string_equal(text, ""); /* a winner: nothing to add */
    cutune_free(text);
    assert_int_equal(cutune_tune_verdict_text(&text, NULL), CUTUNE_EINVAL);
}

/* Counters named before a run: set in the options (the best five's unless a count was
 * asked for), judged by CUPTI's host API when this machine has it. */
static void test_set_metrics(void **state)
{
    (void)state;
    const char *const *defaults;
    int nd = cutune_profile_default_metrics(&defaults);
    cutune_tune_options t = CUTUNE_TUNE_OPTIONS_INIT;
    int rc = cutune_tune_set_metrics(&t, defaults, nd, "sm_90");
    assert_true(rc == CUTUNE_OK || rc == CUTUNE_ENODEV); /* ENODEV: no CUPTI here */
    assert_ptr_equal(t.profile_metrics, defaults);
    assert_int_equal(t.nprofile_metrics, nd);
    assert_int_equal(t.profile_top, 5);
    t.profile_top = -1; /* --metrics all: kept */
    const char *bad[] = {"no_such__counter"};
    rc = cutune_tune_set_metrics(&t, bad, 1, "sm_90");
    assert_true(rc == CUTUNE_EINVAL || rc == CUTUNE_ENODEV);
    assert_int_equal(t.profile_top, -1);
    assert_int_equal(cutune_tune_set_metrics(&t, defaults, nd, "sm_1"), CUTUNE_EINVAL); /* no such chip */
    assert_int_equal(cutune_tune_set_metrics(&t, NULL, 1, NULL), CUTUNE_EINVAL);
    assert_int_equal(cutune_tune_set_metrics(&t, defaults, 0, NULL), CUTUNE_EINVAL);
}

static void test_untuned(void **state)
{
    (void)state;
    char *text = NULL;
    cutune_untuned u = {.variants = 1234567, .runnable = 1234567, .why = "no driver"};
    assert_int_equal(cutune_untuned_text(&text, &u), CUTUNE_OK); /* everything compiled: no counts */
    assert_string_equal(text, "cutune: NOT TUNED. Timing needs a GPU, and this machine has none usable: no driver\n"
                              "Everything that needs no GPU was done: the spec is valid, its space is counted and "
                              "every variant compiled.\n");
    cutune_free(text);
    u.brief = 1; /* the verdict line alone */
    assert_int_equal(cutune_untuned_text(&text, &u), CUTUNE_OK);
    assert_int_equal(count(text, "\n"), 1);
    cutune_free(text);
    for (int k = 0; k < 2; k++) { /* no reason given: the driver sees no device */
        u.why = k ? "" : NULL;
        assert_int_equal(cutune_untuned_text(&text, &u), CUTUNE_OK);
        assert_string_equal(text, "cutune: NOT TUNED. Timing needs a GPU, and this machine has none usable: the "
                                  "driver sees no device\n");
        cutune_free(text);
    }
    u = (cutune_untuned){.variants = 1234567,
                         .runnable = 1000,
                         .failed = 1234000,
                         .unlaunchable = 567,
                         .limited = 1,
                         .emits = 1,
                         .why = "no driver"};
    assert_int_equal(cutune_untuned_text(&text, &u), CUTUNE_OK);
    assert_non_null(strstr(text, "Of 1,234,567 variants (the first, --limit), 1000 compiled and can launch, 1234000 "
                                 "failed to compile and 567 cannot launch;\non a GPU, only those 1000 would run.\n"));
    assert_non_null(strstr(text, "No header or CSV was written"));
    cutune_free(text);
    u = (cutune_untuned){.variants = 4, .failed = 4, .brief = 1, .why = "no driver"}; /* nothing can run */
    assert_int_equal(cutune_untuned_text(&text, &u), CUTUNE_OK);
    assert_string_equal(text, "Nothing was tuned, and a GPU would not change that: the kernel or the spec must.\n"
                              "(This machine has no usable GPU either: no driver)\n");
    cutune_free(text);
    assert_int_equal(cutune_untuned_text(&text, NULL), CUTUNE_EINVAL);
}

/* An analysis: nothing said while one variant can run; else which way nothing can. */
static void test_analysis_verdict(void **state)
{
    (void)state;
    char *text = NULL;
    cutune_analyze_summary sum = {.arch = "sm_80", .variants = 7, .failed = 3, .unlaunchable = 3};
    assert_int_equal(cutune_analyze_verdict_text(&text, &sum), CUTUNE_OK);
    assert_string_equal(text, "");
    cutune_free(text);
    sum.unlaunchable = 4;
    assert_int_equal(cutune_analyze_verdict_text(&text, &sum), CUTUNE_OK);
    assert_string_equal(text, "NOTHING CAN RUN: none of the 7 variants both compiled for sm_80 and can launch (3 "
                              "failed to compile, 4 cannot launch)\n");
    cutune_free(text);
    sum = (cutune_analyze_summary){.variants = 12, .failed = 12}; /* no arch: failed before compiling */
    assert_int_equal(cutune_analyze_verdict_text(&text, &sum), CUTUNE_OK);
    assert_string_equal(text, "NOTHING COMPILED: none of the 12 variants compiled for \n");
    cutune_free(text);
    sum.variants = sum.failed = 0;
    assert_int_equal(cutune_analyze_verdict_text(&text, &sum), CUTUNE_OK);
    assert_string_equal(text, "no variant was analysed\n");
    cutune_free(text);
    assert_int_equal(cutune_analyze_verdict_text(&text, NULL), CUTUNE_EINVAL);
}

/* What `cutune SPEC` says of a run's setting: a shard's line, the warning of ranks
 * sharing GPUs (even when brief), and the notes of GPUs of several models or named twice. */
static void test_setup_text(void **state)
{
    (void)state;
    char *text = NULL;
    cutune_tune_options t = CUTUNE_TUNE_OPTIONS_INIT;
    assert_int_equal(cutune_tune_setup_text(&text, &t, 0, 0, NULL, -1, 0), CUTUNE_OK);
    assert_string_equal(text, ""); /* one GPU, no shard: nothing to say */
    cutune_free(text);
    t.shard_index = 2;
    t.shard_count = 5;
    t.device = 3;
    t.results_path = "r.shard-2-of-5.json";
    assert_int_equal(cutune_tune_setup_text(&text, &t, 0, 0, NULL, -1, 0), CUTUNE_OK);
    assert_string_equal(text, "shard 2 of 5 (GPU 3): results to r.shard-2-of-5.json\n");
    cutune_free(text);
    t.journal_path = "j.shard-2-of-5.jsonl";
    assert_int_equal(cutune_tune_setup_text(&text, &t, 4, 0, "Slurm's srun", 2, 0), CUTUNE_OK);
    assert_non_null(strstr(text, "shard 2 of 5, from Slurm's srun (4 GPUs): results to r.shard-2-of-5.json, "
                                 "journal j.shard-2-of-5.jsonl\ncutune: warning: 2 ranks on this host each use 4 "
                                 "GPUs (--devices)"));
    assert_int_equal(count(text, "\n"), 2);
    cutune_free(text);
    assert_int_equal(cutune_tune_setup_text(&text, &t, 4, 0, "Slurm's srun", 2, 1), CUTUNE_OK);
    assert_true(strncmp(text, "cutune: warning: 2 ranks", 24) == 0); /* brief: the warning alone */
    assert_int_equal(count(text, "\n"), 1);
    cutune_free(text);
    t = (cutune_tune_options)CUTUNE_TUNE_OPTIONS_INIT;
    int devs[] = {1, 1, 0, 1};
    t.devices = devs;
    t.ndevices = 4;
    assert_int_equal(cutune_tune_setup_text(&text, &t, 4, 1, NULL, -1, 0), CUTUNE_OK);
    assert_non_null(strstr(text, "note: these GPUs are not all of one model"));
    assert_int_equal(count(text, "names GPU 1 twice"), 3); /* 1 repeated at 1, and twice at 3 */
    assert_int_equal(count(text, "\n"), 4);
    cutune_free(text);
    assert_int_equal(cutune_tune_setup_text(&text, &t, 4, 1, NULL, -1, 1), CUTUNE_OK);
    assert_string_equal(text, "");
    cutune_free(text);
    assert_int_equal(cutune_tune_setup_text(NULL, &t, 0, 0, NULL, -1, 0), CUTUNE_EINVAL);
    assert_int_equal(cutune_tune_setup_text(&text, NULL, 0, 0, NULL, -1, 0), CUTUNE_EINVAL);
}

/* What `cutune SPEC` says before compiling without a GPU: the first N variants when the
 * limit is below the space, else every one; nothing when brief. A spec with 4 x 3 = 12
 * configurations, written by hand. */
static void test_untuned_start(void **state)
{
    (void)state;
    static const char text12[] = "kernel k from \"k.cu\" {\n    param A in [1, 2, 3, 4];\n"
                                 "    param B in [1, 2, 3];\n    block 32;\n    grid 1;\n}\n";
    cutune_load_options lo = CUTUNE_LOAD_OPTIONS_INIT;
    lo.skip_file_checks = 1;
    cutune_spec *spec = NULL;
    assert_int_equal(cutune_spec_load_string(&spec, "k.tune", text12, strlen(text12), &lo), CUTUNE_OK);
    char *text = NULL;
    int limited = -1;
    assert_int_equal(cutune_untuned_start(&text, &limited, spec, 11, "a/k.tune", 0), CUTUNE_OK);
    assert_int_equal(limited, 1);
    assert_string_equal(text, "\ncompiling the first 11 variants (--limit; no GPU needed; details: cutune analyze "
                              "a/k.tune)\n");
    cutune_free(text);
    assert_int_equal(cutune_untuned_start(&text, &limited, spec, 12, "a/k.tune", 0), CUTUNE_OK);
    assert_int_equal(limited, 0); /* the limit covers the space */
    assert_string_equal(text, "\ncompiling every variant (no GPU needed; details: cutune analyze a/k.tune)\n");
    cutune_free(text);
    assert_int_equal(cutune_untuned_start(&text, &limited, spec, 0, "k.tune", 0), CUTUNE_OK);
    assert_int_equal(limited, 0);
    cutune_free(text);
    assert_int_equal(cutune_untuned_start(&text, &limited, spec, 2, "k.tune", 1), CUTUNE_OK);
    assert_int_equal(limited, 1); /* brief: said nothing, still limited */
    assert_string_equal(text, "");
    cutune_free(text);
    assert_int_equal(cutune_untuned_start(&text, &limited, NULL, 2, "k.tune", 0), CUTUNE_EINVAL);
    cutune_spec_free(spec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranking),
        cmocka_unit_test(test_ranking_sizes),
        cmocka_unit_test(test_best),
        cmocka_unit_test(test_best_energy_note),
        cmocka_unit_test(test_device_runs),
        cmocka_unit_test(test_verdict_text),
        cmocka_unit_test(test_set_metrics),
        cmocka_unit_test(test_untuned),
        cmocka_unit_test(test_setup_text),
        cmocka_unit_test(test_untuned_start),
        cmocka_unit_test(test_analysis_verdict),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
