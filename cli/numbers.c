/* numbers.c - a numeric option read through base/num.h's readers (the command line's
 * one reader per kind of number), with the usage message when it is not one. */
#include "cli.h"

bool cli_int_option(const char *sub, const char *option, const char *what, const char *text, long long min,
                    long long max, long long *out)
{
    if (num_read_int(text, min, max, out))
        return true;
    cli_usage_error(sub, "%s takes %s from %lld to %lld, not '%s'", option, what, min, max, text);
    return false;
}

bool cli_uint_option(const char *sub, const char *option, const char *what, const char *text, uint64_t min,
                     uint64_t max, uint64_t *out)
{
    if (num_read_uint(text, max, out) && *out >= min)
        return true;
    cli_usage_error(sub, "%s takes %s from %llu to %llu, not '%s'", option, what, (unsigned long long)min,
                    (unsigned long long)max, text);
    return false;
}
