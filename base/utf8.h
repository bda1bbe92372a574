/* utf8.h - UTF-8 validity, for text that must survive JSON (jansson refuses a string
 * that is not valid UTF-8, and json_object_set_new then silently drops the member).
 *
 * Valid means RFC 3629: no overlong forms, no surrogates (U+D800..U+DFFF), nothing
 * above U+10FFFF, no stray continuation bytes. */
#ifndef CUTUNE_BASE_UTF8_H
#define CUTUNE_BASE_UTF8_H

#include <stddef.h>

/* utf8_check: the byte offset of the first invalid sequence in s[0..len), or len when
 * all of it is valid UTF-8. */
size_t utf8_check(const char *s, size_t len);

/* utf8_sanitize: a heap copy of the NUL-terminated `s` (caller frees) in which each
 * byte that does not start a valid sequence is replaced by U+FFFD, so the text stays
 * readable and can be written as JSON; NULL when out of memory. */
char *utf8_sanitize(const char *s);

#endif
