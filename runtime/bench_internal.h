/* bench_internal.h - what runtime/bench's two files share (bench.c: the device, the
 * checked run, comparison and timing; bench_args.c: a configuration's arguments on the
 * device, the `in` buffers kept and checked). Private to them: nothing else includes it.
 *
 * Ownership: a bench owns its slots, every device buffer in them and every kernel of
 * cutune's own it loaded; the arguments and verification it describes are borrowed
 * (bench_open). */
#ifndef CUTUNE_RUNTIME_BENCH_INTERNAL_H
#define CUTUNE_RUNTIME_BENCH_INTERNAL_H

#include "../base/sys.h"
#include "bench.h"
#include "pristine.h"
#include "profiler.h"

/* The device side of one argument. */
typedef struct slot {
    int64_t count;   /* elements in the current configuration */
    size_t bytes;    /* their bytes (bench_prepare_args) */
    size_t capacity; /* bytes allocated in dev and pristine */
    CUdeviceptr dev, pristine;
    int64_t pristine_count; /* elements of initial contents in pristine */
    CUdeviceptr ref;        /* the reference's output, on the device (verified outputs) */
    int64_t ref_count;
    cmp_kernel *cmp; /* compares it with a variant's */
    unsigned char scalar[8];
    void *argv_unused; /* where a constant argument's pointer goes: it is no kernel parameter */
    pristine_state in; /* an `in` buffer's device copy against its pristine one (pristine.h) */
} slot;

/* Owns the device (driver, context), every buffer and comparison kernel. */
struct bench {
    drv *d;
    meas_gpu *g;
    const char *arch;
    const char *cache_dir; /* cutune's own kernels are compiled through it (NULL: none) */
    const bench_arg *args;
    int nargs;
    const bench_verify *vf;
    slot *slots;
    void **argv;
    cmp_kernel cmps[DT_UINT64 + 1]; /* one per element type in use */
    bool cmp_ready[DT_UINT64 + 1];
    fill_kernel fills[DT_UINT64 + 1]; /* initial contents, made on the device: one per type in use */
    bool fill_ready[DT_UINT64 + 1];
    /* resets before every launch, the buffers as they see them, the checkers */
    hook_set *hooks;
    hook_buffer *hook_bufs;
    chk_kernel chks[DT_UINT64 + 1];
    bool chk_ready[DT_UINT64 + 1];
    nvml *power; /* the energy counter (NULL: energy not measured) */
    double energy_window_s;
    char energy_off[256]; /* why energy was asked for and cannot be measured ("" otherwise) */
    /* hardware counters (bench_set_profile), the profiler opened at the first
     * bench_profile; prof_off: why it cannot be ("" while it may) */
    const char *const *prof_names;
    int nprof;
    prof *prof;
    char prof_off[512];
};

/* The seconds since *mark, and *mark moved to now: consecutive steps timed apart. */
static inline double bench_lap(double *mark)
{
    double t = sys_seconds(), d = t - *mark;
    *mark = t;
    return d > 0 ? d : 0;
}

/* bench_prepare_args: makes every buffer hold configuration c's count, initial contents
 * restored and outputs poisoned, and every scalar its value; *made and *poison (when not
 * NULL) get the seconds spent making initial contents and poisoning outputs added. lazy
 * (a verification follows): an `in` buffer restored before and not suspected since keeps
 * its device copy (pristine_skip). 0, or -1 with err_last set. */
int bench_prepare_args(bench *b, const bench_config *c, double *made, double *poison, bool lazy);

/* bench_cmp_for: the comparison kernel of `type`, prepared at its first use (compiled
 * through the cache); NULL with err_last set when it cannot be. */
cmp_kernel *bench_cmp_for(bench *b, data_type type);

/* bench_inputs_changed: the `in` buffers this variant kept (pristine_skip) compared byte
 * for byte with their pristine copies (pristine_words): those that differ are suspected
 * from now on and named in out->inputs_note. How many differ, or -1 when a comparison
 * failed (err_last set). */
int bench_inputs_changed(bench *b, bench_result *out);

#endif
