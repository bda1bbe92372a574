/* test_npy.c - the .npy header reader (base/npy.c): versions 1, 2 and 3, dtypes, shapes,
 * fortran order, and the malformed and truncated headers it must refuse. Headers are
 * written here byte by byte, as NumPy's format.py writes them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "last_err.h"
#include "base/npy.h"

/* An .npy header of format version `major` around the dict text, padded with spaces and
 * ended by '\n' to a multiple of 64 bytes, as NumPy does; returns its length. */
static size_t make(unsigned char *buf, int major, const char *dict)
{
    size_t pre = major == 1 ? 10 : 12, n = strlen(dict);
    size_t total = (pre + n + 1 + 63) / 64 * 64, hlen = total - pre;
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (unsigned char)major;
    buf[7] = 0;
    for (size_t i = 0; i < pre - 8; i++)
        buf[8 + i] = (unsigned char)(hlen >> (8 * i));
    memcpy(buf + pre, dict, n);
    memset(buf + pre + n, ' ', hlen - n - 1);
    buf[total - 1] = '\n';
    return total;
}

static void test_version_one_float(void **state)
{
    (void)state;
    unsigned char buf[256];
    size_t n = make(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1024,), }");
    npy_info info;
    assert_int_equal(npy_parse(buf, n, &info), 0);
    assert_int_equal(info.major, 1);
    assert_string_equal(info.descr, "<f4");
    assert_int_equal(info.kind, 'f');
    assert_int_equal(info.itemsize, 4);
    assert_int_equal(info.byteorder, '<');
    assert_false(info.fortran_order);
    assert_int_equal(info.ndim, 1);
    assert_int_equal(info.count, 1024);
    assert_int_equal(info.data_bytes, 4096);
    assert_int_equal(info.data_offset, n); /* the data follows the header, on a 64-byte boundary */
    assert_int_equal(n, 128);
    char shape[64];
    npy_shape_text(&info, shape, sizeof shape);
    assert_string_equal(shape, "(1024,)");
}

static void test_versions_two_and_three_and_shapes(void **state)
{
    (void)state;
    unsigned char buf[256];
    npy_info info;
    char shape[64];
    size_t n = make(buf, 2, "{\"descr\": \"|u1\", \"fortran_order\": False, \"shape\": (3, 4, 5)}");
    assert_int_equal(npy_parse(buf, n, &info), 0);
    assert_int_equal(info.major, 2);
    assert_int_equal(info.kind, 'u');
    assert_int_equal(info.itemsize, 1);
    assert_int_equal(info.count, 60);
    assert_int_equal(info.data_offset, n);
    npy_shape_text(&info, shape, sizeof shape);
    assert_string_equal(shape, "(3, 4, 5)");
    n = make(buf, 3, "{'descr': '<i8', 'fortran_order': False, 'shape': (), }");
    assert_int_equal(npy_parse(buf, n, &info), 0);
    assert_int_equal(info.ndim, 0);
    assert_int_equal(info.count, 1); /* a 0-d array holds one element */
    n = make(buf, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (576460752303423488,), }");
    assert_int_equal(npy_parse(buf, n, &info), 0); /* 2^62 bytes: the size fits */
    assert_true(info.data_bytes == (uint64_t)1 << 62);
    n = make(buf, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (7, 0), }");
    assert_int_equal(npy_parse(buf, n, &info), 0);
    assert_int_equal(info.count, 0);
    n = make(buf, 1, "{'shape': (2L, 3L), 'fortran_order': True, 'descr': '>f8'}"); /* keys in any order, py2 longs */
    assert_int_equal(npy_parse(buf, n, &info), 0);
    assert_int_equal(info.count, 6);
    assert_int_equal(info.byteorder, '>');
    assert_true(info.fortran_order);
}

static void test_fortran_order_layout(void **state)
{
    (void)state;
    unsigned char buf[256];
    npy_info info;
    size_t n = make(buf, 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (32, 32), }");
    assert_int_equal(npy_parse(buf, n, &info), 0);
    assert_false(npy_layout_is_c(&info)); /* a real matrix in column order */
    n = make(buf, 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (1, 32), }");
    assert_int_equal(npy_parse(buf, n, &info), 0);
    assert_true(npy_layout_is_c(&info)); /* one dimension above 1: both orders agree */
}

/* Each malformed header is refused with a message that says what is wrong. */
static void test_malformed_and_truncated(void **state)
{
    (void)state;
    unsigned char buf[256];
    npy_info info;
    static const struct {
        const char *dict, *says;
    } bad[] = {
        {"{'descr': '<f4', 'fortran_order': False}", "lacks 'shape'"},
        {"{'descr': '<f4', 'shape': (4,)}", "lacks 'fortran_order'"},
        {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (4,)}", "structured dtype"},
        {"{'descr': '<f4', 'fortran_order': Maybe, 'shape': (4,)}", "malformed"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4,}", "malformed"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (-4,)}", "malformed"},
        {"{'descr': 'f4', 'fortran_order': False, 'shape': (4,)}", "not a simple type"},
        {"{'descr': '<f', 'fortran_order': False, 'shape': (4,)}", "no element size"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16)}", "overflows"},
        /* counts that fit 64 bits, bytes that do not (they wrapped to a few bytes) */
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904,)}", "bytes of data"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2305843009213693952,)}", "bytes of data"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (1024, 1125899906842624)}", "bytes of data"},
        {"['descr', '<f4']", "malformed"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'extra': 1}", "malformed"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        size_t n = make(buf, 1, bad[i].dict);
        err_clear();
        if (npy_parse(buf, n, &info) == 0)
            fail_msg("accepted: %s", bad[i].dict);
        if (!strstr(last_err(), bad[i].says))
            fail_msg("%s: said '%s', want '%s'", bad[i].dict, last_err(), bad[i].says);
    }
    size_t n = make(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }");
    assert_int_equal(npy_parse(buf, 40, &info), -1); /* the header cut short */
    assert_non_null(strstr(last_err(), "truncated"));
    assert_int_equal(npy_parse(buf, 9, &info), -1);
    assert_non_null(strstr(last_err(), "truncated"));
    buf[6] = 4; /* version 4.0 does not exist */
    assert_int_equal(npy_parse(buf, n, &info), -1);
    assert_non_null(strstr(last_err(), "version 4.0"));
    assert_int_equal(npy_parse((const unsigned char *)"PK\x03\x04 a zip file", 18, &info), -1);
    assert_non_null(strstr(last_err(), "not an .npy file"));
}

/* Every prefix of a header, and every single byte of it changed to each of a few
 * values, is parsed without reading past what it is given (run under ASan by the
 * sanitizer build): refused, or accepted with a data offset within the file. */
static void test_every_prefix_and_byte(void **state)
{
    (void)state;
    unsigned char good[256];
    size_t n = make(good, 2, "{'descr': '<u2', 'fortran_order': False, 'shape': (3, 5), }");
    static const unsigned char values[] = {0, ' ', '\'', '(', ')', ',', '9', 'L', '}', 0xff};
    npy_info info;
    for (size_t len = 0; len <= n; len++) {
        unsigned char *copy = malloc(len ? len : 1);
        memcpy(copy, good, len);
        int rc = npy_parse(copy, len, &info);
        assert_true(len == n ? rc == 0 : rc == -1); /* only the whole header is whole */
        free(copy);
    }
    for (size_t i = 0; i < n; i++)
        for (size_t v = 0; v < sizeof values; v++) {
            unsigned char copy[256];
            memcpy(copy, good, n);
            copy[i] = values[v];
            if (npy_parse(copy, n, &info) == 0)
                assert_true(info.data_offset <= n);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_one_float),     cmocka_unit_test(test_versions_two_and_three_and_shapes),
        cmocka_unit_test(test_fortran_order_layout),  cmocka_unit_test(test_malformed_and_truncated),
        cmocka_unit_test(test_every_prefix_and_byte),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
