/* test_emit_files.c - what `cutune emit header` and a finished run decide around the
 * emitters (api/cutune_emit_files.c): the spec of one kernel's results (a spec file
 * given, loaded and its block of the kernel held; a spec that is missing or of another
 * kernel refused with a message naming the files; else the spec the results record, or
 * none), the results of one kernel block among several (`emit header --kernel NAME`:
 * a block's name first, then a kernel's first block; a name none is of refused, naming
 * the blocks there are), and the files written after a run (the paths given, else the
 * spec's emit paths;
 * the header after what the file holds; none without a winner; a failure told and the
 * other file still written; the report page), and what a run says of each of them
 * (cutune_emitted_text, also from hand-built outcomes). Results from test/emit/; specs from test/emit/ and
 * examples/, one written into a scratch folder. Expected headers are what
 * cutune_emit_header makes of the same arguments, never text copied from this file's
 * code under test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/sys.h"
#include "cutune.h"
#include "results/result.h"
#include "scratch.h"
#include "emit_results.h"

/* in_tmp: tmpdir/name into buf. */
static const char *in_tmp(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", tmpdir, name);
    return buf;
}

/* header_of: cutune_emit_header of r with the spec, named `file_name` (caller frees). */
static char *header_of(cutune_spec *spec, const cutune_tune_result *r, const char *file_name)
{
    cutune_header_options opts = CUTUNE_HEADER_OPTIONS_INIT;
    opts.file_name = file_name;
    char *text = NULL;
    if (cutune_emit_header(&text, spec, &r, 1, &opts) != CUTUNE_OK)
        fail_msg("cutune_emit_header: %s", cutune_last_error());
    return text;
}

/* --spec SPEC: the spec file, its block of the results' kernel held (scale.tune's one
 * block: the header's functions of the problem size come from it). */
static void test_spec_given(void **state)
{
    (void)state;
    cutune_tune_result *h100 = load("h100.json"), *a100 = load("a100.json");
    const cutune_tune_result *both[2] = {h100, a100};
    cutune_spec *spec = NULL;
    assert_int_equal(cutune_header_spec_load(&spec, CUTUNE_SOURCE_DIR "/test/emit/scale.tune", both, 2, NULL),
                     CUTUNE_OK);
    assert_non_null(spec);
    assert_string_equal(cutune_spec_kernel(spec), "sum_matrix");
    char *text = NULL;
    assert_int_equal(cutune_emit_header(&text, spec, both, 2, NULL), CUTUNE_OK);
    assert_non_null(strstr(text, "SCALE_grid_dim_x(long long nx)"));
    cutune_free(text);
    cutune_spec_free(spec);
    cutune_tune_result_free(h100);
    cutune_tune_result_free(a100);
}

/* A spec of another kernel: refused, naming the results file and the spec; the spec is
 * handed back (loaded without errors) for its diagnostics. A missing spec file: its
 * status, and a spec whose diagnostic names the file. */
static void test_spec_refused(void **state)
{
    (void)state;
    cutune_tune_result *h100 = load("h100.json");
    const cutune_tune_result *one[1] = {h100};
    cutune_spec *spec = NULL;
    const char *sweep = CUTUNE_SOURCE_DIR "/examples/sweep.tune";
    assert_int_equal(cutune_header_spec_load(&spec, sweep, one, 1, NULL), CUTUNE_EINVAL);
    assert_non_null(spec);
    assert_true(cutune_spec_ok(spec));
    char want[2048];
    snprintf(want, sizeof want, "%s is not of this spec: its kernel or params differ from %s's",
             cutune_tune_summary_of(h100)->results_path, sweep);
    assert_string_equal(cutune_last_error(), want);
    cutune_spec_free(spec);
    char missing[512];
    in_tmp(missing, sizeof missing, "missing.tune");
    spec = NULL;
    assert_int_equal(cutune_header_spec_load(&spec, missing, one, 1, NULL), CUTUNE_EIO);
    assert_non_null(spec);
    assert_false(cutune_spec_ok(spec));
    assert_non_null(strstr(cutune_spec_diagnostics(spec, 0, 0), "missing.tune"));
    cutune_spec_free(spec);
    assert_int_equal(cutune_header_spec_load(NULL, missing, one, 1, NULL), CUTUNE_EINVAL);
    assert_int_equal(cutune_header_spec_load(&spec, missing, one, 0, NULL), CUTUNE_EINVAL);
    cutune_load_options zero;
    memset(&zero, 0, sizeof zero);
    assert_int_equal(cutune_header_spec_load(&spec, NULL, one, 1, &zero), CUTUNE_EINVAL);
    assert_null(spec);
    cutune_tune_result_free(h100);
}

/* No spec given: the one the results record (found beside them); a copy whose recorded
 * spec is nowhere: none, and a message that follows the results file's path. */
static void test_spec_recorded(void **state)
{
    (void)state;
    cutune_tune_result *h100 = load("h100.json");
    const cutune_tune_result *one[1] = {h100};
    cutune_spec *spec = NULL;
    assert_int_equal(cutune_header_spec_load(&spec, NULL, one, 1, NULL), CUTUNE_OK);
    assert_non_null(spec);
    assert_non_null(strstr(cutune_spec_path(spec), "test/emit/scale.tune"));
    cutune_spec_free(spec);
    char *json = sys_read_file(CUTUNE_SOURCE_DIR "/test/emit/h100.json", SYS_LIMIT_SOURCE, NULL);
    char away[512], *recorded = json ? strstr(json, "\"test/emit/scale.tune\"") : NULL;
    assert_non_null(recorded);
    if (recorded)
        recorded[1] = 'X'; /* "Xest/emit/scale.tune": a path found from no folder */
    assert_int_equal(sys_write_text(in_tmp(away, sizeof away, "away.json"), json), 0);
    free(json);
    cutune_tune_result *moved = NULL;
    assert_int_equal(cutune_results_load(&moved, away), CUTUNE_OK);
    one[0] = moved;
    assert_int_equal(cutune_header_spec_load(&spec, NULL, one, 1, NULL), CUTUNE_EINVAL);
    assert_null(spec);
    char want[1024];
    snprintf(want, sizeof want, "%s records a spec that cannot be loaded now", away);
    assert_memory_equal(cutune_last_error(), want, strlen(want));
    const char *lacks = "; the header has no functions of the problem size (no *_grid_dim_*, *_block_dim_* or "
                        "*_config_* functions: give the spec with --spec)";
    const char *said = cutune_last_error();
    assert_true(strlen(said) > strlen(lacks));
    assert_string_equal(said + strlen(said) - strlen(lacks), lacks);
    cutune_tune_result_free(moved);
    cutune_tune_result_free(h100);
}

/* --kernel NAME: of sum_matrix (h100, a100) and stencil1d (sizes), given mixed, the
 * block's results in the order given; blocks named in memory (`as fast`, `as slow`): a
 * block's name first, else the first block given of the kernel; a name none is of
 * refused, the message naming each block once; no name, all of them. */
static void test_results_of_kernel(void **state)
{
    (void)state;
    cutune_tune_result *h100 = load("h100.json"), *sizes = load("sizes.json"), *a100 = load("a100.json");
    const cutune_tune_result *all[3] = {h100, sizes, a100}, *kept[3] = {NULL, NULL, NULL};
    int n = -1;
    assert_int_equal(cutune_results_of_kernel(kept, &n, all, 3, "sum_matrix"), CUTUNE_OK);
    assert_int_equal(n, 2);
    assert_ptr_equal(kept[0], h100);
    assert_ptr_equal(kept[1], a100);
    assert_int_equal(cutune_results_of_kernel(kept, &n, all, 3, "stencil1d"), CUTUNE_OK);
    assert_int_equal(n, 1);
    assert_ptr_equal(kept[0], sizes);
    n = -1;
    assert_int_equal(cutune_results_of_kernel(kept, &n, all, 3, "nope"), CUTUNE_EINVAL);
    assert_int_equal(n, -1);
    assert_string_equal(cutune_last_error(),
                        "no results of a kernel block named 'nope' (the results are of: sum_matrix, stencil1d)");
    h100->block = (char *)"fast";
    a100->block = (char *)"slow";
    assert_int_equal(cutune_results_of_kernel(kept, &n, all, 3, "slow"), CUTUNE_OK);
    assert_int_equal(n, 1);
    assert_ptr_equal(kept[0], a100);
    assert_int_equal(cutune_results_of_kernel(kept, &n, all, 3, "sum_matrix"), CUTUNE_OK);
    assert_int_equal(n, 1);
    assert_ptr_equal(kept[0], h100);
    assert_int_equal(cutune_results_of_kernel(kept, &n, all, 3, "sum"), CUTUNE_EINVAL);
    assert_string_equal(cutune_last_error(), "no results of a kernel block named 'sum' (the results are of: fast "
                                             "(kernel sum_matrix), stencil1d, slow (kernel sum_matrix))");
    h100->block = NULL;
    a100->block = NULL;
    assert_int_equal(cutune_results_of_kernel(NULL, &n, all, 3, "sum_matrix"), CUTUNE_EINVAL);
    /* No name: every one, in the order given. */
    assert_int_equal(cutune_results_of_kernel(kept, &n, all, 3, NULL), CUTUNE_OK);
    assert_int_equal(n, 3);
    assert_ptr_equal(kept[0], h100);
    assert_ptr_equal(kept[1], sizes);
    assert_ptr_equal(kept[2], a100);
    assert_int_equal(cutune_results_of_kernel(kept, &n, NULL, 3, "sum_matrix"), CUTUNE_EINVAL);
    cutune_tune_result_free(h100);
    cutune_tune_result_free(sizes);
    cutune_tune_result_free(a100);
}

/* What told() heard, in order, and what cutune_emitted_text said of it then. */
typedef struct heard {
    int n;
    char kind[4][16], path[4][512], why[4][512], said[4][1024];
    int written[4], status[4];
} heard;

static void told(void *user, const cutune_emitted *file)
{
    heard *h = user;
    assert_true(h->n < 4);
    snprintf(h->kind[h->n], sizeof h->kind[0], "%s", file->kind);
    snprintf(h->path[h->n], sizeof h->path[0], "%s", file->path);
    snprintf(h->why[h->n], sizeof h->why[0], "%s", file->status ? cutune_last_error() : "");
    char *said = NULL;
    assert_int_equal(cutune_emitted_text(&said, file, 0), CUTUNE_OK);
    snprintf(h->said[h->n], sizeof h->said[0], "%s", said);
    cutune_free(said);
    h->written[h->n] = file->written;
    h->status[h->n++] = file->status;
}

/* The paths given: the CSV, then the header (named by its file), each told; with
 * append, the header after what the file holds, a blank line between. */
static void test_after_tune_paths(void **state)
{
    (void)state;
    cutune_tune_result *h100 = load("h100.json");
    cutune_spec *spec = NULL;
    assert_int_equal(cutune_spec_load_file(&spec, CUTUNE_SOURCE_DIR "/test/emit/scale.tune", NULL), CUTUNE_OK);
    char hpath[512], cpath[512];
    in_tmp(hpath, sizeof hpath, "run_tuned.h");
    in_tmp(cpath, sizeof cpath, "run.csv");
    heard h = {0};
    assert_int_equal(cutune_emit_after_tune(spec, h100, hpath, cpath, 0, told, &h), CUTUNE_OK);
    assert_int_equal(h.n, 2);
    assert_string_equal(h.kind[0], "csv");
    assert_string_equal(h.path[0], cpath);
    assert_string_equal(h.kind[1], "header");
    assert_string_equal(h.path[1], hpath);
    assert_true(h.written[0] && h.written[1]);
    char *want = header_of(spec, h100, "run_tuned.h"), *csv = NULL;
    char *got = sys_read_file(hpath, SYS_LIMIT_SOURCE, NULL);
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
    assert_int_equal(cutune_emit_csv(&csv, h100), CUTUNE_OK);
    got = sys_read_file(cpath, SYS_LIMIT_SOURCE, NULL);
    assert_non_null(got);
    assert_string_equal(got, csv);
    free(got);
    assert_int_equal(cutune_emit_after_tune(spec, h100, hpath, NULL, 1, NULL, NULL), CUTUNE_OK);
    got = sys_read_file(hpath, SYS_LIMIT_SOURCE, NULL);
    size_t n = strlen(want);
    assert_non_null(got);
    assert_int_equal(strlen(got), 2 * n + 1);
    assert_memory_equal(got, want, n);
    assert_int_equal(got[n], '\n');
    assert_string_equal(got + n + 1, want);
    free(got);
    cutune_free(csv);
    cutune_free(want);
    cutune_spec_free(spec);
    cutune_tune_result_free(h100);
}

/* No paths given: the spec's `emit header` and `emit csv`, resolved against its folder
 * (a copy of scale.tune in the scratch folder, reading the kernel where it is). */
static void test_after_tune_spec_paths(void **state)
{
    (void)state;
    cutune_tune_result *h100 = load("h100.json");
    char *text = sys_read_file(CUTUNE_SOURCE_DIR "/test/emit/scale.tune", SYS_LIMIT_SOURCE, NULL);
    assert_non_null(text);
    char *from = strstr(text, "\"../../kernels/"), *emit = strstr(text, "    emit header");
    assert_non_null(from);
    assert_non_null(emit);
    *emit = '\0';
    char spec_text[4096], spec_path[512], hpath[512], cpath[512];
    snprintf(spec_text, sizeof spec_text,
             "%.*s\"%s/kernels/%s    emit header \"k_tuned.h\";\n    emit csv \"k.csv\";\n}\n", (int)(from - text),
             text, CUTUNE_SOURCE_DIR, from + strlen("\"../../kernels/"));
    free(text);
    assert_int_equal(sys_write_text(in_tmp(spec_path, sizeof spec_path, "k.tune"), spec_text), 0);
    cutune_spec *spec = NULL;
    if (cutune_spec_load_file(&spec, spec_path, NULL) != CUTUNE_OK)
        fail_msg("%s: %s", spec_text, cutune_spec_diagnostics(spec, 0, 0));
    heard h = {0};
    assert_int_equal(cutune_emit_after_tune(spec, h100, NULL, NULL, 0, told, &h), CUTUNE_OK);
    assert_int_equal(h.n, 2);
    in_tmp(cpath, sizeof cpath, "k.csv");
    in_tmp(hpath, sizeof hpath, "k_tuned.h");
    char *want = header_of(spec, h100, "k_tuned.h"), *got = sys_read_file(hpath, SYS_LIMIT_SOURCE, NULL);
    assert_non_null(got);
    assert_string_equal(got, want);
    assert_non_null(strstr(h.path[1], "k_tuned.h"));
    free(got);
    got = sys_read_file(cpath, SYS_LIMIT_SOURCE, NULL);
    assert_non_null(got);
    free(got);
    cutune_free(want);
    cutune_spec_free(spec);
    cutune_tune_result_free(h100);
}

/* No winner: no header, told as nothing to write (status 0), the call fine. A header
 * that cannot be written: told with the path in the message, CUTUNE_EIO returned, and
 * the CSV before it still written. No spec: refused. */
static void test_after_tune_refusals(void **state)
{
    (void)state;
    cutune_tune_result *nowin = load("nowinner.json"), *h100 = load("h100.json");
    cutune_spec *spec = NULL;
    assert_int_equal(cutune_spec_load_file(&spec, CUTUNE_SOURCE_DIR "/test/emit/scale.tune", NULL), CUTUNE_OK);
    char hpath[512], cpath[512];
    in_tmp(hpath, sizeof hpath, "none_tuned.h");
    heard h = {0};
    assert_int_equal(cutune_emit_after_tune(spec, nowin, hpath, NULL, 0, told, &h), CUTUNE_OK);
    assert_int_equal(h.n, 1);
    assert_int_equal(h.written[0], 0);
    assert_int_equal(h.status[0], CUTUNE_OK);
    char said[1024];
    snprintf(said, sizeof said, "cutune: no header written to %s: there is no winner\n", hpath);
    assert_string_equal(h.said[0], said);
    assert_null(sys_read_file(hpath, SYS_LIMIT_SOURCE, NULL));
    in_tmp(hpath, sizeof hpath, "no/such/dir/x.h");
    in_tmp(cpath, sizeof cpath, "fine.csv");
    h = (heard){0};
    assert_int_equal(cutune_emit_after_tune(spec, h100, hpath, cpath, 0, told, &h), CUTUNE_EIO);
    assert_int_equal(h.n, 2);
    assert_true(h.written[0]);
    assert_false(h.written[1]);
    assert_int_equal(h.status[1], CUTUNE_EIO);
    char want[1024];
    snprintf(want, sizeof want, "cannot write '%s': ", hpath);
    assert_memory_equal(h.why[1], want, strlen(want));
    snprintf(said, sizeof said, "csv: %s\n", cpath);
    assert_string_equal(h.said[0], said);
    snprintf(said, sizeof said, "cutune: cannot write '%s': ", hpath);
    assert_memory_equal(h.said[1], said, strlen(said));
    char *csv = sys_read_file(cpath, SYS_LIMIT_SOURCE, NULL);
    assert_non_null(csv);
    free(csv);
    assert_int_equal(cutune_emit_after_tune(NULL, h100, hpath, NULL, 0, NULL, NULL), CUTUNE_EINVAL);
    assert_int_equal(cutune_emit_after_tune(spec, NULL, hpath, NULL, 0, NULL, NULL), CUTUNE_EINVAL);
    cutune_spec_free(spec);
    cutune_tune_result_free(nowin);
    cutune_tune_result_free(h100);
}

/* A run's report page: the page cutune_emit_report makes of the result, named by its
 * results path, written and told as "report"; a path that cannot be written: told with
 * the path in the message, as `cutune report` words it, and CUTUNE_EIO. */
static void test_report_after_tune(void **state)
{
    (void)state;
    cutune_tune_result *h100 = load("h100.json");
    const char *names[] = {CUTUNE_SOURCE_DIR "/test/emit/h100.json"};
    cutune_report_options opts = CUTUNE_REPORT_OPTIONS_INIT;
    opts.names = names;
    char *want = NULL, path[512], said[1024];
    assert_int_equal(cutune_emit_report(&want, (const cutune_tune_result *const *)&h100, 1, &opts), CUTUNE_OK);
    heard h = {0};
    in_tmp(path, sizeof path, "run.html");
    assert_int_equal(cutune_report_after_tune(h100, "unused.tune", path, told, &h), CUTUNE_OK);
    assert_int_equal(h.n, 1);
    assert_string_equal(h.kind[0], "report");
    assert_true(h.written[0]);
    snprintf(said, sizeof said, "report: %s\n", path);
    assert_string_equal(h.said[0], said);
    char *got = sys_read_file(path, SYS_LIMIT_SOURCE, NULL);
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
    in_tmp(path, sizeof path, "no/such/dir/run.html");
    h = (heard){0};
    assert_int_equal(cutune_report_after_tune(h100, NULL, path, told, &h), CUTUNE_EIO);
    assert_int_equal(h.n, 1);
    assert_false(h.written[0]);
    assert_int_equal(h.status[0], CUTUNE_EIO);
    snprintf(said, sizeof said, "cutune report: cannot write '%s': ", path);
    assert_memory_equal(h.said[0], said, strlen(said));
    assert_int_equal(cutune_report_after_tune(NULL, NULL, path, NULL, NULL), CUTUNE_EINVAL);
    assert_int_equal(cutune_report_after_tune(h100, NULL, NULL, NULL, NULL), CUTUNE_EINVAL);
    cutune_free(want);
    cutune_tune_result_free(h100);
}

/* What a run says of each file, from hand-built outcomes: where it went (nothing when
 * brief), no winner, a spec's failure left to its diagnostics, another failure in the
 * error's words (a report that could not be written as `cutune report` says it). */
static void test_emitted_text(void **state)
{
    (void)state;
    const struct {
        cutune_emitted file;
        int brief;
        const char *said;
    } cases[] = {
        {{"csv", "out/k.csv", 1, CUTUNE_OK}, 0, "csv: out/k.csv\n"},
        {{"header", "k_tuned.h", 1, CUTUNE_OK}, 0, "header: k_tuned.h\n"},
        {{"report", "-", 1, CUTUNE_OK}, 0, "report: -\n"},
        {{"header", "k_tuned.h", 1, CUTUNE_OK}, 1, ""},
        {{"header", "k_tuned.h", 0, CUTUNE_OK}, 0, "cutune: no header written to k_tuned.h: there is no winner\n"},
        {{"header", "k_tuned.h", 0, CUTUNE_OK}, 1, "cutune: no header written to k_tuned.h: there is no winner\n"},
        {{"header", "k_tuned.h", 0, CUTUNE_ESPEC}, 0, ""},
        {{"header", "k_tuned.h", 0, CUTUNE_EEVAL}, 0, ""},
        {{"csv", "k.csv", 0, CUTUNE_EIO}, 1, "cutune: no command named 'lsit'; did you mean 'list'?\n"},
        {{"report", "r.html", 0, CUTUNE_EIO}, 0, "cutune report: no command named 'lsit'; did you mean 'list'?\n"},
        {{"report", "r.html", 0, CUTUNE_ENOMEM}, 0, "cutune: no command named 'lsit'; did you mean 'list'?\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *said = NULL;
        cutune_help_unknown("lsit"); /* the last error: a message known here */
        assert_int_equal(cutune_emitted_text(&said, &cases[i].file, cases[i].brief), CUTUNE_OK);
        assert_string_equal(said, cases[i].said);
        cutune_free(said);
    }
    char *said = NULL;
    cutune_emitted nameless = {NULL, "x", 1, CUTUNE_OK};
    assert_int_equal(cutune_emitted_text(NULL, &cases[0].file, 0), CUTUNE_EINVAL);
    assert_int_equal(cutune_emitted_text(&said, NULL, 0), CUTUNE_EINVAL);
    assert_int_equal(cutune_emitted_text(&said, &nameless, 0), CUTUNE_EINVAL);
}

/* The CSV of a results file named by its path: the stored run's table, the same as of
 * the loaded result; a file that cannot be read is named, and nothing is made. */
static void test_csv_file(void **state)
{
    (void)state;
    char *text = NULL, *want = NULL;
    assert_int_equal(cutune_emit_csv_file(&text, CUTUNE_SOURCE_DIR "/test/emit/h100.json"), CUTUNE_OK);
    const char *head = "index,best,param_block_x,tile_y,maxrreg,status,reason,kernel,";
    assert_true(strncmp(text, head, strlen(head)) == 0);
    cutune_tune_result *h100 = load("h100.json");
    assert_int_equal(cutune_emit_csv(&want, h100), CUTUNE_OK);
    assert_string_equal(text, want);
    cutune_free(text);
    cutune_free(want);
    cutune_tune_result_free(h100);
    text = (char *)"untouched";
    assert_int_equal(cutune_emit_csv_file(&text, "/nonexistent/r.json"), CUTUNE_EIO);
    assert_null(text);
    assert_non_null(strstr(cutune_last_error(), "/nonexistent/r.json"));
    assert_int_equal(cutune_emit_csv_file(NULL, "r.json"), CUTUNE_EINVAL);
    assert_int_equal(cutune_emit_csv_file(&text, NULL), CUTUNE_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_given),          cmocka_unit_test(test_spec_refused),
        cmocka_unit_test(test_spec_recorded),       cmocka_unit_test(test_results_of_kernel),
        cmocka_unit_test(test_after_tune_paths),    cmocka_unit_test(test_after_tune_spec_paths),
        cmocka_unit_test(test_after_tune_refusals), cmocka_unit_test(test_csv_file),
        cmocka_unit_test(test_report_after_tune),   cmocka_unit_test(test_emitted_text),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
