/* cutune.h - the public C API of cutune, a CUDA kernel autotuner.
 *
 * Everything the `cutune` command does goes through this header. Conventions
 * (after libgit2): objects are opaque; constructors are `cutune_x_new(&out, ...)`-like
 * and destructors `cutune_x_free(x)` accept NULL; functions that can fail return an
 * int status (CUTUNE_OK or a negative cutune_status); the library never prints and
 * never exits. Problems with a spec are recorded as diagnostics on the spec object
 * (file:line:col, source excerpt, message) and can be rendered as text.
 *
 * Thread safety: different cutune_spec objects may be used from different threads at
 * once; one object must not be used from two threads at the same time. */
#ifndef CUTUNE_H
#define CUTUNE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CUTUNE_VERSION_MAJOR 0
#define CUTUNE_VERSION_MINOR 1
#define CUTUNE_VERSION_PATCH 0

/* cutune_version: the library's version, "MAJOR.MINOR.PATCH". */
const char *cutune_version(void);

typedef enum cutune_status {
    CUTUNE_OK = 0,
    CUTUNE_ESPEC = -1,   /* the spec is invalid: see the spec's diagnostics */
    CUTUNE_EIO = -2,     /* a file could not be read or written (a diagnostic says which) */
    CUTUNE_ENOMEM = -3,  /* out of memory */
    CUTUNE_EINVAL = -4,  /* an invalid argument to an API call */
    CUTUNE_EEVAL = -5    /* an expression of the spec failed for some configuration (a diagnostic says where) */
} cutune_status;

/* cutune_status_text: a short description of a status ("spec has errors", ...). */
const char *cutune_status_text(int status);

/* ---- loading a spec ---------------------------------------------------------- */

typedef struct cutune_spec cutune_spec;

typedef struct cutune_load_options {
    /* Overrides of the spec's `let` constants, as "NAME=VALUE" strings (VALUE is read as
     * an int, a float, true/false, or else a string), e.g. {"nx=4096", "ny=4096"}. */
    const char *const *set;
    int nset;
    /* For cutune_spec_load_string: the folder relative paths in the spec are resolved
     * against (NULL: the current directory). Ignored by cutune_spec_load_file, which uses
     * the spec file's own folder. */
    const char *base_dir;
    /* Non-zero: do not require the kernel file and include folders to exist. */
    int skip_file_checks;
} cutune_load_options;

/* cutune_spec_load_file: reads, parses and checks the spec at `path`. On CUTUNE_OK,
 * CUTUNE_ESPEC and CUTUNE_EIO, *out is a spec object whose diagnostics say what went
 * wrong (free it with cutune_spec_free); only on CUTUNE_ENOMEM or CUTUNE_EINVAL is *out
 * NULL. `opts` may be NULL. */
int cutune_spec_load_file(cutune_spec **out, const char *path, const cutune_load_options *opts);

/* cutune_spec_load_string: as cutune_spec_load_file, for a spec held in memory; `name`
 * is how diagnostics refer to it (e.g. "<string>"). */
int cutune_spec_load_string(cutune_spec **out, const char *name, const char *text, size_t len,
                            const cutune_load_options *opts);

/* cutune_spec_free: releases the spec and everything obtained from it; NULL is a no-op. */
void cutune_spec_free(cutune_spec *spec);

/* cutune_spec_ok: 1 when the spec loaded without errors (warnings allowed), else 0. */
int cutune_spec_ok(const cutune_spec *spec);

/* cutune_spec_error_count / cutune_spec_warning_count: diagnostics recorded so far. */
int cutune_spec_error_count(const cutune_spec *spec);
int cutune_spec_warning_count(const cutune_spec *spec);

/* cutune_spec_diagnostic_count: how many diagnostics (errors, warnings and notes) are
 * recorded; later calls (counting, listing) may add more. */
int cutune_spec_diagnostic_count(const cutune_spec *spec);

/* cutune_spec_diagnostics: the diagnostics from index `from` on, rendered as text
 * ("path:line:col: error: ...", the source line, a caret line), with ANSI colours when
 * `color` is non-zero. The string is owned by the spec and valid until the next call of
 * this function or cutune_spec_free. Returns "" when there are none; NULL only when out
 * of memory. */
const char *cutune_spec_diagnostics(cutune_spec *spec, int from, int color);

/* ---- what the spec says ------------------------------------------------------- */
/* These are valid only for a spec that loaded without errors (cutune_spec_ok). */

const char *cutune_spec_path(const cutune_spec *spec);
const char *cutune_spec_kernel(const cutune_spec *spec);       /* the kernel's name */
const char *cutune_spec_kernel_file(const cutune_spec *spec);  /* resolved path */
const char *cutune_spec_strategy(const cutune_spec *spec);     /* "exhaustive", "random", ... */
int cutune_spec_constraint_count(const cutune_spec *spec);

int cutune_spec_param_count(const cutune_spec *spec);
const char *cutune_spec_param_name(const cutune_spec *spec, int i);
/* How param i reaches the variant: "define", "template", "option", "maxrregcount",
 * "smem" or "none". */
const char *cutune_spec_param_route(const cutune_spec *spec, int i);
/* The type of param i's values: "int", "float", "bool" or "string". */
const char *cutune_spec_param_type(const cutune_spec *spec, int i);
uint64_t cutune_spec_param_value_count(const cutune_spec *spec, int i);
/* cutune_spec_param_value: value k of param i as text (as the spec would write it,
 * strings unquoted), written to buf (NUL-terminated, truncated to size). Returns the
 * full length, or CUTUNE_EINVAL for an index out of range. */
int cutune_spec_param_value(const cutune_spec *spec, int i, uint64_t k, char *buf, size_t size);

/* ---- the space ------------------------------------------------------------------ */

typedef struct cutune_space_size {
    uint64_t raw;          /* combinations before constraints */
    uint64_t valid;        /* configurations satisfying every constraint */
    int raw_saturated;     /* raw is at least UINT64_MAX */
    int valid_saturated;
} cutune_space_size;

/* cutune_space_count: counts the space without listing it. Returns CUTUNE_OK;
 * CUTUNE_ESPEC when no configuration is valid (a diagnostic then points at the
 * constraint that empties the space); CUTUNE_EEVAL when a constraint fails to evaluate
 * for some configuration (a diagnostic says where and for which values). *out is filled
 * in all three cases (valid = 0 on errors). */
int cutune_space_count(cutune_spec *spec, cutune_space_size *out);

/* A configuration and the variant it becomes. Every pointer is owned by the iterator
 * and valid until the next cutune_configs_next or cutune_configs_free. */
typedef struct cutune_variant {
    uint64_t ordinal;                 /* 0, 1, 2 ... in listing order */
    int nparams;
    const char *const *values;        /* each param's value as text */
    const char *types;                /* each param's type: 'i', 'f', 'b' or 's' */
    int64_t block[3], grid[3];        /* unused dimensions are 1 */
    int block_dims, grid_dims;
    int64_t smem_bytes;               /* dynamic shared memory */
    const char *const *defines;       /* "-DNAME=value" */
    int ndefines;
    const char *const *options;       /* compile options: common ones, then per-variant */
    int noptions;
    int ncommon_options;
    const char *name_expression;      /* "kernel" or "kernel<...>" */
} cutune_variant;

typedef struct cutune_configs cutune_configs;

/* cutune_configs_new: an iterator over the valid configurations in declaration order
 * (the last param varies fastest). The spec must be ok and must outlive it. */
int cutune_configs_new(cutune_configs **out, cutune_spec *spec);

/* cutune_configs_next: the next configuration in *out. Returns 1 when there is one, 0
 * at the end, or a negative status (CUTUNE_EEVAL with a diagnostic on the spec). */
int cutune_configs_next(cutune_configs *it, const cutune_variant **out);

/* cutune_configs_free: releases the iterator; NULL is a no-op. */
void cutune_configs_free(cutune_configs *it);

#ifdef __cplusplus
}
#endif

#endif
