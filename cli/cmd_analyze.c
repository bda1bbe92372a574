/* cmd_analyze.c - `cutune analyze SPEC`: compile every variant (no GPU needed) and show
 * its registers, shared and local memory, spills, theoretical occupancy and limiter,
 * and whether it can launch at all. Also the no-GPU part of `cutune SPEC`. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "options.h"
#include "format.h"
#include "../base/sys.h"

typedef struct analyze_view {
    cutune_spec *spec;
    enum cli_analyze_format fmt;
    fmt_table table;
    bool started;
    bool show_progress;
    double last_progress, progress_started; /* when progress was last drawn, and first */
    const char *first_failure_log;          /* the first compile error, shown after the table */
    char *failure_log_copy;
    uint64_t first_failure;
    double best_occupancy;
    uint64_t best_occupancy_count;
    /* Where each variant that compiled got its binary (the library's summary counts
     * NVRTC's runs, failed ones included): fresh + cached + same = compiled. */
    uint64_t fresh, cached, same;
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

static const char *first_line(const char *log, char *buf, size_t size)
{
    const char *p = log;
    while (*p == '\n')
        p++;
    size_t n = strcspn(p, "\n");
    snprintf(buf, size, "%.*s", (int)(n < size - 1 ? n : size - 1), p);
    return buf;
}

/* The CSV or JSON row of a (the CSV header row first), on stdout. -1 out of memory. */
static int print_row(analyze_view *av, const cutune_analysis *a)
{
    char *text = NULL;
    bool json = av->fmt == CLI_ANALYZE_JSON;
    if (!json && !av->started) {
        if (cutune_analysis_csv(&text, av->spec, NULL) < 0)
            return -1;
        printf("%s\n", text);
        cutune_free(text);
    }
    if ((json ? cutune_analysis_json(&text, av->spec, a) : cutune_analysis_csv(&text, av->spec, a)) < 0)
        return -1;
    if (json)
        printf("%s  %s", av->started ? ",\n" : "[\n", text);
    else
        printf("%s\n", text);
    cutune_free(text);
    av->started = true;
    return 0;
}

static int each_variant(void *user, const cutune_analysis *a)
{
    analyze_view *av = user;
    if (av->show_progress)
        fprintf(stderr, "\r\033[K");
    if (a->compiled)
        *(a->duplicate ? &av->same : a->cached ? &av->cached : &av->fresh) += 1;
    if (!a->compiled && !av->first_failure_log) {
        av->failure_log_copy = strdup(a->log);
        av->first_failure_log = av->failure_log_copy;
        av->first_failure = a->variant->ordinal;
    }
    if (a->launchable && a->has_resources) {
        if (a->occupancy.occupancy > av->best_occupancy) {
            av->best_occupancy = a->occupancy.occupancy;
            av->best_occupancy_count = 0;
        }
        av->best_occupancy_count += a->occupancy.occupancy == av->best_occupancy;
    }
    if (av->fmt == CLI_ANALYZE_NONE)
        return 0;
    if (av->fmt != CLI_ANALYZE_TABLE)
        return print_row(av, a);
    if (!av->started) {
        if (fmt_table_init(&av->table, av->spec, a->variant) < 0)
            return -1;
        fmt_table_header(&av->table, av->spec);
        printf("  %4s %6s %6s %9s %6s %-13s %8s  %s\n", "regs", "smem", "local", "spill", "occ", "limiter", "compile",
               "status");
        av->started = true;
    }
    fmt_table_row(&av->table, a->variant);
    char spill[32], occ[16], comp[16], line[160];
    if (a->has_resources) {
        snprintf(spill, sizeof spill, "%lld/%lld", (long long)a->spill_stores, (long long)a->spill_loads);
        printf("  %4d %6lld %6lld %9s", a->registers, (long long)a->static_smem, (long long)a->local_bytes, spill);
    } else {
        printf("  %4s %6s %6s %9s", "-", "-", "-", "-");
    }
    if (a->occupancy.limiter)
        snprintf(occ, sizeof occ, "%.0f%%", a->occupancy.occupancy * 100);
    else
        snprintf(occ, sizeof occ, "-");
    if (a->duplicate)
        snprintf(comp, sizeof comp, "same");
    else if (a->cached)
        snprintf(comp, sizeof comp, "cached");
    else
        snprintf(comp, sizeof comp, "%.0f ms", a->compile_seconds * 1e3);
    printf(" %6s %-13s %8s  ", occ, a->occupancy.limiter ? a->occupancy.limiter : "-", comp);
    if (!a->compiled)
        printf("COMPILE ERROR: %s\n", first_line(a->log, line, sizeof line));
    else if (!a->launchable)
        printf("CANNOT LAUNCH: %s\n", a->why);
    else
        printf("ok\n");
    return 0;
}

int cli_run_analysis(cutune_spec *spec, const cli_common *c, const cutune_analyze_options *base,
                     enum cli_analyze_format format, cli_analysis *out)
{
    analyze_view av;
    memset(&av, 0, sizeof av);
    av.spec = spec;
    av.fmt = format;
    av.show_progress = isatty(STDERR_FILENO) && !c->quiet;
    cutune_analyze_options opts = *base;
    opts.cancel = cli_catch_interrupts();
    opts.progress = show_progress;
    opts.progress_user = &av;
    cutune_analyze_summary sum;
    int seen = cutune_spec_diagnostic_count(spec);
    int rc = cutune_analyze(&sum, spec, &opts, each_variant, &av);
    if (av.fmt == CLI_ANALYZE_JSON)
        printf(av.started ? "\n]\n" : "[]\n");
    fflush(stdout);
    cli_print_new_diagnostics(spec, c, &seen);
    fmt_table_free(&av.table);
    if (out) {
        memset(out, 0, sizeof *out);
        out->variants = sum.variants;
        out->failed = sum.failed;
        out->unlaunchable = sum.unlaunchable;
        out->runnable = sum.variants - sum.failed - sum.unlaunchable;
        out->arch = sum.arch ? sum.arch : ""; /* the spec's: lives as long; NULL when the analysis failed first */
        out->interrupted = sum.interrupted;
    }
    if (rc < 0 && rc != CUTUNE_ESTOPPED) {
        free(av.failure_log_copy);
        return cli_exit_for_status(rc);
    }
    if (!c->quiet) {
        char n[32];
        fprintf(stderr,
                "\n%s variants for %s: %llu compiled (%.2f s of NVRTC time, %.2f s wall on %d thread%s), "
                "%llu from the cache, %llu the same binary as an earlier variant\n",
                cli_format_count(sum.variants, n, sizeof n), sum.arch, (unsigned long long)av.fresh,
                sum.compile_seconds, sum.wall_seconds, sum.threads, sum.threads == 1 ? "" : "s",
                (unsigned long long)av.cached, (unsigned long long)av.same);
        fprintf(stderr, "%llu failed to compile, %llu cannot launch", (unsigned long long)sum.failed,
                (unsigned long long)sum.unlaunchable);
        if (av.best_occupancy_count)
            fprintf(stderr, "; best theoretical occupancy %.0f%% (%llu variant%s)", av.best_occupancy * 100,
                    (unsigned long long)av.best_occupancy_count, av.best_occupancy_count == 1 ? "" : "s");
        fprintf(stderr, "\n");
        cli_print_device_attrs(spec, stderr, "device attributes: ");
        if (sum.cache_dir)
            fprintf(stderr, "cache: %s\n", sum.cache_dir);
        if (sum.cache_warning)
            fprintf(stderr, "warning: %s\n", sum.cache_warning);
        if (sum.compile_warning)
            fprintf(stderr, "warning: %s\n", sum.compile_warning);
        if (sum.interrupted)
            fprintf(stderr, "interrupted: the table covers the first %llu configurations only\n",
                    (unsigned long long)sum.variants);
        if (av.first_failure_log)
            fprintf(stderr, "\nthe compiler's log for variant %llu:\n%s\n", (unsigned long long)av.first_failure,
                    av.first_failure_log);
    }
    free(av.failure_log_copy);
    return sum.interrupted ? EXIT_INTERRUPTED : EXIT_OK;
}

void cli_report_nothing_runs(const char *who, const cli_analysis *a)
{
    if (a->variants == 0)
        fprintf(stderr, "%s: no variant was analysed\n", who);
    else if (a->failed == a->variants)
        fprintf(stderr, "%s: NOTHING COMPILED: none of the %llu variants compiled for %s\n", who,
                (unsigned long long)a->variants, a->arch);
    else
        fprintf(stderr,
                "%s: NOTHING CAN RUN: none of the %llu variants both compiled for %s and can launch "
                "(%llu failed to compile, %llu cannot launch)\n",
                who, (unsigned long long)a->variants, a->arch, (unsigned long long)a->failed,
                (unsigned long long)a->unlaunchable);
}

int cmd_analyze(int argc, char **argv)
{
    cli_common c;
    cli_init_common(&c);
    cutune_analyze_options o = CUTUNE_ANALYZE_OPTIONS_INIT;
    static const char *const formats[] = {"table", "csv", "json", NULL}; /* enum cli_analyze_format's order */
    int fmt = CLI_ANALYZE_TABLE;
    unsigned long long limit = 0;
    cli_shard sh = {0, 0, -1, -1, NULL};
    const cli_opt table[] = {
        {"arch", 0, true, CLI_TEXT, &c.arch, NULL, 0, NULL, "sm_XX",
         "compile for this architecture (default: the GPU's, else sm_90)"},
        CLI_JOBS_ENTRY(&o),
        {"limit", 0, true, CLI_CALL, &limit, cli_opt_count, 0, NULL, "N", "only the first N configurations"},
        {"shard", 0, true, CLI_CALL, &sh, cli_opt_shard, 0, NULL, "I/N|auto",
         "only shard I of N (ordinal / run % N == I, the run the last\nparam's value count; auto: from\nmpirun's, "
         "srun's or a Slurm job array's environment)"},
        {"format", 0, true, CLI_CHOICE, &fmt, NULL, 0, formats, "FORMAT", "table (default), csv or json"},
        CLI_CACHE_ENTRIES(&o),
        CLI_CONFIG_ENTRY(&c),
        CLI_COMMON_ENTRIES(&c),
    };
    int code; /* --arch: the spec's device attributes are that architecture's too */
    cutune_spec *spec = cli_parse_spec("analyze", argc, argv, table, (int)(sizeof table / sizeof table[0]), &c, &code);
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
            cli_analysis a;
            code = cli_run_analysis(spec, &c, &o, fmt, &a);
            if (code == EXIT_OK && a.runnable == 0) {
                cli_report_nothing_runs("cutune analyze", &a);
                code = EXIT_NOTHING;
            }
        }
        cutune_spec_free(spec);
    }
    cli_free_common(&c);
    return code;
}
