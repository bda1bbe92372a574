/* shard.c - which shard of the space this process takes: `--shard I/N`, or `--shard
 * auto`, the shard the parallel launcher that started it gives (cutune_launcher_parse:
 * the text, the launchers and their variables are the library's, so an application
 * reads them the same way). Nothing is linked against MPI: the shards write their own
 * results files (on a shared file system), and `cutune merge` joins them
 * (docs/multi-node.md). */
#include <string.h>

#include "cli.h"

int cli_parse_shard(const char *sub, const char *text, cli_shard *out)
{
    if (cutune_launcher_parse(out, text) == CUTUNE_OK)
        return 0;
    if (strcmp(text, "auto") == 0)
        cli_usage_error(sub, "--shard auto: %s; give --shard I/N", cutune_last_error());
    else
        cli_usage_error(sub, "--%s", cutune_last_error());
    return -1;
}
