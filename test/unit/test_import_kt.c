/* test_import_kt.c - Kernel Tuner cache and T4 files imported as the results of a spec
 * (cutune_import_results, import/kt.c): each failure kind's outcome, times in
 * milliseconds and their statistics worked out by hand, every refusal naming the file
 * and the JSON path (a wrong type, a value outside a domain, a configuration outside the
 * space, twice, a wrong cache key, corrupt JSON, a truncated gzip stream), and the
 * hub's A4000 convolution recordings (test/data/kt/) against the earlier conversion of
 * the same run: the same configurations, outcomes, objectives and seconds. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cutune.h"

#define KT_DATA CUTUNE_SOURCE_DIR "/test/data/kt"

/* a and b within eps, as doubles (cmocka's float check rounds to float). */
#define assert_near(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

/* 3 x 3 combinations, of which bx * by <= 96 leaves 8 (48 x 3 is out). */
static const char spec_text[] = "kernel convolution_kernel from \"convolution_kernel.cu\" {\n"
                                "    param bx in [16, 32, 48];\n"
                                "    param by in [1, 2, 3];\n"
                                "    require bx * by <= 96;\n"
                                "    block (bx, by);\n"
                                "    grid 1;\n"
                                "}\n";

#include "scratch.h"

static cutune_spec *load_spec(void)
{
    cutune_load_options lo = CUTUNE_LOAD_OPTIONS_INIT;
    lo.skip_file_checks = 1;
    cutune_spec *s = NULL;
    assert_int_equal(cutune_spec_load_string(&s, "t.tune", spec_text, strlen(spec_text), &lo), CUTUNE_OK);
    return s;
}

/* Writes `len` bytes to a file `name` in the temporary folder; its path (static). */
static const char *put(const char *name, const char *bytes, size_t len)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, len, f), len);
    fclose(f);
    return path;
}

static const char *put_text(const char *name, const char *text)
{
    return put(name, text, strlen(text));
}

/* Imports `text` (as file `name`) into the tiny spec: the status; *out the result. */
static int import_text(const char *name, const char *text, const cutune_import_options *o, cutune_tune_result **out)
{
    cutune_spec *s = load_spec();
    int rc = cutune_import_results(out, s, put_text(name, text), o);
    cutune_spec_free(s);
    return rc;
}

/* Imports `text` and expects a refusal whose message holds each of the NULL-ended
 * strings after `code`. */
static void refused(const char *text, int code, ...)
{
    cutune_tune_result *r = (cutune_tune_result *)1;
    int rc = import_text("bad.json", text, NULL, &r);
    assert_int_equal(rc, code);
    assert_null(r);
    const char *msg = cutune_last_error();
    va_list ap;
    va_start(ap, code);
    for (const char *want = va_arg(ap, const char *); want; want = va_arg(ap, const char *))
        if (!strstr(msg, want))
            fail_msg("message \"%s\" lacks \"%s\"", msg, want);
    va_end(ap);
}

/* The measurement of the configuration bx, by in r; NULL when none. */
static const cutune_measurement *find(const cutune_tune_result *r, const char *bx, const char *by)
{
    for (uint64_t i = 0; i < cutune_tune_count(r); i++) {
        const cutune_measurement *m = cutune_tune_at(r, i);
        const cutune_variant *v = cutune_measurement_variant(m);
        if (strcmp(v->values[0], bx) == 0 && strcmp(v->values[1], by) == 0)
            return m;
    }
    return NULL;
}

#define CACHE_HEAD \
    "{\"device_name\": \"GPU X\", \"kernel_name\": \"convolution_kernel\", \"tune_params_keys\": [\"bx\", \"by\"], " \
    "\"tune_params\": {\"bx\": [16, 32, 48], \"by\": [1, 2, 3]}, \"objective\": \"time\", \"cache\": {"

/* Every kind of failure a cache records, and one timed entry. */
static const char cache_kinds[] = CACHE_HEAD
    "\"16,1\": {\"bx\": 16, \"by\": 1, \"time\": 1.5, \"times\": [2.0, 1.0, 1.5], \"compile_time\": 100, "
    "\"benchmark_time\": 10, \"verification_time\": 5, \"timestamp\": \"2024-01-02 03:04:05.5+01:00\"},\n"
    "\"16,2\": {\"bx\": 16, \"by\": 2, \"time\": \"CompilationFailedConfig\", \"compile_time\": 50, "
    "\"timestamp\": \"2024-01-01 -1:04:05\"},\n"
    "\"32,1\": {\"bx\": 32, \"by\": 1, \"time\": \"RuntimeFailedConfig\", \"timestamp\": \" 2024-01-01 "
    "01:00:00\"},\n"
    "\"32,2\": {\"bx\": 32, \"by\": 2, \"time\": \"InvalidConfig\", \"timestamp\": \"2024-1-01 01:00:00\"},\n"
    "\"48,1\": {\"bx\": 48, \"by\": 1, \"time\": 1e20, \"timestamp\": \"2024-01-03T00:00:00Z\"}}}";

static void test_cache_kinds(void **state)
{
    (void)state;
    cutune_tune_result *r = NULL;
    assert_int_equal(import_text("c.json", cache_kinds, NULL, &r), CUTUNE_OK);
    assert_int_equal(cutune_tune_count(r), 5);
    const cutune_measurement *ok = find(r, "16", "1");
    assert_int_equal(cutune_measurement_outcome(ok), CUTUNE_OUTCOME_OK);
    /* samples 1.0, 1.5, 2.0 ms: median 1.5, quartiles 1.25 and 1.75 (linear) */
    assert_near(cutune_measurement_value(ok, CUTUNE_VALUE_MEDIAN_MS), 1.5, 1e-12);
    assert_near(cutune_measurement_value(ok, CUTUNE_VALUE_MIN_MS), 1.0, 1e-12);
    assert_near(cutune_measurement_value(ok, CUTUNE_VALUE_MAX_MS), 2.0, 1e-12);
    assert_near(cutune_measurement_value(ok, CUTUNE_VALUE_Q1_MS), 1.25, 1e-12);
    assert_near(cutune_measurement_value(ok, CUTUNE_VALUE_Q3_MS), 1.75, 1e-12);
    assert_near(cutune_measurement_value(ok, CUTUNE_VALUE_REPS), 3, 0);
    assert_near(cutune_measurement_value(ok, CUTUNE_VALUE_OBJECTIVE), 1.5, 1e-12);
    /* ms become seconds: 100 ms compiling; 10 ms benchmarking and 5 verifying on the GPU */
    assert_near(cutune_measurement_value(ok, CUTUNE_VALUE_COMPILE_SECONDS), 0.1, 1e-12);
    assert_near(cutune_measurement_value(ok, CUTUNE_VALUE_TIMING_SECONDS), 0.01, 1e-12);
    assert_near(cutune_measurement_value(ok, CUTUNE_VALUE_GPU_SECONDS), 0.015, 1e-12);
    /* the spec plans the variant: block (bx, by) */
    assert_int_equal(cutune_measurement_variant(ok)->block[0], 16);
    assert_int_equal(cutune_measurement_variant(ok)->block[1], 1);
    assert_int_equal(cutune_measurement_outcome(find(r, "16", "2")), CUTUNE_OUTCOME_COMPILE_ERROR);
    assert_int_equal(cutune_measurement_outcome(find(r, "32", "1")), CUTUNE_OUTCOME_LAUNCH_ERROR);
    assert_int_equal(cutune_measurement_outcome(find(r, "32", "2")), CUTUNE_OUTCOME_NOT_RUN);
    assert_non_null(strstr(cutune_measurement_reason(find(r, "32", "2")), "InvalidConfig"));
    assert_int_equal(cutune_measurement_outcome(find(r, "48", "1")), CUTUNE_OUTCOME_LAUNCH_ERROR);
    assert_non_null(strstr(cutune_measurement_reason(find(r, "48", "1")), "1e20"));
    assert_int_equal(cutune_measurement_value(find(r, "16", "2"), CUTUNE_VALUE_TIMED), 0);
    const cutune_tune_summary *s = cutune_tune_summary_of(r);
    assert_string_equal(s->device_name, "GPU X");
    assert_ptr_equal(cutune_tune_best(r), ok);
    /* 03:04:05 at +01:00 is 02:04:05 UTC, the earliest stamp that reads as Python's
     * isoformat writes it: a negative hour, a leading blank and a one-digit month (earlier
     * stamps, once taken by sscanf's %d) are skipped */
    assert_string_equal(cutune_tune_date(r), "2024-01-02T02:04:05Z");
    const char *src = cutune_tune_source(r);
    assert_non_null(src);
    assert_non_null(strstr(src, "Kernel Tuner cache file"));
    assert_non_null(strstr(src, "GPU X: 5 entries, 4 failed; 3 of the spec's 8 configurations missing"));
    cutune_tune_result_free(r);
}

/* Every T4 invalidity, and the file's time unit honoured. */
static const char t4_kinds[] =
    "{\"schema_version\": \"1.0.0\", \"metadata\": {\"timeunit\": \"seconds\"}, \"results\": [\n"
    "{\"configuration\": {\"bx\": 16, \"by\": 1}, \"invalidity\": \"correct\", \"correctness\": 1,\n"
    " \"times\": {\"compilation\": 0.25, \"runtimes\": [0.004, 0.002]},\n"
    " \"measurements\": [{\"name\": \"time\", \"value\": 0.003, \"unit\": \"\"}], \"objectives\": [\"time\"]},\n"
    "{\"configuration\": {\"bx\": 16, \"by\": 2}, \"invalidity\": \"compile\", \"correctness\": 1, \"times\": {}},\n"
    "{\"configuration\": {\"bx\": 16, \"by\": 3}, \"invalidity\": \"runtime\", \"correctness\": 1, \"times\": {}},\n"
    "{\"configuration\": {\"bx\": 32, \"by\": 1}, \"invalidity\": \"correctness\", \"correctness\": 0, \"times\": "
    "{}},\n"
    "{\"configuration\": {\"bx\": 32, \"by\": 2}, \"invalidity\": \"constraints\", \"correctness\": 1, \"times\": "
    "{}},\n"
    "{\"configuration\": {\"bx\": 32, \"by\": 3}, \"invalidity\": \"timeout\", \"correctness\": 1, \"times\": {}}]}";

static void test_t4_kinds(void **state)
{
    (void)state;
    cutune_tune_result *r = NULL;
    assert_int_equal(import_text("t4.json", t4_kinds, NULL, &r), CUTUNE_OK);
    assert_int_equal(cutune_tune_count(r), 6);
    const cutune_measurement *ok = find(r, "16", "1");
    assert_int_equal(cutune_measurement_outcome(ok), CUTUNE_OUTCOME_OK);
    /* seconds: 3 ms Kernel Tuner's time, samples 2 and 4 ms, 250 ms compiling */
    assert_near(cutune_measurement_value(ok, CUTUNE_VALUE_OBJECTIVE), 3.0, 1e-9);
    assert_near(cutune_measurement_value(ok, CUTUNE_VALUE_MEDIAN_MS), 3.0, 1e-9);
    assert_near(cutune_measurement_value(ok, CUTUNE_VALUE_MIN_MS), 2.0, 1e-9);
    assert_near(cutune_measurement_value(ok, CUTUNE_VALUE_COMPILE_SECONDS), 0.25, 1e-12);
    assert_int_equal(cutune_measurement_outcome(find(r, "16", "2")), CUTUNE_OUTCOME_COMPILE_ERROR);
    assert_int_equal(cutune_measurement_outcome(find(r, "16", "3")), CUTUNE_OUTCOME_LAUNCH_ERROR);
    assert_int_equal(cutune_measurement_outcome(find(r, "32", "1")), CUTUNE_OUTCOME_WRONG);
    assert_int_equal(cutune_measurement_outcome(find(r, "32", "2")), CUTUNE_OUTCOME_NOT_RUN);
    assert_int_equal(cutune_measurement_outcome(find(r, "32", "3")), CUTUNE_OUTCOME_TIMEOUT);
    assert_non_null(strstr(cutune_tune_source(r), "T4 results file"));
    assert_non_null(strstr(cutune_tune_source(r), "device not recorded"));
    cutune_tune_result_free(r);

    /* the device given for a file that names none; a complete recording demanded */
    cutune_import_options o = CUTUNE_IMPORT_OPTIONS_INIT;
    o.device_name = "GPU Y";
    assert_int_equal(import_text("t4.json", t4_kinds, &o, &r), CUTUNE_OK);
    assert_string_equal(cutune_tune_summary_of(r)->device_name, "GPU Y");
    cutune_tune_result_free(r);
    o.complete = 1;
    assert_int_equal(import_text("t4.json", t4_kinds, &o, &r), CUTUNE_EIO);
    assert_null(r);
    assert_non_null(strstr(cutune_last_error(), "lacks 2 of the spec's 8 configurations (the first: bx = 48, by = 1)"));
    /* a cache that names another device than the caller's */
    o.complete = 0;
    assert_int_equal(import_text("c.json", cache_kinds, &o, &r), CUTUNE_EIO);
    assert_non_null(strstr(cutune_last_error(), "recorded on 'GPU X', not on 'GPU Y'"));
}

static void test_refusals(void **state)
{
    (void)state;
    /* a wrong type, named by the file and the JSON path */
    refused(CACHE_HEAD "\"16,1\": {\"bx\": 16.0, \"by\": 1, \"time\": 1.0}}}", CUTUNE_EIO,
            "bad.json: ", "cache.\"16,1\".bx: 16.0 is not an integer", NULL);
    refused(CACHE_HEAD "\"16,1\": {\"bx\": \"16\", \"by\": 1, \"time\": 1.0}}}", CUTUNE_EIO,
            "cache.\"16,1\".bx: \"16\" is not an integer", NULL);
    /* a value outside the param's domain */
    refused(CACHE_HEAD "\"20,1\": {\"bx\": 20, \"by\": 1, \"time\": 1.0}}}", CUTUNE_EIO,
            "cache.\"20,1\".bx: 20 is not one of param 'bx''s values in the spec (16, 32, 48)", NULL);
    /* a configuration outside the space: 48 x 3 breaks the require (line 4, column 13) */
    refused(CACHE_HEAD "\"48,3\": {\"bx\": 48, \"by\": 3, \"time\": 1.0}}}", CUTUNE_EIO,
            "cache.\"48,3\": the configuration (bx = 48, by = 3) is not in the spec's space: it breaks the require "
            "at t.tune:4:13",
            NULL);
    /* a param missing from an entry; a key that names other values */
    refused(CACHE_HEAD "\"16,1\": {\"bx\": 16, \"time\": 1.0}}}", CUTUNE_EIO, "cache.\"16,1\".by: missing", NULL);
    refused(CACHE_HEAD "\"16,2\": {\"bx\": 16, \"by\": 1, \"time\": 1.0}}}", CUTUNE_EIO,
            "cache.\"16,2\": the key's piece 2 (\"2\") is not the entry's value of 'by'", NULL);
    /* a time that is neither a number nor one of Kernel Tuner's errors; a bad sample */
    refused(CACHE_HEAD "\"16,1\": {\"bx\": 16, \"by\": 1, \"time\": \"Oops\"}}}", CUTUNE_EIO,
            "cache.\"16,1\".time: \"Oops\" is not Kernel Tuner's time", NULL);
    refused(CACHE_HEAD "\"16,1\": {\"bx\": 16, \"by\": 1, \"time\": 1, \"times\": [1, \"x\"]}}}", CUTUNE_EIO,
            "cache.\"16,1\".times[1]: \"x\" is not a runtime", NULL);
    /* the cache's params are not the spec's; another kernel */
    refused("{\"kernel_name\": \"convolution_kernel\", \"tune_params_keys\": [\"bx\"], \"cache\": {}}", CUTUNE_EIO,
            "tune_params_keys: lacks the spec's param 'by'", NULL);
    refused("{\"kernel_name\": \"convolution_kernel\", \"tune_params_keys\": [\"bx\", \"by\", \"bz\"], \"cache\": {}}",
            CUTUNE_EIO, "tune_params_keys[2]: \"bz\" is not a param of the spec", NULL);
    refused("{\"kernel_name\": \"other\", \"tune_params_keys\": [\"bx\", \"by\"], \"cache\": {}}", CUTUNE_EIO,
            "kernel_name: \"other\" is not the spec's kernel", NULL);
    /* T4: a key that is not a param; an invalidity T4 does not have; twice the same */
    refused("{\"results\": [{\"configuration\": {\"bx\": 16, \"by\": 1, \"bz\": 1}, \"invalidity\": \"compile\", "
            "\"times\": {}}]}",
            CUTUNE_EIO, "results[0].configuration: \"bz\" is not a param of the spec", NULL);
    refused("{\"results\": [{\"configuration\": {\"bx\": 16, \"by\": 1}, \"invalidity\": \"broken\", \"times\": {}}]}",
            CUTUNE_EIO, "results[0].invalidity: \"broken\" is not a T4 invalidity", NULL);
    refused("{\"results\": [{\"configuration\": {\"bx\": 16, \"by\": 1}, \"invalidity\": \"compile\", \"times\": {}},"
            " {\"configuration\": {\"bx\": 16, \"by\": 1}, \"invalidity\": \"runtime\", \"times\": {}}]}",
            CUTUNE_EIO, "results[1]: the configuration (bx = 16, by = 1) again: results[0] has it already", NULL);
    refused("{\"results\": [{\"configuration\": {\"bx\": 16, \"by\": 1}, \"invalidity\": \"correct\", \"times\": {}}]}",
            CUTUNE_EIO, "results[0]: a correct entry without a time", NULL);
    /* neither format; not JSON; a cache cut short in an entry */
    refused("{\"format\": \"cutune-results\", \"results\": []}", CUTUNE_EIO, "not a Kernel Tuner cache or T4", NULL);
    refused("[1, 2]", CUTUNE_EIO, "neither a Kernel Tuner cache file", NULL);
    refused(CACHE_HEAD "\"16,1\": {\"bx\": 16, \"by", CUTUNE_EIO, "bad.json: not JSON: line 1", NULL);
    refused(CACHE_HEAD "\"16,1\": {\"bx\": 16, \"by\": 1, \"time\": 1.0},\n\"16,1\": {\"bx\": 16, \"by\": 1, "
                       "\"time\": 2.0}}}",
            CUTUNE_EIO, "not JSON", "duplicate", NULL);
}

/* A cache Kernel Tuner left open (a stopped run: the last entry followed by a comma) is
 * read as Kernel Tuner reads it, and says so. */
static void test_open_cache(void **state)
{
    (void)state;
    cutune_tune_result *r = NULL;
    assert_int_equal(import_text("open.json", CACHE_HEAD "\n\"16,1\": {\"bx\": 16, \"by\": 1, \"time\": 1.0},\n", NULL,
                                 &r),
                     CUTUNE_OK);
    assert_int_equal(cutune_tune_count(r), 1);
    char path[300];
    snprintf(path, sizeof path, "%s/open-out.json", tmpdir);
    assert_int_equal(cutune_tune_write_results(r, path), CUTUNE_OK);
    cutune_tune_result_free(r);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    assert_non_null(strstr(buf, "\"closed\": false"));
}

/* Reads a whole file (test data) into a malloc'd buffer. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)size + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    *len = (size_t)size;
    return buf;
}

static cutune_spec *load_small(void)
{
    cutune_spec *s = NULL;
    assert_int_equal(cutune_spec_load_file(&s, KT_DATA "/conv_small.tune", NULL), CUTUNE_OK);
    return s;
}

/* A gzip stream cut short, or with its bytes damaged, is refused whole. */
static void test_gzip_damage(void **state)
{
    (void)state;
    size_t len;
    char *gz = slurp(KT_DATA "/conv_small.kt-cache.json.gz", &len);
    cutune_spec *s = load_small();
    cutune_tune_result *r = (cutune_tune_result *)1;
    assert_int_equal(cutune_import_results(&r, s, put("cut.json.gz", gz, len / 2), NULL), CUTUNE_EIO);
    assert_null(r);
    assert_non_null(strstr(cutune_last_error(), "cut.json.gz: the gzip stream ends early"));
    gz[len / 2] = (char)~gz[len / 2];
    assert_int_equal(cutune_import_results(&r, s, put("bent.json.gz", gz, len), NULL), CUTUNE_EIO);
    assert_non_null(strstr(cutune_last_error(), "bent.json.gz: "));
    /* garbage after the stream that is not another member */
    gz[len / 2] = (char)~gz[len / 2];
    char *tail = malloc(len + 4);
    memcpy(tail, gz, len);
    memcpy(tail + len, "junk", 4);
    assert_int_equal(cutune_import_results(&r, s, put("tail.json.gz", tail, len + 4), NULL), CUTUNE_EIO);
    assert_non_null(strstr(cutune_last_error(), "after the end of the gzip stream"));
    free(tail);
    free(gz);
    cutune_spec_free(s);
}

/* The earlier conversion's entry of the configuration of m, or NULL. */
static const cutune_measurement *same_config(const cutune_tune_result *land, const cutune_measurement *m)
{
    const cutune_variant *v = cutune_measurement_variant(m);
    for (uint64_t i = 0; i < cutune_tune_count(land); i++) {
        const cutune_variant *w = cutune_measurement_variant(cutune_tune_at(land, i));
        int same = w->nparams == v->nparams;
        for (int p = 0; same && p < v->nparams; p++)
            same = strcmp(w->values[p], v->values[p]) == 0;
        if (same)
            return cutune_tune_at(land, i);
    }
    return NULL;
}

/* The hub's recordings, gzipped cache and plain T4, against the earlier conversion of the
 * same run: every configuration once, with its outcome, Kernel Tuner's time as the
 * objective, and its compile seconds; the cache's benchmark time as the timing. */
static void check_against_land(const char *file, int cache)
{
    cutune_spec *s = load_small();
    cutune_tune_result *r = NULL, *land = NULL;
    assert_int_equal(cutune_import_results(&r, s, file, NULL), CUTUNE_OK);
    assert_int_equal(cutune_results_load(&land, KT_DATA "/conv_small.land.json"), CUTUNE_OK);
    assert_int_equal(cutune_tune_count(r), 256);
    assert_int_equal(cutune_tune_count(land), 256);
    for (uint64_t i = 0; i < cutune_tune_count(r); i++) {
        const cutune_measurement *m = cutune_tune_at(r, i), *l = same_config(land, m);
        assert_non_null(l);
        assert_int_equal(cutune_measurement_outcome(m), cutune_measurement_outcome(l));
        assert_int_equal(cutune_measurement_value(m, CUTUNE_VALUE_TIMED),
                         cutune_measurement_value(l, CUTUNE_VALUE_TIMED));
        if (cutune_measurement_value(l, CUTUNE_VALUE_TIMED))
            assert_true(cutune_measurement_value(m, CUTUNE_VALUE_OBJECTIVE) ==
                        cutune_measurement_value(l, CUTUNE_VALUE_OBJECTIVE));
        assert_true(cutune_measurement_value(m, CUTUNE_VALUE_COMPILE_SECONDS) ==
                    cutune_measurement_value(l, CUTUNE_VALUE_COMPILE_SECONDS));
        if (cache)
            assert_true(cutune_measurement_value(m, CUTUNE_VALUE_TIMING_SECONDS) ==
                        cutune_measurement_value(l, CUTUNE_VALUE_GPU_SECONDS));
    }
    const cutune_tune_summary *a = cutune_tune_summary_of(r), *b = cutune_tune_summary_of(land);
    assert_int_equal(a->timed, 238);
    assert_int_equal(a->failed, 18); /* 14 RuntimeFailedConfig, 4 CompilationFailedConfig (test/data/README.md) */
    assert_int_equal(b->variants, 256);
    assert_ptr_not_equal(cutune_tune_best(r), NULL);
    assert_true(cutune_measurement_value(cutune_tune_best(r), CUTUNE_VALUE_OBJECTIVE) ==
                cutune_measurement_value(cutune_tune_best(land), CUTUNE_VALUE_OBJECTIVE));

    /* written and read back by the one loader: the same entries and the same source */
    char path[300];
    snprintf(path, sizeof path, "%s/imported.json", tmpdir);
    assert_int_equal(cutune_tune_write_results(r, path), CUTUNE_OK);
    cutune_tune_result *back = NULL;
    assert_int_equal(cutune_results_load(&back, path), CUTUNE_OK);
    assert_int_equal(cutune_tune_count(back), 256);
    assert_string_equal(cutune_tune_source(back), cutune_tune_source(r));
    cutune_tune_result_free(back);
    cutune_tune_result_free(land);
    cutune_tune_result_free(r);
    cutune_spec_free(s);
}

static void test_hub_cache(void **state)
{
    (void)state;
    check_against_land(KT_DATA "/conv_small.kt-cache.json.gz", 1);
}

static void test_hub_t4(void **state)
{
    (void)state;
    check_against_land(KT_DATA "/conv_small.T4.json", 0);
}

/* A results file's "source" is untrusted too: only flat values are read back. */
static void test_source_refused(void **state)
{
    (void)state;
    static const char head[] = "{\"format\": \"cutune-results\", \"version\": 1, \"spec\": {\"kernel\": \"k\", "
                               "\"params\": []}, \"results\": [], \"source\": ";
    char text[512];
    cutune_tune_result *r = NULL;
    snprintf(text, sizeof text, "%s{\"tool\": {\"nested\": 1}}}", head);
    assert_int_equal(cutune_results_load(&r, put_text("s1.json", text)), CUTUNE_EIO);
    assert_non_null(strstr(cutune_last_error(), "s1.json: source: \"tool\" is neither a number"));
    snprintf(text, sizeof text, "%s[1, 2]}", head);
    assert_int_equal(cutune_results_load(&r, put_text("s2.json", text)), CUTUNE_EIO);
    assert_non_null(strstr(cutune_last_error(), "s2.json: source: is not an object"));
    snprintf(text, sizeof text, "%s{\"tool\": \"X\", \"format\": \"cache file\", \"file\": \"f\"}}", head);
    assert_int_equal(cutune_results_load(&r, put_text("s3.json", text)), CUTUNE_OK);
    assert_string_equal(cutune_tune_source(r), "X cache file 'f', device not recorded");
    cutune_tune_result_free(r);
}

static void test_arguments(void **state)
{
    (void)state;
    cutune_tune_result *r = NULL;
    assert_int_equal(cutune_import_results(NULL, NULL, "x", NULL), CUTUNE_EINVAL);
    assert_int_equal(cutune_import_results(&r, NULL, "x", NULL), CUTUNE_EINVAL);
    cutune_spec *s = load_spec();
    cutune_import_options o = {0};
    assert_int_equal(cutune_import_results(&r, s, put_text("c.json", cache_kinds), &o), CUTUNE_EINVAL);
    assert_int_equal(cutune_import_results(&r, s, "/nonexistent/kt.json", NULL), CUTUNE_EIO);
    assert_non_null(strstr(cutune_last_error(), "cannot read '/nonexistent/kt.json'"));
    cutune_spec_free(s);
    assert_null(cutune_tune_source(NULL));
}

/* Imported and written in one call: the file is a results file of the same entries, and
 * what was done names the source and the output; a failure writes nothing, says nothing. */
static void test_results_to(void **state)
{
    (void)state;
    cutune_spec *s = load_spec();
    char out[300], *said = NULL;
    snprintf(out, sizeof out, "%s/to.json", tmpdir);
    const char *cache = put_text("to-cache.json", CACHE_HEAD "\n\"16,1\": {\"bx\": 16, \"by\": 1, \"time\": 1.0}}}\n");
    assert_int_equal(cutune_import_results_to(&said, s, cache, out, NULL), CUTUNE_OK);
    char tail[400];
    snprintf(tail, sizeof tail, "\nresults: %s\n", out);
    assert_true(strlen(said) > strlen(tail));
    assert_string_equal(said + strlen(said) - strlen(tail), tail);
    assert_non_null(strstr(said, "cache file"));
    cutune_free(said);
    cutune_tune_result *r = NULL;
    assert_int_equal(cutune_results_load(&r, out), CUTUNE_OK);
    assert_int_equal(cutune_tune_count(r), 1);
    cutune_tune_result_free(r);
    said = (char *)"untouched";
    snprintf(out, sizeof out, "%s/never.json", tmpdir);
    assert_int_equal(cutune_import_results_to(&said, s, "/nonexistent/kt.json", out, NULL), CUTUNE_EIO);
    assert_null(said);
    assert_int_equal(access(out, F_OK), -1);
    assert_int_equal(cutune_import_results_to(NULL, s, cache, NULL, NULL), CUTUNE_EINVAL);
    cutune_spec_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_kinds), cmocka_unit_test(test_t4_kinds),       cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_open_cache),  cmocka_unit_test(test_gzip_damage),    cmocka_unit_test(test_hub_cache),
        cmocka_unit_test(test_hub_t4),      cmocka_unit_test(test_source_refused), cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_results_to),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
