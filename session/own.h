/* own.h - the spec's own kernels: those a spec names that are not variants (the
 * reference kernel, reset kernels, a checker kernel), compiled with NVRTC as tuning
 * compiles them. No GPU is needed: analyze checks them here, and the GPU worker
 * compiles them at its set-up. */
#ifndef CUTUNE_SESSION_OWN_H
#define CUTUNE_SESSION_OWN_H

#include <stdbool.h>

#include "../compiler/spec.h"
#include "../runtime/compile.h"

/* own_options: the compile options of a kernel of the spec's own (model m): the common
 * options, constant lets `as define`, and the include folders, in `a`, with room for
 * two more. *out and *n are set; CUTUNE_OK or CUTUNE_ENOMEM. */
int own_options(const model *m, arena *a, const char ***out, int *n);

/* own_source: the kernel file `file` read into *source (malloc'd: the caller frees it),
 * and "-I" with the file's folder (for its quoted includes; "-I." when the path names
 * none) into *dir_opt, in `a`. The one reader of a spec's own kernel file: own_compile
 * and the GPU worker's reference (tuner/gw_reference.c). CUTUNE_OK; CUTUNE_EIO when the
 * file cannot be read (*source NULL, errno says why); CUTUNE_ENOMEM. */
int own_source(const char *file, arena *a, char **source, const char **dir_opt);

/* own_job: kernel `k`'s compile job (its name and template arguments, from its file)
 * with own_options for `arch` into *job, its strings in `a` but the source, read into
 * *source (malloc'd: the caller frees it, also on failure). Adds no diagnostic: the
 * GPU worker makes these jobs before its driver starts, to compile them ahead
 * (runtime/cached.h), and own_compile says what failed. CUTUNE_OK; CUTUNE_EEVAL (*e
 * says why: the template arguments); CUTUNE_EIO (the file, errno says why);
 * CUTUNE_ENOMEM. */
int own_job(const model *m, const char *arch, const m_kernel_ref *k, arena *a, compile_job *job, char **source,
            eval_error *e);

/* own_compile: compiles kernel `k` (own_job's) through the compile cache in folder
 * `cache_dir` (NULL: none; runtime/cached.h) into *out (kept by the caller:
 * compile_output_free). 0, or a status with a diagnostic on the spec at `loc` (an
 * error, or a warning when `warn`: analyze without a GPU); `what` names the kernel in
 * messages ("reset kernel"). */
int own_compile(cutune_spec *spec, const char *arch, const char *cache_dir, bool warn, const m_kernel_ref *k, span loc,
                const char *what, compile_output *out);

/* own_check (no GPU needed: analyze): compiles the spec's reset kernels and checker
 * kernel for `arch` as tuning will, and adds a warning on the spec for each that does
 * not (a GPU run would stop on it). Returns how many failed, or CUTUNE_ENOMEM /
 * CUTUNE_EEVAL (a diagnostic on the spec). */
int own_check(cutune_spec *spec, const char *arch);

#endif
