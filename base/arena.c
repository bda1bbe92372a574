/* arena.c - chunked bump allocator (see arena.h for the contract). */
#include "arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ARENA_CHUNK = 64 * 1024, ARENA_ALIGN = 16 };

typedef struct chunk {
    struct chunk *next;
    size_t used, size;
    _Alignas(ARENA_ALIGN) unsigned char data[];
} chunk;

struct arena {
    chunk *head;
};

arena *arena_new(void)
{
    return calloc(1, sizeof(arena));
}

void arena_free(arena *a)
{
    if (!a)
        return;
    for (chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    free(a);
}

void arena_reset(arena *a)
{
    chunk *keep = NULL;
    for (chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        if (!keep && c->size == ARENA_CHUNK) {
            keep = c;
            continue;
        }
        free(c);
    }
    if (keep) {
        keep->next = NULL;
        keep->used = 0;
    }
    a->head = keep;
}

void *arena_alloc(arena *a, size_t size)
{
    size_t rounded = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    if (rounded < size)
        return NULL;
    chunk *c = a->head;
    if (!c || c->size - c->used < rounded) {
        size_t want = rounded > ARENA_CHUNK ? rounded : ARENA_CHUNK;
        chunk *fresh = malloc(sizeof(chunk) + want);
        if (!fresh)
            return NULL;
        fresh->used = 0;
        fresh->size = want;
        /* A big one-off block goes behind the head so the head keeps its free space. */
        if (c && rounded > ARENA_CHUNK / 4) {
            fresh->next = c->next;
            c->next = fresh;
        } else {
            fresh->next = c;
            a->head = fresh;
        }
        c = fresh;
    }
    void *p = c->data + c->used;
    c->used += rounded;
    memset(p, 0, size);
    return p;
}

void *arena_grow(arena *a, void *old, size_t old_size, size_t new_size)
{
    void *p = arena_alloc(a, new_size);
    if (p && old && old_size)
        memcpy(p, old, old_size < new_size ? old_size : new_size);
    return p;
}

char *arena_strndup(arena *a, const char *s, size_t n)
{
    char *p = arena_alloc(a, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

char *arena_strdup(arena *a, const char *s)
{
    return arena_strndup(a, s, strlen(s));
}

char *arena_vprintf(arena *a, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0)
        return NULL;
    char *p = arena_alloc(a, (size_t)n + 1);
    if (p)
        vsnprintf(p, (size_t)n + 1, fmt, ap);
    return p;
}

char *arena_printf(arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = arena_vprintf(a, fmt, ap);
    va_end(ap);
    return p;
}
