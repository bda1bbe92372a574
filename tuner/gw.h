/* gw.h - the GPU worker: the tuner's code that runs inside the worker process.
 *
 * Process: the tuner (tuner/gpu.c) fills a gw_plan and forks the worker with gw_main as
 * its body (runtime/worker's wk_start); everything else declared here runs only in that
 * child, never in the tuner. The worker inherits the plan (its copy of the tuner's
 * memory at the fork: the model, the arguments made plain, the settings), opens the
 * device, prepares the spec's resets and checker (gw_hooks.c), runs the reference
 * (gw_reference.c), then serves one request per variant over the pipe (gw_main.c) until
 * the tuner closes it. CUDA is initialised here and only here (it does not survive a
 * fork).
 *
 * Ownership: the plan is the tuner's (gpu_handle.plan), read-only in the worker; a gw
 * (the worker's state) lives in the worker for its whole life, and what it allocates
 * dies with the process. */
#ifndef CUTUNE_TUNER_GW_H
#define CUTUNE_TUNER_GW_H

#include "../compiler/spec.h"
#include "../results/result.h"
#include "../runtime/bench.h"
#include "../runtime/cached.h"
#include "../runtime/worker.h"
#include "goal.h"

/* What a worker inherits: the model made plain for runtime/bench and the measurement
 * settings. Filled by the tuner before the fork (gpu_init), never changed after. */
typedef struct gw_plan {
    cutune_spec *spec; /* the worker adds its diagnostics to its own copy */
    const model *m;
    int device;
    const char *arch;
    bool expect_ok;     /* expect holds the device's attributes as the run knows them: */
    drv_device expect;  /* the worker checks its own against them (gw_main.c) */
    const char *memo;   /* the device memo they came from (runtime/devices.h), or NULL */
    int token[2];       /* the driver's start token shared by the run's workers (tuner.c's
                           spawn_gpus), or -1: the driver starts as soon as the worker runs */
    size_t flush_bytes; /* the L2 flush buffer (0: no flush) */
    meas_settings ms;   /* worse/worse_ctx are set by the worker, to its goal */
    goal_state goal;    /* the pruning factor; the best so far comes with each request */
    bench_arg *args;    /* the model's arguments, plain (owned by the tuner) */
    int *outputs;
    bench_verify vf;             /* the checker's binary is added by the worker (gw_hooks_prepare) */
    bool energy;                 /* energy of every variant timed in full */
    const char *const *hw_names; /* the counters a profile request reads (the options'), */
    int nhw;                     /* 0: none */
    cutune_tune_result *res;     /* the worker writes the reference's run into its copy */
    char *cache_dir;             /* the compile cache the set-up's kernels are compiled through
                                    (the reference, resets, checker, cutune's own; heap, the
                                    tuner's; NULL: none) */
} gw_plan;

/* The worker's state, in the worker process only. */
typedef struct gw {
    const gw_plan *p;
    bench *b;         /* the device */
    goal_state goal;  /* p->goal with the best so far of the request in hand */
    meas_settings ms; /* p->ms judged by this goal */
    bench_verify vf;  /* p->vf with the checker kernel's binary (bench keeps a pointer) */
    int64_t *counts;  /* scratch: a configuration's buffer sizes and scalar values */
    value *scalars, *vals;
    bench_scalar *plain;
    double *hw_values;     /* scratch for the counters a profile request reads */
    hook_spec *hooks;      /* the resets made plain (gw_hooks.c) */
    compile_output *extra; /* the binaries of the spec's reset and checker kernels */
    int nextra;
    /* the set-up's time (wk_setup's account): the reference's compile and the inputs its
     * run made (gw_reference) */
    double ref_compile_s, ref_inputs_s;
    /* the set-up's kernels compiled ahead while the driver starts (gw_main.c): the jobs,
     * their sources and strings, the threads */
    bench_helpers helpers;
    compile_job *ahead_jobs;
    char **ahead_sources;
    int nahead;
    arena *ahead_arena;
    cache_ahead *ahead;
} gw;

/* gw_main: the worker's body (a wk_body; ctx: the inherited gw_plan): set-up, its reply
 * (wk_setup), then one reply per request until EOF. Never returns but by exiting, its
 * standard streams let go first (wk_drop_stdio) and nothing freed one by one (the driver
 * reclaims the context at the exit): 0 at EOF, 1 when its set-up failed, 3 after a
 * sticky CUDA error, 2 or 4 when the pipe or memory failed. */
int gw_main(void *ctx, int in, int out);

/* gw_visible_device: the entry of CUDA_VISIBLE_DEVICES (`visible`, NULL when unset)
 * that makes GPU `device` (an ordinal as the tuner's driver numbers them, under that
 * same variable) the only one a worker sees, into out (size bytes): the device-th entry
 * of the list, or the ordinal itself when there is none. 0, or -1 when it cannot be
 * told (no such entry, or too long): the worker then sees what the tuner sees. */
int gw_visible_device(const char *visible, int device, char *out, size_t size);

/* The most samples after which a request may ask to be screened (wk_request.samples):
 * a larger count is not a request of the tuner's. */
#define GW_MAX_SAMPLES 1000

/* gw_request_values: request q's configuration, typed on the wire, as model m's values
 * into out (nparams slots; strings borrowed from q): the configuration in hand, never
 * read from text (gpu_plain_values' inverse). -1 when it is not one of m's: a count or
 * a type that disagrees with the params. */
int gw_request_values(const model *m, const wk_request *q, value *out);

/* gw_plain_args: the configuration's argument values (w->scalars) as bench scalars. */
void gw_plain_args(gw *w, bench_config *out);

/* gw_hooks_prepare (after bench_open, before the reference): compiles the spec's reset
 * kernels and checker kernel, hands the resets to the bench and the checker's binary
 * to w->vf. CUTUNE_OK, or a status with a diagnostic on the spec (a kernel that does
 * not compile) or the thread's error set (base/err: the device). */
int gw_hooks_prepare(gw *w);

/* gw_hooks_jobs (no device; nothing reported): the compile jobs of the spec's reset
 * kernels and checker kernel appended to jobs[*n..] and their sources (malloc'd: the
 * caller frees them) to sources[*n..], *n advanced: room for m->nresets + 1 is needed. A
 * kernel whose job cannot be made is left out (gw_hooks_prepare says why). */
void gw_hooks_jobs(gw *w, arena *a, compile_job *jobs, char **sources, int *n);

/* gw_reference_job (no device; nothing reported): the reference's compile job, as
 * gw_reference makes it, into *job, its strings in `a` and its source read into *source
 * (malloc'd: the caller frees it, also on failure). CUTUNE_OK, or a status (gw_reference
 * says why). */
int gw_reference_job(gw *w, arena *a, compile_job *job, char **source);

/* gw_reference: runs the reference (a configuration, or a kernel of its own) once and
 * keeps its verified outputs on the device; the results' reference and GPU time are
 * set (in the worker's copy: the set-up reply carries them). CUTUNE_OK, or a status
 * with a diagnostic on the spec. */
int gw_reference(gw *w);

#endif
