/* plan.c - configuration -> variant (see plan.h). */
#include "plan.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cutune.h"
#include "space.h"

/* Adds "(for p = v, ...)" naming the configuration to an error. */
static int fail_for(const model *m, const value *values, eval_error *err)
{
    strbuf sb = STRBUF_INIT;
    sb_printf(&sb, "%s (for ", err->message);
    space_describe_config(m, values, ~(param_set)0, &sb);
    sb_addc(&sb, ')');
    if (sb_ok(&sb))
        snprintf(err->message, sizeof err->message, "%s", sb_cstr(&sb));
    sb_free(&sb);
    return -1;
}

static const char *text_of(arena *a, value v, bool bool_words)
{
    strbuf sb = STRBUF_INIT;
    value_format_c(v, &sb, bool_words);
    char *s = sb_ok(&sb) ? arena_strdup(a, sb_cstr(&sb)) : NULL;
    sb_free(&sb);
    return s;
}

const char *plan_template_name(const model *m, const char *kernel, texpr *const *targs, int ntargs, bool has_targs,
                               const value *values, arena *a, eval_error *err)
{
    if (!has_targs)
        return kernel;
    eval_env env = {m, values, false, 0.0, NULL, false, 0.0, 0.0};
    strbuf sb = STRBUF_INIT;
    sb_printf(&sb, "%s<", kernel);
    for (int i = 0; i < ntargs; i++) {
        if (i)
            sb_add(&sb, ", ");
        if (targs[i]->kind == TX_CTYPE) {
            sb_add(&sb, ast_ctype_cuda(targs[i]->u.ctype));
            continue;
        }
        value v;
        if (eval_expr(targs[i], &env, &v, err) < 0) {
            sb_free(&sb);
            return NULL;
        }
        value_format_c(v, &sb, true);
    }
    sb_addc(&sb, '>');
    char *s = sb_ok(&sb) ? arena_strdup(a, sb_cstr(&sb)) : NULL;
    sb_free(&sb);
    if (!s)
        snprintf(err->message, sizeof err->message, "out of memory");
    return s;
}

/* "-maxrregcount" style formats: the {} in fmt replaced by the value's text. */
static const char *format_option(arena *a, const char *fmt, const char *text)
{
    const char *hole = strstr(fmt, "{}");
    if (!hole)
        return arena_strdup(a, text);
    return arena_printf(a, "%.*s%s%s", (int)(hole - fmt), fmt, text, hole + 2);
}

#define PUSH_OR_FAIL(vec, n, cap, x) \
    do { \
        const char *x_ = (x); \
        if (!x_ || ARENA_PUSH(a, vec, n, cap, x_) < 0) \
            goto oom; \
    } while (0)

int plan_variant(const model *m, const value *values, arena *a, variant *out, eval_error *err)
{
    memset(out, 0, sizeof *out);
    eval_env env = {m, values, false, 0.0, NULL, false, 0.0, 0.0};
    int cap_defines = 0, cap_options = 0;
    for (int i = 0; i < m->noptions; i++)
        PUSH_OR_FAIL(out->options, out->noptions, cap_options, m->options[i]);
    for (int i = 0; i < m->nincludes; i++)
        PUSH_OR_FAIL(out->options, out->noptions, cap_options, arena_printf(a, "-I%s", m->includes[i]));
    out->ncommon_options = out->noptions;
    for (int i = 0; i < m->nparams; i++) {
        const m_param *p = &m->params[i];
        value v = values[i];
        switch (p->route) {
        case ROUTE_DEFINE: {
            const char *t = text_of(a, v, false);
            PUSH_OR_FAIL(out->defines, out->ndefines, cap_defines, t ? arena_printf(a, "-D%s=%s", p->macro, t) : NULL);
            break;
        }
        case ROUTE_OPTION: {
            if (p->option_switch) { /* on/off: the option when true, nothing when false */
                if (v.type == VT_BOOL && v.u.b)
                    PUSH_OR_FAIL(out->options, out->noptions, cap_options, p->option_fmt);
                break;
            }
            const char *t = text_of(a, v, true); /* compiler flags spell bools: -ftz=true */
            if (!t)
                goto oom;
            if (!p->option_fmt && t[0] == '\0')
                break; /* "" means: no option */
            PUSH_OR_FAIL(out->options, out->noptions, cap_options,
                         p->option_fmt ? format_option(a, p->option_fmt, t) : t);
            break;
        }
        case ROUTE_MAXRREGCOUNT:
            if (v.u.i > 0)
                PUSH_OR_FAIL(out->options, out->noptions, cap_options,
                             arena_printf(a, "--maxrregcount=%lld", (long long)v.u.i));
            break;
        default: break;
        }
    }
    for (int i = 0; i < m->nlets; i++) { /* lets `as define`: -DMACRO=value, per variant when derived */
        const m_let *l = &m->lets[i];
        if (!l->macro)
            continue;
        value v;
        if (eval_expr(l->expr, &env, &v, err) < 0)
            return fail_for(m, values, err);
        const char *t = text_of(a, v, false);
        PUSH_OR_FAIL(out->defines, out->ndefines, cap_defines, t ? arena_printf(a, "-D%s=%s", l->macro, t) : NULL);
    }
    static const char *const axis[] = {"x", "y", "z"};
    out->block_dims = m->block_dims;
    out->grid_dims = m->grid_dims;
    for (int d = 0; d < 3; d++) {
        out->block[d] = out->grid[d] = 1;
        if (d < m->block_dims && eval_int(m->block[d], &env, &out->block[d], err) < 0)
            return fail_for(m, values, err);
        if (d < m->grid_dims && eval_int(m->grid[d], &env, &out->grid[d], err) < 0)
            return fail_for(m, values, err);
        if (out->block[d] < 1 || out->grid[d] < 1) {
            bool blk = out->block[d] < 1;
            err->loc = blk ? m->block[d]->loc : m->grid[d]->loc;
            snprintf(err->message, sizeof err->message, "%s dimension %s is %lld; it must be at least 1",
                     blk ? "block" : "grid", axis[d], (long long)(blk ? out->block[d] : out->grid[d]));
            return fail_for(m, values, err);
        }
    }
    for (int k = 0; k < 6; k++) /* compat kernel_tuner: block_size_x ... grid_size_z */
        if (m->compat_macros[k])
            PUSH_OR_FAIL(out->defines, out->ndefines, cap_defines,
                         arena_printf(a, "-D%s=%lld", m->compat_macros[k],
                                      (long long)(k < 3 ? out->block[k] : out->grid[k - 3])));
    if (m->smem) {
        if (eval_int(m->smem, &env, &out->smem_bytes, err) < 0)
            return fail_for(m, values, err);
        if (out->smem_bytes < 0) {
            err->loc = m->smem->loc;
            snprintf(err->message, sizeof err->message, "dynamic shared memory is %lld bytes",
                     (long long)out->smem_bytes);
            return fail_for(m, values, err);
        }
    }
    out->name_expression = plan_template_name(m, m->kernel, m->targs, m->ntargs, m->has_targs, values, a, err);
    if (!out->name_expression)
        return fail_for(m, values, err);
    return 0;
oom:
    err->loc = m->kernel_loc;
    snprintf(err->message, sizeof err->message, "out of memory");
    return -1;
}

bool plan_buffer_bytes(int64_t count, ast_ctype t, int64_t *bytes)
{
    int64_t b;
    if (count < 0 || __builtin_mul_overflow(count, (int64_t)ast_ctype_size(t), &b))
        return false;
    *bytes = b;
    return true;
}

int plan_args(const model *m, const value *values, int64_t *counts, value *scalars, eval_error *err)
{
    eval_env env = {m, values, false, 0.0, NULL, false, 0.0, 0.0};
    for (int i = 0; i < m->nargs; i++) {
        const m_arg *a = &m->args[i];
        counts[i] = 0;
        scalars[i] = value_int(0);
        if (a->is_buffer) {
            if (eval_int(a->count, &env, &counts[i], err) < 0)
                return fail_for(m, values, err);
            if (counts[i] < 1) {
                err->loc = a->count->loc;
                snprintf(err->message, sizeof err->message, "buffer '%s' has %lld elements", a->name,
                         (long long)counts[i]);
                return fail_for(m, values, err);
            }
            int64_t bytes;
            if (!plan_buffer_bytes(counts[i], a->type, &bytes)) {
                err->loc = a->count->loc;
                snprintf(err->message, sizeof err->message,
                         "buffer '%s' has %lld %s elements of %d bytes: more "
                         "than %lld bytes in all, the most a buffer may have",
                         a->name, (long long)counts[i], ast_ctype_name(a->type), ast_ctype_size(a->type),
                         (long long)INT64_MAX);
                return fail_for(m, values, err);
            }
        } else {
            if (eval_expr(a->value, &env, &scalars[i], err) < 0)
                return fail_for(m, values, err);
            if (ast_ctype_is_float(a->type) && scalars[i].type == VT_INT)
                scalars[i] = value_float((double)scalars[i].u.i);
        }
    }
    return 0;
}

const cutune_param_value *plan_typed_values(arena *a, const value *vals, const char *const *texts, int n)
{
    cutune_param_value *out = arena_alloc(a, sizeof *out * (size_t)(n + 1));
    for (int i = 0; out && i < n; i++) {
        const value *x = &vals[i];
        out[i] = (cutune_param_value){0, 0.0, 0, texts[i]};
        if (x->type == VT_INT) {
            out[i].i = x->u.i;
            out[i].f = (double)x->u.i;
        } else if (x->type == VT_FLOAT) {
            out[i].f = x->u.f;
        } else if (x->type == VT_BOOL) {
            out[i].b = x->u.b;
        }
    }
    return out;
}

void plan_identity(strbuf *sb, const char *name_expression, const char *const *defines, int ndefines,
                   const char *const *options, int noptions)
{
    sb_addn(sb, name_expression, strlen(name_expression) + 1);
    for (int i = 0; i < ndefines; i++)
        sb_addn(sb, defines[i], strlen(defines[i]) + 1);
    for (int i = 0; i < noptions; i++)
        sb_addn(sb, options[i], strlen(options[i]) + 1);
}
