/* t1_json.c - the T1 importer's context: its messages, JSON paths and checked member
 * access (t1_internal.h). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "t1_internal.h"

/* add_message: appends "FILE: PATH: message" to the list (items, n, cap). */
static void add_message(t1_ctx *c, char ***items, int *n, int *cap, const char *path, const char *fmt, va_list ap)
{
    char *what = arena_vprintf(c->a, fmt, ap);
    char *line = what ? arena_printf(c->a, "%s: %s: %s", c->file, path ? path : "$", what) : NULL;
    if (!line || ARENA_PUSH(c->a, *items, *n, *cap, line) != 0)
        c->oom = true;
}

void t1_error(t1_ctx *c, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_message(c, &c->errors, &c->nerrors, &c->caperrors, path, fmt, ap);
    va_end(ap);
}

void t1_note(t1_ctx *c, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_message(c, &c->notes, &c->nnotes, &c->capnotes, path, fmt, ap);
    va_end(ap);
}

/* is_identifier: whether key can follow a '.' in a JSON path. */
static bool is_identifier(const char *key)
{
    if (!isalpha((unsigned char)key[0]) && key[0] != '_')
        return false;
    for (const char *p = key; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_')
            return false;
    return true;
}

const char *t1_key(t1_ctx *c, const char *path, const char *key)
{
    const char *r;
    if (is_identifier(key)) {
        r = arena_printf(c->a, "%s.%s", path, key);
    } else {
        strbuf sb = STRBUF_INIT;
        for (const char *p = key; *p; p++) {
            if (*p == '\'' || *p == '\\')
                sb_addc(&sb, '\\');
            if ((unsigned char)*p < 0x20)
                sb_printf(&sb, "\\x%02x", (unsigned char)*p);
            else
                sb_addc(&sb, *p);
        }
        r = sb_ok(&sb) ? arena_printf(c->a, "%s['%s']", path, sb_cstr(&sb)) : NULL;
        sb_free(&sb);
    }
    if (!r) {
        c->oom = true;
        return path;
    }
    return r;
}

const char *t1_index(t1_ctx *c, const char *path, size_t i)
{
    const char *r = arena_printf(c->a, "%s[%zu]", path, i);
    if (!r) {
        c->oom = true;
        return path;
    }
    return r;
}

const char *t1_type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "a value";
}

json_t *t1_member(t1_ctx *c, json_t *obj, const char *path, const char *key, bool required)
{
    json_t *v = json_object_get(obj, key);
    if (json_is_null(v))
        v = NULL;
    if (!v && required)
        t1_error(c, path, "the key \"%s\" is missing", key);
    return v;
}

bool t1_want(t1_ctx *c, const json_t *v, const char *path, unsigned mask, const char *what)
{
    if (mask & (1u << json_typeof(v)))
        return true;
    t1_error(c, path, "is %s, expected %s", t1_type_name(v), what);
    return false;
}

const char *t1_string_member(t1_ctx *c, json_t *obj, const char *path, const char *key, bool required)
{
    json_t *v = t1_member(c, obj, path, key, required);
    if (!v || !t1_want(c, v, t1_key(c, path, key), T1_STRING, "a string"))
        return NULL;
    return json_string_value(v);
}

/* in_list: whether key is one of the NULL-ended list (NULL: none). */
static bool in_list(const char *key, const char *const *list)
{
    for (; list && *list; list++)
        if (strcmp(*list, key) == 0)
            return true;
    return false;
}

void t1_check_keys(t1_ctx *c, json_t *obj, const char *path, const char *const *known, const char *const *ignored,
                   const char *why)
{
    const char *key;
    json_t *v;
    json_object_foreach(obj, key, v)
    {
        if (in_list(key, known))
            continue;
        if (in_list(key, ignored)) {
            if (why)
                t1_note(c, t1_key(c, path, key), "not translated: %s", why);
        } else {
            t1_note(c, t1_key(c, path, key), "not translated: a key cutune does not know (%s)", t1_type_name(v));
        }
    }
}

/* normalize: the absolute form of `path` ("" is the current folder) split into its
 * components, '.' dropped and '..' applied; *n components in the arena. */
static char **normalize(t1_ctx *c, const char *path, int *n)
{
    char cwd[4096];
    const char *abs = path;
    if (path[0] != '/') {
        if (!getcwd(cwd, sizeof cwd))
            return NULL;
        abs = arena_printf(c->a, "%s/%s", cwd, path);
    }
    char *copy = abs ? arena_strdup(c->a, abs) : NULL;
    if (!copy)
        return NULL;
    char **parts = NULL;
    int len = 0, cap = 0;
    for (char *save = NULL, *tok = strtok_r(copy, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
        if (strcmp(tok, ".") == 0)
            continue;
        if (strcmp(tok, "..") == 0) {
            if (len > 0)
                len--;
            continue;
        }
        if (ARENA_PUSH(c->a, parts, len, cap, tok) != 0)
            return NULL;
    }
    *n = len;
    return parts ? parts : arena_alloc(c->a, sizeof *parts);
}

const char *t1_relative(t1_ctx *c, const char *from, const char *to)
{
    int nf, nt;
    char **f = normalize(c, from, &nf), **t = normalize(c, to, &nt);
    if (!f || !t) {
        c->oom = true;
        return NULL;
    }
    int common = 0;
    while (common < nf && common < nt - 1 && strcmp(f[common], t[common]) == 0)
        common++;
    strbuf sb = STRBUF_INIT;
    for (int k = common; k < nf; k++)
        sb_add(&sb, "../");
    for (int k = common; k < nt; k++)
        sb_printf(&sb, "%s%s", sb.len && sb.data[sb.len - 1] != '/' ? "/" : "", t[k]);
    const char *r = sb_ok(&sb) ? arena_strdup(c->a, sb_cstr(&sb)) : NULL;
    sb_free(&sb);
    if (!r)
        c->oom = true;
    return r;
}
