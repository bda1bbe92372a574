/* reply.h - the GPU worker's answer to one request (runtime/worker's frames): the
 * outcome and the measurement itself, its fields those of the one list
 * (results/measurement_fields.h) whose origin is the worker (WORKER, SUMMED), so that a
 * field added there travels without another line here.
 *
 * Process: both. The worker (tuner/gw_main.c) fills and encodes a reply; the tuner
 * (tuner/gpu.c) decodes it and takes the measurement into a record
 * (result_take_measured). Decoded strings and arrays live in the arena given to
 * reply_decode. */
#ifndef CUTUNE_TUNER_REPLY_H
#define CUTUNE_TUNER_REPLY_H

#include <stdbool.h>

#include "../results/measurement.h"
#include "../runtime/outcome.h"
#include "../runtime/worker.h"

typedef struct reply {
    outcome status;       /* a number outside the enum decodes as OUTCOME_NOT_RUN */
    bool sticky;          /* the context is lost: the worker exits after replying */
    cutune_measurement m; /* its WORKER and SUMMED fields; strings "" when none; metrics
                                  (m.nmetrics of them, 0 unless timed) */
    /* a profile request's answer: the counters (m.nhw, m.hw: NaN where not read), the
     * replays (m.profile_passes), why not (m.profile_note, "" when none), and whether the
     * profiler itself cannot be used (no CUPTI, no permission) */
    bool profiler_off;
    /* where the worker's time on it went (runtime/bench's steps, as cutune_work counts
     * them: CUTUNE_WORK_REFERENCE unused), seconds */
    double work[CUTUNE_WORK_COUNT];
} reply;

/* reply_encode: appends the reply to the frame. reply_decode: reads the whole frame
 * into r (strings and arrays in `a`); 0, or -1 when the frame is not one reply
 * (worker.h's rules). */
void reply_encode(wk_frame *f, const reply *r);
int reply_decode(wk_frame *f, arena *a, reply *r);

#endif
