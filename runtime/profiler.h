/* profiler.h - hardware counters of one launch through CUPTI's range profiler,
 * loaded at run time like the driver (dlopen("libcupti.so.13"); never linked): the same
 * binary runs, and says why it reads no counters, where CUPTI is missing.
 *
 * Why CUPTI and not Nsight Compute's CLI: ncu can only profile a process it starts, and
 * every CUDA call of cutune's happens in a worker forked from the tuner (runtime/worker),
 * which ncu cannot attach to; re-starting cutune under ncu would set up the arguments and
 * the reference a second time and parse another program's CSV. CUPTI runs inside the
 * worker that already holds the variant's buffers, and its kernel replay saves and
 * restores device memory between passes as ncu's does. The metric names are the same.
 *
 * Each measurement is one launch inside a range-profiler session of its own (auto
 * range: one range, the launch; kernel replay: CUPTI launches it once per pass it needs
 * and restores memory between them). Clocks are left as they are (ncu's
 * --clock-control none). What is read is a separate, profiled run: it never counts
 * towards a variant's times.
 *
 * Without a GPU, prof_check_names validates metric names against a chip's list (the
 * host half of CUPTI needs no device), so a typo is reported before a run starts. */
#ifndef CUTUNE_RUNTIME_PROFILER_H
#define CUTUNE_RUNTIME_PROFILER_H

#include <stdbool.h>
#include <stddef.h>

#include <cuda.h>

/* The default set: the seeds' nvprof table in today's names (docs/results-format.md
 * has the mapping). */
enum { PROF_NDEFAULT = 8 };
extern const char *const prof_default_names[PROF_NDEFAULT];

/* prof_nvprof_name: the nvprof metric a default metric stands for ("achieved_occupancy"),
 * or NULL for any other name. */
const char *prof_nvprof_name(const char *metric);

/* prof_chip_of_arch: CUPTI's chip name for an architecture ("sm_90" -> "GH100"), or NULL
 * when cutune does not know it (names are then checked on the device only). */
const char *prof_chip_of_arch(const char *arch);

/* prof_check_names: checks each of the n metric names against chip `chip`'s list, with
 * CUPTI's host API (no GPU). SASS-patched metrics (smsp__sass_*: Nsight Compute
 * instruments the kernel's code for them; the range profiler does not, and evaluates
 * them to meaningless values) are refused. 0: all known; 1: name *bad is unknown or
 * refused (err_last says why);
 * -1: CUPTI could not be used (err_last says why: no library, an unsupported chip). */
int prof_check_names(const char *chip, const char *const *names, int n, int *bad);

/* prof_list: calls `each` with every base metric of chip `chip` and its kind ("counter",
 * "ratio", "throughput"); a base metric is read with a suffix (.sum, .avg,
 * .pct_of_peak_sustained_elapsed...: CUPTI's metric naming). 0, or -1 with err_last set. */
int prof_list(const char *chip, void (*each)(void *user, const char *name, const char *kind), void *user);

typedef struct prof prof;

/* prof_open (in a process with CUDA initialised): counters `names` (n, borrowed for the
 * profiler's life) of launches in context `ctx` of device `ordinal`: CUPTI loaded, its
 * profiler initialised and the counter configuration built. 0, or -1 with err_last set (no
 * library, no permission to read the counters, an unsupported device, an unknown
 * name); *out is NULL on failure. */
int prof_open(prof **out, CUcontext ctx, int ordinal, const char *const *names, int n);

/* prof_passes: how many replays of a launch the configuration needs. */
int prof_passes(const prof *p);

/* prof_measure: the counters of the one kernel `launch` runs (it enqueues the launch and
 * waits for it, returning 0 or -1 with err_last set; nothing else may run a kernel in between).
 * values (n of them) are NaN where one could not be evaluated. 0, or -1 with err_last set (the
 * launch failed: *launch_failed is set then; or the profiler did). */
int prof_measure(prof *p, int (*launch)(void *user), void *user, double *values, bool *launch_failed);

/* prof_close: ends the profiler and unloads CUPTI; NULL is a no-op. */
void prof_close(prof *p);

#endif
