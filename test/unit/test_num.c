/* test_num.c - the one reader per kind of number (base/num.h): the whole text,
 * decimal, no blanks, '+', hex, inf or nan; out of range refused, never saturated or
 * wrapped; a double's suffix handed back only when asked for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "base/num.h"

static void test_int(void **state)
{
    (void)state;
    long long v = 7;
    assert_true(num_read_int("42", 0, 100, &v));
    assert_int_equal(v, 42);
    assert_true(num_read_int("-5", -5, 5, &v));
    assert_int_equal(v, -5);
    assert_true(num_read_int("9223372036854775807", 0, INT64_MAX, &v));
    assert_true(v == INT64_MAX);
    v = 7; /* refused: *out untouched */
    const char *bad[] = {"", "-", "+1", " 1", "1 ", "0x10", "1.0", "1e3", "abc", "9223372036854775808", "--1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_false(num_read_int(bad[i], INT64_MIN, INT64_MAX, &v));
    assert_false(num_read_int(NULL, 0, 1, &v));
    assert_false(num_read_int("101", 0, 100, &v)); /* out of range: refused, not clamped */
    assert_false(num_read_int("-1", 0, 100, &v));
    assert_int_equal(v, 7);
}

static void test_uint(void **state)
{
    (void)state;
    uint64_t v = 7;
    assert_true(num_read_uint("18446744073709551615", UINT64_MAX, &v));
    assert_true(v == UINT64_MAX);
    assert_true(num_read_uint("0", 10, &v));
    assert_true(v == 0);
    v = 7;
    assert_false(num_read_uint("18446744073709551616", UINT64_MAX, &v)); /* 2^64: not 2^64 - 1 */
    assert_false(num_read_uint("-1", UINT64_MAX, &v));                   /* not 2^64 - 1 */
    assert_false(num_read_uint("11", 10, &v));
    assert_false(num_read_uint("+3", 10, &v));
    assert_false(num_read_uint("", 10, &v));
    assert_false(num_read_uint(NULL, 10, &v));
    assert_true(v == 7);
}

static void test_double(void **state)
{
    (void)state;
    double v = 0;
    assert_true(num_read_double("1.5", NULL, &v));
    assert_true(v == 1.5);
    assert_true(num_read_double(".5", NULL, &v));
    assert_true(v == 0.5);
    assert_true(num_read_double("5.", NULL, &v));
    assert_true(v == 5);
    assert_true(num_read_double("-2e3", NULL, &v));
    assert_true(v == -2000);
    assert_true(num_read_double("1E+2", NULL, &v));
    assert_true(v == 100);
    v = 7;
    const char *bad[] = {"", ".", "-", "inf", "nan", "1e400", "0x10", " 1", "+1", "1 ", "5%", "e5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_false(num_read_double(bad[i], NULL, &v));
    assert_false(num_read_double(NULL, NULL, &v));
    assert_true(v == 7);
    /* with `rest`: the number, then what follows it */
    const char *rest = NULL;
    assert_true(num_read_double("90s", &rest, &v));
    assert_true(v == 90);
    assert_string_equal(rest, "s");
    assert_true(num_read_double("2.5%", &rest, &v));
    assert_string_equal(rest, "%");
    assert_true(num_read_double("3e", &rest, &v)); /* an 'e' without digits is the suffix */
    assert_true(v == 3);
    assert_string_equal(rest, "e");
    assert_false(num_read_double("min", &rest, &v));
}

static void test_list(void **state)
{
    (void)state;
    int out[4] = {0}, n = -1;
    assert_true(num_read_list("0,1,3", 0, 10, out, 4, &n));
    assert_int_equal(n, 3);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[2], 3);
    assert_true(num_read_list("7", 0, 10, out, 4, &n));
    assert_int_equal(n, 1);
    assert_int_equal(out[0], 7);
    assert_true(num_read_list("2,2", 0, 10, out, 4, &n)); /* the same twice: the caller judges */
    assert_int_equal(n, 2);
    const char *bad[] = {"",
                         ",",
                         ",1",
                         "0,",
                         "0,,1",
                         "0, 1",
                         "a",
                         "0,x",
                         "11",
                         "-1",
                         "1,2,3,4,5",
                         "+1",
                         "000000000000000000000001"}; /* the last: 24 characters */
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        n = -1;
        assert_false(num_read_list(bad[i], 0, 10, out, 4, &n));
        assert_int_equal(n, 0);
    }
    assert_false(num_read_list(NULL, 0, 10, out, 4, &n));
    assert_true(num_read_list("00000000000000000000001", 0, 10, out, 4, &n)); /* 23 characters */
}

static void test_format_count(void **state)
{
    (void)state;
    char buf[32], small[4];
    assert_string_equal(num_format_count(0, buf, sizeof buf), "0");
    assert_string_equal(num_format_count(999, buf, sizeof buf), "999");
    assert_string_equal(num_format_count(1000, buf, sizeof buf), "1,000");
    assert_string_equal(num_format_count(22200000, buf, sizeof buf), "22,200,000");
    assert_string_equal(num_format_count(UINT64_MAX, buf, sizeof buf), "18,446,744,073,709,551,615");
    assert_string_equal(num_format_count(123456, small, sizeof small), "12"); /* cut to the buffer */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_int),  cmocka_unit_test(test_uint),         cmocka_unit_test(test_double),
        cmocka_unit_test(test_list), cmocka_unit_test(test_format_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
