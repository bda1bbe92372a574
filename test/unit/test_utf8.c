/* test_utf8.c - UTF-8 validity (RFC 3629) and the repair that keeps text writable as
 * JSON. Expected offsets are worked out by hand from the byte sequences. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/utf8.h"

static size_t check(const char *s)
{
    return utf8_check(s, strlen(s));
}

static void test_valid(void **state)
{
    (void)state;
    assert_int_equal(check(""), 0);
    assert_int_equal(check("plain ascii"), 11);
    assert_int_equal(check("caf\xc3\xa9"), 5);      /* é */
    assert_int_equal(check("\xe2\x82\xac"), 3);     /* € */
    assert_int_equal(check("\xf0\x9f\x98\x80"), 4); /* U+1F600 */
    assert_int_equal(check("\xf4\x8f\xbf\xbf"), 4); /* U+10FFFF, the last */
    assert_int_equal(check("\xed\x9f\xbf"), 3);     /* U+D7FF, below the surrogates */
}

static void test_invalid(void **state)
{
    (void)state;
    assert_int_equal(check("ab\xff"), 2);           /* never a UTF-8 byte */
    assert_int_equal(check("a\x80"), 1);            /* stray continuation */
    assert_int_equal(check("\xc0\xaf"), 0);         /* overlong '/' */
    assert_int_equal(check("\xe0\x80\xaf"), 0);     /* overlong, 3 bytes */
    assert_int_equal(check("\xf0\x80\x80\xaf"), 0); /* overlong, 4 bytes */
    assert_int_equal(check("\xed\xa0\x80"), 0);     /* U+D800, a surrogate */
    assert_int_equal(check("\xf4\x90\x80\x80"), 0); /* U+110000 */
    assert_int_equal(check("xy\xe2\x82"), 2);       /* cut short at the end */
    assert_int_equal(check("\xc3\x28"), 0);         /* bad continuation */
}

static void test_sanitize(void **state)
{
    (void)state;
    char *s = utf8_sanitize("ok \xc3\xa9 \xff!");
    assert_non_null(s);
    assert_string_equal(s, "ok \xc3\xa9 \xef\xbf\xbd!");
    assert_int_equal(check(s), strlen(s));
    free(s);
    s = utf8_sanitize("\xe2\x82"); /* two bytes of a cut € */
    assert_non_null(s);
    assert_string_equal(s, "\xef\xbf\xbd\xef\xbf\xbd");
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid),
        cmocka_unit_test(test_invalid),
        cmocka_unit_test(test_sanitize),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
