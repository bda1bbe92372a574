/* parse.c - runs the flex scanner and the bison parser over a spec (see parse.h). */
#include "parse.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "parser.h"

typedef void *yyscan_t;
int tn_lex_init_extra(void *extra, yyscan_t *scanner);
int tn_lex_destroy(yyscan_t scanner);
void *tn__scan_bytes(const char *bytes, int len, yyscan_t scanner);

const char *const lang_keywords[] = {
    "kernel",  "from",      "include",  "options",  "param",        "in",       "out",    "inout",   "step",
    "as",      "define",    "template", "option",   "maxrregcount", "smem",     "none",   "default", "let",
    "require", "block",     "grid",     "arg",      "verify",       "against",  "config", "atol",    "rtol",
    "metric",  "objective", "minimize", "minimise", "maximize",     "maximise", "search", "measure", "emit",
    "prefix",  "true",      "false",    "half",     "bf16",         "float",    "double", "int8",    "uint8",
    "int16",   "uint16",    "int",      "uint",     "int64",        "uint64",   NULL,
};

/* run: scans and parses src with `scanner`; the bison result (0, 1 or 2), or -1 after a
 * flex fatal error (then ctx->fatal_msg says which, and the scanner is unusable). Kept
 * apart from lang_parse so that no local of the function that calls setjmp changes
 * between the setjmp and the longjmp. */
static int run(lang_ctx *ctx, yyscan_t scanner)
{
    if (setjmp(ctx->fatal) != 0)
        return -1;
    if (!tn__scan_bytes(ctx->src->text, (int)ctx->src->len, scanner))
        return 2;
    return tn_parse(scanner, ctx);
}

int lang_parse(ast_spec **out, arena *a, const src_file *src, diag_list *dl)
{
    return lang_parse_limited(out, a, src, dl, 0);
}

int lang_parse_limited(ast_spec **out, arena *a, const src_file *src, diag_list *dl, int scanner_alloc_limit)
{
    *out = NULL;
    int errors_before = dl->errors;
    lang_ctx ctx = {.arena = a, .diags = dl, .src = src, .alloc_limit = scanner_alloc_limit};
    ctx.spec = arena_alloc(a, sizeof *ctx.spec);
    if (!ctx.spec)
        return -1;
    ctx.spec->src = src;
    ast_spec *root = ctx.spec; /* the first kernel block; ctx.spec moves to the later ones */
    if (memchr(src->text, '\0', src->len)) {
        span at = {(uint32_t)((const char *)memchr(src->text, '\0', src->len) - src->text), 0};
        at.end = at.begin + 1;
        diag_error(dl, at, "the spec contains a NUL byte (is it a text file?)");
        *out = root;
        return -1;
    }
    yyscan_t scanner;
    if (tn_lex_init_extra(&ctx, &scanner) != 0)
        return -1;
    int rc = run(&ctx, scanner);
    if (rc < 0) {
        /* The scanner's state is not to be trusted after a fatal error: free the blocks
         * it holds rather than ask it to. */
        for (int i = 0; i < LANG_SCANNER_BLOCKS; i++)
            free(ctx.scanner_blocks[i]);
        free(ctx.parser_stack);
        span at = {ctx.offset, ctx.offset};
        diag_error(dl, at, "internal scanner error: %s", ctx.fatal_msg ? ctx.fatal_msg : "unknown");
        *out = root;
        return -1;
    }
    tn_lex_destroy(scanner);
    if (ctx.oom || (rc == 2 && !ctx.too_deep))
        return -1;
    *out = root;
    return rc == 0 && dl->errors == errors_before ? 0 : -1;
}
