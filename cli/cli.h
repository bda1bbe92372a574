/* cli.h - the `cutune` command: shared pieces of the subcommands.
 *
 * The CLI is the only place that prints: it loads specs through the public API,
 * prints their diagnostics to stderr, and writes results to stdout. */
#ifndef CUTUNE_CLI_H
#define CUTUNE_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cutune.h"
#include "../base/num.h"

/* Exit codes, one place for the whole CLI (docs/cli.md documents each). A script tells
 * the outcomes of `cutune SPEC` apart by these alone: EXIT_OK tuned (a best was chosen),
 * EXIT_NO_GPU not tuned for want of a GPU (all that needs none was done, and some
 * variants could run on one), EXIT_NOTHING nothing could run (no variant compiled and
 * can launch, or on a GPU none ran correctly: a GPU would not help). */
enum {
    EXIT_OK = 0,           /* done; `cutune SPEC`: tuned, the best chosen */
    EXIT_SPEC = 1,         /* the spec is invalid */
    EXIT_USAGE = 2,        /* bad command line */
    EXIT_IO = 3,           /* a file could not be read or written */
    EXIT_NO_GPU = 4,       /* not done: the work asked for needs a GPU, and none is usable (`cutune SPEC`:
                           everything that needs none was done, and something could run on one) */
    EXIT_INTERNAL = 5,     /* out of memory or an internal error */
    EXIT_NOTHING = 6,      /* nothing could run: no variant compiled and can launch, or none ran correctly,
                           so none was chosen (`emit`: a results file has no winner) */
    EXIT_INTERRUPTED = 130 /* stopped by Ctrl-C (SIGINT) or SIGTERM, after reporting what was done */
};

/* Options every subcommand that reads a spec accepts. */
typedef struct cli_common {
    const char **set; /* --set NAME=VALUE, in order */
    int nset;
    int color; /* 1: colour diagnostics */
    bool quiet;
    const char *arch;     /* --arch: the architecture whose device attributes the spec reads
                           (NULL: sm_90); analyze and tune also compile for it */
    const char *kernel;   /* --kernel NAME: the spec file's kernel block to use (NULL: every one, in order) */
    const char *strategy; /* the search a `tune` runs, for its summary (NULL: the spec's `search`) */
    const char **config;  /* --config NAME=VALUE[,NAME=VALUE...], in order (tune, list, analyze) */
    int nconfig;
} cli_common;

/* cli_print_device_attrs: when the spec reads device attributes (sm_count, ...), one
 * line on `f` under `label` naming their values and where they come from, saying
 * plainly when they were assumed (no GPU read). Nothing otherwise. */
void cli_print_device_attrs(const cutune_spec *spec, FILE *f, const char *label);

/* cli_blocks: how many of the spec file's kernel blocks a command goes over: 1 with
 * --kernel (cli_load selected it) or with a single block, else every one.
 * cli_select_block: holds block i of those (a no-op with --kernel) and, when there are
 * several, prints "kernel NAME (block I of N)" on `out` (NULL: nothing) before it. */
int cli_blocks(const cutune_spec *spec, const cli_common *c);
void cli_select_block(cutune_spec *spec, const cli_common *c, int i, FILE *out);

/* cli_parse_count: a count (--limit N) from 0 to CUTUNE_MAX_COUNT (what a results file
 * holds) into *out; false (after a usage message naming `sub` and `option`) when text is
 * not one. */
bool cli_parse_count(const char *sub, const char *option, const char *text, unsigned long long *out);

/* The largest GPU number (--device, --devices, occupancy's): the library's, which reads
 * --device (cutune_tune_set_option). */
#define CLI_MAX_GPU CUTUNE_MAX_GPU_NUMBER

/* The one reader per kind of number is base/num.h's (num_read_int, num_read_uint,
 * num_read_double), for every numeric option and environment variable. */
/* cli_int_option / cli_uint_option (numbers.c): as num_read_int / num_read_uint (the latter also
 * refusing below min), printing on failure the usage error "cutune SUB: OPTION takes
 * WHAT from MIN to MAX, not 'TEXT'". */
bool cli_int_option(const char *sub, const char *option, const char *what, const char *text, long long min,
                    long long max, long long *out);
bool cli_uint_option(const char *sub, const char *option, const char *what, const char *text, uint64_t min,
                     uint64_t max, uint64_t *out);

/* cli_init_common: defaults (colour when stderr is a terminal and NO_COLOR is unset). */
void cli_init_common(cli_common *c);
void cli_free_common(cli_common *c);

/* cli_load: loads the spec at `path`, prints its diagnostics to stderr, and returns
 * the spec when it is valid; NULL otherwise, with *exit_code set. */
cutune_spec *cli_load(const char *path, const cli_common *c, int *exit_code);

/* cli_print_load: what cli_load says of the spec file `path` that cutune_spec_load_file
 * gave `spec` (NULL: none) with status rc: its diagnostics (*seen then counts them),
 * how many errors it has, or the status when there is no spec. Returns the exit code
 * for rc. */
int cli_print_load(cutune_spec *spec, int rc, const char *path, const cli_common *c, int *seen);

/* cli_print_new_diagnostics: prints diagnostics recorded since index *seen. */
void cli_print_new_diagnostics(cutune_spec *spec, const cli_common *c, int *seen);

/* cli_catch_interrupts: from now on SIGINT and SIGTERM set *cli_interrupted (the first
 * time; a second SIGINT ends the program at once). Returns the flag to hand to the
 * library's `cancel` option. */
const volatile int *cli_catch_interrupts(void);

/* cli_exit_for_status: the exit code for a library status. */
int cli_exit_for_status(int status);

/* cli_usage_error: prints "cutune SUB: message" and, on the next line, where to look
 * ("(see: cutune SUB --help)"; without SUB, cutune --help) to stderr; returns EXIT_USAGE. */
int cli_usage_error(const char *sub, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

int cmd_check(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_occupancy(int argc, char **argv);
int cmd_emit(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_simulate(int argc, char **argv);

int cmd_devices(int argc, char **argv);

/* shard.c: a shard of the space: index of count, the local rank and the number of
 * local ranks the launcher gave (-1: none) and who gave it (name NULL: --shard I/N).
 * cli_parse_shard: "I/N" or "auto" (cutune_launcher_parse) into *out: 0, or -1 after a
 * usage message naming `sub`. */
typedef cutune_launcher cli_shard;
int cli_parse_shard(const char *sub, const char *text, cli_shard *out);

/* cli_tune_per_device (multi.c): `cutune SPEC --devices ... --per-device` after the
 * spec is loaded: checks (one kernel block, a results file, no --shard or --journal),
 * runs a cutune process per GPU, each tuning every configuration into its own results
 * file, then reports each GPU's winner, the spread of the same variants' times and one
 * header with an entry per device. The exit code. */
int cli_tune_per_device(cutune_spec *spec, int argc, char **argv, const int *devs, int n, int nblocks,
                        const cutune_tune_options *t, const cutune_analyze_options *o, const cli_common *c,
                        const char *header_path, int sharded);

/* cmd_metrics.c: `cutune metrics`, and the table of the hardware counters a
 * tuning run read (nothing when it read none; why not, on stderr, when it could not). */
int cmd_metrics(int argc, char **argv);
void cli_print_profile(const cutune_spec *spec, const cutune_tune_result *r);

/* Shared by analyze and tune (cmd_analyze.c). */
/* What cli_run_analysis prints on stdout: a row per variant (table, CSV, JSON), or none
 * (the summary on stderr only, for `cutune SPEC` without a GPU). */
enum cli_analyze_format { CLI_ANALYZE_TABLE, CLI_ANALYZE_CSV, CLI_ANALYZE_JSON, CLI_ANALYZE_NONE };

/* cli_run_analysis: analyses `spec` (`analyze`; with `sizes`, at each problem size in
 * turn, as `cutune SPEC` without a GPU does: cutune_analyze_sizes, each size's line
 * "size n=4096:" when there are several), prints each variant on stdout in `format`
 * and each analysis's summary on stderr (unless quiet), and fills *out (the sizes'
 * sums). Returns EXIT_OK when the analysis ran to its end, however many variants
 * compiled (the caller judges *out); EXIT_INTERRUPTED; or the exit code of the
 * library's failure, stopping after a size that did not end EXIT_OK. */
int cli_run_analysis(cutune_spec *spec, const cli_common *c, const cutune_analyze_options *base,
                     enum cli_analyze_format format, bool sizes, cutune_analyze_summary *out);
/* cli_nothing_runs: when no variant of the analysis `sum` can run, says so on stderr as
 * `who` ("cutune analyze"), with the counts (cutune_analyze_verdict_text), and returns
 * true; false when some can. */
bool cli_nothing_runs(const char *who, const cutune_analyze_summary *sum);
/* Shared by check and tune (cmd_check.c). cli_space_summary: counts the space, prints its
 * diagnostics and the summary in `format` on stdout (CLI_SUMMARY_NONE: no summary, for
 * `cutune SPEC -q`); returns EXIT_OK, EXIT_SPEC (an empty space, a failed expression) or
 * the exit code of a failure. */
enum cli_summary_format { CLI_SUMMARY_TEXT, CLI_SUMMARY_JSON, CLI_SUMMARY_NONE };
int cli_space_summary(cutune_spec *spec, const cli_common *c, enum cli_summary_format format);

/* cli_print: *text, which a library writer has just made (`rc` its status:
 * cutune_devices_json, ...), and `end` on stdout (nothing for a NULL *text); *text freed
 * and NULL. 0, or -1 when rc is a failure (nothing printed). A pointer, since the
 * writer's call and this argument are evaluated in either order. */
int cli_print(int rc, char **text, const char *end);
/* cli_say: as cli_print, on stderr and with nothing after: what a library writer said
 * of a command's work (cutune_merge_text, ...). */
int cli_say(int rc, char **text);

/* cli_write: `text` to the file `path`, or to stdout for "-" (cutune_write_file). On
 * failure prints why, as `who` ("cutune", "cutune report"), and returns EXIT_IO; else
 * EXIT_OK. */
int cli_write(const char *who, const char *path, const char *text);

/* cli_stdout_failed: whether writing to stdout has failed (a closed pipe, a full disk):
 * long listings stop at once on it, also when SIGPIPE is ignored. */
bool cli_stdout_failed(void);

/* cli_finish_output: flushes and closes stdout and checks that everything written to
 * it arrived. Returns `code` when it did; otherwise prints why on stderr and returns
 * EXIT_IO if `code` was EXIT_OK (a command that already failed keeps its own code). */
int cli_finish_output(int code);

#endif
