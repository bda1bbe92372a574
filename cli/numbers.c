/* numbers.c - the command line's one reader per kind of number (an integer in a range,
 * a count, a finite decimal), used by every numeric option and environment variable the
 * CLI reads. A number is what it looks like or it is refused: no leading blanks or '+',
 * no hex, no "inf" or "nan", nothing after it, and out of its range is refused, never
 * saturated or wrapped (strtoull would read 2^64 as 2^64 - 1, and "-1" as 2^64 - 1). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The length of the decimal integer at the start of `text` ([-]digits), 0 when none. */
static size_t integer_length(const char *text)
{
    size_t n = text[0] == '-';
    size_t digits = strspn(text + n, "0123456789");
    return digits ? n + digits : 0;
}

bool cli_read_int(const char *text, long long min, long long max, long long *out)
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

bool cli_read_uint(const char *text, uint64_t max, uint64_t *out)
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

bool cli_read_double(const char *text, const char **rest, double *out)
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

bool cli_int_option(const char *sub, const char *option, const char *what, const char *text, long long min,
                    long long max, long long *out)
{
    if (cli_read_int(text, min, max, out))
        return true;
    cli_usage_error(sub, "%s takes %s from %lld to %lld, not '%s'", option, what, min, max, text);
    return false;
}

bool cli_uint_option(const char *sub, const char *option, const char *what, const char *text, uint64_t min,
                     uint64_t max, uint64_t *out)
{
    if (cli_read_uint(text, max, out) && *out >= min)
        return true;
    cli_usage_error(sub, "%s takes %s from %llu to %llu, not '%s'", option, what, (unsigned long long)min,
                    (unsigned long long)max, text);
    return false;
}
