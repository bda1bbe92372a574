/* emit_csv.c - a tuning result as a CSV table (see emit_csv.h; the columns are documented in
 * docs/results-format.md). The measurement's columns are those of the one list of its
 * fields (results/measurement_fields.h: csv, csv_at), a cell empty when the field's
 * `when` fails, as its JSON key is left out; the variant's own columns are placed
 * among them here. Every text field goes through the one CSV escaper (base/csv.h:
 * quoted as RFC 4180 says, and formula-safe); numbers through csv_number. A result
 * with hardware counters gets one more column per counter, `hw:NAME`, after
 * all the others, so that a table without them is what it always was. */
#include "emit_csv.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../base/csv.h"
#include "../results/record.h"

/* The variant's own columns and the status, placed among the list's by csv_at. */
typedef enum own {
    OWN_STATUS,
    OWN_KERNEL,
    OWN_BLOCK,
    OWN_GRID = OWN_BLOCK + 3,
    OWN_SMEM = OWN_GRID + 3,
    OWN_DEFINES,
    OWN_OPTIONS,
    OWN_COUNT
} own;
static const struct {
    const char *name;
    int at;
} csv_own[OWN_COUNT] = {
    {"status", 10}, {"kernel", 30}, {"block_x", 31},    {"block_y", 32},  {"block_z", 33},  {"grid_x", 34},
    {"grid_y", 35}, {"grid_z", 36}, {"smem_bytes", 37}, {"defines", 900}, {"options", 910},
};

/* A fixed column: a field of the list (field >= 0) or one of csv_own. */
typedef struct col {
    int field, own, at;
} col;

#define MAX_COLS 128 /* more than the list and the variant's own columns hold (about 50) */

/* The fixed columns in their order (csv_at); returns how many. */
static int fixed_columns(col *cols)
{
    int n = 0;
    for (int i = 0; i < mfield_count && n < MAX_COLS; i++)
        if (mfields[i].csv)
            cols[n++] = (col){i, -1, mfields[i].csv_at};
    for (int k = 0; k < OWN_COUNT && n < MAX_COLS; k++)
        cols[n++] = (col){-1, k, csv_own[k].at};
    for (int i = 1; i < n; i++) /* insertion sort: a few dozen columns */
        for (int j = i; j > 0 && cols[j - 1].at > cols[j].at; j--) {
            col t = cols[j];
            cols[j] = cols[j - 1];
            cols[j - 1] = t;
        }
    return n;
}

/* Whether a fixed column is named `name` (a param or metric so named is prefixed). */
static bool is_fixed(const char *name)
{
    for (int k = 0; k < OWN_COUNT; k++)
        if (strcmp(csv_own[k].name, name) == 0)
            return true;
    for (int i = 0; i < mfield_count; i++)
        if (mfields[i].csv && (mfields[i].kind != MK_METRICS && mfields[i].kind != MK_HW) &&
            strcmp(mfields[i].csv, name) == 0)
            return true;
    return strcmp(name, "index") == 0 || strcmp(name, "best") == 0;
}

/* A param's or metric's column: its name, prefixed when a fixed column has it. */
static void column(strbuf *o, const char *prefix, const char *name)
{
    if (is_fixed(name))
        sb_add(o, prefix);
    csv_field(o, name);
}

/* The header row: index, best, the size variables, the params, then the fixed columns
 * `cols`. */
static void csv_header(strbuf *o, const cutune_tune_result *r, const col *cols, int ncols)
{
    /* index, best, the params, then the fixed columns, the metrics and the counters
     * among them. */
    sb_add(o, "index,best");
    for (int j = 0; r->nsizes > 0 && j < r->nsize_vars; j++) { /* a run over sizes: the size's values */
        sb_addc(o, ',');
        column(o, "size_", r->size_vars[j]);
    }
    for (int i = 0; i < r->nparams; i++) {
        sb_addc(o, ',');
        column(o, "param_", r->param_names[i]);
    }
    for (int c = 0; c < ncols; c++) {
        const mfield *f = cols[c].field >= 0 ? &mfields[cols[c].field] : NULL;
        if (!f) {
            sb_printf(o, ",%s", csv_own[cols[c].own].name);
        } else if (f->kind == MK_METRICS) {
            for (int i = 0; i < r->nmetrics; i++) {
                sb_addc(o, ',');
                column(o, f->csv, r->metric_names[i]);
            }
        } else if (f->kind == MK_HW) {
            for (int i = 0; i < r->nhw; i++) { /* the hardware counters (none: as before) */
                strbuf name = STRBUF_INIT;
                sb_printf(&name, "%s%s", f->csv, r->hw_names[i]);
                sb_addc(o, ',');
                csv_field(o, sb_ok(&name) ? sb_cstr(&name) : f->csv);
                sb_free(&name);
            }
        } else {
            sb_printf(o, ",%s", f->csv);
        }
    }
    sb_add(o, "\r\n");
}

/* One of the variant's own cells, or the status. */
static void own_cell(strbuf *o, const record *rec, own k)
{
    const cutune_variant *v = rec->m.variant;
    switch (k) {
    case OWN_STATUS: csv_field(o, outcome_name(rec->out)); break;
    case OWN_KERNEL: csv_field(o, v->name_expression ? v->name_expression : ""); break;
    case OWN_DEFINES: csv_joined(o, v->defines, v->ndefines); break;
    case OWN_OPTIONS: csv_joined(o, v->options, v->noptions); break;
    case OWN_SMEM: sb_printf(o, "%lld", (long long)v->smem_bytes); break;
    default:
        if (k >= OWN_GRID)
            sb_printf(o, "%lld", (long long)v->grid[k - OWN_GRID]);
        else
            sb_printf(o, "%lld", (long long)v->block[k - OWN_BLOCK]);
        break;
    }
}

/* Field f's cell (or cells: one per metric or counter), each after a comma; empty when
 * its `when` fails. */
static void field_cells(strbuf *o, const cutune_tune_result *r, const record *rec, const mfield *f)
{
    const cutune_measurement *m = &rec->m;
    bool shown = record_field_shown(r, rec, f);
    const char *at = (const char *)m + f->off;
    if (f->kind == MK_METRICS || f->kind == MK_HW) {
        int n = f->kind == MK_METRICS ? r->nmetrics : r->nhw;
        const double *values = f->kind == MK_METRICS ? m->metrics : rec->hw;
        int have = f->kind == MK_METRICS ? m->nmetrics : m->nhw;
        for (int k = 0; k < n; k++) { /* empty when not timed, not profiled or not read */
            sb_addc(o, ',');
            if (shown && values && k < have && isfinite(values[k]))
                csv_number(o, values[k]);
        }
        return;
    }
    sb_addc(o, ',');
    if (!shown)
        return;
    switch (f->kind) {
    case MK_INT:
    case MK_BOOL: sb_printf(o, "%d", *(const int *)at); break;
    case MK_I64: sb_printf(o, "%lld", (long long)*(const int64_t *)at); break;
    case MK_NUM: csv_number(o, *(const double *)at); break;
    case MK_STR: csv_field(o, *(const char *const *)at ? *(const char *const *)at : ""); break;
    default: break;
    }
}

/* Record i's row, its cells in the header's order. */
static void csv_row(strbuf *o, const cutune_tune_result *r, uint64_t i, const col *cols, int ncols)
{
    const record *rec = r->records[i];
    const cutune_variant *v = rec->m.variant;
    if (r->nsizes > 0 && rec->size >= 0 && rec->size < r->nsizes) { /* best: of its size */
        const cutune_tune_result *one = r->sizes[rec->size];
        bool best = one->summary.best >= 0 && one->records[one->summary.best] == rec;
        sb_printf(o, "%llu,%d", (unsigned long long)v->ordinal, best);
        for (int j = 0; j < r->nsize_vars; j++)
            sb_printf(o, ",%lld", (long long)one->size_values[j]);
    } else {
        sb_printf(o, "%llu,%d", (unsigned long long)v->ordinal, (int64_t)i == r->summary.best);
    }
    for (int p = 0; p < v->nparams; p++) {
        sb_addc(o, ',');
        csv_field(o, v->values[p]);
    }
    for (int c = 0; c < ncols; c++) {
        if (cols[c].field >= 0) {
            field_cells(o, r, rec, &mfields[cols[c].field]);
        } else {
            sb_addc(o, ',');
            own_cell(o, rec, (own)cols[c].own);
        }
    }
    sb_add(o, "\r\n");
}

int emit_csv(char **out, const cutune_tune_result *r)
{
    strbuf o = STRBUF_INIT;
    col cols[MAX_COLS];
    int ncols = fixed_columns(cols);
    csv_header(&o, r, cols, ncols);
    for (uint64_t i = 0; i < r->n; i++)
        csv_row(&o, r, i, cols, ncols);
    if (!sb_ok(&o)) {
        sb_free(&o);
        return CUTUNE_ENOMEM;
    }
    *out = sb_steal(&o);
    return *out ? CUTUNE_OK : CUTUNE_ENOMEM;
}
