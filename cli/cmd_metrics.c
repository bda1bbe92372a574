/* cmd_metrics.c - `cutune metrics` (which hardware counters can be named: the
 * default set beside the nvprof metric each stands for, or a chip's whole list through
 * CUPTI's host API, no GPU needed) and the counters' table after a tuning run. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
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
        {"all", 0, false, CLI_BOOL, &all, NULL, 0, NULL, NULL, "list every base metric"},
        {"arch", 0, true, CLI_TEXT, &arch, NULL, 0, NULL, "sm_XX", "whose chip (default: GPU 0's, else sm_90)"},
        {"quiet", 'q', false, CLI_BOOL, &quiet, NULL, 0, NULL, NULL, "only the names"},
    };
    int parsed = cli_parse_options("metrics", argc, argv, table, (int)(sizeof table / sizeof table[0]));
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

/* ---- after a run --------------------------------------------------------------------- */

/* One counter's value as the table shows it: percentages, ratios and throughputs as
 * CUPTI gives them (bytes per second as GB/s), counts whole, durations (ns) in us. */
static void cell(char *out, size_t size, const char *name, double v)
{
    size_t n = strlen(name);
    if (!isfinite(v))
        snprintf(out, size, "-");
    else if (n > 11 && strcmp(name + n - 11, ".per_second") == 0)
        snprintf(out, size, "%.1f", v / 1e9);
    else if (strstr(name, "time_duration"))
        snprintf(out, size, "%.2f", v / 1e3);
    else if (strstr(name, "pct") || strstr(name, "ratio"))
        snprintf(out, size, "%.1f", v);
    else
        snprintf(out, size, "%.4g", v);
}

/* A column's heading: the nvprof name for the default set (with the unit shown), else
 * the metric's own name. */
static void heading(char *out, size_t size, const char *name)
{
    const char *nv = cutune_profile_nvprof_name(name);
    size_t n = strlen(name);
    const char *unit = n > 11 && strcmp(name + n - 11, ".per_second") == 0 ? " GB/s"
                       : strstr(name, "time_duration")                     ? " us"
                       : strstr(name, "pct")                               ? " %"
                                                                           : "";
    snprintf(out, size, "%s%s", nv ? nv : name, unit);
}

void cli_print_profile(const cutune_spec *spec, const cutune_tune_result *r)
{
    int nhw = cutune_tune_profile_count(r);
    const cutune_tune_summary *s = cutune_tune_summary_of(r);
    if (nhw == 0)
        return;
    if (s->profiled == 0) {
        fprintf(stderr, "cutune: no hardware counters were read%s%s; the times above stand\n",
                s->profile_note ? ": " : "", s->profile_note ? s->profile_note : "");
        return;
    }
    /* the profiled measurements, best objective first */
    uint64_t n = cutune_tune_count(r), k = 0;
    const cutune_measurement **rows = calloc((size_t)n + 1, sizeof *rows);
    if (!rows)
        return;
    for (uint64_t i = 0; i < n; i++)
        if (cutune_measurement_value(cutune_tune_at(r, i), CUTUNE_VALUE_PROFILED) != 0)
            rows[k++] = cutune_tune_at(r, i);
    for (uint64_t i = 1; i < k; i++) /* insertion sort: a handful of rows as a rule */
        for (uint64_t j = i; j > 0; j--) {
            double x = cutune_measurement_value(rows[j], CUTUNE_VALUE_OBJECTIVE);
            double y = cutune_measurement_value(rows[j - 1], CUTUNE_VALUE_OBJECTIVE);
            if (!(s->maximize ? x > y : x < y))
                break;
            const cutune_measurement *t = rows[j];
            rows[j] = rows[j - 1];
            rows[j - 1] = t;
        }
    printf("\nhardware counters (one profiled launch each, after timing; CUPTI, kernel replay):\n");
    char buf[160];
    for (int c = 0; c < nhw; c++) {
        heading(buf, sizeof buf, cutune_tune_profile_metric(r, c));
        printf("  [%c] %s\n", 'a' + c % 26, buf);
    }
    printf("\n  %-8s %9s %7s", "variant", "median ms", "theo %");
    for (int c = 0; c < nhw; c++)
        printf(" %9c", 'a' + c % 26);
    printf("  params\n");
    for (uint64_t i = 0; i < k; i++) {
        const cutune_measurement *m = rows[i];
        const cutune_variant *v = cutune_measurement_variant(m);
        snprintf(buf, sizeof buf, "#%llu", (unsigned long long)v->ordinal);
        printf("  %-8s %9.4f %7.1f", buf, cutune_measurement_value(m, CUTUNE_VALUE_MEDIAN_MS),
               cutune_measurement_value(m, CUTUNE_VALUE_OCCUPANCY) * 100);
        for (int c = 0; c < nhw; c++) {
            cell(buf, sizeof buf, cutune_measurement_hw_name(m, c), cutune_measurement_hw(m, c));
            printf(" %9s", buf);
        }
        printf(" ");
        for (int p = 0; p < v->nparams; p++)
            printf(" %s=%s", cutune_spec_param_name(spec, p), v->values[p]);
        printf("\n");
    }
    free(rows);
    if (s->profile_note)
        fprintf(stderr, "cutune: some counters were not read: %s\n", s->profile_note);
}
