/* cmd_tune.c - `cutune SPEC`: the main job. This version has the front end only, so it
 * does the work that needs no compiler stage and no GPU (check the spec, size its
 * space) and then says plainly what it did not do. */
#include <getopt.h>
#include <string.h>

#include "cli.h"

int cli_space_summary(cutune_spec *spec, const cli_common *c, int json);

int cmd_tune(int argc, char **argv)
{
    cli_common c;
    cli_init_common(&c);
    static const struct option longopts[] = {
        CLI_COMMON_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    int opt, code = EXIT_OK;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "q", longopts, NULL)) != -1) {
        int handled = cli_common_option(&c, opt, optarg);
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
    if (code == EXIT_OK)
        fprintf(stderr, "\ncutune: NOT TUNED. This build has the front end only: the spec is valid and its space is "
                        "counted above,\nbut compiling variants (NVRTC) and timing them (needs a GPU) are not "
                        "implemented yet,\nso nothing was compiled or measured and no header was written.\n"
                        "See every variant with: cutune list %s\n",
                argv[optind]);
    cutune_spec_free(spec);
done:
    cli_free_common(&c);
    return code;
}
