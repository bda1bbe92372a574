/* cmd_simulate.c - `cutune simulate SPEC --results FULL.json ...`: a search strategy
 * replayed over a recorded exhaustive run instead of a GPU (cutune_simulate), to see
 * how close it gets to the true best for a budget. Also the search options `tune`
 * shares (cli_search_option). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

/* parse_budget: "N" or "P%" into s->budget or s->budget_percent; false after a usage
 * message naming `sub`. */
static bool parse_budget(const char *sub, const char *text, cutune_search_options *s)
{
    const char *rest = NULL;
    double v;
    if (cli_read_double(text, &rest, &v) && strcmp(rest, "%") == 0) {
        if (!(v > 0 && v <= 100)) {
            cli_usage_error(sub, "--budget P%% takes a percentage above 0 and at most 100, not '%s'", text);
            return false;
        }
        s->budget = 0;
        s->budget_percent = v;
        return true;
    }
    uint64_t n;
    if (!cli_read_uint(text, CLI_MAX_COUNT, &n) || n == 0) {
        cli_usage_error(sub, "--budget takes a number of evaluations from 1 to %llu or a percentage (5%%), not '%s'",
                        (unsigned long long)CLI_MAX_COUNT, text);
        return false;
    }
    s->budget = n;
    s->budget_percent = 0;
    return true;
}

bool cli_add_prior(const char *sub, const char **paths, int *n, const char *arg)
{
    if (*n >= CLI_MAX_PRIORS) {
        cli_usage_error(sub, "too many --prior files (at most %d)", CLI_MAX_PRIORS);
        return false;
    }
    paths[(*n)++] = arg;
    return true;
}

int cli_search_option(const char *sub, cutune_search_options *s, int opt, const char *arg)
{
    const char *unit = NULL;
    uint64_t n;
    double t;
    switch (opt) {
    case CLI_OPT_STRATEGY: {
        for (const char *const *name = cutune_strategy_list(); *name; name++)
            if (strcmp(arg, *name) == 0) {
                s->strategy = *name;
                return 1;
            }
        cli_usage_error(sub,
                        "unknown search strategy '%s' (the strategies are exhaustive, random, anneal, genetic, "
                        "local, guided and auto)",
                        arg);
        return -1;
    }
    case CLI_OPT_BUDGET: return parse_budget(sub, arg, s) ? 1 : -1;
    case CLI_OPT_TIME_BUDGET: {
        bool ok = cli_read_double(arg, &unit, &t) && t > 0 &&
                  (*unit == '\0' || strcmp(unit, "s") == 0 || strcmp(unit, "min") == 0 || strcmp(unit, "h") == 0);
        if (ok)
            t *= strcmp(unit, "min") == 0 ? 60 : strcmp(unit, "h") == 0 ? 3600 : 1;
        if (!ok || !isfinite(t)) {
            cli_usage_error(sub, "--time-budget takes a finite duration above 0 (seconds, or 90s, 10min, 2h), not '%s'",
                            arg);
            return -1;
        }
        s->time_s = t;
        return 1;
    }
    case CLI_OPT_PATIENCE:
        if (!cli_uint_option(sub, "--patience", "a number of evaluations", arg, 1, CLI_MAX_COUNT, &n))
            return -1;
        s->patience = n;
        return 1;
    case CLI_OPT_SEED:
        if (!cli_uint_option(sub, "--seed", "a seed", arg, 0, CLI_MAX_COUNT, &n))
            return -1;
        s->has_seed = 1;
        s->seed = n;
        return 1;
    default: return 0;
    }
}

/* Replays the search over `results` for the spec at `path` and prints the report, as
 * text or JSON: the exit code. */
static int simulate(const char *path, const char *results, const cli_common *c, const cutune_simulate_options *so,
                    bool json)
{
    int code;
    cutune_spec *spec = cli_load(path, c, &code);
    if (!spec)
        return code;
    int seen = cutune_spec_diagnostic_count(spec);
    cutune_sim_report *r = NULL;
    char *text = NULL;
    int rc = cutune_simulate(&r, spec, results, so);
    cli_print_new_diagnostics(spec, c, &seen);
    if (rc == CUTUNE_OK)
        rc = (json ? cutune_sim_report_json : cutune_sim_report_text)(&text, r, results, so->threads);
    if (rc == CUTUNE_OK)
        printf(json ? "%s\n" : "%s", text);
    cutune_free(text);
    cutune_sim_report_free(r);
    cutune_spec_free(spec);
    return cli_exit_for_status(rc);
}

/* opt_repeat, opt_threads: --repeat R and --threads N into the cutune_simulate_options
 * dest points to. */
static int opt_repeat(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    (void)o;
    uint64_t n;
    if (!cli_uint_option(sub, "--repeat", "a count", arg, 1, 100000, &n))
        return EXIT_USAGE;
    ((cutune_simulate_options *)dest)->repeat = (int)n;
    return EXIT_OK;
}

static int opt_threads(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    (void)o;
    unsigned long long n;
    if (!cli_parse_count(sub, "--threads", arg, &n))
        return EXIT_USAGE;
    if (n < 1 || n > 4096)
        return cli_usage_error(sub, "--threads takes a count from 1 to 4096, not '%s'", arg);
    ((cutune_simulate_options *)dest)->threads = (int)n;
    return EXIT_OK;
}

int cmd_simulate(int argc, char **argv)
{
    cli_common c;
    cli_init_common(&c);
    cutune_simulate_options so = CUTUNE_SIMULATE_OPTIONS_INIT;
    const char *results = NULL;
    const char *priors[CLI_MAX_PRIORS];
    cli_priors pr = {priors, &so.search};
    static const char *const formats[] = {"text", "json", NULL};
    int json = 0;
    const cli_opt table[] = {
        {"results", 0, true, CLI_TEXT, &results, NULL, 0, NULL, "FULL.json", "the recorded exhaustive run (required)"},
        CLI_SEARCH_ENTRY("strategy", &so.search, CLI_OPT_STRATEGY, CLI_STRATEGIES,
                         "the search (default: the spec's search; with a budget and\nno search in the spec, auto)"),
        CLI_SEARCH_ENTRY("budget", &so.search, CLI_OPT_BUDGET, "N|P%",
                         "the most evaluations: a count, or a percentage of the space"),
        {"repeat", 0, true, CLI_CALL, &so, opt_repeat, 0, NULL, "R", "runs, with seeds N, N+1, ... (default 1)"},
        CLI_SEARCH_ENTRY("seed", &so.search, CLI_OPT_SEED, "N", "the first run's seed (default: the spec's, else 0)"),
        CLI_SEARCH_ENTRY("time-budget", &so.search, CLI_OPT_TIME_BUDGET, "T",
                         "the most simulated time (the simulated wall, above):\n30, 90s, 10min, 2h"),
        {"threads", 0, true, CLI_CALL, &so, opt_threads, 0, NULL, "N",
         "compile threads of the simulated host (default 16)"},
        {"prior", 0, true, CLI_CALL, &pr, cli_opt_prior, 0, NULL, "FILE",
         "results of an earlier run of the kernel (another GPU or\nsize), repeatable: a prior for auto, as for "
         "tuning"},
        CLI_SEARCH_ENTRY("patience", &so.search, CLI_OPT_PATIENCE, "N", "stop after N evaluations without improvement"),
        {"format", 0, true, CLI_CHOICE, &json, NULL, 0, formats, "FORMAT", "text (default) or json"},
        CLI_COMMON_ENTRIES(&c),
    };
    int code = cli_parse_options("simulate", argc, argv, table, (int)(sizeof table / sizeof table[0]));
    if (code != EXIT_OK)
        goto done;
    if (so.search.has_seed && so.search.seed > CLI_MAX_COUNT - (uint64_t)(so.repeat - 1)) {
        code = cli_usage_error("simulate",
                               "--seed %llu with --repeat %d takes seeds past %llu (the largest a "
                               "results file holds)",
                               (unsigned long long)so.search.seed, so.repeat, (unsigned long long)CLI_MAX_COUNT);
        goto done;
    }
    if (optind != argc - 1) {
        code = cli_usage_error("simulate", optind >= argc ? "which spec? (cutune simulate SPEC --results FILE)"
                                                          : "one spec at a time");
        goto done;
    }
    if (!results) {
        code = cli_usage_error("simulate", "--results FILE is required: the results of an exhaustive run of the spec");
        goto done;
    }
    code = simulate(argv[optind], results, &c, &so, json);
done:
    cli_free_common(&c);
    return code;
}
