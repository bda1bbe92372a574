/* cmd_simulate.c - `cutune simulate SPEC --results FULL.json ...`: a search strategy
 * replayed over a recorded exhaustive run instead of a GPU (cutune_simulate), to see
 * how close it gets to the true best for a budget. */
#include <stdlib.h>
#include <string.h>

#include "options.h"

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
    cli_print(rc, &text, json ? "\n" : "");
    cutune_sim_report_free(r);
    cutune_spec_free(spec);
    return cli_exit_for_status(rc);
}

/* opt_count: --repeat R (1 to 100000) or --threads N (1 to 4096) into the
 * cutune_simulate_options dest points to. */
static int opt_count(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    cutune_simulate_options *so = dest;
    bool threads = strcmp(o->name, "threads") == 0;
    uint64_t n;
    if (!cli_uint_option(sub, threads ? "--threads" : "--repeat", "a count", arg, 1, threads ? 4096 : 100000, &n))
        return EXIT_USAGE;
    *(threads ? &so->threads : &so->repeat) = (int)n;
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
        {"results", 0, true, CLI_TEXT, &results, NULL, 0, NULL},
        CLI_SEARCH_ENTRY("strategy", &so.search),
        CLI_SEARCH_ENTRY("budget", &so.search),
        {"repeat", 0, true, CLI_CALL, &so, opt_count, 0, NULL},
        CLI_SEARCH_ENTRY("seed", &so.search),
        CLI_SEARCH_ENTRY("time-budget", &so.search),
        {"threads", 0, true, CLI_CALL, &so, opt_count, 0, NULL},
        {"prior", 0, true, CLI_CALL, &pr, cli_opt_prior, 0, NULL},
        CLI_SEARCH_ENTRY("patience", &so.search),
        {"format", 0, true, CLI_CHOICE, &json, NULL, 0, formats},
        CLI_COMMON_ENTRIES(&c),
    };
    int code = cli_parse_options("simulate", argc, argv, CLI_TABLE(table));
    if (code != EXIT_OK)
        goto done;
    if (cutune_simulate_check(&so) != CUTUNE_OK) { /* before the spec is loaded */
        code = cli_usage_error("simulate", "%s", cutune_last_error());
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
