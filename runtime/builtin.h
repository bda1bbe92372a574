/* builtin.h - cutune's own helper kernels (comparison, input fill, checkers): compiled
 * with NVRTC, through the compile cache, from source text held in the library, and
 * loaded on the device. */
#ifndef CUTUNE_RUNTIME_BUILTIN_H
#define CUTUNE_RUNTIME_BUILTIN_H

#include "compile.h"
#include "data.h"
#include "measure.h"

/* builtin_elem: the CUDA spelling of element type t ("float", "__half", ...). */
const char *builtin_elem(data_type t);

/* builtin_job: one of cutune's own kernels as a compile job: program `name`, kernel
 * `symbol`, `source`, extra NVRTC options and `arch` (all borrowed). */
compile_job builtin_job(const char *name, const char *source, const char *symbol, const char *const *opts, int nopts,
                        const char *arch);

/* builtin_load: compiles `job` (builtin_job's) through the compile cache in folder
 * `cache_dir` (NULL: none; runtime/cached.h), so that a warm cache or a compile made
 * ahead (cache_ahead) serves it, and loads it into *out. `source` is the text the job's
 * maker (fill_job, cmp_job, chk_job) returned: freed here, whatever happens; NULL means
 * the maker ran out of memory (then job is not read). Returns 0, or -1 with err_last set
 * (the compiler's log when the kernel does not compile: a bug of cutune's, never of the
 * user's). */
int builtin_load(meas_gpu *g, char *source, const compile_job *job, const char *cache_dir, meas_kernel *out);

#endif
