/* remarks.h - what the commands around results say besides the files they write, as
 * text (prefix remarks_), for any application: a merge's summary and the shards it
 * lacks, the GPUs' note of `cutune devices`, the start line of a run on several GPUs
 * (cutune --per-device) and the header's note on GPUs of one model, and what an import
 * of a T1 problem refused and noted, with the path its spec goes to by default, and
 * what a run says of each file it wrote after it ended. The public calls are
 * api/cutune_remarks.c's (cutune_merge_text, cutune_devices_note, cutune_per_device_text,
 * cutune_header_devices_notes, cutune_import_messages, cutune_import_default_path,
 * cutune_emitted_text); their contracts in include/cutune/ say what each line holds.
 *
 * Ownership: each returns a heap string (the caller frees it), NULL out of memory; what
 * it is given is borrowed. */
#ifndef CUTUNE_EMIT_REMARKS_H
#define CUTUNE_EMIT_REMARKS_H

#include <stdbool.h>

#include "../results/result.h"

/* remarks_merged: r, merged from `nfiles` files and written to `output`: its counts and
 * winner, then where it went. */
char *remarks_merged(const cutune_tune_result *r, int nfiles, const char *output);

/* remarks_missing: the shards missing[0 .. n) of `count`, a line; "" when n is 0. */
char *remarks_missing(const int *missing, int n, int count);

/* remarks_devices: what `--devices all` does with `count` GPUs (one_model: all of one
 * model), a line; "" for fewer than two. */
char *remarks_devices(int count, bool one_model);

/* remarks_per_device: the start line of a run of a process per GPU on devs[0 .. n),
 * each with `jobs` compile threads. */
char *remarks_per_device(const int *devs, int n, int jobs);

/* remarks_same_model: a line for each k of [0 .. n) with same_as[k] >= 0 (results k of
 * the GPU model of results same_as[k]: the header holds the first's winner). */
char *remarks_same_model(const int *same_as, int n);

/* remarks_import: errors[0 .. nerrors) a line each, the notes (each after "note: "),
 * and when there are errors the line that `file` was not imported. */
char *remarks_import(const char *const *errors, int nerrors, const char *const *notes, int nnotes, const char *file);

/* remarks_import_path: `file` with its extension (if any, after its last '/') replaced
 * by ".tune": where its spec goes by default, beside it. */
char *remarks_import_path(const char *file);

/* remarks_emitted: what a run says of `file` (cutune_emitted_text: a file written
 * after it ended, or why not: `why`, the error's message), a line or "". */
char *remarks_emitted(const cutune_emitted *file, const char *why, bool brief);

#endif
