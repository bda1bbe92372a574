/* parse.h - the .tune parser's entry point (flex lexer + bison parser).
 *
 * Reentrant and pure: all state lives in a lang_ctx on the caller's stack, so specs
 * may be parsed concurrently. */
#ifndef CUTUNE_LANG_PARSE_H
#define CUTUNE_LANG_PARSE_H

#include <setjmp.h>

#include "ast.h"
#include "diag.h"

/* lang_parse: parses `src` into *out (allocated in `a`), recording every syntax error
 * it can find in `dl` (the parser resynchronises at ';' and '}' and goes on). Returns 0
 * when the spec parsed without error, -1 otherwise; *out is set either way (possibly
 * partial) unless memory ran out, in which case it is NULL. */
int lang_parse(ast_spec **out, arena *a, const src_file *src, diag_list *dl);

/* lang_parse_limited: lang_parse, with the scanner's allocations failing from the
 * `scanner_alloc_limit`-th on (0: no limit). For tests: a scanner that runs out of
 * memory past its creation hits a flex fatal error, reported as "internal scanner error:
 * ..." with -1 returned (and *out set), never an exit. */
int lang_parse_limited(ast_spec **out, arena *a, const src_file *src, diag_list *dl, int scanner_alloc_limit);

/* lang_keywords: the reserved words, NULL-terminated (for "did you mean" hints). */
extern const char *const lang_keywords[];

/* Internal to lexer.l and parser.y: the state shared by the scanner and the parser. */
enum { LANG_SCANNER_BLOCKS = 8 }; /* the scanner holds 4: its state, buffer stack, buffer, bytes */
typedef struct lang_ctx {
    arena *arena;
    diag_list *diags;
    const src_file *src;
    uint32_t offset;   /* bytes consumed by the scanner so far */
    uint32_t last_end; /* end of the last token returned */
    uint32_t prev_end; /* end of the token before that */
    ast_spec *spec;
    bool oom;
    bool too_deep; /* the parser's stack reached its bound (nesting beyond AST_MAX_DEPTH) */
    /* A flex fatal error (YY_FATAL_ERROR, lexer.l) longjmps to `fatal` with its message
     * in fatal_msg; the blocks the scanner and the parser's stack hold are tracked so
     * that lang_parse can free them after the jump. */
    jmp_buf fatal;
    const char *fatal_msg;
    void *scanner_blocks[LANG_SCANNER_BLOCKS]; /* live scanner allocations (NULL: a free slot) */
    void *parser_stack;                        /* the parser's malloc'd stack, when it outgrew its initial one */
    int alloc_limit;                           /* see lang_parse_limited */
    int allocs;                                /* scanner allocations so far */
} lang_ctx;

#endif
