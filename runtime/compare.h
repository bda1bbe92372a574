/* compare.h - comparing an output with the reference on the GPU itself.
 *
 * Downloading a 1 GiB output to compare it on the host costs far more than the
 * kernel that produced it; a grid-stride comparison kernel (compiled once per element
 * type with NVRTC) reads both buffers at device bandwidth and returns only the count
 * of elements outside the tolerance, the first one's index and the largest error. */
#ifndef CUTUNE_RUNTIME_COMPARE_H
#define CUTUNE_RUNTIME_COMPARE_H

#include "compile.h"
#include "data.h"
#include "measure.h"

typedef struct cmp_kernel {
    data_type type;
    meas_kernel k;
    CUdeviceptr result; /* 3 x 64-bit: mismatches, first index, max |error| as double bits */
} cmp_kernel;

/* cmp_source: the comparison kernel's source for `type` (about 2 KB) into buf. */
void cmp_source(data_type type, char *buf, size_t size);

/* cmp_job: the comparison kernel's compile job for `type` on `arch` into *job
 * (builtin_job's); returns its source (heap: the caller frees it after the job's last
 * use), NULL when out of memory. */
char *cmp_job(data_type type, const char *arch, compile_job *job);

/* cmp_prepare: compiles (cmp_job's, through the cache in `cache_dir`, NULL: none) and
 * loads the comparison kernel for `type` on `arch`. 0, or -1 with err_last set. */
int cmp_prepare(meas_gpu *g, data_type type, const char *arch, const char *cache_dir, cmp_kernel *out);

/* cmp_run: compares n elements of `got` with `want` (device buffers): an element passes
 * when |got - want| <= atol + rtol * |want| and neither is NaN. Fills *m (got and want
 * of the first mismatch are read back). Returns 0, or -1 with err_last set. */
int cmp_run(meas_gpu *g, cmp_kernel *c, CUdeviceptr got, CUdeviceptr want, size_t n, double atol, double rtol,
            data_mismatch *m);

/* cmp_read_pair: element i of `got` and of `want` (device buffers of `type`), read back
 * as doubles: a mismatch's values for its message. 0, or -1 with err_last set. */
int cmp_read_pair(meas_gpu *g, data_type type, CUdeviceptr got, CUdeviceptr want, size_t i, double *got_v,
                  double *want_v);

/* cmp_release: unloads the kernel and frees its result buffer. */
void cmp_release(meas_gpu *g, cmp_kernel *c);

#endif
