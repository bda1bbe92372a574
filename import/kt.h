/* kt.h - Kernel Tuner's recordings read as the results of a spec (prefix kt_): a cache
 * file (tune_kernel's `cachefile`) or a T4 results file, gzip-compressed or not
 * (docs/kernel-tuner.md, "Importing Kernel Tuner's recordings").
 *
 * import/ is the floor above results/: it reads another tool's files into the records
 * and summary that results/ writes, checking them against the spec's model (compiler/)
 * and its space (search/sspace). It knows nothing of the GPU or the API. */
#ifndef CUTUNE_IMPORT_KT_H
#define CUTUNE_IMPORT_KT_H

#include <stdbool.h>
#include <jansson.h>
#include <stddef.h>

#include "../compiler/model.h"
#include "../results/result.h"

/* What an import is told besides the file. */
typedef struct kt_options {
    const char *device_name; /* the GPU, for a file that does not name it (T4); NULL: none */
    bool complete;           /* refuse a file that lacks a valid configuration of the space */
} kt_options;

/* kt_import: the Kernel Tuner cache or T4 results file at `path` as the results of
 * model `m`, whose spec is at `spec_path`, in *out (the caller owns it: result_destroy).
 * Each entry becomes a record in the file's order, planned as the spec plans its
 * configuration (launch geometry, macros, options); the result's `source` says where
 * the data came from. Returns CUTUNE_OK; CUTUNE_EIO (unreadable, not gzip or JSON, not
 * either format, an entry refused: the message names the file and the JSON path;
 * another device than o->device_name; a configuration missing under o->complete);
 * CUTUNE_EINVAL (o->complete for a space too large to list); CUTUNE_ENOMEM. *out is NULL on failure; the message is in the error
 * object (base/err.h). */
int kt_import(cutune_tune_result **out, const model *m, const char *spec_path, const char *path, const kt_options *o);

/* kt_inflate: the `len` bytes at `data` as they are when they do not start with gzip's
 * magic bytes (*plain set, *out NULL); else decompressed into *out (malloc'd, NUL
 * appended, *out_len its length without the NUL), every member of a multi-member file
 * in turn. A stream that is damaged, ends early, holds trailing bytes that are not
 * another member, or decompresses to more than `limit` bytes is refused. `name` is the
 * file's name in messages. CUTUNE_OK, CUTUNE_EIO or CUTUNE_ENOMEM (error object set). */
int kt_inflate(char **out, size_t *out_len, bool *plain, const char *data, size_t len, size_t limit, const char *name);

/* kt_read_json: the JSON of the recording at `path` into *root (the caller's
 * reference): read through sys_read_file, gunzipped when it is gzip (*gzipped), parsed
 * with duplicate keys refused; a cache file Kernel Tuner left open (a stopped run: its
 * last entry followed by a comma) is closed as Kernel Tuner closes it (*reopened).
 * CUTUNE_OK, or CUTUNE_EIO / CUTUNE_ENOMEM with *root NULL and the error set (the path,
 * and the line and column of a JSON syntax error). */
int kt_read_json(json_t **root, bool *gzipped, bool *reopened, const char *path);

/* The most a compressed recording may decompress to (the hub's largest files are tens
 * of MiB). */
#define KT_INFLATE_LIMIT ((size_t)1 << 30)

#endif
