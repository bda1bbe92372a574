/* test_eval.c - expression semantics: arithmetic, types, functions, errors. Constant
 * expressions are folded by the checker, so each case is a `let` whose folded value is
 * compared with what the language reference promises. */
#include "helpers.h"

#include <math.h>

/* The folded value of `expr`, checked to have type `type`. */
static value fold(const char *expr, vtype type)
{
    char *text = spec_with("let x = %s;", expr);
    checked *c = check_spec(text);
    if (!c->m)
        fail_msg("'%s' did not check:\n%s", expr, sb_cstr(&c->text));
    value v = let_value(c->m, "x");
    if (v.type == VT_STRING) /* the arena goes away with c */
        v.u.s = strdup(v.u.s);
    assert_int_equal(v.type, type);
    checked_free(c);
    free(text);
    return v;
}

static int64_t ival(const char *expr)
{
    return fold(expr, VT_INT).u.i;
}
static double fval(const char *expr)
{
    return fold(expr, VT_FLOAT).u.f;
}
static bool bval(const char *expr)
{
    return fold(expr, VT_BOOL).u.b;
}

/* The first error message `expr` produces (it must produce one). */
static void expect_error(const char *expr, const char *message_part)
{
    char *text = spec_with("let x = %s;", expr);
    checked *c = check_spec(text);
    if (c->m || !strstr(sb_cstr(&c->text), message_part))
        fail_msg("'%s': expected an error containing '%s', got:\n%s", expr, message_part, sb_cstr(&c->text));
    checked_free(c);
    free(text);
}

static void test_integer_arithmetic(void **state)
{
    (void)state;
    assert_int_equal(ival("2 + 3 * 4"), 14);
    assert_int_equal(ival("(2 + 3) * 4"), 20);
    assert_int_equal(ival("2 ** 10"), 1024);
    assert_int_equal(ival("2 ** 3 ** 2"), 512); /* right associative */
    assert_int_equal(ival("-2 ** 2"), -4);      /* ** binds tighter than unary minus */
    assert_int_equal(ival("1 << 10"), 1024);
    assert_int_equal(ival("1024 >> 3"), 128);
    assert_int_equal(ival("0xff & 0x0f | 0x30"), 0x3f);
    assert_int_equal(ival("5 ^ 3"), 6);
    assert_int_equal(ival("~0"), -1);
    assert_int_equal(ival("16_384"), 16384);
}

static void test_floor_division_and_modulo(void **state)
{
    (void)state;
    /* Python semantics: // floors, % takes the divisor's sign, and (a//b)*b + a%b == a. */
    assert_int_equal(ival("7 // 2"), 3);
    assert_int_equal(ival("-7 // 2"), -4);
    assert_int_equal(ival("7 // -2"), -4);
    assert_int_equal(ival("-7 % 2"), 1);
    assert_int_equal(ival("7 % -2"), -1);
    for (int a = -9; a <= 9; a++)
        for (int b = -4; b <= 4; b++) {
            if (!b)
                continue;
            char e[64];
            snprintf(e, sizeof e, "(%d // %d) * %d + %d %% %d", a, b, b, a, b);
            assert_int_equal(ival(e), a);
        }
}

static void test_true_division_is_float(void **state)
{
    (void)state;
    assert_true(fval("7 / 2") == 3.5);
    assert_true(fval("1 / 4") == 0.25);
    assert_true(fval("1.5 * 2") == 3.0);
    assert_true(fval("2 ** 0.5") > 1.414 && fval("2 ** 0.5") < 1.415);
    assert_true(fval("1e3 + 0.5") == 1000.5);
    assert_true(fval("250ms") == 0.25);
    assert_true(fval("2min") == 120.0);
}

static void test_comparisons_and_logic(void **state)
{
    (void)state;
    assert_true(bval("1 < 2 < 3"));
    assert_false(bval("1 < 3 < 2"));
    assert_true(bval("32 <= 8 * 4 <= 1024"));
    assert_false(bval("(1 < 2) == false"));
    assert_true(bval("\"a\" == \"a\" && \"a\" != \"b\""));
    assert_true(bval("!(1 > 2) || 1 / 0 > 0")); /* || short-circuits: the division never runs */
    assert_false(bval("1 > 2 && 1 / 0 > 0"));
    assert_true(bval("1 == 1.0"));
    assert_int_equal(ival("1 < 2 ? 10 : 20"), 10);
    assert_true(fval("false ? 1 : 2.5") == 2.5);
}

static void test_functions(void **state)
{
    (void)state;
    assert_int_equal(ival("min(4, 2, 8)"), 2);
    assert_int_equal(ival("max(4, 2, 8)"), 8);
    assert_true(fval("max(1, 2.5)") == 2.5);
    assert_int_equal(ival("cdiv(16384, 32)"), 512);
    assert_int_equal(ival("cdiv(10, 4)"), 3);
    assert_int_equal(ival("cdiv(-10, 4)"), -2);
    assert_int_equal(ival("ceil(10 / 4)"), 3);
    assert_int_equal(ival("floor(-0.5)"), -1);
    assert_int_equal(ival("round(2.5)"), 3);
    assert_int_equal(ival("abs(-7)"), 7);
    assert_int_equal(ival("pow(3, 4)"), 81);
    assert_true(fval("log2(1024)") == 10.0);
    assert_true(fval("sqrt(2.25)") == 1.5);
    assert_int_equal(ival("int(3.9)"), 3);
    assert_int_equal(ival("int(true)"), 1);
    assert_true(fval("float(3)") == 3.0);
    assert_true(bval("is_pow2(1024)"));
    assert_false(bval("is_pow2(96)"));
    assert_false(bval("is_pow2(0)"));
}

static void test_strings(void **state)
{
    (void)state;
    value v = fold("\"-O3\"", VT_STRING);
    assert_string_equal(v.u.s, "-O3");
    free((char *)v.u.s);
    v = fold("\"a\\\"b\\\\c\"", VT_STRING);
    assert_string_equal(v.u.s, "a\"b\\c");
    free((char *)v.u.s);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("1 / 0", "division by zero");
    expect_error("5 // 0", "division by zero");
    expect_error("5 % 0", "division by zero");
    expect_error("9223372036854775807 + 1", "integer overflow");
    expect_error("3037000500 * 3037000500", "integer overflow");
    expect_error("2 ** 63", "integer overflow");
    expect_error("2 ** -1", "negative exponent");
    expect_error("1 << 64", "shift count");
    expect_error("1 << 63 << 1", "integer overflow");
    expect_error("-(-9223372036854775807 - 1)", "integer overflow");
    expect_error("log2(0)", "undefined");
    expect_error("int(1e30)", "does not fit");
    expect_error("1 + \"a\"", "needs numbers");
    expect_error("1 && true", "needs bools");
    expect_error("2.5 % 2", "needs ints");
    expect_error("\"a\" < \"b\"", "only be compared with == and !=");
    expect_error("1 == \"a\"", "cannot compare");
    expect_error("true ? 1 : \"a\"", "different types");
    expect_error("cdiv(1.5, 2)", "needs ints");
    expect_error("mni(1, 2)", "did you mean 'min'");
    expect_error("min()", "takes 1 to 8 arguments");
    expect_error("sqrt(1, 2)", "takes 1 argument");
    expect_error("float", "type name 'float' is not a value");
    expect_error("time * 2", "only known after the kernel runs");
}

/* Repeats in a param's list are found by sorting: every later copy is marked, the
 * first is not, types never mix, and error values are left out. */
static void test_value_mark_repeats(void **state)
{
    (void)state;
    value v[] = {value_int(3),      value_float(0.0),  value_string("a"),  value_int(3),
                 value_float(-0.0), value_string("a"), value_bool(true),   value_float(3.0),
                 value_int(3),      value_bool(true),  {.type = VT_ERROR}, {.type = VT_ERROR}};
    bool want[] = {false, false, false, true, true, true, false, false, true, true, false, false};
    enum { N = sizeof v / sizeof *v };
    bool got[N];
    assert_int_equal(value_mark_repeats(v, N, got), 0);
    for (int i = 0; i < N; i++)
        assert_int_equal(got[i], want[i]);
    assert_int_equal(value_mark_repeats(v, 0, got), 0);
}

/* A million values, one repeated, all found. Pairwise this is 5e11 comparisons (hours),
 * sorted about 2e7: the test's ctest timeout (test/CMakeLists.txt) fails the former
 * without the test timing anything itself. */
static void test_value_mark_repeats_scales(void **state)
{
    (void)state;
    enum { N = 1000001 };
    value *v = malloc(sizeof *v * N);
    bool *got = malloc(sizeof *got * N);
    assert_non_null(v);
    assert_non_null(got);
    for (int64_t i = 0; i < N - 1; i++)
        v[i] = value_int(i * 7919 % (N - 1)); /* a permutation: 7919 is prime, N - 1 = 2^6 5^6 */
    v[N - 1] = value_int(77777);
    assert_int_equal(value_mark_repeats(v, N, got), 0);
    for (int i = 0; i < N - 1; i++)
        assert_false(got[i]);
    assert_true(got[N - 1]);
    free(v);
    free(got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integer_arithmetic),
        cmocka_unit_test(test_floor_division_and_modulo),
        cmocka_unit_test(test_true_division_is_float),
        cmocka_unit_test(test_comparisons_and_logic),
        cmocka_unit_test(test_functions),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_value_mark_repeats),
        cmocka_unit_test(test_value_mark_repeats_scales),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
