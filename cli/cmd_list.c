/* cmd_list.c - `cutune list SPEC`: stream the valid configurations and their variants
 * as a table, CSV, JSON (an array) or JSON lines (one object per line), one
 * configuration at a time, never the whole list in memory. */
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

enum list_format { FMT_TABLE, FMT_CSV, FMT_JSON, FMT_JSONL };

/* One configuration as a CSV row (the header row first: `first`), or as compact JSON:
 * an element of the array (after a comma but the first) or a line of its own (jsonl).
 * 0, or -1 out of memory. */
static int print_row(const cutune_spec *spec, const cutune_variant *v, enum list_format fmt, bool first)
{
    char *text = NULL;
    if (fmt == FMT_CSV && first && cli_print(cutune_variant_csv(&text, spec, NULL), &text, "\n") < 0)
        return -1;
    int rc = fmt == FMT_CSV ? cutune_variant_csv(&text, spec, v) : cutune_variant_json(&text, spec, v);
    if (fmt == FMT_JSON && rc == CUTUNE_OK)
        printf("%s  ", first ? "" : ",\n");
    return cli_print(rc, &text, fmt == FMT_JSON ? "" : "\n");
}

static int list_spec(cutune_spec *spec, const cli_common *c, enum list_format fmt, unsigned long long limit)
{
    cutune_configs *it;
    int rc = cutune_configs_new(&it, spec);
    cutune_table *t = NULL;
    if (rc < 0 || (rc = cutune_table_new(&t, spec)) < 0) {
        cutune_configs_free(it);
        return cli_exit_for_status(rc);
    }
    const cutune_variant *v;
    unsigned long long shown = 0;
    while (limit == 0 || shown < limit) {
        rc = cutune_configs_next(&v, it);
        if (rc <= 0)
            break;
        if (fmt == FMT_JSON && shown == 0)
            printf("[\n");
        char *text = NULL;
        if (fmt == FMT_TABLE ? cli_print(cutune_table_variant(&text, t, v), &text, "") < 0
                             : print_row(spec, v, fmt, shown == 0) < 0) {
            rc = CUTUNE_ENOMEM;
            break;
        }
        shown++;
        if (cli_stdout_failed())
            break; /* a closed pipe or a full disk: stop now, main() says why */
    }
    if (fmt == FMT_JSON)
        printf(shown ? "\n]\n" : "[]\n");
    int code = EXIT_OK;
    cutune_space_size size; /* nothing is valid: counting explains which constraint empties the space */
    if (rc == 0 && shown == 0 && (rc = cutune_space_count(&size, spec)) == CUTUNE_OK)
        rc = CUTUNE_ESPEC; /* cannot happen: listing and counting agree */
    if (rc < 0)
        code = cli_exit_for_status(rc);
    else if (fmt == FMT_TABLE && !c->quiet && limit && shown == limit && cutune_configs_next(&v, it) == 1)
        fprintf(stderr, "(stopped after %llu configuration%s: --limit)\n", limit, limit == 1 ? "" : "s");
    cutune_table_free(t);
    cutune_configs_free(it);
    return code;
}

int cmd_list(int argc, char **argv)
{
    cli_common c;
    cli_init_common(&c);
    enum list_format fmt = FMT_TABLE;
    unsigned long long limit = 0;
    static const char *const formats[] = {"table", "csv", "json", "jsonl", NULL}; /* enum list_format's order */
    int format = FMT_TABLE;
    const cli_opt table[] = {
        {"limit", 0, true, CLI_CALL, &limit, cli_opt_count, 0, NULL},
        {"format", 0, true, CLI_CHOICE, &format, NULL, 0, formats},
        {"arch", 0, true, CLI_TEXT, &c.arch, NULL, 0, NULL},
        CLI_CONFIG_ENTRY(&c),
        CLI_COMMON_ENTRIES(&c),
    };
    int code;
    cutune_spec *spec = cli_parse_spec("list", argc, argv, CLI_TABLE(table), &c, &code);
    fmt = (enum list_format)format;
    if (spec) {
        int seen = cutune_spec_diagnostic_count(spec), n = cli_blocks(spec, &c);
        if (!c.quiet)
            cli_print_device_attrs(spec, stderr, "device attributes: ");
        if (n > 1 && fmt != FMT_TABLE)
            code = cli_usage_error("list",
                                   "the spec has %d kernel blocks: pick one with --kernel NAME for --format "
                                   "csv, json or jsonl",
                                   n);
        for (int i = 0; i < n && code == EXIT_OK && (fmt == FMT_TABLE || n == 1); i++) {
            cli_select_block(spec, &c, i, stdout);
            code = list_spec(spec, &c, fmt, limit);
        }
        cli_print_new_diagnostics(spec, &c, &seen);
        cutune_spec_free(spec);
    }
    cli_free_common(&c);
    return code;
}
