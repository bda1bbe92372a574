/* plan.h - the variant a configuration becomes: what to compile and how to launch it.
 *
 * For one configuration (a value per param) the plan gives the -D macros, the compile
 * options (the spec's base options and include folders, then per-variant options such
 * as a register cap), the kernel's name expression (reduce<256> for a template), and
 * the launch geometry and dynamic shared memory. */
#ifndef CUTUNE_COMPILER_PLAN_H
#define CUTUNE_COMPILER_PLAN_H

#include "../base/strbuf.h"
#include "eval.h"

struct cutune_param_value; /* include/cutune/space.h */

typedef struct variant {
    int64_t block[3], grid[3]; /* unused dimensions are 1 */
    int block_dims, grid_dims;
    int64_t smem_bytes;
    const char **defines; /* "-DNAME=value" */
    int ndefines;
    const char **options; /* all compile options, common ones first */
    int noptions;
    int ncommon_options;         /* options[0 .. ncommon_options) are the same for every variant */
    const char *name_expression; /* "kernel" or "kernel<...>" */
} variant;

/* plan_variant: fills *out for the configuration `values` (a value per param), with
 * every string allocated in `a`. Returns 0, or -1 with *err when an expression fails
 * or a dimension is not positive (the message names the configuration). */
int plan_variant(const model *m, const value *values, arena *a, variant *out, eval_error *err);

/* plan_identity: appends to `sb` the bytes that make a variant's binary: its name
 * expression, then its -D macros, then its options, each with its terminating NUL. Two
 * variants of a spec compile to the same binary exactly when these bytes are equal: the
 * compile session compiles each once (session.c) and a simulation charges each once
 * (results/replay.c). */
void plan_identity(strbuf *sb, const char *name_expression, const char *const *defines, int ndefines,
                   const char *const *options, int noptions);

/* plan_template_name: `kernel` with its template arguments evaluated for `values`
 * ("reduce<256, float>"), or `kernel` itself when has_targs is false. `values` may be
 * NULL when the arguments are constants (a verify statement's reference kernel).
 * Returns NULL with *err when an argument fails to evaluate or memory runs out. */
const char *plan_template_name(const model *m, const char *kernel, texpr *const *targs, int ntargs, bool has_targs,
                               const value *values, arena *a, eval_error *err);

/* plan_buffer_bytes: the bytes of `count` elements of type `t` into *bytes; false when
 * the product does not fit an int64_t (a count such as (1 << 62) + 1 doubles would
 * wrap to a few bytes), or count is negative. The one place a buffer's size in bytes is
 * computed from the spec: the checker (constant counts), plan_args (counts that read
 * params) and so the GPU worker all go through it. */
bool plan_buffer_bytes(int64_t count, ast_ctype t, int64_t *bytes);

/* plan_args: each kernel argument's value for the configuration `values`: a buffer's
 * element count in counts[i], a scalar's value in scalars[i] (converted to a float for
 * floating-point types). Returns 0, or -1 with *err (a count below 1 is an error, and
 * so is one whose bytes do not fit an int64_t: plan_buffer_bytes). */
int plan_args(const model *m, const value *values, int64_t *counts, value *scalars, eval_error *err);

/* plan_typed_values: the typed view of configuration `vals` (n values) for a variant
 * (cutune_variant.typed), in `a`; texts[i] is value i as text (the variant's values[],
 * living as long). NULL out of memory. */
const struct cutune_param_value *plan_typed_values(arena *a, const value *vals, const char *const *texts, int n);

#endif
