/* outcome.h - what became of one variant: the one status enum of the engine.
 *
 * Inside the library a variant's status is an `outcome`; strings exist only at the
 * edges (results files, the journal, the public structs, the worker's pipe carries the
 * enum's number). The names are the results format's (docs/results-format.md) and must
 * not change: stored results and journals are read back by them. */
#ifndef CUTUNE_RUNTIME_OUTCOME_H
#define CUTUNE_RUNTIME_OUTCOME_H

#include <stdbool.h>

typedef enum outcome {
    OUTCOME_OK,            /* ran, verified (or nothing to verify), timed */
    OUTCOME_WRONG,         /* ran, outputs differ from the reference's */
    OUTCOME_COMPILE_ERROR, /* NVRTC refused it */
    OUTCOME_CANNOT_LAUNCH, /* its geometry or resources exceed the device */
    OUTCOME_LOAD_ERROR,    /* the driver would not load its module */
    OUTCOME_LAUNCH_ERROR,  /* a launch or a run failed (a fault, a trap) */
    OUTCOME_NOT_RUN,       /* not (yet) run: the state of a new record */
    OUTCOME_TIMEOUT,       /* ran past its time limit; the worker was replaced */
    OUTCOME_CRASHED,       /* the worker died while running it */
} outcome;

#define OUTCOME_COUNT 9

/* outcome_name: the outcome as results files spell it ("ok", "compile error", ...);
 * "not run" for a value outside the enum. */
const char *outcome_name(outcome o);

/* outcome_from_name: sets `*out` to the outcome spelled `name`; false (`*out`
 * untouched) when `name` is NULL or no outcome's name. */
bool outcome_from_name(const char *name, outcome *out);

#endif
