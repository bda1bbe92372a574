/* cutune_tables.c - the tables of cutune/analyze.h (cutune_table_*: the lines `cutune
 * list` and `cutune analyze` print, and the analysis's summary), cutune/results.h's
 * cutune_tune_profile_text and cutune_tune_profile_note (the hardware counters after a
 * run) and cutune/tune.h's cutune_profile_*_text (what `cutune metrics` lists), made from
 * the public accessors, as cutune_space_summary_text is, so that an application gets the
 * CLI's lines.
 *
 * Ownership: a table borrows its spec (which outlives it) and owns its widths and its
 * copy of the first compile log. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/num.h"
#include "../base/strbuf.h"
#include "internal.h"

struct cutune_table {
    const cutune_spec *spec;
    int *widths; /* a column per param, as wide as its name and its longest value */
    int nparams;
    bool show_kernel; /* the first row's kernel is a template instantiation */
    bool started;     /* the heading has been made */
    /* The analysis's tally (cutune_table_analysis): where each variant that compiled got
     * its binary (fresh + cached + same = compiled; the summary's counts include the
     * failures), the best occupancy of those that can launch and how many reach it, and
     * the first compile failure. */
    uint64_t fresh, cached, same;
    double best_occupancy;
    uint64_t best_occupancy_count;
    uint64_t first_failure;
    char *first_failure_log; /* NULL: none failed */
};

/* made: sb's text into *out, with the error object for out of memory. */
static int made(char **out, strbuf *sb)
{
    *out = sb_steal(sb);
    return *out ? CUTUNE_OK : err_set(CUTUNE_ENOMEM, "out of memory");
}

/* value_wider: w, or the width of param i's value k when that is wider. */
static int value_wider(int w, const cutune_spec *spec, int i, uint64_t k)
{
    int len = cutune_spec_param_value(NULL, 0, spec, i, k);
    return len > w ? len : w;
}

int cutune_table_new(cutune_table **out, const cutune_spec *spec)
{
    if (!out || !spec || !cutune_spec_ok(spec))
        return err_set(CUTUNE_EINVAL, "cutune_table_new: no output or valid spec");
    cutune_table *t = calloc(1, sizeof *t);
    int n = cutune_spec_param_count(spec);
    if (t)
        t->widths = calloc((size_t)n + 1, sizeof(int));
    if (!t || !t->widths) {
        free(t);
        return err_set(CUTUNE_ENOMEM, "out of memory");
    }
    t->spec = spec;
    t->nparams = n;
    for (int i = 0; i < n; i++) { /* the first 4096 values and the last: a range grows */
        int w = (int)strlen(cutune_spec_param_name(spec, i));
        uint64_t count = cutune_spec_param_value_count(spec, i);
        for (uint64_t k = 0; k < count && k < 4096; k++)
            w = value_wider(w, spec, i, k);
        t->widths[i] = count > 4096 ? value_wider(w, spec, i, count - 1) : w;
    }
    *out = t;
    return CUTUNE_OK;
}

void cutune_table_free(cutune_table *t)
{
    if (!t)
        return;
    free(t->widths);
    free(t->first_failure_log);
    free(t);
}

/* heading: the columns' heading (the first row `first` decides the kernel column). */
static void heading(strbuf *sb, cutune_table *t, const cutune_variant *first)
{
    t->started = true;
    t->show_kernel = strchr(first->name_expression, '<') != NULL;
    sb_printf(sb, "%6s", "#");
    for (int i = 0; i < t->nparams; i++)
        sb_printf(sb, "  %-*s", t->widths[i], cutune_spec_param_name(t->spec, i));
    sb_printf(sb, "  %-10s %-16s %7s", "block", "grid", "smem");
    if (t->show_kernel)
        sb_printf(sb, "  %-24s", "kernel");
}

/* dims: "32x8" for a 2-D shape (dimensions past n dropped). */
static const char *dims(const int64_t *d, int n, char *buf, size_t size)
{
    int len = snprintf(buf, size, "%lld", (long long)d[0]);
    for (int i = 1; i < n && len > 0 && (size_t)len < size; i++)
        len += snprintf(buf + len, size - (size_t)len, "x%lld", (long long)d[i]);
    return buf;
}

/* columns: v's leading columns (index, params, block, grid, smem, kernel). */
static void columns(strbuf *sb, const cutune_table *t, const cutune_variant *v)
{
    char b[64], g[96];
    sb_printf(sb, "%6llu", (unsigned long long)v->ordinal);
    for (int i = 0; i < v->nparams && i < t->nparams; i++)
        sb_printf(sb, "  %-*s", t->widths[i], v->values[i]);
    sb_printf(sb, "  %-10s %-16s %7lld", dims(v->block, v->block_dims, b, sizeof b),
              dims(v->grid, v->grid_dims, g, sizeof g), (long long)v->smem_bytes);
    if (t->show_kernel)
        sb_printf(sb, "  %-24s", v->name_expression);
}

int cutune_table_variant(char **out, cutune_table *t, const cutune_variant *v)
{
    if (!out || !t || !v)
        return err_set(CUTUNE_EINVAL, "cutune_table_variant: no output, table or variant");
    strbuf sb = STRBUF_INIT;
    if (!t->started) {
        if (v->ncommon_options > 0) {
            sb_add(&sb, "common options:");
            for (int i = 0; i < v->ncommon_options; i++)
                sb_printf(&sb, " %s", v->options[i]);
            sb_add(&sb, "\n");
        }
        heading(&sb, t, v);
        sb_add(&sb, "  defines and per-variant options\n");
    }
    columns(&sb, t, v);
    sb_add(&sb, " ");
    for (int i = 0; i < v->ndefines; i++)
        sb_printf(&sb, " %s", v->defines[i]);
    for (int i = v->ncommon_options; i < v->noptions; i++)
        sb_printf(&sb, " %s", v->options[i]);
    sb_add(&sb, "\n");
    return made(out, &sb);
}

/* tally: a counted for cutune_table_summary. */
static int tally(cutune_table *t, const cutune_analysis *a)
{
    if (a->compiled)
        *(a->duplicate ? &t->same : a->cached ? &t->cached : &t->fresh) += 1;
    if (!a->compiled && !t->first_failure_log) {
        if (!(t->first_failure_log = strdup(a->log)))
            return err_set(CUTUNE_ENOMEM, "out of memory");
        t->first_failure = a->variant->ordinal;
    }
    if (a->launchable && a->has_resources) {
        if (a->occupancy.occupancy > t->best_occupancy) {
            t->best_occupancy = a->occupancy.occupancy;
            t->best_occupancy_count = 0;
        }
        t->best_occupancy_count += a->occupancy.occupancy == t->best_occupancy;
    }
    return CUTUNE_OK;
}

int cutune_table_analysis(char **out, cutune_table *t, const cutune_analysis *a)
{
    if (!t || !a || !a->variant)
        return err_set(CUTUNE_EINVAL, "cutune_table_analysis: no table or analysis");
    int rc = tally(t, a);
    if (rc < 0 || !out)
        return rc;
    strbuf sb = STRBUF_INIT;
    if (!t->started) {
        heading(&sb, t, a->variant);
        sb_printf(&sb, "  %4s %6s %6s %9s %6s %-13s %8s  %s\n", "regs", "smem", "local", "spill", "occ", "limiter",
                  "compile", "status");
    }
    columns(&sb, t, a->variant);
    char spill[48], occ[16], comp[24];
    if (a->has_resources) {
        snprintf(spill, sizeof spill, "%lld/%lld", (long long)a->spill_stores, (long long)a->spill_loads);
        sb_printf(&sb, "  %4d %6lld %6lld %9s", a->registers, (long long)a->static_smem, (long long)a->local_bytes,
                  spill);
    } else {
        sb_printf(&sb, "  %4s %6s %6s %9s", "-", "-", "-", "-");
    }
    if (a->occupancy.limiter)
        snprintf(occ, sizeof occ, "%.0f%%", a->occupancy.occupancy * 100);
    else
        snprintf(occ, sizeof occ, "-");
    if (a->duplicate || a->cached)
        snprintf(comp, sizeof comp, "%s", a->duplicate ? "same" : "cached");
    else
        snprintf(comp, sizeof comp, "%.0f ms", a->compile_seconds * 1e3);
    sb_printf(&sb, " %6s %-13s %8s  ", occ, a->occupancy.limiter ? a->occupancy.limiter : "-", comp);
    if (!a->compiled) { /* the log's first line that is not empty, at most 159 bytes */
        const char *p = a->log;
        while (*p == '\n')
            p++;
        size_t n = strcspn(p, "\n");
        sb_printf(&sb, "COMPILE ERROR: %.*s\n", (int)(n < 159 ? n : 159), p);
    } else if (!a->launchable) {
        sb_printf(&sb, "CANNOT LAUNCH: %s\n", a->why);
    } else {
        sb_add(&sb, "ok\n");
    }
    return made(out, &sb);
}

int cutune_table_summary(char **out, const cutune_table *t, const cutune_analyze_summary *sum)
{
    if (!out || !t || !sum)
        return err_set(CUTUNE_EINVAL, "cutune_table_summary: no output, table or summary");
    strbuf sb = STRBUF_INIT;
    char n[32];
    sb_printf(&sb,
              "\n%s variants for %s: %llu compiled (%.2f s of NVRTC time, %.2f s wall on %d thread%s), "
              "%llu from the cache, %llu the same binary as an earlier variant\n",
              num_format_count(sum->variants, n, sizeof n), sum->arch ? sum->arch : "(null)",
              (unsigned long long)t->fresh, sum->compile_seconds, sum->wall_seconds, sum->threads,
              sum->threads == 1 ? "" : "s", (unsigned long long)t->cached, (unsigned long long)t->same);
    sb_printf(&sb, "%llu failed to compile, %llu cannot launch", (unsigned long long)sum->failed,
              (unsigned long long)sum->unlaunchable);
    if (t->best_occupancy_count)
        sb_printf(&sb, "; best theoretical occupancy %.0f%% (%llu variant%s)", t->best_occupancy * 100,
                  (unsigned long long)t->best_occupancy_count, t->best_occupancy_count == 1 ? "" : "s");
    sb_add(&sb, "\n");
    char *device = NULL;
    if (cutune_spec_device_text(&device, t->spec) == CUTUNE_OK && *device)
        sb_printf(&sb, "device attributes: %s\n", device);
    free(device);
    if (sum->cache_dir)
        sb_printf(&sb, "cache: %s\n", sum->cache_dir);
    if (sum->cache_warning)
        sb_printf(&sb, "warning: %s\n", sum->cache_warning);
    if (sum->compile_warning)
        sb_printf(&sb, "warning: %s\n", sum->compile_warning);
    if (sum->interrupted)
        sb_printf(&sb, "interrupted: the table covers the first %llu configurations only\n",
                  (unsigned long long)sum->variants);
    if (t->first_failure_log)
        sb_printf(&sb, "\nthe compiler's log for variant %llu:\n%s\n", (unsigned long long)t->first_failure,
                  t->first_failure_log);
    return made(out, &sb);
}

/* ---- the hardware counters after a run ----------------------------------------- */

/* per_second: whether the metric counts per second (shown as GB/s). */
static bool per_second(const char *name)
{
    size_t n = strlen(name);
    return n > 11 && strcmp(name + n - 11, ".per_second") == 0;
}

/* cell: one counter's value as the table shows it: percentages, ratios and throughputs
 * as CUPTI gives them (bytes per second as GB/s), counts whole, durations (ns) in us. */
static void cell(char *out, size_t size, const char *name, double v)
{
    if (!isfinite(v))
        snprintf(out, size, "-");
    else if (per_second(name))
        snprintf(out, size, "%.1f", v / 1e9);
    else if (strstr(name, "time_duration"))
        snprintf(out, size, "%.2f", v / 1e3);
    else if (strstr(name, "pct") || strstr(name, "ratio"))
        snprintf(out, size, "%.1f", v);
    else
        snprintf(out, size, "%.4g", v);
}

/* by_objective: the order of the profiled rows, best objective first (insertion sort:
 * a handful of rows as a rule, and equal ones keep the run's order). */
static void by_objective(const cutune_measurement **rows, uint64_t k, bool maximize)
{
    for (uint64_t i = 1; i < k; i++)
        for (uint64_t j = i; j > 0; j--) {
            double x = cutune_measurement_value(rows[j], CUTUNE_VALUE_OBJECTIVE);
            double y = cutune_measurement_value(rows[j - 1], CUTUNE_VALUE_OBJECTIVE);
            if (!(maximize ? x > y : x < y))
                break;
            const cutune_measurement *swap = rows[j];
            rows[j] = rows[j - 1];
            rows[j - 1] = swap;
        }
}

int cutune_tune_profile_text(char **out, const cutune_spec *spec, const cutune_tune_result *r)
{
    if (!out || !spec || !r)
        return err_set(CUTUNE_EINVAL, "cutune_tune_profile_text: no output, spec or result");
    int nhw = cutune_tune_profile_count(r);
    const cutune_tune_summary *s = cutune_tune_summary_of(r);
    bool show = nhw > 0 && s->profiled > 0;
    uint64_t n = show ? cutune_tune_count(r) : 0, k = 0;
    const cutune_measurement **rows = calloc((size_t)n + 1, sizeof *rows);
    if (!rows)
        return err_set(CUTUNE_ENOMEM, "out of memory");
    for (uint64_t i = 0; i < n; i++)
        if (cutune_measurement_value(cutune_tune_at(r, i), CUTUNE_VALUE_PROFILED) != 0)
            rows[k++] = cutune_tune_at(r, i);
    by_objective(rows, k, s->maximize);
    strbuf sb = STRBUF_INIT;
    char buf[160];
    if (show)
        sb_add(&sb, "\nhardware counters (one profiled launch each, after timing; CUPTI, kernel replay):\n");
    for (int c = 0; show && c < nhw; c++) { /* the nvprof name for the default set (with the unit), else its own */
        const char *name = cutune_tune_profile_metric(r, c), *nv = cutune_profile_nvprof_name(name);
        const char *unit = per_second(name)                ? " GB/s"
                           : strstr(name, "time_duration") ? " us"
                           : strstr(name, "pct")           ? " %"
                                                           : "";
        sb_printf(&sb, "  [%c] %s%s\n", 'a' + c % 26, nv ? nv : name, unit);
    }
    if (show) {
        sb_printf(&sb, "\n  %-8s %9s %7s", "variant", "median ms", "theo %");
        for (int c = 0; c < nhw; c++)
            sb_printf(&sb, " %9c", 'a' + c % 26);
        sb_add(&sb, "  params\n");
    }
    for (uint64_t i = 0; i < k; i++) {
        const cutune_measurement *m = rows[i];
        const cutune_variant *v = cutune_measurement_variant(m);
        snprintf(buf, sizeof buf, "#%llu", (unsigned long long)v->ordinal);
        sb_printf(&sb, "  %-8s %9.4f %7.1f", buf, cutune_measurement_value(m, CUTUNE_VALUE_MEDIAN_MS),
                  cutune_measurement_value(m, CUTUNE_VALUE_OCCUPANCY) * 100);
        for (int c = 0; c < nhw; c++) {
            cell(buf, sizeof buf, cutune_measurement_hw_name(m, c), cutune_measurement_hw(m, c));
            sb_printf(&sb, " %9s", buf);
        }
        sb_add(&sb, " ");
        for (int p = 0; p < v->nparams; p++)
            sb_printf(&sb, " %s=%s", cutune_spec_param_name(spec, p), v->values[p]);
        sb_add(&sb, "\n");
    }
    free(rows);
    return made(out, &sb);
}

int cutune_tune_profile_note(char **out, const cutune_tune_result *r)
{
    if (!out || !r)
        return err_set(CUTUNE_EINVAL, "cutune_tune_profile_note: no output or result");
    const cutune_tune_summary *s = cutune_tune_summary_of(r);
    const char *note = s->profile_note;
    strbuf sb = STRBUF_INIT;
    if (cutune_tune_profile_count(r) > 0 && s->profiled == 0)
        sb_printf(&sb, "no hardware counters were read%s%s; the times above stand\n", note ? ": " : "",
                  note ? note : "");
    else if (cutune_tune_profile_count(r) > 0 && note)
        sb_printf(&sb, "some counters were not read: %s\n", note);
    return made(out, &sb);
}

int cutune_profile_defaults_text(char **out, const char *arch, int brief)
{
    if (!out)
        return err_set(CUTUNE_EINVAL, "cutune_profile_defaults_text: no output");
    const char *chip = cutune_profile_chip(arch);
    if (!chip)
        return err_set(CUTUNE_EINVAL, "cutune does not know CUPTI's chip for %s", arch);
    const char *const *names;
    int n = cutune_profile_default_metrics(&names);
    strbuf sb = STRBUF_INIT;
    if (!brief)
        sb_add(&sb, "The default counters (cutune SPEC --metrics N), the seeds' nvprof metrics in CUPTI's names:\n\n");
    for (int i = 0; i < n; i++)
        sb_printf(&sb, "%-26s %s\n", cutune_profile_nvprof_name(names[i]), names[i]);
    if (!brief)
        sb_printf(&sb,
                  "\nName others with --metric NAME (`cutune metrics PATTERN` searches %s's list for %s; a\n"
                  "base metric takes a suffix: .sum, .avg, .max, .pct_of_peak_sustained_elapsed, ...).\n",
                  chip, arch ? arch : "sm_90");
    return made(out, &sb);
}

/* The lines of cutune_profile_list_text: the metrics whose names contain `pattern` (NULL:
 * all), and how many. */
typedef struct metric_lines {
    strbuf sb;
    const char *pattern;
    int shown;
} metric_lines;

/* metric_line: cutune_profile_list's callback: the metric `name` of kind `kind` as a
 * line of ml (a metric_lines) when its name contains the pattern. */
static void metric_line(void *ml, const char *name, const char *kind)
{
    metric_lines *m = ml;
    if (m->pattern && !strstr(name, m->pattern))
        return;
    sb_printf(&m->sb, "%-11s %s\n", kind, name);
    m->shown++;
}

int cutune_profile_list_text(char **out, char **note, int *shown, const char *arch, const char *pattern)
{
    if (!out || !note)
        return err_set(CUTUNE_EINVAL, "cutune_profile_list_text: no output");
    *out = *note = NULL;
    metric_lines m = {STRBUF_INIT, pattern, 0};
    int rc = cutune_profile_list(arch, metric_line, &m);
    if (rc != CUTUNE_OK) {
        sb_free(&m.sb);
        return rc;
    }
    if (shown)
        *shown = m.shown;
    strbuf sb = STRBUF_INIT;
    sb_printf(&sb, "%d base metrics of %s (%s)%s%s%s\n", m.shown, cutune_profile_chip(arch), arch ? arch : "sm_90",
              pattern ? " containing '" : "", pattern ? pattern : "", pattern ? "'" : "");
    if ((rc = made(note, &sb)) != CUTUNE_OK || (rc = made(out, &m.sb)) != CUTUNE_OK) {
        cutune_free(*note);
        *note = NULL;
        sb_free(&m.sb);
    }
    return rc;
}
