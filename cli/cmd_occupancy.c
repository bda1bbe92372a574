/* cmd_occupancy.c - `cutune occupancy`: the theoretical occupancy of one block shape,
 * for an architecture or for a GPU present on this machine. */
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "format.h"

static const char *limit_text(int v, char *buf, size_t size)
{
    if (v == INT32_MAX)
        snprintf(buf, size, "no limit");
    else
        snprintf(buf, size, "%d", v);
    return buf;
}

int cmd_occupancy(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"arch", required_argument, NULL, 'a'}, {"device", required_argument, NULL, 'd'},
        {"regs", required_argument, NULL, 'r'}, {"threads", required_argument, NULL, 't'},
        {"smem", required_argument, NULL, 's'}, {"format", required_argument, NULL, 'f'},
        {"quiet", no_argument, NULL, 'q'},      {NULL, 0, NULL, 0},
    };
    const char *arch = NULL;
    long long device = -1, regs = -1, threads = -1, smem = 0;
    bool json = false;
    int opt;
    optind = 1;
    while ((opt = cli_getopt("occupancy", argc, argv, "q", longopts)) != -1) {
        switch (opt) {
        case 'a': arch = optarg; break;
        case 'd':
            if (!cli_read_int(optarg, 0, CLI_MAX_GPU, &device))
                return cli_usage_error("occupancy", "--device takes a GPU number (0..%d), not '%s'", CLI_MAX_GPU,
                                       optarg);
            break;
        case 'r':
            if (!cli_read_int(optarg, 0, 255, &regs))
                return cli_usage_error("occupancy", "--regs takes registers per thread (0..255), not '%s'", optarg);
            break;
        case 't':
            if (!cli_read_int(optarg, 1, 1 << 20, &threads))
                return cli_usage_error("occupancy", "--threads takes threads per block (1..%d), not '%s'", 1 << 20,
                                       optarg);
            break;
        case 's':
            if (!cli_read_int(optarg, 0, 1LL << 40, &smem))
                return cli_usage_error("occupancy", "--smem takes bytes of shared memory per block (0..%lld), not '%s'",
                                       1LL << 40, optarg);
            break;
        case 'f':
            if (strcmp(optarg, "json") != 0 && strcmp(optarg, "text") != 0)
                return cli_usage_error("occupancy", "--format takes text or json, not '%s'", optarg);
            json = strcmp(optarg, "json") == 0;
            break;
        case 'q': break;            /* it prints only the result anyway */
        default: return EXIT_USAGE; /* cli_getopt said why */
        }
    }
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
    if (json)
        return fmt_print_made(cutune_occupancy_json(&text, &occ, (int)device, (int)regs, (int)threads, smem), &text) < 0
                   ? EXIT_INTERNAL
                   : EXIT_OK;
    char a[24], b[24], c[24], d[24];
    printf("%s: %lld threads x %lld registers, %lld bytes of shared memory per block\n", occ.arch, threads, regs, smem);
    printf("blocks per SM   %d  (allowed by warps %s, blocks %s, registers %s, shared memory %s)\n", occ.blocks_per_sm,
           limit_text(occ.by_warps, a, sizeof a), limit_text(occ.by_blocks, b, sizeof b),
           limit_text(occ.by_registers, c, sizeof c), limit_text(occ.by_shared_memory, d, sizeof d));
    printf("active warps    %d of %d\n", occ.active_warps, occ.max_warps);
    printf("occupancy       %.1f%%\n", occ.occupancy * 100);
    printf("limiter         %s\n", occ.unlaunchable ? "none: cannot launch" : occ.limiter);
    if (occ.unlaunchable)
        printf("cannot launch   %s\n", occ.unlaunchable);
    printf("allocated       %d registers and %lld bytes of shared memory per block\n", occ.regs_per_block,
           (long long)occ.smem_per_block);
    return EXIT_OK;
}
