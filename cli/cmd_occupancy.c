/* cmd_occupancy.c - `cutune occupancy`: the theoretical occupancy of one block shape,
 * for an architecture or for a GPU present on this machine. */
#include <stdlib.h>
#include <string.h>

#include "options.h"

/* The numbers occupancy takes (--device, --regs, --threads, --smem): each a range and
 * what it counts. */
static const struct {
    long long min, max;
    const char *what;
} ranges[] = {{0, CLI_MAX_GPU, "a GPU number"},
              {0, 255, "registers per thread"},
              {1, 1 << 20, "threads per block"},
              {0, 1LL << 40, "bytes of shared memory per block"}};

/* opt_number: one of them (o->set: its index above) into ((long long *)dest)[o->set]. */
static int opt_number(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    if (num_read_int(arg, ranges[o->set].min, ranges[o->set].max, (long long *)dest + o->set))
        return EXIT_OK;
    return cli_usage_error(sub, "--%s takes %s (%lld..%lld), not '%s'", o->name, ranges[o->set].what,
                           ranges[o->set].min, ranges[o->set].max, arg);
}

int cmd_occupancy(int argc, char **argv)
{
    static const char *const formats[] = {"text", "json", NULL};
    long long n[4] = {-1, -1, -1, 0}; /* -1: not given */
    const char *arch = NULL;
    int json = 0, quiet = 0;
    const cli_opt table[] = {
        {"arch", 0, true, CLI_TEXT, &arch, NULL, 0, NULL},     {"device", 0, true, CLI_CALL, n, opt_number, 0, NULL},
        {"regs", 0, true, CLI_CALL, n, opt_number, 1, NULL},   {"threads", 0, true, CLI_CALL, n, opt_number, 2, NULL},
        {"smem", 0, true, CLI_CALL, n, opt_number, 3, NULL},   {"format", 0, true, CLI_CHOICE, &json, NULL, 0, formats},
        {"quiet", 'q', false, CLI_INT, &quiet, NULL, 1, NULL},
    };
    int code = cli_parse_options("occupancy", argc, argv, CLI_TABLE(table));
    if (code != EXIT_OK)
        return code;
    long long device = n[0], regs = n[1], threads = n[2], smem = n[3];
    if (optind != argc)
        return cli_usage_error("occupancy", "unexpected argument '%s'", argv[optind]);
    if (regs < 0 || threads < 0)
        return cli_usage_error("occupancy", "give --regs R and --threads T (and --arch sm_XX or --device N)");
    if ((arch == NULL) == (device < 0))
        return cli_usage_error("occupancy", "give one of --arch sm_XX or --device N");
    cutune_occupancy occ;
    int rc = arch ? cutune_occupancy_for_arch(&occ, arch, (int)regs, (int)threads, smem)
                  : cutune_occupancy_for_device(&occ, (int)device, (int)regs, (int)threads, smem);
    if (rc < 0) {
        fprintf(stderr, "cutune occupancy: %s\n", cutune_last_error());
        return rc == CUTUNE_ENODEV ? EXIT_NO_GPU : EXIT_USAGE;
    }
    char *text = NULL;
    rc = json ? cutune_occupancy_json(&text, &occ, (int)device, (int)regs, (int)threads, smem)
              : cutune_occupancy_text(&text, &occ, (int)regs, (int)threads, smem);
    return cli_print(rc, &text, json ? "\n" : "") < 0 ? EXIT_INTERNAL : EXIT_OK;
}
