/* energy.h - a variant's energy per launch, from the GPU's energy counter (runtime/nvml)
 * read around a window of back-to-back launches.
 *
 * Why a window: NVML's counter is the device's total energy, updated every few tens
 * of milliseconds, so one launch of a microsecond kernel cannot be read from it. The
 * kernel is launched back to back (the spec's resets before each, as in timing; no L2
 * flush: the steady state of a kernel run over and over) for at least the window, the
 * stream waited for in slices, and the counter read before the first launch and after
 * the last. The energy is the whole board's over the window, idle parts included, so
 * the figure is energy per launch as the GPU draws it when it does nothing else. */
#ifndef CUTUNE_RUNTIME_ENERGY_H
#define CUTUNE_RUNTIME_ENERGY_H

#include "measure.h"
#include "nvml.h"

typedef struct energy_result {
    int launches;   /* in the window */
    double seconds; /* the window's length, first launch to last end (host clock) */
    double joules;  /* the counter's difference */
    double joules_per_launch, watts;
} energy_result;

/* energy_window: launches k (one launch per `median_ms` estimated) for at least
 * `window_s` seconds and at least 3 launches, calling before(ctx) ahead of
 * each when set (the resets), reading p's counter around them. 0, or -1 with err_last set (a
 * launch, the stream or NVML failed; a counter that did not move over the window is an
 * error too: no energy can be derived). */
int energy_window(meas_gpu *g, const meas_kernel *k, const meas_launch *l, nvml *p, double window_s, double median_ms,
                  int (*before)(void *ctx), void *ctx, energy_result *out);

#endif
