/* parse.h - the .tune parser's entry point (flex lexer + bison parser).
 *
 * Reentrant and pure: all state lives in a lang_ctx on the caller's stack, so specs
 * may be parsed concurrently. */
#ifndef CUTUNE_LANG_PARSE_H
#define CUTUNE_LANG_PARSE_H

#include "ast.h"
#include "diag.h"

/* lang_parse: parses `src` into *out (allocated in `a`), recording every syntax error
 * it can find in `dl` (the parser resynchronises at ';' and '}' and goes on). Returns 0
 * when the spec parsed without error, -1 otherwise; *out is set either way (possibly
 * partial) unless memory ran out, in which case it is NULL. */
int lang_parse(ast_spec **out, arena *a, const src_file *src, diag_list *dl);

/* lang_keywords: the reserved words, NULL-terminated (for "did you mean" hints). */
extern const char *const lang_keywords[];

/* Internal to lexer.l and parser.y: the state shared by the scanner and the parser. */
typedef struct lang_ctx {
    arena *arena;
    diag_list *diags;
    const src_file *src;
    uint32_t offset;     /* bytes consumed by the scanner so far */
    uint32_t last_end;   /* end of the last token returned */
    uint32_t prev_end;   /* end of the token before that */
    ast_spec *spec;
    bool oom;
    bool too_deep;       /* the parser's stack reached its bound (nesting beyond AST_MAX_DEPTH) */
} lang_ctx;

#endif
