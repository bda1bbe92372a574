/* emit_csv.c - a tuning result as a CSV table (see emitters.h; the columns are documented in
 * docs/results-format.md). Every text field goes through the one CSV escaper (base/csv.h:
 * quoted as RFC 4180 says, and formula-safe); numbers through csv_number. A result
 * with hardware counters gets one more column per counter, `hw:NAME`, after
 * all the others, so that a table without them is what it always was. */
#include "emitters.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../base/csv.h"

static const char *const csv_fixed[] = {
    "index", "best", "status", "reason", "kernel", "block_x", "block_y", "block_z", "grid_x", "grid_y", "grid_z",
    "smem_bytes", "registers", "static_smem", "local_bytes", "spill_stores", "spill_loads", "occupancy", "limiter",
    "blocks_per_sm", "driver_blocks_per_sm", "time_ms", "time_min_ms", "time_max_ms", "time_q1_ms", "time_q3_ms",
    "spread", "reps", "batch", "pruned", "objective", "verified", "max_abs_error", "compile_seconds", "cached",
    "duplicate", "gpu_seconds", "timing_seconds", "launches", "resumed", "energy_J", "power_W", "defines", "options",
};

/* A param's or metric's column: its name, prefixed when a fixed column has it. */
static void column(strbuf *o, const char *prefix, const char *name)
{
    for (size_t k = 0; k < sizeof csv_fixed / sizeof *csv_fixed; k++)
        if (strcmp(csv_fixed[k], name) == 0) {
            sb_add(o, prefix);
            break;
        }
    csv_field(o, name);
}

static void csv_header(strbuf *o, const cutune_tune_result *r)
{
    /* index, best, the params, then the fixed columns, the metrics among them. */
    sb_add(o, "index,best");
    for (int j = 0; r->nsizes > 0 && j < r->nsize_vars; j++) { /* a run over sizes: the size's values */
        sb_addc(o, ',');
        column(o, "size_", r->size_vars[j]);
    }
    for (int i = 0; i < r->nparams; i++) {
        sb_addc(o, ',');
        column(o, "param_", r->param_names[i]);
    }
    for (size_t k = 2; k < sizeof csv_fixed / sizeof *csv_fixed; k++) {
        if (strcmp(csv_fixed[k], "objective") == 0)
            for (int i = 0; i < r->nmetrics; i++) {
                sb_addc(o, ',');
                column(o, "metric_", r->metric_names[i]);
            }
        sb_printf(o, ",%s", csv_fixed[k]);
    }
    for (int i = 0; i < r->nhw; i++) { /* the hardware counters, last (none: as before) */
        strbuf name = STRBUF_INIT;
        sb_printf(&name, "hw:%s", r->hw_names[i]);
        sb_addc(o, ',');
        csv_field(o, sb_ok(&name) ? sb_cstr(&name) : "hw:");
        sb_free(&name);
    }
    sb_add(o, "\r\n");
}

static void csv_row(strbuf *o, const cutune_tune_result *r, uint64_t i)
{
    const record *rec = r->records[i];
    const cutune_measurement *m = &rec->m;
    const cutune_variant *v = m->variant;
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
    sb_addc(o, ',');
    csv_field(o, outcome_name(rec->out));
    sb_addc(o, ',');
    csv_field(o, m->reason ? m->reason : "");
    sb_addc(o, ',');
    csv_field(o, v->name_expression ? v->name_expression : "");
    sb_printf(o, ",%lld,%lld,%lld,%lld,%lld,%lld,%lld,%d,%lld,%lld,%lld,%lld,", (long long)v->block[0],
              (long long)v->block[1], (long long)v->block[2], (long long)v->grid[0], (long long)v->grid[1],
              (long long)v->grid[2], (long long)v->smem_bytes, m->registers, (long long)m->static_smem,
              (long long)m->local_bytes, (long long)m->spill_stores, (long long)m->spill_loads);
    csv_number(o, m->occupancy);
    sb_addc(o, ',');
    csv_field(o, m->limiter ? m->limiter : "");
    sb_printf(o, ",%d,", m->blocks_per_sm);
    if (m->driver_blocks_per_sm >= 0)
        sb_printf(o, "%d", m->driver_blocks_per_sm);
    const double times[] = {m->median_ms, m->min_ms, m->max_ms, m->q1_ms, m->q3_ms, m->spread};
    for (int k = 0; k < 6; k++) {
        sb_addc(o, ',');
        if (m->timed)
            csv_number(o, times[k]);
    }
    if (m->timed)
        sb_printf(o, ",%d,%d,%d", m->reps, m->batch, m->pruned);
    else
        sb_add(o, ",,,");
    for (int k = 0; k < r->nmetrics; k++) {
        sb_addc(o, ',');
        if (m->timed)
            csv_number(o, m->metrics[k]);
    }
    sb_addc(o, ',');
    if (m->timed)
        csv_number(o, m->objective);
    sb_printf(o, ",%d,", m->verified);
    if (m->verified)
        csv_number(o, m->max_abs_error);
    sb_addc(o, ',');
    csv_number(o, m->compile_seconds);
    sb_printf(o, ",%d,%d,", m->cached, m->duplicate);
    csv_number(o, m->gpu_seconds);
    sb_addc(o, ',');
    csv_number(o, m->timing_seconds);
    sb_printf(o, ",%d,%d,", m->launches, m->resumed);
    if (m->energy) /* empty when not measured */
        csv_number(o, m->energy_j);
    sb_addc(o, ',');
    if (m->energy)
        csv_number(o, m->power_w);
    sb_addc(o, ',');
    csv_joined(o, v->defines, v->ndefines);
    sb_addc(o, ',');
    csv_joined(o, v->options, v->noptions);
    for (int k = 0; k < r->nhw; k++) { /* empty when not profiled or not read */
        sb_addc(o, ',');
        if (m->profiled && rec->hw && k < m->nhw && isfinite(rec->hw[k]))
            csv_number(o, rec->hw[k]);
    }
    sb_add(o, "\r\n");
}

int emit_csv(char **out, const cutune_tune_result *r)
{
    strbuf o = STRBUF_INIT;
    csv_header(&o, r);
    for (uint64_t i = 0; i < r->n; i++)
        csv_row(&o, r, i);
    if (!sb_ok(&o)) {
        sb_free(&o);
        return CUTUNE_ENOMEM;
    }
    *out = sb_steal(&o);
    return *out ? CUTUNE_OK : CUTUNE_ENOMEM;
}

