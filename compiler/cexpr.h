/* cexpr.h - a spec's typed expressions written as C expressions.
 *
 * The best-config header (emit/header.c) gives the launch geometry of a tuned
 * configuration as functions of the problem size: the block, grid and shared-memory
 * expressions of the spec with the params replaced by the winner's values (or by
 * fields of a configuration struct) and the constant `let`s they read left as names,
 * which become the functions' arguments.
 *
 * Types map to C as: int -> long long, float -> double, bool -> int (0/1), string ->
 * const char *. The semantics of the language are kept where C differs: '/' is true
 * division (ints are converted to double), comparisons chain, '**' on ints is exact for
 * a small literal exponent, and the integer '//', '%', cdiv, '<<' and '>>' call small
 * helpers the header defines (cexpr_helpers: P_floordiv, P_mod, P_cdiv, P_shl, P_shr)
 * that compute exactly what the evaluator does (compiler/eval.c) and never reach C's
 * undefined behaviour: where the evaluator refuses (a zero divisor, an overflow, a shift
 * count outside 0..63) they give 0. What stays plain C: + - * and unary minus on ints
 * (an overflow is C's undefined behaviour where the evaluator refuses), '**' (repeated
 * products; an exponent that is not a small literal goes through pow(), exact up to
 * 2^53), abs, int() of a float out of range, and float arithmetic (IEEE). */
#ifndef CUTUNE_COMPILER_CEXPR_H
#define CUTUNE_COMPILER_CEXPR_H

#include "eval.h"

typedef struct cexpr_ctx {
    const model *m;
    /* Non-NULL (the syntax tree the model was checked from): a constant part that reads
     * a let is written with the let's name, from what the checker recorded on the typed
     * tree (texpr.folded_from, from_let), so that the let can become an argument. NULL:
     * every constant is written as its value. Only whether it is NULL matters. */
    const ast_spec *ast;
    /* Non-NULL: each param's value, substituted; every part of the expression that
     * reads no let is then folded into its value. NULL: param i is written as
     * param_text[i] (e.g. "config->params.block_x"). */
    const value *params;
    const char *const *param_text;
    /* NULL, or m->nlets flags: set for each let the printed text reads. */
    bool *lets_used;
    /* Set when the text calls a function of <math.h> (ceil, pow, ...) or <string.h>
     * (strcmp). */
    bool needs_math, needs_string;
    /* The helpers' prefix: "P" writes P_cdiv(a, b) (NULL: cdiv(a, b)); and the helpers
     * the text calls (CEXPR_* bits, set as they are written). */
    const char *prefix;
    unsigned helpers;
} cexpr_ctx;

/* The helpers a printed expression may call (cexpr_ctx.helpers). */
enum {
    CEXPR_FLOORDIV = 1u << 0,
    CEXPR_MOD = 1u << 1,
    CEXPR_CDIV = 1u << 2,
    CEXPR_SHL = 1u << 3,
    CEXPR_SHR = 1u << 4,
};

/* cexpr_helpers: appends the definitions of the helpers in `helpers` (CEXPR_* bits), as
 * static inline functions named with `prefix` (P_floordiv ...): plain C89/C++ with no
 * undefined behaviour for any arguments. Nothing when `helpers` is 0. */
void cexpr_helpers(strbuf *out, const char *prefix, unsigned helpers);

/* cexpr_print: appends `e` as a C expression to `out` (without redundant outer
 * parentheses). Returns 0, or -1 with *err when the expression cannot be written as C
 * (it reads the measured time, a type, or a folded part fails to evaluate). */
int cexpr_print(cexpr_ctx *ctx, const texpr *e, strbuf *out, eval_error *err);

/* cexpr_reads_lets: whether `e` reads a let (directly, through a folded constant, or
 * through another let), as the checker recorded (texpr.reads_let); false when
 * ctx->ast is NULL. */
bool cexpr_reads_lets(const cexpr_ctx *ctx, const texpr *e);

/* cexpr_is_keyword: whether `name` is a C or C++ keyword (base/escape.h), or a name
 * the header's functions use themselves (config, dim3): then it cannot name an argument
 * or a field as it is. */
bool cexpr_is_keyword(const char *name);

/* cexpr_ident: appends `name` as a C identifier: itself, with '_' appended when it is
 * a C or C++ keyword. */
void cexpr_ident(const char *name, strbuf *out);

/* cexpr_string: appends `s` as a C string literal: esc_c_string (base/escape.h)
 * between double quotes. */
void cexpr_string(const char *s, strbuf *out);

/* cexpr_value: appends `v` as a C literal: ints in decimal (with LL outside the range
 * of int), floats as doubles in the shortest form that reads back equal, bools 0/1,
 * strings as string literals. Negative numbers are parenthesised. */
void cexpr_value(value v, strbuf *out);

/* cexpr_type: the C type of a value of type t ("long long", "double", "int",
 * "const char *"). */
const char *cexpr_type(vtype t);

#endif
