/* csv.c - CSV fields and shortest numbers (see csv.h). */
#include "csv.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether a spreadsheet would read field s as a formula that can do harm (see csv.h). A
 * field that starts with '-' (a negative number, compiler options such as -DTILE=8
 * --maxrregcount=64) is kept as it is unless it holds a character a harmful formula
 * needs: parentheses (a function call), '|' (a link to another program), '!' and
 * brackets (a reference into another sheet or file), braces, '@', ';' or a line break. */
static bool formula(const char *s)
{
    if (*s == '=' || *s == '+' || *s == '@' || *s == '\t' || *s == '\r')
        return true;
    return *s == '-' && strpbrk(s, "()|![]{}@;\t\r\n") != NULL;
}

void csv_field(strbuf *o, const char *s)
{
    bool guard = formula(s);
    if (!strpbrk(s, ",\"\r\n")) {
        if (guard)
            sb_addc(o, '\'');
        sb_add(o, s);
        return;
    }
    sb_addc(o, '"');
    if (guard)
        sb_addc(o, '\'');
    for (; *s; s++) {
        if (*s == '"')
            sb_addc(o, '"');
        sb_addc(o, *s);
    }
    sb_addc(o, '"');
}

void csv_joined(strbuf *o, const char *const *items, int n)
{
    strbuf s = STRBUF_INIT;
    for (int i = 0; i < n; i++)
        sb_printf(&s, "%s%s", i ? " " : "", items[i]);
    csv_field(o, sb_ok(&s) ? sb_cstr(&s) : "");
    sb_free(&s);
}

char *csv_shortest(double d, char *buf, size_t size)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    return buf;
}

void csv_number(strbuf *o, double d)
{
    char buf[40];
    if (isfinite(d))
        sb_add(o, csv_shortest(d, buf, sizeof buf));
}
