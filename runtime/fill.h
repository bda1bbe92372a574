/* fill.h - an argument's initial contents made on the GPU itself.
 *
 * data_fill (data.h) makes them on the host: for the seeds' matrix add that is 2 GiB
 * of random floats, made on one core and uploaded, most of a run's fixed cost. The
 * fill kernel computes the very same values on the device: the same counter-based
 * generator (element i of stream `seed` is a function of both alone), the same double
 * arithmetic (compiled with --fmad=false, as the host's C11 build does not contract
 * either), the same conversions to the element type. So an input is identical bit for
 * bit wherever it is made, and results stay reproducible across the two paths. */
#ifndef CUTUNE_RUNTIME_FILL_H
#define CUTUNE_RUNTIME_FILL_H

#include "compile.h"
#include "data.h"
#include "measure.h"

typedef struct fill_kernel {
    data_type type;
    meas_kernel k;
} fill_kernel;

/* fill_source: the fill kernel's source for `type` into buf (about 2 KB). */
void fill_source(data_type type, char *buf, size_t size);

/* fill_options: the NVRTC options the fill kernel must be compiled with (NULL-ended;
 * static strings). */
const char *const *fill_options(int *n);

/* fill_job: the fill kernel's compile job for `type` on `arch` into *job (builtin_job's);
 * returns its source (heap: the caller frees it after the job's last use), NULL when out
 * of memory. */
char *fill_job(data_type type, const char *arch, compile_job *job);

/* fill_prepare: compiles (fill_job's, through the cache in `cache_dir`, NULL: none) and
 * loads the fill kernel for `type` on `arch`. Returns 0, or -1 with err_last set. */
int fill_prepare(meas_gpu *g, data_type type, const char *arch, const char *cache_dir, fill_kernel *out);

/* fill_run: writes `count` elements at `dst` (a device buffer of the kernel's type) as
 * data_fill would with `f`; zeros are a memset. Waits for it. Returns 0, or -1 with
 * err_last. */
int fill_run(meas_gpu *g, const fill_kernel *fk, CUdeviceptr dst, size_t count, const data_fill_spec *f);

/* fill_release: unloads the kernel. */
void fill_release(meas_gpu *g, fill_kernel *fk);

#endif
