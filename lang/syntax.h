/* syntax.h - the messages for syntax errors (syntax.c): what the parser (parser.y)
 * expected and what it found, in the spec's words, with the usual mistakes named (a
 * misspelt statement keyword, a missing ';' at the end of a line, a Python list
 * comprehension, membership after a comparison). parser.y hands the parser's state over
 * as token codes (parser.h's: IDENT, PARAM, ';', TN_EOF, ...), so that this file needs
 * none of bison's internals. */
#ifndef CUTUNE_LANG_SYNTAX_H
#define CUTUNE_LANG_SYNTAX_H

#include <stdint.h>

#include "parse.h"

/* The most tokens the parser may expect at one place (it has fewer kinds of token:
 * parser.y checks). */
enum { SYNTAX_MAX_EXPECTED = 128 };

/* A syntax error as the parser saw it. */
typedef struct syntax_error {
    int found;                                       /* the token code it stopped at (TN_EOF at the end) */
    uint32_t begin, end;                             /* that token's place in the spec */
    int nexpected;                                   /* how many tokens it could have taken there (0: unknown) */
    int expected[SYNTAX_MAX_EXPECTED];               /* their token codes (TN_UNDEF: none) */
    const char *expected_names[SYNTAX_MAX_EXPECTED]; /* their names as the grammar's aliases
                                                     * spell them ("'kernel'", "identifier") */
} syntax_error;

/* syntax_report: one error in ctx->diags for `e`: "expected X or Y, found Z" or, where
 * the list would not help, what was meant; ctx->oom set when memory ran out. */
void syntax_report(lang_ctx *ctx, const syntax_error *e);

#endif
