/* strbuf.h - a growable, always NUL-terminated byte string (heap owned).
 *
 * Ownership: the strbuf owns `data`; sb_free() releases it, sb_steal() hands it to
 * the caller. Out of memory is sticky: once set, appends do nothing and sb_ok()
 * returns 0, so callers check once at the end instead of after every append. */
#ifndef CUTUNE_BASE_STRBUF_H
#define CUTUNE_BASE_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct strbuf {
    char *data;
    size_t len, cap;
    int failed;
} strbuf;

#define STRBUF_INIT \
    { \
        NULL, 0, 0, 0 \
    }

/* sb_add / sb_addn / sb_addc / sb_printf: append text; no-ops after a failure. */
void sb_addn(strbuf *sb, const char *s, size_t n);
void sb_add(strbuf *sb, const char *s);
void sb_addc(strbuf *sb, char c);
void sb_printf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(strbuf *sb, const char *fmt, va_list ap);

/* sb_cstr: the text so far ("" when empty); valid until the next append. */
const char *sb_cstr(const strbuf *sb);

/* sb_ok: 1 unless an allocation failed. */
int sb_ok(const strbuf *sb);

/* sb_reset: empties the buffer, keeping its storage and clearing the failure flag. */
void sb_reset(strbuf *sb);

/* sb_steal: the heap string (caller frees), leaving sb empty; NULL after a failure. */
char *sb_steal(strbuf *sb);

/* sb_free: releases the storage; the strbuf may be reused afterwards. */
void sb_free(strbuf *sb);

#endif
