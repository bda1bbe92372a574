/* options.h - the command line's options, parsed from one table per command (prefix
 * cli_). An entry is {name, short letter, takes a value, kind, destination, handler,
 * value}: the table makes getopt_long's, and cli_parse_options dispatches each option
 * found to its entry. The options several commands share are entries too
 * (CLI_COMMON_ENTRIES, CLI_ANALYZE_ENTRIES, CLI_SEARCH_ENTRIES). */
#ifndef CUTUNE_CLI_OPTIONS_H
#define CUTUNE_CLI_OPTIONS_H

#include <stdbool.h>

#include "cli.h"

typedef struct cli_opt cli_opt;

/* A handler: the option `o` of command `sub` with value `arg` (NULL: it takes none) into
 * `dest` (o->dest). EXIT_OK, or an exit code after a message. */
typedef int (*cli_opt_fn)(const char *sub, void *dest, const cli_opt *o, const char *arg);

enum cli_opt_kind {
    CLI_BOOL,   /* *(bool *)dest = true */
    CLI_INT,    /* *(int *)dest = value */
    CLI_TEXT,   /* *(const char **)dest = the option's value */
    CLI_CHOICE, /* *(int *)dest = the value's index in choices (else "takes A, B or C, not 'X'") */
    CLI_CALL    /* call(sub, dest, entry, the option's value) */
};

struct cli_opt {
    const char *name; /* the long name, without "--" */
    char letter;      /* the short option ('q' for -q), 0: none */
    bool value;       /* takes a value */
    enum cli_opt_kind kind;
    void *dest;                 /* where it goes (for CLI_CALL: what the handler is given) */
    cli_opt_fn call;            /* CLI_CALL's handler */
    int set;                    /* CLI_INT: the value set; CLI_CALL: for the handler (an option code) */
    const char *const *choices; /* CLI_CHOICE: the words it takes, NULL-ended */
};

/* cli_parse_options: parses argv's options for command `sub` against table[0 .. n)
 * (through cli_getopt: one message for a bad option); afterwards optind is the first
 * operand. EXIT_OK, or the exit code of the first bad option (after its message). */
int cli_parse_options(const char *sub, int argc, char **argv, const cli_opt *table, int n);

/* Handlers of the shared options: cli_common_option, cli_analyze_option and
 * cli_search_option behind the table (dest: the cli_common, cutune_analyze_options or
 * cutune_search_options; set: the option's code). */
int cli_opt_common(const char *sub, void *dest, const cli_opt *o, const char *arg);
int cli_opt_analyze(const char *sub, void *dest, const cli_opt *o, const char *arg);
int cli_opt_search(const char *sub, void *dest, const cli_opt *o, const char *arg);

/* cli_opt_count: a count from 0 to CLI_MAX_COUNT (cli_parse_count) into the unsigned long
 * long dest points to (--limit). */
int cli_opt_count(const char *sub, void *dest, const cli_opt *o, const char *arg);

/* --set, --kernel, --color, -q of the cli_common `c` points to. */
#define CLI_COMMON_ENTRIES(c) \
    {"set", 0, true, CLI_CALL, (c), cli_opt_common, CLI_OPT_SET, NULL}, \
        {"kernel", 0, true, CLI_TEXT, &(c)->kernel, NULL, 0, NULL}, \
        {"color", 0, true, CLI_CALL, (c), cli_opt_common, CLI_OPT_COLOR, NULL}, \
    { \
        "quiet", 'q', false, CLI_BOOL, &(c)->quiet, NULL, 0, NULL \
    }

/* --config NAME=VALUE[,...] (repeatable) of the cli_common `c` points to: tune, list, analyze. */
#define CLI_CONFIG_ENTRY(c) {"config", 0, true, CLI_CALL, (c), cli_opt_common, CLI_OPT_CONFIG, NULL}

/* --arch, --jobs, --cache-dir, --no-cache of the cutune_analyze_options `o` points to. */
#define CLI_ANALYZE_ENTRIES(o) \
    {"arch", 0, true, CLI_TEXT, &(o)->arch, NULL, 0, NULL}, \
        {"jobs", 0, true, CLI_CALL, (o), cli_opt_analyze, 'j', NULL}, \
        {"cache-dir", 0, true, CLI_TEXT, &(o)->cache_dir, NULL, 0, NULL}, \
    { \
        "no-cache", 0, false, CLI_INT, &(o)->no_cache, NULL, 1, NULL \
    }

/* --strategy, --budget, --time-budget, --patience, --seed of the cutune_search_options
 * `s` points to (--prior, which the command keeps, is its own entry). */
#define CLI_SEARCH_ENTRIES(s) \
    {"strategy", 0, true, CLI_CALL, (s), cli_opt_search, CLI_OPT_STRATEGY, NULL}, \
        {"budget", 0, true, CLI_CALL, (s), cli_opt_search, CLI_OPT_BUDGET, NULL}, \
        {"time-budget", 0, true, CLI_CALL, (s), cli_opt_search, CLI_OPT_TIME_BUDGET, NULL}, \
        {"patience", 0, true, CLI_CALL, (s), cli_opt_search, CLI_OPT_PATIENCE, NULL}, \
    { \
        "seed", 0, true, CLI_CALL, (s), cli_opt_search, CLI_OPT_SEED, NULL \
    }

#endif
