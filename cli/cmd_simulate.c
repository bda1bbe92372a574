/* cmd_simulate.c - `cutune simulate SPEC --results FULL.json ...`: a search strategy
 * replayed over a recorded exhaustive run instead of a GPU (cutune_simulate), to see
 * how close it gets to the true best for a budget. Also the search options `tune`
 * shares (cli_search_option). */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

bool cli_parse_budget(const char *sub, const char *text, cutune_search_options *s)
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
    case CLI_OPT_BUDGET: return cli_parse_budget(sub, arg, s) ? 1 : -1;
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

static void print_text(const cutune_sim_report *r, const char *results, int threads)
{
    printf("simulate     %s over %s, %d compile threads and one GPU\n", r->strategy, results, threads);
    printf("space        %llu valid configurations, %llu ran correctly in the recording\n",
           (unsigned long long)r->space, (unsigned long long)r->recorded_ok);
    printf("true best    %s %.6g (#%llu)\n", r->objective_name, r->true_best, (unsigned long long)r->true_best_index);
    printf("budget       ");
    if (r->budget)
        printf("%llu evaluations (%.1f%% of the space)", (unsigned long long)r->budget,
               100.0 * (double)r->budget / (double)r->space);
    else
        printf("no evaluation limit");
    if (r->time_limit_s > 0)
        printf(", %.6g s (simulated)", r->time_limit_s);
    if (r->patience)
        printf(", patience %llu", (unsigned long long)r->patience);
    printf("; seeds %llu..%llu\n\n", (unsigned long long)r->seed,
           (unsigned long long)(r->seed + (uint64_t)r->nruns - 1));
    printf("%4s %8s %7s %8s %14s %8s %8s %10s %10s  %s\n", "run", "seed", "evals", "screened", "best", "/ true",
           "found at", "seconds", "bound", "stopped by");
    for (int i = 0; i < r->nruns; i++) {
        const cutune_sim_run *u = &r->runs[i];
        printf("%4d %8llu %7llu %8llu %14.6g %8.4f %8llu %10.4g %10.4g  %s\n", i + 1, (unsigned long long)u->seed,
               (unsigned long long)u->evaluations, (unsigned long long)u->screened, u->found ? u->best : NAN, u->ratio,
               (unsigned long long)u->best_at, u->seconds, u->bound_seconds, u->stop_reason);
    }
    printf("\nbest found / true best: median %.4f, quartiles %.4f .. %.4f, range %.4f .. %.4f (%d runs; median "
           "%.0f evaluations)\n",
           r->median, r->q1, r->q3, r->min, r->max, r->nruns, r->median_evaluations);
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
    if (rc == CUTUNE_OK && json)
        rc = cutune_sim_report_json(&text, r, results, so->threads);
    if (rc == CUTUNE_OK && json)
        printf("%s\n", text);
    else if (rc == CUTUNE_OK)
        print_text(r, results, so->threads > 0 ? so->threads : 16);
    cutune_free(text);
    cutune_sim_report_free(r);
    cutune_spec_free(spec);
    return cli_exit_for_status(rc);
}

int cmd_simulate(int argc, char **argv)
{
    cli_common c;
    cli_init_common(&c);
    cutune_simulate_options so = CUTUNE_SIMULATE_OPTIONS_INIT;
    const char *results = NULL;
    const char *priors[CLI_MAX_PRIORS];
    bool json = false;
    static const struct option longopts[] = {
        CLI_COMMON_OPTIONS,
        CLI_SEARCH_OPTIONS,
        {"results", required_argument, NULL, 'r'},
        {"repeat", required_argument, NULL, 'R'},
        {"threads", required_argument, NULL, 'T'},
        {"format", required_argument, NULL, 'f'},
        {NULL, 0, NULL, 0},
    };
    int opt, code = EXIT_OK;
    optind = 1;
    while ((opt = cli_getopt("simulate", argc, argv, "q", longopts)) != -1) {
        int handled = cli_common_option(&c, opt, optarg);
        if (handled == 0)
            handled = cli_search_option("simulate", &so.search, opt, optarg);
        if (handled < 0) {
            code = EXIT_USAGE;
            goto done;
        }
        if (handled)
            continue;
        switch (opt) {
        case 'r': results = optarg; break;
        case CLI_OPT_PRIOR:
            if (!cli_add_prior("simulate", priors, &so.search.npriors, optarg)) {
                code = EXIT_USAGE;
                goto done;
            }
            so.search.priors = priors;
            break;
        case 'R': {
            uint64_t n;
            if (!cli_uint_option("simulate", "--repeat", "a count", optarg, 1, 100000, &n)) {
                code = EXIT_USAGE;
                goto done;
            }
            so.repeat = (int)n;
            break;
        }
        case 'T': {
            unsigned long long n;
            if (!cli_parse_count("simulate", "--threads", optarg, &n)) {
                code = EXIT_USAGE;
                goto done;
            }
            if (n < 1 || n > 4096) {
                code = cli_usage_error("simulate", "--threads takes a count from 1 to 4096, not '%s'", optarg);
                goto done;
            }
            so.threads = (int)n;
            break;
        }
        case 'f':
            if (strcmp(optarg, "text") == 0)
                json = false;
            else if (strcmp(optarg, "json") == 0)
                json = true;
            else {
                code = cli_usage_error("simulate", "--format takes text or json, not '%s'", optarg);
                goto done;
            }
            break;
        default: code = EXIT_USAGE; goto done; /* cli_getopt said why */
        }
    }
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
