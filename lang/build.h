/* build.h - the syntax tree's builders (build.c), for the grammar (parser.y): nodes made
 * in the parse's arena (NULL when out of memory), their nesting depth tracked, and the
 * parser's stack allocated so that a failed allocation is not taken for depth. */
#ifndef CUTUNE_LANG_BUILD_H
#define CUTUNE_LANG_BUILD_H

#include "ast.h"
#include "parse.h"

/* lb_expr: a new leaf node of kind k at l (depth 1). */
ast_expr *lb_expr(lang_ctx *ctx, ast_expr_kind k, span l);

/* lb_binary / lb_unary: an operator node over its operands, one level deeper than the
 * deepest (the level is reported at the other operand, or at the operator). */
ast_expr *lb_binary(lang_ctx *ctx, ast_op op, ast_expr *a, ast_expr *b, span l);
ast_expr *lb_unary(lang_ctx *ctx, ast_op op, ast_expr *a, span l);

/* lb_chain: a < b < c as one chain (parentheses break it): a's chain extended by op b,
 * or a new chain of a and b. */
ast_expr *lb_chain(lang_ctx *ctx, ast_expr *a, ast_op op, ast_expr *b, span l);

/* lb_call: a call node `name(args)` at l, its name at name_loc (name NULL: a call with
 * no name, as `search(budget = 200)` writes its settings), one level deeper than its
 * deepest argument. */
ast_expr *lb_call(lang_ctx *ctx, const char *name, span name_loc, ast_arg_list args, span l);

/* lb_in: `item in [values]` (`not in` when negated) at l, the operator at op_loc and
 * the list at list_loc, one level deeper than its deepest part. */
ast_expr *lb_in(lang_ctx *ctx, ast_expr *item, ast_expr_list values, bool negated, span l, span op_loc, span list_loc);

/* lb_item: a new statement of kind k at l, its keyword at kw. */
ast_item *lb_item(lang_ctx *ctx, ast_item_kind k, span l, span kw);

/* lb_begin_kernel: a kernel block begins (the first fills the spec lang_parse made,
 * each later one gets its own, chained: ast_spec.next). 0, or -1 out of memory. */
int lb_begin_kernel(lang_ctx *ctx);

/* lb_add_item: the statement joins the current kernel block. 0, or -1 out of memory. */
int lb_add_item(lang_ctx *ctx, ast_item *it);

/* lb_too_deep: reports an expression nested beyond AST_MAX_DEPTH at `at`.
 * lb_nest: gives e (may be NULL) one level more than `inner` and reports the one node
 * that crosses AST_MAX_DEPTH, at `at`; returns e.
 * lb_args_depth: the depth of a call's deepest argument (0 for none). */
void lb_too_deep(lang_ctx *ctx, span at);
ast_expr *lb_nest(lang_ctx *ctx, ast_expr *e, int inner, span at);
int lb_args_depth(const ast_arg_list *args);

/* lb_word: the source text at `at` (a word the scanner made a keyword token of), copied
 * into the parse's arena; NULL out of memory. */
char *lb_word(lang_ctx *ctx, span at);

/* lb_reserved_name: reports the reserved word at `at` given as the name of a `what`
 * ("param" or "let") routed by `route` (a let: ROUTE_DEFINE or ROUTE_NONE), saying what
 * to write instead: another name, the macro the kernel reads kept by `as define WORD`
 * (which takes any word but a C or C++ keyword). 0, or -1 out of memory. */
int lb_reserved_name(lang_ctx *ctx, const char *what, span at, const ast_route *route);

/* lb_stack_alloc / lb_stack_free: the parser's stack (YYMALLOC, YYFREE): malloc with a
 * failure recorded (ctx->oom), and the current stack remembered so that lang_parse can
 * free it when a scanner's fatal error jumps out of the parser. */
void *lb_stack_alloc(lang_ctx *ctx, size_t n);
void lb_stack_free(lang_ctx *ctx, void *p);

#endif
