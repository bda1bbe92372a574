/* helpers.h - shared by the unit tests: check a spec held in a string. */
#ifndef CUTUNE_TEST_HELPERS_H
#define CUTUNE_TEST_HELPERS_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compiler/sema.h"
#include "lang/parse.h"

/* A checked spec and what it was made from; free with checked_free. */
typedef struct checked {
    arena *arena;
    src_file *src;
    ast_spec *ast;
    model *m;
    diag_list dl;
    strbuf text; /* rendered diagnostics */
} checked;

/* check_spec_on: parses and checks `text` (file checks skipped) with the device
 * attributes of `dev` (NULL: none, so a spec that reads one has an error). Returns the
 * result; ->m is NULL when the spec has errors, and ->text holds the diagnostics. */
static inline checked *check_spec_on(const char *text, const dev_values *dev)
{
    checked *c = calloc(1, sizeof *c);
    assert_non_null(c);
    c->arena = arena_new();
    c->src = src_new(c->arena, "t.tune", ".", text, strlen(text));
    diag_init(&c->dl, c->arena, c->src);
    sema_options opts = {NULL, 0, true, dev, 0, NULL};
    if (lang_parse(&c->ast, c->arena, c->src, &c->dl) == 0)
        sema_check(&c->m, c->arena, c->ast, &opts, &c->dl);
    diag_render(&c->dl, &c->text, false);
    return c;
}

/* check_spec: check_spec_on without a device. */
static inline checked *check_spec(const char *text)
{
    checked *c = calloc(1, sizeof *c);
    assert_non_null(c);
    c->arena = arena_new();
    c->src = src_new(c->arena, "t.tune", ".", text, strlen(text));
    diag_init(&c->dl, c->arena, c->src);
    sema_options opts = {NULL, 0, true, NULL, 0, NULL};
    if (lang_parse(&c->ast, c->arena, c->src, &c->dl) == 0)
        sema_check(&c->m, c->arena, c->ast, &opts, &c->dl);
    diag_render(&c->dl, &c->text, false);
    return c;
}

static inline void checked_free(checked *c)
{
    sb_free(&c->text);
    arena_free(c->arena);
    free(c);
}

/* spec_with: a whole spec around `body` (one kernel, a block and a grid). */
static inline char *spec_with(const char *fmt, ...)
{
    char body[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    char *out = malloc(strlen(body) + 128);
    sprintf(out, "kernel k from \"k.cu\" {\n block 32; grid 1;\n%s\n}\n", body);
    return out;
}

/* check_with: check_spec of spec_with(fmt, ...), freeing the text. */
static inline checked *check_with(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline checked *check_with(const char *fmt, ...)
{
    char body[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    char *text = spec_with("%s", body);
    checked *c = check_spec(text);
    free(text);
    return c;
}

/* let_value: the folded value of constant `let name`, failing the test when it is
 * not a constant. */
static inline value let_value(const model *m, const char *name)
{
    for (int i = 0; i < m->nlets; i++)
        if (strcmp(m->lets[i].name, name) == 0) {
            assert_int_equal(m->lets[i].expr->kind, TX_CONST);
            return m->lets[i].expr->u.k;
        }
    fail_msg("no let named %s", name);
    return value_int(0);
}

#endif
