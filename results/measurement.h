/* measurement.h - one variant's outcome as the library keeps it: the record behind the
 * public, opaque cutune_measurement (include/cutune/results.h), which applications read
 * through accessors (api/cutune_results.c) so that this struct may grow and change. Inside the
 * library it is the first member of a results/result.h record, whose `out` is its
 * outcome (kept there only: the public name is outcome_name(out)); strings and arrays
 * live in the result's arena. Its fields are declared by the one list of them,
 * results/measurement_fields.h, which says what each means. Not part of the public
 * interface. */
#ifndef CUTUNE_RESULTS_MEASUREMENT_H
#define CUTUNE_RESULTS_MEASUREMENT_H

#include <stddef.h>
#include <stdint.h>

#include "cutune.h"
#include "measurement_fields.h"

struct cutune_measurement {
    const cutune_variant *variant;
    MEAS_FIELDS(MEAS_DECLARE)
    int nmetrics; /* the spec's metrics (METRICS): names and values */
    const char *const *metric_names;
    const double *metrics;
    int nhw; /* the run's counters (HW), named by hw_names (cutune_tune_profile_metric's) */
    const char *const *hw_names;
    const double *hw; /* NULL when nhw is 0 */
};

/* mfield_number: field f (an INT, I64, BOOL or NUM one of mfields) of m as a double;
 * NaN for other kinds. */
double mfield_number(const cutune_measurement *m, const mfield *f);

#endif
