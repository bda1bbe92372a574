/* cexpr.c - typed expressions written as C (see cexpr.h).
 *
 * One printer walks the typed expression (texpr). Types, builtins and folded constants
 * are the checker's (compiler/sema_expr.c), read from the tree: a constant part that
 * reads lets is written from what the checker recorded it was folded from, so the names
 * stay. Every composite the combinators make is wrapped in parentheses, so an operand
 * never needs more. */
#include "cexpr.h"

#include "../base/escape.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- literals and names --------------------------------------------------------- */

bool cexpr_is_keyword(const char *name)
{
    /* config: the argument of the functions of a configuration; dim3: CUDA's type. */
    return esc_c_keyword(name) || strcmp(name, "config") == 0 || strcmp(name, "dim3") == 0;
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
    esc_c_string(out, s);
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

/* ---- the helpers ------------------------------------------------------------------------ */

/* Each helper's definition; its one "%s" is the prefix. Guards first: a zero divisor, the one
 * overflowing division (LLONG_MIN by -1), a shift count outside 0..63, a shift that
 * overflows: 0 (the evaluator refuses these). */
static const struct {
    unsigned bit;
    const char *text;
} helper_defs[] = {
    {CEXPR_FLOORDIV, "static inline long long %s_floordiv(long long a, long long b)\n"
                     "{\n"
                     "    long long q, r;\n"
                     "    if (b == 0 || (b == -1 && a < -9223372036854775807LL))\n"
                     "        return 0;\n"
                     "    q = a / b;\n"
                     "    r = a % b;\n"
                     "    return (r != 0 && (r < 0) != (b < 0)) ? q - 1 : q;\n"
                     "}\n"},
    {CEXPR_MOD, "static inline long long %s_mod(long long a, long long b)\n"
                "{\n"
                "    long long r;\n"
                "    if (b == 0 || b == -1)\n"
                "        return 0;\n"
                "    r = a % b;\n"
                "    return (r != 0 && (r < 0) != (b < 0)) ? r + b : r;\n"
                "}\n"},
    {CEXPR_CDIV, "static inline long long %s_cdiv(long long a, long long b)\n"
                 "{\n"
                 "    long long q, r;\n"
                 "    if (b == 0 || (b == -1 && a < -9223372036854775807LL))\n"
                 "        return 0;\n"
                 "    q = a / b;\n"
                 "    r = a % b;\n"
                 "    return (r != 0 && (r < 0) == (b < 0)) ? q + 1 : q;\n"
                 "}\n"},
    {CEXPR_SHL, "static inline long long %s_shl(long long a, long long b)\n"
                "{\n"
                "    long long limit;\n"
                "    if (b < 0 || b > 63)\n"
                "        return 0;\n"
                "    if (b == 63)\n"
                "        return a == -1 ? -9223372036854775807LL - 1 : 0;\n"
                "    limit = 9223372036854775807LL >> b;\n"
                "    if (a > limit || a < -limit - 1)\n"
                "        return 0;\n"
                "    return a * (1LL << b);\n"
                "}\n"},
    {CEXPR_SHR, "static inline long long %s_shr(long long a, long long b)\n"
                "{\n"
                "    if (b < 0 || b > 63)\n"
                "        return 0;\n"
                "    return a < 0 ? ~(~a >> b) : a >> b;\n"
                "}\n"},
};

void cexpr_helpers(strbuf *out, const char *prefix, unsigned helpers)
{
    for (size_t i = 0; i < sizeof helper_defs / sizeof *helper_defs; i++)
        if (helpers & helper_defs[i].bit) {
            strbuf one = STRBUF_INIT;
            const char *t = helper_defs[i].text, *at = strstr(t, "%s");
            sb_addn(&one, t, (size_t)(at - t)); /* the text holds '%' of C: no printf */
            sb_add(&one, prefix ? prefix : "cutune");
            sb_add(&one, at + 2);
            sb_add(out, sb_cstr(&one));
            sb_free(&one);
        }
}

/* ---- combinators -------------------------------------------------------------------- */

/* A printed operand: its text (an atom: a name, a literal, or parenthesised) and type. */
typedef struct piece {
    strbuf s;
    vtype t;
} piece;

static const char *T(const piece *p)
{
    return sb_cstr(&p->s);
}

/* An operand of a float operation: an int converted to double. */
static void as_double(strbuf *out, const piece *p)
{
    if (p->t == VT_FLOAT)
        sb_add(out, T(p));
    else
        sb_printf(out, "((double)%s)", T(p));
}

/* is_comparison: whether op is <, <=, >, >=, == or !=. */
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

/* power: a ** b of type t: repeated products for an int and a small literal exponent,
 * else pow() (a cast back to long long for an int). */
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

/* helper: a call of the helper `name` (bit `bit`) on a and b. */
static void helper(cexpr_ctx *ctx, unsigned bit, const char *name, const piece *a, const piece *b, strbuf *out)
{
    ctx->helpers |= bit;
    sb_printf(out, "%s%s%s(%s, %s)", ctx->prefix ? ctx->prefix : "", ctx->prefix ? "_" : "", name, T(a), T(b));
}

/* binary: a op b of type t, with the language's semantics where C's differ ('/' true
 * division; the integer '//', '%', '<<' and '>>' through the helpers). */
static void binary(cexpr_ctx *ctx, ast_op op, vtype t, const piece *a, const piece *b, strbuf *out)
{
    if (is_comparison(op)) {
        compare(ctx, op, a, b, out);
        return;
    }
    bool ints = a->t == VT_INT && b->t == VT_INT;
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
        } else {
            helper(ctx, CEXPR_FLOORDIV, "floordiv", a, b, out);
        }
        return;
    case OP_MOD: helper(ctx, CEXPR_MOD, "mod", a, b, out); return;
    case OP_SHL: helper(ctx, CEXPR_SHL, "shl", a, b, out); return;
    case OP_SHR: helper(ctx, CEXPR_SHR, "shr", a, b, out); return;
    case OP_POW: power(ctx, t, a, b, out); return;
    case OP_AND: sb_printf(out, "(%s && %s)", T(a), T(b)); return;
    case OP_OR: sb_printf(out, "(%s || %s)", T(a), T(b)); return;
    default: sb_printf(out, "(%s %s %s)", T(a), ast_op_text(op), T(b)); return;
    }
}

/* unary: op a (a unary + is a itself). */
static void unary(ast_op op, const piece *a, strbuf *out)
{
    switch (op) {
    case OP_NOT: sb_printf(out, "(!%s)", T(a)); break;
    case OP_BITNOT: sb_printf(out, "(~%s)", T(a)); break;
    case OP_POS: sb_add(out, T(a)); break;
    default: sb_printf(out, "(-%s)", T(a)); break;
    }
}

/* chain: a chained comparison p[0] ops[0] p[1] ... as comparisons joined by &&. */
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

/* cond: c ? a : b of type t (an int branch converted when t is a float). */
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

/* call: the builtin fn of p[0..n), of result type t. */
static void call(cexpr_ctx *ctx, builtin_fn fn, vtype t, int n, const piece *p, strbuf *out)
{
    const char *mathfn = NULL;
    switch (fn) {
    case FN_MIN:
    case FN_MAX: min_max(fn == FN_MAX, t, n, p, out); return;
    case FN_CDIV: helper(ctx, CEXPR_CDIV, "cdiv", &p[0], &p[1], out); return;
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

/* fail: sets *err to msg at loc; -1. */
static int fail(eval_error *err, span loc, const char *msg)
{
    err->loc = loc;
    snprintf(err->message, sizeof err->message, "%s", msg);
    return -1;
}

/* free_pieces: frees the text of p[0..n). */
static void free_pieces(piece *p, int n)
{
    for (int i = 0; i < n; i++)
        sb_free(&p[i].s);
}

/* ---- typed expressions ---------------------------------------------------------------- */

bool cexpr_reads_lets(const cexpr_ctx *ctx, const texpr *e)
{
    return ctx->ast && e->reads_let;
}

static int print_tx(cexpr_ctx *ctx, const texpr *e, piece *out, eval_error *err, bool as_written);

/* print_operands: the operands ops[0 .. count) of e (a chain's comparisons or a call's
 * arguments) printed into p[0 ..); more than 8 are refused with `too_many`. *n is set to
 * the number of pieces to free (the failing one included). 0, or -1 with err. */
static int print_operands(cexpr_ctx *ctx, const texpr *e, texpr *const *ops, int count, const char *too_many, piece *p,
                          int *n, eval_error *err, bool as_written)
{
    if (count > 8)
        return fail(err, e->loc, too_many);
    int rc = 0;
    for (*n = 0; rc == 0 && *n < count; (*n)++)
        rc = print_tx(ctx, ops[*n], &p[*n], err, as_written);
    return rc;
}

/* print_tx: appends `e` to out. as_written: `e` is part of a constant that reads a let,
 * written as it was written (every constant the checker folded is unfolded again, each
 * let's value is its name), not as its value. A derived let (one that reads params:
 * constant ones were folded by the checker) is written as its expression. */
static int print_tx(cexpr_ctx *ctx, const texpr *e, piece *out, eval_error *err, bool as_written)
{
    out->t = e->type;
    if (e->kind == TX_CONST) {
        if (ctx->ast && (as_written || e->reads_let)) {
            if (e->from_let) {
                out->t = e->from_let->type;
                if (ctx->lets_used)
                    ctx->lets_used[e->from_let - ctx->m->lets] = true;
                cexpr_ident(e->from_let->name, &out->s);
                return 0;
            }
            if (e->folded_from)
                return print_tx(ctx, e->folded_from, out, err, true);
        }
        cexpr_value(e->u.k, &out->s);
        return 0;
    }
    if (!as_written && ctx->params && e->kind != TX_TIME && e->kind != TX_METRIC && e->kind != TX_CTYPE &&
        e->kind != TX_SLOT && !e->uses_time && !cexpr_reads_lets(ctx, e)) {
        eval_env env = {ctx->m, ctx->params, false, 0.0, NULL, false, 0.0, 0.0};
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
    case TX_LET: return print_tx(ctx, ctx->m->lets[e->u.index].expr, out, err, as_written);
    case TX_UNARY:
        n = 1;
        if ((rc = print_tx(ctx, e->u.op.a, &p[0], err, as_written)) == 0)
            unary(e->u.op.op, &p[0], &out->s);
        break;
    case TX_BINARY:
        n = 2;
        if ((rc = print_tx(ctx, e->u.op.a, &p[0], err, as_written)) == 0 &&
            (rc = print_tx(ctx, e->u.op.b, &p[1], err, as_written)) == 0)
            binary(ctx, e->u.op.op, e->type, &p[0], &p[1], &out->s);
        break;
    case TX_CHAIN:
        rc = print_operands(ctx, e, e->u.chain.operands, e->u.chain.n, "too many comparisons to write as C", p, &n, err,
                            as_written);
        if (rc == 0)
            chain(ctx, n, e->u.chain.ops, p, &out->s);
        break;
    case TX_COND:
        n = 3;
        if ((rc = print_tx(ctx, e->u.cond.cond, &p[0], err, as_written)) == 0 &&
            (rc = print_tx(ctx, e->u.cond.then, &p[1], err, as_written)) == 0 &&
            (rc = print_tx(ctx, e->u.cond.otherwise, &p[2], err, as_written)) == 0)
            cond(e->type, &p[0], &p[1], &p[2], &out->s);
        break;
    case TX_CALL:
        rc = print_operands(ctx, e, e->u.call.args, e->u.call.n, "too many arguments to write as C", p, &n, err,
                            as_written);
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
    int rc = print_tx(ctx, e, &p, err, false);
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
