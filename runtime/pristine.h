/* pristine.h - which `in` buffers runtime/bench copies again from their pristine copies
 * before a variant, and what it says when one is found changed.
 *
 * An `in` argument is one the kernel must not write. Copying it back from its pristine
 * copy before every variant only guards against a kernel that does, and for large
 * inputs that copy is a good part of a variant's GPU work. So, when a verification
 * follows every variant (a kernel that writes into an input would sooner or later give
 * a variant wrong outputs), an `in` buffer restored once and not suspected since keeps
 * its device copy; when a variant's outputs do not agree with the reference's, the
 * buffers it kept are compared byte for byte with their pristine copies (bench.c), and
 * one found changed is restored, suspected for good (copied before every variant from
 * then on) and named in a note.
 *
 * This file is the bookkeeping and the note, with no device: plain state per buffer,
 * owned by its holder (bench.c's slot). */
#ifndef CUTUNE_RUNTIME_PRISTINE_H
#define CUTUNE_RUNTIME_PRISTINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data.h"

/* One `in` buffer's device copy against its pristine copy. */
typedef struct pristine_state {
    int64_t clean; /* elements restored and not suspected since; -1: none (a fresh or moved buffer) */
    bool skipped;  /* this variant's copy was not made (pristine_skip) */
    bool suspect;  /* found changed once: restored before every variant from now on */
} pristine_state;

/* pristine_init: nothing restored yet, nothing suspected. */
void pristine_init(pristine_state *s);

/* pristine_skip: before a variant of `count` elements: true when the buffer keeps its
 * device copy (lazy: a verification follows and nothing else writes the buffer, such as
 * a reset; the copy holds `count` restored elements; never suspected), false when it
 * must be copied (then pristine_restored). Records the answer in s->skipped. */
bool pristine_skip(pristine_state *s, bool lazy, int64_t count);

/* pristine_restored: `count` elements were copied from the pristine copy. */
void pristine_restored(pristine_state *s, int64_t count);

/* pristine_forget: the device copy is no longer known to hold its restored contents (a
 * new allocation, a copy that failed); suspicion is kept. */
void pristine_forget(pristine_state *s);

/* pristine_changed: the device copy was found to differ from the pristine one: suspected
 * from now on, and no longer clean. */
void pristine_changed(pristine_state *s);

/* pristine_words: how `bytes` bytes are compared exactly with the comparison kernel
 * (runtime/compare: equal words pass): as the widest unsigned type of 4, 2 or 1 bytes
 * that divides them (each converts to a double exactly, and a NaN's bits equal
 * themselves), *n words of it. */
data_type pristine_words(size_t bytes, size_t *n);

/* pristine_note: the note a variant carries when its `in` buffers `names` (n >= 1) were
 * found changed, into buf (size bytes, truncated to fit, always terminated): the names,
 * that a variant (this one or one before it on this GPU) writes into them, that they
 * were restored and the variant checked again, and what to do. */
void pristine_note(char *buf, size_t size, const char *const *names, int n);

#endif
