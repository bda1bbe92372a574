/* measurement.h - one variant's outcome as the library keeps it: the record behind the
 * public, opaque cutune_measurement (include/cutune/results.h), which applications read
 * through accessors (api/cutune_results.c) so that this struct may grow and change. Inside the
 * library it is the first member of a results/result.h record, whose `out` is its
 * outcome; strings and arrays live in the result's arena. Not part of the public
 * interface. */
#ifndef CUTUNE_RESULTS_MEASUREMENT_H
#define CUTUNE_RESULTS_MEASUREMENT_H

#include <stdint.h>

#include "cutune.h"

struct cutune_measurement {
    const cutune_variant *variant;
    const char *status;        /* outcome_name(the record's out): "ok", "wrong", ... (result.h) */
    const char *reason;        /* what went wrong, NULL when ok */
    int registers;             /* per thread, as the driver reports them (ptxas's when not loaded) */
    int64_t static_smem, local_bytes, spill_stores, spill_loads;
    double occupancy;          /* theoretical, 0..1 */
    const char *limiter;
    int blocks_per_sm;         /* the model's */
    int driver_blocks_per_sm;  /* the driver's own answer for the launch (-1 when not loaded) */
    int timed;                 /* 1 when timed */
    double median_ms, min_ms, max_ms, q1_ms, q3_ms;
    double spread;             /* (q3 - q1) / median */
    int reps;                  /* timed repetitions */
    int batch;                 /* launches per event pair */
    int pruned;                /* timing stopped early: clearly worse than the best so far */
    double objective;          /* the objective's value at the median time */
    int nmetrics;
    const char *const *metric_names;
    const double *metrics;     /* each metric at the median time */
    int verified;              /* 1: the outputs were compared with the reference and agreed */
    double max_abs_error;
    double compile_seconds;
    int cached, duplicate;
    double gpu_seconds;        /* time the GPU thread spent on it: arguments, load, checked run,
                                  verification and timing */
    double timing_seconds;     /* of which timing (warm-ups and repetitions) */
    int resumed;               /* 1: read back from the journal of an earlier, interrupted run */
    int launches;              /* every launch of the variant on the GPU: the checked run, warm-ups and
                                  timing (1: pruned on its checked run; 0: never launched, or not known:
                                  a journal written before launches were counted) */
    int provisional;           /* 1: timed only far enough to know it contends for the win (a few
                                  warm samples); the end of the run times every contender near
                                  the best in full. A provisional variant never wins. */
    /* Energy (measure(energy = true) or cutune --energy): for a variant timed in
     * full, the GPU's energy counter (NVML) read around a window of back-to-back launches
     * (docs/results-format.md says how). */
    int energy;                /* 1: measured */
    double energy_j;           /* per launch, joules, the whole board's (NaN: not measured) */
    double power_w;            /* mean board power over the window, watts (NaN: not measured) */
    double energy_seconds;     /* the window's length */
    int energy_launches;       /* launches in the window (not counted in `launches`) */
    const char *energy_note;   /* why it was not measured when it was asked for; NULL otherwise */
    double started_seconds;    /* when it was first sent to the GPU worker, in seconds from the run's
                                  start (as summary.first_variant_seconds); 0: not run by this run */
    int device;                /* the GPU (ordinal) that measured it, when the run used several
                                  (results files say "gpu"); -1: not known or not run */
    int64_t same_code_as;      /* >= 0: not run: its machine code, resources, launch geometry and
                                  arguments are those of the variant with this ordinal, measured
                                  in this run, whose outcome and times it shares (its metrics and
                                  objective are its own, for its own values); -1: run itself */
    /* Hardware counters (cutune_tune_options.profile_top): read in a profiled
     * launch of their own after timing, never part of the times. */
    int profiled;              /* 1: hw holds what was read */
    int nhw;                   /* the run's counters, named by hw_names (cutune_tune_profile_metric's) */
    const char *const *hw_names;
    const double *hw;          /* each counter's value, NaN where not read; NULL when nhw is 0 */
    int profile_passes;        /* the replays the counters took */
    const char *profile_note;  /* why a variant chosen for profiling has no counters; NULL otherwise */
};

#endif
