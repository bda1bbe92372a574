/* builtin.h - cutune's own helper kernels (comparison, input fill): compiled with NVRTC
 * from source text held in the library, loaded on the device. */
#ifndef CUTUNE_RUNTIME_BUILTIN_H
#define CUTUNE_RUNTIME_BUILTIN_H

#include "data.h"
#include "measure.h"

/* builtin_elem: the CUDA spelling of element type t ("float", "__half", ...). */
const char *builtin_elem(data_type t);

/* builtin_load: compiles `source` (program name `name`, kernel `symbol`, extra NVRTC
 * options) for `arch` and loads it into *out. Returns 0, or -1 with err_last set (the compiler's
 * log when the kernel does not compile: a bug of cutune's, never of the user's). */
int builtin_load(meas_gpu *g, const char *name, const char *source, const char *symbol, const char *const *opts,
                 int nopts, const char *arch, meas_kernel *out);

#endif
