/* sema_arg.c - the arg statement: a kernel argument's type, direction, element count
 * and value or initial contents, and the arguments looked up by name; see
 * sema_internal.h. */
#include "sema_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../base/suggest.h"
#include "plan.h"

/* ---- arguments ---------------------------------------------------------------- */

bool sema_int_fits(sema *s, int64_t v, ast_ctype type, span loc)
{
    type = ast_ctype_component(type); /* a vector's lanes each hold the value */
    static const struct {
        ast_ctype type;
        int64_t lo, hi;
    } ranges[] = {
        {CT_INT8, -128, 127},
        {CT_UINT8, 0, 255},
        {CT_INT16, -32768, 32767},
        {CT_UINT16, 0, 65535},
        {CT_INT, INT32_MIN, INT32_MAX},
        {CT_UINT, 0, UINT32_MAX},
        {CT_INT64, INT64_MIN, INT64_MAX},
        {CT_UINT64, 0, INT64_MAX},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof *ranges; i++)
        if (ranges[i].type == type && (v < ranges[i].lo || v > ranges[i].hi)) {
            diag_error(s->dl, loc, "%lld does not fit in %s (%lld to %lld)", (long long)v, ast_ctype_name(type),
                       (long long)ranges[i].lo, (long long)ranges[i].hi);
            return false;
        }
    return true;
}

/* A constant int headed for an integer argument must fit its C type (int8 300 would be
 * silently wrapped by the launch). Returns t, or an error node when it does not fit. */
static texpr *check_fits(sema *s, texpr *t, ast_ctype type)
{
    if (!t || t->kind != TX_CONST || t->type != VT_INT || ast_ctype_is_float(type))
        return t;
    return sema_int_fits(s, t->u.k.u.i, type, t->loc) ? t : sema_error_node(s, t->loc);
}

/* The settings of a seeded fill, random(seed, min, max) or normal(seed, mean, stddev):
 * keys[0] the seed (a whole number of 0 or more, default 0) into arg->seed, keys[1] and
 * keys[2] the two numbers (defaults 0 and 1) into arg->lo and arg->hi, the second at
 * least hi_min. found[0..3) are the settings given (NULL when absent). */
static void seeded_settings(sema *s, const ast_arg_list *args, const char *const keys[3], double hi_min,
                            const char *owner, const ast_arg *found[3], m_arg *arg)
{
    int64_t seed = 0;
    sema_match_settings(s, args, keys, 3, found, owner);
    arg->lo = 0.0;
    arg->hi = 1.0;
    sema_setting_int(s, found[0], 0, &seed);
    sema_setting_float(s, found[1], -INFINITY, false, &arg->lo);
    sema_setting_float(s, found[2], hi_min, false, &arg->hi);
    arg->seed = (uint64_t)seed;
}

/* An out buffer's initial contents are never seen by the kernel: a warning at `init`. */
static void warn_unused_init(sema *s, const ast_expr *init, const m_arg *arg)
{
    if (arg->dir == DIR_OUT)
        diag_warning(s->dl, init->loc,
                     "output buffer '%s' is poisoned before every run, so its initial contents "
                     "are not used (make it inout to pass them in)",
                     arg->name);
}

/* check_contents: a buffer's initial contents `init` (given) into *arg: file("PATH"), or
 * one of sema_init_names with its settings. */
static void check_contents(sema *s, const ast_expr *init, m_arg *arg)
{
    const char *fname = init->kind == EX_NAME ? init->u.name : init->kind == EX_CALL ? init->u.call.name : NULL;
    static const ast_arg_list no_args;
    const ast_arg_list *args = init->kind == EX_CALL ? &init->u.call.args : &no_args;
    if (fname && init->kind == EX_CALL && strcmp(fname, "file") == 0) {
        sema_check_data_init(s, init, arg);
        warn_unused_init(s, init, arg);
        return;
    }
    int which = -1;
    for (int i = 0; fname && i < SEMA_NINIT_NAMES; i++)
        if (strcmp(fname, sema_init_names[i]) == 0)
            which = i;
    if (which < 0) {
        const char *best = fname ? suggest_best(fname, sema_init_names, SEMA_NINIT_NAMES) : NULL;
        span at = init->kind == EX_CALL ? init->u.call.name_loc : init->loc;
        if (best)
            diag_error(s->dl, at, "unknown initial contents '%s'; did you mean '%s'?", fname, best);
        else
            diag_error(s->dl, init->loc,
                       "a buffer's initial contents must be random(...), normal(...), constant(v), "
                       "ramp(...), zeros or file(\"PATH\")");
        return;
    }
    char owner[64];
    snprintf(owner, sizeof owner, "%s()", sema_init_names[which]);
    if (which == 0) { /* random(seed = 1, min = 0, max = 1) */
        static const char *const keys[] = {"seed", "min", "max"};
        const ast_arg *f[3];
        seeded_settings(s, args, keys, -INFINITY, owner, f, arg);
        if (arg->hi < arg->lo)
            diag_error(s->dl, f[2] ? f[2]->value->loc : f[1]->value->loc,
                       "random() range is empty: max %g is "
                       "below min %g",
                       arg->hi, arg->lo);
        arg->init = INIT_RANDOM;
        if (arg->lo <= arg->hi)
            sema_check_data_init(s, init, arg); /* an integer random()'s range */
    } else if (which == 1) {                    /* constant(v) */
        if (args->len != 1 || args->items[0].name) {
            diag_error(s->dl, init->loc, "constant() takes one value: constant(0.5)");
            return;
        }
        arg->value = check_fits(s,
                                sema_lower_as(s, args->items[0].value, 0,
                                              ast_ctype_is_float(arg->type) ? VT_FLOAT : VT_INT, "the fill value"),
                                arg->type);
        arg->init = INIT_CONSTANT;
    } else if (which == 2) { /* ramp(start = 0, step = 1) */
        static const char *const keys[] = {"start", "step"};
        const ast_arg *f[2];
        sema_match_settings(s, args, keys, 2, f, owner);
        arg->lo = 0.0;
        arg->hi = 1.0;
        if (f[0])
            sema_setting_float(s, f[0], -INFINITY, false, &arg->lo);
        if (f[1])
            sema_setting_float(s, f[1], -INFINITY, false, &arg->hi);
        arg->init = INIT_RAMP;
    } else if (which == 5) { /* normal(seed = 0, mean = 0, stddev = 1) */
        static const char *const keys[] = {"seed", "mean", "stddev"};
        const ast_arg *f[3];
        seeded_settings(s, args, keys, 0.0, owner, f, arg);
        arg->init = INIT_NORMAL;
        if (!ast_ctype_is_float(arg->type))
            diag_error(s->dl, init->loc,
                       "normal() fills floating-point buffers, and '%s' holds %s (random(min = ..., max = ...) "
                       "draws whole numbers)",
                       arg->name, ast_ctype_name(arg->type));
    } else if (which == 4) { /* `file` without its path (file("...") is handled above) */
        diag_error(s->dl, init->loc, "file() takes one path, a string: file(\"a.npy\") or file(\"a.bin\")");
        return;
    } else {
        if (args->len)
            diag_error(s->dl, init->loc, "zeros takes no settings");
        arg->init = INIT_ZEROS;
    }
    warn_unused_init(s, init, arg);
}

void sema_check_arg(sema *s, const ast_item *it, m_arg *arg)
{
    arg->name = it->u.arg.name.name;
    arg->loc = it->u.arg.name.loc;
    arg->type = it->u.arg.type;
    arg->is_buffer = it->u.arg.count != NULL;
    arg->dir = it->u.arg.dir;
    const ast_expr *init = it->u.arg.init;
    if (!arg->is_buffer && arg->dir == DIR_CONSTANT) {
        diag_error(s->dl, it->u.arg.dir_loc,
                   "constant argument '%s' needs an element count: a __constant__ symbol is filled as an "
                   "array (arg %s : constant %s[1] = constant(v) for one value)",
                   arg->name, arg->name, ast_ctype_name(arg->type));
        return;
    }
    if (!arg->is_buffer && ast_ctype_lanes(arg->type) > 1) {
        diag_error(s->dl, it->u.arg.type_loc,
                   "scalar argument '%s' cannot be a %s: vector types are for buffers (arg %s : in %s[COUNT] = ...)",
                   arg->name, ast_ctype_name(arg->type), arg->name, ast_ctype_name(arg->type));
        return;
    }
    if (!arg->is_buffer) {
        if (it->u.arg.dir != DIR_NONE)
            diag_error(s->dl, it->u.arg.dir_loc,
                       "scalar argument '%s' cannot have a direction; only buffers "
                       "(written with [count]) are in, out or inout",
                       arg->name);
        if (!init) {
            diag_error(s->dl, it->u.arg.name.loc, "scalar argument '%s' needs a value: arg %s : %s = <expression>;",
                       arg->name, arg->name, ast_ctype_name(arg->type));
            return;
        }
        bool is_float = ast_ctype_is_float(arg->type);
        char what[96];
        snprintf(what, sizeof what, "the value of %s argument '%s'", ast_ctype_name(arg->type), arg->name);
        arg->value = check_fits(s, sema_lower_as(s, init, CX_PARAMS, is_float ? VT_FLOAT : VT_INT, what), arg->type);
        arg->init = INIT_SCALAR;
        if (arg->value)
            s->used |= arg->value->deps;
        return;
    }
    if (arg->dir == DIR_NONE)
        diag_error(s->dl, it->u.arg.name.loc,
                   "buffer argument '%s' needs a direction: in, out or inout (arg %s : in "
                   "%s[...])",
                   arg->name, arg->name, ast_ctype_name(arg->type));
    char what[96];
    snprintf(what, sizeof what, "the element count of buffer '%s'", arg->name);
    arg->count = sema_lower_as(s, it->u.arg.count, CX_PARAMS, VT_INT, what);
    if (arg->count) {
        s->used |= arg->count->deps;
        int64_t bytes = 0;
        if (arg->count->kind == TX_CONST && arg->count->type == VT_INT && arg->count->u.k.u.i <= 0)
            diag_error(s->dl, arg->count->loc, "buffer '%s' has %lld elements; it needs at least 1", arg->name,
                       (long long)arg->count->u.k.u.i);
        else if (arg->count->kind == TX_CONST && arg->count->type == VT_INT &&
                 !plan_buffer_bytes(arg->count->u.k.u.i, arg->type, &bytes))
            diag_error(s->dl, arg->count->loc,
                       "buffer '%s' has %lld %s elements of %d bytes: more than %lld bytes "
                       "in all, the most a buffer may have",
                       arg->name, (long long)arg->count->u.k.u.i, ast_ctype_name(arg->type), ast_ctype_size(arg->type),
                       (long long)INT64_MAX);
        else if (arg->dir == DIR_CONSTANT && arg->count->kind == TX_CONST && arg->count->type == VT_INT &&
                 bytes > SEMA_CONSTANT_BYTES)
            diag_error(s->dl, arg->count->loc,
                       "constant argument '%s' has %lld %s elements of %d bytes: %lld bytes, more than the "
                       "%d bytes of constant memory a module may have",
                       arg->name, (long long)arg->count->u.k.u.i, ast_ctype_name(arg->type), ast_ctype_size(arg->type),
                       (long long)bytes, SEMA_CONSTANT_BYTES);
    }
    if (!init) {
        if (arg->dir == DIR_CONSTANT)
            diag_error(s->dl, it->u.arg.name.loc,
                       "constant argument '%s' needs initial contents: = random(seed = 1), constant(v), ramp(), "
                       "zeros or file(\"PATH\")",
                       arg->name);
        if (arg->dir == DIR_IN || arg->dir == DIR_INOUT)
            diag_error(s->dl, it->u.arg.name.loc,
                       "input buffer '%s' needs initial contents: = random(seed = 1), "
                       "constant(v), ramp() or zeros",
                       arg->name);
        arg->init = INIT_NONE;
        return;
    }
    check_contents(s, init, arg);
}

int sema_find_arg(const model *m, const char *name)
{
    for (int i = 0; i < m->nargs; i++)
        if (strcmp(m->args[i].name, name) == 0)
            return i;
    return -1;
}

int sema_arg_named(sema *s, const ast_name *n, const char *why)
{
    model *m = s->m;
    int k = sema_find_arg(m, n->name);
    if (k >= 0)
        return k;
    const char **names = sema_alloc(s, sizeof(char *) * (size_t)(m->nargs + 1));
    for (int j = 0; names && j < m->nargs; j++)
        names[j] = m->args[j].name;
    const char *best = names ? suggest_best(n->name, names, (size_t)m->nargs) : NULL;
    if (best)
        diag_error(s->dl, n->loc, "unknown argument '%s'; did you mean '%s'?", n->name, best);
    else
        diag_error(s->dl, n->loc, "unknown argument '%s' (%s)", n->name, why);
    return -1;
}
