/* record.h - the one codec between a variant's record and its JSON: a results file's
 * entry and a journal line are the same object (docs/results-format.md), written by
 * record_to_json and read by record_from_json, whether by the results loader, a resume
 * from the journal or simulate (through the loader). Numbers go through one formatter:
 * record_number (a finite double as a JSON real, anything else null). */
#ifndef CUTUNE_RESULTS_RECORD_H
#define CUTUNE_RESULTS_RECORD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "result.h"

/* how the counters of a results file's "hw" entries were read. */
#define RESULTS_PROFILE_METHOD "CUPTI range profiler: one launch after timing, kernel replay, clocks untouched"

/* How much of an entry record_from_json reads. */
typedef enum record_read {
    RECORD_WHOLE,     /* a results file's entry: the variant and its measurement; what is
                      missing or malformed is an error */
    RECORD_RESUME,    /* a journal line onto a record made from the analysed variant: its
                      outcome and measurement only (the line is trusted by
                      results/journal.h's rules); marked resumed; never fails */
    RECORD_READ_BACK, /* as RECORD_RESUME onto a record made from a variant planned but
                         not compiled (session_known): the line's compile figures
                         (resources, occupancy, compile_seconds, cached, duplicate) too */
} record_read;

/* record_num / record_int: the JSON number v as a double / an integer (a real within
 * int64's range is truncated), `otherwise` when v is absent, not a number or (for an
 * integer) NaN or out of range. The readers' one rule for numbers. */
double record_num(json_t *v, double otherwise);
int64_t record_int(json_t *v, int64_t otherwise);

/* record_number: d as JSON: a real when finite, else null (new reference). */
json_t *record_number(double d);

/* record_to_json: the record as one results-file entry (also a journal line): its
 * params from rec->vals (typed; never NULL in a record of a result), the variant's keys
 * and every field of measurement_fields.h's list, in its order; a new reference, NULL
 * when out of memory. */
json_t *record_to_json(const cutune_tune_result *r, const record *rec);

/* record_from_json: reads entry `j` into `rec` (its strings in r's arena), per `how`
 * and each field's `read` (measurement_fields.h). RECORD_WHOLE reads the configuration
 * too: rec->vals, each value exactly of its param's type in r->param_types
 * (record_value_of; another JSON type is an error: "params.NAME: ..."), and rec->v's
 * text from them (value_format, as a tuning run writes it). An unknown status is an
 * error for RECORD_WHOLE, OUTCOME_NOT_RUN for RECORD_RESUME (whose record keeps the vals
 * it was made with); times count only when the outcome is ok. Returns 0, or -1 with
 * what is wrong in the error object (base/err.h, code CUTUNE_EIO; RECORD_WHOLE only). */
int record_from_json(cutune_tune_result *r, record *rec, json_t *j, record_read how);

/* record_field_shown: whether field f (one of mfields) of rec is written: its
 * `when` holds (a JSON key, a CSV cell). */
bool record_field_shown(const cutune_tune_result *r, const record *rec, const mfield *f);

/* record_value_json: a param's value as JSON of its type (an int as a JSON integer, a
 * float as a real, a bool as true/false, a string as a string), as results files and
 * journal lines write params (new reference). */
json_t *record_value_json(value v);

/* record_param_type: a param's type as a results file names it ("int", "float", "bool",
 * "string"; anything else, which the loader refuses, as "int"). */
vtype record_param_type(const char *type);

/* record_shown: v as JSON text for a message, into buf (size bytes; about 60 characters
 * are shown, then "..."): ASCII only (control characters and other bytes as \u escapes,
 * so that a message cannot drive a terminal); "nothing" for NULL. Returns buf. */
const char *record_shown(json_t *v, char *buf, size_t size);

/* record_value_of: the JSON value `j` read as a value of type t into *out, exactly (an
 * int: a JSON integer, never 2.0, true or "2"; a float: a real, or an integer a double
 * holds exactly; a bool: true/false; a string: a string, borrowed from j). Returns NULL,
 * or what is wrong, to follow the value's text in a message ("is not an integer: ...");
 * *out is left alone then. The one rule by which results files and their entries are
 * read (results/load.c refuses with it, record_from_json reads with it). */
const char *record_value_of(json_t *j, vtype t, value *out);

/* record_size_json: the size of a size's result as {"n": 4096, ...} ({} when r is not
 * one) (new reference). */
json_t *record_size_json(const cutune_tune_result *r);

/* record_device_json: the run's device as the results file's "device" object (new
 * reference). */
json_t *record_device_json(const cutune_tune_result *r);

#endif
