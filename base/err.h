/* err.h - the one error channel below the public API, in libgit2's manner.
 *
 * A function that can fail returns an int: 0, or a negative code (include/cutune.h's
 * CUTUNE_E* values: base/ stores them, it does not interpret them). The message that
 * goes with the failure lives in one error object per thread, set where the failure is
 * found (err_set) and given context on its way up (err_wrap), never replaced by a
 * caller's vaguer text. The public API reads it (cutune_error_last). Diagnostics about
 * a spec are not errors of this kind: they live on the spec, with their places. */
#ifndef CUTUNE_BASE_ERR_H
#define CUTUNE_BASE_ERR_H

#include <stdbool.h>

/* A message is cut at ERR_MESSAGE_MAX - 1 bytes, and then ends in "..." so that a cut
 * never looks whole (4 KiB holds a PATH_MAX path with room for its context). */
#define ERR_MESSAGE_MAX 4352

typedef struct err_info {
    int code;                      /* the failing call's return value (negative) */
    char message[ERR_MESSAGE_MAX]; /* never empty while set */
} err_info;

/* err_set: makes `code` and the printf-style message the calling thread's error,
 * replacing any earlier one (an argument may quote it: err_last()->message); returns
 * `code`, so that `return err_set(...)` reads as the failure it is. */
int err_set(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* err_wrap: passes a lower failure up with context: when the thread has an error, its
 * message becomes "CONTEXT: lower message" and its code stays the lower one (returned);
 * when it has none (the lower layer failed without a message), it is err_set(code,
 * CONTEXT). Returns the error's code. */
int err_wrap(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* err_recode: the thread's error, message kept, under `code`: a layer that returns its
 * own status for a lower failure (the public API's CUTUNE_E* for runtime/'s -1) keeps
 * the lower message and its own code together. With no error set, err_set(code,
 * "error CODE"). Returns `code`. */
int err_recode(int code);

/* err_last: the calling thread's error, or NULL when there is none. Valid until the
 * thread's next err_* call. */
const err_info *err_last(void);

/* err_clear: forgets the calling thread's error. The public calls do not clear it on
 * entry (a facade that calls another public function would lose the first failure's
 * message); a caller checks err_last's code against the status its call returned
 * (docs/api.md, "Errors"). */
void err_clear(void);

#endif
