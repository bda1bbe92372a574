/* report.h - the report (`cutune report`, docs/report.md): one self-contained HTML page
 * of one or more tuning results, its charts inline SVG written here from the data (no
 * script library, no fonts, nothing fetched). The files:
 *
 *   report_svg.c     HTML and SVG primitives: escaping, numbers, scales, ticks, the
 *                    colour ramp, a chart's frame and axes
 *   report_stats.c   the analyses, pure computations over plain arrays (unit-tested):
 *                    variance explained by a pair of params, the heatmap's cells,
 *                    marginal effects, quantiles, histogram, best so far, rank correlation
 *   report_data.c    a run (a result, or one size of a run over sizes) made into those
 *                    arrays: each param's levels, each entry's objective
 *   report_charts.c  one run's charts
 *   report_tables.c  one run's tables (winner, failures) and the comparison of runs
 *   report_hw.c      one run's hardware counters: table, occupancy chart
 *   report_page.c    the page: head, styles, one section per run, the comparison
 *
 * Ownership: the page is a heap string the caller frees; everything built on the way
 * lives in one arena the page's builder frees. Nothing here prints: errors are returned. */
#ifndef CUTUNE_EMIT_REPORT_H
#define CUTUNE_EMIT_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "../base/arena.h"
#include "../base/strbuf.h"
#include "cutune.h"
#include "../results/result.h"

/* ---- report_stats.c: the analyses --------------------------------------------------- */

/* The measurements of one run as the analyses see them: entry i's value of param p is
 * level[i * nparams + p], an index 0 .. nlevels[p] - 1 into that param's distinct values;
 * y[i] is its objective, NaN when it has none (did not run correctly, was not timed). */
typedef struct report_table {
    size_t n;
    int nparams;
    const int *nlevels;
    const int *level;
    const double *y;
    bool maximize;
} report_table;

/* report_explained: how much of the variance of the objective the groups of entries
 * that share params a and b (b = -1: a alone) explain: the adjusted between-group
 * share, 1 - (SSW / (N - k)) / (SST / (N - 1)), over the N entries with an objective in
 * k groups (the adjustment keeps a pair of many levels from winning by splitting the
 * data finely). NaN when it cannot be told: fewer than 2 entries, N <= k, no variance
 * at all (or out of memory). */
double report_explained(const report_table *t, int a, int b);

/* A pair of params and the share of the variance it explains. */
typedef struct report_pair {
    int a, b;
    double explained; /* report_explained(t, a, b); NaN: not known */
} report_pair;

/* report_rank_pairs: every pair a < b (nparams * (nparams - 1) / 2 of them) into out,
 * most explaining first (NaN last; ties: declaration order). Returns how many. */
int report_rank_pairs(report_pair *out, const report_table *t);

/* report_better: whether objective x is better than y in t's direction (NaN is never
 * better; anything is better than NaN). */
bool report_better(const report_table *t, double x, double y);

/* report_cells: the heatmap of params a and b: cell[la * nlevels[b] + lb] = the best
 * objective over every entry with those two values (the other params anything); NaN
 * where none has an objective. */
void report_cells(double *cell, const report_table *t, int a, int b);

/* report_marginal: param p's effect: for each of its levels l, best[l] and median[l]
 * of the objective over the entries with that value, count[l] of them (NaN, 0: none;
 * the medians NaN when out of memory). */
void report_marginal(double *best, double *median, size_t *count, const report_table *t, int p);

/* report_sorted_finite: the finite values of v[0 .. n) sorted ascending into out;
 * returns how many. */
size_t report_sorted_finite(double *out, const double *v, size_t n);

/* report_quantile: the q-quantile (0..1, linear interpolation) of sorted[0 .. n); NaN
 * when n is 0. */
double report_quantile(const double *sorted, size_t n, double q);

/* A chart's scale for a quantity: the values from lo to hi are drawn in place, any
 * other beside the plot's edge, off the scale (NaN, NaN: no value). */
typedef struct report_range {
    double lo, hi;
} report_range;

/* How far out a value lies off the scale: more than this many interquartile ranges
 * below the first quartile or above the third (when all values but a few are equal,
 * the IQR is 0, and the median's size stands for it). Objectives of 1e308 among
 * milliseconds would otherwise squeeze every other point onto one line. */
#define REPORT_FENCE 100.0

/* report_scale: the scale of the finite values sorted[0 .. n) (ascending): from the
 * least to the greatest of those within REPORT_FENCE IQRs of the quartiles. Overflow-safe
 * for any finite values. {NaN, NaN} when n is 0. */
report_range report_scale(const double *sorted, size_t n);

/* report_in: whether v lies on the scale r (false for NaN). */
bool report_in(report_range r, double v);

/* report_histogram: counts[0 .. nbins) of the finite values of v in nbins equal bins
 * over [lo, hi] (hi inclusive; all in bin 0 when lo == hi). */
void report_histogram(size_t *counts, int nbins, double lo, double hi, const double *v, size_t n);

/* report_bin_count: a histogram's bins for m values: sqrt(m), from 5 to 40. */
int report_bin_count(size_t m);

/* report_best_so_far: out[i] = the best of y[0 .. i] in t's direction (NaN until the
 * first finite value). */
void report_best_so_far(double *out, const double *y, size_t n, bool maximize);

/* report_spearman: the rank correlation of the pairs (x[i], y[i]) where both are
 * finite (ties get their mean rank); NaN for fewer than 3 pairs or no spread. */
double report_spearman(const double *x, const double *y, size_t n);

/* ---- report_svg.c: HTML and SVG primitives ------------------------------------------ */

/* report_esc: s as HTML text or a quoted attribute's value: & < > " ' escaped, control
 * characters other than tab and newline as U+FFFD. NULL writes nothing. The report's one
 * HTML escaper: every string that did not come from this module's own literals (a
 * results file's, a file name, the title) reaches the page through it, in text, in
 * double-quoted attributes and in SVG titles; never through a "%s" of sb_printf.
 * test/report/poison.py holds the page to that. */
void report_esc(strbuf *o, const char *s);

/* report_short: s cut to at most max bytes (< size - 4) at a character boundary, "…"
 * added when cut, into buf (for labels in charts; the full text goes in a tooltip). */
void report_short(char *buf, size_t size, const char *s, size_t max);

/* report_num: a number for people: 4 significant figures or so ("24002", "0.7158",
 * "1.5e-05"); "n/a" for NaN or infinity. */
void report_num(strbuf *o, double v);

/* report_ticks: up to `max` round tick values within [lo, hi] (1, 2 or 5 times a power
 * of ten apart) into ticks; returns how many. */
int report_ticks(double *ticks, int max, double lo, double hi);

/* report_ramp: the colour of t (0..1, clamped; NaN: grey) on a perceptual ramp from
 * dark blue (0) to yellow (1), as "#rrggbb" into out. */
void report_ramp(char out[8], double t);

/* A chart's plot area and its data ranges: x (lo..hi) maps to px x0..x1, y to y1..y0
 * (up is larger). */
typedef struct report_frame {
    double x0, y0, x1, y1; /* the plot area in px */
    double xlo, xhi, ylo, yhi;
} report_frame;

/* report_frac: where v lies from lo (0) to hi (1), without overflow for any finite
 * values (-1e308 to 1e308 is a span past the largest double); NaN unless hi > lo. */
double report_frac(double v, double lo, double hi);

/* report_x / report_y: a data value's position in px: always a finite number near the
 * plot (the middle of the axis when the value or the range is not finite; a value far
 * outside the range at most a plot's width outside it). No NaN or infinity ever reaches
 * the SVG; points off the scale go through report_point. */
double report_x(const report_frame *f, double v);
double report_y(const report_frame *f, double v);

/* report_pad: [*lo, *hi] widened by 5 % of its span each side (a unit around a point),
 * saturating at the largest finite doubles. */
void report_pad(double *lo, double *hi);

/* report_point: a data point (x, y) of a chart `f` whose scales are xr and yr: on both
 * scales, a circle of class `cls` and radius `radius` (px, as text) at its place, dx px
 * sideways, with `label` (escaped; NULL: none) as its tooltip; else a hollow red circle
 * (class "off") at the edge of the plot it lies beyond, its tooltip the label and the
 * value off the scale. */
void report_point(strbuf *o, const report_frame *f, report_range xr, report_range yr, double x, double y, double dx,
                  const char *cls, const char *radius, const char *label);

/* report_svg_open / report_svg_close: an inline <svg> of w x h px described by `title`
 * (escaped; shown as a tooltip and read by screen readers). */
void report_svg_open(strbuf *o, int w, int h, const char *title);
void report_svg_close(strbuf *o);

/* report_frame_grid: the frame's box and grid lines across it at up to `most` (at most 12)
 * round ticks of one axis, each numbered outside the frame (report_num): axis 'x',
 * vertical lines numbered below the frame; 'y', horizontal lines numbered left of it. */
void report_frame_grid(strbuf *o, const report_frame *f, char axis, int most);

/* report_axes: the frame's box, ticks and numbers on both axes, and the axis labels
 * (escaped). */
void report_axes(strbuf *o, const report_frame *f, const char *xlabel, const char *ylabel);

/* report_text: an SVG text element at (x, y), anchor "start", "middle" or "end", text
 * escaped; `cls` a CSS class or NULL. */
void report_text(strbuf *o, double x, double y, const char *anchor, const char *cls, const char *text);

/* ---- report_data.c: a run as the analyses' arrays ----------------------------------- */

/* One run: a results file's result, or one size of a run over sizes. */
typedef struct report_run {
    const cutune_tune_result *r;
    const char *label; /* the file's name, with the size when there are several */
    const char *file;  /* the results file as given */
    report_table t;
    const char ***levels;  /* levels[p][l]: param p's l-th value as text (sorted: numbers by value) */
    double *y;             /* t.y */
    size_t nok;            /* entries with an objective */
    double *sorted;        /* their objectives, ascending */
    int64_t best;          /* the winner's entry (summary.best), -1: none */
    int64_t median_entry;  /* the entry whose objective is the median one, -1: none */
    report_range scale;    /* the objective's scale (report_scale of sorted) */
    size_t noff;           /* objectives off that scale */
    const char *objective; /* the objective's name */
} report_run;

/* report_run_make: fills run from r (labelled `label`, from `file`), its arrays in a.
 * 0, or CUTUNE_ENOMEM. */
int report_run_make(report_run *run, arena *a, const cutune_tune_result *r, const char *label, const char *file);

/* report_value_of: entry i's value of param p as text. */
const char *report_value_of(const report_run *run, size_t i, int p);

/* ---- report_charts.c: one run's sections --------------------------------------------- */

/* Each appends its part of the page (a <section> or less) to o; scratch memory in a. */
void report_summary(strbuf *o, arena *a, const report_run *run); /* the run in a few lines */
void report_winner(strbuf *o, const report_run *run);
void report_heatmaps(strbuf *o, arena *a, const report_run *run);
void report_scatters(strbuf *o, const report_run *run);
void report_energy(strbuf *o, const report_run *run); /* only when energy was measured */
void report_distribution(strbuf *o, arena *a, const report_run *run);
void report_marginals(strbuf *o, arena *a, const report_run *run);
void report_failures(strbuf *o, arena *a, const report_run *run);
void report_progress(strbuf *o, arena *a, const report_run *run);
void report_comparison(strbuf *o, const report_run *runs, int nruns);

/* ---- report_hw.c: the hardware counters ----------------------------------- */

/* How a counter is shown: its value times `scale`, in `unit` ("" for none). */
typedef struct report_hw_unit {
    double scale;
    const char *unit;
} report_hw_unit;

/* report_hw_unit_of: the unit of a counter by its name: the warp one
 * (smsp__thread_inst_executed_per_inst_executed.ratio, threads of 32) as warp execution
 * efficiency in %; gpu__time_duration (ns) in us; a .per_second of bytes in GB/s (of
 * anything else, per second); a .pct in %; anything else as read. NULL: as read. */
report_hw_unit report_hw_unit_of(const char *metric);

/* report_hw_ratio: num / den, NaN unless both are finite and den > 0 (sectors per
 * request when a variant issued no global loads). */
double report_hw_ratio(double num, double den);

/* report_hw: the section "Hardware counters", only when the run read counters (nhw > 0)
 * and some variant has them or a note says why none has: the profiled variants, best
 * objective first, each counter in its unit, sectors per request when both counters were
 * read, the summary's and the variants' notes, and achieved against theoretical
 * occupancy when achieved occupancy was read. Appends to o; nothing when out of memory. */
void report_hw(strbuf *o, const report_run *run);

/* ---- report_page.c ---------------------------------------------------------------------- */

/* report_emit: the page of results[0 .. n) (files[k] what to call each: its path as
 * given); `title` NULL for the default; `version` cutune's, named on the page.
 * CUTUNE_OK with *out (caller frees), or CUTUNE_ENOMEM. */
int report_emit(char **out, const cutune_tune_result *const *results, const char *const *files, int n,
                const char *title, const char *version);

#endif
