/* cmd_devices.c - `cutune devices`: the GPUs the CUDA driver sees, or why there are none.
 *
 * Build scripts use its exit code to decide whether they can tune here (0: at least one
 * GPU; 4: none, with the driver's reason on stderr), so it prints nothing else on the
 * way and never needs a spec. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"

/* cmd_devices: `cutune devices [--format text|json]`. Exit 0 with the list; 4 (on
 * stderr: "cutune devices: no GPU: REASON") when the driver is missing, cannot start or
 * sees no device; 2 on a bad command line. */
int cmd_devices(int argc, char **argv)
{
    static const char *const formats[] = {"text", "json", NULL};
    int json = 0; /* formats[json] */
    bool quiet = false;
    const cli_opt table[] = {
        {"format", 0, true, CLI_CHOICE, &json, NULL, 0, formats},
        {"quiet", 'q', false, CLI_BOOL, &quiet, NULL, 0, NULL},
    };
    int parsed = cli_parse_options("devices", argc, argv, CLI_TABLE(table));
    if (parsed != EXIT_OK)
        return parsed;
    if (optind != argc)
        return cli_usage_error("devices", "unexpected argument '%s'", argv[optind]);
    cutune_device *devs = NULL;
    int count = 0, got = cutune_devices_all(&devs, &count);
    if (got == CUTUNE_ENOMEM)
        return EXIT_INTERNAL;
    if (got != CUTUNE_OK) {
        fprintf(stderr, "cutune devices: no GPU: %s\n", cutune_last_error());
        return EXIT_NO_GPU;
    }
    int rc = EXIT_OK;
    char *text = NULL;
    if ((json || !quiet) &&
        cli_print(json ? cutune_devices_json(&text, devs, count) : cutune_devices_text(&text, devs, count), &text,
                  json ? "\n" : "") < 0)
        rc = EXIT_INTERNAL;
    char *note = NULL; /* what --devices all would do here */
    if (!json && !quiet)
        cli_say(cutune_devices_note(&note, devs, count), &note);
    cutune_free(devs);
    return rc;
}
