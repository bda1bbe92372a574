/* sema_member.c - membership: `x in [a, b, ...]` and `x not in [...]` (docs/language.md,
 * section 10), checked and lowered into the comparisons they mean, so that every later
 * stage (evaluation, counting, the header's C) sees only ==, || and !. */
#include "sema_internal.h"

#include <string.h>

/* The OR of eqs[lo..hi), as a balanced tree: a list of n values nests log2(n) levels, not
 * n, so a long list stays within the depth bound. */
static texpr *any_of(sema *s, texpr **eqs, int lo, int hi, span loc)
{
    if (hi - lo == 1)
        return eqs[lo];
    int mid = lo + (hi - lo) / 2;
    texpr *a = any_of(s, eqs, lo, mid, loc), *b = any_of(s, eqs, mid, hi, loc);
    texpr *t = a && b ? sema_node(s, TX_BINARY, VT_BOOL, loc) : NULL;
    if (!t)
        return NULL;
    t->u.op.op = OP_OR;
    t->u.op.a = a;
    t->u.op.b = b;
    t->deps = a->deps | b->deps;
    t->uses_time = a->uses_time || b->uses_time;
    return sema_finish_node(s, t);
}

/* x == v, with x lowered again (each comparison owns its operands: later stages may
 * rewrite a node in place). */
static texpr *equals(sema *s, const ast_expr *e, texpr *v, unsigned allow)
{
    texpr *x = sema_lower_node(s, e->u.in.item, allow);
    texpr *t = x ? sema_node(s, TX_CHAIN, VT_BOOL, e->loc) : NULL;
    ast_op *op = t ? sema_alloc(s, sizeof *op) : NULL;
    texpr **operands = op ? sema_alloc(s, sizeof *operands * 2) : NULL;
    if (!operands)
        return NULL;
    model_chain_of_two(t, operands, op, x, OP_EQ, v);
    return sema_finish_node(s, t);
}

texpr *sema_lower_in(sema *s, const ast_expr *e, unsigned allow)
{
    const ast_expr_list *values = &e->u.in.values;
    const char *op = e->u.in.negated ? "not in" : "in";
    texpr *x = sema_lower_node(s, e->u.in.item, allow);
    if (!x)
        return NULL;
    if (values->len == 0) {
        diag_error(s->dl, e->u.in.list_loc, "'%s' needs a list of at least one value: x %s [1, 2, 4]", op, op);
        return sema_error_node(s, e->loc);
    }
    texpr **eqs = sema_alloc(s, sizeof *eqs * (size_t)values->len);
    if (!eqs)
        return NULL;
    bool broken = x->type == VT_ERROR;
    for (int i = 0; i < values->len; i++) {
        texpr *v = sema_lower_node(s, values->items[i], allow);
        if (!v)
            return NULL;
        if (v->type == VT_ERROR || x->type == VT_ERROR) {
            broken = true;
            continue;
        }
        if (!(is_num(x->type) && is_num(v->type)) && x->type != v->type) {
            diag_error(s->dl, v->loc,
                       "'%s' compares its left side, %s, with each value of the list, and this one is %s "
                       "(numbers compare with numbers, strings with strings, bools with bools)",
                       op, a_or_an(x->type), a_or_an(v->type));
            broken = true;
            continue;
        }
        if (!broken && !(eqs[i] = equals(s, e, v, allow)))
            return NULL;
    }
    if (broken)
        return sema_error_node(s, e->loc);
    texpr *any = any_of(s, eqs, 0, values->len, e->loc);
    if (!any || !e->u.in.negated)
        return any;
    return sema_finish_node(s, sema_unary_node(s, OP_NOT, VT_BOOL, any, e->loc));
}
