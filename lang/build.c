/* build.c - the syntax tree's builders, called from the grammar's actions
 * (lang/parser.y) and its stack allocator (build.h). Every node lives in the parse's
 * arena; depth is counted as nodes are made, so nesting beyond AST_MAX_DEPTH is
 * reported once, where it happens. */
#include <stdlib.h>

#include "../base/escape.h"
#include "build.h"

/* mk: a new leaf node of kind k at l (depth 1), in the parse's arena; NULL when out of
 * memory. */
ast_expr *lb_expr(lang_ctx *ctx, ast_expr_kind k, span l)
{
    ast_expr *e = arena_alloc(ctx->arena, sizeof *e);
    if (e) {
        e->kind = k;
        e->loc = l;
        e->depth = 1;
    }
    return e;
}

/* too_deep: reports an expression nested beyond AST_MAX_DEPTH at `at`. */
void lb_too_deep(lang_ctx *ctx, span at)
{
    diag_error(ctx->diags, at, "expression nested too deeply (more than %d levels)", AST_MAX_DEPTH);
}

/* nest: gives e (may be NULL) one level more than `inner`, the depth of its deepest
 * part, and reports the one node that crosses AST_MAX_DEPTH, at `at` (the part of it
 * that adds the level), so that a deep expression draws one error, not one per level.
 * Returns e. */
ast_expr *lb_nest(lang_ctx *ctx, ast_expr *e, int inner, span at)
{
    if (!e)
        return NULL;
    e->depth = inner + 1;
    if (e->depth == AST_MAX_DEPTH + 1)
        lb_too_deep(ctx, at);
    return e;
}

/* args_depth: the depth of the deepest argument of a call (0 for none). */
int lb_args_depth(const ast_arg_list *args)
{
    int d = 0;
    for (int i = 0; i < args->len; i++)
        if (args->items[i].value && args->items[i].value->depth > d)
            d = args->items[i].value->depth;
    return d;
}

ast_expr *lb_call(lang_ctx *ctx, const char *name, span name_loc, ast_arg_list args, span l)
{
    ast_expr *e = lb_expr(ctx, EX_CALL, l);
    if (!e)
        return NULL;
    e->u.call.name = name;
    e->u.call.name_loc = name_loc;
    e->u.call.args = args;
    return lb_nest(ctx, e, lb_args_depth(&args), name ? name_loc : l);
}

/* stack_alloc: the parser's stack allocator: malloc, with a failure recorded as such
 * (an exhausted stack without it is nesting, reported by tn_error). */
void *lb_stack_alloc(lang_ctx *ctx, size_t n)
{
    void *p = malloc(n);
    if (!p)
        ctx->oom = true;
    else
        ctx->parser_stack = p; /* bison frees the old stack after the copy */
    return p;
}

/* stack_free: frees a stack of the parser's; lang_parse frees the current one itself
 * when a scanner fatal error jumps out of the parser. */
void lb_stack_free(lang_ctx *ctx, void *p)
{
    if (ctx->parser_stack == p)
        ctx->parser_stack = NULL;
    free(p);
}

/* The deeper operand of a binary node is its nesting; the level is placed at the other
 * one (in 1 + 1 + ... + 1, at the term that goes one level too far). */
ast_expr *lb_binary(lang_ctx *ctx, ast_op op, ast_expr *a, ast_expr *b, span l)
{
    ast_expr *e = lb_expr(ctx, EX_BINARY, l);
    if (e) {
        e->u.binary.op = op;
        e->u.binary.lhs = a;
        e->u.binary.rhs = b;
        lb_nest(ctx, e, a->depth > b->depth ? a->depth : b->depth, a->depth >= b->depth ? b->loc : a->loc);
    }
    return e;
}

ast_expr *lb_unary(lang_ctx *ctx, ast_op op, ast_expr *a, span l)
{
    ast_expr *e = lb_expr(ctx, EX_UNARY, l);
    if (e) {
        e->u.unary.op = op;
        e->u.unary.operand = a;
        span at = {l.begin, l.begin + 1};
        lb_nest(ctx, e, a->depth, at);
    }
    return e;
}

/* a < b < c is a chain (as in mathematics), not (a < b) < c; parentheses break it. */
ast_expr *lb_chain(lang_ctx *ctx, ast_expr *a, ast_op op, ast_expr *b, span l)
{
    ast_expr *e = a;
    if (a->kind != EX_CHAIN || a->parenthesized) {
        e = lb_expr(ctx, EX_CHAIN, l);
        if (!e ||
            ARENA_PUSH(ctx->arena, e->u.chain.operands.items, e->u.chain.operands.len, e->u.chain.operands.cap, a) < 0)
            return NULL;
    }
    int n = e->u.chain.operands.len; /* operators so far: n - 1 */
    ast_op *ops = arena_grow(ctx->arena, e->u.chain.ops, sizeof(ast_op) * (size_t)(n - 1), sizeof(ast_op) * (size_t)n);
    if (!ops ||
        ARENA_PUSH(ctx->arena, e->u.chain.operands.items, e->u.chain.operands.len, e->u.chain.operands.cap, b) < 0)
        return NULL;
    ops[n - 1] = op;
    e->u.chain.ops = ops;
    e->loc = l;
    int inner = a == e ? e->depth - 1 : a->depth; /* a chain is one level over its deepest operand */
    if (b->depth > inner)
        inner = b->depth;
    if (a != e || inner + 1 > e->depth)
        lb_nest(ctx, e, inner, b->loc);
    return e;
}

ast_expr *lb_in(lang_ctx *ctx, ast_expr *item, ast_expr_list values, bool negated, span l, span op_loc, span list_loc)
{
    ast_expr *e = lb_expr(ctx, EX_IN, l);
    if (e) {
        e->u.in.item = item;
        e->u.in.values = values;
        e->u.in.negated = negated;
        e->u.in.op_loc = op_loc;
        e->u.in.list_loc = list_loc;
        int inner = item->depth;
        for (int i = 0; i < values.len; i++)
            if (values.items[i]->depth > inner)
                inner = values.items[i]->depth;
        lb_nest(ctx, e, inner, op_loc);
    }
    return e;
}

ast_item *lb_item(lang_ctx *ctx, ast_item_kind k, span l, span kw)
{
    ast_item *it = arena_alloc(ctx->arena, sizeof *it);
    if (it) {
        it->kind = k;
        it->loc = l;
        it->kw_loc = kw;
    }
    return it;
}

char *lb_word(lang_ctx *ctx, span at)
{
    return arena_strndup(ctx->arena, ctx->src->text + at.begin, at.end - at.begin);
}

/* A reserved word cannot be a name: the grammar gives the words their places, and a name
 * must read the same in every expression. The macro the kernel reads is another matter,
 * a name of C, not of the spec: `as define step` takes any word but C's and C++'s
 * keywords, which rules.c refuses as macros. */
int lb_reserved_name(lang_ctx *ctx, const char *what, span at, const ast_route *route)
{
    const char *word = lb_word(ctx, at);
    if (!word)
        return -1;
    if (route->kind != ROUTE_DEFINE)
        diag_error(ctx->diags, at,
                   "'%s' is a reserved word of the spec language, so it cannot name a %s; name it otherwise (%s_)",
                   word, what, word);
    else if (route->text)
        diag_error(ctx->diags, at,
                   "'%s' is a reserved word of the spec language, so it cannot name a %s; name it otherwise (%s_): "
                   "its macro stays %s",
                   word, what, word, route->text);
    else if (esc_c_keyword(word))
        diag_error(ctx->diags, at,
                   "'%s' is a reserved word of the spec language and a C or C++ keyword, so it can name neither a %s "
                   "nor a "
                   "macro; name both otherwise (%s %s_ %s ... as define MACRO)",
                   word, what, what, word, what[0] == 'p' ? "in" : "=");
    else
        diag_error(ctx->diags, at,
                   "'%s' is a reserved word of the spec language, so it cannot name a %s; name it otherwise and "
                   "keep the macro the kernel reads (%s %s_ %s ... as define %s)",
                   word, what, what, word, what[0] == 'p' ? "in" : "=", word);
    return 0;
}

/* begin_kernel: a kernel block begins: the first fills the spec lang_parse made; each
 * later one gets a spec of its own, chained after the last (ast_spec.next). 0, or -1
 * out of memory. */
int lb_begin_kernel(lang_ctx *ctx)
{
    if (!ctx->spec->has_kernel && ctx->spec->len == 0)
        return 0;
    ast_spec *s = arena_alloc(ctx->arena, sizeof *s);
    if (!s)
        return -1;
    s->src = ctx->src;
    ctx->spec->next = s;
    ctx->spec = s;
    return 0;
}

int lb_add_item(lang_ctx *ctx, ast_item *it)
{
    ast_spec *s = ctx->spec;
    return ARENA_PUSH(ctx->arena, s->items, s->len, s->cap, it);
}
