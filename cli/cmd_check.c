/* cmd_check.c - `cutune check SPEC`: validate and summarise the space. */
#include <getopt.h>
#include <string.h>
#include <time.h>

#include <unistd.h>

#include "options.h"
#include "../base/sys.h"

/* Counting progress on a terminal: a line on stderr, redrawn, once counting has taken
 * half a second (a quick count shows nothing). */
typedef struct count_progress {
    double start;
    bool drawn;
} count_progress;

static int draw_count_progress(void *user, double done)
{
    count_progress *p = user;
    double elapsed = sys_seconds() - p->start;
    if (elapsed < 0.5)
        return 0;
    fprintf(stderr, "\rcounting the space: %.1f s, %.2g%% counted (past 5 s, an estimate instead) ", elapsed,
            100.0 * done);
    p->drawn = true;
    return 0;
}

int cli_space_summary(cutune_spec *spec, const cli_common *c, enum cli_summary_format format)
{
    int seen = cutune_spec_diagnostic_count(spec);
    cutune_space_size size;
    double t0 = sys_seconds();
    count_progress progress = {t0, false};
    bool tty = !c->quiet && isatty(STDERR_FILENO);
    int rc = cutune_space_count_progress(&size, spec, tty ? draw_count_progress : NULL, &progress);
    if (progress.drawn)
        fprintf(stderr, "\r%*s\r", 80, "");
    double seconds = sys_seconds() - t0;
    cli_print_new_diagnostics(spec, c, &seen);
    if (rc != CUTUNE_OK) {
        int errors = cutune_spec_error_count(spec);
        fprintf(stderr, "%s: %d error%s\n", cutune_spec_path(spec), errors, errors == 1 ? "" : "s");
    }
    if (rc != CUTUNE_OK && rc != CUTUNE_ESPEC)
        return cli_exit_for_status(rc);
    char *text = NULL; /* CLI_SUMMARY_NONE: none made, none printed */
    int made = format == CLI_SUMMARY_JSON   ? cutune_space_summary_json(&text, spec, &size, seconds)
               : format == CLI_SUMMARY_TEXT ? cutune_space_summary_text(&text, spec, &size, seconds, c->strategy)
                                            : CUTUNE_OK;
    if (cli_print(made, &text, format == CLI_SUMMARY_JSON ? "\n" : "") < 0)
        return EXIT_INTERNAL;
    return rc == CUTUNE_OK ? EXIT_OK : EXIT_SPEC;
}

int cmd_check(int argc, char **argv)
{
    cli_common c;
    cli_init_common(&c);
    int json = 0;
    static const char *const formats[] = {"text", "json", NULL};
    const cli_opt table[] = {
        {"format", 0, true, CLI_CHOICE, &json, NULL, 0, formats},
        {"arch", 0, true, CLI_TEXT, &c.arch, NULL, 0, NULL},
        CLI_COMMON_ENTRIES(&c),
    };
    int code;
    cutune_spec *spec = cli_parse_spec("check", argc, argv, CLI_TABLE(table), &c, &code);
    if (spec) {
        int n = cli_blocks(spec, &c); /* several kernel blocks: each summarised in turn */
        if (json && n > 1)
            printf("[\n");
        for (int i = 0; i < n && (code == EXIT_OK || i == 0); i++) {
            if (json && i > 0)
                printf(",\n");
            cli_select_block(spec, &c, i, json ? NULL : stdout);
            int seen = cutune_spec_diagnostic_count(spec); /* __constant__ data no argument fills */
            if (cutune_spec_check_constants(spec) > 0)
                cli_print_new_diagnostics(spec, &c, &seen);
            code = cli_space_summary(spec, &c, json ? CLI_SUMMARY_JSON : CLI_SUMMARY_TEXT);
        }
        if (json && n > 1)
            printf("]\n");
        cutune_spec_free(spec);
    }
    cli_free_common(&c);
    return code;
}
