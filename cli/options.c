/* options.c - options parsed from one table per command (options.h). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "../base/optmsg.h"

/* Appends `arg` to the growing list *list of *n. False when out of memory (said). */
static bool append_arg(const char ***list, int *n, const char *arg)
{
    const char **grown = realloc(*list, sizeof(char *) * (size_t)(*n + 1));
    if (!grown) {
        fprintf(stderr, "cutune: out of memory\n");
        return false;
    }
    *list = grown;
    grown[(*n)++] = arg;
    return true;
}

/* cli_getopt: getopt_long for command `sub`, with getopt's own messages silenced
 * (opterr = 0; ':' put in front of `shortopts`). An option it does not know, one
 * missing its value, one given a value it does not take, or an ambiguous abbreviation is
 * reported here, once, as a usage error naming `sub` and the option in base/optmsg.h's
 * words (with "did you mean" among `longopts` for a mistyped long option), and returned
 * as '?'. Otherwise returns what getopt_long does. */
static int cli_getopt(const char *sub, int argc, char **argv, const char *shortopts, const struct option *longopts)
{
    char spec[64];
    snprintf(spec, sizeof spec, ":%s", shortopts);
    opterr = 0;
    int ret = getopt_long(argc, argv, spec, longopts, NULL);
    if (ret != '?' && ret != ':')
        return ret;
    char message[1024];
    optmsg_explain(message, sizeof message, ret, argc, argv, optind, optopt, longopts);
    cli_usage_error(sub, "%s", message);
    return '?';
}

/* join_words: words[0 .. n) into buf ("a, b or c", `last` between the last two), cut to
 * `size`; returns buf. */
static const char *join_words(char *buf, size_t size, const char *const *words, int n, const char *last)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i == 0 ? "" : i == n - 1 ? last : ", ", words[i]);
    return buf;
}

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
    return cli_usage_error(sub, "--%s takes %s, not '%s'", o->name,
                           join_words(words, sizeof words, o->choices, n, " or "), arg);
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

cutune_spec *cli_parse_spec(const char *sub, int argc, char **argv, const cli_opt *table, int n, cli_common *c,
                            int *code)
{
    *code = cli_parse_options(sub, argc, argv, table, n);
    if (*code == EXIT_OK && optind != argc - 1)
        *code = optind >= argc ? cli_usage_error(sub, "which spec? (cutune %s SPEC)", sub)
                               : cli_usage_error(sub, "one spec at a time");
    return *code == EXIT_OK ? cli_load(argv[optind], c, code) : NULL;
}

int cli_opt_common(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    (void)sub;
    cli_common *c = dest;
    if (o->set != CLI_OPT_COLOR)
        return append_arg(o->set == CLI_OPT_SET ? &c->set : &c->config, o->set == CLI_OPT_SET ? &c->nset : &c->nconfig,
                          arg)
                   ? EXIT_OK
                   : EXIT_USAGE;
    static const char *const words[] = {"never", "always", "auto"};
    for (int i = 0; i < 3; i++)
        if (strcmp(arg, words[i]) == 0) {
            c->color = i < 2 ? i : c->color;
            return EXIT_OK;
        }
    fprintf(stderr, "cutune: --color takes auto, always or never, not '%s'\n", arg);
    return EXIT_USAGE;
}

int cli_opt_jobs(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    (void)sub, (void)o;
    long long jobs;
    if (!num_read_int(arg, 0, CUTUNE_MAX_JOBS, &jobs))
        return cli_usage_error(NULL, "--jobs takes a thread count from 1 to %d (0: one per core), not '%s'",
                               CUTUNE_MAX_JOBS, arg);
    ((cutune_analyze_options *)dest)->jobs = (int)jobs;
    return EXIT_OK;
}

int cli_opt_search(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    if (cutune_search_set_option(dest, o->name, arg) == CUTUNE_OK)
        return EXIT_OK;
    const char *why = cutune_last_error(); /* "NAME takes ...": the option named as typed */
    return cli_usage_error(sub, "%s%s", strncmp(why, o->name, strlen(o->name)) == 0 ? "--" : "", why);
}

int cli_opt_count(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    char option[64];
    snprintf(option, sizeof option, "--%s", o->name);
    return cli_parse_count(sub, option, arg, dest) ? EXIT_OK : EXIT_USAGE;
}

int cli_opt_shard(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    (void)o;
    return cli_parse_shard(sub, arg, dest) < 0 ? EXIT_USAGE : EXIT_OK;
}

int cli_opt_prior(const char *sub, void *dest, const cli_opt *o, const char *arg)
{
    (void)o;
    cli_priors *p = dest;
    if (p->s->npriors >= CLI_MAX_PRIORS)
        return cli_usage_error(sub, "too many --prior files (at most %d)", CLI_MAX_PRIORS);
    p->paths[p->s->npriors++] = arg;
    p->s->priors = p->paths;
    return EXIT_OK;
}
