/* cmd_report.c - `cutune report RESULTS.json [MORE.json ...] [-o FILE]`: stored tuning
 * runs as one self-contained HTML page (docs/report.md). No GPU needed. */
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "options.h"

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
    char *page = NULL;
    cutune_report_options opts = CUTUNE_REPORT_OPTIONS_INIT;
    opts.names = (const char *const *)files;
    opts.title = title;
    int rc = cutune_results_load_all(&results, (const char *const *)files, nfiles, 0, NULL);
    if (rc == CUTUNE_OK)
        rc = cutune_emit_report(&page, (const cutune_tune_result *const *)results, nfiles, &opts);
    int code = rc == CUTUNE_OK ? cli_write("cutune report", output, page) : cli_exit_for_status(rc);
    if (rc != CUTUNE_OK)
        fprintf(stderr, "cutune report: %s\n", cutune_last_error());
    else if (code == EXIT_OK && !quiet && strcmp(output, "-") != 0)
        fprintf(stderr, "report: %s\n", output);
    cutune_free(page);
    cutune_results_free_all(results, nfiles);
    return code;
}
