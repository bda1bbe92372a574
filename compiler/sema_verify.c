/* sema_verify.c - the verify statement: the outputs compared, the tolerances, and the
 * reference (a configuration of the params, checked against every constraint, or a
 * kernel of the spec's own); its checker clauses are sema_data.c's. See sema_internal.h. */
#include "sema_internal.h"

#include <stdint.h>
#include <string.h>

#include "../base/suggest.h"
#include "eval.h"

/* ---- verify ------------------------------------------------------------------- */

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

/* check_reference_config: verify's reference configuration `ref`, config(name = value,
 * ...), into s->m->verify.config (the index of each param's value; unset params take
 * their defaults); config_ok when nothing is wrong with it. */
static void check_reference_config(sema *s, const ast_reference *ref)
{
    model *m = s->m;
    m_verify *v = &m->verify;
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
}

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
        check_reference_config(s, ref);
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
