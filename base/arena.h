/* arena.h - bump allocator: everything a parsed spec owns lives in one arena.
 *
 * Ownership: an arena owns every byte it hands out; arena_free() releases them
 * all at once, which is what lets error paths in the parser and the checker
 * bail out without freeing node by node. Not thread-safe: one arena per spec. */
#ifndef CUTUNE_BASE_ARENA_H
#define CUTUNE_BASE_ARENA_H

#include <stdarg.h>
#include <stddef.h>

typedef struct arena arena;

/* arena_new: a new empty arena, or NULL when out of memory. */
arena *arena_new(void);

/* arena_free: releases the arena and everything allocated from it; NULL is a no-op. */
void arena_free(arena *a);

/* arena_reset: forgets every allocation but keeps one chunk for reuse, so a loop
 * that allocates per iteration runs in constant memory. */
void arena_reset(arena *a);

/* arena_alloc: `size` zeroed bytes aligned for any type, or NULL when out of memory. */
void *arena_alloc(arena *a, size_t size);

/* arena_grow: a copy of the `old_size` bytes at `old` in a new block of `new_size`
 * zeroed-tail bytes (the old block is not reclaimed until arena_free). */
void *arena_grow(arena *a, void *old, size_t old_size, size_t new_size);

/* arena_strndup / arena_strdup: NUL-terminated copies owned by the arena. */
char *arena_strndup(arena *a, const char *s, size_t n);
char *arena_strdup(arena *a, const char *s);

/* arena_printf: a formatted string owned by the arena, or NULL when out of memory. */
char *arena_printf(arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *arena_vprintf(arena *a, const char *fmt, va_list ap);

/* ARENA_PUSH: appends `item` to the arena-backed vector (items, len, cap),
 * doubling its storage when full. Evaluates to 0, or -1 when out of memory. */
#define ARENA_PUSH(ar, items, len, cap, item) \
    ((len) < (cap) ? ((items)[(len)++] = (item), 0) \
                   : ((items) = arena_grow((ar), (items), sizeof *(items) * (size_t)(cap), \
                                           sizeof *(items) * (size_t)((cap) ? (cap)*2 : 4)), \
                      (items) ? ((cap) = (cap) ? (cap)*2 : 4, (items)[(len)++] = (item), 0) : -1))

#endif
