/* format.h - how the CLI shows configurations and variants: the columns `list` and
 * `analyze` share, in table, CSV and JSON form. */
#ifndef CUTUNE_CLI_FORMAT_H
#define CUTUNE_CLI_FORMAT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "cutune.h"

/* fmt_dims: "32x8" for a 2-D shape (dimensions past n dropped). */
const char *fmt_dims(const int64_t *d, int n, char *buf, size_t size);

/* fmt_csv_field: writes s to stdout, quoted when it holds a comma, quote, space or newline. */
void fmt_csv_field(const char *s);

/* fmt_variant_json: the variant as a JSON object: index, params (typed), block, grid,
 * smem_bytes, kernel, defines, options. */
json_t *fmt_variant_json(const cutune_spec *spec, const cutune_variant *v);

/* fmt_variant_csv_header / fmt_variant_csv: the variant's CSV columns (no newline):
 * index, one per param, block.x..z, grid.x..z, smem_bytes, kernel, defines, options. */
void fmt_variant_csv_header(const cutune_spec *spec);
void fmt_variant_csv(const cutune_variant *v);

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
