/* cmd_report.c - `cutune report RESULTS.json [MORE.json ...] [-o FILE]`: stored tuning
 * runs as one self-contained HTML page (docs/report.md). No GPU needed. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"

/* write_report: rs[0 .. n) as one report page (opts) to `path`, saying where unless
 * quiet; why not, after `who`, when the page cannot be made. The exit code. */
static int write_report(const cutune_tune_result *const *rs, int n, const cutune_report_options *opts, const char *path,
                        bool quiet, const char *who)
{
    char *page = NULL;
    int rc = cutune_emit_report(&page, rs, n, opts);
    int code = rc == CUTUNE_OK ? cli_write("cutune report", path, page) : cli_exit_for_status(rc);
    if (rc != CUTUNE_OK)
        fprintf(stderr, "%s: %s\n", who, cutune_last_error());
    else if (code == EXIT_OK && !quiet)
        fprintf(stderr, "report: %s\n", path);
    cutune_free(page);
    return code;
}

int cmd_report(int argc, char **argv)
{
    const char *output = "-", *title = NULL;
    bool quiet = false;
    const cli_opt table[] = {
        {"output", 'o', true, CLI_TEXT, &output, NULL, 0, NULL},
        {"title", 0, true, CLI_TEXT, &title, NULL, 0, NULL},
        {"quiet", 'q', false, CLI_BOOL, &quiet, NULL, 0, NULL},
    };
    int parsed = cli_parse_options("report", argc, argv, CLI_TABLE(table));
    if (parsed != EXIT_OK)
        return parsed;
    int nfiles = argc - optind;
    char **files = argv + optind;
    if (nfiles < 1)
        return cli_usage_error("report", "which results files? (cutune report RESULTS.json ... -o report.html)");
    cutune_tune_result **results = NULL;
    int code = EXIT_OK, rc = cutune_results_load_all(&results, (const char *const *)files, nfiles, 0, NULL);
    if (rc != CUTUNE_OK) {
        fprintf(stderr, "cutune report: %s\n", cutune_last_error());
        code = cli_exit_for_status(rc);
    }
    if (code == EXIT_OK) {
        cutune_report_options opts = CUTUNE_REPORT_OPTIONS_INIT;
        opts.names = (const char *const *)files;
        opts.title = title;
        code = write_report((const cutune_tune_result *const *)results, nfiles, &opts, output,
                            quiet || strcmp(output, "-") == 0, "cutune report");
    }
    cutune_results_free_all(results, nfiles);
    return code;
}

int cli_report_after_tune(const cutune_tune_result *r, const char *spec_path, const char *path, bool quiet)
{
    const char *results = cutune_tune_summary_of(r)->results_path;
    const char *names[] = {results ? results : spec_path};
    cutune_report_options opts = CUTUNE_REPORT_OPTIONS_INIT;
    opts.names = names;
    return write_report(&r, 1, &opts, path, quiet, "cutune: no report");
}
