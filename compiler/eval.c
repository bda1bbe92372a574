/* eval.c - a tree-walking evaluator for typed expressions (see eval.h).
 *
 * Integer arithmetic is exact and checked (overflow is an error, never a wrap);
 * '/' is true division, '//' and '%' floor like Python so that (a // b) * b + a % b == a
 * for every sign; cdiv(a, b) is the quotient rounded up for every sign; a << b is
 * a * 2^b (an overflow is an error) and a >> b the quotient a / 2^b rounded down, for
 * shift counts 0 to 63. */
#include "eval.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int fail(eval_error *err, span loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(eval_error *err, span loc, const char *fmt, ...)
{
    err->loc = loc;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return -1;
}

/* The integer operations where C's differ from the language's or are undefined. The
 * header writes the same as C helpers (compiler/cexpr.c: cexpr_helpers); the two must
 * agree wherever these succeed (test/unit/test_header_diff.c). b != 0 and not
 * (a == INT64_MIN && b == -1) for the divisions: the callers refuse those. */

/* a // b: the quotient rounded down (Python's). */
static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b, r = a % b;
    return r != 0 && (r < 0) != (b < 0) ? q - 1 : q;
}

/* a % b: the remainder of floor_div, of b's sign (Python's). */
static int64_t floor_mod(int64_t a, int64_t b)
{
    int64_t r = a % b;
    return r != 0 && (r < 0) != (b < 0) ? r + b : r;
}

/* cdiv(a, b): the quotient rounded up, for every sign. */
static int64_t ceil_div(int64_t a, int64_t b)
{
    int64_t q = a / b, r = a % b;
    return r != 0 && (r < 0) == (b < 0) ? q + 1 : q;
}

/* a >> b (0 <= b <= 63): the quotient a / 2^b rounded down, for negative a too (C
 * leaves a negative a's shift to the implementation). */
static int64_t shift_right(int64_t a, int64_t b)
{
    return a < 0 ? ~(~a >> b) : a >> b;
}

/* a << b (0 <= b <= 63): a * 2^b; -1 when that is outside int64's range. */
static int shift_left(int64_t a, int64_t b, int64_t *out)
{
    if (b == 63) { /* only 0 and -1 * 2^63 fit */
        if (a != 0 && a != -1)
            return -1;
        *out = a == 0 ? 0 : INT64_MIN;
        return 0;
    }
    int64_t limit = INT64_MAX >> b;
    if (a > limit || a < -limit - 1)
        return -1;
    *out = a * ((int64_t)1 << b);
    return 0;
}

/* Integer power by squaring, checked for overflow. */
static int int_pow(int64_t base, int64_t exp, int64_t *out)
{
    int64_t result = 1;
    while (exp > 0) {
        if (exp & 1) {
            if (__builtin_mul_overflow(result, base, &result))
                return -1;
        }
        exp >>= 1;
        if (exp && __builtin_mul_overflow(base, base, &base))
            return -1;
    }
    *out = result;
    return 0;
}

static int to_int(double d, span loc, int64_t *out, eval_error *err)
{
    *out = 0;
    if (isnan(d) || d < -9.2233720368547758e18 || d >= 9.2233720368547758e18)
        return fail(err, loc, "%g does not fit in an int", d);
    *out = (int64_t)d;
    return 0;
}

static int compare(ast_op op, value a, value b)
{
    int c;
    if (a.type == VT_STRING)
        c = strcmp(a.u.s, b.u.s);
    else if (a.type == VT_BOOL)
        c = (int)a.u.b - (int)b.u.b;
    else if (a.type == VT_INT && b.type == VT_INT)
        c = (a.u.i > b.u.i) - (a.u.i < b.u.i);
    else {
        double x = value_as_double(a), y = value_as_double(b);
        if (isnan(x) || isnan(y))
            return op == OP_NE;
        c = (x > y) - (x < y);
    }
    switch (op) {
    case OP_LT: return c < 0;
    case OP_LE: return c <= 0;
    case OP_GT: return c > 0;
    case OP_GE: return c >= 0;
    case OP_EQ: return c == 0;
    default: return c != 0;
    }
}

static int eval_binary(const texpr *e, value a, value b, value *out, eval_error *err)
{
    ast_op op = e->u.op.op;
    const char *sym = ast_op_text(op);
    if (a.type == VT_INT && b.type == VT_INT) {
        int64_t x = a.u.i, y = b.u.i, r;
        switch (op) {
        case OP_ADD:
            if (__builtin_add_overflow(x, y, &r))
                goto overflow;
            break;
        case OP_SUB:
            if (__builtin_sub_overflow(x, y, &r))
                goto overflow;
            break;
        case OP_MUL:
            if (__builtin_mul_overflow(x, y, &r))
                goto overflow;
            break;
        case OP_DIV:
            if (y == 0)
                return fail(err, e->loc, "division by zero (%lld / 0)", (long long)x);
            *out = value_float((double)x / (double)y);
            return 0;
        case OP_FLOORDIV:
        case OP_MOD:
            if (y == 0)
                return fail(err, e->loc, "division by zero (%lld %s 0)", (long long)x, sym);
            if (x == INT64_MIN && y == -1)
                goto overflow;
            r = op == OP_FLOORDIV ? floor_div(x, y) : floor_mod(x, y);
            break;
        case OP_POW:
            if (y < 0)
                return fail(err, e->loc,
                            "negative exponent %lld in an integer power (write the base as a float: 2.0 ** -1)",
                            (long long)y);
            if (int_pow(x, y, &r) < 0)
                goto overflow;
            break;
        case OP_SHL:
        case OP_SHR:
            if (y < 0 || y > 63)
                return fail(err, e->loc, "shift count %lld is outside 0..63", (long long)y);
            if (op == OP_SHR)
                r = shift_right(x, y);
            else if (shift_left(x, y, &r) < 0)
                goto overflow;
            break;
        case OP_BITAND: r = x & y; break;
        case OP_BITOR: r = x | y; break;
        case OP_BITXOR: r = x ^ y; break;
        default: return fail(err, e->loc, "internal: bad integer operator %s", sym);
        }
        *out = value_int(r);
        return 0;
    overflow:
        return fail(err, e->loc, "integer overflow in %lld %s %lld", (long long)x, sym, (long long)y);
    }
    double x = value_as_double(a), y = value_as_double(b), r;
    switch (op) {
    case OP_ADD: r = x + y; break;
    case OP_SUB: r = x - y; break;
    case OP_MUL: r = x * y; break;
    case OP_DIV:
    case OP_FLOORDIV:
        if (y == 0.0)
            return fail(err, e->loc, "division by zero (%g %s 0)", x, sym);
        r = op == OP_DIV ? x / y : floor(x / y);
        break;
    case OP_POW: r = pow(x, y); break;
    default: return fail(err, e->loc, "internal: bad float operator %s", sym);
    }
    /* NaN and infinity would slip into macros and sizes as garbage: stop them here. */
    if (!isfinite(r))
        return fail(err, e->loc, "%g %s %g is not a finite number", x, sym, y);
    *out = value_float(r);
    return 0;
}

static int eval_call(const texpr *e, const eval_env *env, value *out, eval_error *err)
{
    value v[8];
    int n = e->u.call.n;
    if (n > 8)
        return fail(err, e->loc, "internal: too many arguments");
    for (int i = 0; i < n; i++)
        if (eval_expr(e->u.call.args[i], env, &v[i], err) < 0)
            return -1;
    switch (e->u.call.fn) {
    case FN_MIN:
    case FN_MAX: {
        value best = v[0];
        bool want_max = e->u.call.fn == FN_MAX;
        for (int i = 1; i < n; i++)
            if (compare(want_max ? OP_GT : OP_LT, v[i], best))
                best = v[i];
        if (e->type == VT_FLOAT)
            best = value_float(value_as_double(best));
        *out = best;
        return 0;
    }
    case FN_CDIV: {
        int64_t a = v[0].u.i, b = v[1].u.i;
        if (b == 0)
            return fail(err, e->loc, "division by zero in cdiv(%lld, 0)", (long long)a);
        if (a == INT64_MIN && b == -1)
            return fail(err, e->loc, "integer overflow in cdiv");
        *out = value_int(ceil_div(a, b));
        return 0;
    }
    case FN_CEIL:
    case FN_FLOOR:
    case FN_ROUND: {
        if (v[0].type == VT_INT) {
            *out = v[0];
            return 0;
        }
        double d = e->u.call.fn == FN_CEIL    ? ceil(v[0].u.f)
                   : e->u.call.fn == FN_FLOOR ? floor(v[0].u.f)
                                              : round(v[0].u.f);
        int64_t i = 0;
        if (to_int(d, e->loc, &i, err) < 0)
            return -1;
        *out = value_int(i);
        return 0;
    }
    case FN_ABS:
        if (v[0].type == VT_INT) {
            if (v[0].u.i == INT64_MIN)
                return fail(err, e->loc, "integer overflow in abs");
            *out = value_int(v[0].u.i < 0 ? -v[0].u.i : v[0].u.i);
        } else {
            *out = value_float(fabs(v[0].u.f));
        }
        return 0;
    case FN_POW: {
        texpr fake = *e;
        fake.u.op.op = OP_POW;
        return eval_binary(&fake, v[0], v[1], out, err);
    }
    case FN_LOG2:
    case FN_SQRT: {
        double d = value_as_double(v[0]);
        if (e->u.call.fn == FN_LOG2 ? d <= 0 : d < 0)
            return fail(err, e->loc, "%s of %g is undefined", e->u.call.fn == FN_LOG2 ? "log2" : "sqrt", d);
        *out = value_float(e->u.call.fn == FN_LOG2 ? log2(d) : sqrt(d));
        return 0;
    }
    case FN_INT: {
        int64_t i = 0;
        if (v[0].type == VT_BOOL)
            i = v[0].u.b;
        else if (v[0].type == VT_INT)
            i = v[0].u.i;
        else if (to_int(trunc(v[0].u.f), e->loc, &i, err) < 0)
            return -1;
        *out = value_int(i);
        return 0;
    }
    case FN_FLOAT: *out = value_float(v[0].type == VT_BOOL ? (double)v[0].u.b : value_as_double(v[0])); return 0;
    case FN_IS_POW2: *out = value_bool(v[0].u.i > 0 && (v[0].u.i & (v[0].u.i - 1)) == 0); return 0;
    }
    return fail(err, e->loc, "internal: unknown function");
}

int eval_expr(const texpr *e, const eval_env *env, value *out, eval_error *err)
{
    switch (e->kind) {
    case TX_CONST: *out = e->u.k; return 0;
    case TX_PARAM:
        if (!env->params)
            return fail(err, e->loc, "internal: param read without a configuration");
        *out = env->params[e->u.index];
        return 0;
    case TX_LET: return eval_expr(env->m->lets[e->u.index].expr, env, out, err);
    case TX_SLOT: *out = env->slots[e->u.index]; return 0;
    case TX_METRIC: return eval_expr(env->m->metrics[e->u.index].expr, env, out, err);
    case TX_TIME:
        if (e->measured != MQ_TIME) {
            if (!env->has_energy)
                return fail(err, e->loc, "the energy was not measured (measure(energy = true); NVML)");
            *out = value_float((e->measured == MQ_ENERGY_J ? env->energy_j : env->power_w) * e->u.time_scale);
            return 0;
        }
        if (!env->has_time)
            return fail(err, e->loc, "the time is not known before the kernel is measured");
        *out = value_float(env->time_s * e->u.time_scale);
        return 0;
    case TX_CTYPE: return fail(err, e->loc, "a type is not a value");
    case TX_UNARY: {
        value a;
        if (eval_expr(e->u.op.a, env, &a, err) < 0)
            return -1;
        switch (e->u.op.op) {
        case OP_NOT: *out = value_bool(!a.u.b); return 0;
        case OP_POS: *out = a; return 0;
        case OP_BITNOT: *out = value_int(~a.u.i); return 0;
        default:
            if (a.type == VT_FLOAT) {
                *out = value_float(-a.u.f);
                return 0;
            }
            if (a.u.i == INT64_MIN)
                return fail(err, e->loc, "integer overflow in negation");
            *out = value_int(-a.u.i);
            return 0;
        }
    }
    case TX_BINARY: {
        value a, b;
        ast_op op = e->u.op.op;
        if (eval_expr(e->u.op.a, env, &a, err) < 0)
            return -1;
        if (op == OP_AND || op == OP_OR) {
            if (a.u.b == (op == OP_OR)) {
                *out = a;
                return 0;
            }
            return eval_expr(e->u.op.b, env, out, err);
        }
        if (eval_expr(e->u.op.b, env, &b, err) < 0)
            return -1;
        return eval_binary(e, a, b, out, err);
    }
    case TX_CHAIN: {
        value a, b;
        if (eval_expr(e->u.chain.operands[0], env, &a, err) < 0)
            return -1;
        for (int i = 0; i < e->u.chain.n - 1; i++) {
            if (eval_expr(e->u.chain.operands[i + 1], env, &b, err) < 0)
                return -1;
            if (!compare(e->u.chain.ops[i], a, b)) {
                *out = value_bool(false);
                return 0;
            }
            a = b;
        }
        *out = value_bool(true);
        return 0;
    }
    case TX_COND: {
        value c;
        if (eval_expr(e->u.cond.cond, env, &c, err) < 0)
            return -1;
        if (eval_expr(c.u.b ? e->u.cond.then : e->u.cond.otherwise, env, out, err) < 0)
            return -1;
        if (e->type == VT_FLOAT && out->type == VT_INT)
            *out = value_float((double)out->u.i);
        return 0;
    }
    case TX_CALL: return eval_call(e, env, out, err);
    }
    return fail(err, e->loc, "internal: unknown expression kind");
}

/* The fast path for the integer and boolean expressions that constraints are made of:
 * plain int64 arithmetic without value boxing. It gives up (returns -1) on anything
 * else and on any failure, and the caller then runs the general evaluator, which
 * produces the same result or the proper error message. Counting a dense space spends
 * nearly all its time here. */
static int fast(const texpr *e, const eval_env *env, int64_t *out)
{
    int64_t a, b;
    switch (e->kind) {
    case TX_CONST:
        if (e->type == VT_INT)
            *out = e->u.k.u.i;
        else if (e->type == VT_BOOL)
            *out = e->u.k.u.b;
        else
            return -1;
        return 0;
    case TX_PARAM: {
        if (!env->params)
            return -1;
        const value *v = &env->params[e->u.index];
        if (v->type == VT_INT)
            *out = v->u.i;
        else if (v->type == VT_BOOL)
            *out = v->u.b;
        else
            return -1;
        return 0;
    }
    case TX_LET: return fast(env->m->lets[e->u.index].expr, env, out);
    case TX_SLOT: {
        const value *v = &env->slots[e->u.index];
        if (v->type == VT_INT)
            *out = v->u.i;
        else if (v->type == VT_BOOL)
            *out = v->u.b;
        else
            return -1;
        return 0;
    }
    case TX_UNARY:
        if (fast(e->u.op.a, env, &a) < 0)
            return -1;
        switch (e->u.op.op) {
        case OP_NOT: *out = !a; return 0;
        case OP_POS: *out = a; return 0;
        case OP_BITNOT: *out = ~a; return 0;
        case OP_NEG:
            if (a == INT64_MIN)
                return -1;
            *out = -a;
            return 0;
        default: return -1;
        }
    case TX_BINARY:
        if (e->type != VT_INT && e->type != VT_BOOL)
            return -1;
        if (fast(e->u.op.a, env, &a) < 0)
            return -1;
        if (e->u.op.op == OP_AND || e->u.op.op == OP_OR) {
            if ((e->u.op.op == OP_OR) == (a != 0)) {
                *out = a != 0;
                return 0;
            }
            if (fast(e->u.op.b, env, &b) < 0)
                return -1;
            *out = b != 0;
            return 0;
        }
        if (fast(e->u.op.b, env, &b) < 0)
            return -1;
        switch (e->u.op.op) {
        case OP_ADD: return __builtin_add_overflow(a, b, out) ? -1 : 0;
        case OP_SUB: return __builtin_sub_overflow(a, b, out) ? -1 : 0;
        case OP_MUL: return __builtin_mul_overflow(a, b, out) ? -1 : 0;
        case OP_FLOORDIV:
        case OP_MOD:
            if (b == 0 || (a == INT64_MIN && b == -1))
                return -1;
            *out = e->u.op.op == OP_FLOORDIV ? floor_div(a, b) : floor_mod(a, b);
            return 0;
        case OP_BITAND: *out = a & b; return 0;
        case OP_BITOR: *out = a | b; return 0;
        case OP_BITXOR: *out = a ^ b; return 0;
        case OP_SHR:
            if (b < 0 || b > 63)
                return -1;
            *out = shift_right(a, b);
            return 0;
        default: return -1;
        }
    case TX_CHAIN: {
        const texpr *const *ops = (const texpr *const *)e->u.chain.operands;
        for (int i = 0; i < e->u.chain.n; i++)
            if (ops[i]->type != VT_INT)
                return -1;
        if (fast(ops[0], env, &a) < 0)
            return -1;
        for (int i = 0; i < e->u.chain.n - 1; i++) {
            if (fast(ops[i + 1], env, &b) < 0)
                return -1;
            bool ok;
            switch (e->u.chain.ops[i]) {
            case OP_LT: ok = a < b; break;
            case OP_LE: ok = a <= b; break;
            case OP_GT: ok = a > b; break;
            case OP_GE: ok = a >= b; break;
            case OP_EQ: ok = a == b; break;
            default: ok = a != b; break;
            }
            if (!ok) {
                *out = 0;
                return 0;
            }
            a = b;
        }
        *out = 1;
        return 0;
    }
    case TX_COND:
        if (fast(e->u.cond.cond, env, &a) < 0)
            return -1;
        return fast(a ? e->u.cond.then : e->u.cond.otherwise, env, out);
    default: return -1;
    }
}

int eval_bool(const texpr *e, const eval_env *env, bool *out, eval_error *err)
{
    int64_t quick;
    if (fast(e, env, &quick) == 0) {
        *out = quick != 0;
        return 0;
    }
    value v;
    if (eval_expr(e, env, &v, err) < 0)
        return -1;
    *out = v.u.b;
    return 0;
}

int eval_int(const texpr *e, const eval_env *env, int64_t *out, eval_error *err)
{
    value v;
    if (eval_expr(e, env, &v, err) < 0)
        return -1;
    *out = v.u.i;
    return 0;
}
