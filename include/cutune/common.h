/* cutune/common.h - a part of cutune's public C API (cutune.h includes every part; its
 * opening comment gives the conventions, docs/api.md the guide).
 *
 * The version, status codes, the error object and cutune_free: what every other
 * header of cutune uses (api/cutune_common.c); and the one writer of a file. */
#ifndef CUTUNE_COMMON_H
#define CUTUNE_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CUTUNE_VERSION_MAJOR 0
#define CUTUNE_VERSION_MINOR 1
#define CUTUNE_VERSION_PATCH 0

/* cutune_version: the library's version, "MAJOR.MINOR.PATCH". */
const char *cutune_version(void);

typedef enum cutune_status {
    CUTUNE_OK = 0,
    CUTUNE_ESPEC = -1,     /* the spec is invalid: see the spec's diagnostics */
    CUTUNE_EIO = -2,       /* a file could not be read or written (a diagnostic says which) */
    CUTUNE_ENOMEM = -3,    /* out of memory */
    CUTUNE_EINVAL = -4,    /* an invalid argument to an API call */
    CUTUNE_EEVAL = -5,     /* an expression of the spec failed for some configuration (a diagnostic says where) */
    CUTUNE_ENODEV = -6,    /* no CUDA driver or GPU (cutune_last_error says which) */
    CUTUNE_ECOMPILER = -7, /* NVRTC itself failed (not a kernel's compile error) */
    CUTUNE_ESTOPPED = -8   /* a callback asked to stop */
} cutune_status;

/* cutune_status_text: a short description of a status ("spec has errors", ...). */
const char *cutune_status_text(int status);

/* Options. Every cutune_*_options struct begins with `version`, the layout its caller
 * was compiled with. Start from the struct's CUTUNE_*_OPTIONS_INIT initialiser or its
 * cutune_*_options_init function: either sets the version and every field's documented
 * default (docs/api.md, "Options and their defaults"); then change what you need. A
 * call given a struct of another version, a zero-filled one included (version 0),
 * returns CUTUNE_EINVAL and says so in the error object: zero is not every field's
 * default (cutune_tune_options.flush_l2 = 0 turns L2 flushing off). A
 * cutune_*_options_init function returns CUTUNE_OK, or CUTUNE_EINVAL (opts NULL, or a
 * version this library does not know; opts is then left as it was). */

/* ---- errors ---------------------------------------------------------------------- */

/* A failed call returns a negative status; what went wrong is kept, per thread, in one
 * error object: set where the failure was found, given context on its way up, never
 * replaced by a vaguer message (libgit2's manner). A call on a spec also records a
 * diagnostic on the spec, with its place; the error object holds the same text where
 * there is no spec to hold it (devices, occupancy, results files). */
typedef struct cutune_error {
    int code;            /* the status the failed call returned */
    const char *message; /* never empty */
} cutune_error;

/* cutune_error_last: the calling thread's last error, or NULL when none has been set.
 * Valid until the thread's next call into the library. Calls do not clear it: read it
 * after a call returned an error, and trust it when its code is that call's status
 * (a failure recorded only as a spec diagnostic may leave an earlier error here). */
const cutune_error *cutune_error_last(void);

/* cutune_last_error: cutune_error_last's message, or "" when there is none. */
const char *cutune_last_error(void);

/* cutune_free: releases a string the library returned; NULL is a no-op. */
void cutune_free(void *p);

/* cutune_write_file: `text` as the whole of the file `path`, written as cutune writes
 * every file it makes (a temporary in the same folder, synced, then renamed over `path`:
 * a reader sees the old file or the new one; a folder, device or link at `path` is
 * refused), or to standard output, flushed, for "-". CUTUNE_OK; CUTUNE_EIO, the last
 * error "cannot write 'PATH': WHY" (or "cannot write to standard output: WHY");
 * CUTUNE_EINVAL for NULL arguments. */
int cutune_write_file(const char *path, const char *text);

#ifdef __cplusplus
}
#endif

#endif
