/* test_failures.c - where a run's failed variants lie (emit/failures.h), through the
 * account text a run prints (cutune_tune_account): results files written here, of a
 * space a x b x c, whose wrong, crashed and uncompiled variants are placed by the test; the line
 * must name exactly the params the failures do not spread over, their values, and how
 * many of the variants that ran with those values failed. */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cutune.h"
#include "scratch.h"

/* The status of configuration (a, b, c) in a file. */
typedef const char *(*placing)(int a, int b, const char *c);

/* A results file of the space a in 1..6, b in 0..1, c in "x", "y" (24 variants), each
 * with the status `place` gives it, written to tmpdir/NAME and loaded. */
static cutune_tune_result *results_of(const char *name, placing place)
{
    json_t *res = json_array();
    static const char *const cs[] = {"x", "y"};
    for (int a = 1; a <= 6; a++)
        for (int b = 0; b <= 1; b++)
            for (int k = 0; k < 2; k++) {
                const char *status = place(a, b, cs[k]);
                bool ok = strcmp(status, "ok") == 0;
                double ms = 1.0 + a * 0.1 + b + k * 0.01;
                json_t *e =
                    json_pack("{s:I, s:{s:i, s:i, s:s}, s:s, s:[i,i,i], s:[i,i,i], s:f, s:f}", "index",
                              (json_int_t)json_array_size(res), "params", "a", a, "b", b, "c", cs[k], "status", status,
                              "block", 32, 1, 1, "grid", 1, 1, 1, "gpu_seconds", 0.01, "compile_seconds", 0.1);
                if (ok) {
                    json_object_set_new(e, "objective", json_real(ms));
                    json_object_set_new(e, "time_ms",
                                        json_pack("{s:f, s:f, s:f, s:f, s:f}", "median", ms, "min", ms, "max", ms, "q1",
                                                  ms, "q3", ms));
                }
                json_array_append_new(res, e);
            }
    json_t *doc = json_pack("{s:s, s:i, s:{s:s, s:[{s:s, s:s}, {s:s, s:s}, {s:s, s:s}]}, s:{s:s, s:s}, s:o}", "format",
                            "cutune-results", "version", 1, "spec", "kernel", "k", "params", "name", "a", "type", "int",
                            "name", "b", "type", "int", "name", "c", "type", "string", "objective", "name", "time",
                            "direction", "minimize", "results", res);
    assert_non_null(doc);
    char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    assert_int_equal(json_dump_file(doc, path, 0), 0);
    json_decref(doc);
    cutune_tune_result *r = NULL;
    if (cutune_results_load(&r, path) != CUTUNE_OK)
        fail_msg("%s: %s", path, cutune_last_error());
    return r;
}

/* The account's line that begins "the " and holds `what`, or NULL. */
static char *line_with(const cutune_tune_result *r, const char *what)
{
    char *text = NULL;
    assert_int_equal(cutune_tune_account(&text, r), CUTUNE_OK);
    char *found = NULL;
    for (char *l = text; l && *l;) {
        char *end = strchr(l, '\n');
        size_t n = end ? (size_t)(end - l) : strlen(l);
        if (strncmp(l, "the ", 4) == 0 && strstr(l, what) && strstr(l, what) < l + n) {
            found = strndup(l, n);
            break;
        }
        l = end ? end + 1 : NULL;
    }
    cutune_free(text);
    return found;
}

/* Wrong where b = 1 and a is 3 or 4 (whatever c); a = 1, b = 0, c = "x" cannot launch;
 * two crashes at a = 6, b = 0. */
static const char *region(int a, int b, const char *c)
{
    if (b == 1 && (a == 3 || a == 4))
        return "wrong";
    if (a == 1 && b == 0 && strcmp(c, "x") == 0)
        return "cannot launch";
    if (a == 6 && b == 0)
        return "crashed";
    return "ok";
}

static void test_names_the_region(void **state)
{
    (void)state;
    cutune_tune_result *r = results_of("region.json", region);
    char *wrong = line_with(r, "wrong variants");
    assert_non_null(wrong);
    /* c spreads over both values: not named; a and b are; 4 of the 4 that ran there */
    assert_string_equal(wrong, "the 4 wrong variants all have a 3 or 4, b 1; 4 of the 4 that ran with those values");
    char *gpu = line_with(r, "failed on the GPU");
    assert_non_null(gpu);
    assert_string_equal(gpu, "the 2 variants that failed on the GPU all have a 6, b 0; 2 of the 2 that ran with "
                             "those values");
    free(wrong);
    free(gpu);
    cutune_tune_result_free(r);
}

/* Wrong at a >= 2 with c = "y" except at a = 5, b = 0: a spans 5 of 6 values (named as a
 * range), and the region holds one that ran correctly. */
static const char *wide(int a, int b, const char *c)
{
    return a >= 2 && strcmp(c, "y") == 0 && !(a == 5 && b == 0) ? "wrong" : "ok";
}

static void test_counts_the_region(void **state)
{
    (void)state;
    cutune_tune_result *r = results_of("wide.json", wide);
    char *wrong = line_with(r, "wrong variants");
    assert_non_null(wrong);
    assert_string_equal(wrong, "the 9 wrong variants all have a 5 of its 6 values (2 to 6), c \"y\"; 9 of the 10 "
                               "that ran with those values");
    free(wrong);
    cutune_tune_result_free(r);
}

/* Compile errors at c = "y" with a >= 5 (4 of them), one wrong variant (no line for it):
 * the compile errors are placed against every variant given to the compiler. */
static const char *unbuilt(int a, int b, const char *c)
{
    (void)b;
    if (a >= 5 && strcmp(c, "y") == 0)
        return "compile error";
    return a == 1 && b == 0 && strcmp(c, "x") == 0 ? "wrong" : "ok";
}

static void test_names_compile_errors(void **state)
{
    (void)state;
    cutune_tune_result *r = results_of("unbuilt.json", unbuilt);
    char *line = line_with(r, "did not compile");
    assert_non_null(line);
    assert_string_equal(line, "the 4 variants that did not compile all have a 5 or 6, c \"y\"; 4 of the 4 with those "
                              "values");
    free(line);
    assert_null(line_with(r, "wrong variants"));
    cutune_tune_result_free(r);
}

/* No line: one wrong variant; wrong ones spread over every value; everything wrong. */
static const char *one(int a, int b, const char *c)
{
    return a == 2 && b == 1 && strcmp(c, "x") == 0 ? "wrong" : "ok";
}

static const char *everywhere(int a, int b, const char *c)
{
    (void)c;
    return (a + b) % 2 == 0 ? "wrong" : "ok";
}

static const char *all(int a, int b, const char *c)
{
    (void)a, (void)b, (void)c;
    return "wrong";
}

static void test_says_nothing_without_a_pattern(void **state)
{
    (void)state;
    placing cases[] = {one, everywhere, all};
    const char *names[] = {"one.json", "everywhere.json", "all.json"};
    for (int i = 0; i < 3; i++) {
        cutune_tune_result *r = results_of(names[i], cases[i]);
        char *line = line_with(r, "wrong variants");
        if (line)
            fail_msg("%s: %s", names[i], line);
        cutune_tune_result_free(r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_the_region),
        cmocka_unit_test(test_counts_the_region),
        cmocka_unit_test(test_names_compile_errors),
        cmocka_unit_test(test_says_nothing_without_a_pattern),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
