/* value.c - spec values (see value.h). */
#include "value.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *vtype_name(vtype t)
{
    switch (t) {
    case VT_INT: return "int";
    case VT_FLOAT: return "float";
    case VT_BOOL: return "bool";
    case VT_STRING: return "string";
    default: return "<error>";
    }
}

value value_int(int64_t i)
{
    value v = {VT_INT, {.i = i}};
    return v;
}
value value_float(double f)
{
    value v = {VT_FLOAT, {.f = f}};
    return v;
}
value value_bool(bool b)
{
    value v = {VT_BOOL, {.b = b}};
    return v;
}
value value_string(const char *s)
{
    value v = {VT_STRING, {.s = s}};
    return v;
}

bool value_equal(value a, value b)
{
    if (a.type != b.type)
        return false;
    switch (a.type) {
    case VT_INT: return a.u.i == b.u.i;
    case VT_FLOAT: return a.u.f == b.u.f;
    case VT_BOOL: return a.u.b == b.u.b;
    case VT_STRING: return strcmp(a.u.s, b.u.s) == 0;
    default: return false;
    }
}

double value_as_double(value v)
{
    return v.type == VT_INT ? (double)v.u.i : v.type == VT_FLOAT ? v.u.f : 0.0;
}

/* The shortest %g precision that reads back as the same double. */
static void format_double(double d, strbuf *out)
{
    char buf[64];
    if (isnan(d)) {
        sb_add(out, "nan");
        return;
    }
    if (isinf(d)) {
        sb_add(out, d < 0 ? "-inf" : "inf");
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    /* Keep a float looking like a float: 2 -> 2.0 */
    if (!strpbrk(buf, ".eEn"))
        strcat(buf, ".0");
    sb_add(out, buf);
}

void value_format(value v, strbuf *out, bool quote)
{
    switch (v.type) {
    case VT_INT: sb_printf(out, "%lld", (long long)v.u.i); break;
    case VT_FLOAT: format_double(v.u.f, out); break;
    case VT_BOOL: sb_add(out, v.u.b ? "true" : "false"); break;
    case VT_STRING:
        if (!quote) {
            sb_add(out, v.u.s);
            break;
        }
        sb_addc(out, '"');
        for (const char *p = v.u.s; *p; p++) {
            if (*p == '"' || *p == '\\')
                sb_addc(out, '\\');
            if (*p == '\n')
                sb_add(out, "\\n");
            else if (*p == '\t')
                sb_add(out, "\\t");
            else
                sb_addc(out, *p);
        }
        sb_addc(out, '"');
        break;
    default: sb_add(out, "<error>"); break;
    }
}

void value_format_c(value v, strbuf *out, bool as_bool_words)
{
    switch (v.type) {
    case VT_BOOL: sb_add(out, as_bool_words ? (v.u.b ? "true" : "false") : (v.u.b ? "1" : "0")); break;
    default: value_format(v, out, false); break; /* floats: the shortest text that reads back equal */
    }
}

/* A value and its position, sorted by value, then position. */
typedef struct ranked {
    value v;
    size_t at;
} ranked;

/* The order of values for value_mark_repeats: by type, then by contents; 0 exactly
 * when value_equal holds (floats with ==, so 0.0 and -0.0 are one value). */
static int value_order(value a, value b)
{
    if (a.type != b.type)
        return a.type < b.type ? -1 : 1;
    switch (a.type) {
    case VT_INT: return (a.u.i > b.u.i) - (a.u.i < b.u.i);
    case VT_FLOAT: return (a.u.f > b.u.f) - (a.u.f < b.u.f);
    case VT_BOOL: return (int)a.u.b - (int)b.u.b;
    case VT_STRING: return strcmp(a.u.s, b.u.s);
    default: return 0;
    }
}

static int ranked_order(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    int c = value_order(a->v, b->v);
    return c ? c : (a->at > b->at) - (a->at < b->at);
}

int value_mark_repeats(const value *vals, size_t n, bool *repeat)
{
    ranked *r = malloc(sizeof *r * (n ? n : 1));
    if (!r)
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        repeat[i] = false;
        if (vals[i].type != VT_ERROR)
            r[k++] = (ranked){vals[i], i};
    }
    qsort(r, k, sizeof *r, ranked_order);
    for (size_t i = 1; i < k; i++)
        if (value_order(r[i - 1].v, r[i].v) == 0)
            repeat[r[i].at] = true;
    free(r);
    return 0;
}

void value_strip_separators(const char *text, char *buf, size_t size)
{
    size_t k = 0;
    for (const char *p = text; *p && k + 1 < size; p++)
        if (*p != '_')
            buf[k++] = *p;
    buf[k] = '\0';
}
