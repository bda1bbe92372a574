/* cutune/import.h - a part of cutune's public C API (cutune.h includes every part; its
 * opening comment gives the conventions, docs/api.md the guide).
 *
 * Importing what other tuners describe: a T1 tuning problem (the JSON format Kernel
 * Tuner, KTT, BAT and the Kernel Tuner benchmark hub share) as the text of a cutune spec
 * (api/cutune_import.c; what maps to what: docs/kernel-tuner.md). */
#ifndef CUTUNE_IMPORT_H
#define CUTUNE_IMPORT_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A translation: the spec's text, or the errors that refused the file, and notes on what
 * was left out or read loosely either way. */
typedef struct cutune_import cutune_import;

/* cutune_import_t1: translates the T1 file at `t1_path` into a spec meant to be written
 * at `spec_path` (the kernel's and data files' paths are made relative to its folder;
 * NULL: beside the T1 file). Every construct of the file is translated or refused,
 * each refusal a message "T1_PATH: $.JSON.PATH: reason". Returns CUTUNE_OK with *out
 * holding the text; CUTUNE_ESPEC when the file is refused (*out holds the errors, the
 * error object the first of them); CUTUNE_EIO when it cannot be read, CUTUNE_ENOMEM,
 * CUTUNE_EINVAL for NULL arguments (*out NULL, the error object says why). Nothing is
 * written: the caller writes the text where it likes. */
int cutune_import_t1(cutune_import **out, const char *t1_path, const char *spec_path);

/* cutune_import_text: the spec's text (owned by imp), NULL when the file was refused. */
const char *cutune_import_text(const cutune_import *imp);

/* cutune_import_error_count / cutune_import_error: the refusals, each with the T1 file's
 * JSON path and the reason (owned by imp; NULL for i out of range). */
int cutune_import_error_count(const cutune_import *imp);
const char *cutune_import_error(const cutune_import *imp, int i);

/* cutune_import_note_count / cutune_import_note: what was translated loosely or left out,
 * and why (also written as comments at the top of the spec). */
int cutune_import_note_count(const cutune_import *imp);
const char *cutune_import_note(const cutune_import *imp, int i);

/* cutune_import_free: releases imp; NULL is a no-op. */
void cutune_import_free(cutune_import *imp);

#ifdef __cplusplus
}
#endif

#endif
