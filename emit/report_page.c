/* report_page.c - the report's page (report.h): the head and its styles, a contents
 * list, the comparison of several runs, and one section per run (a results file, or
 * each size of a run over sizes). The page needs nothing but itself: no script, style
 * sheet, font or image is fetched; the charts are inline SVG. */
#include "report.h"

#include <stdio.h>
#include <string.h>

static const char page_style[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1d1d1f;margin:0 auto;"
    "max-width:1180px;padding:0 18px 40px}\n"
    "h1{font-size:24px;margin:18px 0 4px}h2{font-size:20px;border-bottom:2px solid #444;margin-top:34px}"
    "h3{font-size:16px;margin:22px 0 6px}\n"
    ".meta{color:#444}.warn{color:#a00;font-weight:bold}\n"
    ".row{display:flex;flex-wrap:wrap;gap:14px;align-items:flex-start}\n"
    "table{border-collapse:collapse;margin:6px 0}th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;"
    "vertical-align:top}\n"
    "table.kv th{background:#f3f3f3}td.hl{background:#fff3b0;font-weight:bold}\n"
    "code,pre{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:12px}\n"
    "pre{background:#f6f6f6;border:1px solid #ddd;padding:6px;white-space:pre-wrap;overflow-wrap:anywhere;"
    "max-height:300px;overflow:auto}\n"
    "ul.short{background:#f4f7fb;border-left:4px solid #3465a4;padding:8px 8px 8px 28px}\n"
    "details{margin:6px 0}summary{cursor:pointer}\n"
    "div.wide{overflow-x:auto;max-width:100%}\n"
    "svg.chart{background:#fff;border:1px solid #e2e2e2}\n"
    "svg text{font-family:system-ui,sans-serif;font-size:11px;fill:#222}\n"
    "svg text.head{font-size:12px;font-weight:bold}svg text.axis{font-size:12px}\n"
    "svg text.cell{font-size:10px}svg text.dark{fill:#111}svg text.light{fill:#fff}\n"
    "svg .frame{fill:none;stroke:#999}svg .grid{stroke:#eee}svg .tick{stroke:#999}\n"
    "svg .pt{fill:#3465a4;fill-opacity:.45}svg .best{fill:#d62728;stroke:#000;stroke-width:1}\n"
    "svg .win{stroke:#d62728;stroke-width:3}svg .bar{fill:#5b8cc8}\n"
    "svg .median{stroke:#222;stroke-dasharray:5 3;stroke-width:1.5}svg .winline{stroke:#d62728;stroke-width:2}\n"
    "svg .bestline{fill:none;stroke:#d62728;stroke-width:2}svg .medline{fill:none;stroke:#3465a4;"
    "stroke-dasharray:4 3}\n"
    "svg .bestpt{fill:#d62728}svg .med{fill:#fff;stroke:#3465a4;stroke-width:1.5}\n"
    "svg .box{fill:#cfe0f5;stroke:#3465a4}svg .boxmed{stroke:#111;stroke-width:2}svg .whisker{stroke:#3465a4}\n"
    "svg .diag{stroke:#888;stroke-dasharray:5 3}svg .off{fill:none;stroke:#d62728;stroke-width:2}\n";

/* The run's header line: what was tuned, where, how, and the counts. */
static void run_meta(strbuf *o, const report_run *run)
{
    const cutune_tune_result *r = run->r;
    const cutune_tune_summary *s = &r->summary;
    sb_add(o, "<p class=\"meta\">Kernel <b>");
    report_esc(o, r->kernel);
    sb_add(o, "</b>");
    if (r->block && strcmp(r->block, r->kernel) != 0) { /* a block of a name of its own */
        sb_add(o, " as <b>");
        report_esc(o, r->block);
        sb_add(o, "</b>");
    }
    if (r->spec_path && *r->spec_path) {
        sb_add(o, " (spec <code>");
        report_esc(o, r->spec_path);
        sb_add(o, "</code>)");
    }
    sb_add(o, " on ");
    report_esc(o, r->device.name[0] ? r->device.name : "an unnamed device");
    if (r->device.arch[0]) {
        sb_add(o, " (");
        report_esc(o, r->device.arch);
        if (r->device.sm_count)
            sb_printf(o, ", %d SMs", r->device.sm_count);
        sb_addc(o, ')');
    }
    if (s->ndevices > 1) { /* measured on several GPUs of the host at once */
        sb_printf(o, ", %d GPUs at once (", s->ndevices);
        for (int k = 0; k < s->ndevices; k++)
            sb_printf(o, "%s%d", k ? ", " : "", s->devices[k]);
        sb_printf(o, "; GPU %d chose the winner", s->devices[0]);
        for (int k = 1; k < s->ndevices; k++)
            if (s->spread[k].variants > 0)
                sb_printf(o, "; GPU %d's times over GPU %d's: median %.4f, %.4f to %.4f over %d variants",
                          s->spread[k].device, s->devices[0], s->spread[k].median, s->spread[k].lo, s->spread[k].hi,
                          s->spread[k].variants);
        sb_addc(o, ')');
    }
    if (r->date && *r->date) {
        sb_add(o, ", ");
        report_esc(o, r->date);
    }
    sb_add(o, ". Search: ");
    report_esc(o, r->strategy ? r->strategy : "exhaustive");
    sb_add(o, ". Objective: ");
    report_esc(o, run->objective);
    sb_add(o, run->t.maximize ? ", maximised" : ", minimised");
    sb_printf(o, ". %zu variants, %zu with an objective (ran correctly, timed)", run->t.n, run->nok);
    if (s->interrupted)
        sb_add(o, "; the run was interrupted and covers part of the space");
    sb_add(o, ".</p>\n");
}

/* One run's sections. */
static void run_sections(strbuf *o, arena *a, const report_run *run)
{
    report_summary(o, a, run);
    report_winner(o, run);
    report_heatmaps(o, a, run);
    report_scatters(o, run);
    report_energy(o, run);
    report_hw(o, run);
    report_distribution(o, a, run);
    report_marginals(o, a, run);
    report_progress(o, a, run);
    report_failures(o, a, run);
}

/* The name of a file without its folders. */
static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

/* The label of size k of r: "FILE (n=4096, m=8)". */
static const char *size_label(arena *a, const char *file, const cutune_tune_result *one)
{
    strbuf b = STRBUF_INIT;
    sb_printf(&b, "%s (", base_name(file));
    for (int j = 0; j < one->nsize_vars; j++)
        sb_printf(&b, "%s%s=%lld", j ? ", " : "", one->size_vars[j], (long long)one->size_values[j]);
    sb_addc(&b, ')');
    const char *s = sb_ok(&b) ? arena_strdup(a, sb_cstr(&b)) : NULL;
    sb_free(&b);
    return s;
}

int report_emit(char **out, const cutune_tune_result *const *results, const char *const *files, int n,
                const char *title, const char *version)
{
    *out = NULL;
    arena *a = arena_new();
    if (!a)
        return CUTUNE_ENOMEM;
    int nruns = 0;
    for (int k = 0; k < n; k++)
        nruns += results[k]->nsizes > 0 ? results[k]->nsizes : 1;
    report_run *runs = arena_alloc(a, sizeof *runs * (size_t)(nruns ? nruns : 1));
    if (!runs) {
        arena_free(a);
        return CUTUNE_ENOMEM;
    }
    int rc = CUTUNE_OK, m = 0;
    for (int k = 0; k < n && rc == CUTUNE_OK; k++) {
        const cutune_tune_result *r = results[k];
        for (int s = 0; s < (r->nsizes > 0 ? r->nsizes : 1) && rc == CUTUNE_OK; s++) {
            const cutune_tune_result *one = r->nsizes > 0 ? r->sizes[s] : r;
            const char *label = r->nsizes > 0 ? size_label(a, files[k], one) : base_name(files[k]);
            rc = label ? report_run_make(&runs[m++], a, one, label, files[k]) : CUTUNE_ENOMEM;
        }
    }
    if (rc != CUTUNE_OK) {
        arena_free(a);
        return rc;
    }
    strbuf o = STRBUF_INIT;
    const char *heading = title && *title ? title : "cutune report";
    sb_add(&o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
    report_esc(&o, heading);
    sb_printf(&o, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header><h1>", page_style);
    report_esc(&o, heading);
    sb_add(&o, "</h1>\n<p class=\"meta\">Made by cutune ");
    report_esc(&o, version);
    sb_printf(&o, " from %d results file%s: ", n, n == 1 ? "" : "s");
    for (int k = 0; k < n; k++) {
        sb_add(&o, k ? ", <code>" : "<code>");
        report_esc(&o, files[k]);
        sb_add(&o, "</code>");
    }
    sb_add(&o, ". Every chart is drawn from those files alone; docs/report.md says how each is computed.</p>\n");
    if (nruns > 1) {
        sb_add(&o, "<nav><b>Contents:</b> <a href=\"#compare\">the runs side by side</a>");
        for (int k = 0; k < nruns; k++) {
            sb_printf(&o, " &middot; <a href=\"#run%d\">", k);
            report_esc(&o, runs[k].label);
            sb_add(&o, "</a>");
        }
        sb_add(&o, "</nav>\n");
    }
    sb_add(&o, "</header>\n");
    if (nruns > 1)
        report_comparison(&o, runs, nruns);
    for (int k = 0; k < nruns; k++) {
        sb_printf(&o, "<section class=\"run\" id=\"run%d\"><h2>", k);
        report_esc(&o, runs[k].label);
        sb_add(&o, "</h2>\n");
        run_meta(&o, &runs[k]);
        run_sections(&o, a, &runs[k]);
        sb_add(&o, "</section>\n");
    }
    if (nruns == 0)
        sb_add(&o, "<p>No results.</p>\n");
    sb_add(&o, "</body>\n</html>\n");
    arena_free(a);
    if (!sb_ok(&o)) {
        sb_free(&o);
        return CUTUNE_ENOMEM;
    }
    *out = sb_steal(&o);
    return *out ? CUTUNE_OK : CUTUNE_ENOMEM;
}
