/* format.c - the table columns `list` and `analyze` share (see format.h). */
#include "format.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../base/sys.h"

int fmt_print_made(int rc, char **text)
{
    if (rc == CUTUNE_OK)
        puts(*text);
    cutune_free(*text);
    *text = NULL;
    return rc == CUTUNE_OK ? 0 : -1;
}

int fmt_write_output(const char *who, const char *path, const char *text)
{
    if (strcmp(path, "-") == 0) {
        fputs(text, stdout);
        if (fflush(stdout) == 0 && !ferror(stdout))
            return EXIT_OK;
        fprintf(stderr, "%s: cannot write to standard output: %s\n", who, strerror(errno));
        return EXIT_IO;
    }
    if (sys_write_text(path, text) != 0) {
        fprintf(stderr, "%s: cannot write '%s': %s\n", who, path, sys_strerror(errno));
        return EXIT_IO;
    }
    return EXIT_OK;
}

const char *fmt_dims(const int64_t *d, int n, char *buf, size_t size)
{
    int len = snprintf(buf, size, "%lld", (long long)d[0]);
    for (int i = 1; i < n && len > 0 && (size_t)len < size; i++)
        len += snprintf(buf + len, size - (size_t)len, "x%lld", (long long)d[i]);
    return buf;
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
