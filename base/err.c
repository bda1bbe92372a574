/* err.c - the per-thread error object (see err.h). */
#include "err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local err_info current;
static _Thread_local bool is_set;

/* mark_cut: ends a message that filled its buffer with "..." so that it reads as cut. */
static void mark_cut(char *msg, int wanted)
{
    if (wanted >= ERR_MESSAGE_MAX)
        memcpy(msg + ERR_MESSAGE_MAX - 4, "...", 4);
}

int err_set(int code, const char *fmt, ...)
{
    char text[ERR_MESSAGE_MAX]; /* an argument may be the current message itself */
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (n <= 0)
        snprintf(current.message, sizeof current.message, "error %d", code);
    else {
        memcpy(current.message, text, sizeof text);
        mark_cut(current.message, n);
    }
    current.code = code;
    is_set = true;
    return code;
}

int err_wrap(int code, const char *fmt, ...)
{
    char context[ERR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(context, sizeof context, fmt, ap);
    va_end(ap);
    if (n < 0)
        context[0] = '\0';
    if (!is_set)
        return n > 0 ? err_set(code, "%s", context) : err_set(code, "error %d", code);
    if (n <= 0)
        return current.code;
    char lower[ERR_MESSAGE_MAX];
    memcpy(lower, current.message, sizeof lower);
    int m = snprintf(current.message, sizeof current.message, "%s: %s", context, lower);
    mark_cut(current.message, m);
    return current.code;
}

int err_recode(int code)
{
    if (!is_set)
        return err_set(code, "error %d", code);
    current.code = code;
    return code;
}

const err_info *err_last(void)
{
    return is_set ? &current : NULL;
}

void err_clear(void)
{
    is_set = false;
    current.code = 0;
    current.message[0] = '\0';
}
