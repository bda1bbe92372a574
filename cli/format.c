/* format.c - shared table/CSV/JSON columns for configurations (see format.h). */
#include "format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *fmt_dims(const int64_t *d, int n, char *buf, size_t size)
{
    int len = snprintf(buf, size, "%lld", (long long)d[0]);
    for (int i = 1; i < n && len > 0 && (size_t)len < size; i++)
        len += snprintf(buf + len, size - (size_t)len, "x%lld", (long long)d[i]);
    return buf;
}

void fmt_csv_field(const char *s)
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

/* The items joined with spaces, as one CSV field. */
static void csv_joined(const char *const *items, int n)
{
    size_t len = 1;
    for (int i = 0; i < n; i++)
        len += strlen(items[i]) + 1;
    char *s = malloc(len);
    if (!s)
        return;
    s[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (i > 0)
            strcat(s, " ");
        strcat(s, items[i]);
    }
    fmt_csv_field(s);
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

json_t *fmt_variant_json(const cutune_spec *spec, const cutune_variant *v)
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
    return o;
}

void fmt_variant_csv_header(const cutune_spec *spec)
{
    printf("index");
    for (int i = 0; i < cutune_spec_param_count(spec); i++) {
        putchar(',');
        fmt_csv_field(cutune_spec_param_name(spec, i));
    }
    printf(",block.x,block.y,block.z,grid.x,grid.y,grid.z,smem_bytes,kernel,defines,options");
}

void fmt_variant_csv(const cutune_variant *v)
{
    printf("%llu", (unsigned long long)v->ordinal);
    for (int i = 0; i < v->nparams; i++) {
        putchar(',');
        fmt_csv_field(v->values[i]);
    }
    printf(",%lld,%lld,%lld,%lld,%lld,%lld,%lld,", (long long)v->block[0], (long long)v->block[1],
           (long long)v->block[2], (long long)v->grid[0], (long long)v->grid[1], (long long)v->grid[2],
           (long long)v->smem_bytes);
    fmt_csv_field(v->name_expression);
    putchar(',');
    csv_joined(v->defines, v->ndefines);
    putchar(',');
    csv_joined(v->options, v->noptions);
}

int fmt_table_init(fmt_table *t, const cutune_spec *spec, const cutune_variant *first)
{
    int n = cutune_spec_param_count(spec);
    t->nparams = n;
    t->show_kernel = first && strchr(first->name_expression, '<') != NULL;
    t->widths = calloc((size_t)n + 1, sizeof(int));
    if (!t->widths)
        return -1;
    for (int i = 0; i < n; i++) {
        int w = (int)strlen(cutune_spec_param_name(spec, i));
        uint64_t count = cutune_spec_param_value_count(spec, i);
        for (uint64_t k = 0; k < count && k < 4096; k++) {
            int len = cutune_spec_param_value(NULL, 0, spec, i, k);
            if (len > w)
                w = len;
        }
        if (count > 4096) {
            int len = cutune_spec_param_value(NULL, 0, spec, i, count - 1);
            if (len > w)
                w = len;
        }
        t->widths[i] = w;
    }
    return 0;
}

void fmt_table_free(fmt_table *t)
{
    free(t->widths);
    t->widths = NULL;
}

void fmt_table_header(const fmt_table *t, const cutune_spec *spec)
{
    printf("%6s", "#");
    for (int i = 0; i < t->nparams; i++)
        printf("  %-*s", t->widths[i], cutune_spec_param_name(spec, i));
    printf("  %-10s %-16s %7s", "block", "grid", "smem");
    if (t->show_kernel)
        printf("  %-24s", "kernel");
}

void fmt_table_row(const fmt_table *t, const cutune_variant *v)
{
    char b[64], g[96];
    printf("%6llu", (unsigned long long)v->ordinal);
    for (int i = 0; i < v->nparams; i++)
        printf("  %-*s", t->widths[i], v->values[i]);
    printf("  %-10s %-16s %7lld", fmt_dims(v->block, v->block_dims, b, sizeof b),
           fmt_dims(v->grid, v->grid_dims, g, sizeof g), (long long)v->smem_bytes);
    if (t->show_kernel)
        printf("  %-24s", v->name_expression);
}
