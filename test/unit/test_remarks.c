/* test_remarks.c - what the commands around results say besides their files, made by
 * the library for any application (emit/remarks.c through the public header only):
 * a merge's summary and missing shards (cutune_merge_text), the GPUs' note
 * (cutune_devices_note) and the GPUs themselves (cutune_devices_all), a run of a process per GPU checked, its start line and each
 * GPU's command line (cutune_per_device_check, cutune_per_device_text,
 * cutune_per_device_args), the header's note on GPUs of one
 * model (cutune_header_devices_notes), what a header needs of its results files
 * (cutune_header_has_winner, cutune_header_sources, cutune_results_load_all), an import's messages and default path
 * (cutune_import_messages, cutune_import_default_path). The expected text is written
 * from the recorded files' figures (test/emit/h100.json: 4 variants, 2 timed, #11 won
 * at 0.5 ms) and docs/cli.md's words. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "cutune.h"

static void path_of(char *out, size_t size, const char *rel)
{
    snprintf(out, size, "%s/%s", CUTUNE_SOURCE_DIR, rel);
}

/* A whole run: no shard missing; its counts, winner and objective. */
static void test_merge_whole(void **state)
{
    (void)state;
    char path[1024];
    path_of(path, sizeof path, "test/emit/h100.json");
    cutune_tune_result *r = NULL;
    assert_int_equal(cutune_results_load(&r, path), CUTUNE_OK);
    char *out = NULL, *missing = NULL;
    assert_int_equal(cutune_merge_text(&out, &missing, r, 1, "all.json"), CUTUNE_OK);
    assert_string_equal(out, "merged 1 file: 4 variants, 2 timed, best #11 (time_ms 0.5)\nresults: all.json\n");
    assert_string_equal(missing, "");
    cutune_free(out);
    cutune_free(missing);
    assert_int_equal(cutune_merge_text(&out, &missing, r, 3, "x"), CUTUNE_OK);
    assert_true(strncmp(out, "merged 3 files: ", 16) == 0); /* plural */
    cutune_free(out);
    cutune_free(missing);
    assert_int_equal(cutune_merge_text(&out, NULL, r, 1, "x"), CUTUNE_EINVAL);
    assert_int_equal(cutune_merge_text(&out, &missing, NULL, 1, "x"), CUTUNE_EINVAL);
    cutune_tune_result_free(r);
}

/* A partial merge of shards 0, 1 and 2 of 5 (h100.json's ordinals 0, 10, 11, 17 fall
 * in them): 3 and 4 are missing. */
static void test_merge_partial(void **state)
{
    (void)state;
    char path[1024], tmp[] = "/tmp/test_remarks_XXXXXX";
    path_of(path, sizeof path, "test/emit/h100.json");
    json_t *root = json_load_file(path, 0, NULL);
    assert_non_null(root);
    json_object_set_new(json_object_get(root, "settings"), "shard",
                        json_pack("{s:i, s:[i,i,i]}", "count", 5, "merged", 0, 1, 2));
    int fd = mkstemp(tmp);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(json_dump_file(root, tmp, 0), 0);
    json_decref(root);
    cutune_tune_result *r = NULL;
    int rc = cutune_results_load(&r, tmp);
    unlink(tmp);
    assert_int_equal(rc, CUTUNE_OK);
    char *out = NULL, *missing = NULL;
    assert_int_equal(cutune_merge_text(&out, &missing, r, 2, "part.json"), CUTUNE_OK);
    assert_string_equal(missing,
                        "cutune merge: partial: shards 3, 4 of 5 missing; the file records the shards it holds "
                        "(settings.shard.merged)\n");
    assert_string_equal(out, "merged 2 files: 4 variants, 2 timed, best #11 (time_ms 0.5)\nresults: part.json\n");
    cutune_free(out);
    cutune_free(missing);
    cutune_tune_result_free(r);
}

static void test_devices_note(void **state)
{
    (void)state;
    cutune_device devs[3] = {
        {.ordinal = 0, .name = "NVIDIA H100 80GB HBM3", .arch = "sm_90", .sm_count = 132},
        {.ordinal = 1, .name = "NVIDIA H100 80GB HBM3", .arch = "sm_90", .sm_count = 132},
        {.ordinal = 2, .name = "NVIDIA A100-SXM4-80GB", .arch = "sm_80", .sm_count = 108},
    };
    char *text = NULL;
    assert_int_equal(cutune_devices_note(&text, devs, 1), CUTUNE_OK);
    assert_string_equal(text, ""); /* one GPU: nothing to choose */
    cutune_free(text);
    assert_int_equal(cutune_devices_note(&text, devs, 2), CUTUNE_OK);
    assert_string_equal(text, "2 GPUs of one model: cutune SPEC --devices all measures on all of them at once, into "
                              "one result\n");
    cutune_free(text);
    assert_int_equal(cutune_devices_note(&text, devs, 3), CUTUNE_OK);
    assert_string_equal(text, "3 GPUs of more than one model: cutune SPEC --devices all tunes every configuration on "
                              "each (as --per-device), a header entry per GPU\n");
    cutune_free(text);
    devs[1].sm_count = 114; /* an H100 PCIe's SMs under the same name: another model */
    assert_int_equal(cutune_devices_note(&text, devs, 2), CUTUNE_OK);
    assert_non_null(strstr(text, "more than one model"));
    cutune_free(text);
    assert_int_equal(cutune_devices_note(NULL, devs, 2), CUTUNE_EINVAL);
}

/* Every GPU at once: where the driver answers, the same devices as asked one by one;
 * where it does not (this machine without a GPU), no array and the driver's reason. */
static void test_devices_all(void **state)
{
    (void)state;
    cutune_device *devs = NULL;
    int n = -1, count = 0;
    int rc = cutune_devices_all(&devs, &n);
    if (cutune_device_count(&count) == CUTUNE_OK && count > 0) {
        assert_int_equal(rc, CUTUNE_OK);
        assert_int_equal(n, count);
        for (int i = 0; i < n; i++) {
            cutune_device one;
            assert_int_equal(cutune_device_get(&one, i), CUTUNE_OK);
            assert_int_equal(devs[i].ordinal, i);
            assert_string_equal(devs[i].name, one.name);
        }
    } else {
        assert_int_equal(rc, CUTUNE_ENODEV);
        assert_null(devs);
        assert_int_equal(n, 0);
        assert_true(strlen(cutune_last_error()) > 0);
    }
    cutune_free(devs);
    assert_int_equal(cutune_devices_all(NULL, &n), CUTUNE_EINVAL);
}

/* The checks in the order the options are named in `cutune --per-device`'s words. */
static void test_per_device(void **state)
{
    (void)state;
    int devs[] = {0, 1, 0};
    assert_int_equal(cutune_per_device_check(devs, 2, 1, "r.json", 0, NULL), CUTUNE_OK);
    assert_int_equal(cutune_per_device_check(devs, 2, 2, "r.json", 0, NULL), CUTUNE_EINVAL);
    assert_string_equal(cutune_last_error(), "--per-device tunes one kernel block: name it with --kernel NAME");
    assert_int_equal(cutune_per_device_check(devs, 2, 1, "r.json", 1, NULL), CUTUNE_EINVAL);
    assert_non_null(strstr(cutune_last_error(), "leave --shard out"));
    assert_int_equal(cutune_per_device_check(devs, 2, 1, "r.json", 0, "j"), CUTUNE_EINVAL);
    assert_non_null(strstr(cutune_last_error(), "leave --journal out"));
    assert_int_equal(cutune_per_device_check(devs, 2, 1, NULL, 0, NULL), CUTUNE_EINVAL);
    assert_non_null(strstr(cutune_last_error(), "(--results FILE)"));
    assert_int_equal(cutune_per_device_check(devs, 3, 1, "r.json", 0, NULL), CUTUNE_EINVAL);
    assert_string_equal(cutune_last_error(), "--per-device names GPU 0 twice");
    char *text = NULL;
    assert_int_equal(cutune_per_device_text(&text, devs, 2, 3), CUTUNE_OK);
    assert_string_equal(text, "2 GPUs (0, 1): a cutune process per GPU, each tuning every configuration with 3 "
                              "compile threads\n");
    cutune_free(text);
    assert_int_equal(cutune_per_device_text(&text, devs, 2, 0), CUTUNE_OK); /* the cores shared out: at least 1 */
    assert_non_null(strstr(text, "with "));
    assert_null(strstr(text, "with 0 "));
    cutune_free(text);
    assert_int_equal(cutune_per_device_text(&text, NULL, 2, 1), CUTUNE_EINVAL);
}

/* The child's command line: --devices (both spellings) and --per-device gone, the
 * GPU's own options last. */
static void test_per_device_args(void **state)
{
    (void)state;
    char *argv[] = {"cutune", "s.tune", "--devices", "0,1", "-q", "--per-device", "--devices=2,3", "--jobs", "8"};
    char **args = NULL;
    assert_int_equal(cutune_per_device_args(&args, 9, argv, 1, 4, "r.gpu1.json"), CUTUNE_OK);
    static const char *const want[] = {"cutune", "s.tune", "-q", "--jobs",    "8",          "--device",
                                       "1",      "--jobs", "4",  "--results", "r.gpu1.json"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        assert_string_equal(args[i], want[i]);
    assert_null(args[sizeof want / sizeof *want]);
    cutune_free(args);
    assert_int_equal(cutune_per_device_args(&args, 1, argv, 0, 1, NULL), CUTUNE_EINVAL);
}

/* A header needs a winner: nowinner.json has none (said with its path), h100.json #11;
 * a header names its results files by their canonical paths: a path through ".."
 * and a symbolic link comes back as the file's own. */
static void test_header_results(void **state)
{
    (void)state;
    char path[1024], odd[1100], link[] = "/tmp/test_remarks_link_XXXXXX";
    path_of(path, sizeof path, "test/emit/nowinner.json");
    cutune_tune_result *none = NULL, *won = NULL, *via = NULL;
    assert_int_equal(cutune_results_load(&none, path), CUTUNE_OK);
    assert_int_equal(cutune_header_has_winner(none), CUTUNE_EINVAL);
    char expect[1200];
    snprintf(expect, sizeof expect, "%s: no variant ran correctly, so there is no winner to put in a header", path);
    assert_string_equal(cutune_last_error(), expect);
    path_of(path, sizeof path, "test/emit/h100.json");
    assert_int_equal(cutune_results_load(&won, path), CUTUNE_OK);
    assert_int_equal(cutune_header_has_winner(won), CUTUNE_OK);
    int fd = mkstemp(link);
    assert_true(fd >= 0);
    close(fd);
    unlink(link);
    path_of(odd, sizeof odd, "test/emit/../emit/h100.json");
    assert_int_equal(symlink(odd, link), 0);
    assert_int_equal(cutune_results_load(&via, link), CUTUNE_OK);
    char *real = realpath(path, NULL);
    assert_non_null(real);
    const cutune_tune_result *rs[] = {won, via};
    const char **names = NULL;
    int rc = cutune_header_sources(&names, rs, 2);
    unlink(link); /* gone: a path that cannot be resolved is kept as it is */
    assert_int_equal(rc, CUTUNE_OK);
    assert_string_equal(names[0], real);
    assert_string_equal(names[1], real);
    assert_null(names[2]);
    cutune_free((void *)names);
    assert_int_equal(cutune_header_sources(&names, rs + 1, 1), CUTUNE_OK);
    assert_string_equal(names[0], link);
    cutune_free((void *)names);
    free(real);
    assert_int_equal(cutune_header_sources(NULL, rs, 2), CUTUNE_EINVAL);
    cutune_tune_result_free(none);
    cutune_tune_result_free(won);
    cutune_tune_result_free(via);
}

/* Several results files at once: in order, stopping at the first that fails: without
 * a winner (when asked: nowinner.json, index 1), or unreadable. */
static void test_load_all(void **state)
{
    (void)state;
    char a[1024], b[1024], c[1024];
    path_of(a, sizeof a, "test/emit/h100.json");
    path_of(b, sizeof b, "test/emit/nowinner.json");
    path_of(c, sizeof c, "test/emit/no-such-file.json");
    const char *paths[] = {a, b, c};
    cutune_tune_result **rs = NULL;
    int winnerless = 7;
    assert_int_equal(cutune_results_load_all(&rs, paths, 3, 1, &winnerless), CUTUNE_EINVAL);
    assert_int_equal(winnerless, 1);
    assert_null(rs);
    assert_non_null(strstr(cutune_last_error(), "nowinner.json: no variant ran correctly"));
    assert_int_equal(cutune_results_load_all(&rs, paths, 3, 0, &winnerless), CUTUNE_EIO);
    assert_int_equal(winnerless, -1);
    assert_null(rs);
    assert_non_null(strstr(cutune_last_error(), "no-such-file.json"));
    assert_int_equal(cutune_results_load_all(&rs, paths, 2, 0, NULL), CUTUNE_OK);
    assert_string_equal(cutune_tune_device(rs[0])->name, "NVIDIA H100 80GB HBM3");
    assert_null(cutune_tune_best(rs[1]));
    cutune_results_free_all(rs, 2);
    cutune_results_free_all(NULL, 2);
}

static void test_header_notes(void **state)
{
    (void)state;
    int same[] = {-1, 0, -1, 1};
    char *text = NULL;
    assert_int_equal(cutune_header_devices_notes(&text, same, 4), CUTUNE_OK);
    assert_string_equal(text, "note: results 2 are of the same GPU model as results 1: the header holds the first "
                              "one's winner for that model\n"
                              "note: results 4 are of the same GPU model as results 2: the header holds the first "
                              "one's winner for that model\n");
    cutune_free(text);
    assert_int_equal(cutune_header_devices_notes(&text, same, 1), CUTUNE_OK);
    assert_string_equal(text, "");
    cutune_free(text);
    assert_int_equal(cutune_header_devices_notes(&text, NULL, 1), CUTUNE_EINVAL);
}

/* A results file is no T1 problem: its two required keys missing are refused (each a
 * line naming the file), its own keys noted, then the refusal counted. */
static void test_import_messages(void **state)
{
    (void)state;
    char path[1024];
    path_of(path, sizeof path, "test/emit/h100.json");
    cutune_import *imp = NULL;
    assert_int_equal(cutune_import_t1(&imp, path, NULL), CUTUNE_ESPEC);
    assert_non_null(imp);
    char *text = NULL, expect[1200];
    assert_int_equal(cutune_import_messages(&text, imp, "p.json", 0), CUTUNE_OK);
    snprintf(expect, sizeof expect,
             "%s: $: the key \"ConfigurationSpace\" is missing\n%s: $: the key \"KernelSpecification\" is missing\n"
             "cutune import: p.json not imported: 2 constructs refused\n",
             path, path);
    assert_string_equal(text, expect);
    cutune_free(text);
    assert_int_equal(cutune_import_messages(&text, imp, "p.json", 1), CUTUNE_OK);
    const char *note = strstr(text, "note: ");
    assert_non_null(note); /* after the refusals, before the count */
    assert_true(note > strstr(text, "KernelSpecification"));
    assert_non_null(strstr(note, "$.format: not translated"));
    assert_true(strstr(text, "cutune import: p.json") > note);
    cutune_free(text);
    cutune_import_free(imp);
    path_of(path, sizeof path, "test/data/t1/convolution_milo.json");
    assert_int_equal(cutune_import_t1(&imp, path, NULL), CUTUNE_OK);
    assert_int_equal(cutune_import_messages(&text, imp, "c.json", 0), CUTUNE_OK);
    assert_string_equal(text, ""); /* imported, notes not asked for */
    cutune_free(text);
    assert_int_equal(cutune_import_messages(&text, NULL, "c.json", 0), CUTUNE_EINVAL);
    cutune_import_free(imp);
}

static void test_import_path(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"a/b.json", "a/b.tune"},
        {"b.json", "b.tune"},
        {"x.tar.gz", "x.tar.tune"},
        {"a.b/c", "a.b/c.tune"},
        {".hidden", ".hidden.tune"},
        {"d/.json", "d/.json.tune"},
        {"/abs/p.t1.json", "/abs/p.t1.tune"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *out = NULL;
        assert_int_equal(cutune_import_default_path(&out, cases[i][0]), CUTUNE_OK);
        assert_string_equal(out, cases[i][1]);
        cutune_free(out);
    }
    char *out = NULL;
    assert_int_equal(cutune_import_default_path(&out, NULL), CUTUNE_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merge_whole),  cmocka_unit_test(test_merge_partial),
        cmocka_unit_test(test_devices_note), cmocka_unit_test(test_devices_all),
        cmocka_unit_test(test_per_device),   cmocka_unit_test(test_per_device_args),
        cmocka_unit_test(test_header_notes), cmocka_unit_test(test_header_results),
        cmocka_unit_test(test_load_all),     cmocka_unit_test(test_import_messages),
        cmocka_unit_test(test_import_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
