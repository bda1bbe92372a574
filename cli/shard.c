/* shard.c - which shard of the space this process takes: `--shard I/N`, or `--shard
 * auto`, the shard the parallel launcher that started it gives (cutune_launcher_find:
 * the launchers and their variables are the library's, so an application reads them
 * the same way). Nothing is linked against MPI: the shards write their own results
 * files (on a shared file system), and `cutune merge` joins them (docs/multi-node.md). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_parse_shard(const char *sub, const char *text, cli_shard *out)
{
    if (strcmp(text, "auto") == 0) {
        cutune_launcher l;
        if (cutune_launcher_find(&l, NULL) != CUTUNE_OK) {
            cli_usage_error(sub, "--shard auto: %s; give --shard I/N", cutune_last_error());
            return -1;
        }
        *out = (cli_shard){l.index, l.count, l.local, l.local_count, l.name};
        return 0;
    }
    const char *slash = strchr(text, '/');
    char index[24];
    long long i = -1, n = -1;
    if (slash && (size_t)(slash - text) < sizeof index) {
        memcpy(index, text, (size_t)(slash - text));
        index[slash - text] = '\0';
        if (!num_read_int(index, 0, CUTUNE_MAX_SHARDS - 1, &i) || !num_read_int(slash + 1, 1, CUTUNE_MAX_SHARDS, &n))
            n = -1;
    }
    if (n < 1 || i < 0 || i >= n) {
        cli_usage_error(sub, "--shard takes I/N (0 <= I < N <= %d) or auto, not '%s'", CUTUNE_MAX_SHARDS, text);
        return -1;
    }
    *out = (cli_shard){(int)i, (int)n, -1, -1, NULL};
    return 0;
}
