/* sema_expr.c - expressions: names resolved, types checked, constants folded (see
 * sema_internal.h). */
#include "sema_internal.h"

#include <string.h>

#include "../base/suggest.h"
#include "eval.h"

static const struct {
    const char *name;
    builtin_fn fn;
    int min_args, max_args;
} functions[] = {
    {"min", FN_MIN, 1, 8},         {"max", FN_MAX, 1, 8},     {"cdiv", FN_CDIV, 2, 2}, {"ceil", FN_CEIL, 1, 1},
    {"floor", FN_FLOOR, 1, 1},     {"round", FN_ROUND, 1, 1}, {"abs", FN_ABS, 1, 1},   {"pow", FN_POW, 2, 2},
    {"log2", FN_LOG2, 1, 1},       {"sqrt", FN_SQRT, 1, 1},   {"int", FN_INT, 1, 1},   {"float", FN_FLOAT, 1, 1},
    {"is_pow2", FN_IS_POW2, 1, 1},
};
enum { NFUNCTIONS = sizeof functions / sizeof *functions };

const char *const sema_init_names[SEMA_NINIT_NAMES] = {"random", "constant", "ramp", "zeros", "file", "normal"};

/* The names in scope for a "did you mean" hint. */
static const char *suggest_name(const sema *s, const char *name, unsigned allow)
{
    const char **cands = arena_alloc(s->a, sizeof(char *) * (size_t)(s->nsyms + NFUNCTIONS + 1));
    if (!cands)
        return NULL;
    int n = 0;
    for (int i = 0; i < s->nsyms; i++) {
        sym_kind k = s->syms[i].kind;
        if ((k == SYM_TIME || k == SYM_METRIC) && !(allow & CX_TIME))
            continue;
        cands[n++] = s->syms[i].name;
    }
    return suggest_best(name, cands, (size_t)n);
}

/* ---- typed expression nodes ----------------------------------------------------- */

texpr *sema_node(sema *s, texpr_kind kind, vtype type, span loc)
{
    texpr *t = sema_alloc(s, sizeof *t);
    if (t) {
        t->kind = kind;
        t->type = type;
        t->loc = loc;
        t->depth = 1;
    }
    return t;
}

texpr *sema_error_node(sema *s, span loc)
{
    return sema_node(s, TX_CONST, VT_ERROR, loc);
}

texpr *sema_const_node(sema *s, value v, span loc)
{
    texpr *t = sema_node(s, TX_CONST, v.type, loc);
    if (t)
        t->u.k = v;
    return t;
}

/* reads_let: whether t reads a let by name in a constant part, or through a derived
 * let (see texpr.reads_let), from its parts, already lowered. */
static bool reads_let(const sema *s, const texpr *t)
{
    switch (t->kind) {
    case TX_LET: {
        const texpr *def = s->m->lets[t->u.index].expr;
        return def && def->reads_let;
    }
    case TX_UNARY: return t->u.op.a->reads_let;
    case TX_BINARY: return t->u.op.a->reads_let || t->u.op.b->reads_let;
    case TX_COND: return t->u.cond.cond->reads_let || t->u.cond.then->reads_let || t->u.cond.otherwise->reads_let;
    case TX_CHAIN:
    case TX_CALL: {
        int n = t->kind == TX_CHAIN ? t->u.chain.n : t->u.call.n;
        texpr *const *parts = t->kind == TX_CHAIN ? t->u.chain.operands : t->u.call.args;
        for (int i = 0; i < n; i++)
            if (parts[i]->reads_let)
                return true;
        return false;
    }
    default: return t->reads_let; /* a constant's is set where it is made */
    }
}

/* folded: the constant v that t folded into, recording t as what it was folded from. */
static texpr *folded(sema *s, value v, const texpr *t)
{
    texpr *k = sema_const_node(s, v, t->loc);
    if (k) {
        k->folded_from = t;
        k->reads_let = reads_let(s, t);
    }
    return k;
}

/* Folds a node whose inputs are all known into a constant; an evaluation error
 * (division by zero, overflow...) is reported at the operation. */
static texpr *fold(sema *s, texpr *t)
{
    if (!t || t->type == VT_ERROR || t->deps || t->uses_time || t->kind == TX_CONST || t->kind == TX_CTYPE)
        return t;
    eval_env env = {s->m, NULL, false, 0.0, NULL, false, 0.0, 0.0};
    value v;
    eval_error err;
    /* A failure is not reported here: the node may sit in a branch that is never taken
     * (false && 1 / 0). It stays unfolded, and fails when (and if) it is evaluated. */
    if (eval_expr(t, &env, &v, &err) < 0)
        return t;
    return folded(s, v, t);
}

/* A whole expression that reads nothing but still did not fold has an evaluation
 * error that is certain to happen: report it now, at the operation that fails. */
static texpr *report_unfolded(sema *s, texpr *t)
{
    if (!t || t->type == VT_ERROR || t->deps || t->uses_time || t->kind == TX_CONST || t->kind == TX_CTYPE)
        return t;
    eval_env env = {s->m, NULL, false, 0.0, NULL, false, 0.0, 0.0};
    value v;
    eval_error err;
    if (eval_expr(t, &env, &v, &err) < 0) {
        diag_error(s->dl, err.loc, "%s", err.message);
        return sema_error_node(s, t->loc);
    }
    return folded(s, v, t);
}

static texpr *lower_node(sema *s, const ast_expr *e, unsigned allow);

/* Why the value being lowered cannot read params, for "'x' is a param, but ...". */
static const char *const_reason(const sema *s)
{
    return s->const_reason ? s->const_reason : "this value must be known before any configuration is chosen";
}

/* lower_name: the name `e` resolved: a param, a let (its value when constant), a metric
 * or the time, where `allow` lets it be read; an error node after saying why not (an
 * argument, an init function or an unknown name, with a "did you mean"). */
static texpr *lower_name(sema *s, const ast_expr *e, unsigned allow)
{
    const char *name = e->u.name;
    const sym *sy = sema_find_sym(s, name);
    if (!sy) {
        for (int i = 0; i < s->spec->len; i++) {
            const ast_item *it = s->spec->items[i];
            if (it->kind == IT_ARG && strcmp(it->u.arg.name.name, name) == 0) {
                const ast_expr *init = it->u.arg.init;
                uint32_t len = init ? init->loc.end - init->loc.begin : 0;
                if (!it->u.arg.count && init && len <= 40 &&
                    !memchr(s->spec->src->text + init->loc.begin, '\n', len)) /* a scalar: share its value */
                    diag_error(s->dl, e->loc,
                               "'%s' is a kernel argument, not a value; to use its value, make it a "
                               "let and pass that (let %s = %.*s; arg %s : %s = %s;)",
                               name, name, (int)len, s->spec->src->text + init->loc.begin, name,
                               ast_ctype_name(it->u.arg.type), name);
                else
                    diag_error(s->dl, e->loc,
                               "'%s' is a kernel argument, not a value (expressions use params, "
                               "lets and metrics)",
                               name);
                return sema_error_node(s, e->loc);
            }
        }
        for (size_t i = 0; i < sizeof sema_init_names / sizeof *sema_init_names; i++)
            if (strcmp(sema_init_names[i], name) == 0) {
                diag_error(s->dl, e->loc, "'%s' sets a buffer's initial contents and is not a value here", name);
                return sema_error_node(s, e->loc);
            }
        const char *best = suggest_name(s, name, allow);
        if (best)
            diag_error(s->dl, e->loc, "unknown name '%s'; did you mean '%s'?", name, best);
        else
            diag_error(s->dl, e->loc, "unknown name '%s'", name);
        return sema_error_node(s, e->loc);
    }
    switch (sy->kind) {
    case SYM_PARAM: {
        if (!(allow & CX_PARAMS)) {
            diag_error(s->dl, e->loc, "'%s' is a param, but %s", name, const_reason(s));
            return sema_error_node(s, e->loc);
        }
        /* Read by a let that its own values use (param x in [a], let a = x * 2): the type is
         * not known yet, but the deps are, and they make the let fail where it is used. */
        bool busy = s->param_state[sy->index] == ST_BUSY;
        if (!busy && sema_settle_param(s, sy->index) < 0)
            return sema_error_node(s, e->loc);
        texpr *t = sema_node(s, TX_PARAM, busy ? VT_INT : s->m->params[sy->index].dom.type, e->loc);
        if (t) {
            t->u.index = sy->index;
            t->deps = (param_set)1 << sy->index;
        }
        return t;
    }
    case SYM_LET: {
        texpr *def = sema_settle_let(s, sy->index, e->loc);
        if (!def || def->type == VT_ERROR)
            return sema_error_node(s, e->loc);
        if (def->deps && !(allow & CX_PARAMS)) {
            diag_error(s->dl, e->loc, "'%s' depends on params, but %s", name, const_reason(s));
            return sema_error_node(s, e->loc);
        }
        if (def->kind == TX_CONST) {
            texpr *k = sema_const_node(s, def->u.k, e->loc);
            if (k) {
                k->from_let = &s->m->lets[sy->index];
                k->reads_let = true;
            }
            return k;
        }
        texpr *t = sema_node(s, TX_LET, def->type, e->loc);
        if (t) {
            t->u.index = sy->index;
            t->deps = def->deps;
        }
        return t;
    }
    case SYM_METRIC: {
        if (!(allow & CX_TIME)) {
            diag_error(s->dl, e->loc,
                       "metric '%s' depends on the measured time; use it only in another metric "
                       "or the objective",
                       name);
            return sema_error_node(s, e->loc);
        }
        texpr *def = sema_settle_metric(s, sy->index, e->loc);
        if (!def || def->type == VT_ERROR)
            return sema_error_node(s, e->loc);
        texpr *t = sema_node(s, TX_METRIC, def->type, e->loc);
        if (t) {
            t->u.index = sy->index;
            t->deps = def->deps;
            t->uses_time = true;
        }
        return t;
    }
    case SYM_DEVICE: {
        if (!s->opts || !s->opts->device) {
            diag_error(s->dl, e->loc,
                       "'%s' is a device attribute (%s), but this check was given no device or "
                       "architecture to read it from",
                       name, dev_attr_what((dev_attr)sy->index));
            return sema_error_node(s, e->loc);
        }
        s->m->device_used |= (uint32_t)1 << sy->index;
        return sema_const_node(s, value_int(s->opts->device->v[sy->index]), e->loc);
    }
    case SYM_TIME:
        if (!(allow & CX_TIME)) {
            diag_error(s->dl, e->loc,
                       "'%s' is only known after the kernel runs; use it in a metric or the "
                       "objective",
                       name);
            return sema_error_node(s, e->loc);
        }
        texpr *t = sema_node(s, TX_TIME, VT_FLOAT, e->loc);
        if (t) {
            t->u.time_scale = sy->time_scale;
            t->measured = sy->index; /* MQ_TIME, or an energy quantity */
            t->uses_time = true;
        }
        return t;
    }
    return sema_error_node(s, e->loc);
}

/* Checks operand types of a binary operator and gives the result type (VT_ERROR after
 * reporting a mismatch). */
static vtype binary_type(sema *s, ast_op op, const texpr *a, const texpr *b, span loc)
{
    const char *op_text = ast_op_text(op);
    const texpr *bad = NULL;
    const char *need = NULL;
    switch (op) {
    case OP_ADD:
    case OP_SUB:
    case OP_MUL:
    case OP_DIV:
    case OP_FLOORDIV:
    case OP_POW:
        need = "numbers";
        bad = !is_num(a->type) ? a : !is_num(b->type) ? b : NULL;
        break;
    case OP_MOD:
    case OP_SHL:
    case OP_SHR:
    case OP_BITAND:
    case OP_BITOR:
    case OP_BITXOR:
        need = "ints";
        bad = a->type != VT_INT ? a : b->type != VT_INT ? b : NULL;
        break;
    case OP_AND:
    case OP_OR:
        need = "bools";
        bad = a->type != VT_BOOL ? a : b->type != VT_BOOL ? b : NULL;
        break;
    default: break;
    }
    if (bad) {
        const char *side = bad == a ? "left" : "right";
        if (need[0] == 'b' && is_num(bad->type))
            diag_error(s->dl, bad->loc,
                       "operator '%s' needs bools, but its %s operand is %s (compare it, "
                       "e.g. x != 0)",
                       op_text, side, a_or_an(bad->type));
        else
            diag_error(s->dl, bad->loc, "operator '%s' needs %s, but its %s operand is %s", op_text, need, side,
                       a_or_an(bad->type));
        (void)loc;
        return VT_ERROR;
    }
    switch (op) {
    case OP_DIV: return VT_FLOAT;
    case OP_AND:
    case OP_OR: return VT_BOOL;
    case OP_ADD:
    case OP_SUB:
    case OP_MUL:
    case OP_FLOORDIV:
    case OP_POW: return a->type == VT_INT && b->type == VT_INT ? VT_INT : VT_FLOAT;
    default: return VT_INT;
    }
}

/* comparable: whether `a op b` is a valid comparison (numbers with numbers; strings and
 * bools only with == and !=); false after reporting why not. */
static bool comparable(sema *s, ast_op op, const texpr *a, const texpr *b)
{
    if (is_num(a->type) && is_num(b->type))
        return true;
    if (a->type == b->type && (a->type == VT_STRING || a->type == VT_BOOL)) {
        if (op == OP_EQ || op == OP_NE)
            return true;
        diag_error(s->dl, src_span_join(a->loc, b->loc), "%ss can only be compared with == and !=, not '%s'",
                   vtype_name(a->type), ast_op_text(op));
        return false;
    }
    diag_error(s->dl, src_span_join(a->loc, b->loc), "cannot compare %s with %s", a_or_an(a->type), a_or_an(b->type));
    return false;
}

/* lower_call: a call of a builtin, its function resolved, its arguments counted and
 * typed, its result typed, folded when it reads nothing; an error node after reporting. */
static texpr *lower_call(sema *s, const ast_expr *e, unsigned allow)
{
    const char *name = e->u.call.name;
    int fi = -1;
    for (int i = 0; i < NFUNCTIONS; i++)
        if (strcmp(functions[i].name, name) == 0)
            fi = i;
    if (fi < 0) {
        for (size_t i = 0; i < sizeof sema_init_names / sizeof *sema_init_names; i++)
            if (strcmp(sema_init_names[i], name) == 0) {
                diag_error(s->dl, e->loc, "%s(...) sets a buffer argument's initial contents; it is not a value", name);
                return sema_error_node(s, e->loc);
            }
        const char *names[NFUNCTIONS];
        for (int i = 0; i < NFUNCTIONS; i++)
            names[i] = functions[i].name;
        const char *best = suggest_best(name, names, NFUNCTIONS);
        if (best)
            diag_error(s->dl, e->u.call.name_loc, "unknown function '%s'; did you mean '%s'?", name, best);
        else
            diag_error(s->dl, e->u.call.name_loc,
                       "unknown function '%s' (the functions are min, max, cdiv, ceil, "
                       "floor, round, abs, pow, log2, sqrt, int, float, is_pow2)",
                       name);
        return sema_error_node(s, e->loc);
    }
    int n = e->u.call.args.len;
    if (n < functions[fi].min_args || n > functions[fi].max_args) {
        if (functions[fi].min_args == functions[fi].max_args)
            diag_error(s->dl, e->loc, "%s() takes %d argument%s, not %d", name, functions[fi].min_args,
                       functions[fi].min_args == 1 ? "" : "s", n);
        else
            diag_error(s->dl, e->loc, "%s() takes %d to %d arguments, not %d", name, functions[fi].min_args,
                       functions[fi].max_args, n);
        return sema_error_node(s, e->loc);
    }
    texpr *t = sema_node(s, TX_CALL, VT_ERROR, e->loc);
    if (!t)
        return NULL;
    t->u.call.fn = functions[fi].fn;
    t->u.call.n = n;
    t->u.call.args = sema_alloc(s, sizeof(texpr *) * (size_t)n);
    if (!t->u.call.args)
        return NULL;
    bool broken = false, any_float = false;
    for (int i = 0; i < n; i++) {
        const ast_arg *arg = &e->u.call.args.items[i];
        if (arg->name) {
            diag_error(s->dl, arg->name_loc, "%s() takes no named arguments", name);
            broken = true;
        }
        texpr *x = lower_node(s, arg->value, allow & ~CX_CTYPE);
        if (!x)
            return NULL;
        t->u.call.args[i] = x;
        t->deps |= x->deps;
        t->uses_time |= x->uses_time;
        if (x->type == VT_ERROR) {
            broken = true;
            continue;
        }
        builtin_fn fn = functions[fi].fn;
        bool ok = fn == FN_CDIV || fn == FN_IS_POW2 ? x->type == VT_INT
                  : fn == FN_INT || fn == FN_FLOAT  ? x->type != VT_STRING
                                                    : is_num(x->type);
        if (!ok) {
            diag_error(s->dl, x->loc, "%s() needs %s, but argument %d is %s", name,
                       fn == FN_CDIV || fn == FN_IS_POW2 ? "ints" : "numbers", i + 1, a_or_an(x->type));
            broken = true;
        }
        any_float |= x->type == VT_FLOAT;
    }
    if (broken)
        return sema_error_node(s, e->loc);
    switch (functions[fi].fn) {
    case FN_MIN:
    case FN_MAX:
    case FN_ABS:
    case FN_POW: t->type = any_float ? VT_FLOAT : VT_INT; break;
    case FN_CDIV:
    case FN_CEIL:
    case FN_FLOOR:
    case FN_ROUND:
    case FN_INT: t->type = VT_INT; break;
    case FN_LOG2:
    case FN_SQRT:
    case FN_FLOAT: t->type = VT_FLOAT; break;
    case FN_IS_POW2: t->type = VT_BOOL; break;
    }
    return fold(s, t);
}

/* node_depth: t's nesting (see texpr.depth) from its parts, already lowered. */
static int node_depth(const sema *s, const texpr *t)
{
    int d = 0;
    switch (t->kind) {
    case TX_LET: {
        const texpr *def = s->m->lets[t->u.index].expr;
        d = def ? def->depth : 0;
        break;
    }
    case TX_METRIC: {
        const texpr *def = s->m->metrics[t->u.index].expr;
        d = def ? def->depth : 0;
        break;
    }
    case TX_UNARY:
    case TX_BINARY:
        d = t->u.op.a->depth;
        if (t->u.op.b && t->u.op.b->depth > d)
            d = t->u.op.b->depth;
        break;
    case TX_COND:
        d = t->u.cond.cond->depth;
        d = t->u.cond.then->depth > d ? t->u.cond.then->depth : d;
        d = t->u.cond.otherwise->depth > d ? t->u.cond.otherwise->depth : d;
        break;
    case TX_CHAIN:
    case TX_CALL: {
        int n = t->kind == TX_CHAIN ? t->u.chain.n : t->u.call.n;
        texpr *const *parts = t->kind == TX_CHAIN ? t->u.chain.operands : t->u.call.args;
        for (int i = 0; i < n; i++)
            d = parts[i]->depth > d ? parts[i]->depth : d;
        break;
    }
    default: break;
    }
    return d + 1;
}

static texpr *lower_node_here(sema *s, const ast_expr *e, unsigned allow);

/* lower_node: the typed, resolved, folded form of `e` (a sub-expression), with its
 * depth. The parser bounds the depth of one expression; through the lets it reads (let
 * a1 = a0 + 1; let a2 = a1 + 1; ...) both this recursion and the expression built
 * could still grow without bound, so both are held to AST_MAX_DEPTH: beyond it, one
 * error where the bound is crossed, and an error node that silences the levels above. */
static texpr *lower_node(sema *s, const ast_expr *e, unsigned allow)
{
    if (s->depth >= AST_MAX_DEPTH) {
        diag_error(s->dl, e ? e->loc : (span){0, 0},
                   "expression nested too deeply (more than %d levels, counting "
                   "the lets it reads)",
                   AST_MAX_DEPTH);
        return sema_error_node(s, e ? e->loc : (span){0, 0});
    }
    s->depth++;
    texpr *t = lower_node_here(s, e, allow);
    s->depth--;
    if (!t || t->type == VT_ERROR)
        return t;
    t->depth = node_depth(s, t);
    t->reads_let = reads_let(s, t);
    if (t->depth > AST_MAX_DEPTH) {
        diag_error(s->dl, t->loc, "expression nested too deeply (more than %d levels, counting the lets it reads)",
                   AST_MAX_DEPTH);
        return sema_error_node(s, t->loc);
    }
    return t;
}

/* lower_node_here: lower_node's work for the node `e` itself. */
static texpr *lower_node_here(sema *s, const ast_expr *e, unsigned allow)
{
    if (!e)
        return sema_error_node(s, (span){0, 0});
    switch (e->kind) {
    case EX_INT: return sema_const_node(s, value_int(e->u.ival), e->loc);
    case EX_FLOAT: return sema_const_node(s, value_float(e->u.fval), e->loc);
    case EX_BOOL: return sema_const_node(s, value_bool(e->u.bval), e->loc);
    case EX_STRING: return sema_const_node(s, value_string(e->u.sval), e->loc);
    case EX_NAME: return lower_name(s, e, allow);
    case EX_CTYPE:
        if (allow & CX_CTYPE) {
            texpr *t = sema_node(s, TX_CTYPE, VT_STRING, e->loc);
            if (t)
                t->u.ctype = e->u.ctype;
            return t;
        }
        diag_error(s->dl, e->loc,
                   "the type name '%s' is not a value (types are allowed only as template "
                   "arguments and in arg declarations)",
                   ast_ctype_name(e->u.ctype));
        return sema_error_node(s, e->loc);
    case EX_CALL: return lower_call(s, e, allow);
    case EX_IN: return sema_lower_in(s, e, allow & ~CX_CTYPE);
    case EX_UNARY: {
        texpr *a = lower_node(s, e->u.unary.operand, allow & ~CX_CTYPE);
        if (!a || a->type == VT_ERROR)
            return a;
        ast_op op = e->u.unary.op;
        vtype want_ok = op == OP_NOT ? VT_BOOL : op == OP_BITNOT ? VT_INT : VT_ERROR;
        bool ok = want_ok == VT_ERROR ? is_num(a->type) : a->type == want_ok;
        if (!ok) {
            diag_error(s->dl, a->loc, "operator '%s' needs %s, but its operand is %s", ast_op_text(op),
                       op == OP_NOT      ? "a bool"
                       : op == OP_BITNOT ? "an int"
                                         : "a number",
                       a_or_an(a->type));
            return sema_error_node(s, e->loc);
        }
        return fold(s, sema_unary_node(s, op, a->type, a, e->loc));
    }
    case EX_BINARY: {
        texpr *a = lower_node(s, e->u.binary.lhs, allow & ~CX_CTYPE);
        texpr *b = lower_node(s, e->u.binary.rhs, allow & ~CX_CTYPE);
        if (!a || !b)
            return NULL;
        if (a->type == VT_ERROR || b->type == VT_ERROR)
            return sema_error_node(s, e->loc);
        vtype ty = binary_type(s, e->u.binary.op, a, b, e->loc);
        if (ty == VT_ERROR)
            return sema_error_node(s, e->loc);
        texpr *t = sema_node(s, TX_BINARY, ty, e->loc);
        if (!t)
            return NULL;
        t->u.op.op = e->u.binary.op;
        t->u.op.a = a;
        t->u.op.b = b;
        t->deps = a->deps | b->deps;
        t->uses_time = a->uses_time || b->uses_time;
        return fold(s, t);
    }
    case EX_CHAIN: {
        int n = e->u.chain.operands.len;
        texpr *t = sema_node(s, TX_CHAIN, VT_BOOL, e->loc);
        if (!t || !(t->u.chain.operands = sema_alloc(s, sizeof(texpr *) * (size_t)n)))
            return NULL;
        t->u.chain.n = n;
        t->u.chain.ops = e->u.chain.ops;
        bool broken = false;
        for (int i = 0; i < n; i++) {
            texpr *x = lower_node(s, e->u.chain.operands.items[i], allow & ~CX_CTYPE);
            if (!x)
                return NULL;
            t->u.chain.operands[i] = x;
            t->deps |= x->deps;
            t->uses_time |= x->uses_time;
            if (x->type == VT_ERROR)
                broken = true;
            else if (i > 0 && t->u.chain.operands[i - 1]->type != VT_ERROR &&
                     !comparable(s, e->u.chain.ops[i - 1], t->u.chain.operands[i - 1], x))
                broken = true;
        }
        return broken ? sema_error_node(s, e->loc) : fold(s, t);
    }
    case EX_COND: {
        texpr *c = lower_node(s, e->u.cond.cond, allow & ~CX_CTYPE);
        texpr *a = lower_node(s, e->u.cond.then, allow & ~CX_CTYPE);
        texpr *b = lower_node(s, e->u.cond.otherwise, allow & ~CX_CTYPE);
        if (!c || !a || !b)
            return NULL;
        if (c->type == VT_ERROR || a->type == VT_ERROR || b->type == VT_ERROR)
            return sema_error_node(s, e->loc);
        if (c->type != VT_BOOL) {
            diag_error(s->dl, c->loc, "the condition of '?:' must be a bool, but it is %s", a_or_an(c->type));
            return sema_error_node(s, e->loc);
        }
        vtype ty = a->type;
        if (a->type != b->type) {
            if (is_num(a->type) && is_num(b->type)) {
                ty = VT_FLOAT;
            } else {
                diag_error(s->dl, src_span_join(a->loc, b->loc),
                           "the two branches of '?:' have different types (%s "
                           "and %s)",
                           vtype_name(a->type), vtype_name(b->type));
                return sema_error_node(s, e->loc);
            }
        }
        texpr *t = sema_node(s, TX_COND, ty, e->loc);
        if (!t)
            return NULL;
        t->u.cond.cond = c;
        t->u.cond.then = a;
        t->u.cond.otherwise = b;
        t->deps = c->deps | a->deps | b->deps;
        t->uses_time = c->uses_time || a->uses_time || b->uses_time;
        return fold(s, t);
    }
    }
    return sema_error_node(s, e->loc);
}

texpr *sema_lower_node(sema *s, const ast_expr *e, unsigned allow)
{
    return lower_node(s, e, allow);
}

texpr *sema_unary_node(sema *s, ast_op op, vtype type, texpr *a, span loc)
{
    texpr *t = sema_node(s, TX_UNARY, type, loc);
    if (!t)
        return NULL;
    t->u.op.op = op;
    t->u.op.a = a;
    t->deps = a->deps;
    t->uses_time = a->uses_time;
    return t;
}

texpr *sema_finish_node(sema *s, texpr *t)
{
    if (!t || t->type == VT_ERROR)
        return t;
    t->depth = node_depth(s, t);
    t->reads_let = reads_let(s, t);
    texpr *f = fold(s, t);
    if (f && f != t)
        f->depth = 1;
    return f;
}

/* lower: the typed, resolved, folded form of a whole expression `e`; never NULL
 * unless out of memory. `allow` says what may be referred to (CX_*). */
texpr *sema_lower(sema *s, const ast_expr *e, unsigned allow)
{
    return report_unfolded(s, lower_node(s, e, allow));
}

/* Whether `e` divides with '/', itself or through the lets it names (up to a few levels):
 * the reason, most of the time, why a whole number turned into a float. */
bool sema_divides(const sema *s, const ast_expr *e, int depth)
{
    if (!e || depth > 8)
        return false;
    switch (e->kind) {
    case EX_BINARY:
        return e->u.binary.op == OP_DIV || sema_divides(s, e->u.binary.lhs, depth) ||
               sema_divides(s, e->u.binary.rhs, depth);
    case EX_UNARY: return sema_divides(s, e->u.unary.operand, depth);
    case EX_COND: return sema_divides(s, e->u.cond.then, depth) || sema_divides(s, e->u.cond.otherwise, depth);
    case EX_CALL:
        for (int i = 0; i < e->u.call.args.len; i++)
            if (sema_divides(s, e->u.call.args.items[i].value, depth))
                return true;
        return false;
    case EX_NAME: {
        const sym *sy = sema_find_sym(s, e->u.name);
        return sy && sy->kind == SYM_LET && sema_divides(s, s->let_items[sy->index]->u.let.value, depth + 1);
    }
    default: return false;
    }
}

/* lower_as: lowers `e` and checks its type is `want` (an int is accepted where a float
 * is wanted). Reports "<what> must be <want>, but it is <got>". */
texpr *sema_lower_as(sema *s, const ast_expr *e, unsigned allow, vtype want, const char *what)
{
    texpr *t = sema_lower(s, e, allow);
    if (!t || t->type == VT_ERROR)
        return t;
    if (t->type == want)
        return t;
    if (want == VT_FLOAT && t->type == VT_INT)
        return t;
    if (want == VT_BOOL && is_num(t->type))
        diag_error(s->dl, t->loc, "%s must be a bool (a condition), but it is %s", what, a_or_an(t->type));
    else if (want == VT_INT && t->type == VT_FLOAT)
        diag_error(s->dl, t->loc, "%s must be an int, but it is a float%s", what,
                   sema_divides(s, e, 0) ? " ('/' divides exactly; use '//' or cdiv() for whole numbers)" : "");
    else
        diag_error(s->dl, t->loc, "%s must be %s, but it is %s", what, a_or_an(want), a_or_an(t->type));
    return sema_error_node(s, t->loc);
}

/* A constant of the wanted type, or false after reporting why not. */
bool sema_lower_const(sema *s, const ast_expr *e, vtype want, const char *what, value *out)
{
    texpr *t = sema_lower_as(s, e, 0, want, what);
    if (!t || t->type == VT_ERROR)
        return false;
    *out = t->u.k;
    if (want == VT_FLOAT && out->type == VT_INT)
        *out = value_float((double)out->u.i);
    return true;
}
