/* energy.c - energy per launch over a window of launches (energy.h). */
#include <stdio.h>
#include <string.h>

#include "../base/sys.h"
#include "../base/err.h"
#include "energy.h"

enum { MIN_LAUNCHES = 3 };
#define SLICE_S 0.02 /* launches queued between waits: the host keeps ~20 ms ahead */

int energy_window(meas_gpu *g, const meas_kernel *k, const meas_launch *l, nvml *p, double window_s, double median_ms,
                  int (*before)(void *ctx), void *ctx, energy_result *out)
{
    memset(out, 0, sizeof *out);
    /* launches per slice, from the timed median (at least 1) */
    int slice = median_ms > 0 ? (int)(SLICE_S * 1000.0 / median_ms) : 1;
    if (slice < 1)
        slice = 1;
    uint64_t e0, e1;
    if (meas_sync(g) < 0 || nvml_energy_mj(p, &e0) < 0)
        return -1;
    double t0 = sys_seconds(), t = t0;
    int n = 0;
    while (n < MIN_LAUNCHES || t - t0 < window_s) {
        for (int i = 0; i < slice; i++, n++)
            if ((before && before(ctx) < 0) || meas_enqueue(g, k, l) < 0)
                return -1;
        if (meas_sync(g) < 0)
            return -1;
        t = sys_seconds();
    }
    if (nvml_energy_mj(p, &e1) < 0)
        return -1;
    if (e1 <= e0) {
        err_set(-1, "the GPU's energy counter did not move over %.3f s of launches (%llu mJ)", t - t0,
                (unsigned long long)e0);
        return -1;
    }
    out->launches = n;
    out->seconds = t - t0;
    out->joules = (double)(e1 - e0) / 1000.0;
    out->joules_per_launch = out->joules / n;
    out->watts = out->seconds > 0 ? out->joules / out->seconds : 0;
    return 0;
}
