/* rules.c - rules across statements, checked once the model is built (see rules.h).
 *
 * Each of these used to surface only when tuning (a compile that defines a macro twice,
 * a reference that cannot be run): they need no GPU, so `cutune check` finds them. */
#include "rules.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../base/escape.h"

/* The statement that declares param `name`. */
static const ast_item *param_item(const ast_spec *spec, const char *name)
{
    for (int i = 0; i < spec->len; i++)
        if (spec->items[i]->kind == IT_PARAM && strcmp(spec->items[i]->u.param.name.name, name) == 0)
            return spec->items[i];
    return NULL;
}

/* Where param p's macro is named: `as define X`, else the param's own name. */
static span macro_loc(const ast_spec *spec, const m_param *p)
{
    const ast_item *it = param_item(spec, p->name);
    return it && it->u.param.route.text ? it->u.param.route.text_loc : p->loc;
}

/* Two params that define one macro would give nvrtc -DX=1 -DX=2 (the last wins, so one
 * param would be tuned for nothing); a base option that defines it as well, the same. */
static void check_macros(const model *m, const ast_spec *spec, diag_list *dl)
{
    for (int i = 0; i < m->nparams; i++) {
        const m_param *p = &m->params[i];
        if (p->route != ROUTE_DEFINE || !p->macro || p->dom.type == VT_ERROR)
            continue;
        for (int j = 0; j < i; j++) {
            const m_param *q = &m->params[j];
            if (q->route != ROUTE_DEFINE || !q->macro || q->dom.type == VT_ERROR || strcmp(q->macro, p->macro) != 0)
                continue;
            diag_error(dl, macro_loc(spec, p),
                       "params '%s' and '%s' both define the macro %s; each param needs a "
                       "macro of its own (as define OTHER_NAME)",
                       q->name, p->name, p->macro);
            diag_note(dl, true, macro_loc(spec, q), "'%s' defines %s here", q->name, q->macro);
            break;
        }
    }
    for (int i = 0; i < spec->len; i++) {
        const ast_item *it = spec->items[i];
        if (it->kind != IT_OPTIONS)
            continue;
        for (int k = 0; k < it->u.strings.len; k++) {
            const char *opt = it->u.strings.items[k]->u.sval;
            if (strncmp(opt, "-D", 2) != 0)
                continue;
            size_t len = strcspn(opt + 2, "=");
            for (int v = 0; v < m->nparams; v++) {
                const m_param *p = &m->params[v];
                if (p->route != ROUTE_DEFINE || !p->macro || strlen(p->macro) != len ||
                    strncmp(p->macro, opt + 2, len) != 0)
                    continue;
                diag_error(dl, it->u.strings.items[k]->loc,
                           "option \"%s\" defines %s, which param '%s' sets for "
                           "each variant",
                           opt, p->macro, p->name);
                diag_note(dl, true, macro_loc(spec, p), "'%s' defines %s here", p->name, p->macro);
                break;
            }
        }
    }
}

/* macro_word_bad: why `macro` cannot name a macro of the kernel's source (NULL: it can):
 * a C or C++ keyword would be redefined there (-Dfloat=1: the standard forbids it, and
 * nvrtc compiles code that is no longer the kernel's), and `defined` is the
 * preprocessor's own. */
static const char *macro_word_bad(const char *macro)
{
    if (strcmp(macro, "defined") == 0)
        return "the preprocessor's operator 'defined'";
    return esc_c_keyword(macro) ? "a C or C++ keyword" : NULL;
}

/* macro_suggestion: `macro` in capitals into buf (size: at least 64), another name to
 * suggest: FLOAT for float; a macro already in capitals (_Bool) gets a suffix. */
static const char *macro_suggestion(const char *macro, char *buf, size_t size)
{
    size_t n = 0;
    bool changed = false;
    for (; macro[n] && n + 3 < size; n++) {
        buf[n] = (char)toupper((unsigned char)macro[n]);
        changed |= buf[n] != macro[n];
    }
    buf[n] = 0;
    if (!changed || esc_c_keyword(buf))
        snprintf(buf + n, size - n, "_M");
    return buf;
}

/* Each macro a param or a let defines is a name of the kernel's source: not a keyword
 * there (macro_word_bad). Said at the macro's name (the param's or let's own when it has
 * none), with a name to write instead. */
static void check_macro_words(const model *m, const ast_spec *spec, diag_list *dl)
{
    char other[80];
    for (int i = 0; i < m->nparams; i++) {
        const m_param *p = &m->params[i];
        const char *why = p->route == ROUTE_DEFINE && p->macro ? macro_word_bad(p->macro) : NULL;
        if (!why)
            continue;
        if (strcmp(p->macro, p->name) == 0)
            diag_error(dl, macro_loc(spec, p),
                       "param '%s' would be passed as the macro %s, %s: -D%s=... would redefine it in the kernel's "
                       "source; route it to a macro of another name (as define %s), or as none",
                       p->name, p->macro, why, p->macro, macro_suggestion(p->macro, other, sizeof other));
        else
            diag_error(dl, macro_loc(spec, p),
                       "the macro %s of param '%s' is %s: -D%s=... would redefine it in the kernel's source; "
                       "name another (as define %s)",
                       p->macro, p->name, why, p->macro, macro_suggestion(p->macro, other, sizeof other));
    }
    for (int i = 0; i < m->nparams; i++) { /* as option "-Dfloat={}": the same -D */
        const m_param *p = &m->params[i];
        const char *fmt = p->route == ROUTE_OPTION ? p->option_fmt : NULL;
        if (!fmt || strncmp(fmt, "-D", 2) != 0)
            continue;
        size_t len = strcspn(fmt + 2, "= ");
        char macro[80];
        snprintf(macro, sizeof macro, "%.*s", (int)(len < sizeof macro ? len : sizeof macro - 1), fmt + 2);
        const char *why = macro_word_bad(macro);
        const ast_item *it = param_item(spec, p->name);
        if (why && it)
            diag_error(dl, it->u.param.route.text_loc,
                       "the option \"%s\" of param '%s' defines %s, %s: it would redefine it in the kernel's "
                       "source; define a macro of another name (as define %s)",
                       fmt, p->name, macro, why, macro_suggestion(macro, other, sizeof other));
    }
    for (int i = 0; i < m->nlets; i++) {
        const m_let *l = &m->lets[i];
        const char *why = l->macro ? macro_word_bad(l->macro) : NULL;
        if (!why)
            continue;
        if (strcmp(l->macro, l->name) == 0)
            diag_error(dl, l->macro_loc,
                       "let '%s' would be passed as the macro %s, %s: -D%s=... would redefine it in the kernel's "
                       "source; name the macro otherwise (as define %s)",
                       l->name, l->macro, why, l->macro, macro_suggestion(l->macro, other, sizeof other));
        else
            diag_error(dl, l->macro_loc,
                       "the macro %s of let '%s' is %s: -D%s=... would redefine it in the kernel's source; "
                       "name another (as define %s)",
                       l->macro, l->name, why, l->macro, macro_suggestion(l->macro, other, sizeof other));
    }
}

/* Verified outputs are compared element by element with the reference's, so their size
 * is one for every variant; a reference kernel runs with no configuration at all, so
 * none of the arguments it is given may read a param. */
static void check_verify(const model *m, diag_list *dl)
{
    const m_verify *v = &m->verify;
    if (!v->present)
        return;
    for (int k = 0; k < v->noutputs; k++) {
        const m_arg *a = &m->args[v->outputs[k]];
        if (a->count && a->count->type != VT_ERROR && a->count->deps)
            diag_error(dl, a->count->loc,
                       "output '%s' is verified, so its size cannot depend on params (each "
                       "variant must be comparable with the reference)",
                       a->name);
    }
    if (!v->against_kernel)
        return;
    for (int i = 0; i < m->nargs; i++) {
        const m_arg *a = &m->args[i];
        const texpr *e = a->is_buffer ? a->count : a->value;
        if (!e || e->type == VT_ERROR || !e->deps)
            continue;
        diag_error(dl, e->loc,
                   "the %s of argument '%s' depends on params, but the reference kernel runs without "
                   "a configuration to take them from",
                   a->is_buffer ? "size" : "value", a->name);
        diag_note(dl, true, v->ref_loc, "the reference kernel");
    }
}

/* A let `as define` is one more -D for every variant: its macro may not be a param's,
 * another such let's or one a base option defines (nvrtc would get -DX twice), and its
 * value must fit on a -D line. */
static void check_let_macros(const model *m, const ast_spec *spec, diag_list *dl)
{
    for (int i = 0; i < m->nlets; i++) {
        const m_let *l = &m->lets[i];
        if (!l->macro || !l->expr || l->expr->type == VT_ERROR)
            continue;
        if (l->expr->kind == TX_CONST && l->expr->type == VT_STRING && strchr(l->expr->u.k.u.s, '\n'))
            diag_error(dl, l->macro_loc,
                       "let '%s' is 'as define' but its value contains a newline, which a -D "
                       "macro cannot carry",
                       l->name);
        bool clash = false;
        for (int j = 0; j < m->nparams && !clash; j++) {
            const m_param *p = &m->params[j];
            if (p->route != ROUTE_DEFINE || !p->macro || strcmp(p->macro, l->macro) != 0)
                continue;
            diag_error(dl, l->macro_loc,
                       "let '%s' and param '%s' both define the macro %s; give the let another "
                       "(as define OTHER_NAME)",
                       l->name, p->name, l->macro);
            diag_note(dl, true, macro_loc(spec, p), "'%s' defines %s here", p->name, p->macro);
            clash = true;
        }
        for (int j = 0; j < i && !clash; j++) {
            const m_let *o = &m->lets[j];
            if (!o->macro || strcmp(o->macro, l->macro) != 0)
                continue;
            diag_error(dl, l->macro_loc, "lets '%s' and '%s' both define the macro %s", o->name, l->name, l->macro);
            diag_note(dl, true, o->macro_loc, "'%s' defines %s here", o->name, o->macro);
            clash = true;
        }
        for (int j = 0; j < m->noptions && !clash; j++) {
            const char *opt = m->options[j];
            size_t len = strncmp(opt, "-D", 2) == 0 ? strcspn(opt + 2, "=") : 0;
            if (len && strlen(l->macro) == len && strncmp(l->macro, opt + 2, len) == 0) {
                diag_error(dl, l->macro_loc, "let '%s' defines %s, which the option \"%s\" defines too", l->name,
                           l->macro, opt);
                clash = true;
            }
        }
    }
}

bool rules_path_leaves(const char *path)
{
    if (path[0] == '/')
        return true;
    int depth = 0;
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, "/");
        if (n == 2 && p[0] == '.' && p[1] == '.')
            depth--;
        else if (n > 0 && !(n == 1 && p[0] == '.'))
            depth++;
        if (depth < 0)
            return true;
        p += n + (p[n] == '/');
    }
    return false;
}

/* An emit path that leaves the spec's folder: a spec from elsewhere must not write
 * where it likes ("../../etc/x.h"), so tuning writes it only into a folder the command
 * line names (--emit-dir). A warning here, at the path. */
static void check_emit_paths(const ast_spec *spec, diag_list *dl)
{
    for (int i = 0; i < spec->len; i++) {
        const ast_item *it = spec->items[i];
        const char *kind = it->kind == IT_EMIT ? it->u.emit.what.name : "";
        bool known = strcmp(kind, "header") == 0 || strcmp(kind, "results") == 0 || strcmp(kind, "csv") == 0;
        if (known && it->u.emit.path && rules_path_leaves(it->u.emit.path))
            diag_warning(dl, it->u.emit.path_loc,
                         "emit %s \"%s\" leaves the spec's folder: tuning writes it only "
                         "when the command line names its folder (--emit-dir DIR), or gives the file (--%s FILE)",
                         kind, it->u.emit.path, kind);
    }
}

void rules_check(const model *m, const ast_spec *spec, diag_list *dl)
{
    check_macros(m, spec, dl);
    check_macro_words(m, spec, dl);
    check_let_macros(m, spec, dl);
    check_verify(m, dl);
    check_emit_paths(spec, dl);
}
