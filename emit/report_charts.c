/* report_charts.c - one run's charts (report.h): the heatmaps of pairs of params, the
 * objective against occupancy and registers, its distribution, each param's marginal
 * effect and, for a search, the best so far against evaluations. Each is inline SVG
 * written from the data; docs/report.md says what each shows and how it is computed. */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The ramp position of value v among sorted[0 .. n) (a map's cells): the share of them
 * it beats, by rank, so that each map shows its own structure and one outlier does not
 * wash the others into one colour; 1 is the best. */
static double goodness(const double *sorted, size_t n, bool maximize, double v)
{
    if (!isfinite(v) || n == 0)
        return NAN;
    if (n == 1)
        return 1;
    size_t lo = 0, hi = n; /* below: the first index not < v */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sorted[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t below = lo;
    hi = n; /* above: n - the first index > v */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sorted[mid] <= v)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t above = n - lo;
    return (double)(maximize ? below : above) / (double)(n - 1);
}

static void caption_num(strbuf *o, const char *before, double v, const char *after)
{
    sb_add(o, before);
    report_num(o, v);
    sb_add(o, after);
}

/* The ramp's legend: a map's worst cell to its best. */
static void legend(strbuf *o)
{
    report_svg_open(o, 330, 40, "colour scale: a cell's rank among the map's cells");
    for (int k = 0; k < 20; k++) {
        char c[8];
        report_ramp(c, k / 19.0);
        sb_printf(o, "<rect x=\"%d\" y=\"2\" width=\"11\" height=\"14\" fill=\"%s\"/>\n", 70 + k * 11, c);
    }
    report_text(o, 66, 14, "end", "num", "worst cell");
    report_text(o, 294, 14, "start", "num", "best");
    report_text(o, 180, 32, "middle", "num", "colour: the cell's rank among the map's cells");
    report_svg_close(o);
}

/* A map of more cells than this is not drawn (a param of hundreds of values). */
#define MAX_CELLS 4096
/* The most of the other pairs drawn under the first. */
#define MAX_OTHER_PAIRS 48

/* One heatmap of params a (rows) and b (columns), cells of side `cellpx`. */
static void heatmap(strbuf *o, arena *a_, const report_run *run, int a, int b, int cellpx, double explained)
{
    const report_table *t = &run->t;
    const cutune_tune_result *r = run->r;
    int na = t->nlevels[a], nb = t->nlevels[b];
    if ((size_t)na * (size_t)nb > MAX_CELLS) {
        sb_add(o, "<p>");
        report_esc(o, r->param_names[a]);
        sb_add(o, " &times; ");
        report_esc(o, r->param_names[b]);
        sb_printf(o, ": %d &times; %d values, too many to map.</p>\n", na, nb);
        return;
    }
    double *cell = arena_alloc(a_, sizeof *cell * (size_t)na * (size_t)nb + 1);
    if (!cell)
        return;
    report_cells(cell, t, a, b);
    double *ranked = arena_alloc(a_, sizeof *ranked * (size_t)na * (size_t)nb + 1);
    if (!ranked)
        return;
    size_t nranked = report_sorted_finite(ranked, cell, (size_t)na * (size_t)nb);
    int left = 80, top = 24, bottom = 46;
    int w = left + nb * cellpx + 10, h = top + na * cellpx + bottom;
    char title[512];
    snprintf(title, sizeof title, "best %s by %s and %s", run->objective, r->param_names[a], r->param_names[b]);
    report_svg_open(o, w, h, title);
    char lab[64];
    snprintf(title, sizeof title, "%s \xC3\x97 %s", r->param_names[a], r->param_names[b]);
    report_short(lab, sizeof lab, title, 30);
    report_text(o, left, 15, "start", "head", lab);
    if (isfinite(explained)) {
        snprintf(title, sizeof title, "explains %.0f %%", explained > 0 ? explained * 100 : 0.0);
        report_text(o, w - 10, 15, "end", "num", title);
    }
    int wa = run->best >= 0 ? t->level[(size_t)run->best * (size_t)t->nparams + (size_t)a] : -1;
    int wb = run->best >= 0 ? t->level[(size_t)run->best * (size_t)t->nparams + (size_t)b] : -1;
    bool numbers = cellpx >= 40;
    int step = cellpx >= 14 ? 1 : (14 + cellpx - 1) / cellpx; /* label every step-th level */
    for (int i = 0; i < na; i++) {
        double y = top + i * cellpx;
        if (i % step == 0) {
            report_short(lab, sizeof lab, run->levels[a][i], 10);
            report_text(o, left - 6, y + cellpx / 2.0 + 4, "end", "num", lab);
        }
        for (int j = 0; j < nb; j++) {
            double x = left + j * cellpx, v = cell[(size_t)i * (size_t)nb + (size_t)j];
            char c[8];
            report_ramp(c, goodness(ranked, nranked, t->maximize, v));
            sb_printf(o, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%d\" height=\"%d\" fill=\"%s\"%s><title>", x, y, cellpx,
                      cellpx, c, i == wa && j == wb ? " class=\"win\"" : "");
            report_esc(o, r->param_names[a]);
            sb_addc(o, '=');
            report_esc(o, run->levels[a][i]);
            sb_add(o, ", ");
            report_esc(o, r->param_names[b]);
            sb_addc(o, '=');
            report_esc(o, run->levels[b][j]);
            sb_add(o, ": ");
            if (isfinite(v))
                report_num(o, v);
            else
                sb_add(o, "no variant ran correctly");
            sb_add(o, "</title></rect>\n");
            if (numbers) {
                strbuf n = STRBUF_INIT;
                if (isfinite(v))
                    report_num(&n, v);
                else
                    sb_add(&n, "\xC2\xB7");
                bool light = isfinite(v) && goodness(ranked, nranked, t->maximize, v) > 0.55;
                report_text(o, x + cellpx / 2.0, y + cellpx / 2.0 + 4, "middle", light ? "cell dark" : "cell light",
                            sb_cstr(&n));
                sb_free(&n);
            }
        }
    }
    for (int j = 0; j < nb; j += step) {
        report_short(lab, sizeof lab, run->levels[b][j], 8);
        report_text(o, left + j * cellpx + cellpx / 2.0, top + na * cellpx + 14, "middle", "num", lab);
    }
    report_short(lab, sizeof lab, r->param_names[b], 24);
    report_text(o, left + nb * cellpx / 2.0, top + na * cellpx + 34, "middle", "axis", lab);
    sb_printf(o, "<text class=\"axis\" text-anchor=\"middle\" transform=\"translate(14 %.1f) rotate(-90)\">",
              top + na * cellpx / 2.0);
    report_short(lab, sizeof lab, r->param_names[a], 16);
    report_esc(o, lab);
    sb_add(o, "</text>\n");
    report_svg_close(o);
}

void report_heatmaps(strbuf *o, arena *a, const report_run *run)
{
    const report_table *t = &run->t;
    sb_add(o, "<section class=\"part\"><h3>The landscape: two params at a time</h3>\n");
    if (t->nparams < 2 || run->nok == 0) {
        sb_add(o, t->nparams < 2 ? "<p>One param: there is no pair to map; its effect is shown below.</p>\n"
                                 : "<p>No variant has an objective: there is nothing to map.</p>\n");
        sb_add(o, "</section>\n");
        return;
    }
    int npairs = t->nparams * (t->nparams - 1) / 2;
    report_pair *pairs = arena_alloc(a, sizeof *pairs * (size_t)npairs);
    if (!pairs)
        return;
    report_rank_pairs(pairs, t);
    const report_pair *top = &pairs[0];
    sb_add(o, "<p>Each cell is the <b>best</b> ");
    report_esc(o, run->objective);
    sb_add(o, " over every variant with those two values, whatever the other params are (not the other params "
              "fixed at the winner's: in a constrained space that leaves most cells empty). Grey: no variant with "
              "those values ran correctly. The winner's cell is outlined. The pair shown first explains the most "
              "variance of the objective: the adjusted share of it between the groups of variants that share the "
              "pair's values (docs/report.md).</p>\n");
    int nb = t->nlevels[top->b];
    int cellpx = nb > 0 ? 560 / nb : 40;
    cellpx = cellpx > 64 ? 64 : cellpx < 6 ? 6 : cellpx;
    sb_add(o, "<div class=\"row\">");
    heatmap(o, a, run, top->a, top->b, cellpx, top->explained);
    legend(o);
    sb_add(o, "</div>\n");
    if (npairs > 1) {
        int shown = npairs - 1 > MAX_OTHER_PAIRS ? MAX_OTHER_PAIRS : npairs - 1;
        sb_printf(o, "<details><summary>The other %d pairs, most explaining first", npairs - 1);
        if (shown < npairs - 1)
            sb_printf(o, " (the first %d drawn)", shown);
        sb_add(o, "</summary><div class=\"row\">\n");
        for (int k = 1; k <= shown; k++) {
            int side = 240 / (t->nlevels[pairs[k].b] > t->nlevels[pairs[k].a] ? t->nlevels[pairs[k].b]
                                                                              : t->nlevels[pairs[k].a]);
            side = side > 40 ? 40 : side < 4 ? 4 : side;
            heatmap(o, a, run, pairs[k].a, pairs[k].b, side, pairs[k].explained);
        }
        sb_add(o, "</div></details>\n");
    }
    sb_add(o, "</section>\n");
}

/* Deterministic sideways spread of point i, -1..1. */
static double jitter(size_t i)
{
    uint32_t h = (uint32_t)i * 2654435761u;
    h ^= h >> 15;
    return ((double)(h % 2001) / 1000.0) - 1.0;
}

/* The objective's axis: its scale, padded. */
static void objective_axis(const report_run *run, double *lo, double *hi)
{
    *lo = run->scale.lo;
    *hi = run->scale.hi;
    report_pad(lo, hi);
}

/* One scatter plot of the objective (y) against x[i] (NaN: left out); x from xlo to xhi,
 * its values outside xr (and objectives off their scale) at the plot's edge. */
static void scatter(strbuf *o, const report_run *run, const double *x, const char *xlabel, report_range xr, double xlo,
                    double xhi, const char *title)
{
    double ylo, yhi;
    objective_axis(run, &ylo, &yhi);
    report_frame f = {70, 10, 440, 250, xlo, xhi, ylo, yhi};
    report_svg_open(o, 460, 300, title);
    report_axes(o, &f, xlabel, run->objective);
    for (size_t i = 0; i < run->t.n; i++) {
        if (!isfinite(run->y[i]) || !isfinite(x[i]) || (int64_t)i == run->best)
            continue;
        bool off = !report_in(xr, x[i]) || !report_in(run->scale, run->y[i]);
        report_point(o, &f, xr, run->scale, x[i], run->y[i], jitter(i) * 4, "pt", "2.5", off ? run->objective : NULL);
    }
    if (run->best >= 0 && isfinite(x[run->best]))
        report_point(o, &f, xr, run->scale, x[run->best], run->y[run->best], 0, "best", "5", "the winner");
    report_svg_close(o);
}

void report_scatters(strbuf *o, const report_run *run)
{
    const cutune_tune_result *r = run->r;
    sb_add(o, "<section class=\"part\"><h3>Occupancy and registers</h3>\n");
    if (run->nok == 0) {
        sb_add(o, "<p>No variant has an objective.</p></section>\n");
        return;
    }
    double *occ = malloc(sizeof *occ * run->t.n), *regs = malloc(sizeof *regs * run->t.n);
    if (!occ || !regs) {
        free(occ);
        free(regs);
        sb_add(o, "</section>\n");
        return;
    }
    double rmax = 0;
    for (size_t i = 0; i < run->t.n; i++) {
        const cutune_measurement *m = &r->records[i]->m;
        occ[i] = m->occupancy >= 0 && m->occupancy <= 1 ? m->occupancy : NAN;
        regs[i] = m->registers > 0 ? m->registers : NAN;
        if (isfinite(run->y[i]) && m->registers > rmax)
            rmax = m->registers;
    }
    double so = report_spearman(occ, run->y, run->t.n), sr = report_spearman(regs, run->y, run->t.n);
    sb_add(o, "<p>Each dot is a variant that ran correctly (the winner in red; dots spread sideways a little so "
              "that equal values show as a cloud). Theoretical occupancy is the model's share of the SM's warps "
              "that can be resident; the vertical spread at one occupancy is what occupancy alone does not "
              "predict.");
    if (isfinite(so))
        caption_num(o, " Rank correlation with occupancy: ", so, ";");
    if (isfinite(sr))
        caption_num(o, " with registers per thread: ", sr, ".");
    sb_add(o, "</p>\n<div class=\"row\">");
    report_range all = {-INFINITY, INFINITY};
    scatter(o, run, occ, "theoretical occupancy", all, 0, 1, "objective against theoretical occupancy");
    double rlo = 0, rhi = rmax > 0 ? rmax : 1;
    report_pad(&rlo, &rhi);
    scatter(o, run, regs, "registers per thread", all, rlo < 0 ? 0 : rlo, rhi,
            "objective against registers per thread");
    sb_add(o, "</div></section>\n");
    free(occ);
    free(regs);
}

/* The scale of x[i] over the entries with an objective ({NaN, NaN} when none). */
static report_range x_scale(const report_run *run, const double *x)
{
    double *v = malloc(sizeof *v * (run->t.n + 1));
    if (!v)
        return (report_range){-INFINITY, INFINITY};
    size_t m = 0;
    for (size_t i = 0; i < run->t.n; i++)
        if (isfinite(run->y[i]) && isfinite(x[i]))
            v[m++] = x[i];
    size_t n = report_sorted_finite(v, v, m);
    report_range r = report_scale(v, n);
    free(v);
    return r;
}

void report_energy(strbuf *o, const report_run *run)
{
    const cutune_tune_result *r = run->r;
    size_t measured = 0;
    double *j = malloc(sizeof *j * (run->t.n + 1)), *w = malloc(sizeof *w * (run->t.n + 1));
    if (!j || !w) {
        free(j);
        free(w);
        return;
    }
    for (size_t i = 0; i < run->t.n; i++) {
        const cutune_measurement *m = &r->records[i]->m;
        bool has = m->energy && isfinite(m->energy_j * 1e3) && isfinite(m->power_w);
        j[i] = has ? m->energy_j * 1e3 : NAN; /* mJ */
        w[i] = has ? m->power_w : NAN;
        measured += has && isfinite(run->y[i]);
    }
    if (measured > 0 && run->nok > 0) { /* a section only for runs that measured energy */
        double sj = report_spearman(j, run->y, run->t.n), sw = report_spearman(w, run->y, run->t.n);
        sb_printf(o,
                  "<section class=\"part\"><h3>Energy</h3>\n<p>%zu variants have their energy per launch "
                  "measured (the board's, over a window of back-to-back launches, NVML; docs/results-format.md): "
                  "the objective against the energy per launch and against the mean power over the window.",
                  measured);
        if (isfinite(sj))
            caption_num(o, " Rank correlation with energy per launch: ", sj, ";");
        if (isfinite(sw))
            caption_num(o, " with power: ", sw, ".");
        sb_add(o, "</p>\n<div class=\"row\">");
        for (int k = 0; k < 2; k++) {
            const double *x = k == 0 ? j : w;
            report_range xr = x_scale(run, x);
            double lo = xr.lo < 0 ? xr.lo : 0, hi = xr.hi > 0 ? xr.hi : 1;
            report_pad(&lo, &hi);
            scatter(o, run, x, k == 0 ? "energy per launch (mJ)" : "mean power (W)", xr, lo < 0 && xr.lo >= 0 ? 0 : lo,
                    hi, k == 0 ? "objective against energy per launch" : "objective against mean power");
        }
        sb_add(o, "</div></section>\n");
    }
    free(j);
    free(w);
}

/* lo + t (hi - lo), without overflow for any finite bounds. */
static double lerp(double lo, double hi, double t)
{
    double width = hi - lo;
    return isfinite(width) ? lo + t * width : lo * (1 - t) + hi * t;
}

/* The histogram's objectives off the scale: a hollow red point at each edge they lie
 * beyond, its tooltip how many and from which value to which. */
static void off_scale_marks(strbuf *o, const report_frame *f, const report_run *run)
{
    for (int side = 0; side < 2; side++) {
        size_t count = 0;
        double from = NAN, to = NAN;
        for (size_t i = 0; i < run->nok; i++) {
            double v = run->sorted[i];
            if (report_in(run->scale, v) || (side == 0) != (v < run->scale.lo))
                continue;
            if (count++ == 0)
                from = v;
            to = v;
        }
        if (count == 0)
            continue;
        sb_printf(o, "<circle class=\"off\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\"><title>%zu variant%s off the scale, %s: ",
                  side == 0 ? f->x0 : f->x1, f->y1 - 8, count, count == 1 ? "" : "s", side == 0 ? "below" : "above");
        report_num(o, from);
        if (count > 1) {
            sb_add(o, " to ");
            report_num(o, to);
        }
        sb_add(o, "</title></circle>\n");
    }
}

void report_distribution(strbuf *o, arena *a, const report_run *run)
{
    sb_add(o, "<section class=\"part\"><h3>Distribution of the objective</h3>\n");
    if (run->nok == 0) {
        sb_add(o, "<p>No variant has an objective.</p></section>\n");
        return;
    }
    int nbins = report_bin_count(run->nok);
    size_t *counts = arena_alloc(a, sizeof *counts * (size_t)nbins);
    if (!counts)
        return;
    double lo = run->scale.lo, hi = run->scale.hi; /* the bins: the values on the scale */
    report_histogram(counts, nbins, lo, hi, run->sorted, run->nok);
    size_t cmax = 1;
    for (int b = 0; b < nbins; b++)
        cmax = counts[b] > cmax ? counts[b] : cmax;
    double med = report_quantile(run->sorted, run->nok, 0.5);
    sb_printf(o, "<p>%zu variants have an objective (ran correctly and were timed). ", run->nok);
    caption_num(o, "Minimum ", run->sorted[0], ", ");
    caption_num(o, "first quartile ", report_quantile(run->sorted, run->nok, 0.25), ", ");
    caption_num(o, "median ", med, ", ");
    caption_num(o, "third quartile ", report_quantile(run->sorted, run->nok, 0.75), ", ");
    caption_num(o, "maximum ", run->sorted[run->nok - 1], ". ");
    sb_printf(o, "%s is better; the median is the dashed line, the winner the red one.",
              run->t.maximize ? "Higher" : "Lower");
    if (run->noff > 0)
        sb_printf(o,
                  " <b>%zu variant%s off the scale</b> (more than %.0f interquartile ranges "
                  "beyond the quartiles): every chart draws them as hollow red points at its edge, their values in "
                  "their tooltips.",
                  run->noff, run->noff == 1 ? " lies" : "s lie", REPORT_FENCE);
    sb_add(o, "</p>\n");
    double xlo = lo, xhi = hi;
    if (xhi <= xlo)
        report_pad(&xlo, &xhi);
    report_frame f = {70, 10, 640, 220, xlo, xhi, 0, (double)cmax};
    report_svg_open(o, 660, 270, "histogram of the objective");
    report_axes(o, &f, run->objective, "variants");
    for (int b = 0; b < nbins; b++) {
        double b0 = lerp(lo, hi, (double)b / nbins), b1 = lerp(lo, hi, (double)(b + 1) / nbins);
        double x0 = hi > lo ? report_x(&f, b0) : f.x0 + (f.x1 - f.x0) * b / nbins;
        double x1 = hi > lo ? report_x(&f, b1) : f.x0 + (f.x1 - f.x0) * (b + 1) / nbins;
        double y = report_y(&f, (double)counts[b]);
        sb_printf(o,
                  "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>%zu</title>"
                  "</rect>\n",
                  x0 + 0.5, y, x1 - x0 - 1 > 0.5 ? x1 - x0 - 1 : 0.5, f.y1 - y, counts[b]);
    }
    double xm = report_x(&f, med);
    sb_printf(o, "<line class=\"median\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", xm, f.y0, xm, f.y1);
    if (run->best >= 0 && isfinite(run->y[run->best])) {
        double yb = run->y[run->best];
        double xb = report_in(run->scale, yb) ? report_x(&f, yb) : yb < lo ? f.x0 : f.x1;
        sb_printf(o, "<line class=\"winline\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", xb, f.y0, xb, f.y1);
    }
    off_scale_marks(o, &f, run);
    report_svg_close(o);
    sb_add(o, "</section>\n");
}

/* The px height of objective v in f: its place on the scale, else the edge it lies
 * beyond (lines to points off the scale end at the edge). */
static double objective_y(const report_frame *f, const report_run *run, double v)
{
    return report_in(run->scale, v) ? report_y(f, v) : v < run->scale.lo ? f->y1 : f->y0;
}

/* Param p's marginal effect: best (filled) and median (hollow) per value. */
static void marginal(strbuf *o, arena *a, const report_run *run, int p, double explained)
{
    const report_table *t = &run->t;
    int nl = t->nlevels[p];
    double *best = arena_alloc(a, sizeof *best * (size_t)(nl + 1));
    double *med = arena_alloc(a, sizeof *med * (size_t)(nl + 1));
    size_t *cnt = arena_alloc(a, sizeof *cnt * (size_t)(nl + 1));
    if (!best || !med || !cnt)
        return;
    report_marginal(best, med, cnt, t, p);
    double ylo, yhi;
    objective_axis(run, &ylo, &yhi);
    report_frame f = {62, 24, 290, 160, -0.5, nl - 0.5, ylo, yhi};
    char title[300];
    snprintf(title, sizeof title, "best and median %s by %s", run->objective, run->r->param_names[p]);
    report_svg_open(o, 300, 210, title);
    /* the frame and y axis only: the x axis is the param's values */
    report_frame_grid(o, &f, 'y', 5);
    char lab[64];
    report_short(lab, sizeof lab, run->r->param_names[p], 20);
    report_text(o, f.x0, 15, "start", "head", lab);
    if (isfinite(explained)) {
        snprintf(lab, sizeof lab, "explains %.0f %%", explained > 0 ? explained * 100 : 0.0);
        report_text(o, f.x1, 15, "end", "num", lab);
    }
    int step = nl <= 12 ? 1 : (nl + 11) / 12;
    for (int series = 0; series < 2; series++) {
        const double *v = series == 0 ? med : best;
        sb_printf(o, "<polyline class=\"%s\" points=\"", series == 0 ? "medline" : "bestline");
        for (int l = 0; l < nl; l++)
            if (isfinite(v[l]))
                sb_printf(o, "%.1f,%.1f ", report_x(&f, l), objective_y(&f, run, v[l]));
        sb_add(o, "\"/>\n");
    }
    report_range all = {-INFINITY, INFINITY};
    for (int l = 0; l < nl; l++) {
        double x = report_x(&f, l);
        if (l % step == 0) {
            report_short(lab, sizeof lab, run->levels[p][l], 8);
            report_text(o, x, f.y1 + 14, "middle", "num", lab);
        }
        strbuf tip = STRBUF_INIT; /* plain text: report_point escapes it */
        sb_add(&tip, run->levels[p][l]);
        caption_num(&tip, ": best ", best[l], ", ");
        caption_num(&tip, "median ", med[l], "");
        sb_printf(&tip, ", %zu variants", cnt[l]);
        const char *label = sb_ok(&tip) ? sb_cstr(&tip) : "";
        if (isfinite(med[l]))
            report_point(o, &f, all, run->scale, l, med[l], 0, "med", "3",
                         report_in(run->scale, med[l]) ? NULL : label);
        if (isfinite(best[l]))
            report_point(o, &f, all, run->scale, l, best[l], 0, "bestpt", "3.5", label);
        sb_free(&tip);
    }
    report_short(lab, sizeof lab, run->r->param_names[p], 30);
    report_text(o, (f.x0 + f.x1) / 2, f.y1 + 32, "middle", "axis", lab);
    report_svg_close(o);
}

void report_marginals(strbuf *o, arena *a, const report_run *run)
{
    const report_table *t = &run->t;
    sb_add(o, "<section class=\"part\"><h3>Each param's effect</h3>\n");
    if (run->nok == 0 || t->nparams == 0) {
        sb_add(o, run->nok == 0 ? "<p>No variant has an objective.</p></section>\n"
                                : "<p>The spec has no params.</p></section>\n");
        return;
    }
    sb_add(o, "<p>For each value of a param: the best (filled, solid line) and the median (hollow, dashed) "
              "objective over the variants with that value, the others anything. Params that explain the most "
              "variance on their own come first.</p>\n<div class=\"row\">");
    report_pair *order = arena_alloc(a, sizeof *order * (size_t)t->nparams);
    if (!order)
        return;
    for (int p = 0; p < t->nparams; p++)
        order[p] = (report_pair){p, -1, report_explained(t, p, -1)};
    for (int i = 1; i < t->nparams; i++) /* insertion sort: few params, stable */
        for (int j = i; j > 0; j--) {
            double x = order[j].explained, y = order[j - 1].explained;
            bool before = isfinite(x) && (!isfinite(y) || x > y);
            if (!before)
                break;
            report_pair tmp = order[j];
            order[j] = order[j - 1];
            order[j - 1] = tmp;
        }
    for (int k = 0; k < t->nparams; k++)
        marginal(o, a, run, order[k].a, order[k].explained);
    sb_add(o, "</div></section>\n");
}

void report_progress(strbuf *o, arena *a, const report_run *run)
{
    const char *how = run->r->strategy ? run->r->strategy : "exhaustive";
    if (strcmp(how, "exhaustive") == 0 || run->nok == 0)
        return;
    size_t n = run->t.n;
    double *bsf = arena_alloc(a, sizeof *bsf * n);
    if (!bsf)
        return;
    report_best_so_far(bsf, run->y, n, run->t.maximize);
    size_t found = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(bsf[i]) && (i == 0 || bsf[i] != bsf[i - 1]))
            found = i;
    sb_add(o, "<section class=\"part\"><h3>The search: best so far</h3>\n<p>");
    report_esc(o, how);
    sb_printf(o,
              " search: each dot is one evaluation, in the order run (entries read back from a journal come "
              "first); the line is the best found so far. Its best was found at evaluation %zu of %zu.</p>\n",
              found + 1, n);
    double ylo, yhi;
    objective_axis(run, &ylo, &yhi);
    report_frame f = {70, 10, 640, 220, 1, n > 1 ? (double)n : 2, ylo, yhi};
    report_svg_open(o, 660, 270, "best so far against evaluations");
    report_axes(o, &f, "evaluation", run->objective);
    report_range all = {-INFINITY, INFINITY};
    for (size_t i = 0; i < n; i++)
        if (isfinite(run->y[i]))
            report_point(o, &f, all, run->scale, (double)(i + 1), run->y[i], 0, "pt", "2",
                         report_in(run->scale, run->y[i]) ? NULL : run->objective);
    sb_add(o, "<polyline class=\"bestline\" points=\"");
    bool started = false;
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(bsf[i]))
            continue;
        double x = report_x(&f, (double)(i + 1)), y = objective_y(&f, run, bsf[i]);
        if (started && i > 0)
            sb_printf(o, "%.1f,%.1f ", x, objective_y(&f, run, bsf[i - 1])); /* a step */
        sb_printf(o, "%.1f,%.1f ", x, y);
        started = true;
    }
    sb_add(o, "\"/>\n");
    report_svg_close(o);
    sb_add(o, "</section>\n");
}
