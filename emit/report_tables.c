/* report_tables.c - one run's tables (report.h): the winner beside the median variant
 * and the reference, the failures grouped by cause with their messages; and the
 * comparison of several runs (files, sizes) side by side. */
#include "report.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "failures.h"

/* One cell of a figure of entry i (-1: an empty cell). */
typedef enum field { F_OBJECTIVE, F_TIME, F_REGS, F_OCC, F_BLOCK, F_GRID, F_SPILLS, F_STATUS } field;

static void cell(strbuf *o, const report_run *run, int64_t i, field f)
{
    sb_add(o, "<td>");
    if (i < 0) {
        sb_add(o, "</td>");
        return;
    }
    const cutune_measurement *m = &run->r->records[i]->m;
    const cutune_variant *v = &run->r->records[i]->v;
    switch (f) {
    case F_OBJECTIVE: report_num(o, run->y[i]); break;
    case F_TIME:
        if (m->timed)
            report_num(o, m->median_ms);
        else
            sb_add(o, "n/a");
        break;
    case F_REGS: sb_printf(o, "%d", m->registers); break;
    case F_OCC:
        sb_printf(o, "%.0f %%", m->occupancy * 100);
        if (m->limiter && *m->limiter) {
            sb_add(o, " (");
            report_esc(o, m->limiter);
            sb_addc(o, ')');
        }
        break;
    case F_BLOCK:
        sb_printf(o, "%lld &times; %lld &times; %lld", (long long)v->block[0], (long long)v->block[1],
                  (long long)v->block[2]);
        break;
    case F_GRID:
        sb_printf(o, "%lld &times; %lld &times; %lld", (long long)v->grid[0], (long long)v->grid[1],
                  (long long)v->grid[2]);
        break;
    case F_SPILLS: sb_printf(o, "%lld / %lld B", (long long)m->spill_stores, (long long)m->spill_loads); break;
    case F_STATUS:
        report_esc(o, outcome_name(run->r->records[i]->out));
        if (m->pruned)
            sb_add(o, ", pruned");
        break;
    }
    sb_add(o, "</td>");
}

static void row(strbuf *o, const report_run *run, const char *name, field f)
{
    sb_add(o, "<tr><th>");
    report_esc(o, name);
    sb_add(o, "</th>");
    cell(o, run, run->best, f);
    cell(o, run, run->median_entry, f);
    sb_add(o, "</tr>\n");
}

void report_winner(strbuf *o, const report_run *run)
{
    const cutune_tune_result *r = run->r;
    sb_add(o, "<section class=\"part\"><h3>The winner</h3>\n");
    if (run->best < 0)
        sb_add(o, "<p class=\"warn\">No variant ran correctly and was timed in full: there is no winner.</p>\n");
    if (run->best < 0 && run->median_entry < 0) {
        sb_add(o, "</section>\n");
        return;
    }
    sb_add(o, "<table class=\"kv\"><tr><th></th><th>winner</th><th>median variant</th></tr>\n");
    for (int p = 0; p < r->nparams; p++) {
        sb_add(o, "<tr><th>");
        report_esc(o, r->param_names[p]);
        sb_add(o, "</th>");
        for (int k = 0; k < 2; k++) {
            int64_t i = k == 0 ? run->best : run->median_entry;
            sb_add(o, i >= 0 && i == run->best && k == 0 ? "<td class=\"hl\">" : "<td>");
            if (i >= 0)
                report_esc(o, report_value_of(run, (size_t)i, p));
            sb_add(o, "</td>");
        }
        sb_add(o, "</tr>\n");
    }
    char name[200];
    snprintf(name, sizeof name, "%s (%s)", run->objective, run->t.maximize ? "higher is better" : "lower is better");
    row(o, run, name, F_OBJECTIVE);
    row(o, run, "time (median, ms)", F_TIME);
    row(o, run, "registers per thread", F_REGS);
    row(o, run, "theoretical occupancy", F_OCC);
    row(o, run, "block", F_BLOCK);
    row(o, run, "grid", F_GRID);
    row(o, run, "spill stores / loads", F_SPILLS);
    row(o, run, "status", F_STATUS);
    sb_add(o, "</table>\n<p>");
    if (run->best >= 0 && run->median_entry >= 0 && run->y[run->median_entry] != 0) {
        double ratio = run->y[run->best] / run->y[run->median_entry];
        if (!run->t.maximize && run->y[run->best] != 0)
            ratio = 1 / ratio;
        sb_add(o, "The winner is ");
        report_num(o, ratio);
        sb_add(o, "&times; as good as the median variant. ");
    }
    sb_add(o, "Reference (what outputs were checked against): ");
    if (r->summary.reference) {
        report_esc(o, r->summary.reference);
        sb_add(o, "; the results file does not record its time.");
    } else {
        sb_add(o, "none recorded (the spec has no verify).");
    }
    sb_add(o, "</p>\n</section>\n");
}

void report_summary(strbuf *o, arena *a, const report_run *run)
{
    const report_table *t = &run->t;
    const cutune_tune_result *r = run->r;
    sb_add(o, "<ul class=\"short\">\n");
    if (run->best >= 0) {
        sb_add(o, "<li>The winner reaches ");
        report_num(o, run->y[run->best]);
        sb_addc(o, ' ');
        report_esc(o, run->objective);
        if (run->median_entry >= 0 && run->y[run->median_entry] != 0 && run->y[run->best] != 0) {
            double ratio = run->y[run->best] / run->y[run->median_entry];
            sb_add(o, ", ");
            report_num(o, t->maximize ? ratio : 1 / ratio);
            sb_add(o, "&times; the median variant");
        }
        sb_add(o, ".</li>\n");
    } else {
        sb_add(o, "<li>No winner: no variant ran correctly and was timed in full.</li>\n");
    }
    int npairs = t->nparams * (t->nparams - 1) / 2;
    report_pair *pairs = npairs > 0 ? arena_alloc(a, sizeof *pairs * (size_t)npairs) : NULL;
    if (pairs && run->nok > 0 && report_rank_pairs(pairs, t) > 0 && isfinite(pairs[0].explained)) {
        sb_add(o, "<li><b>");
        report_esc(o, r->param_names[pairs[0].a]);
        sb_add(o, "</b> and <b>");
        report_esc(o, r->param_names[pairs[0].b]);
        sb_printf(o, "</b> together explain the most of the objective's variance (%.0f %%).</li>\n",
                  pairs[0].explained > 0 ? pairs[0].explained * 100 : 0.0);
    }
    double *occ = arena_alloc(a, sizeof *occ * (t->n ? t->n : 1));
    if (occ && run->nok >= 3) {
        for (size_t i = 0; i < t->n; i++)
            occ[i] = r->records[i]->m.occupancy;
        double rho = report_spearman(occ, run->y, t->n);
        if (isfinite(rho)) {
            sb_add(o, "<li>Theoretical occupancy ");
            sb_add(o, fabs(rho) < 0.3 ? "hardly predicts" : fabs(rho) < 0.7 ? "partly predicts" : "largely predicts");
            sb_add(o, " the objective (rank correlation ");
            report_num(o, rho);
            sb_add(o, ").</li>\n");
        }
    }
    size_t failed = 0;
    for (size_t i = 0; i < t->n; i++)
        failed += r->records[i]->out != OUTCOME_OK;
    sb_printf(o, "<li>%zu of %zu variants failed%s.</li>\n", failed, t->n, failed ? " (below, by cause)" : "");
    strbuf where = STRBUF_INIT; /* where the wrong ones, and those that failed on the GPU, lie */
    failures_where(&where, r);
    for (const char *l = sb_ok(&where) ? sb_cstr(&where) : ""; *l;) {
        const char *end = strchr(l, '\n');
        size_t len = end ? (size_t)(end - l) : strlen(l);
        char *line = arena_strndup(a, l, len);
        if (line) {
            line[0] = (char)toupper((unsigned char)line[0]); /* a sentence of its own here */
            sb_add(o, "<li>");
            report_esc(o, line);
            sb_add(o, ".</li>\n");
        }
        l += len + (end ? 1 : 0);
    }
    sb_free(&where);
    sb_add(o, "</ul>\n");
}

/* The failures' causes, in the order shown. */
static const outcome failure_order[] = {
    OUTCOME_COMPILE_ERROR, OUTCOME_CANNOT_LAUNCH, OUTCOME_LOAD_ERROR, OUTCOME_LAUNCH_ERROR,
    OUTCOME_WRONG,         OUTCOME_TIMEOUT,       OUTCOME_CRASHED,    OUTCOME_NOT_RUN,
};

static const char *failure_meaning(outcome c)
{
    switch (c) {
    case OUTCOME_COMPILE_ERROR: return "NVRTC refused the variant";
    case OUTCOME_CANNOT_LAUNCH: return "too many threads, registers or shared memory per block for the device";
    case OUTCOME_LOAD_ERROR: return "the driver would not load the module";
    case OUTCOME_LAUNCH_ERROR: return "the launch or the kernel's run failed (a fault, a trap)";
    case OUTCOME_WRONG: return "ran, but its outputs differ from the reference's";
    case OUTCOME_TIMEOUT: return "no answer within the time limit: a hang, killed";
    case OUTCOME_CRASHED: return "the worker process died running it";
    default: return "never run (its arguments could not be evaluated, or the run stopped first)";
    }
}

/* The configuration of entry i as "a=1 b=2", escaped. */
static void config_text(strbuf *o, const report_run *run, size_t i)
{
    for (int p = 0; p < run->r->nparams; p++) {
        if (p)
            sb_addc(o, ' ');
        report_esc(o, run->r->param_names[p]);
        sb_addc(o, '=');
        report_esc(o, report_value_of(run, i, p));
    }
}

/* The reason of entry i, "" when none. */
static const char *reason_of(const report_run *run, size_t i)
{
    const char *s = run->r->records[i]->m.reason;
    return s ? s : "";
}

enum { MAX_REASONS = 12, MAX_EXAMPLES = 3, MAX_REASON_BYTES = 4000, MAX_TRACKED = 256 };

/* One cause's group: its distinct reasons, most frequent first, each with examples. */
static void failure_group(strbuf *o, arena *a, const report_run *run, outcome c, size_t count)
{
    size_t n = run->t.n;
    sb_add(o, "<details class=\"fail\"><summary><b>");
    report_esc(o, outcome_name(c));
    sb_printf(o, "</b>: %zu variant%s &mdash; %s</summary>\n", count, count == 1 ? "" : "s", failure_meaning(c));
    /* first[i]: entry i is the first with its reason (among this cause's). */
    size_t *first = arena_alloc(a, sizeof *first * n), *times = arena_alloc(a, sizeof *times * n);
    if (!first || !times)
        return;
    size_t nreasons = 0, untracked = 0;
    for (size_t i = 0; i < n; i++) {
        if (run->r->records[i]->out != c)
            continue;
        size_t k = 0;
        while (k < nreasons && strcmp(reason_of(run, first[k]), reason_of(run, i)) != 0)
            k++;
        if (k == nreasons && nreasons == MAX_TRACKED) { /* bounded work: messages that differ per variant */
            untracked++;
            continue;
        }
        if (k == nreasons) {
            first[nreasons] = i;
            times[nreasons++] = 0;
        }
        times[k]++;
    }
    for (size_t shown = 0; shown < nreasons && shown < MAX_REASONS; shown++) {
        size_t k = shown; /* the most frequent of those left */
        for (size_t j = shown + 1; j < nreasons; j++)
            if (times[j] > times[k])
                k = j;
        size_t tf = first[shown], tt = times[shown];
        first[shown] = first[k], times[shown] = times[k];
        first[k] = tf, times[k] = tt;
        const char *reason = reason_of(run, first[shown]);
        sb_printf(o, "<div class=\"reason\"><p>%zu &times;, e.g. ", times[shown]);
        size_t ex = 0;
        for (size_t i = first[shown]; i < n && ex < MAX_EXAMPLES; i++)
            if (run->r->records[i]->out == c && strcmp(reason_of(run, i), reason) == 0) {
                sb_add(o, ex ? "; <code>" : "<code>");
                config_text(o, run, i);
                sb_add(o, "</code>");
                ex++;
            }
        sb_add(o, "</p><pre>");
        size_t len = strlen(reason);
        if (len > MAX_REASON_BYTES) {
            size_t cut = MAX_REASON_BYTES;
            while (cut > 0 && ((unsigned char)reason[cut] & 0xC0) == 0x80)
                cut--;
            char *part = arena_strndup(a, reason, cut);
            report_esc(o, part);
            sb_printf(o, "\n[%zu more bytes]", len - cut);
        } else {
            report_esc(o, *reason ? reason : "(no message recorded)");
        }
        sb_add(o, "</pre></div>\n");
    }
    if (nreasons > MAX_REASONS || untracked)
        sb_printf(o, "<p>and %s%zu other messages.</p>\n", untracked ? "more than " : "",
                  nreasons > MAX_REASONS ? nreasons - MAX_REASONS : 0);
    sb_add(o, "</details>\n");
}

void report_failures(strbuf *o, arena *a, const report_run *run)
{
    size_t counts[OUTCOME_COUNT] = {0};
    size_t total = 0, pruned = 0;
    for (size_t i = 0; i < run->t.n; i++) {
        outcome c = run->r->records[i]->out;
        if (c != OUTCOME_OK) {
            counts[c < OUTCOME_COUNT ? c : OUTCOME_NOT_RUN]++;
            total++;
        } else if (run->r->records[i]->m.pruned) {
            pruned++;
        }
    }
    sb_add(o, "<section class=\"part\"><h3>Failures</h3>\n");
    if (total == 0) {
        sb_printf(o, "<p>None: every one of the %zu variants ran correctly", run->t.n);
        if (pruned)
            sb_printf(o, " (%zu of them pruned: timing stopped early, they could not win)", pruned);
        sb_add(o, ".</p>\n</section>\n");
        return;
    }
    sb_printf(o, "<p>%zu of %zu variants failed, by cause (open one for its messages):</p>\n", total, run->t.n);
    for (size_t k = 0; k < sizeof failure_order / sizeof *failure_order; k++)
        if (counts[failure_order[k]])
            failure_group(o, a, run, failure_order[k], counts[failure_order[k]]);
    sb_add(o, "</section>\n");
}

/* ---- several runs ----------------------------------------------------------------- */

/* Box plots of the runs whose objective is named `objective`, one row each. */
static void boxes(strbuf *o, const report_run *runs, int nruns, const char *objective)
{
    double lo = INFINITY, hi = -INFINITY;
    int rows = 0;
    for (int k = 0; k < nruns; k++)
        if (strcmp(runs[k].objective, objective) == 0 && runs[k].nok > 0) {
            lo = fmin(lo, runs[k].scale.lo); /* the runs' scales: outliers drawn at the edge */
            hi = fmax(hi, runs[k].scale.hi);
            rows++;
        }
    if (rows == 0)
        return;
    report_range xr = {lo, hi}, all = {-INFINITY, INFINITY};
    report_pad(&lo, &hi);
    int h = 40 + rows * 30 + 40;
    report_frame f = {200, 10, 700, 10 + rows * 30.0 + 10, lo, hi, 0, 1};
    char title[300];
    snprintf(title, sizeof title, "distribution of %s per run", objective);
    report_svg_open(o, 720, h, title);
    report_frame_grid(o, &f, 'x', 7);
    report_text(o, (f.x0 + f.x1) / 2, f.y1 + 34, "middle", "axis", objective);
    int r = 0;
    for (int k = 0; k < nruns; k++) {
        const report_run *run = &runs[k];
        if (strcmp(run->objective, objective) != 0 || run->nok == 0)
            continue;
        double y = f.y0 + 10 + r * 30 + 15;
        char lab[64];
        report_short(lab, sizeof lab, run->label, 28);
        report_text(o, f.x0 - 8, y + 4, "end", "num", lab);
        double q[5] = {run->sorted[0], report_quantile(run->sorted, run->nok, 0.25),
                       report_quantile(run->sorted, run->nok, 0.5), report_quantile(run->sorted, run->nok, 0.75),
                       run->sorted[run->nok - 1]};
        double x[5];
        for (int j = 0; j < 5; j++)
            x[j] = report_in(xr, q[j]) ? report_x(&f, q[j]) : q[j] < xr.lo ? f.x0 : f.x1;
        sb_printf(o, "<line class=\"whisker\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x[0], y, x[4], y);
        sb_printf(o, "<rect class=\"box\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"16\"/>\n", x[1], y - 8,
                  x[3] - x[1] > 1 ? x[3] - x[1] : 1);
        sb_printf(o, "<line class=\"boxmed\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", x[2], y - 8, x[2],
                  y + 8);
        report_frame row = {f.x0, y - 1, f.x1, y + 1, f.xlo, f.xhi, 0, 1}; /* its middle: y */
        for (int j = 0; j < 5; j += 4)
            if (!report_in(xr, q[j]))
                report_point(o, &row, xr, all, q[j], 0.5, 0, "pt", "4", j == 0 ? "the least" : "the greatest");
        if (run->best >= 0)
            report_point(o, &row, xr, all, run->y[run->best], 0.5, 0, "best", "4", NULL);
        r++;
    }
    report_svg_close(o);
}

void report_comparison(strbuf *o, const report_run *runs, int nruns)
{
    sb_add(o, "<section class=\"part\" id=\"compare\"><h2>The runs side by side</h2>\n"
              "<table class=\"list\"><tr><th>run</th><th>kernel</th><th>device</th><th>strategy</th>"
              "<th>variants</th><th>with an objective</th><th>objective</th><th>winner</th><th>its configuration</th>"
              "</tr>\n");
    for (int k = 0; k < nruns; k++) {
        const report_run *run = &runs[k];
        const cutune_tune_result *r = run->r;
        sb_printf(o, "<tr><td><a href=\"#run%d\">", k);
        report_esc(o, run->label);
        sb_add(o, "</a></td><td>");
        report_esc(o, r->kernel);
        if (r->block && strcmp(r->block, r->kernel) != 0) {
            sb_add(o, " as ");
            report_esc(o, r->block);
        }
        sb_add(o, "</td><td>");
        report_esc(o, r->device.name);
        sb_add(o, "</td><td>");
        report_esc(o, r->strategy);
        sb_printf(o, "</td><td>%zu</td><td>%zu</td><td>", run->t.n, run->nok);
        report_esc(o, run->objective);
        sb_add(o, run->t.maximize ? " &uarr;" : " &darr;");
        sb_add(o, "</td><td>");
        if (run->best >= 0)
            report_num(o, run->y[run->best]);
        else
            sb_add(o, "none");
        sb_add(o, "</td><td><code>");
        if (run->best >= 0)
            config_text(o, run, (size_t)run->best);
        sb_add(o, "</code></td></tr>\n");
    }
    sb_add(o, "</table>\n<p>The distribution of each objective per run: the box from the first to the third "
              "quartile, the median a bar across it, the whiskers from the minimum to the maximum, the winner a red "
              "dot.</p>\n");
    for (int k = 0; k < nruns; k++) {
        bool seen = false;
        for (int j = 0; j < k && !seen; j++)
            seen = strcmp(runs[j].objective, runs[k].objective) == 0;
        if (!seen)
            boxes(o, runs, nruns, runs[k].objective);
    }
    sb_add(o, "</section>\n");
}
