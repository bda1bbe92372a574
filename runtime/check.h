/* check.h - verify's checkers beside compare.h's element-wise tolerance, all on the
 * device: the relative L2 norm ||got - want||2 / ||want||2, the largest distance in
 * units in the last place (floating-point types), and a checker kernel of the user's.
 *
 * A user checker is `extern "C" __global__ void NAME(const T *out, const T *ref,
 * unsigned long long n, double *score)`: cutune sets *score to 0, launches it with 256
 * threads per block and cdiv(n, 256) blocks (at most 2^31 - 1: a grid-stride loop covers
 * the rest), waits, and reads *score back; the output is accepted when the score is at
 * most the spec's `tol` (0 unless given). NaN is never accepted. */
#ifndef CUTUNE_RUNTIME_CHECK_H
#define CUTUNE_RUNTIME_CHECK_H

#include "compile.h"
#include "data.h"
#include "measure.h"

typedef enum chk_mode { CHK_L2, CHK_ULP, CHK_USER } chk_mode;

typedef struct chk_kernel {
    chk_mode mode;
    data_type type;
    meas_kernel k;
    CUdeviceptr result; /* CHK_L2: sum d^2, sum w^2 (doubles), NaNs; CHK_ULP: over-limit count, first,
                             max distance; CHK_USER: the score (a double) */
} chk_kernel;

/* What a check found. */
typedef struct chk_result {
    double score;        /* CHK_L2: the relative norm; CHK_ULP: the largest distance; CHK_USER: the score */
    size_t count, first; /* CHK_ULP: elements farther than the limit, the first of them */
    double got, want;    /* CHK_ULP: the first such element's values */
    size_t nan;          /* CHK_L2: NaN elements (either side) */
} chk_result;

/* chk_source: the built-in checker kernel's source for `mode` (CHK_L2 or CHK_ULP) and
 * `type` into buf (about 2 KB). */
void chk_source(chk_mode mode, data_type type, char *buf, size_t size);

/* chk_job: the built-in checker's compile job for mode (CHK_L2, CHK_ULP) and type on
 * `arch` into *job (builtin_job's); returns its source (heap: the caller frees it after
 * the job's last use), NULL when out of memory. */
char *chk_job(chk_mode mode, data_type type, const char *arch, compile_job *job);

/* chk_prepare: compiles (chk_job's, through the cache in `cache_dir`, NULL: none) and
 * loads the built-in checker for mode (CHK_L2, CHK_ULP) and type on `arch`. 0, or -1
 * with err_last set. */
int chk_prepare(meas_gpu *g, chk_mode mode, data_type type, const char *arch, const char *cache_dir, chk_kernel *out);

/* chk_load_user: loads a user checker from its cubin. 0, or -1 with err_last set. */
int chk_load_user(meas_gpu *g, const void *cubin, const char *symbol, data_type type, chk_kernel *out);

/* chk_run: checks n elements of `got` against `want` (device buffers); `limit` is the
 * ULP bound (elements beyond it are counted). Waits for it. 0, or -1 with err_last set. */
int chk_run(meas_gpu *g, chk_kernel *c, CUdeviceptr got, CUdeviceptr want, size_t n, double limit, chk_result *r);

/* chk_ulp_distance: the distance in units in the last place between two values of
 * floating-point type t given as their bits (host side of the kernel's rule, for
 * tests): 0 for equal values (+0 and -0 included), UINT64_MAX when either is NaN. */
unsigned long long chk_ulp_distance(data_type t, unsigned long long a, unsigned long long b);

/* chk_release: unloads the kernel and frees its result buffer. */
void chk_release(meas_gpu *g, chk_kernel *c);

#endif
