/* diag.c - recording and rendering diagnostics (see diag.h). */
#include "diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void diag_init(diag_list *dl, arena *a, const src_file *src)
{
    memset(dl, 0, sizeof *dl);
    dl->arena = a;
    dl->src = src;
    dl->max_errors = 50;
}

static void diag_addv(diag_list *dl, diag_severity sev, bool has_loc, span loc, const char *fmt, va_list ap)
{
    if (sev == DIAG_ERROR)
        dl->errors++;
    else if (sev == DIAG_WARNING)
        dl->warnings++;
    if (sev == DIAG_ERROR && dl->max_errors && dl->errors > dl->max_errors) {
        dl->dropped++;
        return;
    }
    if (sev == DIAG_NOTE && (dl->len == 0 || (dl->dropped && dl->errors > dl->max_errors)))
        return;
    diag d = {sev, has_loc, loc, arena_vprintf(dl->arena, fmt, ap)};
    if (!d.message || ARENA_PUSH(dl->arena, dl->items, dl->len, dl->cap, d) < 0)
        dl->out_of_memory = true;
}

void diag_error(diag_list *dl, span loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_addv(dl, DIAG_ERROR, true, loc, fmt, ap);
    va_end(ap);
}

void diag_warning(diag_list *dl, span loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_addv(dl, DIAG_WARNING, true, loc, fmt, ap);
    va_end(ap);
}

void diag_note(diag_list *dl, bool has_loc, span loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_addv(dl, DIAG_NOTE, has_loc, loc, fmt, ap);
    va_end(ap);
}

void diag_error_noloc(diag_list *dl, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    span none = {0, 0};
    diag_addv(dl, DIAG_ERROR, false, none, fmt, ap);
    va_end(ap);
}

static const char *severity_name(diag_severity s)
{
    return s == DIAG_ERROR ? "error" : s == DIAG_WARNING ? "warning" : "note";
}

static const char *severity_color(diag_severity s)
{
    return s == DIAG_ERROR ? "\033[1;31m" : s == DIAG_WARNING ? "\033[1;35m" : "\033[1;36m";
}

/* Renders the source line of `loc` and a caret line under it. A span that runs over
 * several lines is underlined to the end of its first line. */
static void render_excerpt(const src_file *src, span loc, strbuf *out, bool color)
{
    unsigned line, col;
    src_position(src, loc.begin, &line, &col);
    const char *text;
    size_t len;
    src_line(src, line, &text, &len);
    sb_printf(out, " %5u | %.*s\n", line, (int)len, text);
    sb_add(out, "       | ");
    /* Copy tabs so the caret lines up with what a terminal shows. */
    size_t line_begin = (size_t)(text - src->text);
    size_t caret_at = loc.begin - line_begin;
    for (size_t i = 0; i < caret_at && i < len; i++) {
        unsigned char ch = (unsigned char)text[i];
        if ((ch & 0xC0) == 0x80)
            continue;
        sb_addc(out, ch == '\t' ? '\t' : ' ');
    }
    if (color)
        sb_add(out, "\033[1;32m");
    sb_addc(out, '^');
    size_t end = loc.end > loc.begin ? loc.end - line_begin : caret_at + 1;
    if (end > len)
        end = len > caret_at ? len : caret_at + 1;
    for (size_t i = caret_at + 1; i < end; i++)
        if (((unsigned char)text[i] & 0xC0) != 0x80)
            sb_addc(out, '~');
    if (color)
        sb_add(out, "\033[0m");
    sb_addc(out, '\n');
}

/* A diagnostic and the notes that follow it, kept together when sorting. */
typedef struct diag_group {
    int first, count;
    bool has_loc;
    uint32_t at;
} diag_group;

static int group_order(const void *pa, const void *pb)
{
    const diag_group *a = pa, *b = pb;
    if (a->has_loc != b->has_loc)
        return a->has_loc ? 1 : -1; /* whole-spec problems first */
    if (a->at != b->at)
        return a->at < b->at ? -1 : 1;
    return a->first - b->first; /* stable */
}

static void render_one(const diag_list *dl, const diag *d, strbuf *out, bool color);

void diag_render(const diag_list *dl, strbuf *out, bool color)
{
    /* Diagnostics are recorded in the order the checker meets them; show them in
     * source order, each with its notes. */
    diag_group *groups = malloc(sizeof *groups * (size_t)(dl->len ? dl->len : 1));
    if (!groups) {
        for (int i = 0; i < dl->len; i++)
            render_one(dl, &dl->items[i], out, color);
    } else {
        int ng = 0;
        for (int i = 0; i < dl->len; i++) {
            if (dl->items[i].severity == DIAG_NOTE && ng > 0) {
                groups[ng - 1].count++;
                continue;
            }
            groups[ng++] = (diag_group){i, 1, dl->items[i].has_loc, dl->items[i].loc.begin};
        }
        qsort(groups, (size_t)ng, sizeof *groups, group_order);
        for (int g = 0; g < ng; g++)
            for (int i = groups[g].first; i < groups[g].first + groups[g].count; i++)
                render_one(dl, &dl->items[i], out, color);
        free(groups);
    }
    if (dl->dropped)
        sb_printf(out, "%d more error%s not shown\n", dl->dropped, dl->dropped == 1 ? "" : "s");
}

static void render_one(const diag_list *dl, const diag *d, strbuf *out, bool color)
{
    {
        if (color)
            sb_add(out, "\033[1m");
        if (dl->src && d->has_loc) {
            unsigned line, col;
            src_position(dl->src, d->loc.begin, &line, &col);
            sb_printf(out, "%s:%u:%u: ", dl->src->path, line, col);
        } else if (dl->src) {
            sb_printf(out, "%s: ", dl->src->path);
        } else {
            sb_add(out, "cutune: ");
        }
        if (color)
            sb_printf(out, "%s%s:\033[0m\033[1m %s\033[0m\n", severity_color(d->severity), severity_name(d->severity),
                      d->message);
        else
            sb_printf(out, "%s: %s\n", severity_name(d->severity), d->message);
        if (dl->src && d->has_loc)
            render_excerpt(dl->src, d->loc, out, color);
    }
}
