/* test_lang.c - the parser: the tree it builds, locations, and error recovery. */
#include "helpers.h"

typedef struct parsed {
    arena *arena;
    src_file *src;
    ast_spec *ast;
    diag_list dl;
    int rc;
} parsed;

static parsed parse(const char *text)
{
    parsed p;
    p.arena = arena_new();
    p.src = src_new(p.arena, "t.tune", ".", text, strlen(text));
    diag_init(&p.dl, p.arena, p.src);
    p.rc = lang_parse(&p.ast, p.arena, p.src, &p.dl);
    return p;
}

static const ast_item *item(const parsed *p, int i)
{
    assert_true(i < p->ast->len);
    return p->ast->items[i];
}

static void test_kernel_header(void **state)
{
    (void)state;
    parsed p = parse("kernel reduce<BLOCK, float, (N > 2)> from \"r.cu\" { }");
    assert_int_equal(p.rc, 0);
    assert_true(p.ast->has_kernel);
    assert_string_equal(p.ast->kernel.name, "reduce");
    assert_string_equal(p.ast->file, "r.cu");
    assert_true(p.ast->has_targs);
    assert_int_equal(p.ast->targs.len, 3);
    assert_int_equal(p.ast->targs.items[0]->kind, EX_NAME);
    assert_int_equal(p.ast->targs.items[1]->kind, EX_CTYPE);
    assert_int_equal(p.ast->targs.items[1]->u.ctype, CT_FLOAT);
    assert_int_equal(p.ast->targs.items[2]->kind, EX_CHAIN);
    arena_free(p.arena);
}

static void test_param_forms(void **state)
{
    (void)state;
    parsed p = parse("kernel k from \"k.cu\" {\n"
                     "  param a in [1, 2, 4];\n"
                     "  param b in 1 .. 8;\n"
                     "  param c in 0 .. 64 step 8 as define C_VAL default 16;\n"
                     "  param d in 1 .. 1024 step *2 as template;\n"
                     "  param e in [\"\", \"--use_fast_math\"] as option;\n"
                     "  param f in [0, 32] as maxrregcount;\n"
                     "  param g in [0, 4096] as smem;\n"
                     "  param h in [1] as none;\n"
                     "  param i in [1] as option \"-Xptxas=-O{}\";\n"
                     "}");
    assert_int_equal(p.rc, 0);
    assert_int_equal(p.ast->len, 9);
    assert_int_equal(item(&p, 0)->u.param.domain.kind, DOM_LIST);
    assert_int_equal(item(&p, 0)->u.param.domain.values.len, 3);
    assert_int_equal(item(&p, 0)->u.param.route.kind, ROUTE_DEFINE);
    assert_false(item(&p, 0)->u.param.route.explicit_route);
    assert_int_equal(item(&p, 1)->u.param.domain.kind, DOM_RANGE);
    assert_null(item(&p, 1)->u.param.domain.step);
    assert_non_null(item(&p, 2)->u.param.domain.step);
    assert_false(item(&p, 2)->u.param.domain.geometric);
    assert_string_equal(item(&p, 2)->u.param.route.text, "C_VAL");
    assert_non_null(item(&p, 2)->u.param.deflt);
    assert_true(item(&p, 3)->u.param.domain.geometric);
    assert_int_equal(item(&p, 3)->u.param.route.kind, ROUTE_TEMPLATE);
    assert_int_equal(item(&p, 4)->u.param.route.kind, ROUTE_OPTION);
    assert_null(item(&p, 4)->u.param.route.text);
    assert_int_equal(item(&p, 5)->u.param.route.kind, ROUTE_MAXRREGCOUNT);
    assert_int_equal(item(&p, 6)->u.param.route.kind, ROUTE_SMEM);
    assert_int_equal(item(&p, 7)->u.param.route.kind, ROUTE_NONE);
    assert_string_equal(item(&p, 8)->u.param.route.text, "-Xptxas=-O{}");
    arena_free(p.arena);
}

static void test_precedence_and_chains(void **state)
{
    (void)state;
    parsed p = parse("kernel k from \"k.cu\" { require 32 <= a * b + 1 <= 1024 && !c || d; }");
    assert_int_equal(p.rc, 0);
    const ast_expr *e = item(&p, 0)->u.expr;
    /* || at the top, && below it, the chain below that */
    assert_int_equal(e->kind, EX_BINARY);
    assert_int_equal(e->u.binary.op, OP_OR);
    const ast_expr *and = e->u.binary.lhs;
    assert_int_equal(and->u.binary.op, OP_AND);
    const ast_expr *chain = and->u.binary.lhs;
    assert_int_equal(chain->kind, EX_CHAIN);
    assert_int_equal(chain->u.chain.operands.len, 3);
    assert_int_equal(chain->u.chain.ops[0], OP_LE);
    assert_int_equal(chain->u.chain.ops[1], OP_LE);
    const ast_expr *mid = chain->u.chain.operands.items[1];
    assert_int_equal(mid->u.binary.op, OP_ADD); /* a * b + 1: * binds tighter */
    assert_int_equal(mid->u.binary.lhs->u.binary.op, OP_MUL);
    assert_int_equal(and->u.binary.rhs->kind, EX_UNARY);
    arena_free(p.arena);

    /* Parentheses break a chain: (a < b) < c compares a bool with c. */
    p = parse("kernel k from \"k.cu\" { require (a < b) < c; }");
    e = item(&p, 0)->u.expr;
    assert_int_equal(e->kind, EX_CHAIN);
    assert_int_equal(e->u.chain.operands.len, 2);
    assert_int_equal(e->u.chain.operands.items[0]->kind, EX_CHAIN);
    arena_free(p.arena);

    /* Comparisons bind looser than bit operators (as in Python, unlike C). */
    p = parse("kernel k from \"k.cu\" { require x & 1 == 0; }");
    e = item(&p, 0)->u.expr;
    assert_int_equal(e->kind, EX_CHAIN);
    assert_int_equal(e->u.chain.operands.items[0]->u.binary.op, OP_BITAND);
    arena_free(p.arena);
}

/* Membership: `x in [...]` and `x not in [...]` (one token, over a line break too) at
 * the comparisons' level; `not` alone, and `not` before a longer word, are names. */
static void test_membership(void **state)
{
    (void)state;
    parsed p = parse("kernel k from \"k.cu\" { require a + 1 in [1, 2 * b,] && c not\n in [\"x\"]; "
                     "let not = 1; let d = not + e not in [inner]; }");
    assert_int_equal(p.rc, 0);
    const ast_expr *e = item(&p, 0)->u.expr;
    assert_int_equal(e->u.binary.op, OP_AND);
    const ast_expr *in = e->u.binary.lhs;
    assert_int_equal(in->kind, EX_IN);
    assert_false(in->u.in.negated);
    assert_int_equal(in->u.in.item->u.binary.op, OP_ADD);
    assert_int_equal(in->u.in.values.len, 2);
    assert_int_equal(in->u.in.values.items[1]->u.binary.op, OP_MUL);
    assert_int_equal(in->depth, 3); /* over a + 1 and 2 * b */
    const ast_expr *not_in = e->u.binary.rhs;
    assert_int_equal(not_in->kind, EX_IN);
    assert_true(not_in->u.in.negated);
    assert_int_equal(not_in->u.in.values.items[0]->kind, EX_STRING);
    assert_string_equal(p.ast->items[1]->u.let.name.name, "not");
    const ast_expr *d = p.ast->items[2]->u.let.value;
    assert_int_equal(d->kind, EX_IN);
    assert_int_equal(d->u.in.item->u.binary.op, OP_ADD);
    assert_string_equal(d->u.in.values.items[0]->u.name, "inner");
    arena_free(p.arena);

    p = parse("kernel k from \"k.cu\" { require x in []; }");
    assert_int_equal(p.rc, 0); /* an empty list is the checker's to refuse */
    assert_int_equal(item(&p, 0)->u.expr->u.in.values.len, 0);
    arena_free(p.arena);
}

/* Vector element types: type names of their own, with their lanes, lane type, size
 * (also their alignment) and CUDA spelling. */
static void test_vector_types(void **state)
{
    (void)state;
    parsed p = parse("kernel k<float4> from \"k.cu\" { arg a : in float2[8] = zeros; arg b : out double2[4]; "
                     "arg c : in int4[2] = zeros; arg d : inout uint2[1] = zeros; }");
    assert_int_equal(p.rc, 0);
    assert_int_equal(p.ast->targs.items[0]->u.ctype, CT_FLOAT4);
    assert_int_equal(item(&p, 0)->u.arg.type, CT_FLOAT2);
    assert_int_equal(item(&p, 1)->u.arg.type, CT_DOUBLE2);
    assert_int_equal(item(&p, 2)->u.arg.type, CT_INT4);
    assert_int_equal(item(&p, 3)->u.arg.type, CT_UINT2);
    arena_free(p.arena);
    /* every type name of the table below is a type, not a name */
    p = parse("kernel k<half2> from \"k.cu\" { arg a : in double4[8] = zeros; arg b : in char2[4] = zeros; "
              "arg c : in char4[4] = zeros; arg d : in uchar2[4] = zeros; arg e : in uchar4[4] = zeros; "
              "arg f : in short2[4] = zeros; arg g : in short4[4] = zeros; arg h : in ushort2[4] = zeros; "
              "arg i : in ushort4[4] = zeros; arg j : out half2[4]; }");
    assert_int_equal(p.rc, 0);
    assert_int_equal(p.ast->targs.items[0]->u.ctype, CT_HALF2);
    static const ast_ctype parsed_types[] = {CT_DOUBLE4, CT_CHAR2,  CT_CHAR4,   CT_UCHAR2,  CT_UCHAR4,
                                             CT_SHORT2,  CT_SHORT4, CT_USHORT2, CT_USHORT4, CT_HALF2};
    for (int i = 0; i < 10; i++)
        assert_int_equal(item(&p, i)->u.arg.type, parsed_types[i]);
    arena_free(p.arena);
    static const struct {
        ast_ctype t;
        const char *name;
        int size, lanes;
        ast_ctype lane;
        bool is_float;
    } want[] = {
        {CT_FLOAT2, "float2", 8, 2, CT_FLOAT, true},     {CT_FLOAT4, "float4", 16, 4, CT_FLOAT, true},
        {CT_DOUBLE2, "double2", 16, 2, CT_DOUBLE, true}, {CT_INT2, "int2", 8, 2, CT_INT, false},
        {CT_INT4, "int4", 16, 4, CT_INT, false},         {CT_UINT2, "uint2", 8, 2, CT_UINT, false},
        {CT_UINT4, "uint4", 16, 4, CT_UINT, false},      {CT_FLOAT, "float", 4, 1, CT_FLOAT, true},
        {CT_DOUBLE4, "double4", 32, 4, CT_DOUBLE, true}, {CT_CHAR2, "char2", 2, 2, CT_INT8, false},
        {CT_CHAR4, "char4", 4, 4, CT_INT8, false},       {CT_UCHAR2, "uchar2", 2, 2, CT_UINT8, false},
        {CT_UCHAR4, "uchar4", 4, 4, CT_UINT8, false},    {CT_SHORT2, "short2", 4, 2, CT_INT16, false},
        {CT_SHORT4, "short4", 8, 4, CT_INT16, false},    {CT_USHORT2, "ushort2", 4, 2, CT_UINT16, false},
        {CT_USHORT4, "ushort4", 8, 4, CT_UINT16, false}, {CT_HALF2, "half2", 4, 2, CT_HALF, true},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        assert_string_equal(ast_ctype_name(want[i].t), want[i].name);
        /* CUDA spells every vector type as the spec does but half2 (cuda_fp16.h's) */
        assert_string_equal(ast_ctype_cuda(want[i].t), want[i].t == CT_HALF2 ? "__half2" : want[i].name);
        assert_int_equal(ast_ctype_size(want[i].t), want[i].size);
        assert_int_equal(ast_ctype_lanes(want[i].t), want[i].lanes);
        assert_int_equal(ast_ctype_component(want[i].t), want[i].lane);
        assert_int_equal(ast_ctype_is_float(want[i].t), want[i].is_float);
    }
}

static void test_locations(void **state)
{
    (void)state;
    const char *text = "kernel k from \"k.cu\" {\n  param  blk in [1];\n}";
    parsed p = parse(text);
    assert_int_equal(p.rc, 0);
    span s = item(&p, 0)->u.param.name.loc;
    unsigned line, col;
    src_position(p.src, s.begin, &line, &col);
    assert_int_equal(line, 2);
    assert_int_equal(col, 10);
    assert_int_equal(s.end - s.begin, 3);
    arena_free(p.arena);
}

static void test_error_recovery_reports_every_error(void **state)
{
    (void)state;
    parsed p = parse("kernel k from \"k.cu\" {\n"
                     "  param a in [1, 2;\n" /* ] missing */
                     "  param b in 1 .. 4;\n"
                     "  require a >;\n"   /* operand missing */
                     "  parm c in [1];\n" /* misspelt keyword */
                     "  let d = 3;\n"
                     "}");
    assert_int_equal(p.rc, -1);
    assert_int_equal(p.dl.errors, 3);
    /* The statements between the errors survive. */
    int params = 0, lets = 0;
    for (int i = 0; i < p.ast->len; i++) {
        params += p.ast->items[i]->kind == IT_PARAM;
        lets += p.ast->items[i]->kind == IT_LET;
    }
    assert_int_equal(params, 1);
    assert_int_equal(lets, 1);
    strbuf out = STRBUF_INIT;
    diag_render(&p.dl, &out, false);
    assert_non_null(strstr(sb_cstr(&out), "t.tune:2:19: error: expected ']', found ';'"));
    assert_non_null(strstr(sb_cstr(&out), "t.tune:4:14: error: expected an expression, found ';'"));
    assert_non_null(strstr(sb_cstr(&out), "t.tune:5:3: error: unknown statement 'parm'; did you mean 'param'?"));
    sb_free(&out);
    arena_free(p.arena);
}

static void test_caret_rendering(void **state)
{
    (void)state;
    parsed p = parse("kernel k from \"k.cu\" {\n\tparam x in [1, @ 2];\n}");
    strbuf out = STRBUF_INIT;
    diag_render(&p.dl, &out, false);
    /* The tab is copied into the caret line so the caret lines up in a terminal. */
    assert_string_equal(sb_cstr(&out), "t.tune:2:17: error: unexpected character '@'\n"
                                       "     2 | \tparam x in [1, @ 2];\n"
                                       "       | \t               ^\n");
    sb_free(&out);
    arena_free(p.arena);
}

static void test_literals(void **state)
{
    (void)state;
    parsed p = parse("kernel k from \"k.cu\" { let a = 0x1F, b = 1_000, c = 2.5e3, d = 250ms, e = \"x\\ty\"; }");
    assert_int_equal(p.rc, 0);
    assert_int_equal(item(&p, 0)->u.let.value->u.ival, 31);
    assert_int_equal(item(&p, 1)->u.let.value->u.ival, 1000);
    assert_true(item(&p, 2)->u.let.value->u.fval == 2500.0);
    assert_true(item(&p, 3)->u.let.value->u.fval == 0.25);
    assert_string_equal(item(&p, 4)->u.let.value->u.sval, "x\ty");
    arena_free(p.arena);
}

/* A flex fatal error (here: the scanner's allocations fail once it exists, in
 * yy_scan_bytes, yy_scan_buffer or yyensure_buffer_stack) is a parse error returned to
 * the caller, not an exit; what the scanner held is freed (the sanitizer build checks
 * for leaks). The limit 1 fails the scanner's creation itself: plain out of memory. */
static void test_scanner_fatal_error_is_returned(void **state)
{
    (void)state;
    const char *text = "kernel k from \"k.cu\" { let a = 1; }";
    for (int limit = 1; limit <= 6; limit++) {
        arena *a = arena_new();
        src_file *src = src_new(a, "t.tune", ".", text, strlen(text));
        diag_list dl;
        diag_init(&dl, a, src);
        ast_spec *ast = NULL;
        int rc = lang_parse_limited(&ast, a, src, &dl, limit);
        if (limit == 1) {
            assert_int_equal(rc, -1);
            assert_null(ast);
            assert_int_equal(dl.errors, 0);
        } else if (limit <= 4) {
            assert_int_equal(rc, -1);
            assert_non_null(ast);
            assert_int_equal(dl.errors, 1);
            assert_non_null(strstr(dl.items[0].message, "internal scanner error: out of dynamic memory in yy"));
        } else {
            assert_int_equal(rc, 0);
            assert_int_equal(dl.errors, 0);
            assert_int_equal(ast->len, 1);
        }
        arena_free(a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_header),
        cmocka_unit_test(test_param_forms),
        cmocka_unit_test(test_precedence_and_chains),
        cmocka_unit_test(test_locations),
        cmocka_unit_test(test_error_recovery_reports_every_error),
        cmocka_unit_test(test_caret_rendering),
        cmocka_unit_test(test_literals),
        cmocka_unit_test(test_membership),
        cmocka_unit_test(test_vector_types),
        cmocka_unit_test(test_scanner_fatal_error_is_returned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
