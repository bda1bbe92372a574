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
#include "format.h"
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

/* Ranked: timed, complete (not pruned) variants by the objective, best first. */
typedef struct ranked {
    const cutune_measurement *m;
    uint64_t index;
} ranked;

static int maximize_order;

static int by_objective(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    double x = cutune_measurement_value(a->m, CUTUNE_VALUE_OBJECTIVE);
    double y = cutune_measurement_value(b->m, CUTUNE_VALUE_OBJECTIVE);
    int c = (x > y) - (x < y);
    return maximize_order ? -c : c;
}

void cli_print_ranking(const cutune_spec *spec, const cutune_tune_result *r, int top)
{
    const cutune_tune_summary *s = cutune_tune_summary_of(r);
    uint64_t n = cutune_tune_count(r);
    ranked *list = calloc(n + 1, sizeof *list);
    if (!list)
        return;
    uint64_t k = 0;
    for (uint64_t i = 0; i < n; i++) {
        const cutune_measurement *m = cutune_tune_at(r, i);
        if (cutune_measurement_value(m, CUTUNE_VALUE_TIMED) != 0 && cutune_measurement_value(m, CUTUNE_VALUE_PRUNED) == 0 &&
            isfinite(cutune_measurement_value(m, CUTUNE_VALUE_OBJECTIVE)))
            list[k++] = (ranked){m, i};
    }
    maximize_order = s->maximize;
    qsort(list, k, sizeof *list, by_objective);
    int nparams = cutune_spec_param_count(spec);
    printf("\n%4s %6s", "rank", "#");
    for (int p = 0; p < nparams; p++)
        printf("  %s", cutune_spec_param_name(spec, p));
    printf("  %11s %7s %14s %5s %5s %5s\n", "median ms", "spread", s->objective_name, "regs", "occ", "reps");
    for (uint64_t i = 0; i < k && i < (uint64_t)top; i++) {
        const cutune_measurement *m = list[i].m;
        const cutune_variant *v = cutune_measurement_variant(m);
        printf("%4llu %6llu", (unsigned long long)i + 1, (unsigned long long)v->ordinal);
        for (int p = 0; p < nparams; p++)
            printf("  %*s", (int)strlen(cutune_spec_param_name(spec, p)), v->values[p]);
        printf("  %11.4f %6.1f%% %14.4g %5d %4.0f%% %5d\n", cutune_measurement_value(m, CUTUNE_VALUE_MEDIAN_MS),
               cutune_measurement_value(m, CUTUNE_VALUE_SPREAD) * 100, cutune_measurement_value(m, CUTUNE_VALUE_OBJECTIVE),
               (int)cutune_measurement_value(m, CUTUNE_VALUE_REGISTERS),
               cutune_measurement_value(m, CUTUNE_VALUE_OCCUPANCY) * 100, (int)cutune_measurement_value(m, CUTUNE_VALUE_REPS));
    }
    free(list);
}

/* Compile errors among a tuning run's outcomes: all of them, and those whose NVRTC run
 * was in this run (not from the cache, not a duplicate) or came from the cache, which
 * the library's compiled and cached counts include. */
typedef struct compile_errors {
    uint64_t all, fresh, cached;
} compile_errors;

static compile_errors count_compile_errors(const cutune_tune_result *r)
{
    compile_errors e = {0, 0, 0};
    for (uint64_t i = 0, n = cutune_tune_count(r); i < n; i++) {
        const cutune_measurement *m = cutune_tune_at(r, i);
        if (cutune_measurement_outcome(m) != CUTUNE_OUTCOME_COMPILE_ERROR)
            continue;
        e.all++;
        if (cutune_measurement_value(m, CUTUNE_VALUE_DUPLICATE) == 0)
            *(cutune_measurement_value(m, CUTUNE_VALUE_CACHED) != 0 ? &e.cached : &e.fresh) += 1;
    }
    return e;
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
        fprintf(stderr, "Nothing was tuned, and a GPU would not change that: the kernel or the spec must.\n"
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
        fprintf(stderr, "Everything that needs no GPU was done: the spec is valid and its space is counted. Of %s "
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

/* print_run_account: the tuning run's account on stderr: outcomes by kind, twins, where
 * the time went, the reference, the files, the search and the journal (not with -q). */
/* a run on several GPUs: how many variants each measured, and each other
 * GPU's times over the first's for the same variants. */
static void print_devices(const cutune_tune_result *r)
{
    const cutune_tune_summary *s = cutune_tune_summary_of(r);
    fprintf(stderr, "%d GPUs, one compile pool, each variant on whichever GPU was free:", s->ndevices);
    for (int k = 0; k < s->ndevices; k++) {
        bool seen = false; /* a GPU named twice (--devices 0,0) is counted once */
        for (int j = 0; j < k; j++)
            seen |= s->devices[j] == s->devices[k];
        if (seen)
            continue;
        uint64_t n = 0;
        for (uint64_t i = 0; i < cutune_tune_count(r); i++) {
            const cutune_measurement *m = cutune_tune_at(r, i);
            n += cutune_measurement_value(m, CUTUNE_VALUE_DEVICE) == s->devices[k] &&
                 cutune_measurement_value(m, CUTUNE_VALUE_SAME_CODE_AS) < 0 &&
                 cutune_measurement_value(m, CUTUNE_VALUE_RESUMED) == 0;
        }
        fprintf(stderr, "%s GPU %d ran %llu", k ? "," : "", s->devices[k], (unsigned long long)n);
    }
    fprintf(stderr, "; the first chose the winner (the final race)\n");
    for (int k = 1; k < s->ndevices; k++) {
        const cutune_device_spread *d = &s->spread[k];
        if (d->variants > 0)
            fprintf(stderr, "spread: GPU %d's median time over GPU %d's, the same %d variant%s timed in full: median "
                            "%.4f, from %.4f to %.4f\n", d->device, s->devices[0], d->variants, d->variants == 1 ? "" : "s",
                    d->median, d->lo, d->hi);
        else
            fprintf(stderr, "spread: GPU %d against GPU %d: no variant was timed in full on both\n", d->device,
                    s->devices[0]);
        /* The race takes variants within 5 % of the best, whichever GPU placed them: GPUs
         * that differ by more than run-to-run noise may have kept one out unfairly. */
        if (d->variants > 0 && fabs(d->median - 1.0) > 0.02)
            fprintf(stderr, "warning: GPU %d's times differ from GPU %d's by %.1f %%: these GPUs are not "
                            "interchangeable, and a variant placed on the slower one may have missed the final race; "
                            "tune on each (--per-device)\n", d->device, s->devices[0], 100.0 * fabs(d->median - 1.0));
    }
}

static void print_run_account(const cutune_tune_result *r)
{
    const cutune_tune_summary *s = cutune_tune_summary_of(r);
    double bound = s->threads > 0 ? s->compile_seconds / s->threads : s->compile_seconds;
    double per_gpu = s->gpu_seconds / (s->ndevices > 1 ? s->ndevices : 1); /* the GPUs work at once */
    if (per_gpu > bound)
        bound = per_gpu;
    compile_errors ce = count_compile_errors(r);
    fprintf(stderr, "\n%s (%s): %llu variants: %llu timed (%llu stopped early), %llu wrong, %llu cannot "
                    "launch, %llu failed",
            s->device_name, s->arch, (unsigned long long)s->variants, (unsigned long long)s->timed,
            (unsigned long long)s->pruned, (unsigned long long)s->wrong,
            (unsigned long long)s->unlaunchable, (unsigned long long)s->failed);
    if (ce.all)
        fprintf(stderr, " (%llu of them did not compile)", (unsigned long long)ce.all);
    fprintf(stderr, "\n");
    if (s->twins)
        fprintf(stderr, "%llu variants not run: the same machine code, launch and arguments as one that "
                        "ran, whose figures they share (same_code_as; --run-twins runs them)\n",
                (unsigned long long)s->twins);
    /* compiled and cached: binaries made by NVRTC now, or read from the cache */
    /* profiling comes after the tuning, which the rate and the bound are about */
    double wall = s->wall_seconds - s->profile_seconds;
    if (s->profiled > 0)
        fprintf(stderr, "profiling: %llu variants' hardware counters in %.2f s, after the tuning below\n",
                (unsigned long long)s->profiled, s->profile_seconds);
    fprintf(stderr, "wall %.2f s: compile %.2f s of NVRTC time on %d threads (%llu compiled, %llu cached), GPU "
                    "%.2f s (%.2f s timing); %.1f variants/s; %.2fx the bound max(compile/threads, GPU)\n",
            wall, s->compile_seconds, s->threads,
            (unsigned long long)(s->compiled > ce.fresh ? s->compiled - ce.fresh : 0),
            (unsigned long long)(s->cached > ce.cached ? s->cached - ce.cached : 0), s->gpu_seconds,
            s->timing_seconds,
            wall > 0 ? (double)s->variants / wall : 0.0, bound > 0 ? wall / bound : 0.0);
    if (s->ndevices > 1)
        print_devices(r);
    if (s->reference)
        fprintf(stderr, "outputs checked against the %s\n", s->reference);
    if (s->results_path)
        fprintf(stderr, "results: %s\n", s->results_path);
    if (strcmp(s->strategy, "exhaustive") != 0 || s->stop_reason)
        fprintf(stderr, "search: %s (seed %llu): %llu configurations measured%s%s%s\n", s->strategy,
                (unsigned long long)s->seed, (unsigned long long)s->evaluations,
                s->screened ? ", others skipped on static information" : "",
                s->stop_reason ? "; stopped by " : "", s->stop_reason ? s->stop_reason : "");
    if (s->journal_path)
        fprintf(stderr, "journal: %s (%llu variants resumed from an earlier run, not run again)\n",
                s->journal_path, (unsigned long long)s->resumed);
    if (s->cache_warning)
        fprintf(stderr, "warning: %s\n", s->cache_warning);
    if (s->compile_warning)
        fprintf(stderr, "warning: %s\n", s->compile_warning);
}

/* --emit-dir, and the spec's emit paths that leave its folder: each block's header,
 * CSV and results path that the command line does not replace must be allowed (inside
 * the folder --emit-dir names), or nothing is tuned. EXIT_OK, or the exit code after
 * saying why. The first block stays selected. */
static int check_emit_paths(cutune_spec *spec, const cli_common *c, int nblocks, const char *emit_dir,
                            const char *header_path, const char *csv_path, const char *results_path)
{
    if (emit_dir && cutune_spec_set_emit_dir(spec, emit_dir) != CUTUNE_OK)
        return cli_usage_error("tune", "--emit-dir: %s", cutune_last_error());
    int code = EXIT_OK;
    for (int blk = 0; blk < nblocks; blk++) {
        cli_select_block(spec, c, blk, NULL);
        const char *kinds[] = {header_path ? NULL : "header", csv_path ? NULL : "csv", results_path ? NULL : "results"};
        for (int k = 0; k < 3; k++) {
            const char *why = kinds[k] ? cutune_spec_emit_refused(spec, kinds[k]) : NULL;
            if (why) {
                fprintf(stderr, "cutune: %s\n", why);
                code = EXIT_USAGE;
            }
        }
    }
    cli_select_block(spec, c, 0, NULL);
    return code;
}

/* print_run_warnings: what needs attention after a tuning run, also with -q: journal
 * lines that were not trusted, an interruption. */
static void print_run_warnings(const cutune_tune_summary *s)
{
    if (s->journal_ignored)
        fprintf(stderr, "journal: %llu line%s not trusted, and left in the file (%s): those variants ran again\n",
                (unsigned long long)s->journal_ignored, s->journal_ignored == 1 ? " was" : "s were",
                s->journal_ignored_why ? s->journal_ignored_why : "damaged records");
    if (s->interrupted)
        fprintf(stderr, "interrupted: %llu variants were done; the best is the best of those\n",
                (unsigned long long)s->variants);
}

int cmd_tune(int argc, char **argv)
{
    cli_common c;
    cli_init_common(&c);
    cutune_analyze_options o = CUTUNE_ANALYZE_OPTIONS_INIT;
    cutune_tune_options t = CUTUNE_TUNE_OPTIONS_INIT;
    int top = -1; /* --top N; by default 10, and none with -q (which prints only the best) */
    const char *header_path = NULL, *csv_path = NULL; /* NULL: the spec's emit header/csv */
    const char *report_path = NULL;                   /* --report: the HTML report (NULL: none) */
    const char *emit_dir = NULL;                    /* --emit-dir: where emit paths leaving the spec's folder may go */
    const char *hw_names[256];                        /* --metric */
    const char *priors[CLI_MAX_PRIORS];               /* --prior */
    int nhw = 0;
    cli_shard shard = {0, 0, -1, NULL};               /* --shard; count 0: none */
    bool device_given = false;
    int devs[64], ndevs = 0;                          /* --devices */
    bool per_device = false;                          /* --per-device */
    char *shard_results = NULL, *shard_journal = NULL; /* --shard: its results and journal paths */
    static const struct option longopts[] = {
        CLI_COMMON_OPTIONS,
        CLI_ANALYZE_OPTIONS,
        CLI_SEARCH_OPTIONS,
        {"device", required_argument, NULL, 'd'},
        {"results", required_argument, NULL, 'r'},
        {"limit", required_argument, NULL, 'n'},
        {"top", required_argument, NULL, 't'},
        {"prune", required_argument, NULL, 'p'},
        {"journal", required_argument, NULL, 'J'},
        {"timeout", required_argument, NULL, 'T'},
        {"fresh", no_argument, NULL, 'R'},
        {"run-twins", no_argument, NULL, 'W'},
        {"energy", no_argument, NULL, 'E'},
        {"metrics", required_argument, NULL, 'M'},
        {"metric", required_argument, NULL, 'm'},
        {"shard", required_argument, NULL, 'S'},
        {"devices", required_argument, NULL, 'D'},
        {"per-device", no_argument, NULL, 'X'},
        {"flush-l2", no_argument, NULL, 'F'},
        {"no-flush-l2", no_argument, NULL, 'G'},
        {"header", required_argument, NULL, 'H'},
        {"csv", required_argument, NULL, 'V'},
        {"report", required_argument, NULL, 'P'},
        {"emit-dir", required_argument, NULL, 'O'},
        {NULL, 0, NULL, 0},
    };
    int opt, code = EXIT_OK;
    optind = 1;
    long long n;
    while ((opt = cli_getopt("tune", argc, argv, "q", longopts)) != -1) {
        int handled = cli_common_option(&c, opt, optarg);
        if (handled == 0)
            handled = cli_analyze_option(&o, opt, optarg);
        if (handled == 0)
            handled = cli_search_option("tune", &t.search, opt, optarg);
        if (handled < 0) {
            code = EXIT_USAGE;
            goto done;
        }
        if (handled)
            continue;
        switch (opt) {
        case 'd':
            device_given = true;
            if (!cli_int_option("tune", "--device", "a GPU number", optarg, 0, CLI_MAX_GPU, &n)) {
                code = EXIT_USAGE;
                goto done;
            }
            t.device = (int)n;
            break;
        case 'r': t.results_path = optarg; break;
        case CLI_OPT_PRIOR:
            if (!cli_add_prior("tune", priors, &t.search.npriors, optarg)) {
                code = EXIT_USAGE;
                goto done;
            }
            t.search.priors = priors;
            break;
        case 'n': {
            unsigned long long limit;
            if (!cli_parse_count("tune", "--limit", optarg, &limit)) {
                code = EXIT_USAGE;
                goto done;
            }
            t.limit = limit;
            break;
        }
        case 't':
            if (!cli_int_option("tune", "--top", "a count", optarg, 0, INT_MAX, &n)) {
                code = EXIT_USAGE;
                goto done;
            }
            top = (int)n;
            break;
        case 'p':
            if (!cli_read_double(optarg, NULL, &t.prune) || !(t.prune == -1 || t.prune > 1)) {
                code = cli_usage_error("tune", "--prune takes a finite factor above 1 (or -1 for never), not '%s'",
                                       optarg);
                goto done;
            }
            break;
        case 'J': t.journal_path = optarg; break;
        case 'T':
            if (!cli_read_double(optarg, NULL, &t.timeout_s) || !(t.timeout_s > 0 && t.timeout_s <= CLI_MAX_SECONDS)) {
                code = cli_usage_error("tune", "--timeout takes seconds above 0, at most %d, not '%s'",
                                       CLI_MAX_SECONDS, optarg);
                goto done;
            }
            break;
        case 'R': t.fresh = 1; break;
        case 'W': t.run_twins = 1; break;
        case 'E': t.energy = 1; break;
        case 'D':
            if (cli_parse_devices(optarg, devs, 64, &ndevs) < 0) {
                code = strcmp(optarg, "all") == 0
                           ? (fprintf(stderr, "cutune: --devices all: %s\n",
                                      cutune_last_error()[0] ? cutune_last_error() : "the driver sees no GPU"),
                              EXIT_NO_GPU)
                           : cli_usage_error("tune", "--devices takes all or GPU numbers such as 0,1, not '%s'", optarg);
                goto done;
            }
            break;
        case 'X': per_device = true; break;
        case 'S':
            if (cli_parse_shard("tune", optarg, &shard) < 0) {
                code = EXIT_USAGE;
                goto done;
            }
            break;
        case 'M':
            if (strcmp(optarg, "all") == 0) {
                t.profile_top = -1;
            } else {
                if (!cli_read_int(optarg, 1, 1000000, &n)) {
                    code = cli_usage_error("tune", "--metrics takes a count of variants from 1 to 1000000, or all, "
                                           "not '%s'", optarg);
                    goto done;
                }
                t.profile_top = (int)n;
            }
            break;
        case 'm': {
            const char *const *defaults;
            int nd = cutune_profile_default_metrics(&defaults);
            bool is_default = strcmp(optarg, "default") == 0;
            if (nhw + (is_default ? nd : 1) > (int)(sizeof hw_names / sizeof hw_names[0])) {
                code = cli_usage_error("tune", "too many --metric names (at most %d)",
                                       (int)(sizeof hw_names / sizeof hw_names[0]));
                goto done;
            }
            for (int i = 0; is_default && i < nd; i++)
                hw_names[nhw++] = defaults[i];
            if (!is_default)
                hw_names[nhw++] = optarg;
            break;
        }
        case 'F': t.flush_l2 = 1; break;
        case 'G': t.flush_l2 = 0; break;
        case 'H': header_path = optarg; break;
        case 'V': csv_path = optarg; break;
        case 'P': report_path = optarg; break;
        case 'O': emit_dir = optarg; break;
        default: code = EXIT_USAGE; goto done; /* cli_getopt said why */
        }
    }
    if (optind != argc - 1) {
        code = cli_usage_error("tune", optind >= argc ? "which spec? (cutune SPEC)" : "one spec at a time");
        goto done;
    }
    if (top < 0)
        top = c.quiet ? 0 : 10;
    if (nhw > 0) { /* --metric alone reads the best five's */
        t.profile_metrics = hw_names;
        t.nprofile_metrics = nhw;
        if (t.profile_top == 0)
            t.profile_top = 5;
    }
    if (nhw > 0) { /* a mistyped counter is a usage error, found before anything runs */
        int count = 0;
        cutune_device d0;
        const char *arch = o.arch;
        if (!arch && cutune_device_count(&count) == CUTUNE_OK && count > t.device &&
            cutune_device_get(&d0, t.device) == CUTUNE_OK)
            arch = d0.arch;
        if (cutune_profile_check(arch, hw_names, nhw) == CUTUNE_EINVAL) {
            code = cli_usage_error("tune", "--metric: %s", cutune_last_error());
            goto done;
        }
    }
    c.arch = o.arch; /* without a GPU, the device attributes are this arch's (with one, the GPU's) */
    cutune_spec *spec = cli_load(argv[optind], &c, &code);
    if (!spec)
        goto done;
    if (cli_reads_device(spec)) { /* on a GPU, its values in the summary rather than the table's */
        cutune_device gpu_dev;
        if (cutune_device_get(&gpu_dev, t.device) == CUTUNE_OK) {
            int seen_dev = cutune_spec_diagnostic_count(spec);
            int rc_dev = cutune_spec_set_device(spec, &gpu_dev);
            cli_print_new_diagnostics(spec, &c, &seen_dev);
            if (rc_dev < 0) {
                code = cli_exit_for_status(rc_dev);
                cutune_spec_free(spec);
                goto done;
            }
        }
    }
    /* Several kernel blocks: each tuned in turn (stopping at a failure), each with its own
     * emits; blocks that share a header path share the header. */
    int nblocks = cli_blocks(spec, &c), worst = EXIT_OK;
    if ((code = check_emit_paths(spec, &c, nblocks, emit_dir, header_path, csv_path, t.results_path)) != EXIT_OK) {
        cutune_spec_free(spec);
        goto done;
    }
    const char *written[64];
    int nwritten = 0;
    if (nblocks > 1 && (t.results_path || t.journal_path || csv_path || report_path)) {
        code = cli_usage_error("tune", "the spec has %d kernel blocks: --results, --journal, --csv and --report "
                               "name one file; use the blocks' emit statements, or --kernel NAME", nblocks);
        cutune_spec_free(spec);
        goto done;
    }
    if (shard.count > 1) { /* this process tunes one shard into a results file of its own */
        const char *base = t.results_path ? t.results_path : cutune_spec_emit_path(spec, "results");
        if (nblocks > 1 || !base) {
            code = cli_usage_error("tune", nblocks > 1 ? "--shard tunes one kernel block: name it with --kernel NAME"
                                                       : "--shard needs a results file to write (--results FILE): "
                                                         "cutune merge joins the shards' files");
            cutune_spec_free(spec);
            goto done;
        }
        if (!(shard_results = cli_shard_path(base, &shard))) {
            code = EXIT_INTERNAL;
            cutune_spec_free(spec);
            goto done;
        }
        t.results_path = shard_results;
        /* --journal (a local disk when the results are on a slow shared one): each
         * shard's own, named as its results file is, so one command line serves every rank */
        if (t.journal_path && !(t.journal_path = shard_journal = cli_shard_path(t.journal_path, &shard))) {
            code = EXIT_INTERNAL;
            cutune_spec_free(spec);
            goto done;
        }
        t.shard_index = o.shard_index = shard.index; /* o: the analysis without a GPU */
        t.shard_count = o.shard_count = shard.count;
        int ndev = 0; /* the GPU the launcher's local rank names, unless --device says */
        if (!device_given && shard.local >= 0 && cutune_device_count(&ndev) == CUTUNE_OK && ndev > 0)
            t.device = shard.local % ndev;
        char on[48]; /* a shard per host may use every GPU of its host (--devices) */
        snprintf(on, sizeof on, ndevs > 1 ? "%d GPUs" : "GPU %d", ndevs > 1 ? ndevs : t.device);
        if (!c.quiet)
            fprintf(stderr, "shard %d of %d%s%s (%s): results to %s%s%s\n", shard.index, shard.count,
                    shard.launcher ? ", from " : "", shard.launcher ? shard.launcher : "", on, shard_results,
                    shard_journal ? ", journal " : "", shard_journal ? shard_journal : "");
        header_path = csv_path = report_path = NULL;
    }
    if (device_given && ndevs > 0) {
        code = cli_usage_error("tune", "--device and --devices both name GPUs: give one of them");
        cutune_spec_free(spec);
        goto done;
    }
    if (per_device && ndevs < 2) {
        code = cli_usage_error("tune", "--per-device goes with --devices naming two GPUs or more");
        cutune_spec_free(spec);
        goto done;
    }
    int ngpus = 0; /* GPUs of different models cannot share one result: each tunes it all */
    if (ndevs > 1 && !per_device && cutune_device_count(&ngpus) == CUTUNE_OK && ngpus > 0 &&
        !cli_same_model(devs, ndevs)) {
        if (!c.quiet)
            fprintf(stderr, "note: these GPUs are not all of one model: each tunes every configuration "
                            "(as --per-device)\n");
        per_device = true;
    }
    if (ndevs > 1 && per_device) { /* a cutune process per GPU, every configuration on each */
        code = cli_tune_per_device(spec, argc, argv, devs, ndevs, nblocks, &t, &o, &c, header_path, shard.count);
        cutune_spec_free(spec);
        goto done;
    }
    if (ndevs == 1) /* --devices 1 (or "all" on a one-GPU machine): that GPU */
        t.device = devs[0];
    if (ndevs > 1) { /* one process: a GPU worker each, fed by the one compile pool */
        t.devices = devs;
        t.ndevices = ndevs;
        for (int i = 1; i < ndevs; i++)
            for (int j = 0; j < i && !c.quiet; j++)
                if (devs[j] == devs[i]) /* allowed: a check of the machinery on one GPU */
                    fprintf(stderr, "note: --devices names GPU %d twice: two workers share it, and their times "
                                    "disturb each other\n", devs[i]);
    }
    for (int blk = 0; blk < nblocks; blk++) {
    cli_select_block(spec, &c, blk, stdout);
    code = cli_space_summary(spec, &c, c.quiet ? CLI_SUMMARY_NONE : CLI_SUMMARY_TEXT);
    int devices = 0;
    bool gpu = code == EXIT_OK && cutune_device_count(&devices) == CUTUNE_OK && devices > 0;
    if (code == EXIT_OK && !gpu) {
        char why[600];
        snprintf(why, sizeof why, "%s", devices == 0 && cutune_last_error()[0] == '\0' ? "the driver sees no device"
                                                                                      : cutune_last_error());
        bool emits = header_path || csv_path || cutune_spec_emit_path(spec, "header") ||
                     cutune_spec_emit_path(spec, "csv");
        code = tune_without_gpu(spec, argv[optind], &c, &o, t.limit, why, emits);
        if (report_path)
            fprintf(stderr, "No report was written: it comes from measurements.\n");
    } else if (code == EXIT_OK) {
        if (o.arch && !c.quiet)
            fprintf(stderr, "note: --arch is ignored when tuning: variants are compiled for the GPU's own\n");
        t.jobs = o.jobs;
        t.cache_dir = o.cache_dir;
        t.no_cache = o.no_cache;
        tune_view tv = {isatty(STDERR_FILENO) && !c.quiet, 0, 0};
        t.progress = progress;
        t.progress_user = &tv;
        t.cancel = cli_catch_interrupts();
        int seen = cutune_spec_diagnostic_count(spec);
        cutune_tune_result *r = NULL;
        int rc = cutune_tune(&r, spec, &t);
        bool interrupted = r && cutune_tune_summary_of(r)->interrupted;
        cli_print_new_diagnostics(spec, &c, &seen);
        if (r && !c.quiet)
            cli_print_device_attrs(spec, stderr, "device attributes: ");
        if (rc == CUTUNE_ENODEV && !r)
            fprintf(stderr, "cutune: %s\n", cutune_last_error());
        if (r) {
            const cutune_tune_summary *s = cutune_tune_summary_of(r);
            int nsizes = cutune_tune_size_count(r);
            if (nsizes == 0 && top > 0)
                cli_print_ranking(spec, r, top);
            for (int k = 0; k < nsizes && top > 0; k++) { /* a run over sizes: each size's ranking */
                const cutune_tune_result *one = cutune_tune_size(r, k);
                printf("\nsize");
                for (int j = 0; j < cutune_tune_size_var_count(one); j++)
                    printf(" %s=%lld", cutune_tune_size_var(one, j), (long long)cutune_tune_size_value(one, j));
                printf(":");
                cli_print_ranking(spec, one, top);
            }
            if (nsizes == 0)
                cli_print_profile(spec, r);
            for (int k = 0; k < nsizes; k++)
                cli_print_profile(spec, cutune_tune_size(r, k));
            if (!c.quiet)
                print_run_account(r);
            print_run_warnings(s);
            compile_errors ce = count_compile_errors(r);
            int winners = 0;
            for (int k = 0; k < (nsizes ? nsizes : 1); k++) {
                const cutune_tune_result *one = nsizes ? cutune_tune_size(r, k) : r;
                const cutune_measurement *b = cutune_tune_best(one);
                if (!b)
                    continue;
                winners++;
                printf(k == 0 && top > 0 ? "\nbest" : "best");
                for (int j = 0; j < cutune_tune_size_var_count(one); j++)
                    printf("%s%s=%lld", j ? " " : " at ", cutune_tune_size_var(one, j),
                           (long long)cutune_tune_size_value(one, j));
                const cutune_variant *v = cutune_measurement_variant(b);
                printf(": #%llu", (unsigned long long)v->ordinal);
                for (int p = 0; p < v->nparams; p++)
                    printf(" %s=%s", cutune_spec_param_name(spec, p), v->values[p]);
                printf("  median %.4f ms, %s %.6g\n", cutune_measurement_value(b, CUTUNE_VALUE_MEDIAN_MS),
                       s->objective_name, cutune_measurement_value(b, CUTUNE_VALUE_OBJECTIVE));
                if (cutune_measurement_value(b, CUTUNE_VALUE_ENERGY) != 0)
                    printf("      energy %.4g mJ per launch at %.1f W (the board's, over %d launches in %.2f s)\n",
                           cutune_measurement_value(b, CUTUNE_VALUE_ENERGY_J) * 1e3,
                           cutune_measurement_value(b, CUTUNE_VALUE_POWER_W),
                           (int)cutune_measurement_value(b, CUTUNE_VALUE_ENERGY_LAUNCHES),
                           cutune_measurement_value(b, CUTUNE_VALUE_ENERGY_SECONDS));
                else if (cutune_measurement_energy_note(b))
                    fprintf(stderr, "cutune: %s\n", cutune_measurement_energy_note(b));
            }
            if (nsizes && winners < nsizes)
                fprintf(stderr, "cutune: %d of %d sizes have no variant that ran correctly\n", nsizes - winners,
                        nsizes);
            if (winners == 0) {
                fprintf(stderr, ce.all == s->variants && s->variants > 0
                                    ? "cutune: NOTHING COMPILED: no variant compiled, so none was chosen\n"
                                    : "cutune: no variant ran correctly, so none was chosen\n");
                if (rc == CUTUNE_OK)
                    rc = CUTUNE_ESTOPPED;
            }
            const char *hp = header_path ? header_path : cutune_spec_emit_path(spec, "header");
            bool append = false;
            for (int w = 0; hp && w < nwritten; w++)
                append |= strcmp(written[w], hp) == 0;
            if (shard.count > 1) { /* one shard's winner is not the run's: no header from it */
                if (!c.quiet)
                    fprintf(stderr, "a shard writes only its results: cutune merge joins the shards' files, then "
                                    "cutune emit header|csv and cutune report work on the merged one\n");
            } else if (cli_emit_after_tune(spec, r, header_path, csv_path, &c, append) != EXIT_OK && rc == CUTUNE_OK)
                rc = CUTUNE_EIO;
            if (report_path && cli_report_after_tune(r, argv[optind], report_path, c.quiet) != EXIT_OK &&
                rc == CUTUNE_OK)
                rc = CUTUNE_EIO;
            else if (hp && !append && nwritten < 64 && (cutune_tune_best(r) || cutune_tune_size_count(r) > 0))
                written[nwritten++] = hp;
            cutune_tune_result_free(r);
        }
        code = exit_of_tuning(rc, interrupted);
    }
    if (code != EXIT_OK && worst == EXIT_OK)
        worst = code;
    if (code != EXIT_OK && code != EXIT_NO_GPU)
        break; /* a failure or Ctrl-C: the blocks after it are not begun */
    }
    code = worst;
    cutune_spec_free(spec);
done:
    free(shard_results);
    free(shard_journal);
    cli_free_common(&c);
    return code;
}
