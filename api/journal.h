/* journal.h - the tuning journal: one JSON line per variant, appended and synced to
 * disk the moment its outcome exists, so an interrupted run (Ctrl-C, kill -9, power
 * loss) loses nothing measured, and the next run of the same spec on the same device
 * resumes: variants already in the journal are not run again.
 *
 * Line 1 is the header: {"format": "cutune-journal", "version": 1, "identity": {...}}.
 * The identity (spec text and --set overrides, kernel source, device) must match for a
 * journal to be resumed; a torn last line (a crash mid-write) is ignored. */
#ifndef CUTUNE_API_JOURNAL_H
#define CUTUNE_API_JOURNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct journal journal;

/* journal_open: opens (or creates) the journal at `path` for a run whose identity is
 * `identity` (a JSON object, borrowed). With `fresh`, an existing journal is replaced.
 * Returns 0, or -1 with err (a journal of another spec or device is an error, not
 * silently mixed or overwritten). */
int journal_open(journal **out, const char *path, json_t *identity, bool fresh, char *err, size_t errsize);

/* journal_find: the recorded outcome of configuration `ordinal` (borrowed), or NULL. */
json_t *journal_find(const journal *j, uint64_t ordinal);

/* journal_end: one past the largest ordinal journal_find can answer for (every
 * outcome read back has an ordinal below it). */
uint64_t journal_end(const journal *j);

/* journal_count: how many outcomes were read back when it was opened. */
uint64_t journal_count(const journal *j);

/* journal_append: writes `record` (borrowed) as one line and syncs it to disk. */
int journal_append(journal *j, json_t *record, char *err, size_t errsize);

/* journal_close: NULL is a no-op. */
void journal_close(journal *j);

#endif
