/* sema.c - checks a syntax tree and builds the model (see sema.h).
 *
 * Order of work: collect every declared name (so statements may come in any order),
 * then settle params (their domains are constant expressions), then every other
 * statement. Lets, metrics and param domains are lowered on demand with cycle
 * detection, so `let a = b; let b = 2;` works and `let a = a + 1;` is an error.
 * A failed sub-expression becomes an error node (type VT_ERROR) that silences
 * follow-on errors, so each mistake is reported once. */
#include "sema.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../base/suggest.h"
#include "../base/utf8.h"
#include "eval.h"
#include "rules.h"

/* ---- symbols ------------------------------------------------------------------ */

typedef enum sym_kind { SYM_PARAM, SYM_LET, SYM_METRIC, SYM_TIME } sym_kind;

typedef struct sym {
    const char *name;
    span loc;
    sym_kind kind;
    int index;          /* into the model's params / lets / metrics */
    double time_scale;  /* SYM_TIME: seconds -> this unit */
} sym;

enum { ST_TODO, ST_BUSY, ST_DONE };

typedef struct sema {
    arena *a;
    diag_list *dl;
    const ast_spec *spec;
    const sema_options *opts;
    model *m;
    sym *syms;
    int nsyms, capsyms;
    const ast_item **param_items, **let_items, **metric_items;
    int *param_state, *let_state, *metric_state;
    int *let_stack;     /* the lets being settled, innermost last (to name a cycle) */
    int let_depth;
    int depth;          /* lower_node calls in progress (bounded by AST_MAX_DEPTH) */
    const char *const_reason; /* why a value must be constant here (NULL: the general reason) */
    param_set used;     /* params some expression reads */
    int errors_before;  /* errors in the list before the check began */
    bool oom;
    int caps[8];        /* capacities of the model's vectors */
} sema;

enum { CAP_PARAMS, CAP_LETS, CAP_REQUIRES, CAP_ARGS, CAP_METRICS, CAP_INCLUDES, CAP_OPTIONS };

/* What an expression may refer to where it is written. */
enum {
    CX_PARAMS = 1,  /* params, and lets that depend on them */
    CX_TIME = 2,    /* the measured time and metrics */
    CX_CTYPE = 4    /* a C type name (template arguments) */
};

static const struct {
    const char *name;
    double scale;
} time_names[] = {{"time", 1.0}, {"time_s", 1.0}, {"time_ms", 1e3}, {"time_us", 1e6}};

static const struct {
    const char *name;
    builtin_fn fn;
    int min_args, max_args;
} functions[] = {
    {"min", FN_MIN, 1, 8}, {"max", FN_MAX, 1, 8}, {"cdiv", FN_CDIV, 2, 2}, {"ceil", FN_CEIL, 1, 1},
    {"floor", FN_FLOOR, 1, 1}, {"round", FN_ROUND, 1, 1}, {"abs", FN_ABS, 1, 1}, {"pow", FN_POW, 2, 2},
    {"log2", FN_LOG2, 1, 1}, {"sqrt", FN_SQRT, 1, 1}, {"int", FN_INT, 1, 1}, {"float", FN_FLOAT, 1, 1},
    {"is_pow2", FN_IS_POW2, 1, 1},
};
enum { NFUNCTIONS = sizeof functions / sizeof *functions };

static const char *const init_names[] = {"random", "constant", "ramp", "zeros"};

static bool is_num(vtype t) { return t == VT_INT || t == VT_FLOAT; }

static void *alloc(sema *s, size_t n)
{
    void *p = arena_alloc(s->a, n);
    if (!p)
        s->oom = true;
    return p;
}

static const sym *find_sym(const sema *s, const char *name)
{
    for (int i = 0; i < s->nsyms; i++)
        if (strcmp(s->syms[i].name, name) == 0)
            return &s->syms[i];
    return NULL;
}

static const char *sym_kind_name(sym_kind k)
{
    return k == SYM_PARAM ? "param" : k == SYM_LET ? "let" : k == SYM_METRIC ? "metric" : "built-in name";
}

/* Declares a name, reporting a clash with an earlier declaration. */
static void declare(sema *s, const char *name, span loc, sym_kind kind, int index)
{
    const sym *old = find_sym(s, name);
    if (old) {
        if (old->kind == SYM_TIME)
            diag_error(s->dl, loc, "'%s' is a built-in name (the measured time); choose another name", name);
        else if (old->kind == kind)
            diag_error(s->dl, loc, "duplicate %s '%s'", sym_kind_name(kind), name);
        else
            diag_error(s->dl, loc, "'%s' is already declared as a %s", name, sym_kind_name(old->kind));
        if (old->kind != SYM_TIME)
            diag_note(s->dl, true, old->loc, "'%s' was first declared here", name);
        return;
    }
    sym n = {name, loc, kind, index, 1.0};
    if (ARENA_PUSH(s->a, s->syms, s->nsyms, s->capsyms, n) < 0)
        s->oom = true;
}

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

static texpr *node(sema *s, texpr_kind kind, vtype type, span loc)
{
    texpr *t = alloc(s, sizeof *t);
    if (t) {
        t->kind = kind;
        t->type = type;
        t->loc = loc;
        t->depth = 1;
    }
    return t;
}

static texpr *error_node(sema *s, span loc)
{
    return node(s, TX_CONST, VT_ERROR, loc);
}

static texpr *const_node(sema *s, value v, span loc)
{
    texpr *t = node(s, TX_CONST, v.type, loc);
    if (t)
        t->u.k = v;
    return t;
}

/* Folds a node whose inputs are all known into a constant; an evaluation error
 * (division by zero, overflow...) is reported at the operation. */
static texpr *fold(sema *s, texpr *t)
{
    if (!t || t->type == VT_ERROR || t->deps || t->uses_time || t->kind == TX_CONST || t->kind == TX_CTYPE)
        return t;
    eval_env env = {s->m, NULL, false, 0.0, NULL};
    value v;
    eval_error err;
    /* A failure is not reported here: the node may sit in a branch that is never taken
     * (false && 1 / 0). It stays unfolded, and fails when (and if) it is evaluated. */
    if (eval_expr(t, &env, &v, &err) < 0)
        return t;
    return const_node(s, v, t->loc);
}

/* A whole expression that reads nothing but still did not fold has an evaluation
 * error that is certain to happen: report it now, at the operation that fails. */
static texpr *report_unfolded(sema *s, texpr *t)
{
    if (!t || t->type == VT_ERROR || t->deps || t->uses_time || t->kind == TX_CONST || t->kind == TX_CTYPE)
        return t;
    eval_env env = {s->m, NULL, false, 0.0, NULL};
    value v;
    eval_error err;
    if (eval_expr(t, &env, &v, &err) < 0) {
        diag_error(s->dl, err.loc, "%s", err.message);
        return error_node(s, t->loc);
    }
    return const_node(s, v, t->loc);
}

static const char *a_or_an(vtype t)
{
    return t == VT_INT ? "an int" : t == VT_FLOAT ? "a float" : t == VT_BOOL ? "a bool" : "a string";
}

static texpr *lower(sema *s, const ast_expr *e, unsigned allow);
static texpr *lower_node(sema *s, const ast_expr *e, unsigned allow);
static int settle_param(sema *s, int index);
static texpr *settle_let(sema *s, int index, span use);
static texpr *settle_metric(sema *s, int index, span use);

/* Why the value being lowered cannot read params, for "'x' is a param, but ...". */
static const char *const_reason(const sema *s)
{
    return s->const_reason ? s->const_reason : "this value must be known before any configuration is chosen";
}

static texpr *lower_name(sema *s, const ast_expr *e, unsigned allow)
{
    const char *name = e->u.name;
    const sym *sy = find_sym(s, name);
    if (!sy) {
        for (int i = 0; i < s->spec->len; i++) {
            const ast_item *it = s->spec->items[i];
            if (it->kind == IT_ARG && strcmp(it->u.arg.name.name, name) == 0) {
                const ast_expr *init = it->u.arg.init;
                uint32_t len = init ? init->loc.end - init->loc.begin : 0;
                if (!it->u.arg.count && init && len <= 40 &&
                    !memchr(s->spec->src->text + init->loc.begin, '\n', len)) /* a scalar: share its value */
                    diag_error(s->dl, e->loc, "'%s' is a kernel argument, not a value; to use its value, make it a "
                               "let and pass that (let %s = %.*s; arg %s : %s = %s;)", name, name, (int)len,
                               s->spec->src->text + init->loc.begin, name, ast_ctype_name(it->u.arg.type), name);
                else
                    diag_error(s->dl, e->loc, "'%s' is a kernel argument, not a value (expressions use params, "
                                              "lets and metrics)", name);
                return error_node(s, e->loc);
            }
        }
        for (size_t i = 0; i < sizeof init_names / sizeof *init_names; i++)
            if (strcmp(init_names[i], name) == 0) {
                diag_error(s->dl, e->loc, "'%s' sets a buffer's initial contents and is not a value here", name);
                return error_node(s, e->loc);
            }
        const char *best = suggest_name(s, name, allow);
        if (best)
            diag_error(s->dl, e->loc, "unknown name '%s'; did you mean '%s'?", name, best);
        else
            diag_error(s->dl, e->loc, "unknown name '%s'", name);
        return error_node(s, e->loc);
    }
    switch (sy->kind) {
    case SYM_PARAM: {
        if (!(allow & CX_PARAMS)) {
            diag_error(s->dl, e->loc, "'%s' is a param, but %s", name, const_reason(s));
            return error_node(s, e->loc);
        }
        /* Read by a let that its own values use (param x in [a], let a = x * 2): the type is
         * not known yet, but the deps are, and they make the let fail where it is used. */
        bool busy = s->param_state[sy->index] == ST_BUSY;
        if (!busy && settle_param(s, sy->index) < 0)
            return error_node(s, e->loc);
        texpr *t = node(s, TX_PARAM, busy ? VT_INT : s->m->params[sy->index].dom.type, e->loc);
        if (t) {
            t->u.index = sy->index;
            t->deps = (param_set)1 << sy->index;
        }
        return t;
    }
    case SYM_LET: {
        texpr *def = settle_let(s, sy->index, e->loc);
        if (!def || def->type == VT_ERROR)
            return error_node(s, e->loc);
        if (def->deps && !(allow & CX_PARAMS)) {
            diag_error(s->dl, e->loc, "'%s' depends on params, but %s", name, const_reason(s));
            return error_node(s, e->loc);
        }
        if (def->kind == TX_CONST)
            return const_node(s, def->u.k, e->loc);
        texpr *t = node(s, TX_LET, def->type, e->loc);
        if (t) {
            t->u.index = sy->index;
            t->deps = def->deps;
        }
        return t;
    }
    case SYM_METRIC: {
        if (!(allow & CX_TIME)) {
            diag_error(s->dl, e->loc, "metric '%s' depends on the measured time; use it only in another metric "
                                      "or the objective", name);
            return error_node(s, e->loc);
        }
        texpr *def = settle_metric(s, sy->index, e->loc);
        if (!def || def->type == VT_ERROR)
            return error_node(s, e->loc);
        texpr *t = node(s, TX_METRIC, def->type, e->loc);
        if (t) {
            t->u.index = sy->index;
            t->deps = def->deps;
            t->uses_time = true;
        }
        return t;
    }
    case SYM_TIME:
        if (!(allow & CX_TIME)) {
            diag_error(s->dl, e->loc, "'%s' is only known after the kernel runs; use it in a metric or the "
                                      "objective", name);
            return error_node(s, e->loc);
        }
        texpr *t = node(s, TX_TIME, VT_FLOAT, e->loc);
        if (t) {
            t->u.time_scale = sy->time_scale;
            t->uses_time = true;
        }
        return t;
    }
    return error_node(s, e->loc);
}

/* Checks operand types of a binary operator and gives the result type (VT_ERROR after
 * reporting a mismatch). */
static vtype binary_type(sema *s, ast_op op, const texpr *a, const texpr *b, span loc)
{
    const char *op_text = ast_op_text(op);
    const texpr *bad = NULL;
    const char *need = NULL;
    switch (op) {
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: case OP_FLOORDIV: case OP_POW:
        need = "numbers";
        bad = !is_num(a->type) ? a : !is_num(b->type) ? b : NULL;
        break;
    case OP_MOD: case OP_SHL: case OP_SHR: case OP_BITAND: case OP_BITOR: case OP_BITXOR:
        need = "ints";
        bad = a->type != VT_INT ? a : b->type != VT_INT ? b : NULL;
        break;
    case OP_AND: case OP_OR:
        need = "bools";
        bad = a->type != VT_BOOL ? a : b->type != VT_BOOL ? b : NULL;
        break;
    default:
        break;
    }
    if (bad) {
        const char *side = bad == a ? "left" : "right";
        if (need[0] == 'b' && is_num(bad->type))
            diag_error(s->dl, bad->loc, "operator '%s' needs bools, but its %s operand is %s (compare it, "
                                        "e.g. x != 0)", op_text, side, a_or_an(bad->type));
        else
            diag_error(s->dl, bad->loc, "operator '%s' needs %s, but its %s operand is %s", op_text, need, side,
                       a_or_an(bad->type));
        (void)loc;
        return VT_ERROR;
    }
    switch (op) {
    case OP_DIV: return VT_FLOAT;
    case OP_AND: case OP_OR: return VT_BOOL;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_FLOORDIV: case OP_POW:
        return a->type == VT_INT && b->type == VT_INT ? VT_INT : VT_FLOAT;
    default: return VT_INT;
    }
}

static bool comparable(sema *s, ast_op op, const texpr *a, const texpr *b)
{
    if (is_num(a->type) && is_num(b->type))
        return true;
    if (a->type == b->type && (a->type == VT_STRING || a->type == VT_BOOL)) {
        if (op == OP_EQ || op == OP_NE)
            return true;
        diag_error(s->dl, span_join(a->loc, b->loc), "%ss can only be compared with == and !=, not '%s'",
                   vtype_name(a->type), ast_op_text(op));
        return false;
    }
    diag_error(s->dl, span_join(a->loc, b->loc), "cannot compare %s with %s", a_or_an(a->type), a_or_an(b->type));
    return false;
}

static texpr *lower_call(sema *s, const ast_expr *e, unsigned allow)
{
    const char *name = e->u.call.name;
    int fi = -1;
    for (int i = 0; i < NFUNCTIONS; i++)
        if (strcmp(functions[i].name, name) == 0)
            fi = i;
    if (fi < 0) {
        for (size_t i = 0; i < sizeof init_names / sizeof *init_names; i++)
            if (strcmp(init_names[i], name) == 0) {
                diag_error(s->dl, e->loc, "%s(...) sets a buffer argument's initial contents; it is not a value",
                           name);
                return error_node(s, e->loc);
            }
        const char *names[NFUNCTIONS];
        for (int i = 0; i < NFUNCTIONS; i++)
            names[i] = functions[i].name;
        const char *best = suggest_best(name, names, NFUNCTIONS);
        if (best)
            diag_error(s->dl, e->u.call.name_loc, "unknown function '%s'; did you mean '%s'?", name, best);
        else
            diag_error(s->dl, e->u.call.name_loc, "unknown function '%s' (the functions are min, max, cdiv, ceil, "
                                                  "floor, round, abs, pow, log2, sqrt, int, float, is_pow2)", name);
        return error_node(s, e->loc);
    }
    int n = e->u.call.args.len;
    if (n < functions[fi].min_args || n > functions[fi].max_args) {
        if (functions[fi].min_args == functions[fi].max_args)
            diag_error(s->dl, e->loc, "%s() takes %d argument%s, not %d", name, functions[fi].min_args,
                       functions[fi].min_args == 1 ? "" : "s", n);
        else
            diag_error(s->dl, e->loc, "%s() takes %d to %d arguments, not %d", name, functions[fi].min_args,
                       functions[fi].max_args, n);
        return error_node(s, e->loc);
    }
    texpr *t = node(s, TX_CALL, VT_ERROR, e->loc);
    if (!t)
        return NULL;
    t->u.call.fn = functions[fi].fn;
    t->u.call.n = n;
    t->u.call.args = alloc(s, sizeof(texpr *) * (size_t)n);
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
                  : fn == FN_INT || fn == FN_FLOAT ? x->type != VT_STRING
                                                   : is_num(x->type);
        if (!ok) {
            diag_error(s->dl, x->loc, "%s() needs %s, but argument %d is %s", name,
                       fn == FN_CDIV || fn == FN_IS_POW2 ? "ints" : "numbers", i + 1, a_or_an(x->type));
            broken = true;
        }
        any_float |= x->type == VT_FLOAT;
    }
    if (broken)
        return error_node(s, e->loc);
    switch (functions[fi].fn) {
    case FN_MIN: case FN_MAX: case FN_ABS: case FN_POW: t->type = any_float ? VT_FLOAT : VT_INT; break;
    case FN_CDIV: case FN_CEIL: case FN_FLOOR: case FN_ROUND: case FN_INT: t->type = VT_INT; break;
    case FN_LOG2: case FN_SQRT: case FN_FLOAT: t->type = VT_FLOAT; break;
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
    default:
        break;
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
        diag_error(s->dl, e ? e->loc : (span){0, 0}, "expression nested too deeply (more than %d levels, counting "
                   "the lets it reads)", AST_MAX_DEPTH);
        return error_node(s, e ? e->loc : (span){0, 0});
    }
    s->depth++;
    texpr *t = lower_node_here(s, e, allow);
    s->depth--;
    if (!t || t->type == VT_ERROR)
        return t;
    t->depth = node_depth(s, t);
    if (t->depth > AST_MAX_DEPTH) {
        diag_error(s->dl, t->loc, "expression nested too deeply (more than %d levels, counting the lets it reads)",
                   AST_MAX_DEPTH);
        return error_node(s, t->loc);
    }
    return t;
}

/* lower_node_here: lower_node's work for the node `e` itself. */
static texpr *lower_node_here(sema *s, const ast_expr *e, unsigned allow)
{
    if (!e)
        return error_node(s, (span){0, 0});
    switch (e->kind) {
    case EX_INT: return const_node(s, value_int(e->u.ival), e->loc);
    case EX_FLOAT: return const_node(s, value_float(e->u.fval), e->loc);
    case EX_BOOL: return const_node(s, value_bool(e->u.bval), e->loc);
    case EX_STRING: return const_node(s, value_string(e->u.sval), e->loc);
    case EX_NAME: return lower_name(s, e, allow);
    case EX_CTYPE:
        if (allow & CX_CTYPE) {
            texpr *t = node(s, TX_CTYPE, VT_STRING, e->loc);
            if (t)
                t->u.ctype = e->u.ctype;
            return t;
        }
        diag_error(s->dl, e->loc, "the type name '%s' is not a value (types are allowed only as template "
                                  "arguments and in arg declarations)", ast_ctype_name(e->u.ctype));
        return error_node(s, e->loc);
    case EX_CALL: return lower_call(s, e, allow);
    case EX_UNARY: {
        texpr *a = lower_node(s, e->u.unary.operand, allow & ~CX_CTYPE);
        if (!a || a->type == VT_ERROR)
            return a;
        ast_op op = e->u.unary.op;
        vtype want_ok = op == OP_NOT ? VT_BOOL : op == OP_BITNOT ? VT_INT : VT_ERROR;
        bool ok = want_ok == VT_ERROR ? is_num(a->type) : a->type == want_ok;
        if (!ok) {
            diag_error(s->dl, a->loc, "operator '%s' needs %s, but its operand is %s", ast_op_text(op),
                       op == OP_NOT ? "a bool" : op == OP_BITNOT ? "an int" : "a number", a_or_an(a->type));
            return error_node(s, e->loc);
        }
        texpr *t = node(s, TX_UNARY, a->type, e->loc);
        if (!t)
            return NULL;
        t->u.op.op = op;
        t->u.op.a = a;
        t->deps = a->deps;
        t->uses_time = a->uses_time;
        return fold(s, t);
    }
    case EX_BINARY: {
        texpr *a = lower_node(s, e->u.binary.lhs, allow & ~CX_CTYPE);
        texpr *b = lower_node(s, e->u.binary.rhs, allow & ~CX_CTYPE);
        if (!a || !b)
            return NULL;
        if (a->type == VT_ERROR || b->type == VT_ERROR)
            return error_node(s, e->loc);
        vtype ty = binary_type(s, e->u.binary.op, a, b, e->loc);
        if (ty == VT_ERROR)
            return error_node(s, e->loc);
        texpr *t = node(s, TX_BINARY, ty, e->loc);
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
        texpr *t = node(s, TX_CHAIN, VT_BOOL, e->loc);
        if (!t || !(t->u.chain.operands = alloc(s, sizeof(texpr *) * (size_t)n)))
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
        return broken ? error_node(s, e->loc) : fold(s, t);
    }
    case EX_COND: {
        texpr *c = lower_node(s, e->u.cond.cond, allow & ~CX_CTYPE);
        texpr *a = lower_node(s, e->u.cond.then, allow & ~CX_CTYPE);
        texpr *b = lower_node(s, e->u.cond.otherwise, allow & ~CX_CTYPE);
        if (!c || !a || !b)
            return NULL;
        if (c->type == VT_ERROR || a->type == VT_ERROR || b->type == VT_ERROR)
            return error_node(s, e->loc);
        if (c->type != VT_BOOL) {
            diag_error(s->dl, c->loc, "the condition of '?:' must be a bool, but it is %s", a_or_an(c->type));
            return error_node(s, e->loc);
        }
        vtype ty = a->type;
        if (a->type != b->type) {
            if (is_num(a->type) && is_num(b->type)) {
                ty = VT_FLOAT;
            } else {
                diag_error(s->dl, span_join(a->loc, b->loc), "the two branches of '?:' have different types (%s "
                           "and %s)", vtype_name(a->type), vtype_name(b->type));
                return error_node(s, e->loc);
            }
        }
        texpr *t = node(s, TX_COND, ty, e->loc);
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
    return error_node(s, e->loc);
}

/* lower: the typed, resolved, folded form of a whole expression `e`; never NULL
 * unless out of memory. `allow` says what may be referred to (CX_*). */
static texpr *lower(sema *s, const ast_expr *e, unsigned allow)
{
    return report_unfolded(s, lower_node(s, e, allow));
}

/* Whether `e` divides with '/', itself or through the lets it names (up to a few levels):
 * the reason, most of the time, why a whole number turned into a float. */
static bool divides(const sema *s, const ast_expr *e, int depth)
{
    if (!e || depth > 8)
        return false;
    switch (e->kind) {
    case EX_BINARY:
        return e->u.binary.op == OP_DIV || divides(s, e->u.binary.lhs, depth) || divides(s, e->u.binary.rhs, depth);
    case EX_UNARY:
        return divides(s, e->u.unary.operand, depth);
    case EX_COND:
        return divides(s, e->u.cond.then, depth) || divides(s, e->u.cond.otherwise, depth);
    case EX_CALL:
        for (int i = 0; i < e->u.call.args.len; i++)
            if (divides(s, e->u.call.args.items[i].value, depth))
                return true;
        return false;
    case EX_NAME: {
        const sym *sy = find_sym(s, e->u.name);
        return sy && sy->kind == SYM_LET && divides(s, s->let_items[sy->index]->u.let.value, depth + 1);
    }
    default:
        return false;
    }
}

/* lower_as: lowers `e` and checks its type is `want` (an int is accepted where a float
 * is wanted). Reports "<what> must be <want>, but it is <got>". */
static texpr *lower_as(sema *s, const ast_expr *e, unsigned allow, vtype want, const char *what)
{
    texpr *t = lower(s, e, allow);
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
                   divides(s, e, 0) ? " ('/' divides exactly; use '//' or cdiv() for whole numbers)" : "");
    else
        diag_error(s->dl, t->loc, "%s must be %s, but it is %s", what, a_or_an(want), a_or_an(t->type));
    return error_node(s, t->loc);
}

/* A constant of the wanted type, or false after reporting why not. */
static bool lower_const(sema *s, const ast_expr *e, vtype want, const char *what, value *out)
{
    texpr *t = lower_as(s, e, 0, want, what);
    if (!t || t->type == VT_ERROR)
        return false;
    *out = t->u.k;
    if (want == VT_FLOAT && out->type == VT_INT)
        *out = value_float((double)out->u.i);
    return true;
}

/* ---- lets, metrics, params: settled on demand ------------------------------------- */

static bool parse_override(sema *s, const char *text, value *out)
{
    /* Numbers are read as the spec reads them: decimal (010 is ten) or 0x hex, with '_'
     * allowed between digits. */
    char digits[128];
    size_t k = 0;
    for (const char *p = text; *p && k + 1 < sizeof digits; p++)
        if (*p != '_')
            digits[k++] = *p;
    digits[k] = '\0';
    char *end;
    errno = 0;
    bool hex = digits[0] == '0' && digits[1] == 'x';
    long long i = strtoll(hex ? digits + 2 : digits, &end, hex ? 16 : 10);
    if (*digits && *end == '\0' && errno == 0 && (!hex || digits[2])) {
        *out = value_int(i);
        return true;
    }
    double d = strtod(digits, &end);
    if (*digits && !hex && *end == '\0') {
        *out = value_float(d);
        return true;
    }
    if (strcmp(text, "true") == 0 || strcmp(text, "false") == 0) {
        *out = value_bool(text[0] == 't');
        return true;
    }
    if (utf8_check(text, strlen(text)) != strlen(text)) { /* as in the spec's own strings */
        *out = value_string(NULL);
        return false;
    }
    *out = value_string(arena_strdup(s->a, text));
    if (!out->u.s)
        s->oom = true;
    return out->u.s != NULL;
}

static texpr *settle_let(sema *s, int index, span use)
{
    m_let *let = &s->m->lets[index];
    if (s->let_state[index] == ST_DONE)
        return let->expr;
    if (s->let_state[index] == ST_BUSY) {
        /* The lets settled since this one began form the cycle: a = b * 2, b = a + 1. */
        int from = s->let_depth;
        while (from > 0 && s->let_stack[from - 1] != index)
            from--;
        strbuf via = STRBUF_INIT;
        for (int i = from; i < s->let_depth; i++)
            sb_printf(&via, "%s'%s'", i == from ? " (through " : i == s->let_depth - 1 ? " and " : ", ",
                      s->m->lets[s->let_stack[i]].name);
        if (from < s->let_depth)
            sb_add(&via, ")");
        if (!sb_ok(&via))
            s->oom = true;
        diag_error(s->dl, use, "'%s' is defined in terms of itself%s", let->name, sb_ok(&via) ? sb_cstr(&via) : "");
        sb_free(&via);
        diag_note(s->dl, true, let->loc, "'%s' is defined here", let->name);
        let->expr = error_node(s, let->loc);
        s->let_state[index] = ST_DONE;
        return let->expr;
    }
    s->let_state[index] = ST_BUSY;
    s->let_stack[s->let_depth++] = index;
    texpr *t = lower(s, s->let_items[index]->u.let.value, CX_PARAMS);
    s->let_depth--;
    if (s->let_state[index] == ST_DONE) /* a cycle through this let was reported */
        return let->expr;
    for (int i = 0; t && s->opts && i < s->opts->noverrides; i++) {
        if (strcmp(s->opts->overrides[i].name, let->name) != 0)
            continue;
        value v;
        if (!parse_override(s, s->opts->overrides[i].text, &v)) {
            if (!s->oom)
                diag_error(s->dl, let->loc, "--set %s: the value is not UTF-8 text", let->name);
            break;
        }
        if (t->type != VT_ERROR && v.type != t->type && !(t->type == VT_FLOAT && v.type == VT_INT)) {
            diag_error(s->dl, let->loc, "--set %s=%s gives %s, but '%s' is %s", let->name,
                       s->opts->overrides[i].text, a_or_an(v.type), let->name, a_or_an(t->type));
        } else {
            if (t->type == VT_FLOAT && v.type == VT_INT)
                v = value_float((double)v.u.i);
            t = const_node(s, v, let->loc);
            let->overridden = true;
        }
    }
    let->expr = t;
    let->type = t ? t->type : VT_ERROR;
    s->let_state[index] = ST_DONE;
    return t;
}

static texpr *settle_metric(sema *s, int index, span use)
{
    m_metric *met = &s->m->metrics[index];
    if (s->metric_state[index] == ST_DONE)
        return met->expr;
    if (s->metric_state[index] == ST_BUSY) {
        diag_error(s->dl, use, "metric '%s' is defined in terms of itself", met->name);
        met->expr = error_node(s, met->loc);
        s->metric_state[index] = ST_DONE;
        return met->expr;
    }
    s->metric_state[index] = ST_BUSY;
    texpr *t = lower(s, s->metric_items[index]->u.let.value, CX_PARAMS | CX_TIME);
    if (s->metric_state[index] == ST_DONE)
        return met->expr;
    if (t && t->type != VT_ERROR && !is_num(t->type)) {
        diag_error(s->dl, t->loc, "metric '%s' must be a number, but it is %s", met->name, a_or_an(t->type));
        t = error_node(s, t->loc);
    }
    met->expr = t;
    s->metric_state[index] = ST_DONE;
    return t;
}

/* Domain values must be known up front. Lists are kept as values; ranges as
 * (first, step, size) so a range of a million values costs nothing. */
static int settle_param(sema *s, int index)
{
    m_param *p = &s->m->params[index];
    if (s->param_state[index] == ST_DONE)
        return p->dom.type == VT_ERROR ? -1 : 0;
    if (s->param_state[index] == ST_BUSY) {
        diag_error(s->dl, p->loc, "the values of param '%s' depend on a param", p->name);
        p->dom.type = VT_ERROR;
        return -1;
    }
    s->param_state[index] = ST_BUSY;
    const char *outer_reason = s->const_reason;
    s->const_reason = "a param's values must be constants (to relate params, use require)";
    const ast_item *it = s->param_items[index];
    const ast_domain *d = &it->u.param.domain;
    domain dom;
    memset(&dom, 0, sizeof dom);
    dom.type = VT_ERROR;
    if (d->kind == DOM_LIST) {
        int n = d->values.len;
        if (n == 0) {
            diag_error(s->dl, d->loc, "param '%s' has no values", p->name);
            goto done;
        }
        dom.kind = DK_LIST;
        dom.size = (uint64_t)n;
        dom.values = alloc(s, sizeof(value) * (size_t)n);
        if (!dom.values)
            goto done;
        bool broken = false;
        bool *repeat = alloc(s, sizeof(bool) * (size_t)n);
        if (!repeat)
            goto done;
        for (int i = 0; i < n; i++) {
            texpr *t = lower(s, d->values.items[i], 0);
            dom.values[i].type = VT_ERROR; /* not compared for repeats */
            if (!t || t->type == VT_ERROR) {
                broken = true;
                continue;
            }
            value v = t->u.k;
            if (i == 0 || dom.type == VT_ERROR) {
                dom.type = v.type;
            } else if (v.type != dom.type) {
                if (is_num(v.type) && is_num(dom.type)) {
                    dom.type = VT_FLOAT;
                } else {
                    diag_error(s->dl, t->loc, "the values of param '%s' mix types: this one is %s, the first "
                               "is %s", p->name, a_or_an(v.type), a_or_an(dom.values[0].type));
                    broken = true;
                }
            }
            dom.values[i] = v;
        }
        /* Sorted, not pairwise: a list of 100,000 values is checked at once. */
        if (value_mark_repeats(dom.values, (size_t)n, repeat) < 0) {
            s->oom = true;
            goto done;
        }
        for (int i = 0; i < n; i++)
            if (repeat[i]) {
                strbuf sb = STRBUF_INIT;
                value_format(dom.values[i], &sb, true);
                diag_error(s->dl, d->values.items[i]->loc, "value %s is listed twice for param '%s'",
                           sb_ok(&sb) ? sb_cstr(&sb) : "", p->name);
                sb_free(&sb);
                broken = true;
            }
        if (broken) {
            dom.type = VT_ERROR;
            goto done;
        }
        if (dom.type == VT_FLOAT) {
            /* Ints among floats become floats, which can make two values equal: [1, 1.0]. */
            for (int i = 0; i < n; i++)
                dom.values[i] = value_float(value_as_double(dom.values[i]));
            if (value_mark_repeats(dom.values, (size_t)n, repeat) < 0) {
                s->oom = true;
                goto done;
            }
            for (int i = 0; i < n && !broken; i++)
                if (repeat[i]) {
                    diag_error(s->dl, d->values.items[i]->loc, "value %g is listed twice for param '%s' (as a "
                               "float it equals an earlier value)", dom.values[i].u.f, p->name);
                    broken = true;
                }
            if (broken) {
                dom.type = VT_ERROR;
                goto done;
            }
        }
    } else {
        value lo = value_int(0), hi = value_int(0), step = value_int(d->geometric ? 2 : 1);
        bool ok = lower_const(s, d->lo, VT_INT, "the start of a range", &lo);
        ok = lower_const(s, d->hi, VT_INT, "the end of a range", &hi) && ok;
        if (d->step)
            ok = lower_const(s, d->step, VT_INT, d->geometric ? "the factor of a range" : "the step of a range",
                             &step) && ok;
        if (!ok)
            goto done;
        int64_t a = lo.u.i, b = hi.u.i, k = step.u.i;
        if (d->geometric) {
            if (k < 2) {
                diag_error(s->dl, d->step->loc, "the factor of a geometric range must be 2 or more, not %lld",
                           (long long)k);
                goto done;
            }
            if (a <= 0) {
                diag_error(s->dl, d->lo->loc, "a geometric range must start above 0, not at %lld", (long long)a);
                goto done;
            }
        } else if (k <= 0) {
            char hint[96] = "";
            if (k == -1 && b < a)
                snprintf(hint, sizeof hint, " (ranges count up: write %lld .. %lld)", (long long)b, (long long)a);
            diag_error(s->dl, d->step ? d->step->loc : d->loc, "the step of a range must be positive, not %lld%s",
                       (long long)k, hint);
            goto done;
        }
        if (b < a) {
            diag_error(s->dl, d->loc, "empty range: %lld .. %lld has no values (the end is below the start)",
                       (long long)a, (long long)b);
            goto done;
        }
        uint64_t size = 0;
        if (d->geometric) {
            for (int64_t v = a; v <= b; size++) {
                if (__builtin_mul_overflow(v, k, &v))
                    { size++; break; }
            }
        } else {
            /* The steps past the start, in unsigned arithmetic (b - a may exceed
             * INT64_MAX); the whole int64 range would make the + 1 wrap to 0. */
            uint64_t steps = ((uint64_t)b - (uint64_t)a) / (uint64_t)k;
            size = steps >= ((uint64_t)1 << 32) ? UINT64_MAX : steps + 1;
        }
        if (size > ((uint64_t)1 << 32)) {
            if (size == UINT64_MAX)
                diag_error(s->dl, d->loc, "param '%s' has more than 2^32 values; at most 2^32 are supported",
                           p->name);
            else
                diag_error(s->dl, d->loc, "param '%s' has %llu values; at most 2^32 are supported", p->name,
                           (unsigned long long)size);
            goto done;
        }
        dom.kind = d->geometric ? DK_GEOM : DK_ARITH;
        dom.first = a;
        dom.step = k;
        dom.size = size;
        dom.type = VT_INT;
    }
done:
    s->const_reason = outer_reason;
    p->dom = dom;
    s->param_state[index] = ST_DONE;
    return dom.type == VT_ERROR ? -1 : 0;
}

/* Route-specific rules, and the default value. */
static void check_param_route(sema *s, int index)
{
    m_param *p = &s->m->params[index];
    const ast_item *it = s->param_items[index];
    const ast_route *r = &it->u.param.route;
    p->route = r->kind;
    if (p->dom.type == VT_ERROR)
        return;
    switch (r->kind) {
    case ROUTE_DEFINE:
        p->macro = r->text ? r->text : p->name;
        if (p->dom.type == VT_STRING)
            for (uint64_t i = 0; i < p->dom.size; i++) {
                const char *v = p->dom.values[i].u.s;
                if (strchr(v, '\n')) {
                    diag_error(s->dl, it->u.param.name.loc, "a value of param '%s' contains a newline, which a "
                               "-D macro cannot carry", p->name);
                    break;
                }
            }
        break;
    case ROUTE_OPTION:
        p->option_fmt = r->text;
        if (r->text && !strstr(r->text, "{}"))
            diag_error(s->dl, r->text_loc, "the option format \"%s\" has no {} where the value goes", r->text);
        else if (!r->text && p->dom.type != VT_STRING)
            diag_error(s->dl, r->loc, "param '%s' is %s; 'as option' without a format needs string values "
                       "(or write: as option \"-flag={}\")", p->name, a_or_an(p->dom.type));
        break;
    case ROUTE_MAXRREGCOUNT:
        if (p->dom.type != VT_INT) {
            diag_error(s->dl, r->loc, "'as maxrregcount' needs int values, but param '%s' is %s", p->name,
                       a_or_an(p->dom.type));
            break;
        }
        for (uint64_t i = 0; i < p->dom.size; i++) {
            int64_t v = domain_at(&p->dom, i).u.i;
            if (v < 0 || v > 255) {
                const ast_domain *d = &it->u.param.domain;
                span at = d->kind == DOM_LIST && (uint64_t)d->values.len == p->dom.size ? d->values.items[i]->loc
                                                                                         : d->loc;
                diag_error(s->dl, at, "register cap %lld for param '%s' is outside 0..255 (0 means no cap)",
                           (long long)v, p->name);
                break;
            }
        }
        break;
    case ROUTE_SMEM:
        if (p->dom.type != VT_INT) {
            diag_error(s->dl, r->loc, "'as smem' needs int values (bytes), but param '%s' is %s", p->name,
                       a_or_an(p->dom.type));
            break;
        }
        for (uint64_t i = 0; i < p->dom.size; i += p->dom.kind == DK_LIST ? 1 : p->dom.size) /* ranges: the first */
            if (domain_at(&p->dom, i).u.i < 0) {
                diag_error(s->dl, it->u.param.domain.loc, "param '%s' is 'as smem', but its values include a "
                           "negative byte count", p->name);
                break;
            }
        break;
    case ROUTE_TEMPLATE:
    case ROUTE_NONE:
        break;
    }
    if (it->u.param.deflt) {
        value v;
        if (lower_const(s, it->u.param.deflt, p->dom.type == VT_INT ? VT_INT : p->dom.type, "a param's default",
                        &v)) {
            if (p->dom.type == VT_FLOAT && v.type == VT_INT)
                v = value_float((double)v.u.i);
            int64_t k = domain_find(&p->dom, v);
            if (k < 0) {
                strbuf sb = STRBUF_INIT;
                value_format(v, &sb, true);
                diag_error(s->dl, it->u.param.deflt->loc, "the default %s is not one of the values of param '%s'",
                           sb_cstr(&sb), p->name);
                sb_free(&sb);
            } else {
                p->has_default = true;
                p->default_index = (uint64_t)k;
            }
        }
    }
}

/* ---- paths -------------------------------------------------------------------- */

static const char *resolve_path(sema *s, const char *rel)
{
    if (rel[0] == '/')
        return rel;
    const char *dir = s->spec->src->dir;
    const char *p = arena_printf(s->a, "%s/%s", dir, rel);
    if (!p)
        s->oom = true;
    return p;
}

static void check_file(sema *s, const char *path, span loc, bool want_dir, const char *what)
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
static bool once(sema *s, const ast_item **first, const ast_item *it, const char *what)
{
    if (*first) {
        diag_error(s->dl, it->kw_loc, "'%s' is given twice", what);
        diag_note(s->dl, true, (*first)->kw_loc, "first given here");
        return false;
    }
    *first = it;
    return true;
}

static int lower_dims(sema *s, const ast_expr_list *dims, span loc, unsigned allow, texpr **out, const char *what)
{
    if (dims->len > 3) {
        diag_error(s->dl, dims->items[3] ? dims->items[3]->loc : loc, "%s has %d dimensions; CUDA allows 1 to 3 "
                   "(x, y, z)", what, dims->len);
        return 0;
    }
    static const char *const axis[] = {"x", "y", "z"};
    for (int i = 0; i < dims->len; i++) {
        char label[64];
        snprintf(label, sizeof label, "%s dimension %s", what, axis[i]);
        out[i] = lower_as(s, dims->items[i], allow, VT_INT, label);
        if (out[i] && out[i]->kind == TX_CONST && out[i]->type == VT_INT && out[i]->u.k.u.i <= 0)
            diag_error(s->dl, out[i]->loc, "%s is %lld; it must be at least 1", label, (long long)out[i]->u.k.u.i);
    }
    return dims->len;
}

/* Named settings such as random(seed = 1) or search anneal(budget = 300): each key
 * must be one of `keys` (with a hint otherwise) and appear once. Returns the index of
 * the setting in `keys`, through found[] (NULL when absent). */
static void match_settings(sema *s, const ast_arg_list *args, const char *const *keys, int nkeys,
                           const ast_arg **found, const char *owner)
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
                diag_error(s->dl, a->name_loc, "unknown setting '%s' for %s; did you mean '%s'?", a->name, owner,
                           best);
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

static bool setting_int(sema *s, const ast_arg *a, int64_t min, int64_t *out)
{
    value v;
    if (!a)
        return false;
    char what[80];
    snprintf(what, sizeof what, "setting '%s'", a->name);
    if (!lower_const(s, a->value, VT_INT, what, &v))
        return false;
    if (v.u.i < min) {
        diag_error(s->dl, a->value->loc, "setting '%s' must be at least %lld, not %lld", a->name, (long long)min,
                   (long long)v.u.i);
        return false;
    }
    *out = v.u.i;
    return true;
}

static bool setting_float(sema *s, const ast_arg *a, double min, bool strict, double *out)
{
    value v;
    if (!a)
        return false;
    char what[80];
    snprintf(what, sizeof what, "setting '%s'", a->name);
    if (!lower_const(s, a->value, VT_FLOAT, what, &v))
        return false;
    if (strict ? !(v.u.f > min) : !(v.u.f >= min)) {
        diag_error(s->dl, a->value->loc, "setting '%s' must be %s %g, not %g", a->name, strict ? "above" : "at least",
                   min, v.u.f);
        return false;
    }
    *out = v.u.f;
    return true;
}

/* A constant int headed for an integer argument must fit its C type (int8 300 would be
 * silently wrapped by the launch). Returns t. */
static texpr *check_fits(sema *s, texpr *t, ast_ctype type)
{
    if (!t || t->kind != TX_CONST || t->type != VT_INT || ast_ctype_is_float(type))
        return t;
    static const struct {
        ast_ctype type;
        int64_t lo, hi;
    } ranges[] = {
        {CT_INT8, -128, 127}, {CT_UINT8, 0, 255}, {CT_INT16, -32768, 32767}, {CT_UINT16, 0, 65535},
        {CT_INT, INT32_MIN, INT32_MAX}, {CT_UINT, 0, UINT32_MAX}, {CT_INT64, INT64_MIN, INT64_MAX},
        {CT_UINT64, 0, INT64_MAX},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof *ranges; i++)
        if (ranges[i].type == type && (t->u.k.u.i < ranges[i].lo || t->u.k.u.i > ranges[i].hi)) {
            diag_error(s->dl, t->loc, "%lld does not fit in %s (%lld to %lld)", (long long)t->u.k.u.i,
                       ast_ctype_name(type), (long long)ranges[i].lo, (long long)ranges[i].hi);
            return error_node(s, t->loc);
        }
    return t;
}

static void check_arg(sema *s, const ast_item *it, m_arg *arg)
{
    arg->name = it->u.arg.name.name;
    arg->loc = it->u.arg.name.loc;
    arg->type = it->u.arg.type;
    arg->is_buffer = it->u.arg.count != NULL;
    arg->dir = it->u.arg.dir;
    const ast_expr *init = it->u.arg.init;
    if (!arg->is_buffer) {
        if (it->u.arg.dir != DIR_NONE)
            diag_error(s->dl, it->u.arg.dir_loc, "scalar argument '%s' cannot have a direction; only buffers "
                       "(written with [count]) are in, out or inout", arg->name);
        if (!init) {
            diag_error(s->dl, it->u.arg.name.loc, "scalar argument '%s' needs a value: arg %s : %s = <expression>;",
                       arg->name, arg->name, ast_ctype_name(arg->type));
            return;
        }
        bool is_float = ast_ctype_is_float(arg->type);
        char what[96];
        snprintf(what, sizeof what, "the value of %s argument '%s'", ast_ctype_name(arg->type), arg->name);
        arg->value = check_fits(s, lower_as(s, init, CX_PARAMS, is_float ? VT_FLOAT : VT_INT, what), arg->type);
        arg->init = INIT_SCALAR;
        if (arg->value)
            s->used |= arg->value->deps;
        return;
    }
    if (arg->dir == DIR_NONE)
        diag_error(s->dl, it->u.arg.name.loc, "buffer argument '%s' needs a direction: in, out or inout (arg %s : in "
                   "%s[...])", arg->name, arg->name, ast_ctype_name(arg->type));
    char what[96];
    snprintf(what, sizeof what, "the element count of buffer '%s'", arg->name);
    arg->count = lower_as(s, it->u.arg.count, CX_PARAMS, VT_INT, what);
    if (arg->count) {
        s->used |= arg->count->deps;
        if (arg->count->kind == TX_CONST && arg->count->type == VT_INT && arg->count->u.k.u.i <= 0)
            diag_error(s->dl, arg->count->loc, "buffer '%s' has %lld elements; it needs at least 1", arg->name,
                       (long long)arg->count->u.k.u.i);
    }
    if (!init) {
        if (arg->dir == DIR_IN || arg->dir == DIR_INOUT)
            diag_error(s->dl, it->u.arg.name.loc, "input buffer '%s' needs initial contents: = random(seed = 1), "
                       "constant(v), ramp() or zeros", arg->name);
        arg->init = INIT_NONE;
        return;
    }
    const char *fname = init->kind == EX_NAME ? init->u.name : init->kind == EX_CALL ? init->u.call.name : NULL;
    static const ast_arg_list no_args;
    const ast_arg_list *args = init->kind == EX_CALL ? &init->u.call.args : &no_args;
    int which = -1;
    for (int i = 0; fname && i < 4; i++)
        if (strcmp(fname, init_names[i]) == 0)
            which = i;
    if (which < 0) {
        const char *best = fname ? suggest_best(fname, init_names, 4) : NULL;
        span at = init->kind == EX_CALL ? init->u.call.name_loc : init->loc;
        if (best)
            diag_error(s->dl, at, "unknown initial contents '%s'; did you mean '%s'?", fname, best);
        else
            diag_error(s->dl, init->loc, "a buffer's initial contents must be random(...), constant(v), ramp(...) "
                       "or zeros");
        return;
    }
    char owner[64];
    snprintf(owner, sizeof owner, "%s()", init_names[which]);
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
            diag_error(s->dl, f[2] ? f[2]->value->loc : f[1]->value->loc, "random() range is empty: max %g is "
                       "below min %g", arg->hi, arg->lo);
        arg->seed = (uint64_t)seed;
        arg->init = INIT_RANDOM;
    } else if (which == 1) { /* constant(v) */
        if (args->len != 1 || args->items[0].name) {
            diag_error(s->dl, init->loc, "constant() takes one value: constant(0.5)");
            return;
        }
        arg->value = check_fits(s, lower_as(s, args->items[0].value, 0,
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
    } else {
        if (args->len)
            diag_error(s->dl, init->loc, "zeros takes no settings");
        arg->init = INIT_ZEROS;
    }
    if (arg->dir == DIR_OUT)
        diag_warning(s->dl, init->loc, "output buffer '%s' is poisoned before every run, so its initial contents "
                     "are not used (make it inout to pass them in)", arg->name);
}

static int find_arg(const model *m, const char *name)
{
    for (int i = 0; i < m->nargs; i++)
        if (strcmp(m->args[i].name, name) == 0)
            return i;
    return -1;
}

static void check_tolerance(sema *s, const ast_expr *e, const char *what, double *out);

static void check_verify(sema *s, const ast_item *it)
{
    model *m = s->m;
    m_verify *v = &m->verify;
    v->present = true;
    v->loc = it->loc;
    const ast_name_list *outs = &it->u.verify.outputs;
    v->outputs = alloc(s, sizeof(int) * (size_t)outs->len);
    if (!v->outputs)
        return;
    for (int i = 0; i < outs->len; i++) {
        const ast_name *n = &outs->items[i];
        int k = find_arg(m, n->name);
        if (k < 0) {
            const char **names = alloc(s, sizeof(char *) * (size_t)(m->nargs + 1));
            for (int j = 0; names && j < m->nargs; j++)
                names[j] = m->args[j].name;
            const char *best = names ? suggest_best(n->name, names, (size_t)m->nargs) : NULL;
            if (best)
                diag_error(s->dl, n->loc, "unknown argument '%s'; did you mean '%s'?", n->name, best);
            else
                diag_error(s->dl, n->loc, "unknown argument '%s' (verify names out or inout buffers)", n->name);
            continue;
        }
        const m_arg *a = &m->args[k];
        if (!a->is_buffer || a->dir == DIR_IN) {
            diag_error(s->dl, n->loc, "'%s' is %s; verify compares out and inout buffers", n->name,
                       a->is_buffer ? "an input buffer" : "a scalar argument");
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
    if (!ref->is_kernel) {
        v->config = alloc(s, sizeof(uint64_t) * (size_t)(m->nparams ? m->nparams : 1));
        bool *set = alloc(s, sizeof(bool) * (size_t)(m->nparams ? m->nparams : 1));
        bool *meant = alloc(s, sizeof(bool) * (size_t)(m->nparams ? m->nparams : 1)); /* by a misspelt name */
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
            const sym *sy = find_sym(s, a->name);
            if (!sy || sy->kind != SYM_PARAM) {
                const char **names = alloc(s, sizeof(char *) * (size_t)(m->nparams + 1));
                for (int j = 0; names && j < m->nparams; j++)
                    names[j] = m->params[j].name;
                const char *best = names ? suggest_best(a->name, names, (size_t)m->nparams) : NULL;
                const sym *guess = best ? find_sym(s, best) : NULL;
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
            if (p->dom.type == VT_ERROR || !lower_const(s, a->value, p->dom.type, "a reference value", &val)) {
                broken = true;
                continue;
            }
            if (p->dom.type == VT_FLOAT && val.type == VT_INT)
                val = value_float((double)val.u.i);
            int64_t k = domain_find(&p->dom, val);
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
                diag_error(s->dl, ref->loc, "the reference configuration does not set param '%s', which has no "
                           "default", m->params[i].name);
                broken = true;
            }
        }
        v->config_ok = !broken;
        return;
    }
    v->ref_kernel = ref->kernel.name;
    v->ref_file = ref->file ? resolve_path(s, ref->file) : m->kernel_file;
    if (ref->file && v->ref_file)
        check_file(s, v->ref_file, ref->file_loc, false, "reference kernel file");
    v->ref_has_targs = ref->has_targs;
    v->ref_ntargs = ref->targs.len;
    v->ref_targs = alloc(s, sizeof(texpr *) * (size_t)(ref->targs.len + 1));
    for (int i = 0; v->ref_targs && i < ref->targs.len; i++)
        v->ref_targs[i] = lower(s, ref->targs.items[i], CX_CTYPE);
    v->ref_block_dims = lower_dims(s, &ref->block, ref->block_loc, 0, v->ref_block, "the reference kernel's block");
    v->ref_grid_dims = lower_dims(s, &ref->grid, ref->grid_loc, 0, v->ref_grid, "the reference kernel's grid");
}

/* The reference configuration must itself satisfy every constraint (checked once all
 * constraints are known, wherever the verify statement stands). */
static void check_reference(sema *s)
{
    model *m = s->m;
    m_verify *v = &m->verify;
    if (!v->present || v->against_kernel || !v->config_ok)
        return;
    value *vals = alloc(s, sizeof(value) * (size_t)(m->nparams ? m->nparams : 1));
    if (!vals)
        return;
    for (int i = 0; i < m->nparams; i++)
        vals[i] = domain_at(&m->params[i].dom, v->config[i]);
    eval_env env = {m, vals, false, 0.0, NULL};
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

static void check_tolerance(sema *s, const ast_expr *e, const char *what, double *out)
{
    value v;
    *out = 0.0;
    if (!e || !lower_const(s, e, VT_FLOAT, what, &v))
        return;
    if (!(v.u.f >= 0.0))
        diag_error(s->dl, e->loc, "%s must be 0 or more, not %g", what, v.u.f);
    else
        *out = v.u.f;
}

static void check_search(sema *s, const ast_item *it)
{
    m_search *sr = &s->m->search;
    const ast_expr *e = it->u.search;
    sr->loc = it->loc;
    const char *name = e->kind == EX_NAME ? e->u.name : e->kind == EX_CALL ? e->u.call.name : NULL;
    strategy k;
    if (!strategy_from_name(name, &k)) {
        const char *best = name ? suggest_best(name, strategy_names(), STRATEGY_COUNT) : NULL;
        span at = e->kind == EX_CALL ? e->u.call.name_loc : e->loc;
        if (best)
            diag_error(s->dl, at, "unknown search strategy '%s'; did you mean '%s'?", name, best);
        else
            diag_error(s->dl, at, "unknown search strategy (the strategies are exhaustive, random, anneal, genetic, "
                                  "local and guided)");
        return;
    }
    sr->strategy = k;
    if (e->kind != EX_CALL)
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
    snprintf(owner, sizeof owner, "search %s", strategy_name(k));
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

static void check_measure(sema *s, const ast_item *it)
{
    m_measure *ms = &s->m->measure;
    static const char *const keys[] = {"warmup", "repeat", "max_repeat", "spread", "flush_l2", "timeout"};
    const ast_arg *f[6];
    match_settings(s, &it->u.settings, keys, 6, f, "measure");
    setting_int(s, f[0], 0, &ms->warmup);
    setting_int(s, f[1], 1, &ms->repeat);
    setting_int(s, f[2], 1, &ms->max_repeat);
    if (f[1] && !f[2] && ms->max_repeat < ms->repeat)
        ms->max_repeat = ms->repeat; /* the default cap gives way to an explicit minimum */
    setting_float(s, f[3], 0.0, true, &ms->spread);
    if (f[4]) {
        value v;
        if (lower_const(s, f[4]->value, VT_BOOL, "setting 'flush_l2'", &v))
            ms->flush_l2 = v.u.b;
    }
    setting_float(s, f[5], 0.0, true, &ms->timeout_s);
    if (ms->max_repeat < ms->repeat) {
        diag_error(s->dl, f[2] ? f[2]->value->loc : it->loc, "max_repeat (%lld) is below repeat (%lld)",
                   (long long)ms->max_repeat, (long long)ms->repeat);
    }
}

static void check_emit(sema *s, const ast_item *it, const ast_item **seen)
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
    if (!once(s, &seen[k], it, k == 0 ? "emit header" : k == 1 ? "emit results" : "emit csv"))
        return;
    const char *path = resolve_path(s, it->u.emit.path);
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
    if (k == 0) {
        em->header_path = path;
        em->header_loc = it->u.emit.path_loc;
        if (it->u.emit.prefix.name)
            em->header_prefix = it->u.emit.prefix.name;
    } else if (k == 1) {
        em->results_path = path;
        em->results_loc = it->u.emit.path_loc;
    } else {
        em->csv_path = path;
        em->csv_loc = it->u.emit.path_loc;
    }
}

/* An identifier suitable for a C macro: letters, digits and '_' (upper-cased). */
static const char *macro_prefix(sema *s, const char *name)
{
    char *p = arena_strdup(s->a, name);
    if (!p) {
        s->oom = true;
        return NULL;
    }
    for (char *c = p; *c; c++)
        *c = (char)toupper((unsigned char)*c);
    return p;
}

/* ---- the driver ------------------------------------------------------------------ */

static void collect(sema *s)
{
    model *m = s->m;
    const ast_spec *sp = s->spec;
    int np = 0, nl = 0, nm = 0;
    for (int i = 0; i < sp->len; i++) {
        ast_item_kind k = sp->items[i]->kind;
        np += k == IT_PARAM;
        nl += k == IT_LET;
        nm += k == IT_METRIC;
    }
    m->params = alloc(s, sizeof(m_param) * (size_t)(np + 1));
    m->lets = alloc(s, sizeof(m_let) * (size_t)(nl + 1));
    m->metrics = alloc(s, sizeof(m_metric) * (size_t)(nm + 1));
    s->param_items = alloc(s, sizeof(ast_item *) * (size_t)(np + 1));
    s->let_items = alloc(s, sizeof(ast_item *) * (size_t)(nl + 1));
    s->metric_items = alloc(s, sizeof(ast_item *) * (size_t)(nm + 1));
    s->param_state = alloc(s, sizeof(int) * (size_t)(np + 1));
    s->let_state = alloc(s, sizeof(int) * (size_t)(nl + 1));
    s->let_stack = alloc(s, sizeof(int) * (size_t)(nl + 1));
    s->metric_state = alloc(s, sizeof(int) * (size_t)(nm + 1));
    if (s->oom)
        return;
    for (size_t i = 0; i < sizeof time_names / sizeof *time_names; i++) {
        sym t = {time_names[i].name, {0, 0}, SYM_TIME, 0, time_names[i].scale};
        if (ARENA_PUSH(s->a, s->syms, s->nsyms, s->capsyms, t) < 0)
            s->oom = true;
    }
    for (int i = 0; i < sp->len; i++) {
        const ast_item *it = sp->items[i];
        if (it->kind == IT_PARAM) {
            if (m->nparams == MODEL_MAX_PARAMS) {
                diag_error(s->dl, it->u.param.name.loc, "too many params: at most %d are supported",
                           MODEL_MAX_PARAMS);
                continue;
            }
            m_param *p = &m->params[m->nparams];
            p->name = it->u.param.name.name;
            p->loc = it->u.param.name.loc;
            p->dom.type = VT_ERROR;
            s->param_items[m->nparams] = it;
            declare(s, p->name, p->loc, SYM_PARAM, m->nparams);
            m->nparams++;
        } else if (it->kind == IT_LET) {
            m_let *l = &m->lets[m->nlets];
            l->name = it->u.let.name.name;
            l->loc = it->u.let.name.loc;
            s->let_items[m->nlets] = it;
            declare(s, l->name, l->loc, SYM_LET, m->nlets);
            m->nlets++;
        } else if (it->kind == IT_METRIC) {
            m_metric *mt = &m->metrics[m->nmetrics];
            mt->name = it->u.let.name.name;
            mt->loc = it->u.let.name.loc;
            s->metric_items[m->nmetrics] = it;
            declare(s, mt->name, mt->loc, SYM_METRIC, m->nmetrics);
            m->nmetrics++;
        }
    }
    for (int i = 0; s->opts && i < s->opts->noverrides; i++) {
        const sym *sy = find_sym(s, s->opts->overrides[i].name);
        if (sy && sy->kind == SYM_LET)
            continue;
        const char **names = alloc(s, sizeof(char *) * (size_t)(m->nlets + 1));
        for (int j = 0; names && j < m->nlets; j++)
            names[j] = m->lets[j].name;
        const char *best = names ? suggest_best(s->opts->overrides[i].name, names, (size_t)m->nlets) : NULL;
        if (sy)
            diag_error_noloc(s->dl, "--set %s: '%s' is a %s; only lets can be set from outside",
                             s->opts->overrides[i].name, s->opts->overrides[i].name, sym_kind_name(sy->kind));
        else if (best)
            diag_error_noloc(s->dl, "--set %s: the spec has no let named '%s'; did you mean '%s'?",
                             s->opts->overrides[i].name, s->opts->overrides[i].name, best);
        else
            diag_error_noloc(s->dl, "--set %s: the spec has no let named '%s'", s->opts->overrides[i].name,
                             s->opts->overrides[i].name);
    }
}

static void check_kernel(sema *s)
{
    model *m = s->m;
    const ast_spec *sp = s->spec;
    m->kernel = sp->kernel.name;
    m->kernel_loc = sp->kernel.loc;
    m->kernel_file = resolve_path(s, sp->file);
    if (m->kernel_file)
        check_file(s, m->kernel_file, sp->file_loc, false, "kernel file");
    m->has_targs = sp->has_targs;
    m->ntargs = sp->targs.len;
    m->targs = alloc(s, sizeof(texpr *) * (size_t)(sp->targs.len + 1));
    for (int i = 0; m->targs && i < sp->targs.len; i++) {
        texpr *t = lower(s, sp->targs.items[i], CX_PARAMS | CX_CTYPE);
        if (t && t->type == VT_FLOAT) {
            diag_error(s->dl, t->loc, "a template argument cannot be a float%s",
                       divides(s, sp->targs.items[i], 0) ? " ('/' divides exactly; use '//' or cdiv() for whole "
                                                           "numbers)" : "");
            t = error_node(s, t->loc);
        }
        m->targs[i] = t;
        if (t)
            s->used |= t->deps;
    }
}

static void check_items(sema *s)
{
    model *m = s->m;
    const ast_spec *sp = s->spec;
    const ast_item *first_block = NULL, *first_grid = NULL, *first_smem = NULL, *first_verify = NULL;
    const ast_item *first_objective = NULL, *first_search = NULL, *first_measure = NULL;
    const ast_item *emits[3] = {NULL, NULL, NULL};
    int nargs = 0;
    for (int i = 0; i < sp->len; i++)
        nargs += sp->items[i]->kind == IT_ARG;
    m->args = alloc(s, sizeof(m_arg) * (size_t)(nargs + 1));
    if (!m->args)
        return;
    /* Args first, so verify can refer to any of them wherever it stands. */
    for (int i = 0; i < sp->len; i++) {
        const ast_item *it = sp->items[i];
        if (it->kind != IT_ARG)
            continue;
        int k = find_arg(m, it->u.arg.name.name);
        if (k >= 0) {
            diag_error(s->dl, it->u.arg.name.loc, "duplicate argument '%s'", it->u.arg.name.name);
            diag_note(s->dl, true, m->args[k].loc, "first declared here");
            continue;
        }
        check_arg(s, it, &m->args[m->nargs++]);
    }
    for (int i = 0; i < sp->len; i++) {
        const ast_item *it = sp->items[i];
        switch (it->kind) {
        case IT_INCLUDE:
            for (int k = 0; k < it->u.strings.len; k++) {
                const char *dir = resolve_path(s, it->u.strings.items[k]->u.sval);
                if (!dir)
                    return;
                check_file(s, dir, it->u.strings.items[k]->loc, true, "include folder");
                if (ARENA_PUSH(s->a, m->includes, m->nincludes, s->caps[CAP_INCLUDES], dir) < 0)
                    s->oom = true;
            }
            break;
        case IT_OPTIONS:
            for (int k = 0; k < it->u.strings.len; k++) {
                const char *opt = it->u.strings.items[k]->u.sval;
                if (opt[0] != '-')
                    diag_error(s->dl, it->u.strings.items[k]->loc, "compile option \"%s\" does not start with '-'",
                               opt);
                if (ARENA_PUSH(s->a, m->options, m->noptions, s->caps[CAP_OPTIONS], opt) < 0)
                    s->oom = true;
            }
            break;
        case IT_PARAM:
        case IT_LET:
        case IT_METRIC:
        case IT_ARG:
            break;
        case IT_REQUIRE: {
            texpr *t = lower_as(s, it->u.expr, CX_PARAMS, VT_BOOL, "a constraint");
            if (!t)
                return;
            if (t->type == VT_ERROR)
                break;
            if (t->kind == TX_CONST) {
                if (!t->u.k.u.b) {
                    diag_error(s->dl, it->u.expr->loc, "this constraint is always false, so no configuration "
                                                       "satisfies it");
                } else {
                    diag_warning(s->dl, it->u.expr->loc, "this constraint is always true");
                }
                break;
            }
            m_require r = {t, it->u.expr->loc};
            s->used |= t->deps;
            if (ARENA_PUSH(s->a, m->requires, m->nrequires, s->caps[CAP_REQUIRES], r) < 0)
                s->oom = true;
            break;
        }
        case IT_BLOCK:
            if (once(s, &first_block, it, "block"))
                m->block_dims = lower_dims(s, &it->u.dims, it->loc, CX_PARAMS, m->block, "the block");
            break;
        case IT_GRID:
            if (once(s, &first_grid, it, "grid"))
                m->grid_dims = lower_dims(s, &it->u.dims, it->loc, CX_PARAMS, m->grid, "the grid");
            break;
        case IT_SMEM:
            if (once(s, &first_smem, it, "smem")) {
                m->smem = lower_as(s, it->u.expr, CX_PARAMS, VT_INT, "the dynamic shared memory size");
                if (m->smem && m->smem->kind == TX_CONST && m->smem->type == VT_INT && m->smem->u.k.u.i < 0)
                    diag_error(s->dl, m->smem->loc, "dynamic shared memory cannot be negative (%lld bytes)",
                               (long long)m->smem->u.k.u.i);
            }
            break;
        case IT_VERIFY:
            if (once(s, &first_verify, it, "verify"))
                check_verify(s, it);
            break;
        case IT_OBJECTIVE:
            if (once(s, &first_objective, it, "objective")) {
                m->maximize = it->u.objective.maximize;
                texpr *t = lower(s, it->u.objective.value, CX_PARAMS | CX_TIME);
                if (t && t->type != VT_ERROR && !is_num(t->type)) {
                    diag_error(s->dl, t->loc, "the objective must be a number, but it is %s", a_or_an(t->type));
                } else if (t && t->type != VT_ERROR && !t->uses_time) {
                    diag_error(s->dl, t->loc, "the objective does not depend on the measured time, so measuring "
                                              "cannot rank configurations (use time, or a metric of it)");
                } else if (t && t->type != VT_ERROR) {
                    const ast_expr *v = it->u.objective.value;
                    m->objective = t;
                    m->objective_name = v->kind == EX_NAME ? v->u.name : "objective";
                    if (!m->maximize && t->kind == TX_TIME)
                        m->objective = NULL; /* minimise time: the default, kept simple */
                    else if (m->maximize && t->kind == TX_TIME)
                        diag_warning(s->dl, it->u.objective.dir_loc, "maximizing the time picks the slowest "
                                                                     "configuration");
                }
            }
            break;
        case IT_SEARCH:
            if (once(s, &first_search, it, "search"))
                check_search(s, it);
            break;
        case IT_MEASURE:
            if (once(s, &first_measure, it, "measure"))
                check_measure(s, it);
            break;
        case IT_EMIT:
            check_emit(s, it, emits);
            break;
        }
        if (s->oom)
            return;
    }
    span at = s->spec->kernel.loc;
    if (!first_block)
        diag_error(s->dl, at, "the spec has no 'block' statement: how many threads per block? (block (x, y);)");
    if (!first_grid)
        diag_error(s->dl, at, "the spec has no 'grid' statement: how many blocks? (grid cdiv(n, x);)");
    int smem_param = -1;
    for (int i = 0; i < m->nparams; i++) {
        if (m->params[i].route != ROUTE_SMEM)
            continue;
        if (first_smem) {
            diag_error(s->dl, m->params[i].loc, "param '%s' is 'as smem' but the spec also has an 'smem' statement; "
                       "use one or the other", m->params[i].name);
            diag_note(s->dl, true, first_smem->kw_loc, "the 'smem' statement is here");
            break;
        }
        if (smem_param >= 0) {
            diag_error(s->dl, m->params[i].loc, "params '%s' and '%s' are both 'as smem'; only one can set the "
                       "dynamic shared memory size", m->params[smem_param].name, m->params[i].name);
            diag_note(s->dl, true, m->params[smem_param].loc, "'%s' is 'as smem' here", m->params[smem_param].name);
            break;
        }
        smem_param = i;
        texpr *t = node(s, TX_PARAM, VT_INT, m->params[i].loc);
        if (!t)
            return;
        t->u.index = i;
        t->deps = (param_set)1 << i;
        m->smem = t;
        s->used |= t->deps;
    }
    if (m->smem)
        s->used |= m->smem->deps;
    for (int d = 0; d < 3; d++) {
        if (d < m->block_dims && m->block[d])
            s->used |= m->block[d]->deps;
        if (d < m->grid_dims && m->grid[d])
            s->used |= m->grid[d]->deps;
    }
    if (!s->dl->errors)
        check_reference(s);
    for (int i = 0; i < m->nmetrics; i++)
        settle_metric(s, i, m->metrics[i].loc);
    for (int i = 0; i < m->nlets; i++)
        settle_let(s, i, m->lets[i].loc);
    bool has_outputs = false;
    for (int i = 0; i < m->nargs; i++)
        has_outputs |= m->args[i].is_buffer && (m->args[i].dir == DIR_OUT || m->args[i].dir == DIR_INOUT);
    if (has_outputs && !first_verify)
        diag_warning(s->dl, at, "no 'verify' statement: outputs will not be checked, so a variant that computes "
                                "the wrong answer could win");
    if (!m->emit.header_prefix)
        m->emit.header_prefix = macro_prefix(s, m->kernel);
}

/* Routes and unused params, once every expression is lowered. */
static void check_params(sema *s)
{
    model *m = s->m;
    for (int i = 0; i < m->nparams; i++) {
        m_param *p = &m->params[i];
        if (p->dom.type == VT_ERROR)
            continue;
        param_set bit = (param_set)1 << i;
        if (p->route == ROUTE_TEMPLATE) {
            bool in_targs = false;
            for (int k = 0; k < m->ntargs; k++)
                in_targs |= m->targs[k] && (m->targs[k]->deps & bit);
            if (!in_targs)
                diag_error(s->dl, s->param_items[i]->u.param.route.loc, "param '%s' is 'as template' but the "
                           "kernel's template arguments do not use it (kernel %s<%s, ...>)", p->name, m->kernel,
                           p->name);
        }
        /* After an error a use may be missing only because it failed (a misspelt name). */
        if (p->route == ROUTE_NONE && !(s->used & bit) && s->dl->errors == s->errors_before)
            diag_warning(s->dl, p->loc, "param '%s' is 'as none' and no expression uses it, so its values only "
                                        "repeat the same variant", p->name);
    }
}

int sema_check(model **out, arena *a, const ast_spec *spec, const sema_options *opts, diag_list *dl)
{
    *out = NULL;
    int errors_before = dl->errors;
    sema s;
    memset(&s, 0, sizeof s);
    s.a = a;
    s.dl = dl;
    s.spec = spec;
    s.opts = opts;
    s.errors_before = errors_before;
    s.m = alloc(&s, sizeof(model));
    if (!s.m)
        return -1;
    s.m->arena = a;
    s.m->src = spec->src;
    s.m->measure = (m_measure){.warmup = 3, .repeat = 10, .max_repeat = 100, .spread = 0.02, .flush_l2 = true};
    s.m->search.strategy = STRAT_EXHAUSTIVE;
    collect(&s);
    for (int i = 0; !s.oom && i < s.m->nparams; i++) {
        settle_param(&s, i);
        check_param_route(&s, i);
    }
    if (!s.oom)
        check_kernel(&s);
    if (!s.oom)
        check_items(&s);
    if (!s.oom)
        check_params(&s);
    if (!s.oom)
        rules_check(s.m, spec, dl);
    if (s.oom || dl->out_of_memory)
        return -1;
    if (dl->errors != errors_before)
        return -1;
    *out = s.m;
    return 0;
}
