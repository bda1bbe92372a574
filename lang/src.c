/* src.c - source text and offset-to-line mapping (see src.h). */
#include "src.h"

#include <string.h>

src_file *src_new(arena *a, const char *path, const char *dir, const char *text, size_t len)
{
    if (len >= UINT32_MAX)
        return NULL;
    src_file *src = arena_alloc(a, sizeof *src);
    if (!src)
        return NULL;
    char *copy = arena_alloc(a, len + 1);
    if (!copy)
        return NULL;
    memcpy(copy, text, len);
    src->text = copy;
    src->len = (uint32_t)len;
    src->path = arena_strdup(a, path);
    if (dir) {
        src->dir = arena_strdup(a, dir);
    } else {
        const char *slash = strrchr(path, '/');
        src->dir = slash ? arena_strndup(a, path, slash == path ? 1 : (size_t)(slash - path)) : ".";
    }
    uint32_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    src->line_starts = arena_alloc(a, sizeof(uint32_t) * (n + 1));
    if (!src->path || !src->dir || !src->line_starts)
        return NULL;
    uint32_t k = 0;
    src->line_starts[k++] = 0;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n')
            src->line_starts[k++] = (uint32_t)i + 1;
    src->line_starts[k] = (uint32_t)len + 1;
    src->nlines = n;
    return src;
}

void src_position(const src_file *src, uint32_t off, unsigned *line, unsigned *col)
{
    if (off > src->len)
        off = src->len;
    /* Binary search for the last line start <= off. */
    uint32_t lo = 0, hi = src->nlines - 1;
    while (lo < hi) {
        uint32_t mid = (lo + hi + 1) / 2;
        if (src->line_starts[mid] <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    unsigned c = 1;
    for (uint32_t i = src->line_starts[lo]; i < off; i++)
        if (((unsigned char)src->text[i] & 0xC0) != 0x80)
            c++;
    *line = lo + 1;
    *col = c;
}

void src_line(const src_file *src, unsigned line, const char **start, size_t *len)
{
    if (line < 1 || line > src->nlines) {
        *start = "";
        *len = 0;
        return;
    }
    uint32_t b = src->line_starts[line - 1];
    uint32_t e = src->line_starts[line] - 1; /* the newline, or len for the last line */
    if (e > src->len)
        e = src->len;
    if (e > b && src->text[e - 1] == '\r')
        e--;
    *start = src->text + b;
    *len = e - b;
}

span src_span_join(span a, span b)
{
    span s = {a.begin < b.begin ? a.begin : b.begin, a.end > b.end ? a.end : b.end};
    return s;
}
