/* main.c - `cutune`: dispatches to a subcommand, and prints the help: the overview and
 * each command's usage, option list and exit codes (the library's texts, cutune/help.h). */
#include <stdio.h>
#include <string.h>

#include "options.h"

/* The commands, each name with the function that runs it (`cutune --help` lists them in
 * the library's order, cutune_help_overview). What each says in its help, its options'
 * list included, is the library's (cutune/help.h). */
typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
} command;

static const command commands[] = {
    {"tune", cmd_tune},         {"check", cmd_check},         {"list", cmd_list},       {"analyze", cmd_analyze},
    {"simulate", cmd_simulate}, {"emit", cmd_emit},           {"report", cmd_report},   {"merge", cmd_merge},
    {"import", cmd_import},     {"occupancy", cmd_occupancy}, {"metrics", cmd_metrics}, {"devices", cmd_devices},
};
enum { NCOMMANDS = sizeof commands / sizeof *commands };

/* print_usage: the overview (`cutune --help`, the library's: cutune_help_overview) on
 * `f`; returns `code`, or EXIT_INTERNAL when it could not be composed. */
static int print_usage(FILE *f, int code)
{
    char *text = NULL;
    if (cutune_help_overview(&text) != CUTUNE_OK)
        return EXIT_INTERNAL;
    fputs(text, f);
    cutune_free(text);
    return code;
}

static const command *find_command(const char *name)
{
    for (int i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* no_command: the usage error for `word`, which names no command (the library's words,
 * cutune_help_unknown). Returns EXIT_USAGE. */
static int no_command(const char *word)
{
    cutune_help_unknown(word);
    return cli_usage_error(NULL, "%s", cutune_last_error());
}

static int cmd_help(int argc, char **argv)
{
    if (argc < 2)
        return print_usage(stdout, EXIT_OK);
    const char *usage = cutune_help_text(argv[1]), *after = cutune_help_after(argv[1]);
    if (!usage)
        return strcmp(argv[1], "help") == 0 || strcmp(argv[1], "version") == 0 ? print_usage(stdout, EXIT_OK)
                                                                               : no_command(argv[1]);
    char *options = NULL;
    if (cutune_help_options_text(&options, argv[1]) != CUTUNE_OK)
        return EXIT_INTERNAL;
    printf("%s%s%s", usage, options, after ? after : "");
    cutune_free(options);
    return EXIT_OK;
}

/* Runs the command line; main() then checks that stdout got everything. */
static int run(int argc, char **argv)
{
    if (argc < 2)
        return print_usage(stderr, EXIT_USAGE);
    const char *first = argv[1];
    if (strcmp(first, "--help") == 0 || strcmp(first, "-h") == 0)
        return print_usage(stdout, EXIT_OK);
    if (strcmp(first, "--version") == 0 || strcmp(first, "version") == 0) {
        printf("cutune %s\n", cutune_version());
        return EXIT_OK;
    }
    if (strcmp(first, "help") == 0)
        return cmd_help(argc - 1, argv + 1);
    const command *c = find_command(first);
    if (!c && first[0] != '-' && !cutune_help_names_spec(first))
        return no_command(first);
    /* cutune SPEC ... and cutune --device 1 SPEC ...: the tune command. */
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            char *args[] = {"help", c ? (char *)c->name : "tune"};
            return cmd_help(2, args);
        }
    return c ? c->run(argc - 1, argv + 1) : cmd_tune(argc, argv);
}

int main(int argc, char **argv)
{
    return cli_finish_output(run(argc, argv));
}
