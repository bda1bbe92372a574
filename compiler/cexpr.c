/* cexpr.c - typed expressions written as C (see cexpr.h).
 *
 * Two printers share one set of combinators: one walks the typed expression (texpr),
 * the other the syntax tree of a constant part that reads lets (the checker folded it
 * into one value; the tree still has the names). Every composite the combinators make
 * is wrapped in parentheses, so an operand never needs more. */
#include "cexpr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- literals and names --------------------------------------------------------- */

static const char *const keywords[] = {
    "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
    "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
    "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
    "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
    "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
    "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
    "requires", "restrict", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast",
    "struct", "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid",
    "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
    "_Alignas", "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn",
    "_Static_assert", "_Thread_local", "config", "dim3",
};

bool cexpr_is_keyword(const char *name)
{
    for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
        if (strcmp(keywords[i], name) == 0)
            return true;
    return false;
}

void cexpr_ident(const char *name, strbuf *out)
{
    sb_add(out, name);
    if (cexpr_is_keyword(name))
        sb_addc(out, '_');
}

void cexpr_string(const char *s, strbuf *out)
{
    sb_addc(out, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': sb_add(out, "\\\""); break;
        case '\\': sb_add(out, "\\\\"); break;
        case '\n': sb_add(out, "\\n"); break;
        case '\t': sb_add(out, "\\t"); break;
        case '?': sb_add(out, p[1] == '?' ? "?\\" : "?"); break; /* no trigraphs: "??=" -> "?\?=" */
        default:
            if (*p < 0x20 || *p >= 0x7f)
                sb_printf(out, "\\%03o", *p); /* octal: never swallows the next character */
            else
                sb_addc(out, (char)*p);
        }
    }
    sb_addc(out, '"');
}

void cexpr_value(value v, strbuf *out)
{
    switch (v.type) {
    case VT_INT:
        if (v.u.i < 0)
            sb_addc(out, '(');
        if (v.u.i == INT64_MIN)
            sb_add(out, "-9223372036854775807LL - 1");
        else
            sb_printf(out, "%lld%s", (long long)v.u.i, v.u.i > 2147483647 || v.u.i < -2147483647 ? "LL" : "");
        if (v.u.i < 0)
            sb_addc(out, ')');
        break;
    case VT_FLOAT: {
        bool neg = signbit(v.u.f) && v.u.f != 0;
        if (neg)
            sb_addc(out, '(');
        value_format_c(v, out, false);
        if (neg)
            sb_addc(out, ')');
        break;
    }
    case VT_BOOL: sb_add(out, v.u.b ? "1" : "0"); break;
    case VT_STRING: cexpr_string(v.u.s, out); break;
    default: sb_add(out, "0"); break;
    }
}

const char *cexpr_type(vtype t)
{
    switch (t) {
    case VT_INT: return "long long";
    case VT_FLOAT: return "double";
    case VT_BOOL: return "int";
    default: return "const char *";
    }
}

/* ---- combinators -------------------------------------------------------------------- */

/* A printed operand: its text (an atom: a name, a literal, or parenthesised) and type. */
typedef struct piece {
    strbuf s;
    vtype t;
} piece;

static const char *T(const piece *p) { return sb_cstr(&p->s); }

/* An operand of a float operation: an int converted to double. */
static void as_double(strbuf *out, const piece *p)
{
    if (p->t == VT_FLOAT)
        sb_add(out, T(p));
    else
        sb_printf(out, "((double)%s)", T(p));
}

static bool is_comparison(ast_op op)
{
    return op == OP_LT || op == OP_LE || op == OP_GT || op == OP_GE || op == OP_EQ || op == OP_NE;
}

/* a OP b for a comparison, strings through strcmp. */
static void compare(cexpr_ctx *ctx, ast_op op, const piece *a, const piece *b, strbuf *out)
{
    if (a->t == VT_STRING) {
        ctx->needs_string = true;
        sb_printf(out, "(strcmp(%s, %s) %s 0)", T(a), T(b), ast_op_text(op));
    } else {
        sb_printf(out, "(%s %s %s)", T(a), ast_op_text(op), T(b));
    }
}

/* The integer literal a piece holds (true when it is one), for simpler forms. */
static bool int_literal(const piece *p, long long *out)
{
    const char *s = T(p);
    char *end;
    if (p->t != VT_INT || !(*s >= '0' && *s <= '9'))
        return false;
    *out = strtoll(s, &end, 10);
    return strcmp(end, "") == 0 || strcmp(end, "LL") == 0;
}

static void power(cexpr_ctx *ctx, vtype t, const piece *a, const piece *b, strbuf *out)
{
    long long k;
    if (t == VT_INT && int_literal(b, &k) && k <= 16) {
        if (k == 0) {
            sb_add(out, "1");
            return;
        }
        sb_addc(out, '(');
        for (long long i = 0; i < k; i++)
            sb_printf(out, "%s%s", i ? " * " : "", T(a));
        sb_addc(out, ')');
        return;
    }
    ctx->needs_math = true;
    sb_add(out, t == VT_INT ? "((long long)pow(" : "pow(");
    as_double(out, a);
    sb_add(out, ", ");
    as_double(out, b);
    sb_add(out, t == VT_INT ? "))" : ")");
}

static void binary(cexpr_ctx *ctx, ast_op op, vtype t, const piece *a, const piece *b, strbuf *out)
{
    if (is_comparison(op)) {
        compare(ctx, op, a, b, out);
        return;
    }
    bool ints = a->t == VT_INT && b->t == VT_INT;
    long long k;
    switch (op) {
    case OP_DIV:
        sb_addc(out, '(');
        as_double(out, a);
        sb_printf(out, " / %s)", T(b));
        return;
    case OP_FLOORDIV:
        if (!ints) {
            ctx->needs_math = true;
            sb_addc(out, '(');
            sb_add(out, "floor(");
            as_double(out, a);
            sb_printf(out, " / %s))", T(b));
        } else if (int_literal(b, &k) && k > 0) {
            sb_printf(out, "(%s / %s - (%s %% %s < 0))", T(a), T(b), T(a), T(b));
        } else {
            sb_printf(out, "(%s / %s - (%s %% %s != 0 && (%s < 0) != (%s < 0)))", T(a), T(b), T(a), T(b), T(a), T(b));
        }
        return;
    case OP_MOD:
        sb_printf(out, "((%s %% %s + %s) %% %s)", T(a), T(b), T(b), T(b));
        return;
    case OP_POW: power(ctx, t, a, b, out); return;
    case OP_AND: sb_printf(out, "(%s && %s)", T(a), T(b)); return;
    case OP_OR: sb_printf(out, "(%s || %s)", T(a), T(b)); return;
    default: sb_printf(out, "(%s %s %s)", T(a), ast_op_text(op), T(b)); return;
    }
}

static void unary(ast_op op, const piece *a, strbuf *out)
{
    switch (op) {
    case OP_NOT: sb_printf(out, "(!%s)", T(a)); break;
    case OP_BITNOT: sb_printf(out, "(~%s)", T(a)); break;
    case OP_POS: sb_add(out, T(a)); break;
    default: sb_printf(out, "(-%s)", T(a)); break;
    }
}

static void chain(cexpr_ctx *ctx, int n, const ast_op *ops, const piece *p, strbuf *out)
{
    if (n == 2) {
        compare(ctx, ops[0], &p[0], &p[1], out);
        return;
    }
    sb_addc(out, '(');
    for (int i = 0; i + 1 < n; i++) {
        if (i)
            sb_add(out, " && ");
        compare(ctx, ops[i], &p[i], &p[i + 1], out);
    }
    sb_addc(out, ')');
}

static void cond(vtype t, const piece *c, const piece *a, const piece *b, strbuf *out)
{
    sb_printf(out, "(%s ? ", T(c));
    if (t == VT_FLOAT)
        as_double(out, a);
    else
        sb_add(out, T(a));
    sb_add(out, " : ");
    if (t == VT_FLOAT)
        as_double(out, b);
    else
        sb_add(out, T(b));
    sb_addc(out, ')');
}

/* min/max of p[0..n): the first of the best (as the evaluator), nested pairwise. */
static void min_max(bool want_max, vtype t, int n, const piece *p, strbuf *out)
{
    strbuf acc = STRBUF_INIT;
    if (t == VT_FLOAT)
        as_double(&acc, &p[0]);
    else
        sb_add(&acc, T(&p[0]));
    for (int i = 1; i < n; i++) {
        strbuf x = STRBUF_INIT, next = STRBUF_INIT;
        if (t == VT_FLOAT)
            as_double(&x, &p[i]);
        else
            sb_add(&x, T(&p[i]));
        sb_printf(&next, "(%s %s %s ? %s : %s)", sb_cstr(&x), want_max ? ">" : "<", sb_cstr(&acc), sb_cstr(&x),
                  sb_cstr(&acc));
        sb_free(&x);
        sb_free(&acc);
        acc = next;
    }
    sb_add(out, sb_cstr(&acc));
    sb_free(&acc);
}

static void call(cexpr_ctx *ctx, builtin_fn fn, vtype t, int n, const piece *p, strbuf *out)
{
    const char *mathfn = NULL;
    switch (fn) {
    case FN_MIN:
    case FN_MAX: min_max(fn == FN_MAX, t, n, p, out); return;
    case FN_CDIV: sb_printf(out, "((%s + %s - 1) / %s)", T(&p[0]), T(&p[1]), T(&p[1])); return;
    case FN_CEIL: mathfn = "ceil"; break;
    case FN_FLOOR: mathfn = "floor"; break;
    case FN_ROUND: mathfn = "round"; break;
    case FN_ABS:
        if (p[0].t == VT_INT) {
            sb_printf(out, "(%s < 0 ? -%s : %s)", T(&p[0]), T(&p[0]), T(&p[0]));
        } else {
            ctx->needs_math = true;
            sb_printf(out, "fabs(%s)", T(&p[0]));
        }
        return;
    case FN_POW: power(ctx, t, &p[0], &p[1], out); return;
    case FN_LOG2:
    case FN_SQRT:
        ctx->needs_math = true;
        sb_add(out, fn == FN_LOG2 ? "log2(" : "sqrt(");
        as_double(out, &p[0]);
        sb_addc(out, ')');
        return;
    case FN_INT: sb_printf(out, "((long long)%s)", T(&p[0])); return;
    case FN_FLOAT: sb_printf(out, "((double)%s)", T(&p[0])); return;
    case FN_IS_POW2: sb_printf(out, "(%s > 0 && (%s & (%s - 1)) == 0)", T(&p[0]), T(&p[0]), T(&p[0])); return;
    }
    /* ceil, floor, round: an int is itself; a float is rounded, then made an int. */
    if (p[0].t == VT_INT) {
        sb_add(out, T(&p[0]));
        return;
    }
    ctx->needs_math = true;
    sb_printf(out, "((long long)%s(%s))", mathfn, T(&p[0]));
}

/* ---- the syntax tree of a folded constant ---------------------------------------- */

static int let_index(const model *m, const char *name)
{
    for (int i = 0; i < m->nlets; i++)
        if (strcmp(m->lets[i].name, name) == 0)
            return i;
    return -1;
}

static const ast_expr *find_in(const ast_expr *e, span loc)
{
    if (!e)
        return NULL;
    if (e->loc.begin == loc.begin && e->loc.end == loc.end)
        return e;
    if (e->loc.begin > loc.begin || e->loc.end < loc.end)
        return NULL;
    const ast_expr *found = NULL;
    switch (e->kind) {
    case EX_UNARY: return find_in(e->u.unary.operand, loc);
    case EX_BINARY:
        found = find_in(e->u.binary.lhs, loc);
        return found ? found : find_in(e->u.binary.rhs, loc);
    case EX_CHAIN:
        for (int i = 0; !found && i < e->u.chain.operands.len; i++)
            found = find_in(e->u.chain.operands.items[i], loc);
        return found;
    case EX_COND:
        found = find_in(e->u.cond.cond, loc);
        if (!found)
            found = find_in(e->u.cond.then, loc);
        return found ? found : find_in(e->u.cond.otherwise, loc);
    case EX_CALL:
        for (int i = 0; !found && i < e->u.call.args.len; i++)
            found = find_in(e->u.call.args.items[i].value, loc);
        return found;
    default: return NULL;
    }
}

/* The syntax node a folded constant was made from (in a let, block, grid or smem). */
static const ast_expr *find_node(const ast_spec *ast, span loc)
{
    for (int i = 0; ast && i < ast->len; i++) {
        const ast_item *it = ast->items[i];
        const ast_expr *found = NULL;
        switch (it->kind) {
        case IT_LET: found = find_in(it->u.let.value, loc); break;
        case IT_SMEM: found = find_in(it->u.expr, loc); break;
        case IT_BLOCK:
        case IT_GRID:
            for (int k = 0; !found && k < it->u.dims.len; k++)
                found = find_in(it->u.dims.items[k], loc);
            break;
        default: break;
        }
        if (found)
            return found;
    }
    return NULL;
}

static bool ast_reads_let(const model *m, const ast_expr *e)
{
    switch (e->kind) {
    case EX_NAME: return let_index(m, e->u.name) >= 0;
    case EX_UNARY: return ast_reads_let(m, e->u.unary.operand);
    case EX_BINARY: return ast_reads_let(m, e->u.binary.lhs) || ast_reads_let(m, e->u.binary.rhs);
    case EX_CHAIN:
        for (int i = 0; i < e->u.chain.operands.len; i++)
            if (ast_reads_let(m, e->u.chain.operands.items[i]))
                return true;
        return false;
    case EX_COND:
        return ast_reads_let(m, e->u.cond.cond) || ast_reads_let(m, e->u.cond.then) ||
               ast_reads_let(m, e->u.cond.otherwise);
    case EX_CALL:
        for (int i = 0; i < e->u.call.args.len; i++)
            if (ast_reads_let(m, e->u.call.args.items[i].value))
                return true;
        return false;
    default: return false;
    }
}

/* The node a folded constant came from, when that node reads a let; else NULL. */
static const ast_expr *let_origin(const cexpr_ctx *ctx, const texpr *e)
{
    if (!ctx->ast || e->kind != TX_CONST)
        return NULL;
    const ast_expr *node = find_node(ctx->ast, e->loc);
    return node && ast_reads_let(ctx->m, node) ? node : NULL;
}

static const struct {
    const char *name;
    builtin_fn fn;
} functions[] = {
    {"min", FN_MIN}, {"max", FN_MAX}, {"cdiv", FN_CDIV}, {"ceil", FN_CEIL}, {"floor", FN_FLOOR},
    {"round", FN_ROUND}, {"abs", FN_ABS}, {"pow", FN_POW}, {"log2", FN_LOG2}, {"sqrt", FN_SQRT},
    {"int", FN_INT}, {"float", FN_FLOAT}, {"is_pow2", FN_IS_POW2},
};

static int function_of(const char *name, builtin_fn *fn)
{
    for (size_t i = 0; i < sizeof functions / sizeof *functions; i++)
        if (strcmp(functions[i].name, name) == 0) {
            *fn = functions[i].fn;
            return 0;
        }
    return -1;
}

/* The type of a constant syntax node, by the checker's rules (it already checked it). */
static vtype ast_type(const model *m, const ast_expr *e)
{
    switch (e->kind) {
    case EX_INT: return VT_INT;
    case EX_FLOAT: return VT_FLOAT;
    case EX_BOOL: return VT_BOOL;
    case EX_STRING: return VT_STRING;
    case EX_NAME: {
        int i = let_index(m, e->u.name);
        return i >= 0 ? m->lets[i].type : VT_ERROR;
    }
    case EX_UNARY: return e->u.unary.op == OP_NOT ? VT_BOOL : ast_type(m, e->u.unary.operand);
    case EX_BINARY: {
        ast_op op = e->u.binary.op;
        if (is_comparison(op) || op == OP_AND || op == OP_OR)
            return VT_BOOL;
        if (op == OP_DIV)
            return VT_FLOAT;
        vtype a = ast_type(m, e->u.binary.lhs), b = ast_type(m, e->u.binary.rhs);
        if (op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_FLOORDIV || op == OP_POW)
            return a == VT_INT && b == VT_INT ? VT_INT : VT_FLOAT;
        return VT_INT;
    }
    case EX_CHAIN: return VT_BOOL;
    case EX_COND: {
        vtype a = ast_type(m, e->u.cond.then), b = ast_type(m, e->u.cond.otherwise);
        return a == b ? a : VT_FLOAT;
    }
    case EX_CALL: {
        builtin_fn fn;
        if (function_of(e->u.call.name, &fn) < 0)
            return VT_ERROR;
        bool any_float = false;
        for (int i = 0; i < e->u.call.args.len; i++)
            any_float |= ast_type(m, e->u.call.args.items[i].value) == VT_FLOAT;
        switch (fn) {
        case FN_MIN: case FN_MAX: case FN_ABS: case FN_POW: return any_float ? VT_FLOAT : VT_INT;
        case FN_CDIV: case FN_CEIL: case FN_FLOOR: case FN_ROUND: case FN_INT: return VT_INT;
        case FN_LOG2: case FN_SQRT: case FN_FLOAT: return VT_FLOAT;
        case FN_IS_POW2: return VT_BOOL;
        }
        return VT_ERROR;
    }
    default: return VT_ERROR;
    }
}

static int fail(eval_error *err, span loc, const char *msg)
{
    err->loc = loc;
    snprintf(err->message, sizeof err->message, "%s", msg);
    return -1;
}

static void free_pieces(piece *p, int n)
{
    for (int i = 0; i < n; i++)
        sb_free(&p[i].s);
}

static int print_ast(cexpr_ctx *ctx, const ast_expr *e, piece *out, eval_error *err)
{
    const model *m = ctx->m;
    out->t = ast_type(m, e);
    if (out->t == VT_ERROR)
        return fail(err, e->loc, "cannot write this expression as C");
    piece p[8];
    memset(p, 0, sizeof p);
    int n = 0, rc = 0;
    switch (e->kind) {
    case EX_INT: cexpr_value(value_int(e->u.ival), &out->s); return 0;
    case EX_FLOAT: cexpr_value(value_float(e->u.fval), &out->s); return 0;
    case EX_BOOL: cexpr_value(value_bool(e->u.bval), &out->s); return 0;
    case EX_STRING: cexpr_value(value_string(e->u.sval), &out->s); return 0;
    case EX_NAME: {
        int i = let_index(m, e->u.name);
        if (ctx->lets_used)
            ctx->lets_used[i] = true;
        cexpr_ident(e->u.name, &out->s);
        return 0;
    }
    case EX_UNARY:
        if ((rc = print_ast(ctx, e->u.unary.operand, &p[0], err)) == 0)
            unary(e->u.unary.op, &p[0], &out->s);
        n = 1;
        break;
    case EX_BINARY:
        n = 2;
        if ((rc = print_ast(ctx, e->u.binary.lhs, &p[0], err)) == 0 &&
            (rc = print_ast(ctx, e->u.binary.rhs, &p[1], err)) == 0)
            binary(ctx, e->u.binary.op, out->t, &p[0], &p[1], &out->s);
        break;
    case EX_CHAIN:
        if (e->u.chain.operands.len > 8)
            return fail(err, e->loc, "too many comparisons to write as C");
        for (n = 0; rc == 0 && n < e->u.chain.operands.len; n++)
            rc = print_ast(ctx, e->u.chain.operands.items[n], &p[n], err);
        if (rc == 0)
            chain(ctx, n, e->u.chain.ops, p, &out->s);
        break;
    case EX_COND:
        n = 3;
        if ((rc = print_ast(ctx, e->u.cond.cond, &p[0], err)) == 0 &&
            (rc = print_ast(ctx, e->u.cond.then, &p[1], err)) == 0 &&
            (rc = print_ast(ctx, e->u.cond.otherwise, &p[2], err)) == 0)
            cond(out->t, &p[0], &p[1], &p[2], &out->s);
        break;
    case EX_CALL: {
        builtin_fn fn;
        if (function_of(e->u.call.name, &fn) < 0 || e->u.call.args.len > 8)
            return fail(err, e->loc, "cannot write this call as C");
        for (n = 0; rc == 0 && n < e->u.call.args.len; n++)
            rc = print_ast(ctx, e->u.call.args.items[n].value, &p[n], err);
        if (rc == 0)
            call(ctx, fn, out->t, n, p, &out->s);
        break;
    }
    default: return fail(err, e->loc, "a type is not a value");
    }
    free_pieces(p, n);
    return rc;
}

/* ---- typed expressions ---------------------------------------------------------------- */

bool cexpr_reads_lets(const cexpr_ctx *ctx, const texpr *e)
{
    switch (e->kind) {
    case TX_CONST: return let_origin(ctx, e) != NULL;
    case TX_LET: return cexpr_reads_lets(ctx, ctx->m->lets[e->u.index].expr);
    case TX_UNARY: return cexpr_reads_lets(ctx, e->u.op.a);
    case TX_BINARY: return cexpr_reads_lets(ctx, e->u.op.a) || cexpr_reads_lets(ctx, e->u.op.b);
    case TX_CHAIN:
        for (int i = 0; i < e->u.chain.n; i++)
            if (cexpr_reads_lets(ctx, e->u.chain.operands[i]))
                return true;
        return false;
    case TX_COND:
        return cexpr_reads_lets(ctx, e->u.cond.cond) || cexpr_reads_lets(ctx, e->u.cond.then) ||
               cexpr_reads_lets(ctx, e->u.cond.otherwise);
    case TX_CALL:
        for (int i = 0; i < e->u.call.n; i++)
            if (cexpr_reads_lets(ctx, e->u.call.args[i]))
                return true;
        return false;
    default: return false;
    }
}

/* A derived let (one that reads params: constant ones were folded by the checker) is
 * written as its expression. */
static int print_tx(cexpr_ctx *ctx, const texpr *e, piece *out, eval_error *err)
{
    out->t = e->type;
    if (e->kind == TX_CONST) {
        const ast_expr *origin = let_origin(ctx, e);
        if (origin)
            return print_ast(ctx, origin, out, err);
        cexpr_value(e->u.k, &out->s);
        return 0;
    }
    if (ctx->params && e->kind != TX_TIME && e->kind != TX_METRIC && e->kind != TX_CTYPE && e->kind != TX_SLOT &&
        !e->uses_time && !cexpr_reads_lets(ctx, e)) {
        eval_env env = {ctx->m, ctx->params, false, 0.0, NULL};
        value v;
        if (eval_expr(e, &env, &v, err) < 0)
            return -1;
        cexpr_value(v, &out->s);
        return 0;
    }
    piece p[8];
    memset(p, 0, sizeof p);
    int n = 0, rc = 0;
    switch (e->kind) {
    case TX_PARAM:
        if (ctx->params)
            cexpr_value(ctx->params[e->u.index], &out->s);
        else
            sb_add(&out->s, ctx->param_text[e->u.index]);
        return 0;
    case TX_LET: return print_tx(ctx, ctx->m->lets[e->u.index].expr, out, err);
    case TX_UNARY:
        n = 1;
        if ((rc = print_tx(ctx, e->u.op.a, &p[0], err)) == 0)
            unary(e->u.op.op, &p[0], &out->s);
        break;
    case TX_BINARY:
        n = 2;
        if ((rc = print_tx(ctx, e->u.op.a, &p[0], err)) == 0 && (rc = print_tx(ctx, e->u.op.b, &p[1], err)) == 0)
            binary(ctx, e->u.op.op, e->type, &p[0], &p[1], &out->s);
        break;
    case TX_CHAIN:
        if (e->u.chain.n > 8)
            return fail(err, e->loc, "too many comparisons to write as C");
        for (n = 0; rc == 0 && n < e->u.chain.n; n++)
            rc = print_tx(ctx, e->u.chain.operands[n], &p[n], err);
        if (rc == 0)
            chain(ctx, n, e->u.chain.ops, p, &out->s);
        break;
    case TX_COND:
        n = 3;
        if ((rc = print_tx(ctx, e->u.cond.cond, &p[0], err)) == 0 &&
            (rc = print_tx(ctx, e->u.cond.then, &p[1], err)) == 0 &&
            (rc = print_tx(ctx, e->u.cond.otherwise, &p[2], err)) == 0)
            cond(e->type, &p[0], &p[1], &p[2], &out->s);
        break;
    case TX_CALL:
        if (e->u.call.n > 8)
            return fail(err, e->loc, "too many arguments to write as C");
        for (n = 0; rc == 0 && n < e->u.call.n; n++)
            rc = print_tx(ctx, e->u.call.args[n], &p[n], err);
        if (rc == 0)
            call(ctx, e->u.call.fn, e->type, n, p, &out->s);
        break;
    case TX_TIME:
    case TX_METRIC: return fail(err, e->loc, "the measured time is not known in C");
    default: return fail(err, e->loc, "cannot write this expression as C");
    }
    free_pieces(p, n);
    return rc;
}

/* Whether the '(' at s[0] closes at the last character. */
static bool wrapped(const char *s, size_t len)
{
    if (len < 2 || s[0] != '(' || s[len - 1] != ')')
        return false;
    int depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < len; i++) {
        if (in_string) {
            if (s[i] == '\\')
                i++;
            else if (s[i] == '"')
                in_string = false;
            continue;
        }
        if (s[i] == '"')
            in_string = true;
        else if (s[i] == '(')
            depth++;
        else if (s[i] == ')' && --depth == 0 && i + 1 < len)
            return false;
    }
    return true;
}

int cexpr_print(cexpr_ctx *ctx, const texpr *e, strbuf *out, eval_error *err)
{
    piece p = {STRBUF_INIT, VT_ERROR};
    int rc = print_tx(ctx, e, &p, err);
    if (rc == 0) {
        const char *s = sb_cstr(&p.s);
        size_t len = strlen(s);
        if (wrapped(s, len) && !(len > 2 && s[1] == '-' && s[2] >= '0' && s[2] <= '9'))
            sb_addn(out, s + 1, len - 2);
        else
            sb_add(out, s);
    }
    sb_free(&p.s);
    return rc;
}
