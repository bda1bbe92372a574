/* test_tunerun.c - what `cutune SPEC` decided in cli/ and the library now decides for
 * any application (api/cutune_tune_run.c): the emit paths each kernel block may not
 * write (cutune_blocks_emit_check), how a run goes on the GPUs named
 * (cutune_tune_set_devices; no GPU here, so the models cannot be told apart), a shard's
 * files (cutune_tune_set_shard), a finished run's verdict (cutune_tune_verdict_of), an
 * option read from its text (cutune_tune_set_option, cutune_search_set_option), the GPUs --devices names
 * (cutune_devices_parse); and
 * the header of a run on several GPUs, an entry per model (cutune_emit_header_devices,
 * and of the runs read back: cutune_device_runs_header).
 * Runs are recorded results files (test/emit, test/data), one rewritten with jansson.
 * Only the public header. */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

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

/* Two blocks: the first's header leaves the spec's folder (its CSV does not), the
 * second's results are an absolute path. */
static const char two_blocks[] = "kernel first from \"k.cu\" {\n"
                                 "    param T in [32, 64];\n"
                                 "    block T;\n"
                                 "    grid 1;\n"
                                 "    emit header \"../out/first.h\";\n"
                                 "    emit csv \"first.csv\";\n"
                                 "}\n"
                                 "kernel second from \"k.cu\" {\n"
                                 "    param U in [1, 2];\n"
                                 "    block 32 * U;\n"
                                 "    grid 1;\n"
                                 "    emit results \"/somewhere/second.json\";\n"
                                 "}\n";

/* lines: how many lines text holds. */
static int lines(const char *text)
{
    int n = 0;
    for (const char *p = text; (p = strchr(p, '\n')) != NULL; p++)
        n++;
    return n;
}

static void test_blocks_emit_check(void **state)
{
    (void)state;
    cutune_load_options lo = CUTUNE_LOAD_OPTIONS_INIT;
    lo.skip_file_checks = 1;
    cutune_spec *spec = NULL;
    if (cutune_spec_load_string(&spec, "two.tune", two_blocks, strlen(two_blocks), &lo) != CUTUNE_OK)
        fail_msg("load: %s", spec ? cutune_spec_diagnostics(spec, 0, 0) : cutune_last_error());
    char *text = NULL;
    assert_int_equal(cutune_spec_select_kernel(spec, 1), CUTUNE_OK);
    assert_int_equal(cutune_blocks_emit_check(&text, spec, NULL, 0, 0, 0), CUTUNE_OK);
    assert_int_equal(lines(text), 2); /* first's header, second's results; never first's CSV */
    char *second = strchr(text, '\n') + 1;
    const char *first = "cutune: two.tune:5:17: emit header \"./../out/first.h\" leaves the spec's folder";
    assert_true(strncmp(text, first, strlen(first)) == 0); /* as the CLI says it, the place first */
    assert_true(strncmp(second, "cutune: two.tune:12:18: ", 24) == 0);
    assert_true(strstr(text, "emit header") < second);
    assert_non_null(strstr(second, "emit results \"/somewhere/second.json\""));
    assert_string_equal(cutune_spec_kernel(spec), "first"); /* the first block selected again */
    cutune_free(text);
    /* paths the caller gives replace the spec's: nothing of that kind is refused */
    assert_int_equal(cutune_blocks_emit_check(&text, spec, NULL, 1, 0, 1), CUTUNE_OK);
    assert_string_equal(text, "");
    cutune_free(text);
    /* only the block selected */
    cutune_blocks_options bo = CUTUNE_BLOCKS_OPTIONS_INIT;
    bo.selected_only = 1;
    assert_int_equal(cutune_spec_select_kernel(spec, 1), CUTUNE_OK);
    assert_int_equal(cutune_blocks_emit_check(&text, spec, &bo, 0, 0, 0), CUTUNE_OK);
    assert_int_equal(lines(text), 1);
    assert_non_null(strstr(text, "second.json"));
    assert_string_equal(cutune_spec_kernel(spec), "second");
    cutune_free(text);
    assert_int_equal(cutune_blocks_emit_check(NULL, spec, NULL, 0, 0, 0), CUTUNE_EINVAL);
    assert_int_equal(cutune_blocks_emit_check(&text, NULL, NULL, 0, 0, 0), CUTUNE_EINVAL);
    cutune_spec_free(spec);
}

static void test_set_devices(void **state)
{
    (void)state;
    cutune_tune_options t = CUTUNE_TUNE_OPTIONS_INIT;
    int one[1] = {3}, two[2] = {0, 1}, per = 0;
    assert_int_equal(cutune_tune_set_devices(&t, one, 1, &per), 0);
    assert_int_equal(t.device, 3);
    assert_null(t.devices);
    assert_int_equal(per, 0);
    /* a process per GPU asked: the options name no fleet */
    t = (cutune_tune_options)CUTUNE_TUNE_OPTIONS_INIT;
    per = 1;
    assert_int_equal(cutune_tune_set_devices(&t, two, 2, &per), 0);
    assert_null(t.devices);
    assert_int_equal(t.ndevices, 0);
    assert_int_equal(per, 1);
    /* several GPUs, their models unknown (no GPU here): one run over them all */
    per = 0;
    assert_int_equal(cutune_tune_set_devices(&t, two, 2, &per), 0);
    assert_ptr_equal(t.devices, two);
    assert_int_equal(t.ndevices, 2);
    assert_int_equal(per, 0);
    assert_int_equal(cutune_devices_one_model(two, 2), 1);
    assert_int_equal(cutune_tune_set_devices(NULL, two, 2, &per), CUTUNE_EINVAL);
    assert_int_equal(cutune_tune_set_devices(&t, NULL, 2, &per), CUTUNE_EINVAL);
}

/* A shard's files: named after the results (and the journal given); no results file, or
 * an index out of range, refused. */
static void test_set_shard(void **state)
{
    (void)state;
    cutune_load_options lo = CUTUNE_LOAD_OPTIONS_INIT;
    lo.skip_file_checks = 1;
    cutune_spec *spec = NULL;
    assert_int_equal(cutune_spec_load_string(&spec, "two.tune", two_blocks, strlen(two_blocks), &lo), CUTUNE_OK);
    cutune_tune_options t = CUTUNE_TUNE_OPTIONS_INIT;
    char *results = NULL, *journal = NULL;
    assert_int_equal(cutune_tune_set_shard(&t, spec, 1, 3, -1, &results, &journal), CUTUNE_EINVAL); /* no results */
    t.results_path = "/r/x.json";
    t.device = 5;
    assert_int_equal(cutune_tune_set_shard(&t, spec, 1, 3, -1, &results, &journal), CUTUNE_OK);
    assert_string_equal(results, "/r/x.shard-1-of-3.json");
    assert_ptr_equal(t.results_path, results);
    assert_null(journal);
    assert_null(t.journal_path);
    assert_int_equal(t.shard_index, 1);
    assert_int_equal(t.shard_count, 3);
    assert_int_equal(t.device, 5);
    cutune_free(results);
    t.results_path = "/r/plain";
    t.journal_path = "/j/y.journal";
    assert_int_equal(cutune_tune_set_shard(&t, spec, 0, 2, -1, &results, &journal), CUTUNE_OK);
    assert_string_equal(results, "/r/plain.shard-0-of-2");
    assert_string_equal(journal, "/j/y.journal.shard-0-of-2");
    assert_ptr_equal(t.journal_path, journal);
    cutune_free(results);
    cutune_free(journal);
    assert_int_equal(cutune_tune_set_shard(&t, spec, 2, 2, -1, &results, &journal), CUTUNE_EINVAL);
    assert_int_equal(cutune_tune_set_shard(&t, spec, 0, 1, -1, &results, &journal), CUTUNE_EINVAL);
    cutune_spec_free(spec);
}

/* An edit of a results file's JSON (edited below). */
typedef void (*json_edit)(json_t *root);

/* Every entry's status made `compile error` (the file's summary agreeing). */
static void nothing_compiled(json_t *root)
{
    size_t i;
    json_t *entry;
    json_array_foreach(json_object_get(root, "results"), i, entry)
    {
        json_object_set_new(entry, "status", json_string("compile error"));
        json_object_del(entry, "resources");
        json_object_del(entry, "occupancy");
    }
    json_t *summary = json_object_get(root, "summary");
    json_object_set_new(summary, "wrong", json_integer(0));
    json_object_set_new(summary, "unlaunchable", json_integer(0));
    json_object_set_new(summary, "failed", json_integer(2));
}

/* As an interrupted run on several GPUs leaves it: every ok entry timed provisionally
 * (before the final race), no best. */
static void interrupted_before_race(json_t *root)
{
    size_t i;
    json_t *entry;
    json_array_foreach(json_object_get(root, "results"), i, entry)
    {
        if (strcmp(json_string_value(json_object_get(entry, "status")), "ok") == 0)
            json_object_set_new(entry, "provisional", json_true());
    }
    json_t *summary = json_object_get(root, "summary");
    json_object_set_new(summary, "interrupted", json_true());
    json_object_set_new(summary, "best", json_null());
}

/* The results file `rel` (from the source folder) after `edit`, loaded through a
 * temporary file (removed). Fails the test when it does not load. */
static cutune_tune_result *edited(const char *rel, json_edit edit)
{
    char src[1024], path[] = "/tmp/cutune-tunerun-XXXXXX";
    snprintf(src, sizeof src, "%s/%s", CUTUNE_SOURCE_DIR, rel);
    json_error_t jerr;
    json_t *root = json_load_file(src, 0, &jerr);
    assert_non_null(root);
    edit(root);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(json_dump_file(root, path, 0), 0);
    json_decref(root);
    cutune_tune_result *r = NULL;
    if (cutune_results_load(&r, path) != CUTUNE_OK)
        fail_msg("%s", cutune_last_error());
    unlink(path);
    return r;
}

static void test_verdict(void **state)
{
    (void)state;
    cutune_tune_verdict v;
    cutune_tune_result *r = load("test/data/report-sum_matrix-h100.json");
    assert_int_equal(cutune_tune_verdict_of(&v, r), CUTUNE_OK);
    assert_int_equal(v.sizes, 0);
    assert_int_equal(v.winners, 1);
    assert_int_equal(v.nothing_compiled, 0);
    cutune_tune_result_free(r);
    r = load("test/emit/sizes.json"); /* three sizes, each with its best */
    assert_int_equal(cutune_tune_verdict_of(&v, r), CUTUNE_OK);
    assert_int_equal(v.sizes, 3);
    assert_int_equal(v.winners, 3);
    cutune_tune_result_free(r);
    r = load("test/emit/nowinner.json"); /* one wrong, one that cannot launch */
    assert_int_equal(cutune_tune_verdict_of(&v, r), CUTUNE_OK);
    assert_int_equal(v.winners, 0);
    assert_int_equal(v.nothing_compiled, 0);
    cutune_tune_result_free(r);
    r = edited("test/emit/nowinner.json", nothing_compiled);
    assert_int_equal(cutune_tune_verdict_of(&v, r), CUTUNE_OK);
    assert_int_equal(v.winners, 0);
    assert_int_equal(v.nothing_compiled, 1);
    assert_int_equal(v.ran_ok, 0);
    cutune_tune_result_free(r);
    r = edited("test/data/report-sum_matrix-h100.json", interrupted_before_race); /* none timed in full */
    assert_int_equal(cutune_tune_verdict_of(&v, r), CUTUNE_OK);
    assert_int_equal(v.winners, 0);
    assert_int_equal(v.ran_ok, 1);
    assert_int_equal(v.interrupted, 1);
    char *text = NULL;
    assert_int_equal(cutune_tune_verdict_text(&text, &v), CUTUNE_OK);
    assert_non_null(strstr(text, "interrupted before any was timed in full"));
    assert_null(strstr(text, "no variant ran correctly"));
    cutune_free(text);
    assert_int_equal(cutune_tune_warnings(&text, r), CUTUNE_OK); /* no best to speak of */
    assert_non_null(strstr(text, "interrupted: "));
    assert_null(strstr(text, "the best is"));
    cutune_free(text);
    cutune_tune_result_free(r);
    assert_int_equal(cutune_tune_verdict_of(&v, NULL), CUTUNE_EINVAL);
}

/* H100, H100 again, A100: two entries, the second H100 sharing the first's. */
static void test_header_devices(void **state)
{
    (void)state;
    cutune_tune_result *h = load("test/emit/h100.json"), *h2 = load("test/emit/h100.json"),
                       *a = load("test/emit/a100.json");
    const cutune_tune_result *three[3] = {h, h2, a}, *two[2] = {h, a};
    int same[3] = {7, 7, 7};
    char *text = NULL, *want = NULL;
    assert_int_equal(cutune_emit_header_devices(&text, NULL, three, 3, NULL, same), CUTUNE_OK);
    assert_int_equal(same[0], -1);
    assert_int_equal(same[1], 0);
    assert_int_equal(same[2], -1);
    assert_int_equal(cutune_emit_header(&want, NULL, two, 2, NULL), CUTUNE_OK);
    assert_string_equal(text, want);
    cutune_free(text);
    cutune_free(want);
    /* cutune_emit_header itself refuses the same three */
    assert_int_equal(cutune_emit_header(&text, NULL, three, 3, NULL), CUTUNE_EINVAL);
    assert_int_equal(cutune_emit_header_devices(&text, NULL, three, 0, NULL, NULL), CUTUNE_EINVAL);
    cutune_tune_result_free(h);
    cutune_tune_result_free(h2);
    cutune_tune_result_free(a);
}

/* The header of a run of a process per GPU from the runs read back (one not read is
 * left out): an entry per model, as cutune_emit_header makes it of one result per model,
 * named for the file's last part; which runs share an entry, said; no run read, no
 * header; a header that cannot be made, named with why. */
static void test_device_runs_header(void **state)
{
    (void)state;
    cutune_tune_result *h = load("test/emit/h100.json"), *h2 = load("test/emit/h100.json"),
                       *a = load("test/emit/a100.json"), *other = load("test/emit/sizes.json");
    cutune_device_run runs[4] = {{0, "r.gpu0.json", 1, 0, h, NULL},
                                 {1, "r.gpu1.json", 1, 0, h2, NULL},
                                 {2, "r.gpu2.json", 1, 1, NULL, "cannot read 'r.gpu2.json'"},
                                 {3, "r.gpu3.json", 1, 0, a, NULL}};
    const cutune_tune_result *two[2] = {h, a};
    cutune_header_options opts = CUTUNE_HEADER_OPTIONS_INIT;
    opts.file_name = "k_tuned.h";
    char *text = NULL, *notes = NULL, *want = NULL;
    assert_int_equal(cutune_emit_header(&want, NULL, two, 2, &opts), CUTUNE_OK);
    assert_int_equal(cutune_device_runs_header(&text, &notes, NULL, runs, 4, "out/dir/k_tuned.h"), CUTUNE_OK);
    assert_string_equal(text, want);
    assert_string_equal(notes, "note: results 2 are of the same GPU model as results 1: the header holds the "
                               "first one's winner for that model\n");
    cutune_free(text);
    cutune_free(notes);
    cutune_free(want);
    /* two of another model each: no note; none read: nothing */
    cutune_device_run pair[2] = {runs[0], runs[3]};
    assert_int_equal(cutune_device_runs_header(&text, &notes, NULL, pair, 2, "k_tuned.h"), CUTUNE_OK);
    assert_non_null(text);
    assert_string_equal(notes, "");
    cutune_free(text);
    cutune_free(notes);
    assert_int_equal(cutune_device_runs_header(&text, &notes, NULL, runs + 2, 1, "k_tuned.h"), CUTUNE_OK);
    assert_null(text);
    assert_null(notes);
    /* a header of two kernels cannot be made: said with the path */
    pair[1].result = other;
    assert_int_equal(cutune_device_runs_header(&text, NULL, NULL, pair, 2, "k_tuned.h"), CUTUNE_EINVAL);
    assert_null(text);
    const char *said = "no header written to k_tuned.h: ";
    assert_memory_equal(cutune_last_error(), said, strlen(said));
    assert_int_equal(cutune_device_runs_header(NULL, NULL, NULL, runs, 4, "k_tuned.h"), CUTUNE_EINVAL);
    assert_int_equal(cutune_device_runs_header(&text, NULL, NULL, runs, 4, NULL), CUTUNE_EINVAL);
    cutune_tune_result_free(h);
    cutune_tune_result_free(h2);
    cutune_tune_result_free(a);
    cutune_tune_result_free(other);
}

/* An option read from its text as `cutune SPEC --NAME TEXT` reads it: the value set, or
 * CUTUNE_EINVAL saying what the option takes, the options left as they were. */
static void refused(cutune_tune_options *opts, const char *name, const char *text, const char *message)
{
    cutune_tune_options before = *opts;
    assert_int_equal(cutune_tune_set_option(opts, name, text), CUTUNE_EINVAL);
    assert_string_equal(cutune_last_error(), message);
    assert_memory_equal(opts, &before, sizeof before);
}

static void test_set_option(void **state)
{
    (void)state;
    cutune_tune_options t = CUTUNE_TUNE_OPTIONS_INIT;
    assert_int_equal(cutune_tune_set_option(&t, "prune", "2.5"), CUTUNE_OK);
    assert_true(t.prune == 2.5);
    refused(&t, "prune", "1", "prune takes a finite factor above 1 (or -1 for never), not '1'");
    refused(&t, "prune", "nan", "prune takes a finite factor above 1 (or -1 for never), not 'nan'");
    refused(&t, "prune", "-2", "prune takes a finite factor above 1 (or -1 for never), not '-2'");
    assert_int_equal(cutune_tune_set_option(&t, "prune", "-1"), CUTUNE_OK);
    assert_true(t.prune == -1);
    assert_int_equal(cutune_tune_set_option(&t, "timeout", "1e3"), CUTUNE_OK);
    assert_true(t.timeout_s == 1000);
    assert_int_equal(cutune_tune_set_option(&t, "timeout", "1000000"), CUTUNE_OK);
    refused(&t, "timeout", "0", "timeout takes seconds above 0, at most 1000000, not '0'");
    refused(&t, "timeout", "1000000.5", "timeout takes seconds above 0, at most 1000000, not '1000000.5'");
    assert_int_equal(cutune_tune_set_option(&t, "device", "4096"), CUTUNE_OK);
    assert_int_equal(t.device, 4096);
    refused(&t, "device", "4097", "device takes a GPU number from 0 to 4096, not '4097'");
    refused(&t, "device", "1x", "device takes a GPU number from 0 to 4096, not '1x'");
    assert_int_equal(cutune_tune_set_option(&t, "metrics", "all"), CUTUNE_OK);
    assert_int_equal(t.profile_top, -1);
    assert_int_equal(cutune_tune_set_option(&t, "metrics", "3"), CUTUNE_OK);
    assert_int_equal(t.profile_top, 3);
    refused(&t, "metrics", "0", "metrics takes a count of variants from 1 to 1000000, or all, not '0'");
    refused(&t, "jobs", "4", "cutune_tune_set_option: no option 'jobs' (device, prune, timeout, metrics)");
    assert_int_equal(cutune_tune_set_option(&t, "prune", NULL), CUTUNE_EINVAL);
    assert_int_equal(cutune_tune_set_option(NULL, "prune", "2"), CUTUNE_EINVAL);
}

/* A search option read from its text (cutune_search_set_option): CUTUNE_EINVAL with
 * `message`, the options left as they were. */
static void search_refused(cutune_search_options *s, const char *name, const char *text, const char *message)
{
    cutune_search_options before = *s;
    assert_int_equal(cutune_search_set_option(s, name, text), CUTUNE_EINVAL);
    assert_string_equal(cutune_last_error(), message);
    assert_memory_equal(s, &before, sizeof before);
}

static void test_search_set_option(void **state)
{
    (void)state;
    cutune_search_options s = CUTUNE_SEARCH_OPTIONS_INIT;
    assert_int_equal(cutune_search_set_option(&s, "strategy", "genetic"), CUTUNE_OK);
    assert_string_equal(s.strategy, "genetic");
    search_refused(&s, "strategy", "Genetic",
                   "unknown search strategy 'Genetic' (the strategies are exhaustive, random, anneal, genetic, "
                   "local, guided and auto)");
    /* a count, then a percentage: each clears the other */
    assert_int_equal(cutune_search_set_option(&s, "budget", "40"), CUTUNE_OK);
    assert_true(s.budget == 40 && s.budget_percent == 0);
    assert_int_equal(cutune_search_set_option(&s, "budget", "12.5%"), CUTUNE_OK);
    assert_true(s.budget == 0 && s.budget_percent == 12.5);
    assert_int_equal(cutune_search_set_option(&s, "budget", "7"), CUTUNE_OK);
    assert_true(s.budget == 7 && s.budget_percent == 0);
    search_refused(&s, "budget", "0",
                   "budget takes a number of evaluations from 1 to 9223372036854775807 or a percentage (5%), not '0'");
    search_refused(&s, "budget", "101%", "budget P% takes a percentage above 0 and at most 100, not '101%'");
    search_refused(&s, "budget", "0%", "budget P% takes a percentage above 0 and at most 100, not '0%'");
    /* seconds, or with a unit */
    assert_int_equal(cutune_search_set_option(&s, "time-budget", "90s"), CUTUNE_OK);
    assert_true(s.time_s == 90);
    assert_int_equal(cutune_search_set_option(&s, "time-budget", "10min"), CUTUNE_OK);
    assert_true(s.time_s == 600);
    assert_int_equal(cutune_search_set_option(&s, "time-budget", "1.5h"), CUTUNE_OK);
    assert_true(s.time_s == 5400);
    assert_int_equal(cutune_search_set_option(&s, "time-budget", "30"), CUTUNE_OK);
    assert_true(s.time_s == 30);
    char message[160];
    const char *bad_times[] = {"0", "-5", "2d", "5ms", "1e308h", "inf", ""};
    for (size_t i = 0; i < sizeof bad_times / sizeof *bad_times; i++) {
        snprintf(message, sizeof message,
                 "time-budget takes a finite duration above 0 (seconds, or 90s, 10min, 2h), not '%s'", bad_times[i]);
        search_refused(&s, "time-budget", bad_times[i], message);
    }
    assert_int_equal(cutune_search_set_option(&s, "patience", "1"), CUTUNE_OK);
    assert_true(s.patience == 1);
    search_refused(&s, "patience", "0",
                   "patience takes a number of evaluations from 1 to 9223372036854775807, not '0'");
    assert_false(s.has_seed);
    assert_int_equal(cutune_search_set_option(&s, "seed", "0"), CUTUNE_OK);
    assert_true(s.has_seed && s.seed == 0);
    assert_int_equal(cutune_search_set_option(&s, "seed", "9223372036854775807"), CUTUNE_OK);
    assert_true(s.seed == 9223372036854775807ULL);
    search_refused(&s, "seed", "9223372036854775808",
                   "seed takes a seed from 0 to 9223372036854775807, not '9223372036854775808'");
    search_refused(&s, "seed", "-1", "seed takes a seed from 0 to 9223372036854775807, not '-1'");
    search_refused(&s, "repeat", "2",
                   "cutune_search_set_option: no option 'repeat' (strategy, budget, time-budget, patience, seed)");
    assert_int_equal(cutune_search_set_option(&s, "seed", NULL), CUTUNE_EINVAL);
    assert_int_equal(cutune_search_set_option(NULL, "seed", "1"), CUTUNE_EINVAL);
}

/* --devices' text: GPU numbers, or all the driver sees (none here: CUTUNE_ENODEV). */
static void test_devices_parse(void **state)
{
    (void)state;
    int devs[2] = {-1, -1}, n = -1, count = 0;
    assert_int_equal(cutune_devices_parse(devs, 2, &n, "3,0"), CUTUNE_OK);
    assert_int_equal(n, 2);
    assert_int_equal(devs[0], 3);
    assert_int_equal(devs[1], 0);
    static const char *const bad[] = {"x", "4097", "0,1,2", "0,", "-1", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char want[96];
        snprintf(want, sizeof want, "devices takes all or GPU numbers such as 0,1, not '%s'", bad[i]);
        assert_int_equal(cutune_devices_parse(devs, 2, &n, bad[i]), CUTUNE_EINVAL);
        assert_string_equal(cutune_last_error(), want);
    }
    int rc = cutune_devices_parse(devs, 2, &n, "all");
    if (cutune_device_count(&count) == CUTUNE_OK && count > 0) {
        assert_int_equal(rc, CUTUNE_OK);
        assert_int_equal(n, count < 2 ? count : 2);
        assert_int_equal(devs[0], 0);
    } else {
        assert_int_equal(rc, CUTUNE_ENODEV);
        assert_true(cutune_last_error()[0] != '\0');
    }
    assert_int_equal(cutune_devices_parse(devs, 2, NULL, "0"), CUTUNE_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocks_emit_check),  cmocka_unit_test(test_set_devices),
        cmocka_unit_test(test_set_shard),          cmocka_unit_test(test_verdict),
        cmocka_unit_test(test_header_devices),     cmocka_unit_test(test_set_option),
        cmocka_unit_test(test_devices_parse),      cmocka_unit_test(test_search_set_option),
        cmocka_unit_test(test_device_runs_header),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
