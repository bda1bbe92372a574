/* eval.h - evaluating typed expressions for one configuration.
 *
 * The checker has already proved the types right, so evaluation only fails on what
 * types cannot rule out: division by zero, integer overflow, bad shift counts,
 * negative integer exponents, conversions out of range. */
#ifndef CUTUNE_COMPILER_EVAL_H
#define CUTUNE_COMPILER_EVAL_H

#include "model.h"

/* What an expression may read: the current value of every param (by index), and
 * after a measurement the kernel's time. */
typedef struct eval_env {
    const model *m;
    const value *params; /* may be NULL when the expression reads no param */
    bool has_time;
    double time_s;
    const value *slots; /* TX_SLOT values (NULL when the expression has none) */
    bool has_energy;    /* energy_j and power_w are known */
    double energy_j, power_w;
} eval_env;

typedef struct eval_error {
    span loc;
    char message[200];
} eval_error;

/* eval_expr: evaluates `e` into *out. Returns 0, or -1 with *err filled in. */
int eval_expr(const texpr *e, const eval_env *env, value *out, eval_error *err);

/* eval_bool: evaluates a bool expression into *out (0, or -1 with *err). */
int eval_bool(const texpr *e, const eval_env *env, bool *out, eval_error *err);

/* eval_int: evaluates an int expression into *out (0, or -1 with *err). */
int eval_int(const texpr *e, const eval_env *env, int64_t *out, eval_error *err);

#endif
