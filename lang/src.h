/* src.h - a spec's source text and the byte-offset spans that point into it.
 *
 * Locations are kept as byte offsets (cheap to carry through the parser) and turned
 * into line:column only when a diagnostic is rendered. */
#ifndef CUTUNE_LANG_SRC_H
#define CUTUNE_LANG_SRC_H

#include <stddef.h>
#include <stdint.h>

#include "../base/arena.h"

/* span: the half-open byte range [begin, end) of a construct in its source. */
typedef struct span {
    uint32_t begin, end;
} span;

/* src_file: the text of one spec. Everything, text included, is owned by the arena
 * it was made in. `dir` is the folder the spec's relative paths are resolved against. */
typedef struct src_file {
    const char *path;
    const char *dir;
    const char *text;
    uint32_t len;
    uint32_t *line_starts;
    uint32_t nlines;
} src_file;

/* src_new: copies `text` (len bytes; may contain NULs, which the lexer rejects) into a
 * src_file in `a`. `path` names it in diagnostics; `dir` may be NULL (then the folder
 * of `path`, or "." when it has none). Returns NULL when out of memory or when the text
 * is 4 GiB or more. */
src_file *src_new(arena *a, const char *path, const char *dir, const char *text, size_t len);

/* src_position: the 1-based line and column of byte offset `off` (columns count UTF-8
 * characters, a tab counting as one). */
void src_position(const src_file *src, uint32_t off, unsigned *line, unsigned *col);

/* src_line: the text of 1-based line `line` without its newline, in *start and *len. */
void src_line(const src_file *src, unsigned line, const char **start, size_t *len);

/* src_span_join: the smallest span covering both. */
span src_span_join(span a, span b);

#endif
