/* t1_tr.c - a T1 file's Python expression written in cutune's expression language
 * (docs/language.md, section 10), with Python's meaning kept (t1_internal.h).
 *
 * The two languages share their operators and Python's order of them, but for four
 * things this file bridges: Python's `not` binds looser than a comparison (cutune's `!`
 * binds tight: `not a == b` becomes `!(a == b)`); Python lets a number stand for its
 * truth where cutune wants a bool (`x and y` of ints becomes `x != 0 && y != 0`, and a
 * bool in arithmetic becomes `int(b)`); cutune's `**` takes a primary on its left
 * (`(a * b) ** 2`); and `x in [a, b]` is written as the comparisons it means
 * (`x == a || x == b`). What has no exact counterpart is refused with the reason: `%`
 * of floats, `is`, strings ordered by `<`, round() (Python rounds halves to even), and
 * any function but min, max, abs, int and float. The text is parenthesised only where
 * cutune's precedence needs it. */
#include <stdarg.h>
#include <string.h>

#include "t1_internal.h"

/* cutune's precedence levels, loosest first (docs/language.md, "Operators and precedence"). */
enum { P_TERNARY = 1, P_OR, P_AND, P_CMP, P_BOR, P_BXOR, P_BAND, P_SHIFT, P_ADD, P_MUL, P_UNARY, P_POW, P_PRIMARY };

/* A translated expression: its text, the precedence of its outermost operator, its
 * type; `loose`: an `and`/`or` of which an operand was a number, whose Python value
 * is that operand's, not a bool: it may only be used as a truth. */
typedef struct tr {
    const char *text;
    int prec;
    enum t1_type type;
    bool loose;
} tr;

typedef struct tr_ctx {
    const t1_py_src *src;
    const t1_names *names;
} tr_ctx;

static int tr_node(tr *out, const t1_py_node *n, const tr_ctx *t);

static const char *type_name(enum t1_type type)
{
    return type == TR_INT ? "an int" : type == TR_FLOAT ? "a float" : type == TR_BOOL ? "a bool" : "a string";
}

/* make: out = the formatted text at precedence prec and type `type`. */
static int make(tr *out, const tr_ctx *t, int prec, enum t1_type type, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int make(tr *out, const tr_ctx *t, int prec, enum t1_type type, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *text = arena_vprintf(t->src->c->a, fmt, ap);
    va_end(ap);
    if (!text) {
        t->src->c->oom = true;
        return -1;
    }
    *out = (tr){.text = text, .prec = prec, .type = type};
    return 0;
}

/* at: x's text as an operand that needs at least precedence `min` (parenthesised when
 * x binds looser). */
static const char *at(const tr_ctx *t, const tr *x, int min)
{
    if (x->prec >= min)
        return x->text;
    const char *r = arena_printf(t->src->c->a, "(%s)", x->text);
    if (!r)
        t->src->c->oom = true;
    return r ? r : "";
}

/* as_bool: x as a truth, as Python reads it in a condition. */
static int as_bool(tr *x, const tr_ctx *t)
{
    if (x->type == TR_BOOL)
        return 0;
    const char *zero = x->type == TR_STR ? "\"\"" : "0";
    return make(x, t, P_CMP, TR_BOOL, "%s != %s", at(t, x, P_BOR), zero);
}

/* as_num: x as a number: a bool becomes int(x) (Python's True is 1); a string, or an
 * and/or whose value would be one of its number operands, is refused. */
static int as_num(tr *x, const t1_py_node *n, const tr_ctx *t)
{
    if (x->type == TR_STR)
        return t1_py_error(t->src, n->pos, "a string where a number is needed");
    if (x->type != TR_BOOL)
        return 0;
    if (x->loose)
        return t1_py_error(t->src, n->pos,
                           "the value of this 'and'/'or' is one of its operands (Python's meaning), used here as a "
                           "number: not translated (compare explicitly)");
    return make(x, t, P_PRIMARY, TR_INT, "int(%s)", x->text);
}

static int tr_unary(tr *out, const t1_py_node *n, const tr_ctx *t)
{
    tr x;
    if (tr_node(&x, n->kids[0], t))
        return -1;
    if (n->op == PY_OP_NOT) {
        if (as_bool(&x, t))
            return -1;
        return make(out, t, P_UNARY, TR_BOOL, "!%s", at(t, &x, P_UNARY));
    }
    if (as_num(&x, n->kids[0], t))
        return -1;
    if (n->op == '~' && x.type != TR_INT)
        return t1_py_error(t->src, n->pos, "'~' of a float");
    const char *operand = at(t, &x, P_UNARY);
    return make(out, t, P_UNARY, x.type, "%c%s%s", n->op, operand[0] == '-' || operand[0] == '+' ? " " : "", operand);
}

static const char *bin_text(int op)
{
    switch (op) {
    case PY_OP_FLOORDIV: return "//";
    case PY_OP_POW: return "**";
    case PY_OP_SHL: return "<<";
    case PY_OP_SHR: return ">>";
    case '+': return "+";
    case '-': return "-";
    case '*': return "*";
    case '/': return "/";
    case '%': return "%";
    case '&': return "&";
    case '|': return "|";
    case '^': return "^";
    }
    return "?";
}

static int tr_binary(tr *out, const t1_py_node *n, const tr_ctx *t)
{
    tr l, r;
    if (tr_node(&l, n->kids[0], t) || tr_node(&r, n->kids[1], t) || as_num(&l, n->kids[0], t) ||
        as_num(&r, n->kids[1], t))
        return -1;
    bool ints = l.type == TR_INT && r.type == TR_INT;
    int prec;
    enum t1_type type = ints ? TR_INT : TR_FLOAT;
    switch (n->op) {
    case PY_OP_POW: {
        /* cutune: power = primary "**" unary. Python's int ** negative int is a float;
         * cutune refuses it, so a literal negative exponent makes the base a float. */
        const t1_py_node *e = n->kids[1];
        bool negative = e->kind == PY_UNARY && e->op == '-' && e->kids[0]->kind == PY_INT && e->kids[0]->i > 0;
        if (ints && negative)
            return make(out, t, P_POW, TR_FLOAT, "float(%s) ** %s", l.text, at(t, &r, P_UNARY));
        return make(out, t, P_POW, type, "%s ** %s", at(t, &l, P_PRIMARY), at(t, &r, P_UNARY));
    }
    case '*':
    case PY_OP_FLOORDIV: prec = P_MUL; break;
    case '/':
        prec = P_MUL;
        type = TR_FLOAT;
        break;
    case '%':
        if (!ints)
            return t1_py_error(t->src, n->pos, "'%%' of a float is not translated (cutune's %% takes ints)");
        prec = P_MUL;
        break;
    case '+':
    case '-': prec = P_ADD; break;
    case PY_OP_SHL:
    case PY_OP_SHR: prec = P_SHIFT; break;
    case '&': prec = P_BAND; break;
    case '^': prec = P_BXOR; break;
    case '|': prec = P_BOR; break;
    default: return t1_py_error(t->src, n->pos, "an operator that is not translated");
    }
    if (prec <= P_SHIFT && !ints)
        return t1_py_error(t->src, n->pos, "'%s' of a float", bin_text(n->op));
    return make(out, t, prec, type, "%s %s %s", at(t, &l, prec), bin_text(n->op), at(t, &r, prec + 1));
}

static int tr_boolop(tr *out, const t1_py_node *n, const tr_ctx *t)
{
    tr l, r;
    if (tr_node(&l, n->kids[0], t) || tr_node(&r, n->kids[1], t))
        return -1;
    bool loose = l.type != TR_BOOL || r.type != TR_BOOL || l.loose || r.loose;
    if (as_bool(&l, t) || as_bool(&r, t))
        return -1;
    int prec = n->op == PY_OP_AND ? P_AND : P_OR;
    if (make(out, t, prec, TR_BOOL, "%s %s %s", at(t, &l, prec), prec == P_AND ? "&&" : "||", at(t, &r, prec + 1)))
        return -1;
    out->loose = loose;
    return 0;
}

static const char *cmp_text(int op)
{
    switch (op) {
    case PY_OP_LT: return "<";
    case PY_OP_LE: return "<=";
    case PY_OP_GT: return ">";
    case PY_OP_GE: return ">=";
    case PY_OP_EQ: return "==";
    case PY_OP_NE: return "!=";
    }
    return "?";
}

/* comparable: makes a and b operands cutune compares with op: numbers with numbers
 * (a bool against a number, or ordered, becomes int(b)), strings with strings and
 * bools with bools by == and != only. */
static int comparable(tr *a, tr *b, int op, const t1_py_node *na, const t1_py_node *nb, const tr_ctx *t)
{
    bool eq = op == PY_OP_EQ || op == PY_OP_NE;
    if (a->type == TR_STR || b->type == TR_STR) {
        if (a->type != b->type)
            return t1_py_error(t->src, nb->pos, "%s compared with %s (Python: never equal): not translated",
                               type_name(a->type), type_name(b->type));
        if (!eq)
            return t1_py_error(t->src, nb->pos,
                               "strings ordered by '%s': not translated (cutune compares strings by == "
                               "and != only)",
                               cmp_text(op));
        return 0;
    }
    if (a->type == TR_BOOL && b->type == TR_BOOL && eq && !a->loose && !b->loose)
        return 0;
    return as_num(a, na, t) || as_num(b, nb, t) ? -1 : 0;
}

/* tr_in: x in [e1, e2, ...] as (x == e1 || x == e2 ...); not in as (x != e1 && ...). */
static int tr_in(tr *out, const t1_py_node *n, const tr_ctx *t)
{
    bool in = n->ops[0] == PY_OP_IN;
    const t1_py_node *list = n->kids[1];
    if (list->kind != PY_LIST)
        return t1_py_error(t->src, list->pos, "'%s' is translated with a list or tuple written out on its right",
                           in ? "in" : "not in");
    if (list->nkids == 0)
        return make(out, t, P_PRIMARY, TR_BOOL, "%s", in ? "false" : "true");
    tr x;
    if (tr_node(&x, n->kids[0], t))
        return -1;
    strbuf sb = STRBUF_INIT;
    int rc = 0;
    for (int k = 0; k < list->nkids && rc == 0; k++) {
        tr a = x, e;
        int op = in ? PY_OP_EQ : PY_OP_NE;
        rc = tr_node(&e, list->kids[k], t) || comparable(&a, &e, op, n->kids[0], list->kids[k], t);
        if (rc == 0)
            sb_printf(&sb, "%s%s %s %s", k ? (in ? " || " : " && ") : "", at(t, &a, P_BOR), cmp_text(op),
                      at(t, &e, P_BOR));
    }
    if (rc == 0 && !sb_ok(&sb))
        t->src->c->oom = true;
    if (rc == 0 && !t->src->c->oom)
        rc = make(out, t, list->nkids == 1 ? P_CMP : in ? P_OR : P_AND, TR_BOOL, "%s", sb_cstr(&sb));
    sb_free(&sb);
    return rc || t->src->c->oom ? -1 : 0;
}

static int tr_compare(tr *out, const t1_py_node *n, const tr_ctx *t)
{
    for (int k = 0; k < n->nkids - 1; k++) {
        int op = n->ops[k];
        if (op == PY_OP_IS || op == PY_OP_ISNOT)
            return t1_py_error(t->src, n->kids[k + 1]->pos, "'is' is not translated (write == or !=)");
        if ((op == PY_OP_IN || op == PY_OP_NOTIN) && n->nkids != 2)
            return t1_py_error(t->src, n->kids[k + 1]->pos, "'in' inside a chain of comparisons is not translated");
    }
    if (n->ops[0] == PY_OP_IN || n->ops[0] == PY_OP_NOTIN)
        return tr_in(out, n, t);
    tr *terms = arena_alloc(t->src->c->a, (size_t)n->nkids * sizeof *terms);
    if (!terms) {
        t->src->c->oom = true;
        return -1;
    }
    for (int k = 0; k < n->nkids; k++)
        if (tr_node(&terms[k], n->kids[k], t))
            return -1;
    /* Each operand must suit both comparisons it takes part in; a conversion made for
     * the second is kept (int(b) compares as b does with a number). */
    for (int k = 0; k < n->nkids - 1; k++)
        if (comparable(&terms[k], &terms[k + 1], n->ops[k], n->kids[k], n->kids[k + 1], t))
            return -1;
    for (int k = n->nkids - 2; k >= 0; k--)
        if (comparable(&terms[k], &terms[k + 1], n->ops[k], n->kids[k], n->kids[k + 1], t))
            return -1;
    strbuf sb = STRBUF_INIT;
    sb_add(&sb, at(t, &terms[0], P_BOR));
    for (int k = 1; k < n->nkids; k++)
        sb_printf(&sb, " %s %s", cmp_text(n->ops[k - 1]), at(t, &terms[k], P_BOR));
    int rc = sb_ok(&sb) ? make(out, t, P_CMP, TR_BOOL, "%s", sb_cstr(&sb)) : -1;
    if (!sb_ok(&sb))
        t->src->c->oom = true;
    sb_free(&sb);
    return rc;
}

static int tr_ifexp(tr *out, const t1_py_node *n, const tr_ctx *t)
{
    tr a, c, b;
    if (tr_node(&a, n->kids[0], t) || tr_node(&c, n->kids[1], t) || tr_node(&b, n->kids[2], t) || as_bool(&c, t))
        return -1;
    if (a.type != b.type || a.loose || b.loose) {
        if (as_num(&a, n->kids[0], t) || as_num(&b, n->kids[2], t))
            return -1;
    }
    enum t1_type type = a.type == b.type ? a.type : TR_FLOAT;
    return make(out, t, P_TERNARY, type, "%s ? %s : %s", at(t, &c, P_OR), a.text, b.text);
}

static int tr_call(tr *out, const t1_py_node *n, const tr_ctx *t)
{
    const char *f = n->s;
    const t1_py_node *const *args = (const t1_py_node *const *)n->kids;
    int nargs = n->nkids;
    bool minmax = strcmp(f, "min") == 0 || strcmp(f, "max") == 0;
    if (minmax && nargs == 1 && args[0]->kind == PY_LIST) { /* max([a, b]) is max(a, b) */
        nargs = args[0]->nkids;
        args = (const t1_py_node *const *)args[0]->kids;
    }
    if (!minmax && strcmp(f, "abs") != 0 && strcmp(f, "int") != 0 && strcmp(f, "float") != 0)
        return t1_py_error(t->src, n->pos, "%s",
                           strcmp(f, "round") == 0 ? "round() is not translated (Python rounds halves to even, "
                                                     "cutune's round() away from zero)"
                                                   : arena_printf(t->src->c->a,
                                                                  "the function %s() is not translated "
                                                                  "(min, max, abs, int and float are)",
                                                                  f));
    if (minmax ? nargs < 1 || nargs > 8 : nargs != 1)
        return t1_py_error(t->src, n->pos, "%s() with %d argument%s is not translated", f, nargs,
                           nargs == 1 ? "" : "s");
    strbuf sb = STRBUF_INIT;
    enum t1_type type = TR_INT;
    int rc = 0;
    sb_printf(&sb, "%s(", f);
    for (int k = 0; k < nargs && rc == 0; k++) {
        tr a;
        rc = tr_node(&a, args[k], t) || as_num(&a, args[k], t);
        if (rc == 0) {
            if (a.type == TR_FLOAT)
                type = TR_FLOAT;
            sb_printf(&sb, "%s%s", k ? ", " : "", a.text);
        }
    }
    sb_addc(&sb, ')');
    if (strcmp(f, "int") == 0)
        type = TR_INT;
    else if (strcmp(f, "float") == 0)
        type = TR_FLOAT;
    if (rc == 0)
        rc = sb_ok(&sb) ? make(out, t, P_PRIMARY, type, "%s", sb_cstr(&sb)) : -1;
    sb_free(&sb);
    return rc;
}

static int tr_node(tr *out, const t1_py_node *n, const tr_ctx *t)
{
    if (t->src->c->oom)
        return -1;
    switch (n->kind) {
    case PY_INT: return make(out, t, P_PRIMARY, TR_INT, "%lld", (long long)n->i);
    case PY_BOOL: return make(out, t, P_PRIMARY, TR_BOOL, "%s", n->i ? "true" : "false");
    case PY_FLOAT:
    case PY_STR: {
        t1_py_val v = {.kind = n->kind == PY_FLOAT ? PV_FLOAT : PV_STR, .f = n->f, .s = n->s};
        const char *text = t1_py_text(t->src->c, &v);
        if (!text)
            return t1_py_error(t->src, n->pos, "%s",
                               n->kind == PY_FLOAT ? "a float that is not finite"
                                                   : "a string with a control character");
        return make(out, t, P_PRIMARY, n->kind == PY_FLOAT ? TR_FLOAT : TR_STR, "%s", text);
    }
    case PY_NAME:
        for (int k = 0; k < t->names->n; k++)
            if (strcmp(t->names->names[k].t1, n->s) == 0)
                return make(out, t, P_PRIMARY, t->names->names[k].type, "%s", t->names->names[k].spec);
        return t1_py_error(t->src, n->pos, "unknown name '%s': only the tuning parameters%s are known here", n->s,
                           t->names->n > 0 ? "" : " (none here)");
    case PY_UNARY: return tr_unary(out, n, t);
    case PY_BIN: return tr_binary(out, n, t);
    case PY_BOOLOP: return tr_boolop(out, n, t);
    case PY_CMP: return tr_compare(out, n, t);
    case PY_IFEXP: return tr_ifexp(out, n, t);
    case PY_CALL: return tr_call(out, n, t);
    case PY_LIST: return t1_py_error(t->src, n->pos, "a list is no value in cutune's expressions (only after 'in')");
    case PY_COMP: return t1_py_error(t->src, n->pos, "a comprehension is not translated here");
    case PY_SUBSCRIPT: return t1_py_error(t->src, n->pos, "indexing is not translated here");
    }
    return t1_py_error(t->src, n->pos, "not translated");
}

const char *t1_translate(const t1_py_src *src, const t1_names *names, enum t1_type want)
{
    t1_py_node *root;
    if (t1_py_parse(&root, src))
        return NULL;
    tr_ctx t = {.src = src, .names = names};
    tr x;
    if (tr_node(&x, root, &t))
        return NULL;
    if (want == TR_BOOL) {
        if (as_bool(&x, &t))
            return NULL;
    } else if (want == TR_INT) {
        if (as_num(&x, root, &t))
            return NULL;
        if (x.type != TR_INT) {
            t1_py_report(src, 0, "gives a float where an int is needed (Python's / divides exactly: write //)");
            return NULL;
        }
    }
    return x.text;
}
