/* cmd_tune.c - `cutune SPEC`: the main job. This version checks the spec, sizes its
 * space and compiles every variant (its resources and theoretical occupancy need no
 * GPU), then says plainly what it could not do: measure. */
#include <getopt.h>
#include <string.h>

#include "cli.h"

int cmd_tune(int argc, char **argv)
{
    cli_common c;
    cli_init_common(&c);
    cutune_analyze_options o;
    memset(&o, 0, sizeof o);
    static const struct option longopts[] = {
        CLI_COMMON_OPTIONS,
        {"arch", required_argument, NULL, 'a'},
        {"jobs", required_argument, NULL, 'j'},
        {"cache-dir", required_argument, NULL, 'C'},
        {"no-cache", no_argument, NULL, 'N'},
        {NULL, 0, NULL, 0},
    };
    int opt, code = EXIT_OK;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "qa:j:", longopts, NULL)) != -1) {
        int handled = cli_common_option(&c, opt, optarg);
        if (handled == 0)
            handled = cli_analyze_option(&o, opt, optarg);
        if (handled <= 0) {
            code = handled < 0 ? EXIT_USAGE : cli_usage_error("tune", "unknown option");
            goto done;
        }
    }
    if (optind != argc - 1) {
        code = cli_usage_error("tune", optind >= argc ? "which spec? (cutune SPEC)" : "one spec at a time");
        goto done;
    }
    cutune_spec *spec = cli_load(argv[optind], &c, &code);
    if (!spec)
        goto done;
    code = cli_space_summary(spec, &c, 0);
    if (code == EXIT_OK) {
        fprintf(stderr, "\ncompiling every variant (no GPU needed; details: cutune analyze %s)\n", argv[optind]);
        code = cli_run_analysis(spec, &c, &o, 3 /* summary only */, NULL);
    }
    if (code == EXIT_OK) {
        int devices = 0;
        if (cutune_device_count(&devices) < 0 || devices == 0)
            fprintf(stderr, "\ncutune: NOT TUNED. Timing needs a GPU, and this machine has none usable: %s\n"
                            "Everything that needs no GPU was done: the spec is valid, its space is counted and "
                            "every variant compiled.\n",
                    devices == 0 && cutune_last_error()[0] == '\0' ? "the driver sees no device"
                                                                   : cutune_last_error());
        else
            fprintf(stderr, "\ncutune: NOT TUNED. A GPU is present, but measuring variants is not implemented in "
                            "this version yet;\nthe spec is valid, its space counted and every variant compiled.\n");
    }
    cutune_spec_free(spec);
done:
    cli_free_common(&c);
    return code;
}
