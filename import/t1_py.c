/* t1_py.c - the Python expressions of a T1 file: a lexer and a recursive-descent parser
 * for the subset T1 files use (literals, names, list and tuple displays, list
 * comprehensions, calls, subscripts, every operator of Python 3 but lambda, the walrus
 * and attribute access), and an evaluator with Python 3's meaning for the values of
 * params, argument sizes and the default configuration's check (t1_internal.h).
 *
 * Python's grammar, as this parser reads it (each function below is headed by its rule):
 *   expr       = or_test [ "if" or_test "else" expr ]
 *   or_test    = and_test { "or" and_test }
 *   and_test   = not_test { "and" not_test }
 *   not_test   = "not" not_test | comparison
 *   comparison = bor { cmp_op bor }     cmp_op: < > == >= <= != in "not in" is "is not"
 *   bor = bxor { "|" bxor }   bxor = band { "^" band }   band = shift { "&" shift }
 *   shift = arith { ("<<" | ">>") arith }   arith = term { ("+" | "-") term }
 *   term = factor { ("*" | "/" | "//" | "%") factor }
 *   factor = ("+" | "-" | "~") factor | power
 *   power = postfix [ "**" factor ]
 *   postfix = atom { "(" [ args ] ")" | "[" expr "]" }
 *   atom = NAME | NUMBER | STRING | "True" | "False" | "(" [ exprs ] ")"
 *        | "[" [ exprs | expr "for" NAME "in" or_test [ "if" or_test ] ] "]" */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t1_internal.h"

/* How deep an expression may nest: far beyond what a T1 file writes, and a bound on
 * the parser's and the evaluator's stack. */
#define PY_MAX_DEPTH 200

void t1_py_report(const t1_py_src *src, size_t pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *what = arena_vprintf(src->c->a, fmt, ap);
    va_end(ap);
    if (!what) {
        src->c->oom = true;
        return;
    }
    t1_error(src->c, src->path, "%s (at column %zu of \"%s\")", what, pos + 1, src->text);
}

/* ---- lexer --------------------------------------------------------------------------- */

enum tok { TK_END, TK_INT, TK_FLOAT, TK_STR, TK_NAME, TK_OP };

typedef struct parser {
    const t1_py_src *src;
    const char *t;
    size_t pos;    /* where the next token starts */
    enum tok kind; /* the current token */
    size_t start;  /* its offset */
    int op;        /* TK_OP: a character or a PY_OP_* */
    int64_t i;     /* TK_INT */
    double f;      /* TK_FLOAT */
    const char *s; /* TK_NAME, TK_STR (in the arena) */
    int depth;
    bool failed;
} parser;

static int fail(parser *p, size_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(parser *p, size_t pos, const char *fmt, ...)
{
    if (p->failed)
        return -1;
    p->failed = true;
    va_list ap;
    va_start(ap, fmt);
    char *what = arena_vprintf(p->src->c->a, fmt, ap);
    va_end(ap);
    return t1_py_error(p->src, pos, "%s", what ? what : "out of memory");
}

/* lex_number: the number at p->pos (Python 3's forms: 12, 1_000, 0x1f, 0o17, 0b101,
 * 1.5, .5, 1., 1e6, 2.5E-3). */
static int lex_number(parser *p)
{
    const char *t = p->t;
    size_t i = p->pos;
    char digits[128];
    size_t nd = 0;
    int base = 10;
    bool is_float = false;
    if (t[i] == '0' && strchr("xXoObB", t[i + 1]) && t[i + 1]) {
        base = strchr("xX", t[i + 1]) ? 16 : strchr("oO", t[i + 1]) ? 8 : 2;
        i += 2;
        while (isalnum((unsigned char)t[i]) || t[i] == '_') {
            if (t[i] != '_' && nd + 1 < sizeof digits)
                digits[nd++] = t[i];
            i++;
        }
    } else {
        while (isdigit((unsigned char)t[i]) || t[i] == '_' || t[i] == '.' || ((t[i] == 'e' || t[i] == 'E')) ||
               ((t[i] == '+' || t[i] == '-') && i > p->pos && (t[i - 1] == 'e' || t[i - 1] == 'E'))) {
            if (t[i] == '.' || t[i] == 'e' || t[i] == 'E')
                is_float = true;
            if (t[i] != '_' && nd + 1 < sizeof digits)
                digits[nd++] = t[i];
            i++;
        }
        if (isalpha((unsigned char)t[i]) || t[i] == '_')
            return fail(p, p->pos, "'%.*s' is not a number", (int)(i + 1 - p->pos), t + p->pos);
    }
    digits[nd] = '\0';
    char *end = NULL;
    errno = 0;
    if (is_float) {
        p->kind = TK_FLOAT;
        p->f = strtod(digits, &end);
    } else {
        p->kind = TK_INT;
        if (base == 10 && nd > 1 && digits[0] == '0' && strspn(digits, "0") != nd)
            return fail(p, p->pos, "a leading zero in '%s' (Python 3 writes octal as 0o...)", digits);
        long long v = strtoll(digits, &end, base);
        p->i = v;
        if (errno == ERANGE)
            return fail(p, p->pos, "the integer %.*s does not fit in 64 bits", (int)(i - p->pos), t + p->pos);
    }
    if (nd == 0 || !end || *end != '\0' || nd + 1 >= sizeof digits)
        return fail(p, p->pos, "'%.*s' is not a number", (int)(i - p->pos), t + p->pos);
    p->pos = i;
    return 0;
}

/* lex_string: the string literal at p->pos ('...' or "...", escapes \\ \' \" \n \t). */
static int lex_string(parser *p)
{
    char quote = p->t[p->pos];
    strbuf sb = STRBUF_INIT;
    size_t i = p->pos + 1;
    for (; p->t[i] && p->t[i] != quote; i++) {
        char ch = p->t[i];
        if (ch == '\\') {
            char e = p->t[++i];
            ch = e == 'n' ? '\n' : e == 't' ? '\t' : e;
            if (!strchr("nt\\'\"", e) || !e) {
                sb_free(&sb);
                return fail(p, i - 1, "the escape '\\%c' is not translated", e ? e : ' ');
            }
        }
        sb_addc(&sb, ch);
    }
    if (!p->t[i]) {
        sb_free(&sb);
        return fail(p, p->pos, "a string that does not end");
    }
    p->s = arena_strdup(p->src->c->a, sb_ok(&sb) ? sb_cstr(&sb) : "");
    sb_free(&sb);
    p->kind = TK_STR;
    p->pos = i + 1;
    return 0;
}

/* next: reads the next token into p. */
static int next(parser *p)
{
    const char *t = p->t;
    while (t[p->pos] == ' ' || t[p->pos] == '\t' || t[p->pos] == '\n' || t[p->pos] == '\r')
        p->pos++;
    p->start = p->pos;
    char ch = t[p->pos];
    if (!ch) {
        p->kind = TK_END;
        return 0;
    }
    if (isdigit((unsigned char)ch) || (ch == '.' && isdigit((unsigned char)t[p->pos + 1])))
        return lex_number(p);
    if (isalpha((unsigned char)ch) || ch == '_') {
        size_t n = 0;
        while (isalnum((unsigned char)t[p->pos + n]) || t[p->pos + n] == '_')
            n++;
        p->s = arena_strndup(p->src->c->a, t + p->pos, n);
        p->pos += n;
        p->kind = TK_NAME;
        return p->s ? 0 : fail(p, p->start, "out of memory");
    }
    if (ch == '\'' || ch == '"')
        return lex_string(p);
    static const struct {
        const char *text;
        int op;
    } ops[] = {{"**", PY_OP_POW}, {"//", PY_OP_FLOORDIV}, {"<<", PY_OP_SHL}, {">>", PY_OP_SHR}, {"<=", PY_OP_LE},
               {">=", PY_OP_GE},  {"==", PY_OP_EQ},       {"!=", PY_OP_NE},  {"<", PY_OP_LT},   {">", PY_OP_GT}};
    p->kind = TK_OP;
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++)
        if (strncmp(t + p->pos, ops[k].text, strlen(ops[k].text)) == 0) {
            p->op = ops[k].op;
            p->pos += strlen(ops[k].text);
            return 0;
        }
    if (strchr("+-*/%&|^~()[],:", ch)) {
        p->op = (unsigned char)ch;
        p->pos++;
        return 0;
    }
    return fail(p, p->pos, "'%c' is not part of the expressions a T1 file may hold", ch);
}

static bool is_op(const parser *p, int op)
{
    return p->kind == TK_OP && p->op == op;
}

static bool is_word(const parser *p, const char *word)
{
    return p->kind == TK_NAME && strcmp(p->s, word) == 0;
}

/* expect: the current token is `op` (else an error saying what was found); reads on. */
static int expect(parser *p, int op, const char *what)
{
    if (!is_op(p, op)) {
        if (p->kind == TK_END)
            return fail(p, p->start, "expected %s, found the end of the expression", what);
        return fail(p, p->start, "expected %s", what);
    }
    return next(p);
}

static t1_py_node *node(parser *p, enum t1_py_kind kind, size_t pos)
{
    t1_py_node *n = arena_alloc(p->src->c->a, sizeof *n);
    if (!n) {
        fail(p, pos, "out of memory");
        return NULL;
    }
    n->kind = kind;
    n->pos = pos;
    return n;
}

static int add_kid(parser *p, t1_py_node *n, t1_py_node *kid, int *cap)
{
    if (ARENA_PUSH(p->src->c->a, n->kids, n->nkids, *cap, kid) != 0)
        return fail(p, n->pos, "out of memory");
    return 0;
}

static t1_py_node *binary(parser *p, enum t1_py_kind kind, int op, size_t pos, t1_py_node *l, t1_py_node *r)
{
    if (!l || !r)
        return NULL;
    t1_py_node *n = node(p, kind, pos);
    int cap = 0;
    if (!n || add_kid(p, n, l, &cap) || add_kid(p, n, r, &cap))
        return NULL;
    n->op = op;
    return n;
}

static t1_py_node *parse_expr(parser *p);
static t1_py_node *parse_or(parser *p);
static t1_py_node *parse_factor(parser *p);

/* exprs-or-comprehension inside [ ] or ( ): the elements up to `close`. */
static t1_py_node *parse_display(parser *p, int close, size_t pos)
{
    t1_py_node *n = node(p, PY_LIST, pos);
    int cap = 0;
    if (!n || next(p))
        return NULL;
    while (!is_op(p, close)) {
        t1_py_node *e = parse_expr(p);
        if (!e)
            return NULL;
        if (is_word(p, "for") && close == ']' && n->nkids == 0) {
            t1_py_node *comp = node(p, PY_COMP, pos);
            if (!comp || next(p))
                return NULL;
            if (p->kind != TK_NAME) {
                fail(p, p->start, "expected the name of the loop variable after 'for'");
                return NULL;
            }
            comp->s = p->s;
            if (next(p))
                return NULL;
            if (!is_word(p, "in")) {
                fail(p, p->start, "expected 'in' (one loop variable per comprehension)");
                return NULL;
            }
            int ccap = 0;
            t1_py_node *iter = next(p) ? NULL : parse_or(p);
            if (!iter || add_kid(p, comp, e, &ccap) || add_kid(p, comp, iter, &ccap))
                return NULL;
            if (is_word(p, "if")) {
                t1_py_node *cond = next(p) ? NULL : parse_or(p);
                if (!cond || add_kid(p, comp, cond, &ccap))
                    return NULL;
            }
            if (expect(p, ']', "']' to end the comprehension (one 'for' each)"))
                return NULL;
            return comp;
        }
        if (add_kid(p, n, e, &cap))
            return NULL;
        if (is_op(p, ',')) {
            n->i = 1;
            next(p);
        } else if (!is_op(p, close)) {
            fail(p, p->start, "expected ',' or '%c'", close);
            return NULL;
        }
        if (p->failed)
            return NULL;
    }
    if (next(p))
        return NULL;
    return n;
}

/* atom = NAME | NUMBER | STRING | "True" | "False" | "(" ... ")" | "[" ... "]" */
static t1_py_node *parse_atom(parser *p)
{
    size_t pos = p->start;
    t1_py_node *n = NULL;
    switch (p->kind) {
    case TK_INT:
        if ((n = node(p, PY_INT, pos)))
            n->i = p->i;
        break;
    case TK_FLOAT:
        if ((n = node(p, PY_FLOAT, pos)))
            n->f = p->f;
        break;
    case TK_STR:
        if ((n = node(p, PY_STR, pos)))
            n->s = p->s;
        break;
    case TK_NAME: {
        static const char *const reserved[] = {"and",  "or",     "not",    "in",    "is",    "if",
                                               "else", "for",    "lambda", "None",  "await", "yield",
                                               "del",  "import", "def",    "class", NULL};
        if (is_word(p, "True") || is_word(p, "False")) {
            if ((n = node(p, PY_BOOL, pos)))
                n->i = is_word(p, "True");
            break;
        }
        for (int k = 0; reserved[k]; k++)
            if (is_word(p, reserved[k])) {
                fail(p, pos, "'%s' is not translated here", p->s);
                return NULL;
            }
        if ((n = node(p, PY_NAME, pos)))
            n->s = p->s;
        break;
    }
    case TK_OP:
        if (is_op(p, '(')) {
            t1_py_node *d = parse_display(p, ')', pos);
            if (!d)
                return NULL;
            /* (x) is x; (x,) and (x, y) are tuples, read as lists (i: a ',' was read) */
            return d->nkids == 1 && !d->i ? d->kids[0] : d;
        }
        if (is_op(p, '['))
            return parse_display(p, ']', pos);
        /* fall through */
    default:
        if (p->kind == TK_END)
            fail(p, pos, "the expression ends where a value is expected");
        else
            fail(p, pos, "expected a value");
        return NULL;
    }
    if (!n || next(p))
        return NULL;
    return n;
}

/* postfix = atom { "(" [ args ] ")" | "[" expr "]" } */
static t1_py_node *parse_postfix(parser *p)
{
    t1_py_node *n = parse_atom(p);
    while (n && (is_op(p, '(') || is_op(p, '['))) {
        size_t pos = p->start;
        if (is_op(p, '[')) {
            t1_py_node *index = next(p) ? NULL : parse_expr(p);
            if (!index || expect(p, ']', "']'"))
                return NULL;
            n = binary(p, PY_SUBSCRIPT, 0, pos, n, index);
            continue;
        }
        if (n->kind != PY_NAME) {
            fail(p, pos, "only a named function can be called");
            return NULL;
        }
        t1_py_node *call = parse_display(p, ')', n->pos);
        if (!call)
            return NULL;
        call->kind = PY_CALL;
        call->s = n->s;
        n = call;
    }
    return n;
}

/* power = postfix [ "**" factor ] */
static t1_py_node *parse_power(parser *p)
{
    t1_py_node *n = parse_postfix(p);
    if (n && is_op(p, PY_OP_POW)) {
        size_t pos = p->start;
        if (next(p))
            return NULL;
        n = binary(p, PY_BIN, PY_OP_POW, pos, n, parse_factor(p));
    }
    return n;
}

/* A prefix operator `op` at the current token (not yet taken) and its operand, parsed
 * by `operand` (the same rule again: "-" factor, "not" not_test), as a PY_UNARY node.
 * NULL after fail() (nesting past PY_MAX_DEPTH included) or out of memory. */
static t1_py_node *parse_prefix(parser *p, int op, t1_py_node *(*operand)(parser *))
{
    size_t pos = p->start;
    if (++p->depth > PY_MAX_DEPTH) {
        fail(p, pos, "the expression nests too deeply (more than %d levels)", PY_MAX_DEPTH);
        return NULL;
    }
    t1_py_node *n = node(p, PY_UNARY, pos);
    int cap = 0;
    if (!n || next(p))
        return NULL;
    t1_py_node *kid = operand(p);
    p->depth--;
    if (!kid || add_kid(p, n, kid, &cap))
        return NULL;
    n->op = op;
    return n;
}

/* factor = ("+" | "-" | "~") factor | power */
static t1_py_node *parse_factor(parser *p)
{
    if (is_op(p, '+') || is_op(p, '-') || is_op(p, '~'))
        return parse_prefix(p, p->op, parse_factor);
    return parse_power(p);
}

/* One level of left-associative binary operators: `ops` (0-ended) over `sub`. */
static t1_py_node *parse_left(parser *p, const int *ops, t1_py_node *(*sub)(parser *))
{
    t1_py_node *n = sub(p);
    for (;;) {
        if (!n || p->kind != TK_OP)
            return n;
        int k = 0;
        while (ops[k] && ops[k] != p->op)
            k++;
        if (!ops[k])
            return n;
        size_t pos = p->start;
        if (next(p))
            return NULL;
        n = binary(p, PY_BIN, ops[k], pos, n, sub(p));
    }
}

static t1_py_node *parse_term(parser *p)
{
    static const int ops[] = {'*', '/', PY_OP_FLOORDIV, '%', 0};
    return parse_left(p, ops, parse_factor);
}
static t1_py_node *parse_arith(parser *p)
{
    static const int ops[] = {'+', '-', 0};
    return parse_left(p, ops, parse_term);
}
static t1_py_node *parse_shift(parser *p)
{
    static const int ops[] = {PY_OP_SHL, PY_OP_SHR, 0};
    return parse_left(p, ops, parse_arith);
}
static t1_py_node *parse_band(parser *p)
{
    static const int ops[] = {'&', 0};
    return parse_left(p, ops, parse_shift);
}
static t1_py_node *parse_bxor(parser *p)
{
    static const int ops[] = {'^', 0};
    return parse_left(p, ops, parse_band);
}
static t1_py_node *parse_bor(parser *p)
{
    static const int ops[] = {'|', 0};
    return parse_left(p, ops, parse_bxor);
}

/* cmp_op: the comparison at the current token (reading "not in" and "is not" whole),
 * or 0 when there is none. */
static int cmp_op(parser *p)
{
    if (p->kind == TK_OP && p->op >= PY_OP_LT && p->op <= PY_OP_NE) {
        int op = p->op;
        return next(p) ? -1 : op;
    }
    if (is_word(p, "in"))
        return next(p) ? -1 : PY_OP_IN;
    if (is_word(p, "is")) {
        if (next(p))
            return -1;
        if (is_word(p, "not"))
            return next(p) ? -1 : PY_OP_ISNOT;
        return PY_OP_IS;
    }
    if (is_word(p, "not")) {
        size_t pos = p->start;
        if (next(p))
            return -1;
        if (!is_word(p, "in")) {
            fail(p, pos, "expected 'not in'");
            return -1;
        }
        return next(p) ? -1 : PY_OP_NOTIN;
    }
    return 0;
}

/* comparison = bor { cmp_op bor } */
static t1_py_node *parse_comparison(parser *p)
{
    t1_py_node *first = parse_bor(p);
    if (!first)
        return NULL;
    size_t pos = p->start;
    int op = cmp_op(p);
    if (op <= 0)
        return op < 0 ? NULL : first;
    t1_py_node *n = node(p, PY_CMP, first->pos);
    int cap = 0, nops = 0, capops = 0;
    if (!n || add_kid(p, n, first, &cap))
        return NULL;
    (void)pos;
    while (op > 0) {
        t1_py_node *r = parse_bor(p);
        if (!r || add_kid(p, n, r, &cap) || ARENA_PUSH(p->src->c->a, n->ops, nops, capops, op) != 0)
            return NULL;
        op = cmp_op(p);
    }
    return op < 0 ? NULL : n;
}

/* not_test = "not" not_test | comparison */
static t1_py_node *parse_not(parser *p)
{
    if (!is_word(p, "not"))
        return parse_comparison(p);
    return parse_prefix(p, PY_OP_NOT, parse_not);
}

/* One level of boolean operators, left to right: operand { word operand }, each a
 * PY_BOOLOP node of operator op. */
static t1_py_node *parse_boolop(parser *p, const char *word, int op, t1_py_node *(*operand)(parser *))
{
    t1_py_node *n = operand(p);
    while (n && is_word(p, word)) {
        size_t pos = p->start;
        n = next(p) ? NULL : binary(p, PY_BOOLOP, op, pos, n, operand(p));
    }
    return n;
}

/* and_test = not_test { "and" not_test };  or_test = and_test { "or" and_test } */
static t1_py_node *parse_and(parser *p)
{
    return parse_boolop(p, "and", PY_OP_AND, parse_not);
}
static t1_py_node *parse_or(parser *p)
{
    return parse_boolop(p, "or", PY_OP_OR, parse_and);
}

/* expr = or_test [ "if" or_test "else" expr ] */
static t1_py_node *parse_expr(parser *p)
{
    if (++p->depth > PY_MAX_DEPTH) {
        fail(p, p->start, "the expression nests too deeply (more than %d levels)", PY_MAX_DEPTH);
        return NULL;
    }
    t1_py_node *n = parse_or(p);
    if (n && is_word(p, "if")) {
        t1_py_node *e = node(p, PY_IFEXP, p->start);
        int cap = 0;
        t1_py_node *cond = next(p) ? NULL : parse_or(p);
        if (!e || !cond)
            return NULL;
        if (!is_word(p, "else")) {
            fail(p, p->start, "expected 'else'");
            return NULL;
        }
        t1_py_node *alt = next(p) ? NULL : parse_expr(p);
        if (!alt || add_kid(p, e, n, &cap) || add_kid(p, e, cond, &cap) || add_kid(p, e, alt, &cap))
            return NULL;
        n = e;
    }
    p->depth--;
    return n;
}

int t1_py_parse(t1_py_node **out, const t1_py_src *src)
{
    parser p = {.src = src, .t = src->text};
    *out = NULL;
    if (next(&p))
        return -1;
    if (p.kind == TK_END)
        return t1_py_error(src, 0, "the expression is empty");
    t1_py_node *n = parse_expr(&p);
    if (!n)
        return -1;
    if (p.kind != TK_END)
        return fail(&p, p.start, "unexpected text after the expression");
    *out = n;
    return 0;
}
