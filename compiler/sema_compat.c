/* sema_compat.c - `compat kernel_tuner;`: Kernel Tuner's conventions, opted in per kernel
 * block (docs/language.md, section 12). Kernel Tuner compiles every kernel with the
 * macros block_size_x/y/z and grid_size_x/y/z set to the launch's dimensions, and adds
 * block_size_x * block_size_y * block_size_z <= 1024 to every space; a kernel written
 * for it reads those macros, and its spaces count on that restriction. */
#include "sema_internal.h"

#include <string.h>

#include "../base/suggest.h"

static const char *const macros[6] = {"block_size_x", "block_size_y", "block_size_z",
                                      "grid_size_x",  "grid_size_y",  "grid_size_z"};

/* Whether a param or a let `as define` of m defines `macro` already (Kernel Tuner specs
 * name their block params block_size_x: the param's value is the block's then). */
static bool defined_by_spec(const model *m, const char *macro)
{
    for (int i = 0; i < m->nparams; i++)
        if (m->params[i].route == ROUTE_DEFINE && m->params[i].macro && strcmp(m->params[i].macro, macro) == 0)
            return true;
    for (int i = 0; i < m->nlets; i++)
        if (m->lets[i].macro && strcmp(m->lets[i].macro, macro) == 0)
            return true;
    return false;
}

/* The block's threads, block x * y * z, of the lowered dimensions (NULL: none usable). */
static texpr *threads(sema *s, span loc)
{
    const model *m = s->m;
    texpr *t = NULL;
    for (int d = 0; d < m->block_dims; d++) {
        texpr *x = m->block[d];
        if (!x || x->type != VT_INT)
            return NULL;
        if (!t) {
            t = x;
            continue;
        }
        texpr *mul = sema_node(s, TX_BINARY, VT_INT, loc);
        if (!mul)
            return NULL;
        mul->u.op.op = OP_MUL;
        mul->u.op.a = t;
        mul->u.op.b = x;
        mul->deps = t->deps | x->deps;
        t = sema_finish_node(s, mul);
    }
    return t;
}

void sema_check_compat(sema *s, const ast_item *it)
{
    model *m = s->m;
    const ast_name *who = &it->u.compat;
    if (strcmp(who->name, "kernel_tuner") != 0) {
        static const char *const known[] = {"kernel_tuner"};
        const char *best = suggest_best(who->name, known, 1);
        diag_error(s->dl, who->loc, "unknown compat '%s'%s%s%s (cutune knows kernel_tuner)", who->name,
                   best ? "; did you mean '" : "", best ? best : "", best ? "'?" : "");
        return;
    }
    for (int k = 0; k < 6; k++)
        m->compat_macros[k] = defined_by_spec(m, macros[k]) ? NULL : macros[k];
    texpr *n = threads(s, it->loc);
    if (!n || n->type == VT_ERROR)
        return;
    if (n->kind == TX_CONST) { /* the block does not vary: the restriction holds or never can */
        if (n->u.k.u.i > 1024)
            diag_error(s->dl, it->loc,
                       "the block has %lld threads, and compat kernel_tuner allows at most 1024 "
                       "(block_size_x * block_size_y * block_size_z <= 1024)",
                       (long long)n->u.k.u.i);
        return;
    }
    texpr *le = sema_node(s, TX_CHAIN, VT_BOOL, it->loc);
    ast_op *op = le ? sema_alloc(s, sizeof *op) : NULL;
    texpr **parts = op ? sema_alloc(s, sizeof *parts * 2) : NULL;
    texpr *limit = parts ? sema_const_node(s, value_int(1024), it->loc) : NULL;
    if (!limit)
        return;
    model_chain_of_two(le, parts, op, n, OP_LE, limit);
    le = sema_finish_node(s, le);
    m_require r = {le, it->loc, false};
    s->used |= le->deps;
    if (ARENA_PUSH(s->a, m->requires, m->nrequires, s->caps[CAP_REQUIRES], r) < 0)
        s->oom = true;
}
