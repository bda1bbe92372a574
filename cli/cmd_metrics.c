/* cmd_metrics.c - `cutune metrics` (which hardware counters can be named: the
 * default set beside the nvprof metric each stands for, or a chip's whole list through
 * CUPTI's host API, no GPU needed) and the counters' table after a tuning run. */
#include <string.h>

#include "options.h"

typedef struct list_view {
    const char *pattern; /* NULL: all */
    int shown;
} list_view;

static void list_one(void *user, const char *name, const char *kind)
{
    list_view *v = user;
    if (v->pattern && !strstr(name, v->pattern))
        return;
    printf("%-11s %s\n", kind, name);
    v->shown++;
}

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
    const char *chip = cutune_profile_chip(arch);
    if (!chip)
        return cli_usage_error("metrics", "cutune does not know CUPTI's chip for '%s' (sm_70 to sm_120)", arch);
    if (!pattern && !all) {
        const char *const *names;
        int n = cutune_profile_default_metrics(&names);
        if (!quiet)
            printf("The default counters (cutune SPEC --metrics N), the seeds' nvprof metrics in CUPTI's names:\n\n");
        for (int i = 0; i < n; i++)
            printf("%-26s %s\n", cutune_profile_nvprof_name(names[i]), names[i]);
        if (!quiet)
            printf("\nName others with --metric NAME (`cutune metrics PATTERN` searches %s's list for %s; a\n"
                   "base metric takes a suffix: .sum, .avg, .max, .pct_of_peak_sustained_elapsed, ...).\n",
                   chip, arch);
        return EXIT_OK;
    }
    list_view v = {pattern, 0};
    int rc = cutune_profile_list(arch, list_one, &v);
    if (rc == CUTUNE_ENODEV) {
        fprintf(stderr, "cutune metrics: %s\n", cutune_last_error());
        return EXIT_NO_GPU;
    }
    if (rc < 0) {
        fprintf(stderr, "cutune metrics: %s\n", cutune_last_error());
        return EXIT_USAGE;
    }
    if (!quiet)
        fprintf(stderr, "%d base metrics of %s (%s)%s%s%s\n", v.shown, chip, arch, pattern ? " containing '" : "",
                pattern ? pattern : "", pattern ? "'" : "");
    return v.shown > 0 || !pattern ? EXIT_OK : EXIT_USAGE;
}

void cli_print_profile(const cutune_spec *spec, const cutune_tune_result *r)
{
    const cutune_tune_summary *s = cutune_tune_summary_of(r);
    char *text = NULL;
    bool read = cutune_tune_profile_count(r) > 0; /* asked for: said when none were read */
    if (read && s->profiled == 0)
        fprintf(stderr, "cutune: no hardware counters were read%s%s; the times above stand\n",
                s->profile_note ? ": " : "", s->profile_note ? s->profile_note : "");
    else if (cli_print(cutune_tune_profile_text(&text, spec, r), &text, "") == 0 && read && s->profile_note)
        fprintf(stderr, "cutune: some counters were not read: %s\n", s->profile_note);
}
