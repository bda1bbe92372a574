/* kt_internal.h - what import/kt.c (the entries checked and recorded, the summary) and
 * import/kt_formats.c (the two formats read) share; not used outside import/. */
#ifndef CUTUNE_IMPORT_KT_INTERNAL_H
#define CUTUNE_IMPORT_KT_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../compiler/model.h"
#include "../results/record.h"
#include "../results/result.h"
#include "../search/sspace.h"
#include "kt.h"

typedef enum kt_format { KT_NEITHER, KT_CACHE, KT_T4 } kt_format;

struct seen;

/* An import in progress. Owns everything but m and path; labels[i] (a cache entry's
 * key, borrowed from the JSON; NULL in a T4 file) names entry i in messages. */
typedef struct kt_import_state {
    const model *m;
    const char *path;
    sspace *sp;
    cutune_tune_result *r;
    value *vals;   /* the entry being read: a value per param */
    uint64_t *vec; /* and its domain indices */
    struct seen *seen;
    size_t nseen, cap_seen, nentries;
    const char **labels;
    size_t cap_labels;
    uint64_t failed, space;
    int64_t missing;
    char date[32];  /* the earliest timestamp (kt_note_timestamp), "" when none */
    json_t *source; /* the result's "source", filled as the file is read */
} kt_import_state;

/* One entry as read from either format, in Kernel Tuner's units (ms). */
typedef struct kt_entry {
    outcome out;
    const char *reason;     /* NULL when ok */
    double time_ms;         /* Kernel Tuner's time (ok only) */
    const double *runtimes; /* its samples, ms (nruntimes of them; may be 0) */
    size_t nruntimes;
    double compile_ms, benchmark_ms, verification_ms;
} kt_entry;

/* kt_refuse: sets the error to "FILE: WHERE: what" (printf-style); CUTUNE_EIO. */
int kt_refuse(const kt_import_state *k, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* kt_note_timestamp: keeps the earliest of the entries' timestamps as k->date. */
void kt_note_timestamp(kt_import_state *k, json_t *stamp);

/* kt_configuration: the params of the object `config` (at JSON path `where`) into
 * k->vals and k->vec, each checked against the spec (its type, its domain); with
 * exact_keys, a key that is not a param is refused too. The configuration's key into
 * *key, refused when it is not in the spec's space. CUTUNE_OK or CUTUNE_EIO. */
int kt_configuration(kt_import_state *k, json_t *config, const char *where, bool exact_keys, uint64_t *key);

/* kt_add: the entry, of the configuration k->vals (key `key`), as the next record.
 * CUTUNE_OK, CUTUNE_EIO (the spec cannot plan it) or CUTUNE_ENOMEM. */
int kt_add(kt_import_state *k, const kt_entry *e, uint64_t key, const char *where);

/* kt_detect: which format the parsed file is. */
kt_format kt_detect(json_t *root);

/* kt_device_name: the device the file names (a cache's device_name), NULL when none. */
const char *kt_device_name(json_t *root, kt_format fmt);

/* kt_read_cache / kt_read_t4: every entry of the file, checked and added (kt_add),
 * and what the file says of itself into k->source. CUTUNE_OK, or the first refusal. */
int kt_read_cache(kt_import_state *k, json_t *root);
int kt_read_t4(kt_import_state *k, json_t *root);

/* kt_source: the rest of k->source once every entry is read: the tool, the format, the
 * file, the device, the counts, the units. CUTUNE_OK or CUTUNE_ENOMEM. */
int kt_source(kt_import_state *k, kt_format fmt, bool gzipped, bool reopened, const char *device);

#endif
