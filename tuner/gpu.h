/* gpu.h - the tuner's side of a GPU worker (gpu.c, prefix gpu_): runs in the tuner: the
 * worker's plan made (gpu_init), its process started, variants sent and replies received
 * over the pipe, the worker replaced after a hang, a crash or a sticky error. What runs
 * inside the worker is gw.h's. */
#ifndef CUTUNE_TUNER_GPU_H
#define CUTUNE_TUNER_GPU_H

#include "../results/result.h"
#include "../runtime/worker.h"
#include "../session/session.h"
#include "gw.h"

typedef struct gpu_handle {
    gw_plan plan;          /* what the worker inherits (read-only once made) */
    wk_proc proc;          /* pid 0: no worker runs */
    double sent_at;        /* sys_seconds() when the variant in hand was sent */
    bool send_failed;      /* it could not be sent (the worker had died): lost at the receive */
    double limit_s;        /* a variant's time limit; derived at the first start when 0 */
    double run_started;    /* sys_seconds() at gpu_init: the run's start */
    bool first_sent;       /* a variant has been sent to a worker (first_variant_seconds is set) */
    double setup_deadline; /* sys_seconds() by which a spawned worker's set-up must answer */
} gpu_handle;

/* gpu_init: prepares `g` for `spec` on GPU `device` (whose attributes are `dev`):
 * the plan (arguments, settings) and the time limit. CUTUNE_OK, CUTUNE_ENOMEM, or
 * CUTUNE_ESPEC with a diagnostic (a verified output whose size depends on params). */
int gpu_init(gpu_handle *g, cutune_spec *spec, const cutune_tune_options *opts, int device, const cutune_device *dev,
             bool flush, cutune_tune_result *res);

/* gpu_start: starts a worker and waits for its set-up (the reference's run): the
 * results learn the reference and its GPU time. CUTUNE_OK, or CUTUNE_ENOMEM (no process)
 * or CUTUNE_ENODEV (its set-up failed) with the thread's error set. The same as gpu_spawn, then
 * gpu_ready: several GPUs' workers are spawned first, so their references run at
 * once, and each GPU is taken as soon as its own set-up has answered (its pipe is
 * readable: tuner_ready, fleet.c). `waited`: the run waited for this answer and nothing
 * else, so the set-up's steps are counted into the run's phases (never more than the
 * wait); false for one taken among other answers. */
int gpu_start(gpu_handle *g);
int gpu_spawn(gpu_handle *g);
int gpu_ready(gpu_handle *g, bool waited);

/* The final race's screening of one contender (wk_request's samples, best_range):
 * after `samples` warm samples it stops, pruned, when clearly behind the race's best,
 * or pruned and tied when level with it (goal_screen), the best's noise in the
 * objective being best_range (goal_best_range). */
typedef struct gpu_screen {
    int samples; /* 1 .. GW_MAX_SAMPLES */
    double best_range;
} gpu_screen;

/* gpu_send: sends the variant of record `src` (its view and its typed values; binary
 * bin) to the worker, starting one when none runs, and notes in rec (src itself, or
 * another record that takes the answer) when and where it started; the reply is awaited with
 * gpu_receive, by gpu_deadline. have_best/best: for early stopping; final:
 * timed in full whatever the best (the run's final race), unless `screen` (NULL: none)
 * and have_best: screened against best first. CUTUNE_OK, or the status of gpu_start or
 * CUTUNE_ENOMEM, with the thread's error set (the run must stop). */
int gpu_send(gpu_handle *g, const session_binary *bin, const record *src, bool have_best, double best, bool final,
             const gpu_screen *screen, record *rec);

/* gpu_plain_values: configuration `vals` (n values) as a request carries it to the
 * worker, typed (out: n slots; strings borrowed): gw_request_values' inverse. */
void gpu_plain_values(const value *vals, int n, wk_value *out);

/* gpu_deadline: when the variant sent runs out of time (sys_seconds). */
double gpu_deadline(const gpu_handle *g);

/* gpu_receive: the reply to the variant sent, into rec, waiting for it until the
 * deadline; a hang, a crash or a sticky error is recorded against the variant and the
 * worker replaced for the next. */
void gpu_receive(gpu_handle *g, record *rec);

/* gpu_run: gpu_send, then gpu_receive. */
int gpu_run(gpu_handle *g, const session_binary *bin, const record *src, bool have_best, double best, bool final,
            const gpu_screen *screen, record *rec);

/* gpu_profile: the hardware counters of record src's variant (g->plan.nhw of them, into
 * values; NaN where not read) from a profiled launch in the worker, starting one when
 * none runs; *passes: the replays. When they could not be read, `why` says why (CUPTI,
 * the permission, a launch that failed, a worker that died or hung: it is replaced);
 * "" otherwise; *off: the profiler itself cannot be used (no variant's can be read).
 * CUTUNE_OK, or the status of gpu_start or CUTUNE_ENOMEM (the thread's error set). */
int gpu_profile(gpu_handle *g, const session_binary *bin, const record *src, double *values, int *passes, bool *off,
                char *why, size_t whysize);

/* gpu_free: ends the worker (if any) and frees what init allocated. */
void gpu_free(gpu_handle *g);

#endif
