/* measurement_fields.h - a measurement described once: every field of a variant's
 * measurement (cutune_measurement, results/measurement.h), with what each codec needs.
 * The list generates the struct's members, the GPU worker's reply on the wire
 * (tuner/wire.c), what a record takes from a rerun or a twin (results/result.c), the
 * JSON record codec (results/record.c: results files, journal lines), the CSV columns
 * (emit/emit_csv.c) and the public accessor (api/cutune_results.c). Adding a field is
 * one line here, plus where its value comes from (docs/architecture.md, "Adding a
 * measured field"). test/unit/test_measurement_fields.c walks every field through
 * every codec.
 *
 * One line per field, in the order of a results file's entry (docs/results-format.md):
 *   X(member, kind, origin, group, key, when, absent, read, dflt, lo, hi, csv, csv_at, api)
 * member  the cutune_measurement member (declared from this list, with kind's type)
 * kind    INT (int), I64 (int64_t), BOOL (int, 0 or 1; JSON true/false), NUM (double;
 *         JSON null when not finite), STR (const char *, NULL or in the result's arena;
 *         JSON null for NULL); METRICS / HW (the spec's metrics / the run's hardware
 *         counters, one value per name: declared by hand); VARIANT (not a field: where
 *         the variant's own keys go in an entry)
 * origin  WORKER (measured in the GPU worker: carried by its reply; a record taking a
 *         rerun's or twin's figures takes it), SUMMED (carried by the reply; a rerun's
 *         is added, a twin's is 0; a string: the first set is kept, a twin's is NULL),
 *         TAKEN (set by the tuner; taken from a rerun or twin),
 *         LOCAL (neither: the analysis's, the tuner's, the profile's)
 * group   the entry's sub-object holding the key ("resources", ...), 0 for the entry
 * key     the JSON key; 0 for a flag the codec derives (timed: "time_ms" is an object;
 *         energy: its figures are numbers; profiled: "hw" has metrics)
 * when    whether the JSON key is written, and the CSV cell filled: ALWAYS, TIMED,
 *         VERIFIED, NONNEG (>= 0), SET (not 0 / NULL), POSITIVE (> 0), GPUS (>= 0 in a
 *         run on several GPUs), ENERGY, NOTE (not energy, and set), PROFILED
 * absent  what an entry says when `when` fails: OMIT (nothing), NULL (the key: null),
 *         GROUP_NULL (the group: null, unless an object already)
 * read    when record_from_json reads it: WHOLE (a results file's entry only: a resume
 *         keeps the analysis's), BOTH, KEEP (both, a key missing from a journal line
 *         keeps the record's value), TIMED (both, when timed), PROFILED (when
 *         profiled), NONE (the codec derives it)
 * dflt    its value when the key is missing or not of its kind; lo, hi: a value read
 *         outside [lo, hi] is dflt
 * csv     the CSV column, 0 for none; csv_at: its place among the fixed columns
 *         (emit/emit_csv.c places the variant's own: status 10, kernel 30 to smem_bytes
 *         37, defines 900, options 910)
 * api     the public cutune_value that reads it (cutune_measurement_value), or NOVALUE */
#ifndef CUTUNE_RESULTS_MEASUREMENT_FIELDS_H
#define CUTUNE_RESULTS_MEASUREMENT_FIELDS_H

#include <math.h>
#include <stddef.h>

#define MEAS_ANY_LO (-HUGE_VAL)
#define MEAS_ANY_HI HUGE_VAL

/* clang-format off */
#define MEAS_FIELDS(X) \
    /* what went wrong, NULL when ok (the outcome itself is the record's `out`) */ \
    X(reason, STR, WORKER, 0, "reason", ALWAYS, OMIT, BOTH, 0, MEAS_ANY_LO, MEAS_ANY_HI, "reason", 20, NOVALUE) \
    X(variant, VARIANT, LOCAL, 0, 0, ALWAYS, OMIT, NONE, 0, MEAS_ANY_LO, MEAS_ANY_HI, 0, 0, NOVALUE) \
    /* per thread, as the driver reports them (ptxas's when not loaded) */ \
    X(registers, INT, WORKER, "resources", "registers", ALWAYS, OMIT, KEEP, 0, MEAS_ANY_LO, MEAS_ANY_HI, \
      "registers", 40, CUTUNE_VALUE_REGISTERS) \
    X(static_smem, I64, LOCAL, "resources", "static_smem", ALWAYS, OMIT, WHOLE, 0, MEAS_ANY_LO, MEAS_ANY_HI, \
      "static_smem", 50, CUTUNE_VALUE_STATIC_SMEM) \
    X(local_bytes, I64, LOCAL, "resources", "local_bytes", ALWAYS, OMIT, WHOLE, 0, MEAS_ANY_LO, MEAS_ANY_HI, \
      "local_bytes", 60, CUTUNE_VALUE_LOCAL_BYTES) \
    X(spill_stores, I64, LOCAL, "resources", "spill_stores", ALWAYS, OMIT, WHOLE, 0, MEAS_ANY_LO, MEAS_ANY_HI, \
      "spill_stores", 70, CUTUNE_VALUE_SPILL_STORES) \
    X(spill_loads, I64, LOCAL, "resources", "spill_loads", ALWAYS, OMIT, WHOLE, 0, MEAS_ANY_LO, MEAS_ANY_HI, \
      "spill_loads", 80, CUTUNE_VALUE_SPILL_LOADS) \
    /* theoretical, 0..1 */ \
    X(occupancy, NUM, LOCAL, "occupancy", "theoretical", ALWAYS, OMIT, WHOLE, 0, MEAS_ANY_LO, MEAS_ANY_HI, \
      "occupancy", 90, CUTUNE_VALUE_OCCUPANCY) \
    X(limiter, STR, LOCAL, "occupancy", "limiter", ALWAYS, OMIT, WHOLE, 0, MEAS_ANY_LO, MEAS_ANY_HI, "limiter", \
      100, NOVALUE) \
    /* the model's */ \
    X(blocks_per_sm, INT, LOCAL, "occupancy", "blocks_per_sm", ALWAYS, OMIT, WHOLE, 0, MEAS_ANY_LO, MEAS_ANY_HI, \
      "blocks_per_sm", 110, CUTUNE_VALUE_BLOCKS_PER_SM) \
    /* the driver's own answer for the launch (-1 when not loaded) */ \
    X(driver_blocks_per_sm, INT, WORKER, "occupancy", "driver_blocks_per_sm", NONNEG, NULL, BOTH, -1, MEAS_ANY_LO, \
      MEAS_ANY_HI, "driver_blocks_per_sm", 120, CUTUNE_VALUE_DRIVER_BLOCKS_PER_SM) \
    /* 1 when timed (and only an ok outcome's times are read back) */ \
    X(timed, BOOL, WORKER, 0, 0, ALWAYS, OMIT, NONE, 0, MEAS_ANY_LO, MEAS_ANY_HI, 0, 0, CUTUNE_VALUE_TIMED) \
    X(median_ms, NUM, WORKER, "time_ms", "median", TIMED, GROUP_NULL, TIMED, NAN, MEAS_ANY_LO, MEAS_ANY_HI, \
      "time_ms", 130, CUTUNE_VALUE_MEDIAN_MS) \
    X(min_ms, NUM, WORKER, "time_ms", "min", TIMED, GROUP_NULL, TIMED, NAN, MEAS_ANY_LO, MEAS_ANY_HI, \
      "time_min_ms", 140, CUTUNE_VALUE_MIN_MS) \
    X(max_ms, NUM, WORKER, "time_ms", "max", TIMED, GROUP_NULL, TIMED, NAN, MEAS_ANY_LO, MEAS_ANY_HI, \
      "time_max_ms", 150, CUTUNE_VALUE_MAX_MS) \
    X(q1_ms, NUM, WORKER, "time_ms", "q1", TIMED, GROUP_NULL, TIMED, NAN, MEAS_ANY_LO, MEAS_ANY_HI, "time_q1_ms", \
      160, CUTUNE_VALUE_Q1_MS) \
    X(q3_ms, NUM, WORKER, "time_ms", "q3", TIMED, GROUP_NULL, TIMED, NAN, MEAS_ANY_LO, MEAS_ANY_HI, "time_q3_ms", \
      170, CUTUNE_VALUE_Q3_MS) \
    /* (q3 - q1) / median */ \
    X(spread, NUM, WORKER, 0, "spread", TIMED, OMIT, TIMED, NAN, MEAS_ANY_LO, MEAS_ANY_HI, "spread", 180, \
      CUTUNE_VALUE_SPREAD) \
    /* timed repetitions; launches per event pair */ \
    X(reps, INT, WORKER, 0, "reps", TIMED, OMIT, TIMED, 0, MEAS_ANY_LO, MEAS_ANY_HI, "reps", 190, CUTUNE_VALUE_REPS) \
    X(batch, INT, WORKER, 0, "batch", TIMED, OMIT, TIMED, 1, MEAS_ANY_LO, MEAS_ANY_HI, "batch", 200, \
      CUTUNE_VALUE_BATCH) \
    /* timing stopped early: clearly worse than the best so far */ \
    X(pruned, BOOL, WORKER, 0, "pruned", TIMED, OMIT, TIMED, 0, MEAS_ANY_LO, MEAS_ANY_HI, "pruned", 210, \
      CUTUNE_VALUE_PRUNED) \
    /* each metric at the median time (one column per metric) */ \
    X(metrics, METRICS, WORKER, 0, "metrics", TIMED, OMIT, TIMED, NAN, MEAS_ANY_LO, MEAS_ANY_HI, "metric_", 220, \
      NOVALUE) \
    /* the objective's value at the median time */ \
    X(objective, NUM, WORKER, 0, "objective", TIMED, OMIT, TIMED, NAN, MEAS_ANY_LO, MEAS_ANY_HI, "objective", 230, \
      CUTUNE_VALUE_OBJECTIVE) \
    /* 1: the outputs were compared with the reference and agreed */ \
    X(verified, BOOL, WORKER, 0, "verified", ALWAYS, OMIT, BOTH, 0, MEAS_ANY_LO, MEAS_ANY_HI, "verified", 240, \
      CUTUNE_VALUE_VERIFIED) \
    X(max_abs_error, NUM, WORKER, 0, "max_abs_error", VERIFIED, NULL, BOTH, 0, MEAS_ANY_LO, MEAS_ANY_HI, \
      "max_abs_error", 250, CUTUNE_VALUE_MAX_ABS_ERROR) \
    /* the `in` arguments found changed since they were restored, and the variant checked \
     * again with them restored (runtime/pristine.h): a note naming them; NULL when none. \
     * SUMMED: a rerun's note does not replace an earlier one, and a twin has none */ \
    X(inputs_note, STR, SUMMED, 0, "inputs_changed", SET, OMIT, BOTH, 0, MEAS_ANY_LO, MEAS_ANY_HI, 0, 0, NOVALUE) \
    X(compile_seconds, NUM, LOCAL, 0, "compile_seconds", ALWAYS, OMIT, WHOLE, 0, MEAS_ANY_LO, MEAS_ANY_HI, \
      "compile_seconds", 260, CUTUNE_VALUE_COMPILE_SECONDS) \
    X(cached, BOOL, LOCAL, 0, "cached", ALWAYS, OMIT, WHOLE, 0, MEAS_ANY_LO, MEAS_ANY_HI, "cached", 270, \
      CUTUNE_VALUE_CACHED) \
    X(duplicate, BOOL, LOCAL, 0, "duplicate", ALWAYS, OMIT, WHOLE, 0, MEAS_ANY_LO, MEAS_ANY_HI, "duplicate", 280, \
      CUTUNE_VALUE_DUPLICATE) \
    /* time the GPU thread spent on it: arguments, load, checked run, verification and \
     * timing; of which timing (warm-ups and repetitions) */ \
    X(gpu_seconds, NUM, SUMMED, 0, "gpu_seconds", ALWAYS, OMIT, BOTH, 0, MEAS_ANY_LO, MEAS_ANY_HI, "gpu_seconds", \
      290, CUTUNE_VALUE_GPU_SECONDS) \
    X(timing_seconds, NUM, SUMMED, 0, "timing_seconds", ALWAYS, OMIT, BOTH, 0, MEAS_ANY_LO, MEAS_ANY_HI, \
      "timing_seconds", 300, CUTUNE_VALUE_TIMING_SECONDS) \
    /* every launch of the variant on the GPU: the checked run, warm-ups and timing (1: \
     * pruned on its checked run; 0: never launched, or not known: an older journal) */ \
    X(launches, INT, SUMMED, 0, "launches", ALWAYS, OMIT, BOTH, 0, MEAS_ANY_LO, MEAS_ANY_HI, "launches", 310, \
      CUTUNE_VALUE_LAUNCHES) \
    /* 1: timed only far enough to know it contends for the win (a few warm samples); \
     * the end of the run times every contender near the best in full; it never wins */ \
    X(provisional, BOOL, WORKER, 0, "provisional", SET, OMIT, TIMED, 0, MEAS_ANY_LO, MEAS_ANY_HI, 0, 0, \
      CUTUNE_VALUE_PROVISIONAL) \
    /* energy (measure(energy = true), --energy): for a variant timed in full, the \
     * GPU's energy counter (NVML) read around a window of back-to-back launches; \
     * energy: 1 when measured; per launch, joules, the whole board's, and mean board \
     * power over the window, watts (NaN: not measured); the window's length and its \
     * launches (not counted in `launches`); why not, when it was asked for */ \
    X(energy, BOOL, WORKER, 0, 0, ALWAYS, OMIT, NONE, 0, MEAS_ANY_LO, MEAS_ANY_HI, 0, 0, CUTUNE_VALUE_ENERGY) \
    X(energy_j, NUM, WORKER, "energy", "J_per_launch", ENERGY, OMIT, BOTH, NAN, MEAS_ANY_LO, MEAS_ANY_HI, \
      "energy_J", 330, CUTUNE_VALUE_ENERGY_J) \
    X(power_w, NUM, WORKER, "energy", "W", ENERGY, OMIT, BOTH, NAN, MEAS_ANY_LO, MEAS_ANY_HI, "power_W", 340, \
      CUTUNE_VALUE_POWER_W) \
    X(energy_seconds, NUM, WORKER, "energy", "window_s", ENERGY, OMIT, BOTH, 0, MEAS_ANY_LO, MEAS_ANY_HI, 0, 0, \
      CUTUNE_VALUE_ENERGY_SECONDS) \
    X(energy_launches, INT, WORKER, "energy", "launches", ENERGY, OMIT, BOTH, 0, MEAS_ANY_LO, MEAS_ANY_HI, 0, 0, \
      CUTUNE_VALUE_ENERGY_LAUNCHES) \
    X(energy_note, STR, WORKER, "energy", "not_measured", NOTE, OMIT, BOTH, 0, MEAS_ANY_LO, MEAS_ANY_HI, 0, 0, \
      NOVALUE) \
    /* hardware counters (cutune_tune_options.profile_top), read in a profiled launch \
     * of their own after timing, never part of the times: profiled: 1 when read; each \
     * counter's value (NaN where not read); the replays they took; why a variant \
     * chosen for profiling has none */ \
    X(profiled, BOOL, LOCAL, 0, 0, ALWAYS, OMIT, NONE, 0, MEAS_ANY_LO, MEAS_ANY_HI, 0, 0, CUTUNE_VALUE_PROFILED) \
    X(hw, HW, LOCAL, "hw", "metrics", PROFILED, OMIT, PROFILED, NAN, MEAS_ANY_LO, MEAS_ANY_HI, "hw:", 1000, \
      NOVALUE) \
    X(profile_passes, INT, LOCAL, "hw", "passes", PROFILED, OMIT, PROFILED, 0, MEAS_ANY_LO, MEAS_ANY_HI, 0, 0, \
      CUTUNE_VALUE_PROFILE_PASSES) \
    X(profile_note, STR, LOCAL, "hw", "not_measured", SET, OMIT, BOTH, 0, MEAS_ANY_LO, MEAS_ANY_HI, 0, 0, NOVALUE) \
    /* when it was first sent to the GPU worker, in seconds from the run's start (as \
     * summary.first_variant_seconds); 0: not run by this run */ \
    X(started_seconds, NUM, LOCAL, 0, "started_s", POSITIVE, OMIT, BOTH, 0, 0, MEAS_ANY_HI, 0, 0, \
      CUTUNE_VALUE_STARTED_SECONDS) \
    /* >= 0: not run: its machine code, resources, launch geometry and arguments are \
     * those of the variant with this ordinal, measured in this run, whose outcome and \
     * times it shares (its metrics and objective are its own); -1: run itself */ \
    X(same_code_as, I64, LOCAL, 0, "same_code_as", NONNEG, OMIT, BOTH, -1, -1, MEAS_ANY_HI, 0, 0, \
      CUTUNE_VALUE_SAME_CODE_AS) \
    /* the GPU (ordinal) that measured it, when the run used several; -1: not known or \
     * not run */ \
    X(device, INT, TAKEN, 0, "gpu", GPUS, OMIT, BOTH, -1, -1, 4096, 0, 0, CUTUNE_VALUE_DEVICE) \
    /* 1: read back from the journal of an earlier, interrupted run */ \
    X(resumed, BOOL, LOCAL, 0, "resumed", ALWAYS, OMIT, WHOLE, 0, MEAS_ANY_LO, MEAS_ANY_HI, "resumed", 320, \
      CUTUNE_VALUE_RESUMED)
/* clang-format on */

/* The C type of each kind, for the members declared from the list; METRICS, HW and
 * VARIANT are declared by hand (measurement.h). */
#define MEAS_DECL_INT(member) int member;
#define MEAS_DECL_I64(member) int64_t member;
#define MEAS_DECL_BOOL(member) int member;
#define MEAS_DECL_NUM(member) double member;
#define MEAS_DECL_STR(member) const char *member;
#define MEAS_DECL_METRICS(member)
#define MEAS_DECL_HW(member)
#define MEAS_DECL_VARIANT(member)
#define MEAS_DECLARE(member, kind, origin, group, key, when, absent, read, dflt, lo, hi, csv, csv_at, api) \
    MEAS_DECL_##kind(member)

/* The list as data, for the codecs that walk it (record.c, emit_csv.c, the test). */
typedef enum mfield_kind { MK_INT, MK_I64, MK_BOOL, MK_NUM, MK_STR, MK_METRICS, MK_HW, MK_VARIANT } mfield_kind;
typedef enum mfield_origin { MO_WORKER, MO_SUMMED, MO_TAKEN, MO_LOCAL } mfield_origin;
typedef enum mfield_when {
    MW_ALWAYS,
    MW_TIMED,
    MW_VERIFIED,
    MW_NONNEG,
    MW_SET,
    MW_POSITIVE,
    MW_GPUS,
    MW_ENERGY,
    MW_NOTE,
    MW_PROFILED
} mfield_when;
typedef enum mfield_absent { MA_OMIT, MA_NULL, MA_GROUP_NULL } mfield_absent;
typedef enum mfield_read { MR_WHOLE, MR_BOTH, MR_KEEP, MR_TIMED, MR_PROFILED, MR_NONE } mfield_read;

#define NOVALUE (-1)

typedef struct mfield {
    const char *member; /* its name in cutune_measurement */
    mfield_kind kind;
    mfield_origin origin;
    size_t off; /* offsetof(cutune_measurement, member); 0 for METRICS, HW, VARIANT */
    const char *group, *key;
    mfield_when when;
    mfield_absent absent;
    mfield_read read;
    double dflt, lo, hi;
    const char *csv;
    int csv_at;
    int api; /* a cutune_value, or NOVALUE */
} mfield;

/* mfields: the list (mfield_count entries), in a results file's entry's order. */
extern const mfield mfields[];
extern const int mfield_count;

#endif
