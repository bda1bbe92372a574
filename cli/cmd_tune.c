/* cmd_tune.c - `cutune SPEC`: the main job. With a GPU: compile every variant (ahead
 * of the GPU, on every core), run, verify and time each, and rank them. Without one:
 * everything that needs no GPU (check, count, compile, resources, occupancy), then a
 * plain statement of what was not done. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
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

/* put: `before` and *text on f when `rc` (the call that made the text) is CUTUNE_OK and
 * the text is not empty; the text is freed, *text NULL. */
static void put(FILE *f, const char *before, char **text, int rc)
{
    if (rc == CUTUNE_OK && **text)
        fprintf(f, "%s%s", before, *text);
    cutune_free(*text);
    *text = NULL;
}

/* tune_without_gpu: everything `cutune SPEC` can do without a GPU (the space summary is
 * already printed): compiles the variants (the first `limit` when not 0) for o->arch or
 * sm_90 at each problem size (cli_run_analysis), prints the analysis summary, and
 * then one plain verdict on stderr (cutune_untuned_text). `why` says why there is no
 * GPU; `emits` whether a header or CSV was asked for. Returns EXIT_NO_GPU (not tuned;
 * some variants could run on a GPU), EXIT_NOTHING (no variant compiled and can launch: a
 * GPU would not help), EXIT_INTERRUPTED, or the exit code of a failure. */
static int tune_without_gpu(cutune_spec *spec, const char *path, const cli_common *c, cutune_analyze_options *o,
                            uint64_t limit, const char *why, bool emits)
{
    int limited = 0;
    char *text = NULL;
    put(stderr, "", &text, cutune_untuned_start(&text, &limited, spec, limit, path, c->quiet)); /* -q: the verdict */
    o->limit = limit;
    cutune_analyze_summary all;
    int code = cli_run_analysis(spec, c, o, CLI_ANALYZE_NONE, true, &all); /* each size, as a GPU run would */
    if (code != EXIT_OK)
        return code; /* interrupted (the summary says what was covered), or a failure */
    cutune_untuned u = {.variants = all.variants,
                        .runnable = all.variants - all.failed - all.unlaunchable,
                        .failed = all.failed,
                        .unlaunchable = all.unlaunchable,
                        .limited = limited,
                        .emits = emits,
                        .brief = c->quiet,
                        .why = why};
    if (!c->quiet)
        fprintf(stderr, "\n");
    cli_nothing_runs("cutune", &all);
    put(stderr, "", &text, cutune_untuned_text(&text, &u));
    return u.runnable ? EXIT_NO_GPU : EXIT_NOTHING;
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
    int code = refused[0] ? EXIT_USAGE : EXIT_OK;
    cli_say(CUTUNE_OK, &refused);
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
    cli_priors prior_set;                /* --prior's handler: priors into t.search */
    cli_shard shard;                     /* --shard; count 0: none */
    bool device_given, per_device;       /* --device; --per-device */
    int devs[64], ndevs;                 /* --devices */
    char *shard_results, *shard_journal; /* --shard: its results and journal paths */
    const char *spec_path;
    int worst; /* the block loop's first exit code other than EXIT_OK */
} tune_args;

/* The handlers of tune's own options that need more than a store (options.h). opt_tune:
 * an option of cutune_tune_options the library reads from its text (its entry's name:
 * cutune_tune_set_option); --device also says a GPU was named. */
static int opt_tune(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    tune_args *a = dest;
    a->device_given |= strcmp(o->name, "device") == 0;
    return cutune_tune_set_option(&a->t, o->name, arg) == CUTUNE_OK ? EXIT_OK
                                                                    : cli_usage_error(sub, "--%s", cutune_last_error());
}

/* --top N: the ranking's rows. */
static int opt_top(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    (void)o;
    long long n;
    if (!cli_int_option(sub, "--top", "a count", arg, 0, INT_MAX, &n))
        return EXIT_USAGE;
    *(int *)dest = (int)n;
    return EXIT_OK;
}

/* --devices all|0,1,...: every GPU the driver sees, or those named. */
static int opt_devices(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    (void)o;
    tune_args *a = dest;
    int rc = cutune_devices_parse(a->devs, 64, &a->ndevs, arg);
    if (rc == CUTUNE_ENODEV)
        fprintf(stderr, "cutune: --devices all: %s\n", cutune_last_error());
    return rc == CUTUNE_OK       ? EXIT_OK
           : rc == CUTUNE_ENODEV ? EXIT_NO_GPU
                                 : cli_usage_error(sub, "--%s", cutune_last_error());
}

/* --metric NAME|default: a counter's name kept, or the default set's. */
static int opt_metric(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    (void)o;
    tune_args *a = dest;
    const char *const *defaults;
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
    a->prior_set = (cli_priors){a->priors, &a->t.search};
    const cli_opt table[] = {
        /* the help's order, and so getopt_long's: "did you mean" and ambiguity name them in it */
        {"device", 0, true, CLI_CALL, a, opt_tune, 0, NULL},
        {"results", 0, true, CLI_TEXT, &a->t.results_path, NULL, 0, NULL},
        {"header", 0, true, CLI_TEXT, &a->header_path, NULL, 0, NULL},
        {"csv", 0, true, CLI_TEXT, &a->csv_path, NULL, 0, NULL},
        {"report", 0, true, CLI_TEXT, &a->report_path, NULL, 0, NULL},
        {"emit-dir", 0, true, CLI_TEXT, &a->emit_dir, NULL, 0, NULL},
        {"limit", 0, true, CLI_CALL, &a->limit, cli_opt_count, 0, NULL},
        {"shard", 0, true, CLI_CALL, &a->shard, cli_opt_shard, 0, NULL},
        {"devices", 0, true, CLI_CALL, a, opt_devices, 0, NULL},
        {"per-device", 0, false, CLI_BOOL, &a->per_device, NULL, 0, NULL},
        {"top", 0, true, CLI_CALL, &a->top, opt_top, 0, NULL},
        {"prune", 0, true, CLI_CALL, a, opt_tune, 0, NULL},
        {"journal", 0, true, CLI_TEXT, &a->t.journal_path, NULL, 0, NULL},
        {"fresh", 0, false, CLI_INT, &a->t.fresh, NULL, 1, NULL},
        {"flush-l2", 0, false, CLI_INT, &a->t.flush_l2, NULL, 1, NULL},
        {"no-flush-l2", 0, false, CLI_INT, &a->t.flush_l2, NULL, 0, NULL},
        {"energy", 0, false, CLI_INT, &a->t.energy, NULL, 1, NULL},
        {"metrics", 0, true, CLI_CALL, a, opt_tune, 0, NULL},
        {"metric", 0, true, CLI_CALL, a, opt_metric, 0, NULL},
        {"run-twins", 0, false, CLI_INT, &a->t.run_twins, NULL, 1, NULL},
        {"timeout", 0, true, CLI_CALL, a, opt_tune, 0, NULL},
        CLI_SEARCH_ENTRY("strategy", &a->t.search),
        CLI_SEARCH_ENTRY("budget", &a->t.search),
        CLI_SEARCH_ENTRY("time-budget", &a->t.search),
        CLI_SEARCH_ENTRY("patience", &a->t.search),
        CLI_SEARCH_ENTRY("seed", &a->t.search),
        {"prior", 0, true, CLI_CALL, &a->prior_set, cli_opt_prior, 0, NULL},
        {"arch", 0, true, CLI_TEXT, &a->o.arch, NULL, 0, NULL},
        CLI_JOBS_ENTRY(&a->o),
        CLI_CACHE_ENTRIES(&a->o),
        CLI_CONFIG_ENTRY(&a->c),
        CLI_SPEC_ENTRIES(&a->c),
        {"quiet", 'q', false, CLI_BOOL, &a->c.quiet, NULL, 0, NULL},
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
    if (a->nhw > 0 && cutune_tune_set_metrics(&a->t, a->hw_names, a->nhw, a->o.arch) == CUTUNE_EINVAL)
        return cli_usage_error("tune", "--metric: %s", cutune_last_error()); /* --metric alone: the best five's */
    return EXIT_OK;
}

/* load_spec: the spec, its device attributes a GPU's when there is one (in the summary,
 * its values rather than the table's); NULL with *code set when it cannot be used. */
static cutune_spec *load_spec(tune_args *a, int *code)
{
    a->c.arch = a->o.arch; /* without a GPU, the device attributes are this arch's (with one, the GPU's) */
    cutune_spec *spec = cli_load(a->spec_path, &a->c, code);
    if (!spec)
        return NULL;
    int seen = cutune_spec_diagnostic_count(spec), rc = cutune_spec_use_gpu(spec, a->t.device);
    cli_print_new_diagnostics(spec, &a->c, &seen);
    if (rc == CUTUNE_OK)
        return spec;
    *code = cli_exit_for_status(rc);
    cutune_spec_free(spec);
    return NULL;
}

/* setup_run: the checks and settings between the loaded spec and the tuning: emit paths,
 * one-file options with several blocks, the GPUs named, the shard (--shard: this process
 * tunes one shard into a results file and journal of its own, on the GPU of the
 * launcher's local rank), and what they make (cutune_tune_setup_text). EXIT_OK, or an
 * exit code (after a message). */
static int setup_run(tune_args *a, cutune_spec *spec, int nblocks)
{
    int code = check_emit_paths(spec, &a->c, a->emit_dir, a->header_path, a->csv_path, a->t.results_path);
    if (code != EXIT_OK)
        return code;
    if (a->t.results_path && strcmp(a->t.results_path, "-") == 0) /* the ranking is on stdout */
        return cli_usage_error("tune", "--results -: the ranking is written to standard output; name a file");
    if (nblocks > 1 && (a->t.results_path || a->t.journal_path || a->csv_path || a->report_path))
        return cli_usage_error("tune",
                               "the spec has %d kernel blocks: --results, --journal, --csv and --report "
                               "name one file; use the blocks' emit statements, or --kernel NAME",
                               nblocks);
    bool shard = a->shard.count > 1;
    if (shard && (nblocks > 1 || !(a->t.results_path || cutune_spec_emit_path(spec, "results"))))
        return cli_usage_error("tune", nblocks > 1 ? "--shard tunes one kernel block: name it with --kernel NAME"
                                                   : "--shard needs a results file to write (--results FILE): "
                                                     "cutune merge joins the shards' files");
    if (a->device_given && a->ndevs > 0)
        return cli_usage_error("tune", "--device and --devices both name GPUs: give one of them");
    if (a->per_device && a->ndevs < 2)
        return cli_usage_error("tune", "--per-device goes with --devices naming two GPUs or more");
    if (shard &&
        cutune_tune_set_shard(&a->t, spec, a->shard.index, a->shard.count, a->device_given ? -1 : a->shard.local,
                              &a->shard_results, &a->shard_journal) != CUTUNE_OK)
        return EXIT_INTERNAL;
    if (shard) { /* the analysis without a GPU is the shard's too; a shard writes only its results */
        a->o.shard_index = a->shard.index;
        a->o.shard_count = a->shard.count;
        a->header_path = a->csv_path = a->report_path = NULL;
    }
    int per_device = a->per_device, mixed = cutune_tune_set_devices(&a->t, a->devs, a->ndevs, &per_device) == 1;
    a->per_device = per_device;
    char *text = NULL;
    put(stderr, "", &text,
        cutune_tune_setup_text(&text, &a->t, a->ndevs, mixed, a->shard.name, a->shard.local_count, a->c.quiet));
    return EXIT_OK; /* with per_device, cmd_tune hands it to cli_tune_per_device */
}

/* print_tuned: what a run found: each size's ranking, the counters, the account (not with
 * -q), the warnings and the winners (an energy not measured: why, on stderr). Returns rc,
 * made CUTUNE_ESTOPPED when none won. */
static int print_tuned(const tune_args *a, const cutune_spec *spec, const cutune_tune_result *r, int rc)
{
    char *text = NULL, *note = NULL;
    int nsizes = cutune_tune_size_count(r);
    put(stdout, "", &text, cutune_tune_ranking_text(&text, r, a->top));
    if (nsizes == 0)
        cli_print_profile(spec, r);
    for (int k = 0; k < nsizes; k++)
        cli_print_profile(spec, cutune_tune_size(r, k));
    if (!a->c.quiet)
        put(stderr, "\n", &text, cutune_tune_account(&text, r));
    put(stderr, "", &text, cutune_tune_warnings(&text, r));
    for (int k = 0; k < (nsizes ? nsizes : 1); k++) { /* each size's winner; its energy not measured: why */
        int made = cutune_tune_best_text(&text, &note, r, k);
        put(stdout, k == 0 && a->top > 0 ? "\n" : "", &text, made);
        put(stderr, "cutune: ", &note, made);
    }
    cutune_tune_verdict v;
    cutune_tune_verdict_of(&v, r);
    put(stderr, "", &text, cutune_tune_verdict_text(&text, &v));
    return v.winners == 0 && rc == CUTUNE_OK ? CUTUNE_ESTOPPED : rc;
}

/* The files a run writes when it ends, said as they go (told): the spec's diagnostics
 * printed up to `seen`. */
typedef struct after_tune {
    cutune_spec *spec;
    const cli_common *c;
    int seen;
} after_tune;

/* told: one file written or not, said (the library's words: cutune_emitted_text); a
 * failure that is a diagnostic on the spec, in its diagnostics. */
static void told(void *user, const cutune_emitted *file)
{
    after_tune *at = user;
    char *text = NULL;
    if (file->status == CUTUNE_ESPEC || file->status == CUTUNE_EEVAL)
        cli_print_new_diagnostics(at->spec, at->c, &at->seen);
    cli_say(cutune_emitted_text(&text, file, at->c->quiet), &text);
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
    after_tune at = {spec, &a->c, cutune_spec_diagnostic_count(spec)};
    if (a->shard.count > 1) { /* one shard's winner is not the run's: no header from it */
        if (!a->c.quiet)
            fprintf(stderr, "a shard writes only its results: cutune merge joins the shards' files, then "
                            "cutune emit header|csv and cutune report work on the merged one\n");
    } else if (cutune_emit_after_tune(spec, r, a->header_path, a->csv_path, b->header_append, told, &at) != CUTUNE_OK &&
               rc == CUTUNE_OK) {
        rc = CUTUNE_EIO;
    }
    if (a->report_path && cutune_report_after_tune(r, a->spec_path, a->report_path, told, &at) != CUTUNE_OK &&
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
        char why[600]; /* "": the driver sees no device (cutune_untuned_text) */
        snprintf(why, sizeof why, "%s", cutune_last_error());
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
                   .shard = {.local = -1, .local_count = -1}};
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
