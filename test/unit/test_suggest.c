/* test_suggest.c - edit distance and "did you mean". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "base/suggest.h"

static void test_distance(void **state)
{
    (void)state;
    assert_int_equal(suggest_distance("", ""), 0);
    assert_int_equal(suggest_distance("abc", ""), 3);
    assert_int_equal(suggest_distance("kitten", "sitting"), 3);
    assert_int_equal(suggest_distance("param", "parm"), 1);    /* deletion */
    assert_int_equal(suggest_distance("warmup", "warmpu"), 1); /* transposition */
    assert_int_equal(suggest_distance("block_x", "blok_x"), 1);
}

static void test_best(void **state)
{
    (void)state;
    const char *names[] = {"block_x", "block_y", "tile_y", "maxrreg"};
    assert_string_equal(suggest_best("blok_x", names, 4), "block_x");
    assert_string_equal(suggest_best("tile_x", names, 4), "tile_y");
    assert_string_equal(suggest_best("Block_X", names, 4), "block_x"); /* case only */
    assert_null(suggest_best("zzz", names, 4));                        /* nothing close */
    assert_string_equal(suggest_best("block_z", names, 4), "block_x"); /* a tie: the first */
    assert_null(suggest_best("a", names, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distance),
        cmocka_unit_test(test_best),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
