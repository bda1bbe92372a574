/* options.h - the command line's options, parsed from one table per command (prefix
 * cli_). An entry is {name, short letter, takes a value, kind, destination, handler,
 * value set, choices}: what parsing needs. The table makes getopt_long's, and
 * cli_parse_options dispatches each option found to its entry. A table is in the order
 * `cutune help SUB` lists the options (the library's, cutune_help_options_text), so "did
 * you mean" and an ambiguous abbreviation name them in that order too;
 * test/unit/test_help.c checks that the two agree, letters included. The options
 * several commands share are entries too (CLI_COMMON_ENTRIES, ...). */
#ifndef CUTUNE_CLI_OPTIONS_H
#define CUTUNE_CLI_OPTIONS_H

#include <getopt.h>
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
    /* (its value's name and its help are the library's: cutune_help_option) */
};

/* CLI_TABLE: a table array's entries and their count, as cli_parse_options takes them. */
#define CLI_TABLE(t) (t), (int)(sizeof(t) / sizeof((t)[0]))

/* cli_parse_options: parses argv's options for command `sub` against table[0 .. n)
 * (through cli_getopt: one message for a bad option); afterwards optind is the first
 * operand. EXIT_OK, or the exit code of the first bad option (after its message). */
int cli_parse_options(const char *sub, int argc, char **argv, const cli_opt *table, int n);

/* cli_parse_spec: cli_parse_options, then the one operand left taken as the spec and
 * loaded with c's settings (cli_load). The spec; NULL with *code set: the exit code of
 * a bad option or operands ("which spec? (cutune SUB SPEC)", "one spec
 * at a time"), or cli_load's. */
cutune_spec *cli_parse_spec(const char *sub, int argc, char **argv, const cli_opt *table, int n, cli_common *c,
                            int *code);

/* Handlers of the shared options: cli_opt_common, --set, --config (appended to the
 * cli_common dest points to) and --color (auto, always or never; set: which of these
 * CLI_OPT_* it is); cli_opt_search, a search option into the cutune_search_options
 * dest points to (cutune_search_set_option, with the library's message; the entry's
 * name is the option's); cli_opt_jobs, --jobs N (0 to CUTUNE_MAX_JOBS) into the
 * cutune_analyze_options dest points to. */
enum { CLI_OPT_SET = 1000, CLI_OPT_COLOR, CLI_OPT_CONFIG };
/* The search options `tune` and `simulate` share (cli_opt_search, the entry's name read
 * by cutune_search_set_option): --strategy S, --budget N|P%, --time-budget T, --patience
 * N, --seed N; --prior FILE (repeatable) is cli_opt_prior's, at most CLI_MAX_PRIORS. */
#define CLI_MAX_PRIORS 64
int cli_opt_common(const char *sub, void *dest, const cli_opt *o, const char *arg);
int cli_opt_search(const char *sub, void *dest, const cli_opt *o, const char *arg);
int cli_opt_jobs(const char *sub, void *dest, const cli_opt *o, const char *arg);

/* cli_opt_count: a count from 0 to CUTUNE_MAX_COUNT (cli_parse_count) into the unsigned long
 * long dest points to (--limit). */
int cli_opt_count(const char *sub, void *dest, const cli_opt *o, const char *arg);

/* cli_opt_shard: --shard I/N|auto into the cli_shard dest points to (cli_parse_shard). */
int cli_opt_shard(const char *sub, void *dest, const cli_opt *o, const char *arg);

/* cli_opt_prior: --prior FILE (repeatable) kept in the cli_priors dest points to: the
 * path appended to `paths` (CLI_MAX_PRIORS of them), which become s's priors. */
typedef struct cli_priors {
    const char **paths;
    cutune_search_options *s;
} cli_priors;
int cli_opt_prior(const char *sub, void *dest, const cli_opt *o, const char *arg);

/* (clang-format would spread these macros' entries over a line a field) */
/* clang-format off */
/* --set, --kernel, --color of the cli_common `c` points to (CLI_SPEC_ENTRIES), and -q
 * (CLI_COMMON_ENTRIES: all four); --color alone (CLI_COLOR_ENTRY). */
#define CLI_SPEC_ENTRIES(c) \
    {"set", 0, true, CLI_CALL, (c), cli_opt_common, CLI_OPT_SET, NULL}, \
    {"kernel", 0, true, CLI_TEXT, &(c)->kernel, NULL, 0, NULL}, \
    CLI_COLOR_ENTRY(c)
#define CLI_COLOR_ENTRY(c) {"color", 0, true, CLI_CALL, (c), cli_opt_common, CLI_OPT_COLOR, NULL}
/* --config NAME=VALUE[,...] (repeatable) of the cli_common `c` points to: tune, list and
 * analyze only. */
#define CLI_CONFIG_ENTRY(c) {"config", 0, true, CLI_CALL, (c), cli_opt_common, CLI_OPT_CONFIG, NULL}
#define CLI_COMMON_ENTRIES(c) CLI_SPEC_ENTRIES(c), {"quiet", 'q', false, CLI_BOOL, &(c)->quiet, NULL, 0, NULL}

/* --jobs, --cache-dir and --no-cache of the cutune_analyze_options `o` points to
 * (analyze and tune; each has its own --arch). */
#define CLI_JOBS_ENTRY(o) {"jobs", 0, true, CLI_CALL, (o), cli_opt_jobs, 0, NULL}
#define CLI_CACHE_ENTRIES(o) \
    {"cache-dir", 0, true, CLI_TEXT, &(o)->cache_dir, NULL, 0, NULL}, \
    {"no-cache", 0, false, CLI_INT, &(o)->no_cache, NULL, 1, NULL}

/* A search option (--strategy, --budget, --time-budget, --patience, --seed) into the
 * cutune_search_options `s` points to. */
#define CLI_SEARCH_ENTRY(name, s) {name, 0, true, CLI_CALL, (s), cli_opt_search, 0, NULL}
/* clang-format on */

#endif
