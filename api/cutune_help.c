/* cutune_help.c - cutune/help.h: the `cutune` command's help texts, a command's usage
 * and description and its own exit codes, and the overview's head and tail. Static data
 * only: the front end prints them around its option lists (cli/main.c). */
#include <string.h>

#include "internal.h"

/* A command's help. Its `usage` is the usage lines and what the command does; the
 * options come after it (the front end's table), then `after`, its own exit codes
 * (NULL: none). test/cli/options.sh checks that each help lists exactly the options its
 * command accepts; test/unit/test_help.c that every command has its texts. */
typedef struct help_entry {
    const char *name;
    const char *summary;
    const char *usage, *after;
} help_entry;

static const help_entry help_entries[] = {
    {"tune", "tune a spec (the default: cutune SPEC)",
     "usage: cutune [tune] SPEC [options]\n"
     "\n"
     "Tunes the kernel a spec describes: checks the spec, builds its space, compiles each\n"
     "variant, measures it on the GPU, verifies it and picks the best.\n"
     "\n"
     "Variants are compiled on every core ahead of the GPU; each is skipped if it cannot\n"
     "launch, run once with poisoned outputs and compared with the reference (verify),\n"
     "then timed with CUDA events (warm-ups, repetitions until the spread is small, L2\n"
     "flushed between repetitions; very short kernels batched per event pair). Timing\n"
     "stops early for a variant clearly worse than the best so far. Prints the ranking,\n"
     "the best configuration, and writes every result to the results file.\n"
     "Without a GPU: checks, counts and compiles every variant (as `analyze`), then says\n"
     "plainly that nothing was timed.\n"
     "\n",
     NULL},
    {"check", "validate a spec and summarise its space",
     "usage: cutune check SPEC [options]\n"
     "\n"
     "Parses and checks SPEC, reporting every error with file:line:col, then prints its\n"
     "params, constraints and the size of its space (raw combinations, and valid\n"
     "configurations, counted without listing them).\n"
     "\n",
     NULL},
    {"list", "list the valid configurations and their variants",
     "usage: cutune list SPEC [--limit N] [--format table|csv|json|jsonl] [options]\n"
     "\n"
     "Streams the valid configurations in declaration order (the last param varies\n"
     "fastest), each with its launch geometry (block, grid, dynamic shared memory), the\n"
     "kernel name expression, and the -D macros and compile options its variant gets.\n"
     "\n",
     NULL},
    {"analyze", "compile every variant: registers, memory, spills, occupancy",
     "usage: cutune analyze SPEC [--arch sm_XX] [--jobs N] [--limit N] [--format table|csv|json]\n"
     "                           [--cache-dir DIR] [--no-cache] [options]\n"
     "\n"
     "Compiles every valid configuration's variant with NVRTC (no GPU needed), in\n"
     "parallel and through the cache, and shows per variant: registers per thread, static\n"
     "shared memory, local memory (stack frame), spill stores/loads, theoretical\n"
     "occupancy and what limits it, the compile time, and whether it can launch at all\n"
     "(too many threads, registers or shared memory per block are flagged before any\n"
     "run). A variant that fails to compile is shown with the compiler's first error,\n"
     "and the analysis goes on. Progress goes to stderr on a terminal.\n"
     "\n",
     NULL},
    {"simulate", "replay a search strategy over a recorded exhaustive run",
     "usage: cutune simulate SPEC --results FULL.json [--strategy S] [--budget N|P%]\n"
     "                       [--repeat R] [--seed N] [--time-budget T] [--patience N]\n"
     "                       [--threads N] [--prior FILE] [--format text|json]\n"
     "\n"
     "Runs a search strategy over the outcomes recorded in FULL.json (the results of an\n"
     "exhaustive run of SPEC) instead of a GPU: configurations are matched by their param\n"
     "values, a recorded failure is a failed evaluation, and static information\n"
     "(compile errors, cannot launch, registers, occupancy) comes from the recording.\n"
     "Prints each run's best against the true best and the median and quartiles.\n"
     "The simulated clock runs the tuner's pipeline: each variant's recorded compile\n"
     "seconds on one of N compile threads, its GPU seconds on one GPU; each run's wall\n"
     "(seconds) is shown beside its bound, max(compile seconds / N, GPU seconds).\n"
     "Fails (exit 3) when the recording is of another spec or misses configurations.\n"
     "\n",
     NULL},
    {"emit", "a stored run as a C header, CSV or Kernel Tuner T4 (no GPU)",
     "usage: cutune emit header [--spec SPEC] [--prefix P] [--kernel NAME] [-o FILE]\n"
     "                          [--set NAME=VALUE ...] [RESULTS.json ...]\n"
     "       cutune emit csv RESULTS.json [-o FILE]\n"
     "       cutune emit t4  RESULTS.json [-o FILE]\n"
     "\n"
     "header: the winner of each results file (one per GPU) as a C header: a macro per\n"
     "param, the launch geometry, the register cap and compile options, a config struct\n"
     "and PREFIX_lookup(device_name, compute_capability) (exact device, else same compute\n"
     "capability, else the first file's). With the spec (--spec, else the one the results\n"
     "record, when it still loads), also inline functions of the problem size. Without\n"
     "results files: the spec's DEFAULT configuration, marked not tuned. docs/header.md.\n"
     "csv: every variant as one row. t4: Kernel Tuner's T4 results format (JSON).\n"
     "\n",
     "exit codes: 0 ok, 1 invalid spec, 2 usage (or results and spec that do not go\n"
     "together), 3 file unreadable/unwritable or not a cutune results file, 6 a results\n"
     "file has no winner\n"},
    {"report", "stored runs as one self-contained HTML page of charts (no GPU)",
     "usage: cutune report RESULTS.json [MORE.json ...] [-o FILE] [--title TEXT]\n"
     "\n"
     "One HTML file, readable offline in any browser (charts are inline SVG; nothing is\n"
     "fetched): the winner beside the median variant, a heatmap of the objective over the\n"
     "two params that explain most of its variance (every other pair below), the objective\n"
     "against occupancy and registers, its distribution, each param's effect, failures by\n"
     "cause with their messages, a search's best so far, and several files side by side.\n"
     "A results file over problem sizes gets a section per size. docs/report.md.\n"
     "\n",
     "exit codes: 0 ok, 2 usage, 3 a results file unreadable or malformed, or the page\n"
     "unwritable\n"},
    {"merge", "gather the shards of a split run into one results file (no GPU)",
     "usage: cutune merge SHARD.json [MORE.json ...] -o OUT.json [--partial] [-q]\n"
     "\n"
     "Gathers the results files of a run split over processes, GPUs or cluster ranks\n"
     "(each a `cutune SPEC` run over its shard i/N) into one results file, as one process\n"
     "tuning every configuration would have written it: each configuration once, in\n"
     "listing order, the counts recounted, the seconds added up (wall time: the longest\n"
     "shard's), the winner picked again. The files must be of the same spec, device\n"
     "model and measurement settings, hold every shard 0..N-1 of one split once, and no\n"
     "configuration twice.\n"
     "Plain results files (no settings.shard) and runs over problem sizes are refused.\n"
     "docs/results-format.md, \"Shards and merging\".\n"
     "\n",
     "exit codes: 0 ok, 2 usage or files that do not go together (another spec, device\n"
     "or settings; a shard missing or given twice; overlapping shards; problem sizes),\n"
     "3 a file unreadable, not a results file, or the output unwritable\n"},
    {"import", "another tuner's files: a T1 problem as a spec, a Kernel Tuner cache as results",
     "usage: cutune import FILE [-o OUT] [--force] [-q]\n"
     "       cutune import FILE --spec SPEC -o RESULTS.json [--gpu-name NAME] [--complete]\n"
     "                          [--force] [-q]\n"
     "\n"
     "FILE a T1 tuning problem (the JSON format Kernel Tuner, KTT, BAT and the Kernel Tuner\n"
     "benchmark hub share): translated into a cutune spec: kernel, params, conditions (Python\n"
     "expressions, rewritten in the spec language), launch geometry, problem size, arguments\n"
     "and their fills, compiler options, budget. Every construct is translated or refused\n"
     "with its JSON path and the reason; notes (on stderr and atop the spec) say what was\n"
     "left out.\n"
     "With --spec: FILE a Kernel Tuner cache file or T4 results file (gzip or not), read as\n"
     "the results of SPEC (each entry checked against its space; failures keep their kind),\n"
     "for simulate, report and emit. docs/kernel-tuner.md has both tables.\n"
     "\n",
     "exit codes: 0 written, 1 FILE refused (each reason on stderr) or SPEC invalid, 2 usage,\n"
     "3 a file unreadable or malformed, or OUT exists or cannot be written\n"},
    {"occupancy", "theoretical occupancy of a block shape",
     "usage: cutune occupancy (--arch sm_XX | --device N) --regs R --threads T [--smem BYTES]\n"
     "                        [--format text|json]\n"
     "\n"
     "How many blocks of T threads using R registers each and BYTES of shared memory\n"
     "(static + dynamic) fit on one SM, the active warps, the occupancy, and which limit\n"
     "binds (warps, blocks, registers, shared memory). --arch uses the architecture's\n"
     "published figures (sm_61 to sm_120); --device N asks the driver for GPU N's own.\n"
     "\n",
     NULL},
    {"metrics", "the hardware counters --metrics can read (no GPU needed)",
     "usage: cutune metrics [PATTERN] [--all] [--arch sm_XX] [-q]\n"
     "\n"
     "Without arguments: the default counters a tuning run reads when asked for hardware\n"
     "metrics, each beside the nvprof metric it stands for. With PATTERN: every base metric of the\n"
     "architecture's chip whose name contains it (--all: every one), with its kind\n"
     "(counter, ratio, throughput), from CUPTI's host API: no GPU is needed. A base metric\n"
     "is read with a suffix (.sum, .avg, .max, .pct_of_peak_sustained_elapsed, ...), as\n"
     "Nsight Compute names them. docs/results-format.md says how they are measured.\n"
     "\n",
     "exit codes: 0 ok, 2 usage (or nothing matches PATTERN), 4 CUPTI cannot be loaded\n"},
    {"devices", "the GPUs the CUDA driver sees (exit 4 when none)",
     "usage: cutune devices [--format text|json] [-q]\n"
     "\n"
     "Lists the GPUs the CUDA driver sees: ordinal, name, architecture, SMs, L2 size and\n"
     "driver version (--format json: an array of objects). Exits 0 when there is at\n"
     "least one, and 4 when there is none, saying why on stderr (no libcuda.so.1, the\n"
     "driver cannot start, no device visible). -q prints nothing on success, for scripts\n"
     "that only ask whether they can tune here (cutune_add_tuning does).\n"
     "\n",
     NULL},
};
enum { HELP_COUNT = sizeof help_entries / sizeof *help_entries };

/* The overview's head (after its "cutune VERSION - ..." line and an empty one) and its
 * closing lines. */
static const char overview_head[] = "usage: cutune SPEC [options]          tune a spec (same as: cutune tune SPEC)\n"
                                    "       cutune COMMAND [args]\n\n"
                                    "commands:\n";
static const char overview_after[] =
    "exit codes: 0 ok (tuned), 1 spec error, 2 usage error, 3 file error, 4 not tuned: no usable GPU,\n"
    "            5 internal error, 6 nothing could run (no variant compiled and can launch, or none ran\n"
    "            correctly), 130 interrupted\n"
    "A first word that is no command is the spec when it names a file, holds a '/' or ends in .tune.\n"
    "manual: man cutune (every command, option, exit status, environment variable and file)\n";

/* help_find: the entry of `command`; NULL for none (or a NULL name). */
static const help_entry *help_find(const char *command)
{
    for (int i = 0; command && i < HELP_COUNT; i++)
        if (strcmp(help_entries[i].name, command) == 0)
            return &help_entries[i];
    return NULL;
}

const char *cutune_help_command(int i)
{
    return i >= 0 && i < HELP_COUNT ? help_entries[i].name : NULL;
}

const char *cutune_help_summary(const char *command)
{
    const help_entry *e = help_find(command);
    return e ? e->summary : NULL;
}

const char *cutune_help_text(const char *command)
{
    if (!command)
        return overview_head;
    const help_entry *e = help_find(command);
    return e ? e->usage : NULL;
}

const char *cutune_help_after(const char *command)
{
    if (!command)
        return overview_after;
    const help_entry *e = help_find(command);
    return e ? e->after : NULL;
}
