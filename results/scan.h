/* scan.h - a results file read one entry at a time (docs/results-format.md, "Reading a
 * large file as a stream"), for outputs made entry by entry from runs too large to load
 * whole: `cutune emit t4` of a million variants holds one entry at a time, not the file,
 * its JSON tree and every record (about 20 times the file's size).
 *
 * Two passes over the file. results_scan_open reads it once, keeping everything but the
 * entries (the run's header, loaded and checked by the loader itself, results/load.h,
 * from the file with its entries left out), counting the entries and collecting their
 * metric names. results_scan_each reads it again, each entry checked as results_load
 * checks it (results_check_entry, then the one record codec: results/record.h, which
 * gives it its typed values), and hands it over.
 *
 * Ownership: the scan owns the header and everything it hands out; a record handed to
 * the callback lives only during the call. The file is read through its own open file
 * (regular files only, as sys_read_file: a FIFO is never read). */
#ifndef CUTUNE_RESULTS_SCAN_H
#define CUTUNE_RESULTS_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "record.h"
#include "result.h"

/* The most bytes one value of the file may take (an entry, "spec", "settings"...): what
 * the scan holds at once. Entries of real runs take a few KB (a compile log: up to
 * hundreds). */
#define RESULTS_SCAN_VALUE_LIMIT ((size_t)64 << 20)

typedef struct results_scan results_scan;

/* results_scan_open: the first pass over the results file at `path`. CUTUNE_OK with
 * *out; CUTUNE_EIO (unreadable, not JSON, not a results file, an entry that is not JSON
 * or larger than RESULTS_SCAN_VALUE_LIMIT: the message, naming the file and the JSON
 * path, in the thread's error: base/err.h) or CUTUNE_ENOMEM, with *out NULL. */
int results_scan_open(results_scan **out, const char *path);

/* results_scan_header: the run without its entries, as results_load would give it less
 * the records (n 0; for a run over sizes, each size's result likewise): names, device,
 * settings, summary (summary.best as recorded, checked against the entries' count; the
 * metric names collected over the entries). Borrowed from s. */
const cutune_tune_result *results_scan_header(const results_scan *s);

/* results_scan_count: the run's entries (over every size). */
uint64_t results_scan_count(const results_scan *s);

/* A callback of results_scan_each: entry `index` (within its result) `rec` of the result
 * `of`: the header, or for a run over sizes the size's result (rec->size its index in
 * the header's sizes). rec is valid only during the call. Returns 0 to go on; anything
 * else stops the scan, which returns it. */
typedef int (*results_scan_fn)(void *ctx, const cutune_tune_result *of, const record *rec, uint64_t index);

/* results_scan_each: the second pass: every entry, in the file's order, to fn. Returns
 * CUTUNE_OK; fn's nonzero return; or CUTUNE_EIO / CUTUNE_ENOMEM with the thread's error
 * set (an entry malformed as results_load would refuse it; summary.best an entry that
 * could not win; the file changed since results_scan_open). */
int results_scan_each(results_scan *s, results_scan_fn fn, void *ctx);

/* results_scan_close: frees s and closes its file; NULL is a no-op. */
void results_scan_close(results_scan *s);

#endif
