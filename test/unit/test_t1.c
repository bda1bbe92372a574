/* test_t1.c - the T1 importer's Python expressions (import/t1_py.c, t1_eval.c, t1_tr.c):
 * each operator written in cutune's language with Python's meaning and cutune's
 * precedence, what has no counterpart refused with the JSON path and the column, and
 * the values of params as Python computes them. The expected texts are written by hand
 * from the two languages' rules (docs/language.md, section 10; Python 3's reference). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "import/t1.h"
#include "import/t1_internal.h"
#include "lang/ast.h"

/* The names the expressions below may read. */
static const t1_name names[] = {
    {"a", "a", TR_INT},   {"b", "b", TR_INT}, {"c", "c", TR_INT},        {"x", "x", TR_INT},
    {"f", "f", TR_FLOAT}, {"s", "s", TR_STR}, {"flag", "flag", TR_BOOL}, {"step", "step_", TR_INT},
};
static const t1_names all = {names, sizeof names / sizeof *names};

static t1_ctx ctx;

static int setup(void **state)
{
    (void)state;
    ctx = (t1_ctx){.a = arena_new(), .file = "p.json"};
    return ctx.a ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    arena_free(ctx.a);
    return 0;
}

/* tr: expr translated as `want`; NULL when refused (the error in ctx). */
static const char *tr(const char *expr, enum t1_type want)
{
    ctx.nerrors = 0;
    t1_py_src src = {.c = &ctx, .text = expr, .path = "$.ConfigurationSpace.Conditions[0].Expression"};
    return t1_translate(&src, &all, want);
}

#define assert_tr(expr, want, expected) assert_string_equal(tr(expr, want), expected)

/* assert_refused: expr is refused with a message containing `why`. */
static void assert_refused(const char *expr, enum t1_type want, const char *why)
{
    const char *text = tr(expr, want);
    if (text)
        fail_msg("'%s' was translated as '%s'", expr, text);
    assert_int_equal(ctx.nerrors, 1);
    if (!strstr(ctx.errors[0], why) ||
        !strstr(ctx.errors[0], "p.json: $.ConfigurationSpace.Conditions[0].Expression: "))
        fail_msg("'%s': the message '%s' does not say '%s' at the path", expr, ctx.errors[0], why);
}

static void test_operators(void **state)
{
    (void)state;
    assert_tr("a and b == 1", TR_BOOL, "a != 0 && b == 1"); /* a number stands for its truth */
    assert_tr("a == 1 or b == 2", TR_BOOL, "a == 1 || b == 2");
    assert_tr("not flag", TR_BOOL, "!flag");
    assert_tr("not a", TR_BOOL, "!(a != 0)");
    assert_tr("a // b == c", TR_BOOL, "a // b == c");
    assert_tr("a % 32 != 0", TR_BOOL, "a % 32 != 0");
    assert_tr("a ** 2 <= 1024", TR_BOOL, "a ** 2 <= 1024");
    assert_tr("a / b < 1.5", TR_BOOL, "a / b < 1.5");
    assert_tr("a << 2 | b >> 1 ^ c & 3 == 0", TR_BOOL, "a << 2 | b >> 1 ^ c & 3 == 0");
    assert_tr("~a + -b - +c > 0", TR_BOOL, "~a + -b - +c > 0");
    assert_tr("32 <= a * b <= 1024", TR_BOOL, "32 <= a * b <= 1024"); /* a chain stays a chain */
    assert_tr("a < b > c != x", TR_BOOL, "a < b > c != x");
    assert_tr("a if flag else b", TR_INT, "flag ? a : b");
    assert_tr("min(a, b) + max(a, b, 4) + abs(c) + int(f) > float(x)", TR_BOOL,
              "min(a, b) + max(a, b, 4) + abs(c) + int(f) > float(x)");
    assert_tr("max([a, b]) > 2", TR_BOOL, "max(a, b) > 2");
    assert_tr("True and not False", TR_BOOL, "true && !false");
    assert_tr("f == 2.5e-3 or f > 1e6 or f < .5", TR_BOOL, "f == 0.0025 || f > 1e6 || f < 0.5");
    assert_tr("0x10 + 0o10 + 0b10 + 1_000", TR_INT, "16 + 8 + 2 + 1000");
    assert_tr("s == 'fast'", TR_BOOL, "s == \"fast\"");
    assert_tr("flag == True", TR_BOOL, "flag == true");
    assert_tr("flag + 1 > a", TR_BOOL, "int(flag) + 1 > a"); /* Python's True is 1 */
    assert_tr("step > 1", TR_BOOL, "step_ > 1");             /* a renamed param */
}

static void test_membership(void **state)
{
    (void)state;
    assert_tr("a in [1, 2, 4]", TR_BOOL, "a == 1 || a == 2 || a == 4");
    assert_tr("a not in (1, 2)", TR_BOOL, "a != 1 && a != 2");
    assert_tr("a in [b * 2]", TR_BOOL, "a == b * 2");
    assert_tr("a in []", TR_BOOL, "false");
    assert_tr("a not in []", TR_BOOL, "true");
    assert_tr("a in [1, 2] and b == 3", TR_BOOL, "(a == 1 || a == 2) && b == 3");
    assert_tr("not a in [1, 2]", TR_BOOL, "!(a == 1 || a == 2)");
    assert_tr("s in ['x', 'y']", TR_BOOL, "s == \"x\" || s == \"y\"");
}

static void test_precedence(void **state)
{
    (void)state;
    assert_tr("not a == b", TR_BOOL, "!(a == b)"); /* Python's not is looser than == */
    assert_tr("(a + b) * c > 0", TR_BOOL, "(a + b) * c > 0");
    assert_tr("a + b * c > 0", TR_BOOL, "a + b * c > 0");
    assert_tr("a - (b - c) > 0", TR_BOOL, "a - (b - c) > 0");
    assert_tr("(a - b) - c > 0", TR_BOOL, "a - b - c > 0");
    assert_tr("(((a)))*((b)) > 0", TR_BOOL, "a * b > 0");
    assert_tr("(a * b) ** 2 > 0", TR_BOOL, "(a * b) ** 2 > 0"); /* cutune: primary ** unary */
    assert_tr("-a ** 2 < 0", TR_BOOL, "-a ** 2 < 0");
    assert_tr("a ** b ** c > 0", TR_BOOL, "a ** b ** c > 0");
    assert_tr("(a ** b) ** c > 0", TR_BOOL, "(a ** b) ** c > 0");
    assert_tr("2 ** -1 < f", TR_BOOL, "float(2) ** -1 < f"); /* Python: 0.5, not an error */
    assert_tr("a or b and c", TR_BOOL, "a != 0 || b != 0 && c != 0");
    assert_tr("(a or b) and c", TR_BOOL, "(a != 0 || b != 0) && c != 0");
    assert_tr("(a < b) == flag", TR_BOOL, "(a < b) == flag");
    assert_tr("(a if flag else b) + 1 > 0", TR_BOOL, "(flag ? a : b) + 1 > 0");
    assert_tr("- -a > 0", TR_BOOL, "- -a > 0");
    assert_tr("(a & 3) == 0", TR_BOOL, "a & 3 == 0");
    assert_tr("a & (3 == 0)", TR_INT, "a & int(3 == 0)");
}

static void test_refused(void **state)
{
    (void)state;
    assert_refused("a is b", TR_BOOL, "'is' is not translated");
    assert_refused("round(f) > 1", TR_BOOL, "round() is not translated (Python rounds halves to even");
    assert_refused("len(a) > 1", TR_BOOL, "the function len() is not translated");
    assert_refused("f % 2 == 0", TR_BOOL, "'%' of a float is not translated");
    assert_refused("(a or 2) * 3 > 0", TR_BOOL, "used here as a number");
    assert_refused("s < 'b'", TR_BOOL, "strings ordered by '<'");
    assert_refused("a == 'b'", TR_BOOL, "an int compared with a string");
    assert_refused("a in b", TR_BOOL, "with a list or tuple written out");
    assert_refused("a < b in [1]", TR_BOOL, "'in' inside a chain");
    assert_refused("a / 2", TR_INT, "gives a float where an int is needed");
    assert_refused("lambda: 1", TR_BOOL, "'lambda' is not translated here (at column 1 of \"lambda: 1\")");
    assert_refused("a ==", TR_BOOL, "the expression ends where a value is expected (at column 5 of \"a ==\")");
    assert_refused("a == 1 b", TR_BOOL, "unexpected text after the expression (at column 8 of \"a == 1 b\")");
    assert_refused("nope > 1", TR_BOOL, "unknown name 'nope': only the tuning parameters are known here (at column 1");
    assert_refused("a > 0777", TR_BOOL, "a leading zero");
    assert_refused("a > 99999999999999999999", TR_BOOL, "does not fit in 64 bits");
    assert_refused("a $ b", TR_BOOL, "'$' is not part of the expressions");
    assert_refused("", TR_BOOL, "the expression is empty");
    assert_refused("a > 'x", TR_BOOL, "a string that does not end");
    assert_refused("[x for x in range(3)] == 1", TR_BOOL, "a comprehension is not translated here");
    assert_refused("f > 1e999", TR_BOOL, "a float that is not finite");
}

/* values: the list Python gives for a param's Values text, as cutune writes its items. */
static const char *values(const char *expr)
{
    ctx.nerrors = 0;
    t1_py_src src = {.c = &ctx, .text = expr, .path = "$.V"};
    t1_py_node *n;
    t1_py_val v;
    if (t1_py_parse(&n, &src) || t1_py_eval(&v, n, NULL, &src))
        return NULL;
    strbuf sb = STRBUF_INIT;
    if (v.kind != PV_LIST)
        sb_add(&sb, t1_py_text(&ctx, &v));
    for (size_t k = 0; v.kind == PV_LIST && k < v.n; k++)
        sb_printf(&sb, "%s%s", k ? " " : "", t1_py_text(&ctx, &v.items[k]));
    const char *r = arena_strdup(ctx.a, sb_cstr(&sb));
    sb_free(&sb);
    return r;
}

static void test_values(void **state)
{
    (void)state;
    assert_string_equal(values("[2**i for i in range(0, 6)]"), "1 2 4 8 16 32");
    assert_string_equal(values("[1, 2, 4] + list(range(32, 129, 32))"), "1 2 4 32 64 96 128");
    assert_string_equal(values("list(range(1,16))[-1]"), "15");
    assert_string_equal(values("[i for i in range(10, 0, -3) if i % 2 == 0]"), "10 4");
    assert_string_equal(values("[-7 // 2, -7 % 3, 7 % -3, 7 / 2, 2 ** -1]"), "-4 2 -2 3.5 0.5");
    assert_string_equal(values("[x * 2 for x in (1, 2)] * 2"), "2 4 2 4");
    assert_string_equal(values("[True, 1 == 1.0, 3 > 2 > 1, 1 and 0, 0 or 5]"), "true true true 0 5");
    assert_string_equal(values("['a', \"b\\\"c\"]"), "\"a\" \"b\\\"c\"");
    assert_string_equal(values("sorted([3, 1, 2]) + [len([1, 2]), min(4, 2), max([1, 9])]"), "1 2 3 2 2 9");
    assert_string_equal(values("[0.1, 1e-7, 123456789.0, 2.0]"), "0.1 1e-7 123456789.0 2.0");
    assert_null(values("[2 ** 64]"));
    assert_non_null(strstr(ctx.errors[0], "$.V: the result does not fit in 64 bits"));
    assert_null(values("list(range(0, 10, 0))"));
    assert_null(values("1 // 0"));
    assert_non_null(strstr(ctx.errors[0], "division by zero"));
    assert_null(values("list(range(2000000))"));
    assert_non_null(strstr(ctx.errors[0], "more than 1000000 values"));
    assert_null(values("[y for x in [1]]"));
    assert_non_null(strstr(ctx.errors[0], "unknown name 'y'"));
}

/* A whole file: the spec's text holds what each section became. */
static void test_file(void **state)
{
    (void)state;
    const char *text = "{\"ConfigurationSpace\": {\"TuningParameters\": ["
                       "{\"Name\": \"bx\", \"Type\": \"int\", \"Values\": \"[32, 64, 128]\", \"Default\": 64},"
                       "{\"Name\": \"step\", \"Type\": \"int\", \"Values\": \"[1, 2]\", \"Default\": 1}],"
                       "\"Conditions\": [{\"Expression\": \"bx * step <= 128\", \"Parameters\": [\"bx\", \"step\"]}]},"
                       "\"KernelSpecification\": {\"Language\": \"CUDA\", \"KernelName\": \"k\", \"KernelFile\": "
                       "\"k.cu\", \"LocalSize\": {\"X\": \"bx\"}, \"ProblemSize\": [1000], \"GridDivX\": [\"bx\", "
                       "\"step\"], \"Arguments\": [{\"Name\": \"y\", \"Type\": \"float\", \"MemoryType\": \"Vector\", "
                       "\"AccessType\": \"WriteOnly\", \"Size\": \"ProblemSize[0] * max(step)\", \"FillType\": "
                       "\"Constant\", \"FillValue\": 0, \"Output\": 1}, {\"Name\": \"n\", \"Type\": \"int32\", "
                       "\"MemoryType\": \"Scalar\", \"FillValue\": 1000}]}}";
    t1_result *r;
    assert_int_equal(t1_import_text(&r, text, strlen(text), "k.json", "", ""), 0);
    if (r->nerrors)
        fail_msg("refused: %s", r->errors[0]);
    const char *expected[] = {
        "kernel k from \"k.cu\" {\n",
        "    param bx in 32 .. 128 step *2 default 64;\n",
        "    param step_ in [1, 2] as option \"-Dstep={}\" default 1;\n", /* `step` is reserved in a spec */
        "    require bx * step_ <= 128;",
        "    let problem_size_x = 1000;",
        "    block bx;\n",
        "    grid cdiv(problem_size_x, bx * step_);\n",
        "    arg y : out float[2000];\n",
        "    arg n : int = 1000;\n",
        "    verify y against config(bx = 64, step_ = 1) atol 1e-6 rtol 1e-5;",
    };
    for (size_t k = 0; k < sizeof expected / sizeof *expected; k++)
        if (!strstr(r->text, expected[k]))
            fail_msg("the spec lacks '%s':\n%s", expected[k], r->text);
    assert_int_equal(r->nnotes, 2); /* the renamed param; the file k.cu does not exist */
    t1_result_free(r);
}

/* A file without ProblemSize: GlobalSize in threads, the fills, the settings, names
 * cutune reserves. */
static void test_file_global(void **state)
{
    (void)state;
    const char *text =
        "{\"Budget\": [{\"Type\": \"TuningDuration\", \"BudgetValue\": 90}],"
        "\"BenchmarkConfig\": {\"iterations\": \"7\", \"dataSize\": 1},"
        "\"ConfigurationSpace\": {\"TuningParameters\": ["
        "{\"Name\": \"B\", \"Type\": \"uint\", \"Values\": \"list(range(32, 1024 + 1, 32))\"},"
        "{\"Name\": \"scale\", \"Type\": \"float\", \"Values\": \"[1, 2]\", \"Extra\": 1}]},"
        "\"KernelSpecification\": {\"Language\": \"CUDA\", \"KernelName\": \"k\", \"KernelFile\": \"k.cu\", "
        "\"GlobalSizeType\": \"OpenCL\", \"LocalSize\": {\"X\": \"B\", \"Y\": \"1\", \"Z\": 1}, \"GlobalSize\": "
        "{\"X\": \"4096 // scale\", \"Y\": \"2\"}, \"SharedMemory\": \"B * 4\", \"Arguments\": ["
        "{\"Name\": \"grid\", \"Type\": \"double\", \"MemoryType\": \"Vector\", \"Size\": 64, "
        "\"FillType\": \"Generator\", \"DataSource\": \"2 * i + 1\", \"AccessType\": \"ReadOnly\"},"
        "{\"Type\": \"bool\", \"MemoryType\": \"Vector\", \"Size\": 8, \"FillType\": \"Random\", "
        "\"FillValue\": 1, \"RandomSeed\": 9},"
        "{\"Name\": \"out\", \"Type\": \"uint8\", \"MemoryType\": \"Vector\", \"Size\": 4, "
        "\"FillValue\": 3}]}}";
    t1_result *r;
    assert_int_equal(t1_import_text(&r, text, strlen(text), "g.json", "", ""), 0);
    if (r->nerrors)
        fail_msg("refused: %s", r->errors[0]);
    const char *expected[] = {
        "    param B in 32 .. 1024 step 32;\n",
        "    param scale in [1, 2];\n", /* ints stay ints under Type float: -Dscale=1, as Kernel Tuner */
        "    block B;\n",
        "    grid (cdiv(4096 // scale, B), 2);\n", /* OpenCL: threads, divided by the block */
        "    smem B * 4;",
        "    arg grid_ : in double[64] = ramp(start = 1.0, step = 2.0);\n",
        "    arg arg1 : inout int8[8] = random(seed = 9, min = 0, max = 1);\n",
        "    arg out_ : inout uint8[4] = constant(3);\n", /* AccessType absent: ReadWrite */
        "    search(time = 90.000s);",
        "    measure(repeat = 7);",
    };
    for (size_t k = 0; k < sizeof expected / sizeof *expected; k++)
        if (!strstr(r->text, expected[k]))
            fail_msg("the spec lacks '%s':\n%s", expected[k], r->text);
    const char *notes[] = {"g.json: $.ConfigurationSpace.TuningParameters[1].Extra: not translated",
                           "g.json: $.BenchmarkConfig.dataSize: not translated: a setting of BAT's host code",
                           "g.json: $.KernelSpecification.Arguments[0].Name: the argument is named 'grid_'",
                           "g.json: $.KernelSpecification.Arguments[1].Type: bool is passed as int8"};
    for (size_t k = 0; k < sizeof notes / sizeof *notes; k++) {
        bool found = false;
        for (int n = 0; n < r->nnotes && !found; n++)
            found = strstr(r->notes[n], notes[k]) != NULL;
        if (!found)
            fail_msg("no note '%s'", notes[k]);
    }
    t1_result_free(r);
}

/* Every type name of the spec language (lang/ast.c's table) is a word a T1 name cannot
 * keep: a param named float4 or half2 would otherwise be written `param float4 in ...`,
 * which does not parse (the vector types were once missing from the list). */
static void test_type_names_reserved(void **state)
{
    (void)state;
    for (int t = CT_HALF; t <= CT_HALF2; t++)
        if (!t1_reserved(ast_ctype_name((ast_ctype)t)))
            fail_msg("the type name '%s' is not reserved for T1 names", ast_ctype_name((ast_ctype)t));
    const char *text = "{\"ConfigurationSpace\": {\"TuningParameters\": ["
                       "{\"Name\": \"float4\", \"Type\": \"int\", \"Values\": \"[1, 2]\"}]},"
                       "\"KernelSpecification\": {\"Language\": \"CUDA\", \"KernelName\": \"k\", \"KernelFile\": "
                       "\"k.cu\", \"LocalSize\": {\"X\": \"32\"}, \"GlobalSize\": {\"X\": \"float4\"}}}";
    t1_result *r;
    assert_int_equal(t1_import_text(&r, text, strlen(text), "v.json", "", ""), 0);
    if (r->nerrors)
        fail_msg("refused: %s", r->errors[0]);
    if (!strstr(r->text, "    param float4_ in [1, 2] as option \"-Dfloat4={}\";"))
        fail_msg("float4 is not renamed:\n%s", r->text);
    t1_result_free(r);
    /* a kernel named with a reserved word cannot be written `kernel param from ...`; a
     * built-in name (time) can */
    assert_true(t1_keyword("param") && t1_keyword("half2") && !t1_keyword("time") && t1_reserved("time"));
    const char *named = "{\"ConfigurationSpace\": {\"TuningParameters\": ["
                        "{\"Name\": \"b\", \"Type\": \"int\", \"Values\": \"[1, 2]\"}]},"
                        "\"KernelSpecification\": {\"Language\": \"CUDA\", \"KernelName\": \"param\", "
                        "\"KernelFile\": \"k.cu\", \"LocalSize\": {\"X\": \"32\"}, \"GlobalSize\": {\"X\": \"b\"}}}";
    assert_int_equal(t1_import_text(&r, named, strlen(named), "v.json", "", ""), 0);
    assert_null(r->text);
    assert_non_null(
        strstr(r->errors[0], "v.json: $.KernelSpecification.KernelName: \"param\" is a word a spec reserves"));
    t1_result_free(r);
}

/* Found by fuzz_t1 (a spec that does not check, where the file should be refused or
 * read): a value listed twice is kept once, with a note (a spec lists each value once);
 * a block or grid dimension or a problem size that is a constant below 1 is refused at
 * its path. */
static void test_twice_and_zero(void **state)
{
    (void)state;
    const char *head = "{\"ConfigurationSpace\": {\"TuningParameters\": ["
                       "{\"Name\": \"bx\", \"Type\": \"int\", \"Values\": \"[32, 16, 32, 64, 16]\"},"
                       "{\"Name\": \"f\", \"Type\": \"float\", \"Values\": [1, 1.0, 2.5]}]},"
                       "\"KernelSpecification\": {\"Language\": \"CUDA\", \"KernelName\": \"k\", \"KernelFile\": "
                       "\"k.cu\", ";
    char text[1024];
    snprintf(text, sizeof text, "%s\"GlobalSize\": {\"X\": \"4\"}, \"LocalSize\": {\"X\": \"bx\"}}}", head);
    t1_result *r;
    assert_int_equal(t1_import_text(&r, text, strlen(text), "d.json", "", ""), 0);
    if (r->nerrors)
        fail_msg("refused: %s", r->errors[0]);
    if (!strstr(r->text, "    param bx in [32, 16, 64];\n") || !strstr(r->text, "    param f in [1.0, 2.5];\n"))
        fail_msg("values listed twice are not kept once:\n%s", r->text);
    bool noted = false;
    for (int k = 0; k < r->nnotes; k++)
        noted = noted || strstr(r->notes[k], "d.json: $.ConfigurationSpace.TuningParameters[0].Values: 2 values "
                                             "listed more than once: each is kept once");
    assert_true(noted);
    t1_result_free(r);
    static const char *const zero[][2] = {
        {"\"GlobalSize\": {\"X\": \"4\"}, \"LocalSize\": {\"X\": \"bx\", \"Z\": \"0\"}",
         "d.json: $.KernelSpecification.LocalSize.Z: is 0: a block dimension is at least 1"},
        {"\"GlobalSize\": {\"X\": \"4\"}, \"LocalSize\": {\"X\": \"bx\", \"Y\": \"2 - 3\"}",
         "d.json: $.KernelSpecification.LocalSize.Y: is 2 - 3: a block dimension"},
        {"\"GlobalSize\": {\"X\": \"4\"}, \"LocalSize\": {\"X\": 0}",
         "d.json: $.KernelSpecification.LocalSize.X: is 0: a block dimension"},
        {"\"GlobalSize\": {\"X\": \"4\", \"Z\": \"0\"}, \"LocalSize\": {\"X\": \"bx\"}",
         "d.json: $.KernelSpecification.GlobalSize.Z: is 0: a grid dimension is at least 1"},
        {"\"ProblemSize\": [\"8 - 8\"], \"LocalSize\": {\"X\": \"bx\"}",
         "d.json: $.KernelSpecification.ProblemSize[0]: a problem size of 8 - 8: at least 1"},
    };
    for (size_t k = 0; k < sizeof zero / sizeof *zero; k++) {
        snprintf(text, sizeof text, "%s%s}}", head, zero[k][0]);
        assert_int_equal(t1_import_text(&r, text, strlen(text), "d.json", "", ""), 0);
        assert_null(r->text);
        assert_int_equal(r->nerrors, 1);
        if (!strstr(r->errors[0], zero[k][1]))
            fail_msg("'%s', not '%s'", r->errors[0], zero[k][1]);
        t1_result_free(r);
    }
}

/* T1 vector types cutune has become its vector buffers (Size in vectors); the others,
 * and a scalar of one, are refused at their path. */
static void test_vector_args(void **state)
{
    (void)state;
    const char *head = "{\"ConfigurationSpace\": {\"TuningParameters\": ["
                       "{\"Name\": \"bx\", \"Type\": \"int\", \"Values\": \"[32, 64]\"}]},"
                       "\"KernelSpecification\": {\"Language\": \"CUDA\", \"KernelName\": \"k\", \"KernelFile\": "
                       "\"k.cu\", \"GlobalSize\": {\"X\": \"4\"}, \"LocalSize\": {\"X\": \"bx\"}, \"Arguments\": [";
    char text[2048];
    snprintf(text, sizeof text,
             "%s{\"Name\": \"a\", \"Type\": \"float4\", \"MemoryType\": \"Vector\", \"Size\": 16, "
             "\"FillType\": \"Random\", \"FillValue\": 1.0, \"AccessType\": \"ReadOnly\"},"
             "{\"Name\": \"h\", \"Type\": \"half2\", \"MemoryType\": \"Vector\", \"Size\": 8, "
             "\"FillType\": \"Constant\", \"FillValue\": 0, \"AccessType\": \"WriteOnly\", \"Output\": 1},"
             "{\"Name\": \"d\", \"Type\": \"double2\", \"MemoryType\": \"Vector\", \"Size\": 4, "
             "\"FillType\": \"Constant\", \"FillValue\": 2.5, \"AccessType\": \"ReadWrite\"}]}}",
             head);
    t1_result *r;
    assert_int_equal(t1_import_text(&r, text, strlen(text), "v.json", "", ""), 0);
    if (r->nerrors)
        fail_msg("refused: %s", r->errors[0]);
    const char *expected[] = {"    arg a : in float4[16] = random(", "    arg h : out half2[8];\n",
                              "    arg d : inout double2[4] = constant(2.5);\n"};
    for (size_t k = 0; k < sizeof expected / sizeof *expected; k++)
        if (!strstr(r->text, expected[k]))
            fail_msg("the spec lacks '%s':\n%s", expected[k], r->text);
    t1_result_free(r);
    static const char *const refused[][2] = {
        {"{\"Name\": \"a\", \"Type\": \"half8\", \"MemoryType\": \"Vector\", \"Size\": 4}",
         "v.json: $.KernelSpecification.Arguments[0].Type: \"half8\" is not supported: of the vector types"},
        {"{\"Name\": \"a\", \"Type\": \"float2\", \"MemoryType\": \"Scalar\", \"FillValue\": 1}",
         "v.json: $.KernelSpecification.Arguments[0].Type: a scalar of a vector type is not translated"},
    };
    for (int k = 0; k < 2; k++) {
        snprintf(text, sizeof text, "%s%s]}}", head, refused[k][0]);
        assert_int_equal(t1_import_text(&r, text, strlen(text), "v.json", "", ""), 0);
        assert_null(r->text);
        if (r->nerrors < 1 || !strstr(r->errors[0], refused[k][1]))
            fail_msg("'%s', not '%s'", r->nerrors ? r->errors[0] : "(none)", refused[k][1]);
        t1_result_free(r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_operators, setup, teardown),
        cmocka_unit_test_setup_teardown(test_membership, setup, teardown),
        cmocka_unit_test_setup_teardown(test_precedence, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_file_global, setup, teardown),
        cmocka_unit_test_setup_teardown(test_type_names_reserved, setup, teardown),
        cmocka_unit_test_setup_teardown(test_twice_and_zero, setup, teardown),
        cmocka_unit_test_setup_teardown(test_vector_args, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
