/* cmem.c - __constant__ declarations found in CUDA source, and module symbols filled
 * (see cmem.h). */
#include "cmem.h"
#include "../base/err.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static bool ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool ident_char(char c)
{
    return ident_start(c) || (c >= '0' && c <= '9');
}

/* The scanner's state: the text, where it is, and the line it is on. */
typedef struct cursor {
    const char *t;
    size_t len, i;
    int line;
} cursor;

/* Skips blanks, comments, string and character literals and preprocessor lines (with
 * their continuation lines) at the cursor; returns whether anything was skipped. */
static bool skip_noise(cursor *c, bool *line_start)
{
    const char *t = c->t;
    size_t n = c->len, start = c->i;
    while (c->i < n) {
        char ch = t[c->i];
        if (ch == '\n') {
            c->line++;
            c->i++;
            *line_start = true;
        } else if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v') {
            c->i++;
        } else if (ch == '/' && c->i + 1 < n && t[c->i + 1] == '/') {
            while (c->i < n && t[c->i] != '\n')
                c->i++;
        } else if (ch == '/' && c->i + 1 < n && t[c->i + 1] == '*') {
            c->i += 2;
            while (c->i < n && !(t[c->i] == '*' && c->i + 1 < n && t[c->i + 1] == '/'))
                c->line += t[c->i++] == '\n';
            c->i = c->i < n ? c->i + 2 : n;
        } else if (ch == '#' && *line_start) { /* a directive, to its last continued line */
            while (c->i < n && t[c->i] != '\n') {
                if (t[c->i] == '\\' && c->i + 1 < n && t[c->i + 1] == '\n') {
                    c->line++;
                    c->i++;
                }
                c->i++;
            }
        } else if (ch == '"' || ch == '\'') {
            c->i++;
            while (c->i < n && t[c->i] != ch && t[c->i] != '\n')
                c->i += t[c->i] == '\\' && c->i + 1 < n ? 2 : 1;
            if (c->i < n && t[c->i] == ch)
                c->i++;
            *line_start = false;
        } else {
            break;
        }
    }
    return c->i > start;
}

/* The declaration that starts after `__constant__`: up to its ';' (or the '}' of an
 * enclosing block). Each declarator's name is the last identifier before its first
 * '[', '=', '(' or '{' at the outermost level; it is initialised when an '=' or a '{'
 * follows at that level. Declarators are separated by commas outside brackets,
 * parentheses, braces and template angles. */
static int declarators(cursor *c, cmem_found found, void *user)
{
    bool line_start = false;
    int depth = 0, angle = 0;
    bool named = false, initialised = false; /* the declarator's name is decided; it has an initialiser */
    const char *name = NULL;
    size_t name_len = 0;
    int name_line = 0;
    while (c->i < c->len) {
        if (skip_noise(c, &line_start))
            continue;
        char ch = c->t[c->i];
        line_start = false;
        if (ident_start(ch)) {
            size_t b = c->i;
            while (c->i < c->len && ident_char(c->t[c->i]))
                c->i++;
            if (depth == 0 && angle == 0 && !named) {
                name = c->t + b;
                name_len = c->i - b;
                name_line = c->line;
            }
            continue;
        }
        c->i++;
        bool top = depth == 0 && angle == 0;
        if (top && (ch == ';' || ch == ',')) {
            if (name) {
                int rc = found(user, name, name_len, name_line, initialised);
                if (rc)
                    return rc;
            }
            if (ch == ';')
                return 0;
            name = NULL;
            named = initialised = false;
            continue;
        }
        if (top && (ch == '[' || ch == '=' || ch == '(' || ch == '{'))
            named = true;
        if (top && (ch == '=' || ch == '{'))
            initialised = true;
        if (ch == '[' || ch == '(' || ch == '{')
            depth++;
        else if ((ch == ']' || ch == ')' || ch == '}') && depth > 0)
            depth--;
        else if (ch == '}') /* the end of an enclosing block: no ';' came */
            return name ? found(user, name, name_len, name_line, initialised) : 0;
        else if (ch == '<' && depth == 0)
            angle++;
        else if (ch == '>' && depth == 0 && angle > 0)
            angle--;
    }
    return name ? found(user, name, name_len, name_line, initialised) : 0;
}

int cmem_scan(const char *text, size_t len, cmem_found found, void *user)
{
    static const char word[] = "__constant__";
    const size_t wlen = sizeof word - 1;
    cursor c = {text, len, 0, 1};
    bool line_start = true;
    while (c.i < len) {
        if (skip_noise(&c, &line_start))
            continue;
        line_start = false;
        if (!ident_start(text[c.i])) {
            c.i++;
            continue;
        }
        size_t b = c.i;
        while (c.i < len && ident_char(text[c.i]))
            c.i++;
        if (c.i - b == wlen && memcmp(text + b, word, wlen) == 0) {
            int rc = declarators(&c, found, user);
            if (rc)
                return rc;
        }
    }
    return 0;
}

int cmem_fill(meas_gpu *g, CUmodule mod, const char *name, CUdeviceptr src, size_t bytes)
{
    drv *d = meas_driver(g);
    CUdeviceptr dst = 0;
    size_t have = 0;
    CUresult r = d->cuModuleGetGlobal(&dst, &have, mod, name);
    if (r == CUDA_ERROR_NOT_FOUND) {
        err_set(-1,
                "constant argument '%s' (%zu bytes) has no __constant__ symbol '%s' in the variant's module: "
                "declare it (extern \"C\" keeps a template's or a namespace's name plain)",
                name, bytes, name);
        return -2;
    }
    char what[160];
    snprintf(what, sizeof what, "cuModuleGetGlobal('%s')", name);
    if (meas_check(g, r, what) < 0)
        return -1;
    if (have < bytes) {
        err_set(-1,
                "constant argument '%s' has %zu bytes, but the module's __constant__ symbol '%s' has only %zu: "
                "declare it with at least as many elements",
                name, bytes, name, have);
        return -2;
    }
    snprintf(what, sizeof what, "filling __constant__ '%s'", name);
    return meas_check(g, d->cuMemcpyDtoD(dst, src, bytes), what) < 0 ? -1 : 0;
}
