/* devices.h - what the driver says of the machine's GPUs, asked in a child process.
 *
 * The answer of an earlier process on the same machine is used when runtime/devmemo
 * kept one under this machine's key (CUTUNE_DEVICE_MEMO=0: never); else the process
 * that asks never initialises CUDA itself: a short-lived child (runtime/
 * worker's wk_start) opens the driver, reads every device's attributes and sends them
 * back as one blob, then exits (the tuner forks its GPU workers later, and CUDA does
 * not survive a fork). The answer is kept for the rest of the process once the driver
 * has given one; a failure is asked again next time. When no child can be started the
 * driver is asked in this process. The child's messages (why the driver did not answer,
 * why a device's attributes could not be read) follow its answer in a second frame.
 *
 * Runs in the calling process; devices_query's child runs only ask_driver (devices.c). */
#ifndef CUTUNE_RUNTIME_DEVICES_H
#define CUTUNE_RUNTIME_DEVICES_H

#include <stdbool.h>
#include <stdint.h>

#include "driver.h"

/* The devices asked of: the first DEVICES_ASKED. */
enum { DEVICES_ASKED = 64 };

/* One device's answer. */
typedef struct devices_one {
    bool ok; /* its attributes were read (else devices_why says why) */
    drv_device raw;
} devices_one;

/* The machine's answer. Plain memory (it crosses the pipe as bytes). */
typedef struct devices {
    bool answered;      /* the driver answered: count is right */
    bool oom;           /* not answered because memory ran out */
    int count;          /* devices the driver sees (may exceed DEVICES_ASKED) */
    int driver_version; /* the driver's CUDA version (13000 for 13.0) */
    uint32_t why_bytes; /* the size of the messages' frame that follows (devices.c) */
    devices_one d[DEVICES_ASKED];
} devices;

/* devices_query: the machine's answer into *out (the caller's, about 24 KiB), asked
 * once per process (thread-safe: one thread asks, the others wait for its answer).
 * CUTUNE_OK when the driver answered; else CUTUNE_ENODEV (no driver, it failed, the
 * query process died) or CUTUNE_ENOMEM, with the thread's error (base/err.h) saying why. */
int devices_query(devices *out);

/* devices_name / devices_arch: device `ordinal`'s name ("NVIDIA H100 80GB HBM3") and
 * architecture ("sm_90") in the answer this process keeps: valid for the rest of the
 * process (the public cutune_device points at them). NULL before the driver answered,
 * out of range, or for a device whose attributes could not be read. */
const char *devices_name(int ordinal);
const char *devices_arch(int ordinal);

/* devices_why: why the attributes of device `ordinal` could not be read, in the answer
 * this process keeps (valid for the rest of the process); NULL when they were, or
 * before the driver answered. */
const char *devices_why(int ordinal);

/* devices_raw: device `ordinal`'s attributes in the answer this process keeps into
 * *out; false (nothing written) where devices_name would be NULL. */
bool devices_raw(int ordinal, drv_device *out);

/* devices_memo_path: the file the answer this process keeps was read from, when it
 * came from the memo of an earlier process (runtime/devmemo.h) rather than from the
 * driver; NULL otherwise. Valid for the rest of the process (a GPU worker that finds
 * its device unlike the answer removes it: tuner/gw_main.c). */
const char *devices_memo_path(void);

/* devices_query_time: how long the query whose answer this process keeps took (the
 * child's start, the driver's initialisation), in seconds, and when it ended
 * (sys_seconds); false (both 0) before the driver answered. */
bool devices_query_time(double *seconds, double *at);

#endif
