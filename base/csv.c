/* csv.c - CSV fields and shortest numbers (see csv.h). */
#include "csv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void csv_field(strbuf *o, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        sb_add(o, s);
        return;
    }
    sb_addc(o, '"');
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

char *num_shortest(double d, char *buf, size_t size)
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
        sb_add(o, num_shortest(d, buf, sizeof buf));
}
