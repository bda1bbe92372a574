/* cmd_import.c - `cutune import FILE [-o OUT] [--force]`: a T1 tuning problem (Kernel
 * Tuner's, KTT's, BAT's and the Kernel Tuner benchmark hub's JSON) as a cutune spec,
 * written beside it; `cutune import FILE --spec SPEC [--kernel NAME] -o RESULTS.json`: a
 * Kernel Tuner cache or T4 file as a results file of SPEC's block NAME (docs/cli.md,
 * docs/kernel-tuner.md). The work is the library's (cutune_import_t1, cutune_import_block,
 * cutune_import_results_to); this prints its errors and notes and writes the file. */
#include <string.h>
#include <unistd.h>

#include "options.h"

/* exists: whether `out` (not "-") exists and may not be replaced (said on stderr). */
static bool exists(const char *out, bool force)
{
    if (strcmp(out, "-") == 0 || force || access(out, F_OK) != 0)
        return false;
    fprintf(stderr, "cutune import: %s exists; --force replaces it\n", out);
    return true;
}

/* import_results: FILE (a Kernel Tuner cache or T4 file) as results of the spec at
 * spec_path, of its block `kernel` (cutune_import_block), written to output
 * (cutune_import_results_to). */
static int import_results(const char *file, const char *spec_path, const char *kernel, const char *output,
                          const char *device, int complete, bool force, bool quiet)
{
    if (!output)
        return cli_usage_error("import", "where to? -o RESULTS.json is required with --spec");
    if (exists(output, force))
        return EXIT_IO;
    cli_common common = {.quiet = quiet};
    int code = EXIT_OK;
    cutune_spec *spec = cli_load(spec_path, &common, &code);
    if (!spec)
        return code;
    if (cutune_import_block(spec, kernel) != CUTUNE_OK) {
        fprintf(stderr, "cutune import: %s\n", cutune_last_error());
        cutune_spec_free(spec);
        return EXIT_USAGE;
    }
    cutune_import_options opts = CUTUNE_IMPORT_OPTIONS_INIT;
    opts.device_name = device;
    opts.complete = complete;
    char *said = NULL;
    int rc = cutune_import_results_to(quiet ? NULL : &said, spec, file, output, &opts);
    if (rc != CUTUNE_OK) {
        fprintf(stderr, "cutune import: %s\n", cutune_last_error());
        code = cli_exit_for_status(rc);
    }
    cli_say(rc, &said);
    cutune_spec_free(spec);
    return code;
}

int cmd_import(int argc, char **argv)
{
    const char *output = NULL, *spec = NULL, *kernel = NULL, *device = NULL;
    bool quiet = false, force = false;
    int complete = 0;
    const cli_opt table[] = {
        {"output", 'o', true, CLI_TEXT, &output, NULL, 0, NULL},
        {"force", 0, false, CLI_BOOL, &force, NULL, 0, NULL},
        {"spec", 0, true, CLI_TEXT, &spec, NULL, 0, NULL},
        {"kernel", 0, true, CLI_TEXT, &kernel, NULL, 0, NULL},
        {"gpu-name", 0, true, CLI_TEXT, &device, NULL, 0, NULL},
        {"complete", 0, false, CLI_INT, &complete, NULL, 1, NULL},
        {"quiet", 'q', false, CLI_BOOL, &quiet, NULL, 0, NULL},
    };
    int code = cli_parse_options("import", argc, argv, CLI_TABLE(table));
    if (code != EXIT_OK)
        return code;
    if (argc - optind != 1)
        return cli_usage_error("import", argc - optind < 1 ? "which file? (cutune import FILE [-o OUT])"
                                                           : "one file at a time (cutune import FILE [-o OUT])");
    const char *file = argv[optind];
    if (spec)
        return import_results(file, spec, kernel, output, device, complete, force, quiet);
    if (device || complete || kernel)
        return cli_usage_error("import", "--%s goes with --spec (a Kernel Tuner cache or T4 file as results)",
                               device     ? "gpu-name"
                               : complete ? "complete"
                                          : "kernel");
    char *made = NULL;
    if (!output && cutune_import_default_path(&made, file) != CUTUNE_OK)
        return EXIT_INTERNAL;
    const char *out = output ? output : made;
    bool to_stdout = strcmp(out, "-") == 0;
    if (exists(out, force)) {
        cutune_free(made);
        return EXIT_IO;
    }
    cutune_import *imp = NULL;
    int rc = cutune_import_t1(&imp, file, to_stdout ? NULL : out);
    if (!imp) {
        fprintf(stderr, "cutune import: %s\n", cutune_last_error());
        cutune_free(made);
        return cli_exit_for_status(rc);
    }
    char *said = NULL;
    cli_say(cutune_import_messages(&said, imp, file, !quiet), &said);
    if (rc != CUTUNE_OK) {
        code = EXIT_SPEC;
    } else {
        code = cli_write("cutune import", out, cutune_import_text(imp));
        if (code == EXIT_OK && !quiet && !to_stdout)
            fprintf(stderr, "spec: %s (cutune check %s counts its space)\n", out, out);
    }
    cutune_import_free(imp);
    cutune_free(made);
    return code;
}
