/* cmd_emit.c - `cutune emit header|csv|t4`: what a stored tuning run (a results file)
 * becomes: the best-config header (docs/header.md), a CSV table, or Kernel Tuner's T4
 * format. Also the header and CSV written after `cutune SPEC` (--header, --csv, or the
 * spec's emit statements). No GPU needed. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../base/sys.h"
#include "cli.h"
#include "options.h"

/* The spec recorded in the results (cutune_results_spec), when it still loads and
 * matches; else NULL with a note on stderr saying what the header then lacks, never
 * silently. */
static cutune_spec *recorded_spec(const char *results_path, const cutune_tune_result *r, const cli_common *c)
{
    cutune_load_options opts = CUTUNE_LOAD_OPTIONS_INIT;
    opts.set = c->set;
    opts.nset = c->nset;
    opts.skip_file_checks = 1;
    cutune_spec *spec = NULL;
    if (cutune_results_spec(&spec, r, &opts) != CUTUNE_OK && !c->quiet)
        fprintf(stderr,
                "note: %s %s; the header has no functions of the problem size (no *_grid_dim_*, "
                "*_block_dim_* or *_config_* functions: give the spec with --spec)\n",
                results_path, cutune_last_error());
    return spec;
}

typedef struct emit_args {
    const char *kind;
    const char *spec_path, *prefix, *output;
    char **files;
    int nfiles;
} emit_args;

/* The spec of each kernel's results (cutune_emit_headers' spec_of): --spec's, loaded
 * anew for each kernel, else the one the results record. `code` keeps the exit code of
 * a refusal; `seen` the spec's diagnostics printed. */
typedef struct header_specs {
    const emit_args *a;
    const cli_common *c;
    cutune_tune_result *const *all; /* every results file, to name one */
    cutune_spec *spec;              /* the spec in hand (owned) */
    int seen, code;
} header_specs;

/* file_of: the path of the results file r was loaded from. */
static const char *file_of(const header_specs *hs, const cutune_tune_result *r)
{
    for (int k = 0; k < hs->a->nfiles; k++)
        if (hs->all[k] == r)
            return hs->a->files[k];
    return "";
}

static int spec_of(void *user, cutune_spec **out, const cutune_tune_result *const *results, int n)
{
    header_specs *hs = user;
    cutune_spec_free(hs->spec);
    hs->spec = NULL;
    if (!hs->a->spec_path) {
        *out = hs->spec = recorded_spec(file_of(hs, results[0]), results[0], hs->c);
        hs->seen = hs->spec ? cutune_spec_diagnostic_count(hs->spec) : 0;
        return CUTUNE_OK;
    }
    if (!(hs->spec = cli_load(hs->a->spec_path, hs->c, &hs->code)))
        return CUTUNE_ESTOPPED;
    for (int k = 0; k < n; k++)
        if (cutune_spec_select_kernel_of(hs->spec, results[k]) != CUTUNE_OK) {
            fprintf(stderr, "cutune emit: %s is not of this spec: its kernel or params differ from %s's\n",
                    file_of(hs, results[k]), hs->a->spec_path);
            hs->code = EXIT_USAGE;
            return CUTUNE_ESTOPPED;
        }
    hs->seen = cutune_spec_diagnostic_count(hs->spec);
    *out = hs->spec;
    return CUTUNE_OK;
}

/* `cutune emit header`: one header for every results file, a section per kernel
 * (cutune_emit_headers); without results, --spec's defaults. */
static int emit_header(const emit_args *a, const cli_common *c, cutune_tune_result **results)
{
    header_specs hs = {a, c, results, NULL, 0, EXIT_OK};
    if (a->nfiles == 0 && !a->spec_path)
        return cli_usage_error("emit", "emit header needs results files, or --spec SPEC for the default "
                                       "configuration");
    if (a->nfiles == 0 && !(hs.spec = cli_load(a->spec_path, c, &hs.code)))
        return hs.code;
    hs.seen = hs.spec ? cutune_spec_diagnostic_count(hs.spec) : 0;
    const cutune_tune_result *const *rs = (const cutune_tune_result *const *)results;
    int sections = 1;
    cutune_header_sections(&sections, hs.spec, rs, a->nfiles, c->kernel != NULL);
    if (a->prefix && sections > 1) {
        cutune_spec_free(hs.spec);
        return a->nfiles ? cli_usage_error("emit",
                                           "results of %d kernels: one --prefix cannot name them all (each "
                                           "kernel's prefix comes from its spec)",
                                           sections)
                         : cli_usage_error("emit",
                                           "the spec has %d kernel blocks: one --prefix cannot name them all "
                                           "(pick one with --kernel NAME)",
                                           sections);
    }
    /* The results files as the header names them: canonical, so that the header is the
     * same from any working folder (as given when a path cannot be resolved). */
    char **canon = calloc((size_t)a->nfiles + 1, sizeof(char *));
    const char **sources = calloc((size_t)a->nfiles + 1, sizeof(char *));
    for (int k = 0; canon && sources && k < a->nfiles; k++)
        sources[k] = (canon[k] = sys_canonical_path(a->files[k])) ? canon[k] : a->files[k];
    const char *base = a->output && strcmp(a->output, "-") != 0 ? strrchr(a->output, '/') : NULL;
    cutune_headers_options opts = CUTUNE_HEADERS_OPTIONS_INIT;
    opts.prefix = a->prefix;
    opts.sources = sources;
    opts.file_name = base ? base + 1 : a->output && strcmp(a->output, "-") != 0 ? a->output : NULL;
    opts.selected_only = c->kernel != NULL;
    opts.spec_of = a->nfiles ? spec_of : NULL;
    opts.user = &hs;
    char *text = NULL;
    int rc = canon && sources ? cutune_emit_headers(&text, hs.spec, rs, a->nfiles, &opts) : CUTUNE_ENOMEM;
    int code = hs.code;
    if (rc == CUTUNE_OK) {
        code = cli_write("cutune", a->output ? a->output : "-", text);
    } else if (code != EXIT_OK) {
        /* spec_of said why */
    } else if (rc == CUTUNE_ESPEC || rc == CUTUNE_EEVAL) {
        cli_print_new_diagnostics(hs.spec, c, &hs.seen);
        code = EXIT_SPEC;
    } else {
        fprintf(stderr, "cutune emit: %s\n", rc == CUTUNE_EINVAL ? cutune_last_error() : cutune_status_text(rc));
        code = cli_exit_for_status(rc);
    }
    for (int k = 0; canon && k < a->nfiles; k++)
        free(canon[k]);
    free(canon);
    free(sources);
    cutune_free(text);
    cutune_spec_free(hs.spec);
    return code;
}

static int run_emit(const emit_args *a, const cli_common *c)
{
    bool header = strcmp(a->kind, "header") == 0;
    if (!header && a->nfiles != 1)
        return cli_usage_error("emit", "emit %s takes one results file%s", a->kind, a->nfiles ? ", not several" : "");
    if (!header && (a->spec_path || a->prefix))
        return cli_usage_error("emit", "--spec and --prefix are for emit header");
    if (strcmp(a->kind, "t4") == 0) { /* streamed: the file is never held whole */
        int rc = cutune_emit_t4_to(a->files[0], a->output ? a->output : "-");
        if (rc != CUTUNE_OK)
            fprintf(stderr, "cutune emit: %s\n", cutune_last_error());
        return rc == CUTUNE_OK ? EXIT_OK : rc == CUTUNE_EIO ? EXIT_IO : cli_exit_for_status(rc);
    }
    cutune_tune_result **results = calloc((size_t)a->nfiles + 1, sizeof *results);
    if (!results)
        return EXIT_INTERNAL;
    int code = EXIT_OK;
    for (int k = 0; k < a->nfiles && code == EXIT_OK; k++) {
        int rc = cutune_results_load(&results[k], a->files[k]);
        if (rc != CUTUNE_OK) {
            fprintf(stderr, "cutune emit: %s\n", cutune_last_error());
            code = rc == CUTUNE_EIO ? EXIT_IO : cli_exit_for_status(rc);
        } else if (header && !cutune_tune_best(results[k]) && cutune_tune_size_count(results[k]) == 0) {
            fprintf(stderr, "cutune emit: %s: no variant ran correctly, so there is no winner to put in a header\n",
                    a->files[k]);
            code = EXIT_NOTHING;
        }
    }
    if (code == EXIT_OK) {
        if (header) {
            code = emit_header(a, c, results);
        } else {
            char *text = NULL;
            int rc =
                strcmp(a->kind, "csv") == 0 ? cutune_emit_csv(&text, results[0]) : cutune_emit_t4(&text, results[0]);
            code = rc == CUTUNE_OK ? cli_write("cutune", a->output ? a->output : "-", text) : cli_exit_for_status(rc);
            cutune_free(text);
        }
    }
    for (int k = 0; k < a->nfiles; k++)
        cutune_tune_result_free(results[k]);
    free(results);
    return code;
}

int cmd_emit(int argc, char **argv)
{
    cli_common c;
    cli_init_common(&c);
    emit_args a = {argc > 1 ? argv[1] : NULL, NULL, NULL, NULL, NULL, 0};
    const cli_opt table[] = {
        {"spec", 0, true, CLI_TEXT, &a.spec_path, NULL, 0, NULL, "SPEC", "the spec (needed without results files)"},
        {"prefix", 0, true, CLI_TEXT, &a.prefix, NULL, 0, NULL, "P",
         "the names' prefix (default: the spec's emit header prefix, else\nthe kernel's name upper-cased)"},
        {"output", 'o', true, CLI_TEXT, &a.output, NULL, 0, NULL, "FILE", "write here (default: stdout)"},
        {"set", 0, true, CLI_CALL, &c, cli_opt_common, CLI_OPT_SET, NULL, "NAME=VALUE",
         "override a `let` of the spec (repeatable)"},
        {"kernel", 0, true, CLI_TEXT, &c.kernel, NULL, 0, NULL, "NAME",
         "with --spec and no results: only kernel NAME's block"},
        CLI_COLOR_ENTRY(&c),
        {"quiet", 'q', false, CLI_BOOL, &c.quiet, NULL, 0, NULL, NULL, CLI_HELP_QUIET},
    };
    int code = EXIT_OK;
    if (argc == 2 && strcmp(argv[1], "--help") == 0) /* cutune help emit: the table's options */
        code = cli_parse_options("emit", argc, argv, CLI_TABLE(table));
    else if (argc < 2 || argv[1][0] == '-')
        code = cli_usage_error("emit", "what to emit? (emit header|csv|t4 ...)");
    else if (strcmp(a.kind, "header") != 0 && strcmp(a.kind, "csv") != 0 && strcmp(a.kind, "t4") != 0)
        code = cli_usage_error("emit", "no format named '%s' (header, csv or t4)", a.kind);
    else
        code = cli_parse_options("emit", argc - 1, argv + 1, CLI_TABLE(table));
    if (code == EXIT_OK) {
        a.files = argv + 1 + optind;
        a.nfiles = argc - 1 - optind;
        code = run_emit(&a, &c);
    }
    cli_free_common(&c);
    return code;
}

int cli_emit_after_tune(cutune_spec *spec, const cutune_tune_result *r, const char *header_path, const char *csv_path,
                        const cli_common *c, bool append)
{
    int code = EXIT_OK;
    if (!header_path)
        header_path = cutune_spec_emit_path(spec, "header");
    if (!csv_path)
        csv_path = cutune_spec_emit_path(spec, "csv");
    if (csv_path) {
        char *text = NULL;
        int rc = cutune_emit_csv(&text, r);
        int wrote = rc == CUTUNE_OK ? cli_write("cutune", csv_path, text) : cli_exit_for_status(rc);
        cutune_free(text);
        if (wrote == EXIT_OK && !c->quiet)
            fprintf(stderr, "csv: %s\n", csv_path);
        if (wrote != EXIT_OK)
            code = EXIT_IO;
    }
    if (header_path && !cutune_tune_best(r) && cutune_tune_size_count(r) == 0) {
        fprintf(stderr, "cutune: no header written to %s: there is no winner\n", header_path);
    } else if (header_path) {
        const char *base = strrchr(header_path, '/');
        cutune_header_options opts = CUTUNE_HEADER_OPTIONS_INIT;
        opts.file_name = base ? base + 1 : header_path;
        char *text = NULL;
        int seen = cutune_spec_diagnostic_count(spec);
        int rc = cutune_emit_header(&text, spec, &r, 1, &opts);
        char *before = append && rc == CUTUNE_OK ? sys_read_file(header_path, SYS_LIMIT_SOURCE, NULL) : NULL;
        if (before) { /* the header holds every kernel block: each its own section and guard */
            size_t n = strlen(before) + strlen(text) + 2;
            char *both = malloc(n);
            if (both) {
                snprintf(both, n, "%s\n%s", before, text);
                cutune_free(text);
                text = both;
            }
            free(before);
        }
        int wrote = rc == CUTUNE_OK ? cli_write("cutune", header_path, text) : EXIT_IO;
        if (rc != CUTUNE_OK) {
            if (rc == CUTUNE_ESPEC || rc == CUTUNE_EEVAL)
                cli_print_new_diagnostics(spec, c, &seen);
            else
                fprintf(stderr, "cutune: no header: %s\n", cutune_last_error());
        }
        cutune_free(text);
        if (wrote == EXIT_OK && !c->quiet)
            fprintf(stderr, "header: %s\n", header_path);
        if (wrote != EXIT_OK)
            code = EXIT_IO;
    }
    return code;
}

int cli_emit_header_many(cutune_spec *spec, const cutune_tune_result *const *results, int n, const char *path,
                         bool quiet)
{
    const char *base = strrchr(path, '/');
    cutune_header_options opts = CUTUNE_HEADER_OPTIONS_INIT;
    opts.file_name = base ? base + 1 : path;
    /* GPUs of one model give one entry: the first GPU's winner (cutune_emit_header_devices). */
    int *same = calloc((size_t)n + 1, sizeof *same);
    if (!same)
        return EXIT_INTERNAL;
    char *text = NULL;
    int rc = cutune_emit_header_devices(&text, spec, results, n, &opts, same);
    for (int k = 0; k < n && !quiet; k++)
        if (same[k] >= 0)
            fprintf(stderr,
                    "note: results %d are of the same GPU model as results %d: the header holds the "
                    "first one's winner for that model\n",
                    k + 1, same[k] + 1);
    free(same);
    if (rc != CUTUNE_OK) {
        fprintf(stderr, "cutune: no header written to %s: %s\n", path, cutune_last_error());
        return cli_exit_for_status(rc);
    }
    int wrote = cli_write("cutune", path, text);
    cutune_free(text);
    if (wrote == EXIT_OK && !quiet)
        fprintf(stderr, "header: %s (an entry per device)\n", path);
    return wrote;
}
