/* cmd_merge.c - `cutune merge SHARD.json ... -o OUT.json [--partial]`: the shards of a
 * run split over processes or GPUs (`cutune SPEC --shard i/N`) gathered into one results
 * file, as one process tuning every configuration would have written it (
 * docs/cli.md, docs/results-format.md). No GPU needed. */
#include <stdlib.h>
#include <string.h>

#include "options.h"

int cmd_merge(int argc, char **argv)
{
    const char *output = NULL;
    bool quiet = false;
    int partial = 0;
    const cli_opt table[] = {
        {"output", 'o', true, CLI_TEXT, &output, NULL, 0, NULL},
        {"partial", 0, false, CLI_INT, &partial, NULL, 1, NULL},
        {"quiet", 'q', false, CLI_BOOL, &quiet, NULL, 0, NULL},
    };
    int code = cli_parse_options("merge", argc, argv, CLI_TABLE(table));
    if (code != EXIT_OK)
        return code;
    int nfiles = argc - optind;
    if (nfiles < 1)
        return cli_usage_error("merge", "which shards? (cutune merge SHARD.json ... -o OUT.json)");
    if (!output)
        return cli_usage_error("merge", "where to? -o OUT.json is required");
    cutune_tune_result *r = NULL;
    int rc = cutune_results_merge(&r, (const char *const *)(argv + optind), nfiles, partial);
    if (rc == CUTUNE_OK)
        rc = cutune_tune_write_results(r, output);
    if (rc != CUTUNE_OK) {
        fprintf(stderr, "cutune merge: %s\n", cutune_last_error());
        cutune_tune_result_free(r);
        return cli_exit_for_status(rc);
    }
    char *merged = NULL, *missing = NULL;
    rc = cutune_merge_text(&merged, &missing, r, nfiles, output);
    cli_say(rc, &missing);
    if (!quiet)
        cli_say(rc, &merged);
    cutune_free(merged);
    cutune_tune_result_free(r);
    return EXIT_OK;
}
