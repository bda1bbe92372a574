/* cmd_list.c - `cutune list SPEC`: stream the valid configurations and their variants
 * as a table, CSV or JSON (one object per configuration, never the whole list in
 * memory). */
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum list_format { FMT_TABLE, FMT_CSV, FMT_JSON };

/* "32x8" for a 2-D shape (unused trailing dimensions dropped). */
static const char *dims_text(const int64_t *d, int n, char *buf, size_t size)
{
    int len = snprintf(buf, size, "%lld", (long long)d[0]);
    for (int i = 1; i < n && len > 0 && (size_t)len < size; i++)
        len += snprintf(buf + len, size - (size_t)len, "x%lld", (long long)d[i]);
    return buf;
}

static void csv_field(const char *s)
{
    if (!strpbrk(s, ",\"\n ")) {
        fputs(s, stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

static void csv_joined(const char *const *items, int from, int n)
{
    size_t len = 0;
    for (int i = from; i < n; i++)
        len += strlen(items[i]) + 1;
    char *s = malloc(len + 1);
    if (!s)
        return;
    s[0] = '\0';
    for (int i = from; i < n; i++) {
        if (i > from)
            strcat(s, " ");
        strcat(s, items[i]);
    }
    csv_field(s);
    free(s);
}

static json_t *typed_json(const char *text, char type)
{
    switch (type) {
    case 'i': return json_integer(strtoll(text, NULL, 10));
    case 'f': return json_real(strtod(text, NULL));
    case 'b': return json_boolean(strcmp(text, "true") == 0);
    default: return json_string(text);
    }
}

static json_t *string_array(const char *const *items, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_string(items[i]));
    return a;
}

static json_t *int_array(const int64_t *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_integer((json_int_t)v[i]));
    return a;
}

static int print_json_row(const cutune_spec *spec, const cutune_variant *v, bool first)
{
    json_t *o = json_object(), *params = json_object();
    json_object_set_new(o, "index", json_integer((json_int_t)v->ordinal));
    for (int i = 0; i < v->nparams; i++)
        json_object_set_new(params, cutune_spec_param_name(spec, i), typed_json(v->values[i], v->types[i]));
    json_object_set_new(o, "params", params);
    json_object_set_new(o, "block", int_array(v->block, 3));
    json_object_set_new(o, "grid", int_array(v->grid, 3));
    json_object_set_new(o, "smem_bytes", json_integer((json_int_t)v->smem_bytes));
    json_object_set_new(o, "kernel", json_string(v->name_expression));
    json_object_set_new(o, "defines", string_array(v->defines, v->ndefines));
    json_object_set_new(o, "options", string_array(v->options, v->noptions));
    char *text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (!text)
        return -1;
    printf("%s  %s", first ? "" : ",\n", text);
    free(text);
    return 0;
}

typedef struct table {
    int *widths;
    bool show_kernel;
} table;

static void table_header(const cutune_spec *spec, table *t)
{
    int n = cutune_spec_param_count(spec);
    printf("%6s", "#");
    for (int i = 0; i < n; i++) {
        const char *name = cutune_spec_param_name(spec, i);
        int w = (int)strlen(name);
        uint64_t count = cutune_spec_param_value_count(spec, i);
        for (uint64_t k = 0; k < count && k < 4096; k++) {
            int len = cutune_spec_param_value(spec, i, k, NULL, 0);
            if (len > w)
                w = len;
        }
        if (count > 4096) {
            int len = cutune_spec_param_value(spec, i, count - 1, NULL, 0);
            if (len > w)
                w = len;
        }
        t->widths[i] = w;
        printf("  %-*s", w, name);
    }
    printf("  %-12s %-18s %8s", "block", "grid", "smem");
    if (t->show_kernel)
        printf("  %-24s", "kernel");
    printf("  %s\n", "defines and per-variant options");
}

static void table_row(const cutune_variant *v, const table *t)
{
    char b[64], g[96];
    printf("%6llu", (unsigned long long)v->ordinal);
    for (int i = 0; i < v->nparams; i++)
        printf("  %-*s", t->widths[i], v->values[i]);
    printf("  %-12s %-18s %8lld", dims_text(v->block, v->block_dims, b, sizeof b),
           dims_text(v->grid, v->grid_dims, g, sizeof g), (long long)v->smem_bytes);
    if (t->show_kernel)
        printf("  %-24s", v->name_expression);
    printf(" ");
    for (int i = 0; i < v->ndefines; i++)
        printf(" %s", v->defines[i]);
    for (int i = v->ncommon_options; i < v->noptions; i++)
        printf(" %s", v->options[i]);
    printf("\n");
}

static void csv_header(const cutune_spec *spec)
{
    printf("index");
    for (int i = 0; i < cutune_spec_param_count(spec); i++) {
        putchar(',');
        csv_field(cutune_spec_param_name(spec, i));
    }
    printf(",block.x,block.y,block.z,grid.x,grid.y,grid.z,smem_bytes,kernel,defines,options\n");
}

static void csv_row(const cutune_variant *v)
{
    printf("%llu", (unsigned long long)v->ordinal);
    for (int i = 0; i < v->nparams; i++) {
        putchar(',');
        csv_field(v->values[i]);
    }
    printf(",%lld,%lld,%lld,%lld,%lld,%lld,%lld,", (long long)v->block[0], (long long)v->block[1],
           (long long)v->block[2], (long long)v->grid[0], (long long)v->grid[1], (long long)v->grid[2],
           (long long)v->smem_bytes);
    csv_field(v->name_expression);
    putchar(',');
    csv_joined(v->defines, 0, v->ndefines);
    putchar(',');
    csv_joined(v->options, 0, v->noptions);
    putchar('\n');
}

static int list_spec(cutune_spec *spec, const cli_common *c, enum list_format fmt, unsigned long long limit)
{
    cutune_configs *it;
    int rc = cutune_configs_new(&it, spec);
    if (rc < 0)
        return cli_exit_for_status(rc);
    int n = cutune_spec_param_count(spec);
    table t = {calloc((size_t)n + 1, sizeof(int)), false};
    const cutune_variant *v;
    unsigned long long shown = 0;
    int code = EXIT_OK;
    bool header_done = false;
    while (limit == 0 || shown < limit) {
        rc = cutune_configs_next(it, &v);
        if (rc <= 0)
            break;
        if (!header_done) {
            header_done = true;
            t.show_kernel = strchr(v->name_expression, '<') != NULL;
            if (fmt == FMT_TABLE) {
                if (v->ncommon_options > 0) {
                    printf("common options:");
                    for (int i = 0; i < v->ncommon_options; i++)
                        printf(" %s", v->options[i]);
                    printf("\n");
                }
                table_header(spec, &t);
            } else if (fmt == FMT_CSV) {
                csv_header(spec);
            } else {
                printf("[\n");
            }
        }
        if (fmt == FMT_TABLE)
            table_row(v, &t);
        else if (fmt == FMT_CSV)
            csv_row(v);
        else if (print_json_row(spec, v, shown == 0) < 0)
            rc = CUTUNE_ENOMEM;
        if (rc < 0)
            break;
        shown++;
    }
    if (fmt == FMT_JSON)
        printf(header_done ? "\n]\n" : "[]\n");
    if (rc < 0) {
        int seen = 0;
        (void)seen;
        code = cli_exit_for_status(rc);
    } else if (fmt == FMT_TABLE && !c->quiet && limit && shown == limit) {
        rc = cutune_configs_next(it, &v);
        if (rc == 1)
            fprintf(stderr, "(stopped after %llu configurations: --limit)\n", limit);
    }
    free(t.widths);
    cutune_configs_free(it);
    return code;
}

int cmd_list(int argc, char **argv)
{
    cli_common c;
    cli_init_common(&c);
    enum list_format fmt = FMT_TABLE;
    unsigned long long limit = 0;
    static const struct option longopts[] = {
        CLI_COMMON_OPTIONS,
        {"format", required_argument, NULL, 'f'},
        {"limit", required_argument, NULL, 'n'},
        {NULL, 0, NULL, 0},
    };
    int opt, code = EXIT_OK;
    optind = 1;
    while ((opt = getopt_long(argc, argv, "qf:n:", longopts, NULL)) != -1) {
        int handled = cli_common_option(&c, opt, optarg);
        if (handled < 0) {
            code = EXIT_USAGE;
            goto done;
        }
        if (handled)
            continue;
        if (opt == 'f') {
            if (strcmp(optarg, "table") == 0)
                fmt = FMT_TABLE;
            else if (strcmp(optarg, "csv") == 0)
                fmt = FMT_CSV;
            else if (strcmp(optarg, "json") == 0)
                fmt = FMT_JSON;
            else {
                code = cli_usage_error("list", "--format takes table, csv or json, not '%s'", optarg);
                goto done;
            }
        } else if (opt == 'n') {
            char *end;
            limit = strtoull(optarg, &end, 10);
            if (*end || optarg[0] == '-' || !optarg[0]) {
                code = cli_usage_error("list", "--limit takes a count (0 for all), not '%s'", optarg);
                goto done;
            }
        } else {
            code = cli_usage_error("list", "unknown option");
            goto done;
        }
    }
    if (optind != argc - 1) {
        code = cli_usage_error("list", optind >= argc ? "which spec? (cutune list SPEC)" : "one spec at a time");
        goto done;
    }
    cutune_spec *spec = cli_load(argv[optind], &c, &code);
    if (spec) {
        int seen = cutune_spec_diagnostic_count(spec);
        code = list_spec(spec, &c, fmt, limit);
        cli_print_new_diagnostics(spec, &c, &seen);
        cutune_spec_free(spec);
    }
done:
    cli_free_common(&c);
    return code;
}
