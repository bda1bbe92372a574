/* includes.h - the files a kernel's #include lines reach, read by cutune itself and
 * handed to NVRTC as in-memory headers.
 *
 * Why: NVRTC opens the files it includes with a plain blocking open, so a FIFO (or a
 * device) named by an #include would hold a compile worker until its deadline, and a
 * file changed between the cache key's walk and the compile would be cached under the
 * wrong key. Here every file an #include reaches in the user's folders is read once,
 * through sys_read_file (regular files only), and each resolved #include line is
 * renamed to that file's canonical path, the name NVRTC is given it under: NVRTC then
 * matches it in memory and opens none of those files, and the bytes compiled are the
 * bytes the cache key covers.
 *
 * Search order, NVRTC's own: "x" in the including file's folder (as spelled, like the
 * compiler), then every -I / --include-path folder of the options in order; <x> in the
 * -I folders only; an absolute name as it is. An existing match that is not a regular
 * file (a FIFO, a socket, a device) is an error naming it; a folder is skipped, as the
 * compiler skips one. A name found nowhere (the toolkit's cuda_fp16.h, NVRTC's built-in
 * headers, CCCL under the toolkit's include folder) is left to NVRTC, unrenamed.
 * Conditional compilation is ignored, so this is a superset of what the compiler
 * reads (an #include in an `#if 0` branch is still read). Not followed: an #include
 * whose name a macro gives (`#include HEADER`), #include_next, and --pre-include
 * options: NVRTC resolves those itself. */
#ifndef CUTUNE_RUNTIME_INCLUDES_H
#define CUTUNE_RUNTIME_INCLUDES_H

#include <stddef.h>

#include "compile.h"

/* Bounds: nesting deeper than this is an error (GCC's own limit is 200), and so are
 * more files, or more bytes in all, than these. */
enum { INCL_MAX_DEPTH = 200, INCL_MAX_FILES = 16384 };
#define INCL_MAX_BYTES ((size_t)256 << 20)

/* What a program's #include lines reach. Owns every string. */
typedef struct incl_set {
    char *source; /* the program's text, its resolved #include lines renamed */
    int nheaders;
    char **names; /* each file's canonical path: its name for NVRTC */
    char **texts; /* its text, its own #include lines renamed likewise */
} incl_set;

/* incl_resolve: reads every file that the #include lines of `source` (the text of the
 * file `source_name`) reach, through the folders of the -I options among `options`,
 * into *out (free with incl_set_free, also after a failure). Returns 0, or -1 with err_last set
 * naming the file (and the one that includes it) when a file cannot be read or is not
 * a regular file, includes nest more than INCL_MAX_DEPTH deep (err_last names the chain),
 * or more than INCL_MAX_FILES files or INCL_MAX_BYTES bytes are reached. */
int incl_resolve(incl_set *out, const char *source_name, const char *source, const char *const *options, int noptions);

/* incl_set_free: releases what *s owns and zeroes it; a zeroed set is a no-op. */
void incl_set_free(incl_set *s);

/* incl_compile: compile_run of `job` (runtime/compile.h) with its #include lines read
 * here first and handed to NVRTC in memory. A file the lines reach that cannot be read
 * (a FIFO, a missing permission) fails the compile as an error in the kernel does:
 * out->ok false, the reason as its log. Returns like compile_run. */
int incl_compile(const compile_job *job, compile_output *out);

/* A run's resolved sets, shared by its compile jobs: the files are read once per run,
 * not once per variant, and every variant compiles the same bytes. Keyed by the
 * program's name and text and the -I folders of the options (a -D macro changes
 * nothing here: conditional compilation is ignored). Safe to use from many threads. */
typedef struct incl_memo incl_memo;

/* incl_memo_new: an empty memo into *out. 0, or -1 when out of memory. */
int incl_memo_new(incl_memo **out);

/* incl_memo_free: releases the memo and every set it holds; NULL is a no-op. */
void incl_memo_free(incl_memo *m);

/* incl_memo_get: incl_resolve's set for these arguments, through the memo. *set is
 * borrowed: the memo's (valid until incl_memo_free), or `own` when the memo is full (the
 * caller frees `own` with incl_set_free either way). A failure is remembered like a
 * set. Returns 0, or -1 with incl_resolve's err_last. */
int incl_memo_get(incl_memo *m, const char *source_name, const char *source, const char *const *options, int noptions,
                  incl_set *own, const incl_set **set);

#endif
