/* format.h - how the CLI shows configurations and variants in a table: the columns
 * `list` and `analyze` share (their CSV and JSON rows are the library's:
 * cutune_variant_csv, cutune_analysis_json, ...). */
#ifndef CUTUNE_CLI_FORMAT_H
#define CUTUNE_CLI_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "cutune.h"

/* fmt_print_made: *text, which a library writer has just made (`rc` its status:
 * cutune_devices_json, ...), and a line end on stdout; *text freed and NULL. 0, or -1
 * when rc is a failure (nothing printed). A pointer, since the writer's call and this
 * argument are evaluated in either order. */
int fmt_print_made(int rc, char **text);

/* fmt_write_output: `text` to the file `path` through the one writer (base/sys.h: a
 * unique temporary in the target's folder, synced, renamed; a folder, device or link at
 * `path` is refused), or to stdout for "-", checked. On failure prints why, as `who`
 * ("cutune", "cutune report"), and returns EXIT_IO; else EXIT_OK. */
int fmt_write_output(const char *who, const char *path, const char *text);

/* fmt_dims: "32x8" for a 2-D shape (dimensions past n dropped). */
const char *fmt_dims(const int64_t *d, int n, char *buf, size_t size);

/* The table's leading columns: index, one per param (widths fitted to their values),
 * block, grid, dynamic shared memory, and the kernel name when it is a template. */
typedef struct fmt_table {
    int *widths;
    int nparams;
    int show_kernel;
} fmt_table;

/* fmt_table_init: widths for spec's params; free with fmt_table_free. 0, or -1 (out of memory). */
int fmt_table_init(fmt_table *t, const cutune_spec *spec, const cutune_variant *first);
void fmt_table_free(fmt_table *t);
void fmt_table_header(const fmt_table *t, const cutune_spec *spec);
void fmt_table_row(const fmt_table *t, const cutune_variant *v);

#endif
