/* cmd_emit.c - `cutune emit header|csv|t4`: what a stored tuning run (a results file)
 * becomes: the best-config header (docs/header.md), a CSV table, or Kernel Tuner's T4
 * format. No GPU needed. This file reads the options and prints; what is decided (the
 * spec of each kernel's results, --kernel's results) is the library's
 * (api/cutune_emit_files.c). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"

typedef struct emit_args {
    const char *kind;
    const char *spec_path, *prefix, *output;
    char **files;
    int nfiles;
} emit_args;

/* The spec of each kernel's results (cutune_emit_headers' spec_of): what
 * cutune_header_spec_load finds, and what it says printed. `code` keeps the exit code of
 * a refusal; `seen` the spec's diagnostics printed. */
typedef struct header_specs {
    const emit_args *a;
    const cli_common *c;
    cutune_spec *spec; /* the spec in hand (owned) */
    int seen, code;
} header_specs;

/* spec_of: --spec's spec (its diagnostics printed, as cli_load does), else the one the
 * results record, or a note on stderr saying what the header then lacks (the library's
 * words), never silently. */
static int spec_of(void *user, cutune_spec **out, const cutune_tune_result *const *results, int n)
{
    header_specs *hs = user;
    cutune_spec_free(hs->spec);
    hs->spec = NULL;
    cutune_load_options opts = CUTUNE_LOAD_OPTIONS_INIT;
    opts.set = hs->c->set;
    opts.nset = hs->c->nset;
    int rc = cutune_header_spec_load(&hs->spec, hs->a->spec_path, results, n, &opts);
    hs->seen = 0;
    if (!hs->a->spec_path) {
        if (rc != CUTUNE_OK && !hs->c->quiet)
            fprintf(stderr, "note: %s\n", cutune_last_error());
        hs->seen = hs->spec ? cutune_spec_diagnostic_count(hs->spec) : 0;
        *out = hs->spec;
        return CUTUNE_OK;
    }
    bool loaded = hs->spec && cutune_spec_ok(hs->spec); /* else rc is the load's */
    hs->code = cli_print_load(hs->spec, loaded ? CUTUNE_OK : rc, hs->a->spec_path, hs->c, &hs->seen);
    if (hs->code == EXIT_OK && rc != CUTUNE_OK) { /* results of another spec */
        fprintf(stderr, "cutune emit: %s\n", cutune_last_error());
        hs->code = EXIT_USAGE;
    }
    *out = hs->spec;
    return hs->code == EXIT_OK ? CUTUNE_OK : CUTUNE_ESTOPPED;
}

/* `cutune emit header`: one header for the results rs[0 .. n), a section per kernel
 * (cutune_emit_headers); without results, --spec's defaults. */
static int emit_header(const emit_args *a, const cli_common *c, const cutune_tune_result *const *rs, int n)
{
    header_specs hs = {a, c, NULL, 0, EXIT_OK};
    if (n == 0 && !a->spec_path)
        return cli_usage_error("emit", "emit header needs results files, or --spec SPEC for the default "
                                       "configuration");
    if (n == 0 && !(hs.spec = cli_load(a->spec_path, c, &hs.code)))
        return hs.code;
    hs.seen = hs.spec ? cutune_spec_diagnostic_count(hs.spec) : 0;
    if (cutune_header_prefix_check(hs.spec, rs, n, c->kernel != NULL, a->prefix) != CUTUNE_OK) {
        cutune_spec_free(hs.spec);
        return cli_usage_error("emit", "%s", cutune_last_error());
    }
    const char **sources = NULL; /* canonical: the same header from any working folder */
    const char *base = a->output && strcmp(a->output, "-") != 0 ? strrchr(a->output, '/') : NULL;
    cutune_headers_options opts = CUTUNE_HEADERS_OPTIONS_INIT;
    opts.prefix = a->prefix;
    opts.file_name = base ? base + 1 : a->output && strcmp(a->output, "-") != 0 ? a->output : NULL;
    opts.selected_only = c->kernel != NULL;
    opts.spec_of = n ? spec_of : NULL;
    opts.user = &hs;
    char *text = NULL;
    int rc = cutune_header_sources(&sources, rs, n);
    opts.sources = sources;
    if (rc == CUTUNE_OK)
        rc = cutune_emit_headers(&text, hs.spec, rs, n, &opts);
    /* A failure spec_of refused with has been said; a spec's is in its diagnostics. */
    int code = rc == CUTUNE_OK      ? cli_write("cutune", a->output ? a->output : "-", text)
               : hs.code != EXIT_OK ? hs.code
                                    : cli_exit_for_status(rc);
    if (rc != CUTUNE_OK && hs.code == EXIT_OK) {
        if (rc == CUTUNE_ESPEC || rc == CUTUNE_EEVAL)
            cli_print_new_diagnostics(hs.spec, c, &hs.seen);
        else
            fprintf(stderr, "cutune emit: %s\n", rc == CUTUNE_EINVAL ? cutune_last_error() : cutune_status_text(rc));
    }
    cutune_free((void *)sources);
    cutune_free(text);
    cutune_spec_free(hs.spec);
    return code;
}

/* header_of_kernel: emit header of the results of --kernel's block alone (all of them
 * without --kernel), each with a winner. */
static int header_of_kernel(const emit_args *a, const cli_common *c, cutune_tune_result **results)
{
    const cutune_tune_result **kept = calloc((size_t)a->nfiles + 1, sizeof *kept);
    int n = a->nfiles, code = kept ? EXIT_OK : EXIT_INTERNAL;
    if (code == EXIT_OK && n > 0 &&
        cutune_results_of_kernel(kept, &n, (const cutune_tune_result *const *)results, n, c->kernel) != CUTUNE_OK)
        code = EXIT_USAGE;
    for (int k = 0; code == EXIT_OK && c->kernel && k < n; k++) /* the others' winners do not matter */
        if (cutune_header_has_winner(kept[k]) != CUTUNE_OK)
            code = EXIT_NOTHING;
    if (code == EXIT_USAGE || code == EXIT_NOTHING)
        fprintf(stderr, "cutune emit: %s\n", cutune_last_error());
    else if (code == EXIT_OK)
        code = emit_header(a, c, kept, n);
    free(kept);
    return code;
}

static int run_emit(const emit_args *a, const cli_common *c)
{
    bool header = strcmp(a->kind, "header") == 0;
    if (!header && a->nfiles != 1)
        return cli_usage_error("emit", "emit %s takes one results file%s", a->kind, a->nfiles ? ", not several" : "");
    if (!header && (a->spec_path || a->prefix))
        return cli_usage_error("emit", "--spec and --prefix are for emit header");
    const char *output = a->output ? a->output : "-";
    cutune_tune_result **results = NULL;
    char *text = NULL;       /* the CSV; the T4 file is streamed, never held whole */
    int winnerless = -1, rc; /* a header of all of them: a winner in each */
    if (header)
        rc = cutune_results_load_all(&results, (const char *const *)a->files, a->nfiles, !c->kernel, &winnerless);
    else
        rc = strcmp(a->kind, "t4") == 0 ? cutune_emit_t4_to(a->files[0], output)
                                        : cutune_emit_csv_file(&text, a->files[0]);
    int code = rc == CUTUNE_OK ? EXIT_OK : winnerless >= 0 ? EXIT_NOTHING : cli_exit_for_status(rc);
    if (rc != CUTUNE_OK)
        fprintf(stderr, "cutune emit: %s\n", cutune_last_error());
    else if (header)
        code = header_of_kernel(a, c, results);
    else if (text)
        code = cli_write("cutune", output, text);
    cutune_free(text);
    cutune_results_free_all(results, a->nfiles);
    return code;
}

int cmd_emit(int argc, char **argv)
{
    cli_common c;
    cli_init_common(&c);
    emit_args a = {argc > 1 ? argv[1] : "", NULL, NULL, NULL, NULL, 0};
    const cli_opt table[] = {
        {"spec", 0, true, CLI_TEXT, &a.spec_path, NULL, 0, NULL},
        {"prefix", 0, true, CLI_TEXT, &a.prefix, NULL, 0, NULL},
        {"output", 'o', true, CLI_TEXT, &a.output, NULL, 0, NULL},
        {"set", 0, true, CLI_CALL, &c, cli_opt_common, CLI_OPT_SET, NULL},
        {"kernel", 0, true, CLI_TEXT, &c.kernel, NULL, 0, NULL},
        CLI_COLOR_ENTRY(&c),
        {"quiet", 'q', false, CLI_BOOL, &c.quiet, NULL, 0, NULL},
    };
    int code = EXIT_OK;
    if (argc < 2 || argv[1][0] == '-')
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
