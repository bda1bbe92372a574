/* parse.c - runs the flex scanner and the bison parser over a spec (see parse.h). */
#include "parse.h"

#include <string.h>

#include "parser.h"

typedef void *yyscan_t;
int tn_lex_init_extra(void *extra, yyscan_t *scanner);
int tn_lex_destroy(yyscan_t scanner);
void *tn__scan_bytes(const char *bytes, int len, yyscan_t scanner);

const char *const lang_keywords[] = {
    "kernel", "from", "include", "options", "param", "in", "out", "inout", "step", "as",
    "define", "template", "option", "maxrregcount", "smem", "none", "default", "let",
    "require", "block", "grid", "arg", "verify", "against", "config", "atol", "rtol",
    "metric", "objective", "minimize", "minimise", "maximize", "maximise", "search",
    "measure", "emit", "prefix", "true", "false", "half", "bf16", "float", "double",
    "int8", "uint8", "int16", "uint16", "int", "uint", "int64", "uint64", NULL,
};

int lang_parse(ast_spec **out, arena *a, const src_file *src, diag_list *dl)
{
    *out = NULL;
    int errors_before = dl->errors;
    lang_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.arena = a;
    ctx.diags = dl;
    ctx.src = src;
    ctx.spec = arena_alloc(a, sizeof *ctx.spec);
    if (!ctx.spec)
        return -1;
    ctx.spec->src = src;
    if (memchr(src->text, '\0', src->len)) {
        span at = {(uint32_t)((const char *)memchr(src->text, '\0', src->len) - src->text), 0};
        at.end = at.begin + 1;
        diag_error(dl, at, "the spec contains a NUL byte (is it a text file?)");
        *out = ctx.spec;
        return -1;
    }
    yyscan_t scanner;
    if (tn_lex_init_extra(&ctx, &scanner) != 0)
        return -1;
    if (!tn__scan_bytes(src->text, (int)src->len, scanner)) {
        tn_lex_destroy(scanner);
        return -1;
    }
    int rc = tn_parse(scanner, &ctx);
    tn_lex_destroy(scanner);
    if (ctx.oom || (rc == 2 && !ctx.too_deep))
        return -1;
    *out = ctx.spec;
    return rc == 0 && dl->errors == errors_before ? 0 : -1;
}
