/* bench.h - one binary on one device: its arguments (inputs made on the device by
 * runtime/fill, bit for bit data_fill's values, kept as pristine device copies and
 * restored from them before each variant, `in` buffers under a verification only when
 * they must be: runtime/pristine.h; outputs poisoned), a checked run, the comparison of
 * its outputs with the reference's (kept on the device), and its timing.
 *
 * Takes plain sizes, types and values: what a spec says becomes these in tuner/. The
 * objective and metrics stay above (a `worse` callback in meas_settings is how the
 * race learns of them). Every CUDA call goes through runtime/measure and runtime/compare. */
#ifndef CUTUNE_RUNTIME_BENCH_H
#define CUTUNE_RUNTIME_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "compare.h"
#include "data.h"
#include "energy.h"
#include "fill.h"
#include "hook.h"
#include "measure.h"
#include "outcome.h"

/* One kernel argument. */
typedef struct bench_arg {
    const char *name; /* for messages */
    data_type type;
    bool is_buffer;
    bool has_init; /* buffers: initial contents `fill` (else poisoned before each run) */
    data_fill_spec fill;
    bool out_only;    /* an `out` buffer (its contents before a launch must not matter) */
    const char *file; /* FILL_FILE: the file (borrowed), .npy when file_npy, else raw */
    bool file_npy;
    /* a buffer that is no kernel parameter: the module's __constant__ symbol of this
     * name, filled from the initial contents after each load (runtime/cmem.h) */
    bool is_constant;
    /* a buffer of a vector type (float4, int2, ...): `type` is its lanes' type, and each
     * element of a configuration's count is this many of them (0 or 1: a scalar type) */
    int lanes;
    /* an `in` buffer: the kernel must not write it. With a verification it is copied
     * from its pristine copy only when it must be (runtime/pristine.h); else, like an
     * `inout` buffer, before every variant */
    bool in_only;
} bench_arg;

/* A scalar argument's value: integers exactly, else a double. */
typedef struct bench_scalar {
    bool is_int; /* i is exact: integer types take it as it is */
    int64_t i;
    double d; /* the value as a double (always set) */
} bench_scalar;

/* Which outputs are compared with the reference's, and how closely. */
typedef struct bench_verify {
    bool present;       /* false: nothing is verified */
    const int *outputs; /* argument indices */
    int noutputs;
    double atol, rtol;
    /* which checker (0: element-wise atol/rtol, else a chk_mode + 1: CHK_L2,
     * CHK_ULP, CHK_USER), its bound, and a user checker's binary (set before the
     * reference is kept). */
    int check;
    double check_tol;
    const void *check_cubin;
    const char *check_symbol;
} bench_verify;

/* A binary and how it is launched. */
typedef struct bench_binary {
    const unsigned char *cubin;
    const char *symbol;
    unsigned grid[3], block[3], dynamic_smem;
} bench_binary;

/* One configuration's arguments: a count of elements per buffer, a value per scalar
 * (entries of the other kind are ignored). */
typedef struct bench_config {
    const int64_t *counts;
    const bench_scalar *scalars;
} bench_config;

/* Where a run's GPU time went besides its result (bench_result.work): each step timed
 * on the host around it, in seconds; BENCH_WORK_FLUSH is the L2 flushes' GPU time
 * (event-timed), within CHECK, WARMUP and SAMPLES, not a step of its own. */
typedef enum bench_work {
    BENCH_WORK_ARGS,    /* buffers allocated, inputs made (of which inputs_seconds) or restored */
    BENCH_WORK_POISON,  /* outputs poisoned */
    BENCH_WORK_LOAD,    /* the module loaded, its constants filled, unloaded */
    BENCH_WORK_RESET,   /* the resets before the checked run */
    BENCH_WORK_CHECK,   /* the checked run */
    BENCH_WORK_COMPARE, /* the outputs compared with the reference's */
    BENCH_WORK_WARMUP,  /* warm-ups and batch sizing */
    BENCH_WORK_SAMPLES, /* the timed samples */
    BENCH_WORK_ENERGY,  /* the energy window */
    BENCH_WORK_OTHER,   /* the rest of gpu_seconds */
    BENCH_WORK_FLUSH,   /* L2 flushes (within the above) */
    BENCH_WORK_COUNT
} bench_work;

/* What became of a run. */
typedef struct bench_result {
    outcome status;                      /* OUTCOME_OK unless something failed */
    char reason[512];                    /* "" when none */
    int registers, driver_blocks_per_sm; /* driver_blocks_per_sm: -1 when not loaded */
    bool timed, verified;
    meas_times times;
    int launches; /* every launch of the binary: checked run, warm-ups, timing (0: none) */
    double max_abs_error;
    double gpu_seconds, timing_seconds;
    /* energy (bench_set_energy), for a variant timed in full: */
    bool energy; /* measured: nrg holds it */
    energy_result nrg;
    char energy_error[256];        /* why it was not, when it should have been ("" otherwise) */
    double work[BENCH_WORK_COUNT]; /* where gpu_seconds went (bench_work); their sum, FLUSH
                                      aside, is gpu_seconds */
    double inputs_seconds;         /* of work[BENCH_WORK_ARGS], initial contents made (a fill, a file;
                                      the fill kernel's compile not included: bench_compile_seconds) */
    char inputs_note[512];         /* the `in` arguments found changed since they were restored
                                      (pristine_note), "" when none */
} bench_result;

typedef struct bench bench;

/* bench_open: the driver, device `ordinal`'s context (with an L2 flush buffer of
 * flush_bytes when > 0) and room for the arguments. `args` and `vf` are borrowed for
 * the bench's life; `arch` names the device's architecture (comparison kernels).
 * 0, or -1 with err_last set. */
int bench_open(bench **out, int ordinal, size_t flush_bytes, const char *arch, const bench_arg *args, int nargs,
               const bench_verify *vf);

/* bench_set_cache: the compile cache folder cutune's own kernels (fills, comparisons,
 * checkers) are compiled through (borrowed for the bench's life; NULL: none, the
 * default). */
void bench_set_cache(bench *b, const char *dir);

/* The compile jobs of cutune's own kernels that a bench of some arguments will need
 * (bench_helper_jobs), with their sources. Owns the sources (bench_helpers_free). */
enum { BENCH_MAX_HELPERS = 3 * (DT_UINT64 + 1) }; /* a fill, a comparison and a checker per type */
typedef struct bench_helpers {
    compile_job jobs[BENCH_MAX_HELPERS];
    char *sources[BENCH_MAX_HELPERS];
    int n;
} bench_helpers;

/* bench_helper_jobs (no device needed): into *out, every kernel of cutune's own that a
 * bench opened with `arch`, `args` and `vf` compiles (fill_job, cmp_job, chk_job): the
 * fill of each element type whose initial contents are made on the device, and, when
 * vf->present, the comparison and the built-in checker of each verified output's type.
 * Compiled ahead into the cache (runtime/cached.h), they are read, not compiled, when
 * the bench needs them. 0, or -1 with err_last set (out of memory; *out freed). */
int bench_helper_jobs(bench_helpers *out, const char *arch, const bench_arg *args, int nargs, const bench_verify *vf);

/* bench_helpers_free: releases the sources and zeroes *h. */
void bench_helpers_free(bench_helpers *h);

/* bench_device_info: the attributes of the bench's own device as its driver reads them
 * now (drv_device_info's terms): 0, or -1 with err_last set. */
int bench_device_info(bench *b, drv_device *out);

/* bench_compile_seconds: NVRTC's time so far for cutune's own kernels on this bench
 * (input fills, comparisons, checkers: runtime/builtin), apart from the steps that
 * needed them (a set-up's phases count it as compiling). */
double bench_compile_seconds(const bench *b);

/* bench_close: frees every buffer and kernel, closes the device; NULL is a no-op. */
void bench_close(bench *b);

/* bench_set_hooks: the resets to run before every launch of every binary
 * from now on (the reference's too), `specs` borrowed for the bench's life; kernels are
 * loaded here. With resets, each timed sample is one launch, the resets enqueued before
 * it (and before the L2 flush), outside the event pair. 0, or -1 with err_last set. */
int bench_set_hooks(bench *b, const hook_spec *specs, int n);

/* bench_set_energy: from now on, every variant timed in full (not pruned,
 * not provisional) is also launched back to back for `window_s` seconds with the GPU's
 * energy counter read around them (runtime/energy.h). 0, or -1 with err_last set when NVML or
 * the device's counter cannot be used: energy is then not measured, and each such
 * variant's energy_error says why; nothing else changes. */
int bench_set_energy(bench *b, double window_s);

/* bench_set_profile: the hardware counters bench_profile reads (`names`, n,
 * borrowed for the bench's life). CUPTI is loaded at the first bench_profile. */
void bench_set_profile(bench *b, const char *const *names, int n);

/* bench_profile: one profiled launch of the binary, apart from any timing: the
 * arguments prepared as for bench_run (every input restored: no verification follows),
 * the resets run and the L2 flushed (waited for), then the launch inside a
 * range-profiler session (runtime/profiler.h), replayed as its counters need. values (the bench_set_profile names' count) and *passes are
 * filled; when they cannot be, values are NaN and `why` says why (CUPTI missing, no
 * permission, the launch failed); `why` is "" on success. Returns -1 when the context
 * is lost (a sticky error), 1 when the profiler cannot be used at all (no CUPTI, no
 * permission: no variant's counters can be read), else 0. */
int bench_profile(bench *b, const bench_binary *bin, const bench_config *c, double *values, int *passes, char *why,
                  size_t whysize);

/* bench_run: prepares the arguments of `c` (every buffer at its count, initial contents
 * restored, outputs poisoned with 0xFF bytes), loads the binary, runs it once and, when
 * `ms` is given, compares the verified outputs with the reference's (when one is kept)
 * and times it: that checked run is timed too, as the race's first sample (meas_time);
 * when it was launched again, the verified outputs that are reset, or are integer `out`
 * buffers, are compared once more after its last launch (an output that changes from launch
 * to launch is wrong). With a verification, an `in` buffer restored for an earlier variant
 * and not suspected since is not copied again (runtime/pristine.h); when the outputs do not
 * agree and such a buffer is found changed, it is restored and the checked run made and
 * compared again, whose verdict stands, and out->inputs_note names it. Fills *out. Returns
 * -1 when the context is lost (a sticky error: nothing more can run in it), else 0
 * whatever the outcome. */
int bench_run(bench *b, const bench_binary *bin, const bench_config *c, const meas_settings *ms, bench_result *out);

/* Why the reference's outputs could not be kept. */
typedef enum bench_keep_error {
    BENCH_KEEP_COMPARE, /* a comparison kernel could not be prepared: err_last says why */
    BENCH_KEEP_DEVICE,  /* copying the output failed: err_last says why */
    BENCH_KEEP_NAN,     /* output `arg` has `nan` NaN elements of `count`, the first at `first` */
} bench_keep_error;

typedef struct bench_keep_failure {
    bench_keep_error kind;
    int arg;
    size_t nan, first;
    int64_t count;
} bench_keep_failure;

/* bench_keep_reference: after the reference's bench_run, keeps its verified outputs on
 * the device to compare variants' with. 0, or -1 with *fail. */
int bench_keep_reference(bench *b, bench_keep_failure *fail);

#endif
