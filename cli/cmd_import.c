/* cmd_import.c - `cutune import FILE [-o OUT] [--force]`: a T1 tuning problem (Kernel
 * Tuner's, KTT's, BAT's and the Kernel Tuner benchmark hub's JSON) as a cutune spec,
 * written beside it (docs/cli.md, docs/kernel-tuner.md). The translation is the
 * library's (cutune_import_t1); this prints its errors and notes and writes the text. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format.h"
#include "options.h"

/* default_output: FILE's stem + ".tune", beside it (heap; NULL when out of memory). */
static char *default_output(const char *file)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    const char *dot = strrchr(base, '.');
    size_t stem = dot && dot != base ? (size_t)(dot - file) : strlen(file);
    char *out = malloc(stem + 6);
    if (out) {
        memcpy(out, file, stem);
        memcpy(out + stem, ".tune", 6);
    }
    return out;
}

int cmd_import(int argc, char **argv)
{
    const char *output = NULL, *spec = NULL;
    bool quiet = false, force = false;
    const cli_opt table[] = {
        {"output", 'o', true, CLI_TEXT, &output, NULL, 0, NULL},
        {"force", 0, false, CLI_BOOL, &force, NULL, 0, NULL},
        {"spec", 0, true, CLI_TEXT, &spec, NULL, 0, NULL},
        {"quiet", 'q', false, CLI_BOOL, &quiet, NULL, 0, NULL},
    };
    int code = cli_parse_options("import", argc, argv, table, (int)(sizeof table / sizeof table[0]));
    if (code != EXIT_OK)
        return code;
    if (argc - optind != 1)
        return cli_usage_error("import", argc - optind < 1 ? "which file? (cutune import FILE [-o OUT])"
                                                           : "one file at a time (cutune import FILE [-o OUT])");
    const char *file = argv[optind];
    if (spec)
        return cli_usage_error("import", "--spec (a Kernel Tuner cache or T4 file as a results file of SPEC) is not "
                                         "available yet; cutune import FILE imports a T1 tuning problem");
    char *made = output ? NULL : default_output(file);
    if (!output && !made)
        return EXIT_INTERNAL;
    const char *out = output ? output : made;
    bool to_stdout = strcmp(out, "-") == 0;
    if (!to_stdout && !force && access(out, F_OK) == 0) {
        fprintf(stderr, "cutune import: %s exists; --force replaces it\n", out);
        free(made);
        return EXIT_IO;
    }
    cutune_import *imp = NULL;
    int rc = cutune_import_t1(&imp, file, to_stdout ? NULL : out);
    if (!imp) {
        fprintf(stderr, "cutune import: %s\n", cutune_last_error());
        free(made);
        return cli_exit_for_status(rc);
    }
    for (int k = 0; k < cutune_import_error_count(imp); k++)
        fprintf(stderr, "%s\n", cutune_import_error(imp, k));
    for (int k = 0; !quiet && k < cutune_import_note_count(imp); k++)
        fprintf(stderr, "note: %s\n", cutune_import_note(imp, k));
    if (rc != CUTUNE_OK) {
        int n = cutune_import_error_count(imp);
        fprintf(stderr, "cutune import: %s not imported: %d construct%s refused\n", file, n, n == 1 ? "" : "s");
        code = EXIT_SPEC;
    } else {
        code = fmt_write_output("cutune import", out, cutune_import_text(imp));
        if (code == EXIT_OK && !quiet && !to_stdout)
            fprintf(stderr, "spec: %s (cutune check %s counts its space)\n", out, out);
    }
    cutune_import_free(imp);
    free(made);
    return code;
}
