/* diag.h - diagnostics: what is wrong with a spec, and where.
 *
 * Library code records diagnostics here and never prints them; diag_render() turns
 * them into the text the CLI shows (file:line:col, the source line, a caret under the
 * span). A diag_list does not own its src_file; messages live in the list's arena. */
#ifndef CUTUNE_LANG_DIAG_H
#define CUTUNE_LANG_DIAG_H

#include <stdbool.h>

#include "../base/strbuf.h"
#include "src.h"

typedef enum diag_severity { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } diag_severity;

typedef struct diag {
    diag_severity severity;
    bool has_loc;
    span loc;
    const char *message;
} diag;

typedef struct diag_list {
    arena *arena;
    const src_file *src;
    diag *items;
    int len, cap;
    int errors, warnings;
    int max_errors; /* further errors are counted but not kept; 0 = no limit */
    int dropped;
    bool out_of_memory;
} diag_list;

/* diag_init: an empty list whose messages are allocated in `a` and whose spans point
 * into `src` (NULL for diagnostics without a source). */
void diag_init(diag_list *dl, arena *a, const src_file *src);

/* diag_error / diag_warning: record a diagnostic at `loc`. diag_note attaches a note to
 * the diagnostic recorded just before it (with a location when has_loc). */
void diag_error(diag_list *dl, span loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_warning(diag_list *dl, span loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_note(diag_list *dl, bool has_loc, span loc, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* diag_error_noloc: an error about the spec as a whole (no span to point at). */
void diag_error_noloc(diag_list *dl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* diag_render: appends every diagnostic to `out` in the form
 *   path:line:col: error: message
 *       12 |     source line
 *          |     ^~~~~
 * `color` adds ANSI colours. Ends with a count line when there were errors or
 * warnings beyond the limit. */
void diag_render(const diag_list *dl, strbuf *out, bool color);

#endif
