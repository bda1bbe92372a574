/* strbuf.c - growable strings (see strbuf.h for the contract). */
#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sb_reserve(strbuf *sb, size_t extra)
{
    if (sb->failed)
        return -1;
    if (sb->len + extra + 1 <= sb->cap)
        return 0;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    char *p = realloc(sb->data, cap);
    if (!p) {
        sb->failed = 1;
        return -1;
    }
    sb->data = p;
    sb->cap = cap;
    return 0;
}

void sb_addn(strbuf *sb, const char *s, size_t n)
{
    if (sb_reserve(sb, n) < 0)
        return;
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void sb_add(strbuf *sb, const char *s)
{
    sb_addn(sb, s, strlen(s));
}

void sb_addc(strbuf *sb, char c)
{
    sb_addn(sb, &c, 1);
}

void sb_vprintf(strbuf *sb, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0 || sb_reserve(sb, (size_t)n) < 0)
        return;
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    sb->len += (size_t)n;
}

void sb_printf(strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

const char *sb_cstr(const strbuf *sb)
{
    return sb->data ? sb->data : "";
}

int sb_ok(const strbuf *sb)
{
    return !sb->failed;
}

void sb_reset(strbuf *sb)
{
    sb->len = 0;
    sb->failed = 0;
    if (sb->data)
        sb->data[0] = '\0';
}

char *sb_steal(strbuf *sb)
{
    if (sb->failed) {
        sb_free(sb);
        return NULL;
    }
    char *p = sb->data ? sb->data : calloc(1, 1);
    sb->data = NULL;
    sb->len = sb->cap = 0;
    return p;
}

void sb_free(strbuf *sb)
{
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
    sb->failed = 0;
}
