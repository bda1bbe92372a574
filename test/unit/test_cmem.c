/* test_cmem.c - the __constant__ declarations runtime/cmem.c finds in CUDA text: every
 * declarator of a declaration, whether it is initialised, its line; nothing in comments,
 * strings, preprocessor lines or other declarations. (Filling a module's symbol needs a
 * GPU: test/gpu/constants.sh.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "runtime/cmem.h"

/* What a scan found, as "name@line" or "name@line=" (initialised), space separated. */
typedef struct seen {
    char text[512];
    int calls, stop_after;
} seen;

static int record(void *user, const char *name, size_t len, int line, bool initialised)
{
    seen *s = user;
    size_t used = strlen(s->text);
    snprintf(s->text + used, sizeof s->text - used, "%s%.*s@%d%s", used ? " " : "", (int)len, name, line,
             initialised ? "=" : "");
    return ++s->calls == s->stop_after ? 7 : 0;
}

static const char *scan(const char *text)
{
    static seen s;
    memset(&s, 0, sizeof s);
    assert_int_equal(cmem_scan(text, strlen(text), record, &s), 0);
    return s.text;
}

static void test_declarators(void **state)
{
    (void)state;
    assert_string_equal(scan("__constant__ float d_filter[17 * 17];"), "d_filter@1");
    assert_string_equal(scan("__constant__ float a[4], b, c[2][3];"), "a@1 b@1 c@1");
    assert_string_equal(scan("static __constant__ int lut[4] = {1, 2, 3, 4}, other;"), "lut@1= other@1");
    assert_string_equal(scan("__constant__ int k = 3;\nextern \"C\" __constant__ double e[2];"), "k@1= e@2");
    assert_string_equal(scan("float __constant__ late[8];"), "late@1");
    assert_string_equal(scan("__constant__ Pair<int, 3> p[2], q;"), "p@1 q@1");
    assert_string_equal(scan("__constant__ float m[N < 3 ? 1 : 2];"), "m@1");
    assert_string_equal(scan("__constant__ __device__ float both;"), "both@1");
}

static void test_noise_skipped(void **state)
{
    (void)state;
    const char *text = "// __constant__ float a[3];\n"
                       "/* __constant__ float b[3];\n   still a comment */\n"
                       "#define DECL __constant__ float c[3];\n"
                       "#define LONG \\\n  __constant__ float d[3];\n"
                       "const char *s = \"__constant__ float e[3];\";\n"
                       "char q = '\\'';\n"
                       "int not__constant__x;\n"
                       "__constant__ float real[3];\n";
    assert_string_equal(scan(text), "real@10");
    /* a '#' that does not start a line is no directive */
    assert_string_equal(scan("int a = 1; # __constant__ float f;"), "f@1");
}

static void test_ends(void **state)
{
    (void)state;
    assert_string_equal(scan(""), "");
    assert_string_equal(scan("__constant__"), "");
    assert_string_equal(scan("__constant__ float open[4]"), "open@1"); /* no ';' at the end of the text */
    assert_string_equal(scan("namespace n { __constant__ float x[2] }"), "x@1");
    /* found() stops the scan with its value */
    seen s;
    memset(&s, 0, sizeof s);
    s.stop_after = 1;
    const char *two = "__constant__ float a[1], b[1];";
    assert_int_equal(cmem_scan(two, strlen(two), record, &s), 7);
    assert_string_equal(s.text, "a@1");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_declarators),
        cmocka_unit_test(test_noise_skipped),
        cmocka_unit_test(test_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
