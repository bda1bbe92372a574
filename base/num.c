/* num.c - the one reader per kind of number (num.h). */
#include "num.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The length of the decimal integer at the start of `text` ([-]digits), 0 when none. */
static size_t integer_length(const char *text)
{
    size_t n = text[0] == '-';
    size_t digits = strspn(text + n, "0123456789");
    return digits ? n + digits : 0;
}

bool num_read_int(const char *text, long long min, long long max, long long *out)
{
    size_t len = text ? integer_length(text) : 0;
    if (len == 0 || len != strlen(text))
        return false;
    errno = 0;
    char *end;
    long long v = strtoll(text, &end, 10);
    if (errno == ERANGE || *end || v < min || v > max)
        return false;
    *out = v;
    return true;
}

bool num_read_uint(const char *text, uint64_t max, uint64_t *out)
{
    size_t len = text && text[0] != '-' ? integer_length(text) : 0;
    if (len == 0 || len != strlen(text))
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno == ERANGE || *end || v > max)
        return false;
    *out = v;
    return true;
}

bool num_read_double(const char *text, const char **rest, double *out)
{
    if (!text)
        return false;
    /* [-]digits[.digits] or [-].digits, then an optional exponent e[+-]digits */
    const char *p = text + (text[0] == '-');
    size_t whole = strspn(p, "0123456789"), frac = 0;
    p += whole;
    if (*p == '.') {
        frac = strspn(p + 1, "0123456789");
        p += 1 + frac;
    }
    if (whole + frac == 0)
        return false;
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1 + (p[1] == '+' || p[1] == '-');
        size_t exp = strspn(q, "0123456789");
        if (exp)
            p = q + exp;
    }
    if (!rest && *p)
        return false;
    errno = 0;
    char *end;
    double v = strtod(text, &end);
    if (end != p || !isfinite(v))
        return false; /* past the largest double: not a number this program can use */
    if (rest)
        *rest = p;
    *out = v;
    return true;
}

bool num_read_list(const char *text, long long min, long long max, int *out, int size, int *n)
{
    int k = 0;
    const char *p = text;
    bool ok = p && *p;
    while (ok && *p) {
        size_t len = strcspn(p, ",");
        char one[24];
        long long v = 0;
        ok = len > 0 && len < sizeof one && k < size;
        if (ok) {
            snprintf(one, sizeof one, "%.*s", (int)len, p);
            ok = num_read_int(one, min, max, &v);
        }
        if (ok) {
            out[k++] = (int)v;
            p += len;
            ok = !(*p == ',' && !*++p); /* "0,": a list does not end in a comma */
        }
    }
    *n = ok ? k : 0;
    return ok;
}

const char *num_format_count(uint64_t n, char *buf, size_t size)
{
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)n);
    size_t k = 0;
    for (int i = 0; i < len && k + 2 < size; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            buf[k++] = ',';
        buf[k++] = digits[i];
    }
    if (size > 0)
        buf[k] = '\0';
    return buf;
}
