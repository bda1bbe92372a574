/* cmd_check.c - `cutune check SPEC`: validate and summarise the space. */
#include <getopt.h>
#include <string.h>
#include <time.h>

#include <unistd.h>

#include "options.h"
#include "format.h"
#include "../base/sys.h"

/* Up to `max` values of param i, comma separated, into out. */
static void param_values_text(const cutune_spec *spec, int i, int max, char *out, size_t size)
{
    uint64_t n = cutune_spec_param_value_count(spec, i);
    size_t len = 0;
    out[0] = '\0';
    for (uint64_t k = 0; k < n && k < (uint64_t)max; k++) {
        char v[64];
        cutune_spec_param_value(v, sizeof v, spec, i, k);
        int w = snprintf(out + len, size - len, "%s%s%s%s", k ? ", " : "",
                         strcmp(cutune_spec_param_type(spec, i), "string") == 0 ? "\"" : "", v,
                         strcmp(cutune_spec_param_type(spec, i), "string") == 0 ? "\"" : "");
        if (w < 0 || (size_t)w >= size - len)
            break;
        len += (size_t)w;
    }
    if (n > (uint64_t)max && len + 8 < size)
        snprintf(out + len, size - len, ", ...");
}

/* The spec's problem sizes, one line each (nothing without a size statement); the
 * space above is the first size's. */
static void print_sizes(const cutune_spec *spec)
{
    int nv = cutune_spec_size_var_count(spec), n = cutune_spec_size_count(spec);
    if (nv == 0)
        return;
    printf("sizes        %d, tuned one after the other (the space above is the first's; --set picks one)\n", n);
    for (int k = 0; k < n; k++) {
        printf("  ");
        for (int j = 0; j < nv; j++)
            printf("%s%s=%lld", j ? " " : "", cutune_spec_size_var(spec, j),
                   (long long)cutune_spec_size_value(spec, k, j));
        printf("\n");
    }
}

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

/* The summary as text on stdout (`check`, `cutune SPEC`). */
static void summary_text(const cutune_spec *spec, const cli_common *c, const cutune_space_size *size, double seconds)
{
    int nparams = cutune_spec_param_count(spec);
    char raw[40], valid[40];
    printf("spec         %s\n", cutune_spec_path(spec));
    printf("kernel       %s  (%s)\n", cutune_spec_kernel(spec), cutune_spec_kernel_file(spec));
    printf("params       %d\n", nparams);
    int width = 4;
    for (int i = 0; i < nparams; i++)
        if ((int)strlen(cutune_spec_param_name(spec, i)) > width)
            width = (int)strlen(cutune_spec_param_name(spec, i));
    for (int i = 0; i < nparams; i++) {
        char vals[160];
        param_values_text(spec, i, 8, vals, sizeof vals);
        uint64_t n = cutune_spec_param_value_count(spec, i);
        printf("  %-*s %6s value%s  as %-12s %s\n", width, cutune_spec_param_name(spec, i),
               cli_format_count(n, raw, sizeof raw), n == 1 ? " " : "s", cutune_spec_param_route(spec, i), vals);
    }
    printf("constraints  %d\n", cutune_spec_constraint_count(spec));
    cli_print_device_attrs(spec, stdout, "device       ");
    cli_format_count(size->raw, raw, sizeof raw);
    cli_format_count(size->valid, valid, sizeof valid);
    double share = size->raw ? 100.0 * (double)size->valid / (double)size->raw : 0.0;
    if (size->valid_estimated) {
        char least[40], samples[40];
        printf("space        %s%s raw, ~%.3g valid (%.3g%%), estimated: too large to count exactly in %.1f s; "
               "from %s random combinations, and at least %s\n",
               size->raw_saturated ? ">= " : "", raw, (double)size->valid, share, seconds,
               cli_format_count(size->samples, samples, sizeof samples),
               cli_format_count(size->valid_at_least, least, sizeof least));
    } else {
        printf("space        %s%s raw, %s%s valid (%.3g%%), counted in %.3f s\n", size->raw_saturated ? ">= " : "", raw,
               size->valid_saturated ? ">= " : "", valid, share, seconds);
    }
    printf("search       %s\n", c->strategy ? c->strategy : cutune_spec_strategy(spec));
    print_sizes(spec);
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
    char *text = NULL;
    if (format == CLI_SUMMARY_JSON && fmt_print_made(cutune_space_summary_json(&text, spec, &size, seconds), &text) < 0)
        return EXIT_INTERNAL;
    if (format == CLI_SUMMARY_TEXT)
        summary_text(spec, c, &size, seconds);
    return rc == CUTUNE_OK ? EXIT_OK : EXIT_SPEC;
}

int cmd_check(int argc, char **argv)
{
    cli_common c;
    cli_init_common(&c);
    int json = 0;
    static const char *const formats[] = {"text", "json", NULL};
    const cli_opt table[] = {
        {"format", 0, true, CLI_CHOICE, &json, NULL, 0, formats, "text|json", "the summary's format (default text)"},
        {"arch", 0, true, CLI_TEXT, &c.arch, NULL, 0, NULL, "sm_XX",
         "the architecture whose device attributes (sm_count, ...) the\nspec reads, from cutune's table (default "
         "sm_90; printed as assumed)"},
        CLI_COMMON_ENTRIES(&c),
    };
    int code = cli_parse_options("check", argc, argv, table, (int)(sizeof table / sizeof table[0]));
    if (code != EXIT_OK)
        goto done;
    if (optind != argc - 1) {
        code = cli_usage_error("check", optind >= argc ? "which spec? (cutune check SPEC)" : "one spec at a time");
        goto done;
    }
    cutune_spec *spec = cli_load(argv[optind], &c, &code);
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
done:
    cli_free_common(&c);
    return code;
}
