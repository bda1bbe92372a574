/* cmd_tune.c - `cutune SPEC`: the main job. With a GPU: compile every variant (ahead
 * of the GPU, on every core), run, verify and time each, and rank them. Without one:
 * everything that needs no GPU (check, count, compile, resources, occupancy), then a
 * plain statement of what was not done. */
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "options.h"
#include "../base/sys.h"

typedef struct tune_view {
    bool show_progress;
    double last, started;
} tune_view;

static void progress(void *user, const cutune_progress *p)
{
    tune_view *tv = user;
    double t = sys_seconds();
    if (!tv->show_progress || (t - tv->last < 0.2 && p->done != p->total))
        return;
    if (tv->started == 0)
        tv->started = t;
    tv->last = t;
    double rate = t > tv->started ? (double)p->done / (t - tv->started) : 0;
    fprintf(stderr, "\r\033[K[%llu/%llu] variants measured, %.1f/s, ETA %.0f s", (unsigned long long)p->done,
            (unsigned long long)p->total, rate, rate > 0 && p->total ? (double)(p->total - p->done) / rate : 0.0);
    if (p->done == p->total)
        fprintf(stderr, "\r\033[K");
}

/* cli_print_ranking: the `top` best variants of r (cutune_tune_rank) as a table on stdout. */
void cli_print_ranking(const cutune_spec *spec, const cutune_tune_result *r, int top)
{
    const cutune_tune_summary *s = cutune_tune_summary_of(r);
    const cutune_measurement **list = calloc((size_t)top + 1, sizeof *list);
    uint64_t k = 0;
    if (!list || cutune_tune_rank(list, (uint64_t)top, &k, r) != CUTUNE_OK) {
        free(list);
        return;
    }
    int nparams = cutune_spec_param_count(spec);
    printf("\n%4s %6s", "rank", "#");
    for (int p = 0; p < nparams; p++)
        printf("  %s", cutune_spec_param_name(spec, p));
    printf("  %11s %7s %14s %5s %5s %5s\n", "median ms", "spread", s->objective_name, "regs", "occ", "reps");
    for (uint64_t i = 0; i < k && i < (uint64_t)top; i++) {
        const cutune_measurement *m = list[i];
        const cutune_variant *v = cutune_measurement_variant(m);
        printf("%4llu %6llu", (unsigned long long)i + 1, (unsigned long long)v->ordinal);
        for (int p = 0; p < nparams; p++)
            printf("  %*s", (int)strlen(cutune_spec_param_name(spec, p)), v->values[p]);
        printf("  %11.4f %6.1f%% %14.4g %5d %4.0f%% %5d\n", cutune_measurement_value(m, CUTUNE_VALUE_MEDIAN_MS),
               cutune_measurement_value(m, CUTUNE_VALUE_SPREAD) * 100,
               cutune_measurement_value(m, CUTUNE_VALUE_OBJECTIVE),
               (int)cutune_measurement_value(m, CUTUNE_VALUE_REGISTERS),
               cutune_measurement_value(m, CUTUNE_VALUE_OCCUPANCY) * 100,
               (int)cutune_measurement_value(m, CUTUNE_VALUE_REPS));
    }
    free(list);
}

/* exit_of_tuning: the exit code of a tuning run that returned `rc` (after the CLI's own
 * adjustments: CUTUNE_ESTOPPED when none was chosen). */
static int exit_of_tuning(int rc, bool interrupted)
{
    if (interrupted)
        return EXIT_INTERRUPTED;
    switch (rc) {
    case CUTUNE_OK: return EXIT_OK;
    case CUTUNE_ESTOPPED: return EXIT_NOTHING;
    case CUTUNE_ENODEV: return EXIT_NO_GPU;
    default: return cli_exit_for_status(rc);
    }
}

/* tune_without_gpu: everything `cutune SPEC` can do without a GPU (the space summary is
 * already printed): compiles the variants (the first `limit` when not 0) for o->arch or
 * sm_90, prints the analysis summary, and then one plain verdict on stderr. `why` says
 * why there is no GPU; `emits` whether a header or CSV was asked for. Returns
 * EXIT_NO_GPU (not tuned; some variants could run on a GPU), EXIT_NOTHING (no variant
 * compiled and can launch: a GPU would not help), EXIT_INTERRUPTED, or the exit code of
 * a failure. */
static int tune_without_gpu(cutune_spec *spec, const char *path, const cli_common *c, cutune_analyze_options *o,
                            uint64_t limit, const char *why, bool emits)
{
    cutune_space_size size;
    bool sized = cutune_space_count(&size, spec) == CUTUNE_OK && !size.valid_saturated && !size.valid_estimated;
    bool limited = limit > 0 && !(sized && limit >= size.valid);
    o->limit = limit;
    if (limited && !c->quiet) /* -q: only the verdict below */
        fprintf(stderr, "\ncompiling the first %llu variants (--limit; no GPU needed; details: cutune analyze %s)\n",
                (unsigned long long)limit, path);
    else if (!c->quiet)
        fprintf(stderr, "\ncompiling every variant (no GPU needed; details: cutune analyze %s)\n", path);
    cli_analysis a;
    memset(&a, 0, sizeof a);
    a.arch = "";
    int code = EXIT_OK, nsizes = cutune_spec_size_count(spec);
    for (int k = 0; k < nsizes && code == EXIT_OK; k++) { /* each problem size, as a GPU run would */
        cli_analysis one;
        if (nsizes > 1) {
            if (cutune_spec_select_size(spec, k) != CUTUNE_OK)
                return cli_exit_for_status(CUTUNE_ESPEC);
            if (!c->quiet) {
                fprintf(stderr, "\nsize");
                for (int j = 0; j < cutune_spec_size_var_count(spec); j++)
                    fprintf(stderr, " %s=%lld", cutune_spec_size_var(spec, j),
                            (long long)cutune_spec_size_value(spec, k, j));
                fprintf(stderr, ":\n");
            }
        }
        code = cli_run_analysis(spec, c, o, CLI_ANALYZE_NONE, &one);
        a.variants += one.variants;
        a.runnable += one.runnable;
        a.failed += one.failed;
        a.unlaunchable += one.unlaunchable;
        a.interrupted |= one.interrupted;
        a.arch = one.arch;
    }
    if (nsizes > 1)
        cutune_spec_select_size(spec, 0);
    if (code != EXIT_OK)
        return code; /* interrupted (the summary says what was covered), or a failure */
    if (a.runnable == 0) {
        if (!c->quiet)
            fprintf(stderr, "\n");
        cli_report_nothing_runs("cutune", &a);
        fprintf(stderr,
                "Nothing was tuned, and a GPU would not change that: the kernel or the spec must.\n"
                "(This machine has no usable GPU either: %s)\n",
                why);
        return EXIT_NOTHING;
    }
    fprintf(stderr, "%scutune: NOT TUNED. Timing needs a GPU, and this machine has none usable: %s\n",
            c->quiet ? "" : "\n", why);
    if (c->quiet)
        return EXIT_NO_GPU; /* -q: the verdict only */
    if (a.failed == 0 && a.unlaunchable == 0 && !limited) {
        fprintf(stderr, "Everything that needs no GPU was done: the spec is valid, its space is counted and every "
                        "variant compiled.\n");
    } else {
        char n[32];
        fprintf(stderr,
                "Everything that needs no GPU was done: the spec is valid and its space is counted. Of %s "
                "variants%s, %llu compiled and can launch, %llu failed to compile and %llu cannot launch;\n"
                "on a GPU, only those %llu would run.\n",
                cli_format_count(a.variants, n, sizeof n), limited ? " (the first, --limit)" : "",
                (unsigned long long)a.runnable, (unsigned long long)a.failed, (unsigned long long)a.unlaunchable,
                (unsigned long long)a.runnable);
    }
    if (emits)
        fprintf(stderr, "No header or CSV was written: they come from measurements.\n");
    return EXIT_NO_GPU;
}

/* print_account: the run's account (cutune_tune_account: not with -q) and its warnings
 * (also with -q) on stderr. */
static void print_account(const cutune_tune_result *r, bool quiet)
{
    char *text = NULL;
    if (!quiet && cutune_tune_account(&text, r) == CUTUNE_OK)
        fprintf(stderr, "\n%s", text);
    cutune_free(text);
    text = NULL;
    if (cutune_tune_warnings(&text, r) == CUTUNE_OK)
        fputs(text, stderr);
    cutune_free(text);
}

/* --emit-dir, and the spec's emit paths that leave its folder: each block's that the
 * command line does not replace must be allowed (cutune_blocks_emit_check), or nothing
 * is tuned. EXIT_OK, or the exit code after saying why. */
static int check_emit_paths(cutune_spec *spec, const cli_common *c, const char *emit_dir, const char *header_path,
                            const char *csv_path, const char *results_path)
{
    if (emit_dir && cutune_spec_set_emit_dir(spec, emit_dir) != CUTUNE_OK)
        return cli_usage_error("tune", "--emit-dir: %s", cutune_last_error());
    cutune_blocks_options bo = CUTUNE_BLOCKS_OPTIONS_INIT;
    bo.selected_only = c->kernel != NULL;
    char *refused = NULL;
    if (cutune_blocks_emit_check(&refused, spec, &bo, header_path != NULL, csv_path != NULL, results_path != NULL) !=
        CUTUNE_OK)
        return cli_exit_for_status(CUTUNE_ENOMEM);
    for (const char *line = refused; *line; line = strchr(line, '\n') + 1)
        fprintf(stderr, "cutune: %.*s\n", (int)(strchr(line, '\n') - line), line);
    int code = refused[0] ? EXIT_USAGE : EXIT_OK;
    cutune_free(refused);
    return code;
}

/* What `cutune SPEC` was asked: the options, and what follows from them. */
typedef struct tune_args {
    cli_common c;
    cutune_analyze_options o;
    cutune_tune_options t;
    unsigned long long limit;           /* --limit N (cutune_tune_options.limit) */
    int top;                            /* --top N; by default 10, and none with -q (which prints only the best) */
    const char *header_path, *csv_path; /* NULL: the spec's emit header/csv */
    const char *report_path;            /* --report: the HTML report (NULL: none) */
    const char *emit_dir;               /* --emit-dir: where emit paths leaving the spec's folder may go */
    const char *hw_names[256];          /* --metric */
    int nhw;
    const char *priors[CLI_MAX_PRIORS];  /* --prior */
    cli_shard shard;                     /* --shard; count 0: none */
    bool device_given, per_device;       /* --device; --per-device */
    int devs[64], ndevs;                 /* --devices */
    char *shard_results, *shard_journal; /* --shard: its results and journal paths */
    const char *spec_path;
    int worst; /* the block loop's first exit code other than EXIT_OK */
} tune_args;

/* The handlers of tune's own options that need more than a store (options.h). */
static int opt_device(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    (void)o;
    tune_args *a = dest;
    long long n;
    a->device_given = true;
    if (!cli_int_option(sub, "--device", "a GPU number", arg, 0, CLI_MAX_GPU, &n))
        return EXIT_USAGE;
    a->t.device = (int)n;
    return EXIT_OK;
}

static int opt_prior(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    (void)o;
    tune_args *a = dest;
    if (!cli_add_prior(sub, a->priors, &a->t.search.npriors, arg))
        return EXIT_USAGE;
    a->t.search.priors = a->priors;
    return EXIT_OK;
}

static int opt_number(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    tune_args *a = dest;
    long long n;
    switch (o->set) {
    case 't':
        if (!cli_int_option(sub, "--top", "a count", arg, 0, INT_MAX, &n))
            return EXIT_USAGE;
        a->top = (int)n;
        return EXIT_OK;
    case 'p':
        if (!cli_read_double(arg, NULL, &a->t.prune) || !(a->t.prune == -1 || a->t.prune > 1))
            return cli_usage_error(sub, "--prune takes a finite factor above 1 (or -1 for never), not '%s'", arg);
        return EXIT_OK;
    default: /* 'T' */
        if (!cli_read_double(arg, NULL, &a->t.timeout_s) || !(a->t.timeout_s > 0 && a->t.timeout_s <= CLI_MAX_SECONDS))
            return cli_usage_error(sub, "--timeout takes seconds above 0, at most %d, not '%s'", CLI_MAX_SECONDS, arg);
        return EXIT_OK;
    }
}

static int opt_devices(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    (void)o;
    tune_args *a = dest;
    if (cli_parse_devices(arg, a->devs, 64, &a->ndevs) == 0)
        return EXIT_OK;
    if (strcmp(arg, "all") != 0)
        return cli_usage_error(sub, "--devices takes all or GPU numbers such as 0,1, not '%s'", arg);
    fprintf(stderr, "cutune: --devices all: %s\n",
            cutune_last_error()[0] ? cutune_last_error() : "the driver sees no GPU");
    return EXIT_NO_GPU;
}

static int opt_shard(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    (void)o;
    return cli_parse_shard(sub, arg, dest) < 0 ? EXIT_USAGE : EXIT_OK;
}

static int opt_metrics(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    tune_args *a = dest;
    long long n;
    if (o->set == 'M') { /* --metrics N|all */
        if (strcmp(arg, "all") == 0) {
            a->t.profile_top = -1;
        } else if (!cli_read_int(arg, 1, 1000000, &n)) {
            return cli_usage_error(sub, "--metrics takes a count of variants from 1 to 1000000, or all, not '%s'", arg);
        } else {
            a->t.profile_top = (int)n;
        }
        return EXIT_OK;
    }
    const char *const *defaults; /* --metric NAME|default */
    int nd = cutune_profile_default_metrics(&defaults), max = (int)(sizeof a->hw_names / sizeof a->hw_names[0]);
    bool is_default = strcmp(arg, "default") == 0;
    if (a->nhw + (is_default ? nd : 1) > max)
        return cli_usage_error(sub, "too many --metric names (at most %d)", max);
    for (int i = 0; is_default && i < nd; i++)
        a->hw_names[a->nhw++] = defaults[i];
    if (!is_default)
        a->hw_names[a->nhw++] = arg;
    return EXIT_OK;
}

/* parse_tune: the command line into *a (after tune_args_init). EXIT_OK, or the exit code
 * after a message. */
static int parse_tune(tune_args *a, int argc, char **argv)
{
    const cli_opt table[] = {
        /* the help's order, and so getopt_long's: "did you mean" and ambiguity name them in it */
        {"device", 0, true, CLI_CALL, a, opt_device, 0, NULL, "N", "the GPU to tune on (default 0)"},
        {"results", 0, true, CLI_TEXT, &a->t.results_path, NULL, 0, NULL, "FILE",
         "write the results JSON here (default: the spec's emit results)"},
        {"header", 0, true, CLI_TEXT, &a->header_path, NULL, 0, NULL, "FILE",
         "write the best-config header here (default: the spec's emit\nheader; docs/header.md)"},
        {"csv", 0, true, CLI_TEXT, &a->csv_path, NULL, 0, NULL, "FILE",
         "write every variant as CSV here (default: the spec's emit csv)"},
        {"report", 0, true, CLI_TEXT, &a->report_path, NULL, 0, NULL, "FILE",
         "write the run's HTML report here (as cutune report; docs/report.md)"},
        {"emit-dir", 0, true, CLI_TEXT, &a->emit_dir, NULL, 0, NULL, "DIR",
         "let the spec's emit paths that leave its folder (absolute, or\n../) write into DIR or below; without it "
         "they are refused"},
        {"limit", 0, true, CLI_CALL, &a->limit, cli_opt_count, 0, NULL, "N", "only the first N configurations"},
        {"shard", 0, true, CLI_CALL, &a->shard, opt_shard, 0, NULL, "I/N|auto",
         "tune only shard I of N: ordinals in runs of the last param's\nvalues, dealt out in turn (ordinal / run % N "
         "== I; auto: the\nrank and size mpirun, srun or a Slurm job array set, and the\nGPU of the local rank); "
         "results go to RESULTS.shard-I-of-N.json,\nand cutune merge joins the shards' files"},
        {"devices", 0, true, CLI_CALL, a, opt_devices, 0, NULL, "all|0,1",
         "every GPU named at once: a cutune process per GPU, each tuning\na shard there; their results merged into "
         "the results file,\nfrom which the ranking, header, CSV and report are made"},
        {"per-device", 0, false, CLI_BOOL, &a->per_device, NULL, 0, NULL, NULL,
         "with --devices: every configuration on every GPU (RESULTS.gpuN.json\neach), the spread of the same "
         "variants' times between the GPUs,\nand one header with an entry per device"},
        {"top", 0, true, CLI_CALL, a, opt_number, 't', NULL, "N", "rows of the ranking to print (default 10)"},
        {"prune", 0, true, CLI_CALL, a, opt_number, 'p', NULL, "F",
         "stop timing a variant worse than the best by factor F (default\n1.5; -1: never)"},
        {"journal", 0, true, CLI_TEXT, &a->t.journal_path, NULL, 0, NULL, "FILE",
         "the journal (default: the results path + .journal): every\noutcome is appended and synced as it happens; "
         "a later run of\nthe same spec on the same device resumes from it"},
        {"fresh", 0, false, CLI_INT, &a->t.fresh, NULL, 1, NULL, NULL,
         "discard an existing journal instead of resuming it"},
        {"flush-l2", 0, false, CLI_INT, &a->t.flush_l2, NULL, 1, NULL, NULL,
         "override the spec's measure(flush_l2 = ...)"},
        {"no-flush-l2", 0, false, CLI_INT, &a->t.flush_l2, NULL, 0, NULL, NULL, ""},
        {"energy", 0, false, CLI_INT, &a->t.energy, NULL, 1, NULL, NULL,
         "also measure the energy per launch of every variant timed in\nfull (NVML; as measure(energy = true))"},
        {"metrics", 0, true, CLI_CALL, a, opt_metrics, 'M', NULL, "N|all",
         "after timing, read hardware counters (CUPTI) of the best N\nvariants that ran ok, or of all, each in a "
         "profiled launch of\nits own (`cutune metrics` lists the default set)"},
        {"metric", 0, true, CLI_CALL, a, opt_metrics, 'm', NULL, "NAME",
         "a counter to read instead of the default set (repeatable;\n`default` adds the default set; implies "
         "--metrics 5)"},
        {"run-twins", 0, false, CLI_INT, &a->t.run_twins, NULL, 1, NULL, NULL,
         "also run variants whose machine code, launch and arguments\nequal those of one already run (by default "
         "they share its figures)"},
        {"timeout", 0, true, CLI_CALL, a, opt_number, 'T', NULL, "S",
         "a variant's time limit: a hang is killed and recorded\n(default: the spec's measure(timeout), else derived "
         "from the\nreference's time, at least 10 s)"},
        CLI_SEARCH_ENTRY("strategy", &a->t.search, CLI_OPT_STRATEGY, CLI_STRATEGIES,
                         "the search (default: the spec's `search`; with a budget and\nno `search` in the spec, "
                         "auto; docs/search.md)"),
        CLI_SEARCH_ENTRY("budget", &a->t.search, CLI_OPT_BUDGET, "N|P%",
                         "the most configurations to measure (a count or a percentage\nof the valid space)"),
        CLI_SEARCH_ENTRY("time-budget", &a->t.search, CLI_OPT_TIME_BUDGET, "T",
                         "the most time for the search: 600, 90s, 10min, 2h"),
        CLI_SEARCH_ENTRY("patience", &a->t.search, CLI_OPT_PATIENCE, "N",
                         "stop after N measurements without improvement"),
        CLI_SEARCH_ENTRY("seed", &a->t.search, CLI_OPT_SEED, "N",
                         "the search's random seed (same seed, same sequence)"),
        {"prior", 0, true, CLI_CALL, a, opt_prior, 0, NULL, "FILE",
         "results of an earlier run of the kernel (another GPU or\nsize), repeatable: auto starts from its best "
         "configurations\nand learns how well it predicts this run"},
        {"arch", 0, true, CLI_TEXT, &a->o.arch, NULL, 0, NULL, "sm_XX",
         "without a GPU: compile for this architecture (default sm_90)"},
        CLI_JOBS_ENTRY(&a->o),
        CLI_CACHE_ENTRIES(&a->o),
        CLI_CONFIG_ENTRY(&a->c),
        CLI_SPEC_ENTRIES(&a->c),
        {"quiet", 'q', false, CLI_BOOL, &a->c.quiet, NULL, 0, NULL, NULL,
         "print only errors, warnings and the best configuration (the\nranking too when --top N is given)"},
    };
    int code = cli_parse_options("tune", argc, argv, table, (int)(sizeof table / sizeof table[0]));
    if (code != EXIT_OK)
        return code;
    if (optind != argc - 1)
        return cli_usage_error("tune", optind >= argc ? "which spec? (cutune SPEC)" : "one spec at a time");
    a->spec_path = argv[optind];
    a->t.limit = a->limit;
    if (a->top < 0)
        a->top = a->c.quiet ? 0 : 10;
    if (a->nhw == 0)
        return EXIT_OK;
    a->t.profile_metrics = a->hw_names; /* --metric alone reads the best five's */
    a->t.nprofile_metrics = a->nhw;
    if (a->t.profile_top == 0)
        a->t.profile_top = 5;
    int count = 0; /* a mistyped counter is a usage error, found before anything runs */
    cutune_device d0;
    const char *arch = a->o.arch;
    if (!arch && cutune_device_count(&count) == CUTUNE_OK && count > a->t.device &&
        cutune_device_get(&d0, a->t.device) == CUTUNE_OK)
        arch = d0.arch;
    if (cutune_profile_check(arch, a->hw_names, a->nhw) == CUTUNE_EINVAL)
        return cli_usage_error("tune", "--metric: %s", cutune_last_error());
    return EXIT_OK;
}

/* load_spec: the spec, its device attributes a GPU's when there is one; NULL with *code
 * set when it cannot be used. */
static cutune_spec *load_spec(tune_args *a, int *code)
{
    a->c.arch = a->o.arch; /* without a GPU, the device attributes are this arch's (with one, the GPU's) */
    cutune_spec *spec = cli_load(a->spec_path, &a->c, code);
    if (!spec || !cli_reads_device(spec)) /* on a GPU, its values in the summary rather than the table's */
        return spec;
    cutune_device gpu_dev;
    if (cutune_device_get(&gpu_dev, a->t.device) == CUTUNE_OK) {
        int seen_dev = cutune_spec_diagnostic_count(spec);
        int rc_dev = cutune_spec_set_device(spec, &gpu_dev);
        cli_print_new_diagnostics(spec, &a->c, &seen_dev);
        if (rc_dev < 0) {
            *code = cli_exit_for_status(rc_dev);
            cutune_spec_free(spec);
            return NULL;
        }
    }
    return spec;
}

/* setup_shard: --shard: this process tunes one shard into a results file (and journal)
 * of its own, on the GPU of the launcher's local rank. EXIT_OK or an exit code. */
static int setup_shard(tune_args *a, cutune_spec *spec, int nblocks)
{
    const char *base = a->t.results_path ? a->t.results_path : cutune_spec_emit_path(spec, "results");
    if (nblocks > 1 || !base)
        return cli_usage_error("tune", nblocks > 1 ? "--shard tunes one kernel block: name it with --kernel NAME"
                                                   : "--shard needs a results file to write (--results FILE): "
                                                     "cutune merge joins the shards' files");
    if (cutune_tune_set_shard(&a->t, spec, a->shard.index, a->shard.count, a->device_given ? -1 : a->shard.local,
                              &a->shard_results, &a->shard_journal) != CUTUNE_OK)
        return EXIT_INTERNAL;
    a->o.shard_index = a->shard.index; /* the analysis without a GPU */
    a->o.shard_count = a->shard.count;
    char on[48]; /* a shard per host may use every GPU of its host (--devices) */
    snprintf(on, sizeof on, a->ndevs > 1 ? "%d GPUs" : "GPU %d", a->ndevs > 1 ? a->ndevs : a->t.device);
    if (!a->c.quiet)
        fprintf(stderr, "shard %d of %d%s%s (%s): results to %s%s%s\n", a->shard.index, a->shard.count,
                a->shard.launcher ? ", from " : "", a->shard.launcher ? a->shard.launcher : "", on, a->shard_results,
                a->shard_journal ? ", journal " : "", a->shard_journal ? a->shard_journal : "");
    a->header_path = a->csv_path = a->report_path = NULL;
    return EXIT_OK;
}

/* setup_run: the checks and settings between the loaded spec and the tuning: emit paths,
 * one-file options with several blocks, the shard, the GPUs named. EXIT_OK, or an exit
 * code (after a message). */
static int setup_run(tune_args *a, cutune_spec *spec, int nblocks)
{
    int code = check_emit_paths(spec, &a->c, a->emit_dir, a->header_path, a->csv_path, a->t.results_path);
    if (code != EXIT_OK)
        return code;
    if (nblocks > 1 && (a->t.results_path || a->t.journal_path || a->csv_path || a->report_path))
        return cli_usage_error("tune",
                               "the spec has %d kernel blocks: --results, --journal, --csv and --report "
                               "name one file; use the blocks' emit statements, or --kernel NAME",
                               nblocks);
    if (a->shard.count > 1 && (code = setup_shard(a, spec, nblocks)) != EXIT_OK)
        return code;
    if (a->device_given && a->ndevs > 0)
        return cli_usage_error("tune", "--device and --devices both name GPUs: give one of them");
    if (a->per_device && a->ndevs < 2)
        return cli_usage_error("tune", "--per-device goes with --devices naming two GPUs or more");
    int per_device = a->per_device;
    if (cutune_tune_set_devices(&a->t, a->devs, a->ndevs, &per_device) == 1 && !a->c.quiet)
        fprintf(stderr, "note: these GPUs are not all of one model: each tunes every configuration "
                        "(as --per-device)\n");
    a->per_device = per_device;
    for (int i = 1; a->ndevs > 1 && !a->per_device && i < a->ndevs; i++)
        for (int j = 0; j < i && !a->c.quiet; j++)
            if (a->devs[j] == a->devs[i]) /* allowed: a check of the machinery on one GPU */
                fprintf(stderr,
                        "note: --devices names GPU %d twice: two workers share it, and their times "
                        "disturb each other\n",
                        a->devs[i]);
    return EXIT_OK; /* with per_device, cmd_tune hands it to cli_tune_per_device */
}

/* print_winners: each size's best (or the run's) on stdout, its energy when measured. */
static void print_winners(const cutune_spec *spec, const cutune_tune_result *r, int top)
{
    const cutune_tune_summary *s = cutune_tune_summary_of(r);
    int nsizes = cutune_tune_size_count(r);
    for (int k = 0; k < (nsizes ? nsizes : 1); k++) {
        const cutune_tune_result *one = nsizes ? cutune_tune_size(r, k) : r;
        const cutune_measurement *b = cutune_tune_best(one);
        if (!b)
            continue;
        printf(k == 0 && top > 0 ? "\nbest" : "best");
        for (int j = 0; j < cutune_tune_size_var_count(one); j++)
            printf("%s%s=%lld", j ? " " : " at ", cutune_tune_size_var(one, j),
                   (long long)cutune_tune_size_value(one, j));
        const cutune_variant *v = cutune_measurement_variant(b);
        printf(": #%llu", (unsigned long long)v->ordinal);
        for (int p = 0; p < v->nparams; p++)
            printf(" %s=%s", cutune_spec_param_name(spec, p), v->values[p]);
        printf("  median %.4f ms, %s %.6g\n", cutune_measurement_value(b, CUTUNE_VALUE_MEDIAN_MS), s->objective_name,
               cutune_measurement_value(b, CUTUNE_VALUE_OBJECTIVE));
        if (cutune_measurement_value(b, CUTUNE_VALUE_ENERGY) != 0)
            printf("      energy %.4g mJ per launch at %.1f W (the board's, over %d launches in %.2f s)\n",
                   cutune_measurement_value(b, CUTUNE_VALUE_ENERGY_J) * 1e3,
                   cutune_measurement_value(b, CUTUNE_VALUE_POWER_W),
                   (int)cutune_measurement_value(b, CUTUNE_VALUE_ENERGY_LAUNCHES),
                   cutune_measurement_value(b, CUTUNE_VALUE_ENERGY_SECONDS));
        else if (cutune_measurement_energy_note(b))
            fprintf(stderr, "cutune: %s\n", cutune_measurement_energy_note(b));
    }
}

/* print_tuned: what a run found: each size's ranking, the counters, the account (not with
 * -q), the warnings and the winners. Returns rc, made CUTUNE_ESTOPPED when none won. */
static int print_tuned(const tune_args *a, const cutune_spec *spec, const cutune_tune_result *r, int rc)
{
    int nsizes = cutune_tune_size_count(r);
    if (nsizes == 0 && a->top > 0)
        cli_print_ranking(spec, r, a->top);
    for (int k = 0; k < nsizes && a->top > 0; k++) { /* a run over sizes: each size's ranking */
        const cutune_tune_result *one = cutune_tune_size(r, k);
        printf("\nsize");
        for (int j = 0; j < cutune_tune_size_var_count(one); j++)
            printf(" %s=%lld", cutune_tune_size_var(one, j), (long long)cutune_tune_size_value(one, j));
        printf(":");
        cli_print_ranking(spec, one, a->top);
    }
    if (nsizes == 0)
        cli_print_profile(spec, r);
    for (int k = 0; k < nsizes; k++)
        cli_print_profile(spec, cutune_tune_size(r, k));
    print_account(r, a->c.quiet);
    print_winners(spec, r, a->top);
    cutune_tune_verdict v;
    cutune_tune_verdict_of(&v, r);
    if (v.sizes && v.winners < v.sizes)
        fprintf(stderr, "cutune: %d of %d sizes have no variant that ran correctly\n", v.sizes - v.winners, v.sizes);
    if (v.winners == 0) {
        fprintf(stderr, v.nothing_compiled ? "cutune: NOTHING COMPILED: no variant compiled, so none was chosen\n"
                                           : "cutune: no variant ran correctly, so none was chosen\n");
        if (rc == CUTUNE_OK)
            rc = CUTUNE_ESTOPPED;
    }
    return rc;
}

/* tune_on_gpu: block b tuned on the GPU(s), its results printed and its files written.
 * The exit code. */
static int tune_on_gpu(tune_args *a, cutune_spec *spec, cutune_block *b)
{
    if (a->o.arch && !a->c.quiet)
        fprintf(stderr, "note: --arch is ignored when tuning: variants are compiled for the GPU's own\n");
    a->t.jobs = a->o.jobs;
    a->t.cache_dir = a->o.cache_dir;
    a->t.no_cache = a->o.no_cache;
    tune_view tv = {isatty(STDERR_FILENO) && !a->c.quiet, 0, 0};
    a->t.progress = progress;
    a->t.progress_user = &tv;
    a->t.cancel = cli_catch_interrupts();
    int seen = cutune_spec_diagnostic_count(spec);
    cutune_tune_result *r = NULL;
    int rc = cutune_tune(&r, spec, &a->t);
    bool interrupted = r && cutune_tune_summary_of(r)->interrupted;
    cli_print_new_diagnostics(spec, &a->c, &seen);
    if (r && !a->c.quiet)
        cli_print_device_attrs(spec, stderr, "device attributes: ");
    if (rc == CUTUNE_ENODEV && !r)
        fprintf(stderr, "cutune: %s\n", cutune_last_error());
    if (!r)
        return exit_of_tuning(rc, interrupted);
    rc = print_tuned(a, spec, r, rc);
    if (a->shard.count > 1) { /* one shard's winner is not the run's: no header from it */
        if (!a->c.quiet)
            fprintf(stderr, "a shard writes only its results: cutune merge joins the shards' files, then "
                            "cutune emit header|csv and cutune report work on the merged one\n");
    } else if (cli_emit_after_tune(spec, r, a->header_path, a->csv_path, &a->c, b->header_append) != EXIT_OK &&
               rc == CUTUNE_OK) {
        rc = CUTUNE_EIO;
    }
    if (a->report_path && cli_report_after_tune(r, a->spec_path, a->report_path, a->c.quiet) != EXIT_OK &&
        rc == CUTUNE_OK)
        rc = CUTUNE_EIO;
    else if (cutune_tune_best(r) || cutune_tune_size_count(r) > 0)
        b->header_written = 1;
    cutune_tune_result_free(r);
    return exit_of_tuning(rc, interrupted);
}

/* tune_block: cutune_tune_blocks' callback: one kernel block's space summary, then its
 * tuning, or without a GPU all that needs none. The exit code is kept in a->worst; the
 * loop goes on after EXIT_OK and EXIT_NO_GPU only. */
static int tune_block(void *user, cutune_spec *spec, cutune_block *b)
{
    tune_args *a = user;
    cli_select_block(spec, &a->c, b->index, stdout);
    a->c.strategy = cutune_tune_strategy(spec, &a->t.search); /* NULL (unknown): cutune_tune says so */
    int code = cli_space_summary(spec, &a->c, a->c.quiet ? CLI_SUMMARY_NONE : CLI_SUMMARY_TEXT);
    int devices = 0;
    bool gpu = code == EXIT_OK && cutune_device_count(&devices) == CUTUNE_OK && devices > 0;
    if (code == EXIT_OK && !gpu) {
        char why[600];
        snprintf(why, sizeof why, "%s",
                 devices == 0 && cutune_last_error()[0] == '\0' ? "the driver sees no device" : cutune_last_error());
        bool emits = a->header_path || a->csv_path || cutune_spec_emit_path(spec, "header") ||
                     cutune_spec_emit_path(spec, "csv");
        code = tune_without_gpu(spec, a->spec_path, &a->c, &a->o, a->t.limit, why, emits);
        if (a->report_path)
            fprintf(stderr, "No report was written: it comes from measurements.\n");
    } else if (code == EXIT_OK) {
        code = tune_on_gpu(a, spec, b);
    }
    if (code != EXIT_OK && a->worst == EXIT_OK)
        a->worst = code;
    return code == EXIT_OK ? CUTUNE_OK : code == EXIT_NO_GPU ? CUTUNE_ENODEV : CUTUNE_ESTOPPED;
}

int cmd_tune(int argc, char **argv)
{
    tune_args a = {.o = CUTUNE_ANALYZE_OPTIONS_INIT,
                   .t = CUTUNE_TUNE_OPTIONS_INIT,
                   .top = -1,
                   .shard = {0, 0, -1, NULL}};
    cli_init_common(&a.c);
    cutune_spec *spec = NULL;
    int code = parse_tune(&a, argc, argv);
    if (code == EXIT_OK)
        spec = load_spec(&a, &code);
    /* Several kernel blocks: each tuned in turn (stopping at a failure), each with its own
     * emits; blocks that share a header path share the header (cutune_tune_blocks). */
    int nblocks = spec ? cli_blocks(spec, &a.c) : 0;
    if (spec && (code = setup_run(&a, spec, nblocks)) == EXIT_OK) {
        if (a.ndevs > 1 && a.per_device) { /* a cutune process per GPU, every configuration on each */
            code = cli_tune_per_device(spec, argc, argv, a.devs, a.ndevs, nblocks, &a.t, &a.o, &a.c, a.header_path,
                                       a.shard.count);
        } else {
            cutune_blocks_options bo = CUTUNE_BLOCKS_OPTIONS_INIT;
            bo.selected_only = a.c.kernel != NULL;
            bo.header_path = a.header_path;
            cutune_tune_blocks(spec, &bo, tune_block, &a);
            code = a.worst;
        }
    }
    cutune_spec_free(spec);
    cutune_free(a.shard_results);
    cutune_free(a.shard_journal);
    cli_free_common(&a.c);
    return code;
}
