/* devices.h - what the driver says of the machine's GPUs, asked in a child process.
 *
 * The process that asks never initialises CUDA itself: a short-lived child (runtime/
 * worker's wk_start) opens the driver, reads every device's attributes and sends them
 * back as one blob, then exits (the tuner forks its GPU workers later, and CUDA does
 * not survive a fork). The answer is kept for the rest of the process once the driver
 * has given one; a failure is asked again next time. When no child can be started the
 * driver is asked in this process.
 *
 * Runs in the calling process; devices_query's child runs only ask_driver (devices.c). */
#ifndef CUTUNE_RUNTIME_DEVICES_H
#define CUTUNE_RUNTIME_DEVICES_H

#include <stdbool.h>

#include "driver.h"

/* The devices asked of: the first DEVICES_ASKED. */
enum { DEVICES_ASKED = 64 };

/* One device's answer. */
typedef struct devices_one {
    bool ok;                   /* its attributes were read (else err says why) */
    char err[256];
    drv_device raw;
} devices_one;

/* The machine's answer. Plain memory (it crosses the pipe as bytes). */
typedef struct devices {
    bool answered;             /* the driver answered: count is right */
    bool oom;                  /* not answered because memory ran out */
    int count;                 /* devices the driver sees (may exceed DEVICES_ASKED) */
    int driver_version;        /* the driver's CUDA version (13000 for 13.0) */
    char err[512];             /* why not answered */
    devices_one d[DEVICES_ASKED];
} devices;

/* devices_query: the machine's answer into *out (the caller's, about 24 KiB), asked
 * once per process (thread-safe: one thread asks, the others wait for its answer). */
void devices_query(devices *out);

/* devices_name / devices_arch: device `ordinal`'s name ("NVIDIA H100 80GB HBM3") and
 * architecture ("sm_90") in the answer this process keeps: valid for the rest of the
 * process (the public cutune_device points at them). NULL before the driver answered,
 * out of range, or for a device whose attributes could not be read. */
const char *devices_name(int ordinal);
const char *devices_arch(int ordinal);

#endif
