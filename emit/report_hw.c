/* report_hw.c - one run's hardware counters (report.h): the variants that were
 * launched once more under the profiler after timing (`--metrics`), best objective first,
 * each counter in a unit people read, two derived figures, and achieved against
 * theoretical occupancy. The counters never enter the times; docs/report.md says what
 * each column is. */
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/profiler.h"
/* The counters the section reads by name (the default set's). */
static const char m_achieved[] = "sm__warps_active.avg.pct_of_peak_sustained_active";
static const char m_requests[] = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
static const char m_sectors[] = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
static const char m_warp_ratio[] = "smsp__thread_inst_executed_per_inst_executed.ratio";

/* Whether s ends with suffix. */
static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

report_hw_unit report_hw_unit_of(const char *metric)
{
    if (!metric)
        return (report_hw_unit){1, ""};
    if (strcmp(metric, m_warp_ratio) == 0) /* threads per warp instruction, of 32 */
        return (report_hw_unit){100.0 / 32.0, "%"};
    if (strncmp(metric, "gpu__time_duration", 18) == 0) /* ns */
        return (report_hw_unit){1e-3, "us"};
    if (ends_with(metric, ".per_second"))
        return strstr(metric, "bytes") ? (report_hw_unit){1e-9, "GB/s"} : (report_hw_unit){1, "/s"};
    if (strstr(metric, ".pct"))
        return (report_hw_unit){1, "%"};
    return (report_hw_unit){1, ""};
}

double report_hw_ratio(double num, double den)
{
    return isfinite(num) && isfinite(den) && den > 0 ? num / den : NAN;
}

/* The index of counter `name` among the run's, -1 when it was not read. */
static int counter(const cutune_tune_result *r, const char *name)
{
    for (int k = 0; k < r->nhw; k++)
        if (r->hw_names[k] && strcmp(r->hw_names[k], name) == 0)
            return k;
    return -1;
}

/* Counter k of entry i, NaN when absent. */
static double hw_of(const cutune_tune_result *r, size_t i, int k)
{
    const record *rec = r->records[i];
    return k >= 0 && rec->m.profiled && rec->hw && k < rec->m.nhw ? rec->hw[k] : NAN;
}

/* An entry in the order shown: its index and objective, the run's direction. */
typedef struct hw_order {
    size_t i;
    double y;
    bool maximize;
} hw_order;

/* Best objective first (NaN last), then in the file's order. */
static int cmp_order(const void *pa, const void *pb)
{
    const hw_order *x = pa, *y = pb;
    bool fx = isfinite(x->y), fy = isfinite(y->y);
    if (fx != fy)
        return fx ? -1 : 1;
    if (fx && x->y != y->y)
        return (x->maximize ? x->y > y->y : x->y < y->y) ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* The heading of counter k: nvprof's name when it has one (the full name in a tooltip),
 * and its unit. */
static void head(strbuf *o, const char *metric)
{
    const char *short_name = prof_nvprof_name(metric);
    report_hw_unit u = report_hw_unit_of(metric);
    sb_add(o, "<th title=\"");
    report_esc(o, metric);
    sb_add(o, "\">");
    report_esc(o, short_name ? short_name : metric);
    if (*u.unit) {
        sb_add(o, " (");
        report_esc(o, u.unit);
        sb_addc(o, ')');
    }
    sb_add(o, "</th>");
}

/* The table's rows: the profiled entries in `order`, first to last (exclusive). */
static void rows(strbuf *o, const report_run *run, const hw_order *order, size_t first, size_t last, int ksec, int kreq)
{
    const cutune_tune_result *r = run->r;
    for (size_t n = first; n < last; n++) {
        size_t i = order[n].i;
        const cutune_measurement *m = &r->records[i]->m;
        sb_add(o, (int64_t)i == run->best ? "<tr class=\"hwrow\"><td class=\"hl\">" : "<tr class=\"hwrow\"><td>");
        sb_printf(o, "%llu</td>", (unsigned long long)r->records[i]->v.ordinal);
        for (int p = 0; p < r->nparams; p++) {
            sb_add(o, "<td>");
            report_esc(o, report_value_of(run, i, p));
            sb_add(o, "</td>");
        }
        sb_add(o, "<td>");
        report_num(o, run->y[i]);
        sb_add(o, "</td><td>");
        if (m->timed)
            report_num(o, m->median_ms);
        else
            sb_add(o, "n/a");
        sb_printf(o, "</td><td>%.0f %%</td>", m->occupancy * 100);
        for (int k = 0; k < r->nhw; k++) {
            sb_add(o, "<td>");
            report_num(o, hw_of(r, i, k) * report_hw_unit_of(r->hw_names[k]).scale);
            sb_add(o, "</td>");
        }
        if (ksec >= 0 && kreq >= 0) {
            sb_add(o, "<td>");
            report_num(o, report_hw_ratio(hw_of(r, i, ksec), hw_of(r, i, kreq)));
            sb_add(o, "</td>");
        }
        sb_add(o, "</tr>\n");
    }
}

/* The table's head row, in a div that scrolls sideways: a column per counter is wider
 * than the page. */
static void table_head(strbuf *o, const report_run *run, int ksec, int kreq)
{
    const cutune_tune_result *r = run->r;
    sb_add(o, "<div class=\"wide\"><table class=\"list\"><tr><th>index</th>");
    for (int p = 0; p < r->nparams; p++) {
        sb_add(o, "<th>");
        report_esc(o, r->param_names[p]);
        sb_add(o, "</th>");
    }
    sb_add(o, "<th>");
    report_esc(o, run->objective);
    sb_add(o, "</th><th>time (median, ms)</th><th>theoretical occupancy</th>");
    for (int k = 0; k < r->nhw; k++)
        head(o, r->hw_names[k]);
    if (ksec >= 0 && kreq >= 0)
        sb_add(o, "<th title=\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum / "
                  "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\">sectors/request</th>");
    sb_add(o, "</tr>\n");
}

/* Achieved occupancy (counter k, %) against theoretical occupancy (%) for the entries in
 * order[0 .. n), with the diagonal where they would be equal; the winner in red. */
static void occupancy_chart(strbuf *o, const report_run *run, const hw_order *order, size_t n, int k)
{
    const cutune_tune_result *r = run->r;
    report_frame f = {70, 10, 370, 250, 0, 100, 0, 100};
    report_svg_open(o, 390, 300, "achieved occupancy against theoretical occupancy");
    report_axes(o, &f, "theoretical occupancy (%)", "achieved occupancy (%)");
    sb_printf(o, "<line class=\"diag\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", report_x(&f, 0),
              report_y(&f, 0), report_x(&f, 100), report_y(&f, 100));
    for (size_t pass = 0; pass < 2; pass++) /* the winner last, on top */
        for (size_t j = 0; j < n; j++) {
            size_t i = order[j].i;
            bool win = (int64_t)i == run->best;
            double x = r->records[i]->m.occupancy * 100, y = hw_of(r, i, k);
            if (win != (pass == 1) || !isfinite(x) || !isfinite(y))
                continue;
            sb_printf(o, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\"><title>", win ? "best" : "pt",
                      report_x(&f, x < 0     ? 0
                                   : x > 100 ? 100
                                             : x),
                      report_y(&f, y < 0     ? 0
                                   : y > 100 ? 100
                                             : y),
                      win ? "5" : "3");
            for (int p = 0; p < r->nparams; p++) {
                if (p)
                    sb_addc(o, ' ');
                report_esc(o, r->param_names[p]);
                sb_addc(o, '=');
                report_esc(o, report_value_of(run, i, p));
            }
            sb_add(o, ": achieved ");
            report_num(o, y);
            sb_add(o, " % of theoretical ");
            report_num(o, x);
            sb_add(o, " %</title></circle>\n");
        }
    report_svg_close(o);
}

/* The chosen variants that have no counters, with why (their note). */
static void unread(strbuf *o, const report_run *run, size_t count)
{
    const cutune_tune_result *r = run->r;
    sb_printf(o, "<details><summary>%zu chosen variant%s without counters</summary><ul>\n", count,
              count == 1 ? "" : "s");
    size_t shown = 0;
    for (size_t i = 0; i < run->t.n && shown < 20; i++) {
        const cutune_measurement *m = &r->records[i]->m;
        if (m->profiled || !m->profile_note)
            continue;
        sb_printf(o, "<li>index %llu: ", (unsigned long long)r->records[i]->v.ordinal);
        report_esc(o, m->profile_note);
        sb_add(o, "</li>\n");
        shown++;
    }
    if (shown < count)
        sb_printf(o, "<li>and %zu more</li>\n", count - shown);
    sb_add(o, "</ul></details>\n");
}

/* Rows shown before the rest go into a closed <details>. */
#define HW_ROWS_OPEN 40

void report_hw(strbuf *o, const report_run *run)
{
    const cutune_tune_result *r = run->r;
    if (r->nhw <= 0)
        return;
    size_t profiled = 0, noted = 0;
    for (size_t i = 0; i < run->t.n; i++) {
        const cutune_measurement *m = &r->records[i]->m;
        profiled += m->profiled && r->records[i]->hw;
        noted += !m->profiled && m->profile_note;
    }
    const char *note = r->summary.profile_note;
    if (profiled == 0 && !note && noted == 0)
        return; /* asked for, but nothing chosen was read and nothing says why: nothing to show */
    hw_order *order = malloc(sizeof *order * (profiled + 1));
    if (!order)
        return;
    size_t n = 0;
    for (size_t i = 0; i < run->t.n; i++)
        if (r->records[i]->m.profiled && r->records[i]->hw)
            order[n++] = (hw_order){i, run->y[i], run->t.maximize};
    qsort(order, n, sizeof *order, cmp_order);
    sb_printf(o, "<section class=\"part\"><h3>Hardware counters</h3>\n<p>%zu variant%s, best ", n, n == 1 ? "" : "s");
    report_esc(o, run->objective);
    sb_add(o, " first, launched once more under CUPTI's range profiler after timing (");
    if (r->profile_top > 0)
        sb_printf(o, "the best %d; ", r->profile_top);
    sb_add(o, "a separate launch, replayed once per pass: the counters are never part of the times). Each "
              "counter's column is headed by nvprof's name for it where it has one (the full name in its "
              "tooltip), with its unit: % of the peak, GB/s, us for the kernel's duration. Warp execution "
              "efficiency is threads per warp instruction over 32, as a share; sectors/request is global load "
              "sectors over global load requests (4 is ideal for coalesced 4-byte loads).</p>\n");
    if (note) {
        sb_add(o, "<p class=\"warn\">");
        report_esc(o, note);
        sb_add(o, "</p>\n");
    }
    if (noted)
        unread(o, run, noted);
    int ksec = counter(r, m_sectors), kreq = counter(r, m_requests), kach = counter(r, m_achieved);
    if (n > 0) {
        table_head(o, run, ksec, kreq);
        rows(o, run, order, 0, n < HW_ROWS_OPEN ? n : HW_ROWS_OPEN, ksec, kreq);
        sb_add(o, "</table></div>\n");
        if (n > HW_ROWS_OPEN) {
            sb_printf(o, "<details><summary>The other %zu profiled variants</summary>\n", n - HW_ROWS_OPEN);
            table_head(o, run, ksec, kreq);
            rows(o, run, order, HW_ROWS_OPEN, n, ksec, kreq);
            sb_add(o, "</table></div></details>\n");
        }
    }
    if (n > 0 && kach >= 0) {
        sb_add(o, "<p>Achieved occupancy (the warps resident on average, as a share of the most an SM holds) "
                  "against the theoretical occupancy the model gives: a variant below the dashed diagonal keeps "
                  "fewer warps resident than its resources allow (a tail of blocks, uneven work, a short "
                  "launch).</p>\n");
        occupancy_chart(o, run, order, n, kach);
    }
    sb_add(o, "</section>\n");
    free(order);
}
