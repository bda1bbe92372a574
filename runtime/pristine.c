/* pristine.c - the restore bookkeeping of `in` buffers and its note (pristine.h). */
#include "pristine.h"

#include <stdio.h>

void pristine_init(pristine_state *s)
{
    s->clean = -1;
    s->skipped = false;
    s->suspect = false;
}

bool pristine_skip(pristine_state *s, bool lazy, int64_t count)
{
    s->skipped = lazy && !s->suspect && s->clean >= 0 && s->clean == count;
    return s->skipped;
}

void pristine_restored(pristine_state *s, int64_t count)
{
    s->clean = count;
    s->skipped = false;
}

void pristine_forget(pristine_state *s)
{
    s->clean = -1;
}

void pristine_changed(pristine_state *s)
{
    s->clean = -1;
    s->suspect = true;
}

data_type pristine_words(size_t bytes, size_t *n)
{
    if (bytes % 4 == 0) {
        *n = bytes / 4;
        return DT_UINT32;
    }
    if (bytes % 2 == 0) {
        *n = bytes / 2;
        return DT_UINT16;
    }
    *n = bytes;
    return DT_UINT8;
}

/* Appends `text` at *at in buf (size bytes), truncating; *at stays within the buffer. */
static void put(char *buf, size_t size, size_t *at, const char *text)
{
    if (*at + 1 >= size)
        return;
    int w = snprintf(buf + *at, size - *at, "%s", text);
    if (w > 0)
        *at += (size_t)w < size - *at ? (size_t)w : size - *at - 1;
}

void pristine_note(char *buf, size_t size, const char *const *names, int n)
{
    if (size == 0)
        return;
    buf[0] = '\0';
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        put(buf, size, &at, i == 0 ? "'" : i == n - 1 ? " and '" : ", '");
        put(buf, size, &at, names[i]);
        put(buf, size, &at, "'");
    }
    put(buf, size, &at,
        n == 1 ? " had changed since it was restored: a variant (this one or one before it on this GPU) writes into "
                 "an `in` argument; declare it inout (it was restored and this variant checked again)"
               : " had changed since they were restored: a variant (this one or one before it on this GPU) writes "
                 "into `in` arguments; declare them inout (they were restored and this variant checked again)");
}
