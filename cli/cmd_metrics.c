/* cmd_metrics.c - `cutune metrics` (which hardware counters can be named: the
 * default set beside the nvprof metric each stands for, or a chip's whole list through
 * CUPTI's host API, no GPU needed) and the counters' table after a tuning run; the
 * library makes the texts (cutune_profile_*_text, cutune_tune_profile_*). */
#include "options.h"

/* cmd_metrics: `cutune metrics [PATTERN] [--all] [--arch sm_XX]`. */
int cmd_metrics(int argc, char **argv)
{
    bool all = false, quiet = false;
    const char *arch = NULL;
    const cli_opt table[] = {
        {"all", 0, false, CLI_BOOL, &all, NULL, 0, NULL},
        {"arch", 0, true, CLI_TEXT, &arch, NULL, 0, NULL},
        {"quiet", 'q', false, CLI_BOOL, &quiet, NULL, 0, NULL},
    };
    int parsed = cli_parse_options("metrics", argc, argv, CLI_TABLE(table));
    if (parsed != EXIT_OK)
        return parsed;
    if (argc - optind > 1)
        return cli_usage_error("metrics", "one pattern at a time, not '%s'", argv[optind + 1]);
    const char *pattern = optind < argc ? argv[optind] : NULL;
    if (!arch) { /* the GPU's own, else the default */
        static cutune_device dev;
        int count = 0;
        arch = cutune_device_count(&count) == CUTUNE_OK && count > 0 && cutune_device_get(&dev, 0) == CUTUNE_OK
                   ? dev.arch
                   : "sm_90";
    }
    if (!cutune_profile_chip(arch))
        return cli_usage_error("metrics", "cutune does not know CUPTI's chip for '%s' (sm_70 to sm_120)", arch);
    char *text = NULL, *note = NULL;
    int shown = 0, rc = !pattern && !all ? cutune_profile_defaults_text(&text, arch, quiet)
                                         : cutune_profile_list_text(&text, &note, &shown, arch, pattern);
    if (rc < 0) {
        fprintf(stderr, "cutune metrics: %s\n", cutune_last_error());
        return rc == CUTUNE_ENODEV ? EXIT_NO_GPU : EXIT_USAGE;
    }
    cli_print(rc, &text, "");
    if (note && !quiet)
        fputs(note, stderr);
    cutune_free(note);
    return shown > 0 || !pattern ? EXIT_OK : EXIT_USAGE;
}

void cli_print_profile(const cutune_spec *spec, const cutune_tune_result *r)
{
    char *text = NULL; /* the table, then what to say when counters were asked for and not all read */
    if (cli_print(cutune_tune_profile_text(&text, spec, r), &text, "") == 0 &&
        cutune_tune_profile_note(&text, r) == CUTUNE_OK && text[0])
        fprintf(stderr, "cutune: %s", text);
    cutune_free(text);
}
