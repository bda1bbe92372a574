/* t1.h - a T1 tuning problem (the JSON format Kernel Tuner, KTT, BAT and the Kernel
 * Tuner benchmark hub share) translated into the text of a cutune spec (prefix t1_;
 * docs/kernel-tuner.md says what maps to what and what is refused).
 *
 * The stage reads nothing but the T1 file (through base/sys) and knows nothing of the
 * spec language's implementation: it writes spec text, which the caller may load like
 * any other spec. It borrows one rule of the compiler's: which names the best-config
 * header can define (compiler/hnames.h), so that a param it cannot is renamed here. Every construct of the file is translated, or refused with its JSON
 * path and the reason; what cutune has no use for (BAT's host-side settings, names and
 * output formats) is kept as a note. The library prints nothing: errors and notes are
 * returned, one message each, "FILE: $.JSON.PATH: message".
 *
 * Files: t1.c (the file read, the kernel specification, the text assembled), t1_space.c
 * (params and conditions), t1_args.c (the geometry and the arguments), t1_settings.c
 * (verify, budget, iterations), t1_json.c (the context, JSON paths, checked
 * member access), t1_py.c (the Python expressions of T1: lexer and parser), t1_eval.c
 * (their values, with Python's meaning), t1_tr.c (those expressions written in cutune's
 * expression language). Shared declarations: t1_internal.h. */
#ifndef CUTUNE_IMPORT_T1_H
#define CUTUNE_IMPORT_T1_H

#include <stddef.h>

/* A translation's outcome; t1_result_free releases it. */
typedef struct t1_result {
    char *text;    /* the spec's text (heap), or NULL when an error refused the file */
    char **errors; /* "FILE: PATH: reason" each (heap, as is every string here) */
    int nerrors;
    char **notes; /* what was translated loosely or left out, and why */
    int nnotes;
} t1_result;

/* t1_import: translates the T1 file at `path` into a spec to be written at
 * `spec_path` (the kernel file's path is made relative to its folder; NULL: the spec
 * lies beside the T1 file). `name` is how messages name the file (NULL: `path`).
 * Returns 0 with *out (which holds the text, or the errors that refused the file,
 * and the notes either way); -1 with the error object set (base/err.h) when the file
 * cannot be read (CUTUNE_EIO) or memory runs out (CUTUNE_ENOMEM), *out NULL. */
int t1_import(t1_result **out, const char *path, const char *spec_path, const char *name);

/* t1_import_text: t1_import of T1 text held in memory (`len` bytes); relative paths
 * are relative to `base_dir` (NULL: the current folder), the spec to be written in
 * `spec_dir` (NULL: base_dir). */
int t1_import_text(t1_result **out, const char *text, size_t len, const char *name, const char *base_dir,
                   const char *spec_dir);

/* t1_result_free: releases r; NULL is a no-op. */
void t1_result_free(t1_result *r);

#endif
