/* journal.h - the tuning journal: one JSON line per variant, appended and synced to
 * disk the moment its outcome exists, so an interrupted run (Ctrl-C, kill -9, power
 * loss) loses nothing measured, and the next run of the same spec on the same device
 * resumes: variants already in the journal are not run again.
 *
 * Line 1 is the header: {"format": "cutune-journal", "version": 1, "identity": {...}}.
 * What is trusted when a journal is read back (docs/results-format.md, "The journal"):
 *  - The header decides whether the file is read at all. A first line that is not a
 *    JSON object whose "format" is "cutune-journal" is refused (the file is not a
 *    journal: it is never mixed in, appended to or truncated); so is a "version" that
 *    is not an integer of at least 1, and a later version than this cutune writes. An
 *    identity (spec text and --set overrides, kernel source, device) other than the
 *    run's is refused too. Each refusal is an error naming the path; --fresh replaces
 *    the file instead.
 *  - A torn first line (a crash while writing the header: no newline yet) starts the
 *    journal afresh only when its bytes are the start of a journal header; anything else
 *    is refused as not a journal.
 *  - Every later line is a record. Lines end at a newline and are read with their
 *    length: a NUL byte or any other damage inside one is that line's flaw, never the
 *    file's end. One that holds a NUL byte, is not JSON, not an object, or lacks what a
 *    resume needs is ignored (its variant is measured again: a wasted measurement,
 *    never a wrong answer) and stays in the file: "index" must be an integer in
 *    [0, bound) (bound: the space's ordinal bound, given to journal_open), "status" one
 *    this cutune writes (runtime/outcome.h) and "params" an object. journal_ignored
 *    counts them, journal_ignored_why says which and why.
 *  - Only a last line without its newline (torn by a crash) is dropped, and the file
 *    cut there; the file is cut nowhere else. */
#ifndef CUTUNE_RESULTS_JOURNAL_H
#define CUTUNE_RESULTS_JOURNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "../compiler/model.h"
#include "../compiler/value.h"
#include "result.h"

/* The format and the version this cutune reads and writes. */
#define JOURNAL_FORMAT "cutune-journal"
enum { JOURNAL_VERSION = 1 };

typedef struct journal journal;

/* journal_open: opens (or creates) the journal at `path` for a run whose identity is
 * `identity` (a JSON object, borrowed) and whose configurations have ordinals below
 * `bound` (the number of valid configurations when they are listed, else the number
 * of raw combinations: docs/search.md). With `fresh`, an existing journal is replaced.
 * Returns 0 with *out (close with journal_close), or -1 with the error (base/err.h)
 * naming the path (a journal of another run, another format or a later version is an
 * error, not silently mixed or overwritten). */
int journal_open(journal **out, const char *path, json_t *identity, uint64_t bound, bool fresh);

/* What makes a run's journal its own: its header's "identity" (docs/results-format.md).
 * Digests as hex; the optional parts are left out of the header when absent. */
typedef struct journal_identity {
    const char *spec, *kernel; /* the spec text with its overrides, the kernel source */
    const char *device, *arch;
    bool flush_l2;
    int shard_index, shard_count; /* shard_count > 1: a shard's journal */
    int block;                    /* >= 0: which block of a file of several */
    const char *size;             /* non-NULL: the problem size's label */
    const char *inputs;           /* non-NULL and not "": the input files' digest */
} journal_identity;

/* journal_open_run: journal_open with the identity `id` (the tuner's way in: it never
 * handles JSON). 0, or -1 with the error. */
int journal_open_run(journal **out, const char *path, const journal_identity *id, uint64_t bound, bool fresh);

/* A record read back, as the tuner sees it: opaque, decoded on demand. Borrowed from
 * the journal. */
typedef struct journal_entry journal_entry;

/* journal_lookup: the entry of configuration `ordinal` when its params are `vals`
 * (model m's, typed; a guard against a journal written under another numbering),
 * else NULL. journal_entry_at: the i-th entry (i < journal_count) in increasing ordinal
 * order, its ordinal in *ordinal; NULL past the end. journal_entry_is: whether an
 * entry's params are `vals`. */
const journal_entry *journal_lookup(const journal *j, uint64_t ordinal, const model *m, const value *vals);
const journal_entry *journal_entry_at(const journal *j, uint64_t i, uint64_t *ordinal);
bool journal_entry_is(const journal_entry *e, const model *m, const value *vals);

/* journal_entry_read: the entry decoded into rec (a record made from the variant, in
 * r): its outcome and measurement, marked resumed; `compiled`: the record was made from
 * the variant's compile, whose figures it keeps (record_from_json's RECORD_RESUME),
 * else from its plan alone, and the entry's compile figures are read too
 * (RECORD_READ_BACK). Never fails. */
void journal_entry_read(const journal_entry *e, cutune_tune_result *r, record *rec, bool compiled);

/* journal_entry_has_compile: whether the entry holds what its variant's compile said
 * ("resources" and "occupancy" objects, as every journal line this cutune writes): one
 * that does (a hand-made or cut-down line may not) can be read back without compiling
 * its variant (RECORD_READ_BACK). */
bool journal_entry_has_compile(const journal_entry *e);

/* journal_entry_outcome: its outcome and (in *objective) its objective, NaN when it has
 * none: what a search is told of it. */
outcome journal_entry_outcome(const journal_entry *e, double *objective);

/* journal_find: the recorded outcome of configuration `ordinal` as its JSON line
 * (borrowed), or NULL: for checks of the file itself (the tuner uses journal_lookup).
 * When a configuration has several lines, the last one counts. */
json_t *journal_find(const journal *j, uint64_t ordinal);

/* journal_count: how many configurations' outcomes were read back when it was opened. */
uint64_t journal_count(const journal *j);

/* journal_at: the i-th outcome read back (i < journal_count), in increasing ordinal
 * order: its ordinal in *ordinal, the record (borrowed) returned. NULL past the end. */
json_t *journal_at(const journal *j, uint64_t i, uint64_t *ordinal);

/* journal_ignored: how many record lines were not trusted when it was opened (a NUL
 * byte, not JSON, not an object, an index out of range, no known status, no params).
 * journal_ignored_why: which and why, "line 3: a NUL byte at column 17: a damaged
 * record; line 9: ..." (lines counted from 1, the header's; the first 5 named, then
 * "; and N more"; bytes below 0x20 shown as '?'), "" when none (owned by j). */
uint64_t journal_ignored(const journal *j);
const char *journal_ignored_why(const journal *j);

/* journal_append: writes `line` (borrowed) as one line and syncs it to disk. Returns
 * 0, or -1 with the error. journal_append_record: the record's entry
 * (record_to_json) as that line. */
int journal_append(journal *j, json_t *line);
int journal_append_record(journal *j, const cutune_tune_result *r, const record *rec);

/* journal_hold: until the matching journal_release, journal_append writes each line
 * (a process killed after it loses none) but syncs none; journal_release syncs once
 * what was written meanwhile (one fsync for the several variants finished together).
 * Holds nest; NULL is a no-op. journal_release: 0, or -1 with the error (the sync). */
void journal_hold(journal *j);
int journal_release(journal *j);

/* journal_close: NULL is a no-op. */
void journal_close(journal *j);

#endif
