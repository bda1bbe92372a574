/* cutune_help.c - cutune/help.h: the `cutune` command's help texts, a command's usage
 * and description and its own exit codes, the overview's head and tail, and each
 * command's options' value names and descriptions. Static data, and the
 * overview and the option lists composed of it (the caller owns those texts): the front
 * end prints them (cli/main.c). */
#include <string.h>
#include <unistd.h>

#include "../base/strbuf.h"
#include "../base/suggest.h"
#include "internal.h"

/* A command's help. Its `usage` is the usage lines and what the command does; the
 * options come after it (cutune_help_options_text), then `after`, its own exit codes
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
     "The simulated clock runs the tuner's pipeline: each binary's recorded compile\n"
     "seconds (once, however many configurations share it) on one of N compile\n"
     "threads, each variant's GPU seconds on one GPU; each run's wall\n"
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
     "       cutune import FILE --spec SPEC -o RESULTS.json [--kernel NAME] [--gpu-name NAME]\n"
     "                          [--complete] [--force] [-q]\n"
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

const char *cutune_help_nearest(const char *word)
{
    const char *names[HELP_COUNT + 2];
    for (int i = 0; i < HELP_COUNT; i++)
        names[i] = help_entries[i].name;
    names[HELP_COUNT] = "help";
    names[HELP_COUNT + 1] = "version";
    return word ? suggest_best(word, names, HELP_COUNT + 2) : NULL;
}

int cutune_help_names_spec(const char *word)
{
    size_t n = word ? strlen(word) : 0;
    if (!word || cutune_help_summary(word) || strcmp(word, "help") == 0 || strcmp(word, "version") == 0)
        return 0;
    if (access(word, F_OK) == 0 || strchr(word, '/') || (n > 5 && strcmp(word + n - 5, ".tune") == 0))
        return 1;
    return !cutune_help_nearest(word) && strchr(word, '.');
}

int cutune_help_unknown(const char *word)
{
    const char *near = cutune_help_nearest(word);
    if (near)
        return err_set(CUTUNE_EINVAL, "no command named '%s'; did you mean '%s'?", word, near);
    return err_set(CUTUNE_EINVAL,
                   "no command named '%s', and no file of that name to tune (a spec is a file, usually ending in "
                   ".tune)",
                   word ? word : "");
}

int cutune_help_overview(char **out)
{
    if (!out)
        return err_set(CUTUNE_EINVAL, "cutune_help_overview: no output");
    strbuf sb = STRBUF_INIT;
    sb_printf(&sb, "cutune %s - a CUDA kernel autotuner\n\n%s", cutune_version(), overview_head);
    for (int i = 0; i < HELP_COUNT; i++)
        sb_printf(&sb, "  %-10s %s\n", help_entries[i].name, help_entries[i].summary);
    sb_printf(&sb, "  %-10s %s\n  %-10s %s\n\n%s", "help", "help on a command: cutune help list", "version",
              "print the version", overview_after);
    *out = sb_steal(&sb);
    sb_free(&sb);
    return *out ? CUTUNE_OK : err_set(CUTUNE_ENOMEM, "out of memory");
}

/* The options' help, command by command in the order of help_entries, each command's
 * options in the order its help lists them (the CLI's table order). Words that several
 * commands share are named once here. test/unit/test_help.c checks that these are
 * exactly the options the CLI's tables take, in their order. */
#define SET_HELP "override a `let` of the spec (repeatable), e.g. --set nx=4096"
#define KERNEL_HELP "only the block of kernel NAME (of a spec file of several)"
#define COLOR_META "auto|always|never"
#define COLOR_HELP "colour diagnostics (default auto: when stderr is a terminal)"
#define CONFIG_META "NAME=VALUE[,NAME=VALUE...]"
#define CONFIG_HELP \
    "only this configuration (repeatable: these); one that names\nsome params pins those and leaves the others free"
#define QUIET_HELP "print only errors, warnings and the result"
#define JOBS_HELP "compile threads, 1 to 256 (default: one per core)"
#define CACHE_DIR_HELP \
    "the compiled-variant cache (default: $CUTUNE_CACHE_DIR,\n$XDG_CACHE_HOME/cutune or ~/.cache/cutune)"
#define NO_CACHE_HELP "neither read nor write the cache"
#define STRATEGIES "exhaustive|random|anneal|genetic|local|guided|auto"
#define WRITE_HERE "write here (default: stdout)"
/* --set, --kernel, --color and --quiet: the options of every command that reads a spec
 * (CLI_COMMON_ENTRIES); JOBS_CACHE: --jobs, --cache-dir, --no-cache (analyze, tune). */
#define SPEC_OPTIONS(cmd) \
    {cmd, "set", "NAME=VALUE", SET_HELP}, {cmd, "kernel", "NAME", KERNEL_HELP}, \
    { \
        cmd, "color", COLOR_META, COLOR_HELP \
    }
#define COMMON_OPTIONS(cmd) \
    SPEC_OPTIONS(cmd), \
    { \
        cmd, "quiet", NULL, QUIET_HELP \
    }
#define CONFIG_OPTION(cmd) \
    { \
        cmd, "config", CONFIG_META, CONFIG_HELP \
    }
#define CACHE_OPTIONS(cmd) \
    {cmd, "cache-dir", "DIR", CACHE_DIR_HELP}, \
    { \
        cmd, "no-cache", NULL, NO_CACHE_HELP \
    }

static const cutune_help_opt help_options[] = {
    {"tune", "device", "N", "the GPU to tune on (default 0)"},
    {"tune", "results", "FILE", "write the results JSON here (default: the spec's emit results)"},
    {"tune", "header", "FILE", "write the best-config header here (default: the spec's emit\nheader; docs/header.md)"},
    {"tune", "csv", "FILE", "write every variant as CSV here (default: the spec's emit csv)"},
    {"tune", "report", "FILE", "write the run's HTML report here (as cutune report; docs/report.md)"},
    {"tune", "emit-dir", "DIR",
     "let the spec's emit paths that leave its folder (absolute, or\n../) write into DIR or below; without it they "
     "are refused"},
    {"tune", "limit", "N", "only the first N configurations"},
    {"tune", "shard", "I/N|auto",
     "tune only shard I of N: ordinals in runs of the last param's\nvalues, dealt out in turn (ordinal / run % N == "
     "I; auto: the\nrank and size mpirun, srun or a Slurm job array set, and the\nGPU of the local rank); results go "
     "to RESULTS.shard-I-of-N.json,\nand cutune merge joins the shards' files"},
    {"tune", "devices", "all|0,1",
     "every GPU named at once: a cutune process per GPU, each tuning\na shard there; their results merged into the "
     "results file,\nfrom which the ranking, header, CSV and report are made"},
    {"tune", "per-device", NULL,
     "with --devices: every configuration on every GPU (RESULTS.gpuN.json\neach), the spread of the same variants' "
     "times between the GPUs,\nand one header with an entry per device"},
    {"tune", "top", "N", "rows of the ranking to print (default 10)"},
    {"tune", "prune", "F", "stop timing a variant worse than the best by factor F (default\n1.5; -1: never)"},
    {"tune", "journal", "FILE",
     "the journal (default: the results path + .journal): every\noutcome is appended and synced as it happens; a "
     "later run of\nthe same spec on the same device resumes from it"},
    {"tune", "fresh", NULL, "discard an existing journal instead of resuming it"},
    {"tune", "flush-l2", NULL, "override the spec's measure(flush_l2 = ...)"},
    {"tune", "no-flush-l2", NULL, ""},
    {"tune", "energy", NULL,
     "also measure the energy per launch of every variant timed in\nfull (NVML; as measure(energy = true))"},
    {"tune", "metrics", "N|all",
     "after timing, read hardware counters (CUPTI) of the best N\nvariants that ran ok, or of all, each in a "
     "profiled launch of\nits own (`cutune metrics` lists the default set)"},
    {"tune", "metric", "NAME",
     "a counter to read instead of the default set (repeatable;\n`default` adds the default set; implies --metrics "
     "5)"},
    {"tune", "run-twins", NULL,
     "also run variants whose machine code, launch and arguments\nequal those of one already run (by default they "
     "share its figures)"},
    {"tune", "timeout", "S",
     "a variant's time limit: a hang is killed and recorded\n(default: the spec's measure(timeout), else derived "
     "from the\nreference's time, at least 10 s)"},
    {"tune", "strategy", STRATEGIES,
     "the search (default: the spec's `search`; with a budget and\nno `search` in the spec, auto; docs/search.md)"},
    {"tune", "budget", "N|P%", "the most configurations to measure (a count or a percentage\nof the valid space)"},
    {"tune", "time-budget", "T", "the most time for the search: 600, 90s, 10min, 2h"},
    {"tune", "patience", "N", "stop after N measurements without improvement"},
    {"tune", "seed", "N", "the search's random seed (same seed, same sequence)"},
    {"tune", "prior", "FILE",
     "results of an earlier run of the kernel (another GPU or\nsize), repeatable: auto starts from its best "
     "configurations\nand learns how well it predicts this run"},
    {"tune", "arch", "sm_XX", "without a GPU: compile for this architecture (default sm_90)"},
    {"tune", "jobs", "N", JOBS_HELP},
    CACHE_OPTIONS("tune"),
    CONFIG_OPTION("tune"),
    SPEC_OPTIONS("tune"),
    {"tune", "quiet", NULL,
     "print only errors, warnings and the best configuration (the\nranking too when --top N is given)"},

    {"check", "format", "text|json", "the summary's format (default text)"},
    {"check", "arch", "sm_XX",
     "the architecture whose device attributes (sm_count, ...) the\nspec reads, from cutune's table (default sm_90; "
     "printed as assumed)"},
    COMMON_OPTIONS("check"),

    {"list", "limit", "N", "stop after N configurations (0: all; the default)"},
    {"list", "format", "FORMAT", "table (default), csv, json (an array of objects) or jsonl\n(one object per line)"},
    {"list", "arch", "sm_XX", "the architecture whose device attributes the spec reads (default sm_90)"},
    CONFIG_OPTION("list"),
    COMMON_OPTIONS("list"),

    {"analyze", "arch", "sm_XX", "compile for this architecture (default: the GPU's, else sm_90)"},
    {"analyze", "jobs", "N", JOBS_HELP},
    {"analyze", "limit", "N", "only the first N configurations"},
    {"analyze", "shard", "I/N|auto",
     "only shard I of N (ordinal / run % N == I, the run the last\nparam's value count; auto: from\nmpirun's, "
     "srun's or a Slurm job array's environment)"},
    {"analyze", "format", "FORMAT", "table (default), csv or json"},
    CACHE_OPTIONS("analyze"),
    CONFIG_OPTION("analyze"),
    COMMON_OPTIONS("analyze"),

    {"simulate", "results", "FULL.json", "the recorded exhaustive run (required)"},
    {"simulate", "strategy", STRATEGIES,
     "the search (default: the spec's search; with a budget and\nno search in the spec, auto)"},
    {"simulate", "budget", "N|P%", "the most evaluations: a count, or a percentage of the space"},
    {"simulate", "repeat", "R", "runs, with seeds N, N+1, ... (default 1)"},
    {"simulate", "seed", "N", "the first run's seed (default: the spec's, else 0)"},
    {"simulate", "time-budget", "T", "the most simulated time (the simulated wall, above):\n30, 90s, 10min, 2h"},
    {"simulate", "threads", "N", "compile threads of the simulated host (default 16)"},
    {"simulate", "prior", "FILE",
     "results of an earlier run of the kernel (another GPU or\nsize), repeatable: a prior for auto, as for tuning"},
    {"simulate", "patience", "N", "stop after N evaluations without improvement"},
    {"simulate", "format", "FORMAT", "text (default) or json"},
    COMMON_OPTIONS("simulate"),

    {"emit", "spec", "SPEC", "the spec (needed without results files)"},
    {"emit", "prefix", "P",
     "the names' prefix (default: the spec's emit header prefix, else\nthe kernel's name upper-cased)"},
    {"emit", "output", "FILE", WRITE_HERE},
    {"emit", "set", "NAME=VALUE", "override a `let` of the spec (repeatable)"},
    {"emit", "kernel", "NAME",
     "only kernel block NAME: its results (the others left out),\nor with --spec and no results its defaults"},
    {"emit", "color", COLOR_META, COLOR_HELP},
    {"emit", "quiet", NULL, QUIET_HELP},

    {"report", "output", "FILE", WRITE_HERE},
    {"report", "title", "TEXT", "the page's title (default: cutune report)"},
    {"report", "quiet", NULL, QUIET_HELP},

    {"merge", "output", "FILE", "write the merged results here (required; - for stdout)"},
    {"merge", "partial", NULL,
     "merge the shards given even when some are missing: the file\nrecords which it holds (settings.shard.merged), "
     "and the\nmissing ones are named on stderr"},
    {"merge", "quiet", NULL, QUIET_HELP},

    {"import", "output", "OUT",
     "write here (a spec by default: FILE's stem + .tune, beside it;\n- for stdout; relative paths in the spec are "
     "made relative to OUT)"},
    {"import", "force", NULL, "replace OUT when it exists (default: refuse)"},
    {"import", "spec", "SPEC", "read FILE as a Kernel Tuner cache or T4 file of SPEC's space"},
    {"import", "kernel", "NAME",
     "with --spec: the kernel block FILE is of (a block's name, else\na kernel's first block); needed when SPEC has "
     "several"},
    {"import", "gpu-name", "NAME",
     "with --spec: the GPU the file was recorded on, for a file that\ndoes not say (T4); a file that names another "
     "is refused"},
    {"import", "complete", NULL, "with --spec: refuse a file that lacks a valid configuration"},
    {"import", "quiet", NULL, QUIET_HELP},

    {"occupancy", "arch", "sm_XX", "the architecture's published figures"},
    {"occupancy", "device", "N", "GPU N's own figures, from its driver (exit 4 without one)"},
    {"occupancy", "regs", "R", "registers per thread (0 to 255)"},
    {"occupancy", "threads", "T", "threads per block"},
    {"occupancy", "smem", "BYTES", "shared memory per block, static plus dynamic (default 0)"},
    {"occupancy", "format", "FORMAT", "text (default) or json"},
    {"occupancy", "quiet", NULL, "accepted for uniformity: it prints only the result anyway"},

    {"metrics", "all", NULL, "list every base metric"},
    {"metrics", "arch", "sm_XX", "whose chip (default: GPU 0's, else sm_90)"},
    {"metrics", "quiet", NULL, "only the names"},

    {"devices", "format", "FORMAT", "text (default) or json"},
    {"devices", "quiet", NULL, "print nothing on success (the exit status is the answer)"},
};
enum { OPTION_COUNT = sizeof help_options / sizeof *help_options };

const cutune_help_opt *cutune_help_option(const char *command, const char *option)
{
    for (int i = 0; command && option && i < OPTION_COUNT; i++)
        if (strcmp(help_options[i].command, command) == 0 && strcmp(help_options[i].option, option) == 0)
            return &help_options[i];
    return NULL;
}

const cutune_help_opt *cutune_help_option_at(int i)
{
    return i >= 0 && i < OPTION_COUNT ? &help_options[i] : NULL;
}

/* option_names: the left column of option h (help_options' entry; command's) and of the
 * entries after it named on its line (their description ""), appended to sb: "-q,
 * --quiet", "--name META", joined by ", " (the short options are -q for --quiet and -o
 * for --output, every command's). Returns the entry after the last one named. */
static const cutune_help_opt *option_names(strbuf *sb, const cutune_help_opt *h, const char *command)
{
    const cutune_help_opt *end = help_options + OPTION_COUNT;
    for (;;) {
        if (strcmp(h->option, "quiet") == 0 || strcmp(h->option, "output") == 0)
            sb_printf(sb, "-%c, ", h->option[0]);
        sb_printf(sb, "--%s%s%s", h->option, h->metavar ? " " : "", h->metavar ? h->metavar : "");
        if (++h == end || strcmp(h->command, command) != 0 || h->description[0])
            return h;
        sb_add(sb, ", ");
    }
}

int cutune_help_options_text(char **out, const char *command)
{
    if (out)
        *out = NULL;
    if (!out || !help_find(command))
        return err_set(CUTUNE_EINVAL, "cutune_help_options_text: no output, or no command named '%s'",
                       command ? command : "(null)");
    strbuf sb = STRBUF_INIT, left = STRBUF_INIT;
    for (const cutune_help_opt *h = help_options, *end = help_options + OPTION_COUNT; h < end;) {
        if (strcmp(h->command, command) != 0) {
            h++;
            continue;
        }
        const char *help = h->description;
        sb_reset(&left);
        h = option_names(&left, h, command);
        int len = (int)left.len, first = (int)strcspn(help, "\n");
        if (len <= 18 || 2 + len + 2 + first <= 80)
            sb_printf(&sb, "  %-18s  %.*s\n", sb_cstr(&left), first, help);
        else
            sb_printf(&sb, "  %s\n%22s%.*s\n", sb_cstr(&left), "", first, help);
        for (const char *p = help + first; *p; p += first) {
            first = (int)strcspn(++p, "\n");
            sb_printf(&sb, "%22s%.*s\n", "", first, p);
        }
    }
    if (sb_ok(&left))
        *out = sb_steal(&sb);
    sb_free(&sb);
    sb_free(&left);
    return *out ? CUTUNE_OK : err_set(CUTUNE_ENOMEM, "out of memory");
}
