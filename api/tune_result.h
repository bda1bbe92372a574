/* tune_result.h - the outcome of a tuning run (cutune_tune_result): every variant's
 * record, the summary, and what is needed to write them out after the spec is gone. */
#ifndef CUTUNE_API_TUNE_RESULT_H
#define CUTUNE_API_TUNE_RESULT_H

#include <jansson.h>

#include "internal.h"

typedef struct record {
    cutune_measurement m;
    cutune_variant v;          /* a deep copy, in the result's arena */
    double *metrics;           /* m.metrics */
} record;

struct cutune_tune_result {
    arena *arena;
    record **records;
    uint64_t n, cap;
    record *scratch;           /* for runs outside the results (the reference; the worker's) */
    double *scratch_metrics;
    cutune_tune_summary summary;
    cutune_device device;
    char *spec_path, *kernel, *kernel_file, *strategy, *date; /* spec_path: as recorded (canonical
                                                                    when tuned by this cutune) */
    char *spec_found;          /* read back: the recorded spec's file, found and canonical; NULL if not */
    int nparams;
    const char **param_names, **param_types;
    int nmetrics;
    const char **metric_names;
    bool flush_l2;
    int64_t warmup, repeat, max_repeat;
    double spread;
};

/* result_new: an empty result for `spec` on `dev` (NULL when out of memory). */
cutune_tune_result *result_new(const cutune_spec *spec, const cutune_device *dev);

/* result_add: a new record for the analysed variant `a`, status "not run" (NULL when
 * out of memory). */
record *result_add(cutune_tune_result *r, const cutune_analysis *a);

/* result_scratch: a record that is not part of the results (the reference's run). */
record *result_scratch(cutune_tune_result *r);

/* result_set_status: the record's status and (copied) reason; reason may be NULL. */
void result_set_status(cutune_tune_result *r, record *rec, const char *status, const char *reason);

/* result_can_win: whether `m` may be a run's winner: status "ok", timed in full (not
 * pruned), with a finite objective. The tuner's best, a results file's summary.best and
 * cutune_tune_best all obey it. */
bool result_can_win(const cutune_measurement *m);

/* result_set_best: the record is the best so far. */
void result_set_best(cutune_tune_result *r, const record *rec);

/* result_record_json: the record as one results-file entry (also a journal line). */
json_t *result_record_json(const cutune_tune_result *r, const record *rec);

/* result_typed_json: a param value's text as JSON of its type ('i', 'f', 'b', else a
 * string), as results files write params. */
json_t *result_typed_json(const char *text, char type);

/* result_device_json: the run's device as the results file's "device" object (new
 * reference). */
json_t *result_device_json(const cutune_tune_result *r);

/* result_load: the record's outcome from a journal line (marked resumed). */
void result_load(cutune_tune_result *r, record *rec, json_t *j);

/* result_finish: fills the summary's counts and the measurement settings. */
void result_finish(cutune_tune_result *r, bool flush_l2, const m_measure *ms);

#endif
