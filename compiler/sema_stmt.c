/* sema_stmt.c - the statements other than param, let and metric: args, verify, search,
 * measure, emit, and the paths they name; see sema_internal.h. */
#include "sema_internal.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../base/suggest.h"
#include "eval.h"
#include "plan.h"
#include "rules.h"

/* ---- paths -------------------------------------------------------------------- */

const char *sema_resolve_path(sema *s, const char *rel)
{
    if (rel[0] == '/')
        return rel;
    const char *dir = s->spec->src->dir;
    const char *p = arena_printf(s->a, "%s/%s", dir, rel);
    if (!p)
        s->oom = true;
    return p;
}

void sema_check_file(sema *s, const char *path, span loc, bool want_dir, const char *what)
{
    if (s->opts && s->opts->skip_file_checks)
        return;
    struct stat st;
    if (stat(path, &st) != 0) {
        diag_error(s->dl, loc, "cannot find %s '%s': %s", what, path, strerror(errno));
        return;
    }
    if (want_dir && !S_ISDIR(st.st_mode))
        diag_error(s->dl, loc, "%s '%s' is not a folder", what, path);
    else if (!want_dir && !S_ISREG(st.st_mode))
        diag_error(s->dl, loc, "%s '%s' is not a regular file", what, path);
}

/* ---- statements --------------------------------------------------------------- */

/* Reports a second statement of a kind that may appear once. */
bool sema_once(sema *s, const ast_item **first, const ast_item *it, const char *what)
{
    if (*first) {
        diag_error(s->dl, it->kw_loc, "'%s' is given twice", what);
        diag_note(s->dl, true, (*first)->kw_loc, "first given here");
        return false;
    }
    *first = it;
    return true;
}

int sema_lower_dims(sema *s, const ast_expr_list *dims, span loc, unsigned allow, texpr **out, const char *what)
{
    if (dims->len > 3) {
        diag_error(s->dl, dims->items[3] ? dims->items[3]->loc : loc,
                   "%s has %d dimensions; CUDA allows 1 to 3 "
                   "(x, y, z)",
                   what, dims->len);
        return 0;
    }
    static const char *const axis[] = {"x", "y", "z"};
    for (int i = 0; i < dims->len; i++) {
        char label[64];
        snprintf(label, sizeof label, "%s dimension %s", what, axis[i]);
        out[i] = sema_lower_as(s, dims->items[i], allow, VT_INT, label);
        if (out[i] && out[i]->kind == TX_CONST && out[i]->type == VT_INT && out[i]->u.k.u.i <= 0)
            diag_error(s->dl, out[i]->loc, "%s is %lld; it must be at least 1", label, (long long)out[i]->u.k.u.i);
    }
    return dims->len;
}

/* Named settings such as random(seed = 1) or search anneal(budget = 300): each key
 * must be one of `keys` (with a hint otherwise) and appear once. Returns the index of
 * the setting in `keys`, through found[] (NULL when absent). */
static void match_settings(sema *s, const ast_arg_list *args, const char *const *keys, int nkeys, const ast_arg **found,
                           const char *owner)
{
    for (int k = 0; k < nkeys; k++)
        found[k] = NULL;
    for (int i = 0; i < args->len; i++) {
        const ast_arg *a = &args->items[i];
        if (!a->name) {
            diag_error(s->dl, a->value->loc, "the settings of %s are named: write key = value", owner);
            continue;
        }
        int k = 0;
        while (k < nkeys && strcmp(keys[k], a->name) != 0)
            k++;
        if (k == nkeys) {
            const char *best = suggest_best(a->name, keys, (size_t)nkeys);
            strbuf sb = STRBUF_INIT;
            for (int j = 0; j < nkeys; j++)
                sb_printf(&sb, "%s%s", j ? ", " : "", keys[j]);
            if (best)
                diag_error(s->dl, a->name_loc, "unknown setting '%s' for %s; did you mean '%s'?", a->name, owner, best);
            else
                diag_error(s->dl, a->name_loc, "unknown setting '%s' for %s (it takes %s)", a->name, owner,
                           sb_cstr(&sb));
            sb_free(&sb);
            continue;
        }
        if (found[k]) {
            diag_error(s->dl, a->name_loc, "setting '%s' is given twice", a->name);
            continue;
        }
        found[k] = a;
    }
}

/* setting_int: *out set to setting `a`, a constant int of at least `min`; false when `a`
 * is NULL (not given) or after reporting why it is not one. */
static bool setting_int(sema *s, const ast_arg *a, int64_t min, int64_t *out)
{
    value v;
    if (!a)
        return false;
    char what[80];
    snprintf(what, sizeof what, "setting '%s'", a->name);
    if (!sema_lower_const(s, a->value, VT_INT, what, &v))
        return false;
    if (v.u.i < min) {
        diag_error(s->dl, a->value->loc, "setting '%s' must be at least %lld, not %lld", a->name, (long long)min,
                   (long long)v.u.i);
        return false;
    }
    *out = v.u.i;
    return true;
}

/* setting_float: *out set to setting `a`, a constant number at least `min` (above it when
 * `strict`); false when `a` is NULL or after reporting. */
static bool setting_float(sema *s, const ast_arg *a, double min, bool strict, double *out)
{
    value v;
    if (!a)
        return false;
    char what[80];
    snprintf(what, sizeof what, "setting '%s'", a->name);
    if (!sema_lower_const(s, a->value, VT_FLOAT, what, &v))
        return false;
    if (strict ? !(v.u.f > min) : !(v.u.f >= min)) {
        diag_error(s->dl, a->value->loc, "setting '%s' must be %s %g, not %g", a->name, strict ? "above" : "at least",
                   min, v.u.f);
        return false;
    }
    *out = v.u.f;
    return true;
}

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
    const char *fname = init->kind == EX_NAME ? init->u.name : init->kind == EX_CALL ? init->u.call.name : NULL;
    static const ast_arg_list no_args;
    const ast_arg_list *args = init->kind == EX_CALL ? &init->u.call.args : &no_args;
    if (fname && init->kind == EX_CALL && strcmp(fname, "file") == 0) {
        sema_check_data_init(s, init, arg);
        if (arg->dir == DIR_OUT)
            diag_warning(s->dl, init->loc,
                         "output buffer '%s' is poisoned before every run, so its initial "
                         "contents are not used (make it inout to pass them in)",
                         arg->name);
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
        match_settings(s, args, keys, 3, f, owner);
        int64_t seed = 0;
        arg->lo = 0.0;
        arg->hi = 1.0;
        if (f[0])
            setting_int(s, f[0], 0, &seed);
        if (f[1])
            setting_float(s, f[1], -INFINITY, false, &arg->lo);
        if (f[2])
            setting_float(s, f[2], -INFINITY, false, &arg->hi);
        if (arg->hi < arg->lo)
            diag_error(s->dl, f[2] ? f[2]->value->loc : f[1]->value->loc,
                       "random() range is empty: max %g is "
                       "below min %g",
                       arg->hi, arg->lo);
        arg->seed = (uint64_t)seed;
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
        match_settings(s, args, keys, 2, f, owner);
        arg->lo = 0.0;
        arg->hi = 1.0;
        if (f[0])
            setting_float(s, f[0], -INFINITY, false, &arg->lo);
        if (f[1])
            setting_float(s, f[1], -INFINITY, false, &arg->hi);
        arg->init = INIT_RAMP;
    } else if (which == 5) { /* normal(seed = 0, mean = 0, stddev = 1) */
        static const char *const keys[] = {"seed", "mean", "stddev"};
        const ast_arg *f[3];
        match_settings(s, args, keys, 3, f, owner);
        int64_t seed = 0;
        arg->lo = 0.0;
        arg->hi = 1.0;
        if (f[0])
            setting_int(s, f[0], 0, &seed);
        if (f[1])
            setting_float(s, f[1], -INFINITY, false, &arg->lo);
        if (f[2])
            setting_float(s, f[2], 0.0, false, &arg->hi);
        arg->seed = (uint64_t)seed;
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
    if (arg->dir == DIR_OUT)
        diag_warning(s->dl, init->loc,
                     "output buffer '%s' is poisoned before every run, so its initial contents "
                     "are not used (make it inout to pass them in)",
                     arg->name);
}

int sema_find_arg(const model *m, const char *name)
{
    for (int i = 0; i < m->nargs; i++)
        if (strcmp(m->args[i].name, name) == 0)
            return i;
    return -1;
}

static void check_tolerance(sema *s, const ast_expr *e, const char *what, double *out);

void sema_check_verify(sema *s, const ast_item *it)
{
    model *m = s->m;
    m_verify *v = &m->verify;
    v->present = true;
    v->loc = it->loc;
    const ast_name_list *outs = &it->u.verify.outputs;
    v->outputs = sema_alloc(s, sizeof(int) * (size_t)outs->len);
    if (!v->outputs)
        return;
    for (int i = 0; i < outs->len; i++) {
        const ast_name *n = &outs->items[i];
        int k = sema_arg_named(s, n, "verify names out or inout buffers");
        if (k < 0) {
            continue;
        }
        const m_arg *a = &m->args[k];
        if (!a->is_buffer || a->dir == DIR_IN || a->dir == DIR_CONSTANT) {
            diag_error(s->dl, n->loc, "'%s' is %s; verify compares out and inout buffers", n->name,
                       a->dir == DIR_CONSTANT ? "a constant argument (the kernel cannot write it)"
                       : a->is_buffer         ? "an input buffer"
                                              : "a scalar argument");
            continue;
        }
        for (int j = 0; j < v->noutputs; j++)
            if (v->outputs[j] == k)
                diag_error(s->dl, n->loc, "'%s' is named twice", n->name);
        v->outputs[v->noutputs++] = k;
    }
    const ast_reference *ref = &it->u.verify.against;
    v->against_kernel = ref->is_kernel;
    v->ref_loc = ref->loc;
    check_tolerance(s, it->u.verify.atol, "atol", &v->atol);
    check_tolerance(s, it->u.verify.rtol, "rtol", &v->rtol);
    sema_check_checker(s, it); /* l2, ulp, check kernel */
    if (!ref->is_kernel) {
        v->config = sema_alloc(s, sizeof(uint64_t) * (size_t)(m->nparams ? m->nparams : 1));
        bool *set = sema_alloc(s, sizeof(bool) * (size_t)(m->nparams ? m->nparams : 1));
        bool *meant = sema_alloc(s, sizeof(bool) * (size_t)(m->nparams ? m->nparams : 1)); /* by a misspelt name */
        if (!v->config || !set || !meant)
            return;
        bool broken = false;
        for (int i = 0; i < ref->config.len; i++) {
            const ast_arg *a = &ref->config.items[i];
            if (!a->name) {
                diag_error(s->dl, a->value->loc, "name the param: config(block_x = 32, ...)");
                broken = true;
                continue;
            }
            const sym *sy = sema_find_sym(s, a->name);
            if (!sy || sy->kind != SYM_PARAM) {
                const char **names = sema_alloc(s, sizeof(char *) * (size_t)(m->nparams + 1));
                for (int j = 0; names && j < m->nparams; j++)
                    names[j] = m->params[j].name;
                const char *best = names ? suggest_best(a->name, names, (size_t)m->nparams) : NULL;
                const sym *guess = best ? sema_find_sym(s, best) : NULL;
                if (guess && guess->kind == SYM_PARAM)
                    meant[guess->index] = true; /* not "does not set 'x'" as well */
                if (best)
                    diag_error(s->dl, a->name_loc, "unknown param '%s'; did you mean '%s'?", a->name, best);
                else
                    diag_error(s->dl, a->name_loc, "'%s' is not a param", a->name);
                broken = true;
                continue;
            }
            const m_param *p = &m->params[sy->index];
            if (set[sy->index]) {
                diag_error(s->dl, a->name_loc, "param '%s' is set twice", a->name);
                broken = true;
                continue;
            }
            set[sy->index] = true;
            value val;
            if (p->dom.type == VT_ERROR || !sema_lower_const(s, a->value, p->dom.type, "a reference value", &val)) {
                broken = true;
                continue;
            }
            if (p->dom.type == VT_FLOAT && val.type == VT_INT)
                val = value_float((double)val.u.i);
            int64_t k = model_domain_find(&p->dom, val);
            if (k < 0) {
                strbuf sb = STRBUF_INIT;
                value_format(val, &sb, true);
                diag_error(s->dl, a->value->loc, "%s is not a value of param '%s'", sb_cstr(&sb), p->name);
                sb_free(&sb);
                broken = true;
                continue;
            }
            v->config[sy->index] = (uint64_t)k;
        }
        for (int i = 0; i < m->nparams; i++) {
            if (set[i] || meant[i])
                continue;
            if (m->params[i].has_default) {
                v->config[i] = m->params[i].default_index;
            } else if (m->params[i].dom.type != VT_ERROR) {
                diag_error(s->dl, ref->loc,
                           "the reference configuration does not set param '%s', which has no "
                           "default",
                           m->params[i].name);
                broken = true;
            }
        }
        v->config_ok = !broken;
        return;
    }
    sema_lower_kernel_ref(s, ref, "reference kernel", true, &v->ref);
}

/* The reference configuration must itself satisfy every constraint (checked once all
 * constraints are known, wherever the verify statement stands). */
void sema_check_reference(sema *s)
{
    model *m = s->m;
    m_verify *v = &m->verify;
    if (!v->present || v->against_kernel || !v->config_ok)
        return;
    value *vals = sema_alloc(s, sizeof(value) * (size_t)(m->nparams ? m->nparams : 1));
    if (!vals)
        return;
    for (int i = 0; i < m->nparams; i++)
        vals[i] = model_domain_at(&m->params[i].dom, v->config[i]);
    eval_env env = {m, vals, false, 0.0, NULL, false, 0.0, 0.0};
    for (int i = 0; i < m->nrequires; i++) {
        bool ok;
        eval_error err;
        if (eval_bool(m->requires[i].expr, &env, &ok, &err) < 0) {
            diag_error(s->dl, err.loc, "%s (evaluating this for the reference configuration)", err.message);
        } else if (!ok) {
            diag_error(s->dl, v->ref_loc, "the reference configuration violates a constraint");
            diag_note(s->dl, true, m->requires[i].loc, "this constraint is false for it");
        }
    }
}

/* check_tolerance: *out set to `e`, a constant number of 0 or more (0 when `e` is NULL
 * or after reporting). */
static void check_tolerance(sema *s, const ast_expr *e, const char *what, double *out)
{
    value v;
    *out = 0.0;
    if (!e || !sema_lower_const(s, e, VT_FLOAT, what, &v))
        return;
    if (!(v.u.f >= 0.0))
        diag_error(s->dl, e->loc, "%s must be 0 or more, not %g", what, v.u.f);
    else
        *out = v.u.f;
}

void sema_check_search(sema *s, const ast_item *it)
{
    m_search *sr = &s->m->search;
    const ast_expr *e = it->u.search;
    sr->loc = it->loc;
    /* `search;` and `search(settings)` name no strategy: the model-based default, as a
     * budget on the command line without a strategy gets. */
    bool unnamed = !e || (e->kind == EX_CALL && !e->u.call.name);
    const char *name = !e ? NULL : e->kind == EX_NAME ? e->u.name : e->kind == EX_CALL ? e->u.call.name : NULL;
    strategy k = STRAT_AUTO;
    if (!unnamed && !model_strategy_from_name(name, &k)) {
        const char *best = name ? suggest_best(name, model_strategy_names(), STRATEGY_COUNT) : NULL;
        span at = e->kind == EX_CALL ? e->u.call.name_loc : e->loc;
        if (best)
            diag_error(s->dl, at, "unknown search strategy '%s'; did you mean '%s'?", name, best);
        else
            diag_error(s->dl, at,
                       "unknown search strategy (the strategies are exhaustive, random, anneal, genetic, "
                       "local, guided and auto)");
        return;
    }
    sr->strategy = k;
    if (!e || e->kind != EX_CALL)
        return;
    /* Common budget keys first, then each strategy's own. */
    const char *keys[9] = {"budget", "time", "patience", "seed"};
    int nkeys = 4;
    if (sr->strategy == STRAT_ANNEAL) {
        keys[nkeys++] = "temperature";
        keys[nkeys++] = "cooling";
    } else if (sr->strategy == STRAT_GENETIC) {
        keys[nkeys++] = "population";
        keys[nkeys++] = "mutation";
    } else if (sr->strategy == STRAT_LOCAL) {
        keys[nkeys++] = "restarts";
    }
    const ast_arg *f[9];
    char owner[64];
    snprintf(owner, sizeof owner, "search %s", model_strategy_name(k));
    match_settings(s, &e->u.call.args, keys, nkeys, f, owner);
    int64_t seed = 0;
    setting_int(s, f[0], 1, &sr->budget);
    setting_float(s, f[1], 0.0, true, &sr->time_limit_s);
    setting_int(s, f[2], 1, &sr->patience);
    if (setting_int(s, f[3], 0, &seed))
        sr->seed = (uint64_t)seed;
    for (int i = 4; i < nkeys; i++) {
        if (!f[i])
            continue;
        if (strcmp(keys[i], "population") == 0 || strcmp(keys[i], "restarts") == 0)
            setting_int(s, f[i], 1, strcmp(keys[i], "population") == 0 ? &sr->population : &sr->restarts);
        else if (strcmp(keys[i], "temperature") == 0)
            setting_float(s, f[i], 0.0, true, &sr->temperature);
        else if (strcmp(keys[i], "cooling") == 0 && setting_float(s, f[i], 0.0, true, &sr->cooling) &&
                 sr->cooling >= 1.0)
            diag_error(s->dl, f[i]->value->loc, "cooling must be below 1 (the temperature is multiplied by it)");
        else if (strcmp(keys[i], "mutation") == 0 && setting_float(s, f[i], 0.0, false, &sr->mutation) &&
                 sr->mutation > 1.0)
            diag_error(s->dl, f[i]->value->loc, "mutation is a probability: 0 to 1");
    }
}

void sema_check_measure(sema *s, const ast_item *it)
{
    m_measure *ms = &s->m->measure;
    static const char *const keys[] = {"warmup",   "repeat",  "max_repeat", "spread",
                                       "flush_l2", "timeout", "energy",     "energy_window"};
    const ast_arg *f[8];
    match_settings(s, &it->u.settings, keys, 8, f, "measure");
    setting_int(s, f[0], 0, &ms->warmup);
    setting_int(s, f[1], 1, &ms->repeat);
    setting_int(s, f[2], 1, &ms->max_repeat);
    if (f[1] && !f[2] && ms->max_repeat < ms->repeat)
        ms->max_repeat = ms->repeat; /* the default cap gives way to an explicit minimum */
    setting_float(s, f[3], 0.0, true, &ms->spread);
    if (f[4]) {
        value v;
        if (sema_lower_const(s, f[4]->value, VT_BOOL, "setting 'flush_l2'", &v))
            ms->flush_l2 = v.u.b;
    }
    setting_float(s, f[5], 0.0, true, &ms->timeout_s);
    if (f[6]) {
        value v;
        if (sema_lower_const(s, f[6]->value, VT_BOOL, "setting 'energy'", &v))
            ms->energy = v.u.b;
    }
    if (setting_float(s, f[7], 0.0, false, &ms->energy_window_s) && ms->energy_window_s > 60)
        diag_error(s->dl, f[7]->value->loc,
                   "energy_window is at most 60 s (it is spent on every variant timed in "
                   "full)");
    if (ms->max_repeat < ms->repeat) {
        diag_error(s->dl, f[2] ? f[2]->value->loc : it->loc, "max_repeat (%lld) is below repeat (%lld)",
                   (long long)ms->max_repeat, (long long)ms->repeat);
    }
}

void sema_check_emit(sema *s, const ast_item *it, const ast_item **seen)
{
    static const char *const kinds[] = {"header", "results", "csv"};
    const char *what = it->u.emit.what.name;
    int k = -1;
    for (int i = 0; i < 3; i++)
        if (strcmp(what, kinds[i]) == 0)
            k = i;
    if (k < 0) {
        const char *best = suggest_best(what, kinds, 3);
        if (best)
            diag_error(s->dl, it->u.emit.what.loc, "unknown output '%s'; did you mean '%s'?", what, best);
        else
            diag_error(s->dl, it->u.emit.what.loc, "unknown output '%s' (emit header, results or csv)", what);
        return;
    }
    if (!sema_once(s, &seen[k], it, k == 0 ? "emit header" : k == 1 ? "emit results" : "emit csv"))
        return;
    const char *path = sema_resolve_path(s, it->u.emit.path);
    if (!path)
        return;
    /* What writing it after tuning would stumble on, found now. */
    struct stat st;
    size_t len = strlen(it->u.emit.path);
    if (len == 0)
        diag_error(s->dl, it->u.emit.path_loc, "the path of emit %s is empty", kinds[k]);
    else if (it->u.emit.path[len - 1] == '/')
        diag_error(s->dl, it->u.emit.path_loc, "the path of emit %s names a folder; give the file's name", kinds[k]);
    else if (!(s->opts && s->opts->skip_file_checks) && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        diag_error(s->dl, it->u.emit.path_loc, "'%s' is a folder; emit %s writes a file", path, kinds[k]);
    if (it->u.emit.prefix.name && k != 0)
        diag_error(s->dl, it->u.emit.prefix.loc, "only a header takes a prefix");
    m_emit *em = &s->m->emit;
    bool leaves = rules_path_leaves(it->u.emit.path); /* rules.c warns; tuning writes it only where allowed */
    if (k == 0) {
        em->header_leaves = leaves;
        em->header_path = path;
        em->header_loc = it->u.emit.path_loc;
        if (it->u.emit.prefix.name) {
            em->header_prefix = it->u.emit.prefix.name;
            em->header_prefix_loc = it->u.emit.prefix.loc;
        }
    } else if (k == 1) {
        em->results_leaves = leaves;
        em->results_path = path;
        em->results_loc = it->u.emit.path_loc;
    } else {
        em->csv_leaves = leaves;
        em->csv_path = path;
        em->csv_loc = it->u.emit.path_loc;
    }
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

void sema_lower_kernel_ref(sema *s, const ast_reference *ref, const char *what, bool geometry, m_kernel_ref *out)
{
    char label[64];
    out->name = ref->kernel.name;
    out->file = ref->file ? sema_resolve_path(s, ref->file) : s->m->kernel_file;
    if (ref->file && out->file) {
        snprintf(label, sizeof label, "%s file", what);
        sema_check_file(s, out->file, ref->file_loc, false, label);
    }
    out->has_targs = ref->has_targs;
    out->ntargs = ref->targs.len;
    out->targs = sema_alloc(s, sizeof(texpr *) * (size_t)(ref->targs.len + 1));
    for (int i = 0; out->targs && i < ref->targs.len; i++)
        out->targs[i] = sema_lower(s, ref->targs.items[i], CX_CTYPE);
    if (!geometry)
        return;
    snprintf(label, sizeof label, "the %s's block", what);
    out->block_dims = sema_lower_dims(s, &ref->block, ref->block_loc, 0, out->block, label);
    snprintf(label, sizeof label, "the %s's grid", what);
    out->grid_dims = sema_lower_dims(s, &ref->grid, ref->grid_loc, 0, out->grid, label);
}
