/* cmd_merge.c - `cutune merge SHARD.json ... -o OUT.json [--partial]`: the shards of a
 * run split over processes or GPUs (`cutune SPEC --shard i/N`) gathered into one results
 * file, as one process tuning every configuration would have written it (
 * docs/cli.md, docs/results-format.md). No GPU needed. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

/* With --partial: the shards missing from r, said plainly on stderr (nothing when none). */
static void say_missing(const cutune_tune_result *r)
{
    int n = cutune_tune_shard_count(r), missing = 0;
    for (int i = 0; i < n; i++)
        missing += !cutune_tune_shard_holds(r, i);
    if (missing == 0)
        return;
    fprintf(stderr, "cutune merge: partial: shard%s", missing == 1 ? "" : "s");
    for (int i = 0, k = 0; i < n; i++)
        if (!cutune_tune_shard_holds(r, i))
            fprintf(stderr, "%s %d", k++ ? "," : "", i);
    fprintf(stderr, " of %d missing; the file records the shards it holds (settings.shard.merged)\n", n);
}

int cmd_merge(int argc, char **argv)
{
    const char *output = NULL;
    bool quiet = false;
    int partial = 0;
    const cli_opt table[] = {
        {"output", 'o', true, CLI_TEXT, &output, NULL, 0, NULL, "FILE", "write the merged results here (required)"},
        {"partial", 0, false, CLI_INT, &partial, NULL, 1, NULL, NULL,
         "merge the shards given even when some are missing: the file\nrecords which it holds "
         "(settings.shard.merged), and the\nmissing ones are named on stderr"},
        {"quiet", 'q', false, CLI_BOOL, &quiet, NULL, 0, NULL, NULL, CLI_HELP_QUIET},
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
    say_missing(r);
    if (!quiet) {
        const cutune_tune_summary *s = cutune_tune_summary_of(r);
        const cutune_measurement *best = cutune_tune_best(r);
        fprintf(stderr, "merged %d file%s: %" PRIu64 " variants, %" PRIu64 " timed", nfiles, nfiles == 1 ? "" : "s",
                s->variants, s->timed);
        if (best)
            fprintf(stderr, ", best #%" PRIu64 " (%s %.6g)", cutune_measurement_variant(best)->ordinal,
                    s->objective_name, cutune_measurement_value(best, CUTUNE_VALUE_OBJECTIVE));
        fprintf(stderr, "\nresults: %s\n", output);
    }
    cutune_tune_result_free(r);
    return EXIT_OK;
}
