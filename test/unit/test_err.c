/* test_err.c - the error channel: set, wrap (context added, the lower code kept),
 * cut messages marked, one object per thread. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/err.h"

static void test_set_and_clear(void **state)
{
    (void)state;
    err_clear();
    assert_null(err_last());
    assert_int_equal(err_set(-5, "cannot open %s", "x.json"), -5);
    assert_non_null(err_last());
    assert_int_equal(err_last()->code, -5);
    assert_string_equal(err_last()->message, "cannot open x.json");
    assert_int_equal(err_set(-2, "later"), -2); /* a new failure replaces the old */
    assert_string_equal(err_last()->message, "later");
    err_clear();
    assert_null(err_last());
}

static void test_wrap_keeps_the_lower_code(void **state)
{
    (void)state;
    err_clear();
    err_set(-6, "no CUDA driver");
    assert_int_equal(err_wrap(-1, "tuning %s", "a.tune"), -6);
    assert_int_equal(err_wrap(-1, "run"), -6);
    assert_string_equal(err_last()->message, "run: tuning a.tune: no CUDA driver");
    assert_int_equal(err_last()->code, -6);
}

static void test_wrap_without_lower(void **state)
{
    (void)state;
    err_clear();
    assert_int_equal(err_wrap(-5, "writing %s", "r.json"), -5);
    assert_string_equal(err_last()->message, "writing r.json");
    err_clear();
    assert_int_equal(err_wrap(-3, "%s", ""), -3);
    assert_string_equal(err_last()->message, "error -3"); /* never an empty message */
}

/* A new message may quote the current one (formatted before it is replaced). */
static void test_set_quotes_the_last(void **state)
{
    (void)state;
    err_clear();
    err_set(-1, "truncated .npy header (9 bytes)");
    err_set(-2, "'%s' is not a results file: %s (%s)", "r.json", err_last()->message, "entry 3");
    assert_string_equal(err_last()->message, "'r.json' is not a results file: truncated .npy header (9 bytes) "
                                             "(entry 3)");
    assert_int_equal(err_last()->code, -2);
}

/* A layer with its own status keeps the lower message under its code. */
static void test_recode_keeps_the_message(void **state)
{
    (void)state;
    err_clear();
    err_set(-1, "cuInit failed: CUDA_ERROR_NO_DEVICE");
    assert_int_equal(err_recode(-6), -6);
    assert_int_equal(err_last()->code, -6);
    assert_string_equal(err_last()->message, "cuInit failed: CUDA_ERROR_NO_DEVICE");
    err_clear();
    assert_int_equal(err_recode(-2), -2);
    assert_string_equal(err_last()->message, "error -2"); /* never an empty message */
}

static void test_cut_is_marked(void **state)
{
    (void)state;
    char *big = malloc(10000);
    assert_non_null(big);
    memset(big, 'p', 9999);
    big[9999] = '\0';
    err_set(-5, "%s", big);
    size_t n = strlen(err_last()->message);
    assert_int_equal(n, ERR_MESSAGE_MAX - 1);
    assert_string_equal(err_last()->message + n - 3, "...");
    err_set(-5, "short");
    err_wrap(-1, "%s", big); /* context alone overflows */
    n = strlen(err_last()->message);
    assert_int_equal(n, ERR_MESSAGE_MAX - 1);
    assert_string_equal(err_last()->message + n - 3, "...");
    free(big);
}

static void *other_thread(void *arg)
{
    (void)arg;
    int *seen = malloc(sizeof *seen);
    *seen = err_last() == NULL; /* the main thread's error is not this thread's */
    err_set(-9, "thread");
    return seen;
}

static void test_per_thread(void **state)
{
    (void)state;
    err_set(-4, "main");
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, other_thread, NULL), 0);
    void *ret;
    assert_int_equal(pthread_join(t, &ret), 0);
    assert_int_equal(*(int *)ret, 1);
    free(ret);
    assert_string_equal(err_last()->message, "main");
    assert_int_equal(err_last()->code, -4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set_and_clear),       cmocka_unit_test(test_wrap_keeps_the_lower_code),
        cmocka_unit_test(test_wrap_without_lower),  cmocka_unit_test(test_recode_keeps_the_message),
        cmocka_unit_test(test_set_quotes_the_last), cmocka_unit_test(test_cut_is_marked),
        cmocka_unit_test(test_per_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
