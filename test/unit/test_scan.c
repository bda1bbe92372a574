/* test_scan.c - a results file read one entry at a time (results/scan.h) and the T4
 * file written from it as it is read (cutune_emit_t4_to): the same records as the
 * loader's, the same bytes as the T4 emitter's, and the bytes jansson gives for the
 * whole document (the output parsed and dumped again); refusals that name the JSON
 * path; a file changed between the two passes; outputs that cannot be written, left as
 * they were. Fixtures: test/emit/ and test/data/. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/err.h"
#include <jansson.h>

#include "base/sys.h"
#include "cutune.h"
#include "last_err.h"
#include "results/load.h"
#include "results/scan.h"

static const char *const fixtures[] = {
    CUTUNE_SOURCE_DIR "/test/emit/h100.json",
    CUTUNE_SOURCE_DIR "/test/emit/sizes.json", /* a run over three sizes (version 2) */
    CUTUNE_SOURCE_DIR "/test/emit/nowinner.json",
    CUTUNE_SOURCE_DIR "/test/data/report-hw-tiny-h100.json",
    CUTUNE_SOURCE_DIR "/test/data/report-sgemm-energy-h100.json",
};

static char *slurp(const char *path)
{
    char *text = sys_read_file(path, (size_t)1 << 30, NULL);
    assert_non_null(text);
    return text;
}

static void spill(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void temp_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "/tmp/cutune-scan-%ld-%s", (long)getpid(), name);
}

/* The streamed T4 file is the in-memory emitter's bytes, and jansson's own dump of the
 * whole document (parsed back) is those bytes too. */
static void test_t4_streamed_equals_whole(void **state)
{
    (void)state;
    char out[128];
    temp_path(out, sizeof out, "t4.json");
    for (size_t k = 0; k < sizeof fixtures / sizeof *fixtures; k++) {
        cutune_tune_result *r = NULL;
        assert_int_equal(cutune_results_load(&r, fixtures[k]), CUTUNE_OK);
        char *whole = NULL;
        assert_int_equal(cutune_emit_t4(&whole, r), CUTUNE_OK);
        assert_int_equal(cutune_emit_t4_to(fixtures[k], out), CUTUNE_OK);
        char *streamed = slurp(out);
        assert_string_equal(streamed, whole);
        json_error_t jerr;
        json_t *doc = json_loads(streamed, 0, &jerr);
        assert_non_null(doc);
        assert_int_equal(json_array_size(json_object_get(doc, "results")), cutune_tune_count(r));
        char *again = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
        assert_non_null(again);
        size_t n = strlen(again);
        assert_int_equal(strlen(streamed), n + 1); /* and a newline */
        assert_memory_equal(streamed, again, n);
        free(again);
        json_decref(doc);
        free(streamed);
        cutune_free(whole);
        cutune_tune_result_free(r);
    }
    unlink(out);
}

typedef struct seen {
    const cutune_tune_result *loaded; /* the same file through results_load */
    uint64_t n;
    int stop_at; /* return 7 at this entry (-1: never) */
} seen;

/* Each entry handed over is the loader's entry at the same place: same size, values,
 * status and objective. */
static int check_entry(void *ctx, const cutune_tune_result *of, const record *rec, uint64_t index)
{
    seen *s = ctx;
    assert_true(s->n < s->loaded->n);
    const record *want = s->loaded->records[s->n];
    assert_int_equal(rec->size, want->size);
    if (want->size >= 0)
        assert_ptr_not_equal(of->size_values, NULL);
    assert_int_equal(rec->out, want->out);
    assert_int_equal(rec->v.ordinal, want->v.ordinal);
    assert_int_equal(rec->v.nparams, want->v.nparams);
    for (int p = 0; p < rec->v.nparams; p++)
        assert_string_equal(rec->v.values[p], want->v.values[p]);
    assert_true(rec->m.objective == want->m.objective ||
                (rec->m.objective != rec->m.objective && want->m.objective != want->m.objective));
    assert_int_equal(rec->m.nmetrics, want->m.nmetrics);
    (void)index;
    if ((int)s->n++ == s->stop_at)
        return 7;
    return 0;
}

static void test_scan_matches_loader(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof fixtures / sizeof *fixtures; k++) {
        cutune_tune_result *loaded = NULL;
        assert_int_equal(results_load(&loaded, fixtures[k]), CUTUNE_OK);
        results_scan *scan = NULL;
        assert_int_equal(results_scan_open(&scan, fixtures[k]), CUTUNE_OK);
        const cutune_tune_result *h = results_scan_header(scan);
        assert_int_equal(results_scan_count(scan), loaded->n);
        assert_int_equal(h->n, 0);
        assert_string_equal(h->kernel, loaded->kernel);
        assert_int_equal(h->nparams, loaded->nparams);
        assert_int_equal(h->nsizes, loaded->nsizes);
        assert_int_equal(h->summary.best, loaded->summary.best);
        assert_int_equal(h->nmetrics, loaded->nmetrics);
        for (int m = 0; m < h->nmetrics; m++)
            assert_string_equal(h->metric_names[m], loaded->metric_names[m]);
        seen s = {loaded, 0, -1};
        assert_int_equal(results_scan_each(scan, check_entry, &s), CUTUNE_OK);
        assert_int_equal(s.n, loaded->n);
        s = (seen){loaded, 0, 1}; /* read again, stopped by the callback at its second entry */
        if (loaded->n > 1) {
            assert_int_equal(results_scan_each(scan, check_entry, &s), 7);
            assert_int_equal(s.n, 2);
        }
        results_scan_close(scan);
        result_destroy(loaded);
    }
}

/* Refusals name the JSON path; the loader refuses the same files. */
static void test_scan_refusals(void **state)
{
    (void)state;
    char path[128];
    temp_path(path, sizeof path, "bad.json");
    char *h100 = slurp(CUTUNE_SOURCE_DIR "/test/emit/h100.json");
    const char *results = strstr(h100, "\"results\"");
    assert_non_null(results);
    /* entry 1 not JSON: a doubled comma after its index */
    const char *second = strstr(strstr(results, "\"index\"") + 1, "\"index\"");
    assert_non_null(second);
    const char *comma = strchr(second, ',');
    size_t at = (size_t)(comma - h100);
    char *bad = malloc(strlen(h100) + 64);
    memcpy(bad, h100, at + 1);
    strcpy(bad + at + 1, h100 + at); /* ",," */
    spill(path, bad);
    results_scan *scan = NULL;
    assert_int_equal(results_scan_open(&scan, path), CUTUNE_EIO);
    assert_null(scan);
    assert_non_null(strstr(last_err(), "is not JSON: results[1] (byte "));
    /* entry 1's status unknown: refused in the second pass, as the loader refuses it */
    strcpy(bad, h100);
    char *status = strstr(strstr(bad, "\"index\": 10,"), "\"status\": \"");
    assert_non_null(status);
    memcpy(status + 11, "no", 2); /* "ok" becomes "no" */
    spill(path, bad);
    cutune_tune_result *r = NULL;
    assert_int_equal(results_load(&r, path), CUTUNE_EIO);
    char out[128];
    temp_path(out, sizeof out, "kept.json");
    spill(out, "kept");
    assert_int_equal(cutune_emit_t4_to(path, out), CUTUNE_EIO);
    assert_non_null(strstr(cutune_last_error(), "(results[1])"));
    char *kept = slurp(out);
    assert_string_equal(kept, "kept"); /* the output as it was */
    free(kept);
    /* more after the object; "results" twice */
    snprintf(bad, strlen(h100) + 64, "%s x", h100);
    spill(path, bad);
    assert_int_equal(results_scan_open(&scan, path), CUTUNE_EIO);
    assert_non_null(strstr(last_err(), "more after the top-level object"));
    strcpy(bad, h100);
    char *end = strrchr(bad, '}');
    strcpy(end, ", \"results\": []}");
    spill(path, bad);
    assert_int_equal(results_scan_open(&scan, path), CUTUNE_EIO);
    assert_non_null(strstr(last_err(), "holds \"results\" twice"));
    free(bad);
    free(h100);
    unlink(path);
    unlink(out);
}

/* The file changed between the passes (an entry more): refused, not half-read. */
static void test_scan_file_changed(void **state)
{
    (void)state;
    char path[128];
    temp_path(path, sizeof path, "changing.json");
    char *h100 = slurp(CUTUNE_SOURCE_DIR "/test/emit/h100.json");
    spill(path, h100);
    results_scan *scan = NULL;
    assert_int_equal(results_scan_open(&scan, path), CUTUNE_OK);
    json_t *doc = json_loads(h100, 0, NULL);
    json_t *list = json_object_get(doc, "results");
    json_array_append(list, json_array_get(list, 0));
    char *more = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    spill(path, more);
    cutune_tune_result *loaded = NULL;
    assert_int_equal(results_load(&loaded, path), CUTUNE_OK);
    seen s = {loaded, 0, -1};
    assert_int_equal(results_scan_each(scan, check_entry, &s), CUTUNE_EIO);
    assert_non_null(strstr(last_err(), "changed while it was read"));
    results_scan_close(scan);
    result_destroy(loaded);
    free(more);
    json_decref(doc);
    free(h100);
    unlink(path);
}

/* Outputs that cannot be written: the error names them; nothing is left behind. */
static void test_t4_unwritable(void **state)
{
    (void)state;
    const char *h100 = CUTUNE_SOURCE_DIR "/test/emit/h100.json";
    assert_int_equal(cutune_emit_t4_to(h100, "/dev/full"), CUTUNE_EIO); /* a device: refused */
    assert_non_null(strstr(cutune_last_error(), "cannot write '/dev/full': not a regular file"));
    assert_int_equal(cutune_emit_t4_to(h100, "/nonexistent-folder/t4.json"), CUTUNE_EIO);
    assert_non_null(strstr(cutune_last_error(), "cannot write '/nonexistent-folder/t4.json'"));
    assert_int_equal(cutune_emit_t4_to(NULL, "x"), CUTUNE_EINVAL);
    assert_int_equal(cutune_emit_t4_to("/nonexistent-folder/r.json", "/tmp/never-written.json"), CUTUNE_EIO);
    assert_int_equal(access("/tmp/never-written.json", F_OK), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_t4_streamed_equals_whole),
        cmocka_unit_test(test_scan_matches_loader),
        cmocka_unit_test(test_scan_refusals),
        cmocka_unit_test(test_scan_file_changed),
        cmocka_unit_test(test_t4_unwritable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
