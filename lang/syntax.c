/* syntax.c - the messages for syntax errors (see syntax.h). */
#include "syntax.h"

#include <stdio.h>
#include <string.h>

#include "../base/strbuf.h"
#include "../base/suggest.h"
#include "parser.h"

/* The statement keywords, for "unknown statement 'parm'; did you mean 'param'?". */
static const char *const statement_words[] = {
    "include", "options", "param",     "let",    "require", "block", "grid", "smem",  "arg",
    "verify",  "metric",  "objective", "search", "measure", "emit",  "size", "reset", "compat",
};

/* How the token the parser stopped at is named in a message: its text, quoted. */
static void describe_token(const lang_ctx *ctx, const syntax_error *e, char *buf, size_t size)
{
    const char *text = ctx->src->text + e->begin;
    int len = (int)(e->end - e->begin);
    if (len > 40)
        len = 40;
    switch (e->found) {
    case TN_EOF: snprintf(buf, size, "end of file"); break;
    case IDENT: snprintf(buf, size, "identifier '%.*s'", len, text); break;
    case INT:
    case FLOAT:
    case DURATION: snprintf(buf, size, "number %.*s", len, text); break;
    case STRING: snprintf(buf, size, "string %.*s", len, text); break;
    default: snprintf(buf, size, "'%.*s'", len, text); break;
    }
}

/* The name of an expected token as the grammar's alias spells it ("'kernel'" -> 'kernel'). */
static void expected_name(const char *name, strbuf *out)
{
    if (name[0] == '"') {
        size_t n = strlen(name);
        sb_addn(out, name + 1, n - 2);
    } else {
        sb_add(out, name);
    }
}

/* Whether the statement before offset `at` (back to its ';', '{' or '}') holds a
 * comparison operator (<, >, ==, !=, <=, >=; not << or >>). */
static bool after_comparison(const lang_ctx *ctx, uint32_t at)
{
    const char *t = ctx->src->text;
    for (uint32_t i = at; i > 0 && !strchr(";{}", t[i - 1]); i--) {
        char c = t[i - 1], prev = i > 1 ? t[i - 2] : ' ', next = t[i];
        if ((c == '<' || c == '>') && prev != c && next != c)
            return true;
        if (c == '=' && strchr("=!", prev))
            return true;
    }
    return false;
}

/* Whether token `tok` is among the first n expected ones. */
static bool expects(const syntax_error *e, int n, int tok)
{
    for (int i = 0; i < n; i++)
        if (e->expected[i] == tok)
            return true;
    return false;
}

/* The mistakes a list of expected tokens would not help with (n of e's expected tokens
 * count): reported, and true; false for none of them. */
static bool report_special(lang_ctx *ctx, const syntax_error *e, int n, const char *found)
{
    span at = {e->begin, e->end};
    int tok = e->found;
    /* A Python list comprehension: [2**i for i in range(5)]. */
    if (tok == IDENT && e->end - e->begin == 3 && memcmp(ctx->src->text + e->begin, "for", 3) == 0 &&
        expects(e, n, ']')) {
        diag_error(ctx->diags, at,
                   "a list cannot be built with 'for'; write a range (1 .. 16, 0 .. 64 step 8, "
                   "or 1 .. 1024 step *2 for the powers of two) or list the values ([1, 2, 4, 8])");
        return true;
    }
    /* Membership after a comparison: 1 < x in [...] (it does not chain). */
    if ((tok == IN || tok == NOTIN) && !expects(e, n, IN) && after_comparison(ctx, e->begin)) {
        diag_error(ctx->diags, at,
                   "'%s' cannot follow a comparison (membership does not chain): parenthesise, "
                   "as (a < b) && (b in [...])",
                   tok == IN ? "in" : "not in");
        return true;
    }
    if (tok == TN_EOF && ctx->last_end == 0) { /* nothing but blanks and comments */
        diag_error_noloc(ctx->diags, "the spec is empty; it starts with: kernel NAME from \"FILE.cu\" { ... }");
        return true;
    }
    if (tok == TN_EOF && expects(e, n, '}') && expects(e, n, PARAM)) { /* between statements */
        span end = {ctx->last_end, ctx->last_end};
        diag_error(ctx->diags, end, "expected '}' to close the kernel block, found end of file");
        return true;
    }
    if (expects(e, n, PARAM) && expects(e, n, '}')) {
        diag_error(ctx->diags, at, "expected a statement or '}', found %s", found);
        return true;
    }
    if ((n == 1 && e->expected[0] == TN_EOF) || (n == 2 && expects(e, n, TN_EOF) && expects(e, n, KERNEL))) {
        diag_error(ctx->diags, at,
                   "unexpected %s after the kernel block's closing '}' (statements go inside "
                   "the block)",
                   found);
        return true;
    }
    return false;
}

/* "expected X, Y or Z, found W" into sb (n of e's expected tokens count); the dozen
 * tokens that can start an expression are listed as "an expression", and more than six
 * give "unexpected W". */
static void expected_list(const lang_ctx *ctx, const syntax_error *e, int n, const char *found, strbuf *sb)
{
    enum { MAX_LISTED = 6 };
    bool wants_expr = expects(e, n, INT) && expects(e, n, IDENT);
    int listed = 0;
    int shown[SYNTAX_MAX_EXPECTED]; /* indices into e->expected */
    for (int i = 0; i < n; i++) {
        int t = e->expected[i];
        bool starts_expr = t == INT || t == FLOAT || t == DURATION || t == BOOL || t == STRING || t == IDENT ||
                           t == CTYPE || t == '(' || t == '-' || t == '+' || t == '!' || t == '~';
        if (!(wants_expr && starts_expr))
            shown[listed++] = i;
    }
    if (n == 0 || listed > MAX_LISTED) {
        sb_printf(sb, "unexpected %s", found);
        return;
    }
    sb_add(sb, "expected ");
    int total = listed + wants_expr;
    for (int i = 0; i < total; i++) {
        if (i > 0)
            sb_add(sb, i == total - 1 ? " or " : ", ");
        if (i < listed)
            expected_name(e->expected_names[shown[i]], sb);
        else
            sb_add(sb, "an expression");
    }
    sb_printf(sb, ", found %s", found);
    /* A keyword where a name was expected: say why it cannot be a name. */
    if (expects(e, n, IDENT) && e->found != IDENT && found[0] == '\'' &&
        ((ctx->src->text[e->begin] | 32) >= 'a' && (ctx->src->text[e->begin] | 32) <= 'z'))
        sb_add(sb, " (a reserved word)");
}

void syntax_report(lang_ctx *ctx, const syntax_error *e)
{
    int n = e->nexpected < 0 ? 0 : e->nexpected;
    span at = {e->begin, e->end};
    char found[96];
    describe_token(ctx, e, found, sizeof found);

    if (e->found == IDENT && n > 0 && expects(e, n, PARAM)) {
        char word[64];
        snprintf(word, sizeof word, "%.*s", (int)(e->end - e->begin), ctx->src->text + e->begin);
        const char *best = suggest_best(word, statement_words, sizeof statement_words / sizeof *statement_words);
        if (best)
            diag_error(ctx->diags, at, "unknown statement '%s'; did you mean '%s'?", word, best);
        else
            diag_error(ctx->diags, at,
                       "unknown statement '%s' (statements start with param, let, require, "
                       "block, grid, smem, arg, verify, metric, objective, search, measure, "
                       "emit, size, reset, compat, include or options)",
                       word);
        return;
    }
    if (n == 1 && e->expected[0] == TN_UNDEF)
        n = 0;
    if (report_special(ctx, e, n, found))
        return;
    strbuf sb = STRBUF_INIT;
    expected_list(ctx, e, n, found, &sb);
    /* ';' missing at the end of a line: point just after the last token of the statement. */
    if (expects(e, n, ';') && ctx->prev_end < e->begin) {
        bool newline = false;
        for (uint32_t i = ctx->prev_end; i < e->begin; i++)
            newline |= ctx->src->text[i] == '\n';
        if (newline) {
            at.begin = at.end = ctx->prev_end;
            sb_reset(&sb);
            sb_printf(&sb, "expected ';' at the end of the statement, found %s on the next line", found);
        }
    }
    if (!sb_ok(&sb))
        ctx->oom = true;
    else
        diag_error(ctx->diags, at, "%s", sb_cstr(&sb));
    sb_free(&sb);
}
