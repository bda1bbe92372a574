/* t1_eval.c - the value of a T1 file's Python expression, with Python 3's meaning: a
 * param's values ("[2**i for i in range(0, 6)]", "[1, 2] + list(range(32, 1025, 32))"),
 * an argument's size ("ProblemSize[0] * max(filter_width)") and the conditions at the
 * default configuration (t1_internal.h). Ints are exact; where Python's would leave 64
 * bits the expression is refused, never wrapped. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t1_internal.h"

static int ev(t1_py_val *out, const t1_py_node *n, const t1_py_env *env, const t1_py_src *src);

static const char *kind_name(const t1_py_val *v)
{
    switch (v->kind) {
    case PV_INT: return "an int";
    case PV_FLOAT: return "a float";
    case PV_BOOL: return "a bool";
    case PV_STR: return "a string";
    case PV_LIST: return "a list";
    }
    return "a value";
}

static bool is_num(const t1_py_val *v)
{
    return v->kind == PV_INT || v->kind == PV_BOOL || v->kind == PV_FLOAT;
}

static double as_double(const t1_py_val *v)
{
    return v->kind == PV_FLOAT ? v->f : (double)v->i;
}

static t1_py_val int_val(int64_t i)
{
    return (t1_py_val){.kind = PV_INT, .i = i};
}

static t1_py_val float_val(double f)
{
    return (t1_py_val){.kind = PV_FLOAT, .f = f};
}

bool t1_py_truthy(const t1_py_val *v)
{
    switch (v->kind) {
    case PV_INT:
    case PV_BOOL: return v->i != 0;
    case PV_FLOAT: return v->f != 0.0;
    case PV_STR: return v->s[0] != '\0';
    case PV_LIST: return v->n != 0;
    }
    return false;
}

/* py_equal: Python's ==. */
static bool py_equal(const t1_py_val *a, const t1_py_val *b)
{
    if (is_num(a) && is_num(b)) {
        if (a->kind != PV_FLOAT && b->kind != PV_FLOAT)
            return a->i == b->i;
        return as_double(a) == as_double(b);
    }
    if (a->kind != b->kind)
        return false;
    if (a->kind == PV_STR)
        return strcmp(a->s, b->s) == 0;
    if (a->n != b->n)
        return false;
    for (size_t k = 0; k < a->n; k++)
        if (!py_equal(&a->items[k], &b->items[k]))
            return false;
    return true;
}

/* new_list: a list of n elements in the arena (NULL after an error). */
static t1_py_val *new_list(t1_py_val *out, size_t n, const t1_py_node *at, const t1_py_src *src)
{
    if (n > PY_MAX_LIST) {
        t1_py_report(src, at->pos, "a list of %zu values (at most %d are translated)", n, PY_MAX_LIST);
        return NULL;
    }
    *out = (t1_py_val){.kind = PV_LIST, .n = n};
    out->items = arena_alloc(src->c->a, (n ? n : 1) * sizeof *out->items);
    if (!out->items)
        src->c->oom = true;
    return out->items;
}

/* arith: a binary operator of numbers, as Python computes it. */
static int arith(t1_py_val *out, int op, const t1_py_val *a, const t1_py_val *b, const t1_py_node *n,
                 const t1_py_src *src)
{
    if (!is_num(a) || !is_num(b))
        return t1_py_error(src, n->pos, "the operands are %s and %s: only numbers are translated here", kind_name(a),
                           kind_name(b));
    bool ints = a->kind != PV_FLOAT && b->kind != PV_FLOAT;
    int64_t x = a->i, y = b->i, r = 0;
    if ((op == '/' || op == PY_OP_FLOORDIV || op == '%') && (ints ? y == 0 : as_double(b) == 0.0))
        return t1_py_error(src, n->pos, "division by zero");
    if (!ints) {
        double u = as_double(a), v = as_double(b), f;
        switch (op) {
        case '+': f = u + v; break;
        case '-': f = u - v; break;
        case '*': f = u * v; break;
        case '/': f = u / v; break;
        case PY_OP_FLOORDIV: f = floor(u / v); break;
        case '%':
            f = fmod(u, v);
            if (f != 0.0 && (f < 0) != (v < 0))
                f += v;
            break;
        case PY_OP_POW: f = pow(u, v); break;
        default: return t1_py_error(src, n->pos, "this operator takes ints, not floats");
        }
        *out = float_val(f);
        return 0;
    }
    bool over = false;
    switch (op) {
    case '+': over = __builtin_add_overflow(x, y, &r); break;
    case '-': over = __builtin_sub_overflow(x, y, &r); break;
    case '*': over = __builtin_mul_overflow(x, y, &r); break;
    case '/': *out = float_val((double)x / (double)y); return 0;
    case PY_OP_FLOORDIV:
    case '%':
        if (x == INT64_MIN && y == -1) {
            over = op == PY_OP_FLOORDIV;
            r = 0;
            break;
        }
        r = op == '%' ? x % y : x / y;
        if (op == '%' && r != 0 && (r < 0) != (y < 0))
            r += y;
        if (op == PY_OP_FLOORDIV && x % y != 0 && (x < 0) != (y < 0))
            r -= 1;
        break;
    case PY_OP_POW:
        if (y < 0) {
            *out = float_val(pow((double)x, (double)y));
            return 0;
        }
        r = 1;
        for (int64_t base = x; y > 0 && !over; y >>= 1) {
            if (y & 1)
                over = __builtin_mul_overflow(r, base, &r);
            if (y > 1 && !over)
                over = __builtin_mul_overflow(base, base, &base);
        }
        break;
    case PY_OP_SHL:
    case PY_OP_SHR:
        if (y < 0)
            return t1_py_error(src, n->pos, "a negative shift count");
        if (op == PY_OP_SHR)
            r = y >= 64 ? (x < 0 ? -1 : 0) : (x >> y);
        else if (x != 0 && (y >= 63 || (x > 0 ? x > (INT64_MAX >> y) : x < (INT64_MIN >> y))))
            over = true;
        else
            r = (int64_t)((uint64_t)x << y);
        break;
    case '&': r = x & y; break;
    case '|': r = x | y; break;
    case '^': r = x ^ y; break;
    default: return t1_py_error(src, n->pos, "an operator that is not translated");
    }
    if (over)
        return t1_py_error(src, n->pos, "the result does not fit in 64 bits");
    *out = int_val(r);
    return 0;
}

/* binop: a binary operator: lists concatenate (+) and repeat (*), numbers compute. */
static int binop(t1_py_val *out, const t1_py_node *n, const t1_py_env *env, const t1_py_src *src)
{
    t1_py_val a, b;
    if (ev(&a, n->kids[0], env, src) || ev(&b, n->kids[1], env, src))
        return -1;
    if (n->op == '+' && a.kind == PV_LIST && b.kind == PV_LIST) {
        if (!new_list(out, a.n + b.n, n, src))
            return -1;
        memcpy(out->items, a.items, a.n * sizeof *a.items);
        memcpy(out->items + a.n, b.items, b.n * sizeof *b.items);
        return 0;
    }
    if (n->op == '*' && (a.kind == PV_LIST) != (b.kind == PV_LIST)) {
        const t1_py_val *list = a.kind == PV_LIST ? &a : &b, *times = a.kind == PV_LIST ? &b : &a;
        if (times->kind != PV_INT && times->kind != PV_BOOL)
            return t1_py_error(src, n->pos, "a list repeated %s times", kind_name(times));
        size_t k = times->i > 0 ? (size_t)times->i : 0;
        if (k && list->n > PY_MAX_LIST / k)
            return t1_py_error(src, n->pos, "a list of more than %d values", PY_MAX_LIST);
        if (!new_list(out, list->n * k, n, src))
            return -1;
        for (size_t r = 0; r < k; r++)
            memcpy(out->items + r * list->n, list->items, list->n * sizeof *list->items);
        return 0;
    }
    return arith(out, n->op, &a, &b, n, src);
}

/* compare: one comparison of a chain: *res is its truth. */
static int compare(bool *res, int op, const t1_py_val *a, const t1_py_val *b, const t1_py_node *n, const t1_py_src *src)
{
    if (op == PY_OP_EQ || op == PY_OP_NE) {
        *res = py_equal(a, b) == (op == PY_OP_EQ);
        return 0;
    }
    if (op == PY_OP_IN || op == PY_OP_NOTIN) {
        bool found = false;
        if (b->kind == PV_LIST) {
            for (size_t k = 0; k < b->n && !found; k++)
                found = py_equal(a, &b->items[k]);
        } else if (b->kind == PV_STR && a->kind == PV_STR) {
            found = strstr(b->s, a->s) != NULL;
        } else {
            return t1_py_error(src, n->pos, "'in' needs a list on its right, not %s", kind_name(b));
        }
        *res = found == (op == PY_OP_IN);
        return 0;
    }
    if (op == PY_OP_IS || op == PY_OP_ISNOT)
        return t1_py_error(src, n->pos, "'is' is not translated (write ==)");
    int c;
    if (is_num(a) && is_num(b)) {
        if (a->kind != PV_FLOAT && b->kind != PV_FLOAT)
            c = (a->i > b->i) - (a->i < b->i);
        else
            c = (as_double(a) > as_double(b)) - (as_double(a) < as_double(b));
    } else if (a->kind == PV_STR && b->kind == PV_STR) {
        c = strcmp(a->s, b->s);
    } else {
        return t1_py_error(src, n->pos, "%s and %s cannot be ordered", kind_name(a), kind_name(b));
    }
    *res = op == PY_OP_LT ? c < 0 : op == PY_OP_LE ? c <= 0 : op == PY_OP_GT ? c > 0 : c >= 0;
    return 0;
}

/* range_of: range(stop) / range(start, stop[, step]) as a list. */
static int range_of(t1_py_val *out, const t1_py_val *args, int nargs, const t1_py_node *n, const t1_py_src *src)
{
    if (nargs < 1 || nargs > 3)
        return t1_py_error(src, n->pos, "range() takes 1 to 3 arguments, not %d", nargs);
    for (int k = 0; k < nargs; k++)
        if (args[k].kind != PV_INT && args[k].kind != PV_BOOL)
            return t1_py_error(src, n->kids[k]->pos, "range() takes ints, not %s", kind_name(&args[k]));
    int64_t start = nargs == 1 ? 0 : args[0].i, stop = nargs == 1 ? args[0].i : args[1].i;
    int64_t step = nargs == 3 ? args[2].i : 1;
    if (step == 0)
        return t1_py_error(src, n->pos, "range() with a step of 0");
    __int128 span = step > 0 ? (__int128)stop - start : (__int128)start - stop;
    __int128 by = step > 0 ? step : -(__int128)step;
    __int128 count = span <= 0 ? 0 : (span + by - 1) / by;
    if (count > PY_MAX_LIST)
        return t1_py_error(src, n->pos, "a range of more than %d values", PY_MAX_LIST);
    if (!new_list(out, (size_t)count, n, src))
        return -1;
    size_t k = 0;
    for (int64_t v = start; k < out->n; v += step)
        out->items[k++] = int_val(v);
    return 0;
}

/* call: the built-in functions T1 files use. */
static int call(t1_py_val *out, const t1_py_node *n, const t1_py_env *env, const t1_py_src *src)
{
    t1_py_val args[8];
    if (n->nkids < 1) /* every function below reads its first argument */
        return t1_py_error(src, n->pos, "%s() without an argument is not translated", n->s);
    if (n->nkids > 8)
        return t1_py_error(src, n->pos, "%s() with %d arguments", n->s, n->nkids);
    for (int k = 0; k < n->nkids; k++)
        if (ev(&args[k], n->kids[k], env, src))
            return -1;
    const char *f = n->s;
    if (strcmp(f, "range") == 0)
        return range_of(out, args, n->nkids, n, src);
    if (n->nkids != 1 && strcmp(f, "min") != 0 && strcmp(f, "max") != 0)
        return t1_py_error(src, n->pos, "%s() takes one argument here", f);
    const t1_py_val *x = &args[0];
    if (strcmp(f, "list") == 0 || strcmp(f, "tuple") == 0 || strcmp(f, "sorted") == 0) {
        if (x->kind != PV_LIST)
            return t1_py_error(src, n->pos, "%s() of %s", f, kind_name(x));
        *out = *x;
        if (f[0] == 's') {
            if (!new_list(out, x->n, n, src))
                return -1;
            memcpy(out->items, x->items, x->n * sizeof *x->items);
            for (size_t i = 1; i < out->n; i++) /* insertion sort: the lists are short */
                for (size_t j = i; j > 0; j--) {
                    bool less;
                    if (compare(&less, PY_OP_LT, &out->items[j], &out->items[j - 1], n, src))
                        return -1;
                    if (!less)
                        break;
                    t1_py_val t = out->items[j];
                    out->items[j] = out->items[j - 1];
                    out->items[j - 1] = t;
                }
        }
        return 0;
    }
    if (strcmp(f, "len") == 0) {
        if (x->kind != PV_LIST && x->kind != PV_STR)
            return t1_py_error(src, n->pos, "len() of %s", kind_name(x));
        *out = int_val(x->kind == PV_LIST ? (int64_t)x->n : (int64_t)strlen(x->s));
        return 0;
    }
    if (strcmp(f, "min") == 0 || strcmp(f, "max") == 0) {
        const t1_py_val *items = args;
        size_t count = (size_t)n->nkids;
        if (n->nkids == 1 && x->kind == PV_LIST) {
            items = x->items;
            count = x->n;
        }
        if (count == 0)
            return t1_py_error(src, n->pos, "%s() of nothing", f);
        const t1_py_val *best = &items[0];
        for (size_t k = 1; k < count; k++) {
            bool less;
            if (compare(&less, PY_OP_LT, &items[k], best, n, src))
                return -1;
            if (less == (f[1] == 'i'))
                best = &items[k];
        }
        *out = *best;
        return 0;
    }
    if (strcmp(f, "abs") == 0 && is_num(x)) {
        if (x->kind == PV_FLOAT)
            *out = float_val(fabs(x->f));
        else if (x->i == INT64_MIN)
            return t1_py_error(src, n->pos, "the result does not fit in 64 bits");
        else
            *out = int_val(x->i < 0 ? -x->i : x->i);
        return 0;
    }
    if (strcmp(f, "int") == 0 && is_num(x)) {
        if (x->kind != PV_FLOAT)
            *out = int_val(x->i);
        else if (!(fabs(x->f) < 9.2e18))
            return t1_py_error(src, n->pos, "int() of %g does not fit in 64 bits", x->f);
        else
            *out = int_val((int64_t)x->f);
        return 0;
    }
    if (strcmp(f, "float") == 0 && is_num(x)) {
        *out = float_val(as_double(x));
        return 0;
    }
    return t1_py_error(src, n->pos, "the function %s() is not translated", f);
}

/* comprehension: [elt for NAME in ITER if COND]. */
static int comprehension(t1_py_val *out, const t1_py_node *n, const t1_py_env *env, const t1_py_src *src)
{
    t1_py_val iter;
    if (ev(&iter, n->kids[1], env, src))
        return -1;
    if (iter.kind != PV_LIST)
        return t1_py_error(src, n->kids[1]->pos, "a comprehension over %s", kind_name(&iter));
    if (!new_list(out, iter.n, n, src))
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < iter.n; i++) {
        t1_py_env bound = {.name = n->s, .val = iter.items[i], .next = env};
        if (n->nkids == 3) {
            t1_py_val cond;
            if (ev(&cond, n->kids[2], &bound, src))
                return -1;
            if (!t1_py_truthy(&cond))
                continue;
        }
        if (ev(&out->items[k++], n->kids[0], &bound, src))
            return -1;
    }
    out->n = k;
    return 0;
}

static int ev(t1_py_val *out, const t1_py_node *n, const t1_py_env *env, const t1_py_src *src)
{
    if (src->c->oom)
        return -1;
    switch (n->kind) {
    case PY_INT: *out = int_val(n->i); return 0;
    case PY_FLOAT: *out = float_val(n->f); return 0;
    case PY_BOOL: *out = (t1_py_val){.kind = PV_BOOL, .i = n->i}; return 0;
    case PY_STR: *out = (t1_py_val){.kind = PV_STR, .s = n->s}; return 0;
    case PY_NAME:
        for (const t1_py_env *e = env; e; e = e->next)
            if (strcmp(e->name, n->s) == 0) {
                *out = e->val;
                return 0;
            }
        return t1_py_error(src, n->pos, "unknown name '%s'", n->s);
    case PY_LIST:
        if (!new_list(out, (size_t)n->nkids, n, src))
            return -1;
        for (int k = 0; k < n->nkids; k++)
            if (ev(&out->items[k], n->kids[k], env, src))
                return -1;
        return 0;
    case PY_CALL: return call(out, n, env, src);
    case PY_UNARY: {
        t1_py_val x;
        if (ev(&x, n->kids[0], env, src))
            return -1;
        if (n->op == PY_OP_NOT) {
            *out = (t1_py_val){.kind = PV_BOOL, .i = !t1_py_truthy(&x)};
            return 0;
        }
        if (!is_num(&x) || (n->op == '~' && x.kind == PV_FLOAT))
            return t1_py_error(src, n->pos, "unary '%c' of %s", n->op, kind_name(&x));
        if (n->op == '~')
            *out = int_val(~x.i);
        else if (x.kind == PV_FLOAT)
            *out = float_val(n->op == '-' ? -x.f : x.f);
        else if (n->op == '-' && x.i == INT64_MIN)
            return t1_py_error(src, n->pos, "the result does not fit in 64 bits");
        else
            *out = int_val(n->op == '-' ? -x.i : x.i);
        return 0;
    }
    case PY_BIN: return binop(out, n, env, src);
    case PY_BOOLOP:
        if (ev(out, n->kids[0], env, src))
            return -1;
        if (t1_py_truthy(out) == (n->op == PY_OP_OR))
            return 0;
        return ev(out, n->kids[1], env, src);
    case PY_CMP: {
        t1_py_val a, b;
        if (ev(&a, n->kids[0], env, src))
            return -1;
        for (int k = 1; k < n->nkids; k++) {
            bool res;
            if (ev(&b, n->kids[k], env, src) || compare(&res, n->ops[k - 1], &a, &b, n->kids[k], src))
                return -1;
            if (!res) {
                *out = (t1_py_val){.kind = PV_BOOL, .i = 0};
                return 0;
            }
            a = b;
        }
        *out = (t1_py_val){.kind = PV_BOOL, .i = 1};
        return 0;
    }
    case PY_IFEXP: {
        t1_py_val cond;
        if (ev(&cond, n->kids[1], env, src))
            return -1;
        return ev(out, n->kids[t1_py_truthy(&cond) ? 0 : 2], env, src);
    }
    case PY_COMP: return comprehension(out, n, env, src);
    case PY_SUBSCRIPT: {
        t1_py_val list, index;
        if (ev(&list, n->kids[0], env, src) || ev(&index, n->kids[1], env, src))
            return -1;
        if (list.kind != PV_LIST || (index.kind != PV_INT && index.kind != PV_BOOL))
            return t1_py_error(src, n->pos, "%s indexed by %s", kind_name(&list), kind_name(&index));
        int64_t i = index.i < 0 ? index.i + (int64_t)list.n : index.i;
        if (i < 0 || i >= (int64_t)list.n)
            return t1_py_error(src, n->pos, "index %lld of a list of %zu", (long long)index.i, list.n);
        *out = list.items[i];
        return 0;
    }
    }
    return t1_py_error(src, n->pos, "not translated");
}

int t1_py_eval(t1_py_val *out, const t1_py_node *n, const t1_py_env *env, const t1_py_src *src)
{
    return ev(out, n, env, src);
}

/* float_text: the shortest text that reads back as f, with a '.' or an exponent, the
 * exponent without '+' or leading zeros (cutune's float literals). */
static const char *float_text(t1_ctx *c, double f)
{
    char buf[64];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, f);
        if (strtod(buf, NULL) == f)
            break;
    }
    char out[80];
    size_t o = 0;
    char *e = strchr(buf, 'e');
    size_t mant = e ? (size_t)(e - buf) : strlen(buf);
    memcpy(out, buf, mant);
    o = mant;
    if (!e && !memchr(buf, '.', mant)) {
        memcpy(out + o, ".0", 2);
        o += 2;
    }
    if (e) {
        out[o++] = 'e';
        const char *x = e + 1;
        if (*x == '+')
            x++;
        else if (*x == '-')
            out[o++] = *x++;
        while (*x == '0' && x[1])
            x++;
        while (*x)
            out[o++] = *x++;
    }
    out[o] = '\0';
    return arena_strdup(c->a, out);
}

const char *t1_py_text(t1_ctx *c, const t1_py_val *v)
{
    switch (v->kind) {
    case PV_INT: return arena_printf(c->a, "%lld", (long long)v->i);
    case PV_BOOL: return v->i ? "true" : "false";
    case PV_FLOAT: return isfinite(v->f) ? float_text(c, v->f) : NULL;
    case PV_STR: {
        strbuf sb = STRBUF_INIT;
        sb_addc(&sb, '"');
        for (const char *p = v->s; *p; p++) {
            if (*p == '"' || *p == '\\')
                sb_addc(&sb, '\\');
            if (*p == '\n')
                sb_add(&sb, "\\n");
            else if (*p == '\t')
                sb_add(&sb, "\\t");
            else if ((unsigned char)*p < 0x20 || *p == 0x7f) {
                sb_free(&sb);
                return NULL;
            } else
                sb_addc(&sb, *p);
        }
        sb_addc(&sb, '"');
        const char *r = sb_ok(&sb) ? arena_strdup(c->a, sb_cstr(&sb)) : NULL;
        sb_free(&sb);
        return r;
    }
    case PV_LIST: return NULL;
    }
    return NULL;
}

/* An element of a list being made unique: the value and its place. */
typedef struct ranked {
    const t1_py_val *v;
    size_t at;
} ranked;

/* rank_class: numbers (ints and floats compare by value), bools, strings; a NaN last. */
static int rank_class(const t1_py_val *v)
{
    if (v->kind == PV_FLOAT && isnan(v->f))
        return 3;
    return v->kind == PV_BOOL ? 1 : v->kind == PV_STR ? 2 : 0;
}

/* by_value: a total order on values, equal values next to each other, first placed first. */
static int by_value(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    int ca = rank_class(a->v), cb = rank_class(b->v);
    int c = (ca > cb) - (ca < cb);
    if (c == 0 && ca == 0) {
        if (a->v->kind == PV_INT && b->v->kind == PV_INT)
            c = (a->v->i > b->v->i) - (a->v->i < b->v->i);
        else
            c = (as_double(a->v) > as_double(b->v)) - (as_double(a->v) < as_double(b->v));
    } else if (c == 0 && ca == 1) {
        c = (a->v->i > b->v->i) - (a->v->i < b->v->i);
    } else if (c == 0 && ca == 2) {
        c = strcmp(a->v->s, b->v->s);
    }
    return c ? c : (a->at > b->at) - (a->at < b->at);
}

size_t t1_py_unique(t1_ctx *c, t1_py_val *list)
{
    size_t n = list->n;
    if (n < 2)
        return 0;
    ranked *r = malloc(n * sizeof *r);
    bool *dup = calloc(n, sizeof *dup);
    if (!r || !dup) {
        free(r);
        free(dup);
        c->oom = true;
        return 0;
    }
    for (size_t k = 0; k < n; k++)
        r[k] = (ranked){&list->items[k], k};
    qsort(r, n, sizeof *r, by_value);
    for (size_t k = 1; k < n; k++) {
        ranked x = r[k - 1], y = r[k];
        x.at = y.at = 0; /* the values alone */
        dup[r[k].at] = rank_class(y.v) != 3 && by_value(&x, &y) == 0;
    }
    size_t kept = 0;
    for (size_t k = 0; k < n; k++)
        if (!dup[k])
            list->items[kept++] = list->items[k];
    free(r);
    free(dup);
    list->n = kept;
    return n - kept;
}
