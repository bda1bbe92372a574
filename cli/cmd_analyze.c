/* cmd_analyze.c - `cutune analyze SPEC`: compile every variant (no GPU needed) and show
 * its registers, shared and local memory, spills, theoretical occupancy and limiter,
 * and whether it can launch at all. Also the no-GPU part of `cutune SPEC`. */
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "../base/sys.h"

/* What the printing of an analysis keeps: its format, the table that counts the
 * variants for the summary, the progress line's times; for a run over the spec's
 * problem sizes (cli_run_analysis's `sizes`), each size's exit code. */
typedef struct analyze_view {
    cutune_spec *spec;
    const cli_common *c;
    enum cli_analyze_format fmt;
    cutune_table *table; /* the table's lines, and the tally the summary tells */
    bool started;
    bool show_progress;
    double last_progress, progress_started; /* when progress was last drawn, and first */
    int seen;                               /* the diagnostics printed before this analysis */
    bool in_size;                           /* between a size's start and its summary */
    int code;                               /* the last size's exit code */
} analyze_view;

/* Progress on stderr, only on a terminal, at most 10 times a second. */
static void show_progress(void *user, const cutune_progress *p)
{
    analyze_view *av = user;
    double t = sys_seconds();
    if (!av->show_progress || (t - av->last_progress < 0.1 && p->done != p->total))
        return;
    if (p->done == 1 || av->progress_started == 0)
        av->progress_started = t;
    av->last_progress = t;
    double rate = t > av->progress_started ? (double)p->done / (t - av->progress_started) : 0;
    if (p->total)
        fprintf(stderr, "\r[%llu/%llu] %llu compiled, %llu cached or shared, %llu failed, %.1f variants/s, ETA %.0f s ",
                (unsigned long long)p->done, (unsigned long long)p->total, (unsigned long long)p->compiled,
                (unsigned long long)p->cached, (unsigned long long)p->failed, rate,
                rate > 0 ? (double)(p->total - p->done) / rate : 0.0);
    else
        fprintf(stderr, "\r[%llu] %.1f variants/s ", (unsigned long long)p->done, rate);
    if (p->done == p->total)
        fprintf(stderr, "\r\033[K");
}

/* A variant's line in av's format on stdout (the CSV header row, the JSON array's
 * opening, the table's heading first), counted for the summary. -1 out of memory. */
static int each_variant(void *user, const cutune_analysis *a)
{
    analyze_view *av = user;
    bool json = av->fmt == CLI_ANALYZE_JSON, csv = av->fmt == CLI_ANALYZE_CSV;
    char *text = NULL;
    if (av->show_progress)
        fprintf(stderr, "\r\033[K");
    if ((!av->table && cutune_table_new(&av->table, av->spec) < 0) ||
        cli_print(cutune_table_analysis(av->fmt == CLI_ANALYZE_TABLE ? &text : NULL, av->table, a), &text, "") < 0 ||
        (csv && !av->started && cli_print(cutune_analysis_csv(&text, av->spec, NULL), &text, "\n") < 0))
        return -1;
    int rc = csv ? cutune_analysis_csv(&text, av->spec, a) : json ? cutune_analysis_json(&text, av->spec, a) : 0;
    if (json && rc == CUTUNE_OK)
        printf("%s  ", av->started ? ",\n" : "[\n");
    av->started = true;
    return cli_print(rc, &text, csv ? "\n" : "");
}

/* view_start: *av (its loop's fields kept) ready to print an analysis: no table or row
 * yet, the diagnostics so far counted as printed. */
static void view_start(analyze_view *av)
{
    av->table = NULL;
    av->started = false;
    av->show_progress = isatty(STDERR_FILENO) && !av->c->quiet;
    av->last_progress = av->progress_started = 0;
    av->seen = cutune_spec_diagnostic_count(av->spec);
}

/* view_end: what follows an analysis that returned `rc` with the summary `sum`: the JSON
 * array closed, its diagnostics, the summary on stderr (not when quiet or after a
 * failure); av's table freed. Returns as cli_run_analysis. */
static int view_end(analyze_view *av, int rc, const cutune_analyze_summary *sum)
{
    if (av->fmt == CLI_ANALYZE_JSON)
        printf(av->started ? "\n]\n" : "[]\n");
    fflush(stdout);
    cli_print_new_diagnostics(av->spec, av->c, &av->seen);
    if (rc == CUTUNE_ESTOPPED)
        rc = CUTUNE_OK; /* each_variant ran out of memory: what was done is told */
    char *text = NULL;
    if (rc >= 0 && !av->c->quiet && (av->table || (rc = cutune_table_new(&av->table, av->spec)) >= 0))
        rc = cutune_table_summary(&text, av->table, sum);
    cli_say(CUTUNE_OK, &text); /* text NULL: nothing */
    cutune_table_free(av->table);
    av->table = NULL;
    if (rc < 0)
        return cli_exit_for_status(rc);
    return sum->interrupted ? EXIT_INTERRUPTED : EXIT_OK;
}

/* each_size: cutune_analyze_sizes' callback: before size k (sum NULL), its values on a
 * line of their own when there are several (not when quiet); after it, what follows an
 * analysis (view_end). Non-zero (stop) after a size that did not end EXIT_OK. */
static int each_size(void *user, int k, const cutune_analyze_summary *sum)
{
    analyze_view *av = user;
    av->in_size = !sum;
    if (sum)
        return (av->code = view_end(av, CUTUNE_OK, sum)) != EXIT_OK;
    char *text = NULL;
    if (!av->c->quiet)
        cli_say(cutune_spec_size_heading(&text, av->spec, k), &text);
    view_start(av);
    return 0;
}

int cli_run_analysis(cutune_spec *spec, const cli_common *c, const cutune_analyze_options *base,
                     enum cli_analyze_format format, bool sizes, cutune_analyze_summary *out)
{
    analyze_view av = {.spec = spec, .c = c, .fmt = format, .code = EXIT_OK};
    cutune_analyze_options opts = *base;
    opts.cancel = cli_catch_interrupts();
    opts.progress = show_progress;
    opts.progress_user = &av;
    *out = (cutune_analyze_summary){0}; /* a failure may leave it as it is */
    if (!sizes) {
        view_start(&av);
        return view_end(&av, cutune_analyze(out, spec, &opts, each_variant, &av), out);
    }
    int rc = cutune_analyze_sizes(out, spec, &opts, each_size, each_variant, &av);
    if (rc < 0 && rc != CUTUNE_ESTOPPED) /* a size that failed, or could not be selected */
        return av.in_size ? view_end(&av, rc, out) : cli_exit_for_status(rc);
    return av.code;
}

bool cli_nothing_runs(const char *who, const cutune_analyze_summary *sum)
{
    char *text = NULL;
    bool nothing = cutune_analyze_verdict_text(&text, sum) == CUTUNE_OK && text[0];
    if (nothing)
        fprintf(stderr, "%s: %s", who, text);
    cutune_free(text);
    return nothing;
}

int cmd_analyze(int argc, char **argv)
{
    cli_common c;
    cli_init_common(&c);
    cutune_analyze_options o = CUTUNE_ANALYZE_OPTIONS_INIT;
    static const char *const formats[] = {"table", "csv", "json", NULL}; /* enum cli_analyze_format's order */
    int fmt = CLI_ANALYZE_TABLE;
    unsigned long long limit = 0;
    cli_shard sh = {.local = -1, .local_count = -1};
    const cli_opt table[] = {
        {"arch", 0, true, CLI_TEXT, &c.arch, NULL, 0, NULL},
        CLI_JOBS_ENTRY(&o),
        {"limit", 0, true, CLI_CALL, &limit, cli_opt_count, 0, NULL},
        {"shard", 0, true, CLI_CALL, &sh, cli_opt_shard, 0, NULL},
        {"format", 0, true, CLI_CHOICE, &fmt, NULL, 0, formats},
        CLI_CACHE_ENTRIES(&o),
        CLI_CONFIG_ENTRY(&c),
        CLI_COMMON_ENTRIES(&c),
    };
    int code; /* --arch: the spec's device attributes are that architecture's too */
    cutune_spec *spec = cli_parse_spec("analyze", argc, argv, CLI_TABLE(table), &c, &code);
    o.arch = c.arch;
    o.limit = limit;
    o.shard_index = sh.index; /* this process's shard of the space */
    o.shard_count = sh.count;
    if (spec) {
        int n = cli_blocks(spec, &c);
        if (n > 1 && fmt != CLI_ANALYZE_TABLE)
            code = cli_usage_error("analyze",
                                   "the spec has %d kernel blocks: pick one with --kernel NAME for "
                                   "--format csv or json",
                                   n);
        for (int i = 0; i < n && code == EXIT_OK; i++) { /* each kernel block in turn */
            cli_select_block(spec, &c, i, stdout);
            cutune_analyze_summary sum;
            code = cli_run_analysis(spec, &c, &o, fmt, false, &sum);
            if (code == EXIT_OK && cli_nothing_runs("cutune analyze", &sum))
                code = EXIT_NOTHING;
        }
        cutune_spec_free(spec);
    }
    cli_free_common(&c);
    return code;
}
