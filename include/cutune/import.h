/* cutune/import.h - a part of cutune's public C API (cutune.h includes every part; its
 * opening comment gives the conventions, docs/api.md the guide).
 *
 * Other tools' files brought into cutune (api/cutune_import.c): a Kernel Tuner cache
 * file or a T4 results file read as the results of a spec (docs/kernel-tuner.md,
 * "Importing Kernel Tuner's recordings"), and a T1 tuning problem (the JSON format Kernel
 * Tuner, KTT, BAT and the benchmark hub share) as the text of a spec. */
#ifndef CUTUNE_IMPORT_H
#define CUTUNE_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "results.h"
#include "spec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Kernel Tuner's recordings as cutune results ---------------------------------- */

#define CUTUNE_IMPORT_OPTIONS_VERSION 1

typedef struct cutune_import_options {
    unsigned int version;    /* CUTUNE_IMPORT_OPTIONS_VERSION (cutune/common.h, "Options") */
    const char *device_name; /* the GPU the file was recorded on, for a file that does not say
                                (a T4 results file does not); NULL: the file's, or none. A file
                                that names another device is refused */
    int complete;            /* nonzero: refuse a file that lacks any valid configuration of the
                                spec's space (0: a partial recording is imported as it is, and
                                cutune_tune_source says how many are missing) */
} cutune_import_options;

/* Every field's default: the device the file names, a partial recording allowed. */
#define CUTUNE_IMPORT_OPTIONS_INIT \
    { \
        .version = CUTUNE_IMPORT_OPTIONS_VERSION, .device_name = NULL, .complete = 0 \
    }
int cutune_import_options_init(cutune_import_options *opts, unsigned int version);

/* cutune_import_results: reads `path`, a Kernel Tuner cache file (`cachefile=` of
 * tune_kernel: {"device_name", "kernel_name", "tune_params_keys", "tune_params", "cache":
 * {...}}) or a T4 results file ({"schema_version", "results": [...]}), gzip-compressed or
 * not (told by its first bytes, not its name), as the results of `spec` in *out: a
 * result like the one cutune_results_load gives (write it with
 * cutune_tune_write_results; simulate, report and emit read that file). The spec must
 * be ok (cutune_spec_ok).
 *
 * Every entry is checked against the spec: its params are the spec's (by name, each
 * value of the param's type and in its domain) and its configuration is in the spec's
 * space; each failure keeps its kind (compile, runtime, correctness, constraints,
 * timeout: docs/kernel-tuner.md says which outcome each becomes); times are Kernel
 * Tuner's milliseconds. The result says where its data came from
 * (cutune_tune_source; "source" in the results file).
 *
 * Returns CUTUNE_OK; CUTUNE_EIO when the file cannot be read, is not gzip or JSON, is
 * neither format, an entry is refused (cutune_last_error names the file and the JSON
 * path: "conv.json.gz: cache.\"16,1,...\".block_size_x: 1.5 is not an integer"), it
 * names another device than opts->device_name, or it lacks a configuration under
 * opts->complete (as cutune_simulate refuses a recording that does not cover the
 * space); CUTUNE_EINVAL (NULL arguments, a spec with errors, options of another
 * version, opts->complete for a space too large to list); CUTUNE_ENOMEM. *out is NULL
 * on failure. `opts` may be NULL (every default). */
int cutune_import_results(cutune_tune_result **out, cutune_spec *spec, const char *path,
                          const cutune_import_options *opts);

/* cutune_import_block: holds the kernel block of `spec` that a recording is imported
 * into (cutune_import_results reads the block held), as `cutune import --kernel NAME`
 * picks it: the block named `name` (cutune_spec_select_block: a block's name, else the
 * first block of the kernel `name`); for NULL the spec's one block. Returns CUTUNE_OK;
 * CUTUNE_EINVAL (the block held unchanged) for a spec with errors, a name no block has
 * ("spec.tune has no kernel block named 'x' (its blocks: step1 (kernel reduce), step2
 * (kernel reduce))"), or NULL for a spec of several blocks ("spec.tune has 2 kernel
 * blocks (...): a recording is of one; name it with --kernel NAME"). */
int cutune_import_block(cutune_spec *spec, const char *name);

/* cutune_import_results_to: cutune_import_results of `path`, written as the results file
 * `output` (cutune_tune_write_results), or for "-" the same text on standard output,
 * and in *said (NULL: not wanted; free with cutune_free) what was done, lines ended by
 * '\n': where the data came from (cutune_tune_source) and, for a file, "results:
 * OUTPUT". Returns CUTUNE_OK, or the import's or the
 * write's status (cutune_last_error says why; *said NULL); CUTUNE_EINVAL for no output. */
int cutune_import_results_to(char **said, cutune_spec *spec, const char *path, const char *output,
                             const cutune_import_options *opts);

/* cutune_tune_source: where an imported result's data came from, as one line ("Kernel
 * Tuner cache file 'conv.json.gz' (schema 1.1.0), NVIDIA RTX A4000: 4362 entries, 161
 * failed; 0 of the spec's 4362 configurations missing"), owned by r; NULL for a result
 * that was not imported (a tuning run's, or a results file without "source"). */
const char *cutune_tune_source(const cutune_tune_result *r);

/* ---- a T1 tuning problem as a spec ------------------------------------------------- */

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

/* cutune_import_messages: what `cutune import` says of imp, made from `file`: each
 * refusal a line, then (when `notes` is nonzero) each note after "note: ", and when
 * something was refused "cutune import: FILE not imported: N constructs refused".
 * cutune_import_default_path: where the spec of `file` goes by default: beside it, its
 * extension replaced by ".tune" ("a/b.json" gives "a/b.tune"). In *out (free with
 * cutune_free); CUTUNE_OK, CUTUNE_EINVAL (NULL arguments) or CUTUNE_ENOMEM. */
int cutune_import_messages(char **out, const cutune_import *imp, const char *file, int notes);
int cutune_import_default_path(char **out, const char *file);

/* cutune_import_free: releases imp; NULL is a no-op. */
void cutune_import_free(cutune_import *imp);

#ifdef __cplusplus
}
#endif

#endif
