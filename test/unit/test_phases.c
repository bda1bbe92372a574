/* test_phases.c - the phase account (base/phases.h) on a fake clock: every moment in one
 * phase, the loop's overlay while busy, time measured elsewhere split without ever
 * counting more than the wait; and a run's account as a results file carries it and the
 * account text prints it (cutune_tune_account): phases and GPU work as tables whose rows
 * add up to their totals, what a file says checked as untrusted; the compile counts as
 * recorded, or "not recorded". */
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

#include "base/phases.h"
#include "base/sys.h"
#include "cutune.h"

#define RECORDED CUTUNE_SOURCE_DIR "/test/data/report-sum_matrix-h100.json"

/* The fake clock: what the test says the time is. */
static double fake_now;
static double fake_clock(void *ctx)
{
    (void)ctx;
    return fake_now;
}

enum { A, B, C, D, N };

static void test_each_moment_in_one_phase(void **state)
{
    (void)state;
    phases p;
    fake_now = 100;
    phases_init(&p, N, A, fake_clock, NULL);
    fake_now = 101.5;
    assert_int_equal(phases_enter(&p, B), A); /* 1.5 s in A */
    fake_now = 104;
    phases_enter(&p, C); /* 2.5 s in B */
    fake_now = 104.25;
    phases_enter(&p, 99); /* out of range: ignored, the time still counted (C) */
    assert_int_equal(phases_now(&p), C);
    fake_now = 105;
    phases_tick(&p);
    assert_true(p.seconds[A] == 1.5 && p.seconds[B] == 2.5 && p.seconds[C] == 1.0 && p.seconds[D] == 0);
    assert_true(phases_total(&p) == 5.0); /* the clock's 100 to 105, all of it, once */
    fake_now = 104;                       /* a clock that goes back counts nothing */
    phases_tick(&p);
    assert_true(phases_total(&p) == 5.0);
}

static void test_busy_overlay(void **state)
{
    (void)state;
    phases p;
    fake_now = 0;
    phases_init(&p, N, A, fake_clock, NULL);
    phases_overlay(&p, B, C); /* while busy in B, C counts */
    phases_busy(&p, 1);       /* busy in A: no overlay */
    fake_now = 1;
    phases_enter(&p, B);
    assert_int_equal(phases_now(&p), C);
    fake_now = 3;
    phases_busy(&p, 1); /* two busy */
    fake_now = 4;
    phases_busy(&p, -1);
    fake_now = 5;
    phases_busy(&p, -1); /* none: B again */
    assert_int_equal(phases_now(&p), B);
    fake_now = 7;
    phases_busy(&p, -1); /* never below none */
    assert_int_equal(p.busy, 0);
    fake_now = 8;
    phases_tick(&p);
    assert_true(p.seconds[A] == 1 && p.seconds[C] == 4 && p.seconds[B] == 3);
    assert_true(phases_total(&p) == 8);
}

static void test_split_never_counts_more_than_the_wait(void **state)
{
    (void)state;
    phases p;
    fake_now = 10;
    phases_init(&p, N, A, fake_clock, NULL);
    fake_now = 12; /* a wait of 2 s, of which the worker says 0.5 in B, 1 in C, 3 in D */
    const double parts[] = {0.5, 1.0, 3.0};
    const int into[] = {B, C, D};
    phases_split(&p, parts, into, 3);
    assert_true(p.seconds[B] == 0.5 && p.seconds[C] == 1.0 && p.seconds[D] == 0.5 && p.seconds[A] == 0);
    fake_now = 14; /* parts that are not figures count nothing; the wait is A's */
    const double bad[] = {NAN, -1, INFINITY};
    phases_split(&p, bad, into, 3);
    assert_true(p.seconds[A] == 2.0 && phases_total(&p) == 4.0);
}

static void test_add_and_move(void **state)
{
    (void)state;
    phases p;
    fake_now = 0;
    phases_init(&p, N, B, fake_clock, NULL);
    phases_add(&p, A, 0.75); /* before the clock began */
    phases_add(&p, A, -1);
    phases_add(&p, A, NAN);
    assert_true(phases_move(&p, A, C, 0.25) == 0.25);
    assert_true(phases_move(&p, A, C, 5) == 0.5); /* never more than A holds */
    assert_true(phases_move(&p, A, C, 1) == 0);
    fake_now = 2;
    phases_tick(&p);
    assert_true(p.seconds[A] == 0 && p.seconds[C] == 0.75 && p.seconds[B] == 2);
    assert_true(phases_total(&p) == 2.75);
}

/* The process's age, by the kernel's start time: this test's process has just begun (a
 * ctest run starts it), and it grows as the monotonic clock does. */
static void test_process_age(void **state)
{
    (void)state;
    double a = sys_process_age(), t = sys_seconds();
#ifdef __linux__
    assert_true(a >= 0 && a < 600);
    while (sys_seconds() - t < 0.05)
        ;
    double b = sys_process_age();
    assert_true(b - a > 0.03 && b - a < 1.0); /* clock ticks of 10 ms */
#else
    assert_true(a == -1 || a >= 0);
#endif
}

/* ---- a run's account in a results file and in the account text ------------------ */

#include "scratch.h"

/* The recording with `fields` (a JSON object, stolen; each member set in its summary,
 * a null member left out), written to tmpdir/NAME and loaded. */
static cutune_tune_result *with_summary(const char *name, json_t *fields)
{
    json_error_t jerr;
    json_t *root = json_load_file(RECORDED, 0, &jerr);
    assert_non_null(root);
    assert_non_null(fields);
    json_t *sum = json_object_get(root, "summary");
    const char *key;
    json_t *v;
    json_object_foreach(fields, key, v)
    {
        if (!json_is_null(v))
            json_object_set(sum, key, v);
    }
    json_decref(fields);
    char path[128];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    assert_int_equal(json_dump_file(root, path, 0), 0);
    json_decref(root);
    cutune_tune_result *r = NULL;
    if (cutune_results_load(&r, path) != CUTUNE_OK)
        fail_msg("%s: %s", path, cutune_last_error());
    return r;
}

/* The recording with `phases` and `gpu_work` (JSON objects, stolen) in its summary. */
static cutune_tune_result *with_account(const char *name, json_t *phases_obj, json_t *work_obj)
{
    return with_summary(name, json_pack("{s:o, s:o}", "phases", phases_obj, "gpu_work", work_obj));
}

/* The line of `text` that begins with `start` (after its indent), or fails. */
static const char *line_of(const char *text, const char *start)
{
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        const char *b = l + strspn(l, " ");
        if (strncmp(b, start, strlen(start)) == 0)
            return b;
    }
    fail_msg("no line '%s' in:\n%s", start, text);
    return NULL;
}

static bool has_line(const char *text, const char *start)
{
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (strncmp(l + strspn(l, " "), start, strlen(start)) == 0)
            return true;
    return false;
}

static void test_account_tables_add_up(void **state)
{
    (void)state;
    /* 10 s in all: 0.5 + 1.5 + 1 + 6 + 1 */
    json_t *ph = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "start", 0.5, "device", 1.5, "compile", 1.0, "gpu", 6.0,
                           "other", 1.0, "race", 0.0);
    /* 4 s of GPU workers' time: 1.5 timing (0.5 + 1) and 2.5 besides; flushes within */
    json_t *work = json_pack("{s:f, s:f, s:f, s:f, s:f, s:f}", "warmup", 0.5, "samples", 1.0, "load", 2.0, "poison",
                             0.25, "other", 0.25, "flush", 0.125);
    cutune_tune_result *r = with_account("acct.json", ph, work);
    const cutune_tune_summary *s = cutune_tune_summary_of(r);
    assert_true(s->phases_wall_seconds == 10.0);
    assert_true(s->phase_seconds[CUTUNE_PHASE_GPU] == 6.0 && s->phase_seconds[CUTUNE_PHASE_START] == 0.5);
    assert_true(s->work_seconds[CUTUNE_WORK_LOAD] == 2.0 && s->work_seconds[CUTUNE_WORK_FLUSH] == 0.125);
    char *text = NULL;
    assert_int_equal(cutune_tune_account(&text, r), CUTUNE_OK);
    assert_non_null(strstr(line_of(text, "where the time went"), "10.000 s"));
    const char *row = line_of(text, "GPU work ");
    assert_non_null(strstr(row, "6.000 s"));
    assert_non_null(strstr(row, "60.0 %"));
    assert_non_null(strstr(line_of(text, "process start"), "5.0 %"));
    assert_non_null(strstr(line_of(text, "driver and context"), "15.0 %"));
    assert_non_null(strstr(line_of(text, "other "), "1.000 s"));
    assert_false(has_line(text, "final race")); /* no time: no row */
    const char *gpu = line_of(text, "GPU workers' time");
    assert_non_null(strstr(gpu, "4.000 s"));
    assert_non_null(strstr(gpu, "1.500 s timing"));
    assert_non_null(strstr(gpu, "2.500 s besides"));
    assert_non_null(strstr(line_of(text, "module loads"), "50.0 %"));
    assert_non_null(strstr(line_of(text, "output poisoning"), "6.2 %")); /* 6.25 */
    assert_non_null(strstr(line_of(text, "(L2 flushes"), "0.125 s"));
    cutune_free(text);

    /* Written again and read back: the same figures (the file's own account). */
    char path[128];
    snprintf(path, sizeof path, "%s/again.json", tmpdir);
    assert_int_equal(cutune_tune_write_results(r, path), CUTUNE_OK);
    cutune_tune_result *back = NULL;
    assert_int_equal(cutune_results_load(&back, path), CUTUNE_OK);
    const cutune_tune_summary *b = cutune_tune_summary_of(back);
    for (int k = 0; k < CUTUNE_PHASE_COUNT; k++)
        assert_true(b->phase_seconds[k] == s->phase_seconds[k]);
    for (int k = 0; k < CUTUNE_WORK_COUNT; k++)
        assert_true(b->work_seconds[k] == s->work_seconds[k]);
    assert_true(b->phases_wall_seconds == 10.0);
    cutune_tune_result_free(back);
    cutune_tune_result_free(r);
}

static void test_untrusted_account(void **state)
{
    (void)state;
    /* a negative, a string, a NaN-ish null and a "wall" that is not the sum: the wall is
     * what the phases read add up to */
    json_t *ph =
        json_pack("{s:f, s:s, s:n, s:f, s:f}", "start", -3.0, "device", "lots", "gpu", "compile", 2.0, "wall", 99.0);
    json_t *work = json_pack("{s:f, s:s}", "load", -1.0, "check", "x");
    cutune_tune_result *r = with_account("bad.json", ph, work);
    const cutune_tune_summary *s = cutune_tune_summary_of(r);
    assert_true(s->phase_seconds[CUTUNE_PHASE_START] == 0 && s->phase_seconds[CUTUNE_PHASE_DEVICE] == 0);
    assert_true(s->phase_seconds[CUTUNE_PHASE_COMPILE] == 2.0 && s->phases_wall_seconds == 2.0);
    for (int k = 0; k < CUTUNE_WORK_COUNT; k++)
        assert_true(s->work_seconds[k] == 0);
    char *text = NULL;
    assert_int_equal(cutune_tune_account(&text, r), CUTUNE_OK);
    assert_false(has_line(text, "GPU workers' time")); /* nothing measured: no table */
    cutune_free(text);
    cutune_tune_result_free(r);

    /* A file without them (every file before them): no table at all. */
    cutune_tune_result *old = NULL;
    assert_int_equal(cutune_results_load(&old, RECORDED), CUTUNE_OK);
    assert_true(cutune_tune_summary_of(old)->phases_wall_seconds == 0);
    assert_int_equal(cutune_tune_account(&text, old), CUTUNE_OK);
    assert_false(has_line(text, "where the time went"));
    cutune_free(text);
    cutune_tune_result_free(old);
}

/* The summary with `compiled` and `cached` set to these JSON values (stolen; NULL: left
 * out). */
static cutune_tune_result *with_counts(const char *name, json_t *compiled, json_t *cached)
{
    return with_summary(name, json_pack("{s:o, s:o}", "compiled", compiled ? compiled : json_null(), "cached",
                                        cached ? cached : json_null()));
}

/* The account's compile counts: as the file records them, through a write and a load;
 * "not recorded" for a file without them (every file before them) or with a count that
 * is none, never a zero the run did not have. */
static void test_account_compile_counts(void **state)
{
    (void)state;
    cutune_tune_result *r = with_counts("counts.json", json_integer(12), json_integer(3));
    char *text = NULL;
    assert_int_equal(cutune_tune_account(&text, r), CUTUNE_OK);
    assert_non_null(strstr(line_of(text, "wall "), "threads (12 compiled, 3 cached), GPU"));
    cutune_free(text);
    char path[128];
    snprintf(path, sizeof path, "%s/counts-again.json", tmpdir);
    assert_int_equal(cutune_tune_write_results(r, path), CUTUNE_OK);
    cutune_tune_result *back = NULL;
    assert_int_equal(cutune_results_load(&back, path), CUTUNE_OK);
    assert_true(cutune_tune_summary_of(back)->compiled == 12 && cutune_tune_summary_of(back)->cached == 3);
    cutune_tune_result_free(back);
    cutune_tune_result_free(r);

    struct {
        const char *name;
        json_t *compiled, *cached;
    } none[] = {
        {"old.json", NULL, NULL},
        {"negative.json", json_integer(-4), json_integer(3)},
        {"string.json", json_integer(5), json_string("many")},
    };
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        r = with_counts(none[i].name, none[i].compiled, none[i].cached);
        assert_int_equal(cutune_tune_account(&text, r), CUTUNE_OK);
        if (!strstr(line_of(text, "wall "), "threads (binaries not recorded), GPU"))
            fail_msg("%s: %s", none[i].name, line_of(text, "wall "));
        cutune_free(text);
        /* written again, still without them: not a -1 in the file */
        snprintf(path, sizeof path, "%s/again-%s", tmpdir, none[i].name);
        assert_int_equal(cutune_tune_write_results(r, path), CUTUNE_OK);
        json_error_t jerr;
        json_t *root = json_load_file(path, 0, &jerr);
        assert_non_null(root);
        assert_null(json_object_get(json_object_get(root, "summary"), "compiled"));
        json_decref(root);
        cutune_tune_result_free(r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_moment_in_one_phase),
        cmocka_unit_test(test_busy_overlay),
        cmocka_unit_test(test_split_never_counts_more_than_the_wait),
        cmocka_unit_test(test_add_and_move),
        cmocka_unit_test(test_process_age),
        cmocka_unit_test(test_account_tables_add_up),
        cmocka_unit_test(test_untrusted_account),
        cmocka_unit_test(test_account_compile_counts),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
