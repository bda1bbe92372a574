/* options.c - options parsed from one table per command (options.h). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

/* choose: a CLI_CHOICE option's value `arg` into *o->dest; EXIT_OK, or the usage error
 * naming the words it takes. */
static int choose(const char *sub, const cli_opt *o, const char *arg)
{
    int n = 0;
    for (; o->choices[n]; n++)
        if (strcmp(o->choices[n], arg) == 0) {
            *(int *)o->dest = n;
            return EXIT_OK;
        }
    char words[256];
    size_t used = 0;
    words[0] = '\0';
    for (int i = 0; i < n && used < sizeof words; i++)
        used += (size_t)snprintf(words + used, sizeof words - used, "%s%s",
                                 i == 0       ? ""
                                 : i == n - 1 ? " or "
                                              : ", ",
                                 o->choices[i]);
    return cli_usage_error(sub, "--%s takes %s, not '%s'", o->name, words, arg);
}

int cli_parse_options(const char *sub, int argc, char **argv, const cli_opt *table, int n)
{
    struct option *longopts = calloc((size_t)n + 1, sizeof *longopts);
    char shorts[64];
    int nshort = 0;
    if (!longopts) {
        fprintf(stderr, "cutune: out of memory\n");
        return EXIT_INTERNAL;
    }
    for (int i = 0; i < n; i++) {
        longopts[i] = (struct option){table[i].name, table[i].value ? required_argument : no_argument, NULL,
                                      table[i].letter ? table[i].letter : 256 + i};
        if (table[i].letter && nshort + 3 < (int)sizeof shorts) {
            shorts[nshort++] = table[i].letter;
            if (table[i].value)
                shorts[nshort++] = ':';
        }
    }
    shorts[nshort] = '\0';
    int opt, code = EXIT_OK;
    optind = 1;
    while (code == EXIT_OK && (opt = cli_getopt(sub, argc, argv, shorts, longopts)) != -1) {
        const cli_opt *o = NULL;
        for (int i = 0; i < n && !o; i++)
            if (opt == 256 + i || (table[i].letter && opt == table[i].letter))
                o = &table[i];
        if (!o) { /* cli_getopt said why */
            code = EXIT_USAGE;
            break;
        }
        switch (o->kind) {
        case CLI_BOOL: *(bool *)o->dest = true; break;
        case CLI_INT: *(int *)o->dest = o->set; break;
        case CLI_TEXT: *(const char **)o->dest = optarg; break;
        case CLI_CHOICE: code = choose(sub, o, optarg); break;
        case CLI_CALL: code = o->call(sub, o->dest, o, o->value ? optarg : NULL); break;
        }
    }
    free(longopts);
    return code;
}

int cli_opt_common(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    (void)sub;
    return cli_common_option(dest, o->set, arg) < 0 ? EXIT_USAGE : EXIT_OK;
}

int cli_opt_analyze(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    (void)sub;
    return cli_analyze_option(dest, o->set, arg) < 0 ? EXIT_USAGE : EXIT_OK;
}

int cli_opt_search(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    return cli_search_option(sub, dest, o->set, arg) < 0 ? EXIT_USAGE : EXIT_OK;
}

int cli_opt_count(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    char option[64];
    snprintf(option, sizeof option, "--%s", o->name);
    return cli_parse_count(sub, option, arg, dest) ? EXIT_OK : EXIT_USAGE;
}
