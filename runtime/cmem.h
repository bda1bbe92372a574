/* cmem.h - __constant__ memory: the variables a CUDA source declares `__constant__`
 * (found by reading the text, for `check`'s warning), and a loaded module's symbol filled
 * from a device buffer before a variant runs (a spec's `arg NAME : constant T[N]`).
 *
 * Why a scan of the text and not the compiled module's globals: `check` compiles
 * nothing, and a module's globals include the __device__ variables too, which need no
 * filling. The scan reads the code as the compiler would see it less the preprocessor:
 * comments, string and character literals and preprocessor lines are skipped, and
 * conditional compilation is ignored (a declaration inside `#if 0` counts; one that a
 * macro expands to does not). */
#ifndef CUTUNE_RUNTIME_CMEM_H
#define CUTUNE_RUNTIME_CMEM_H

#include <stdbool.h>
#include <stddef.h>

#include "measure.h"

/* cmem_found: one declared variable: its name (name[0..len), not terminated), the line
 * it is on (1-based) and whether the declaration initialises it (`= {...}`). Returns 0
 * to go on, anything else to stop the scan. */
typedef int (*cmem_found)(void *user, const char *name, size_t len, int line, bool initialised);

/* cmem_scan: calls found for every variable that text[0..len) declares __constant__, in
 * order (`__constant__ float a[4], b;` gives a and b; `static __constant__ int k = 3;`
 * gives k, initialised). Returns 0, or found's non-zero value when it stopped the scan. Pure. */
int cmem_scan(const char *text, size_t len, cmem_found found, void *user);

/* cmem_fill: copies `bytes` bytes from device buffer `src` into the __constant__
 * symbol `name` of the loaded module `mod`, and waits for the copy. Returns 0; -1 with
 * err_last set when a driver call fails (the context may be lost: meas_sticky); -2 with
 * err_last set when the module has no global of that name, or one smaller than `bytes`
 * (both sizes named): the variant's failure, not the device's. */
int cmem_fill(meas_gpu *g, CUmodule mod, const char *name, CUdeviceptr src, size_t bytes);

#endif
