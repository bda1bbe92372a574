/* parser.y - the .tune grammar: a pure, reentrant bison parser with locations.
 *
 * Nodes are allocated in the parse's arena, so error recovery needs no %destructor:
 * whatever the parser discards is freed with the arena. Errors resynchronise at ';'
 * (statement level) so one run reports every syntax error it can. Each rule is headed
 * by its EBNF in docs/language.md terms. */
%define api.pure full
%define api.prefix {tn_}
%define api.location.type {tn_loc}
%define parse.error custom
%locations
%expect 0
%param {void *scanner}
%parse-param {lang_ctx *ctx}

%code requires {
#include "ast.h"
#include "parse.h"
typedef struct tn_loc {
    uint32_t begin, end;
} tn_loc;
#define YYLLOC_DEFAULT(Cur, Rhs, N)                         \
    do {                                                    \
        if (N) {                                            \
            (Cur).begin = YYRHSLOC(Rhs, 1).begin;           \
            (Cur).end = YYRHSLOC(Rhs, N).end;               \
        } else {                                            \
            (Cur).begin = (Cur).end = YYRHSLOC(Rhs, 0).end; \
        }                                                   \
    } while (0)
}

%union {
    int64_t ival;
    double fval;
    bool bval;
    const char *sval;
    ast_ctype ctype;
    ast_op op;
    ast_dir dir;
    ast_expr *expr;
    ast_expr_list exprs;
    ast_arg arg;
    ast_arg_list args;
    ast_name_list names;
    ast_item *item;
    ast_domain domain;
    ast_route route;
    ast_reference ref;
    struct { ast_expr *step; bool geometric; } step;
    struct { ast_expr *atol, *rtol; ast_arg_list checks; ast_reference *checker; span checker_word; } tol;
    struct { ast_expr_list list; bool present; } targs;
    struct { ast_name_list names; bool tuple; } svars;   /* size: the variables */
    ast_size_list sizes;                                 /* size: the values */
}

%code {
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../base/suggest.h"
#include "build.h"
#include "syntax.h"
int tn_lex(TN_STYPE *lval, tn_loc *lloc, void *scanner);
void tn_lex_recovering(void *scanner);
static void tn_error(tn_loc *loc, void *scanner, lang_ctx *ctx, const char *msg);
static span S(tn_loc l) { span s = {l.begin, l.end}; return s; }
#define NEW(p) do { if (!(p)) { ctx->oom = true; YYNOMEM; } } while (0)
/* The parser's stack grows by at most 4 entries per level of expression nesting
 * (f(k = f(k = ...: IDENT '(' IDENT '='), so a stack this deep means an expression
 * nested beyond AST_MAX_DEPTH; tn_error reports it as such. Its own allocations go
 * through lb_stack_alloc, so that a real allocation failure is not taken for depth. */
#define YYMAXDEPTH (4 * (AST_MAX_DEPTH + 1) + 64)
#define YYMALLOC(n) lb_stack_alloc(ctx, (n))
#define YYFREE(p) lb_stack_free(ctx, (p))
#define PUSH(vec, x) NEW(ARENA_PUSH(ctx->arena, (vec).items, (vec).len, (vec).cap, (x)) == 0 ? (void *)1 : NULL)
/* The tree's builders are lang/build.c's; these names keep the actions short. */
static void too_deep(lang_ctx *ctx, span at) { lb_too_deep(ctx, at); }
static ast_expr *nest(lang_ctx *ctx, ast_expr *e, int inner, span at) { return lb_nest(ctx, e, inner, at); }
static int add_item(lang_ctx *ctx, ast_item *it) { return lb_add_item(ctx, it); }
static int begin_kernel(lang_ctx *ctx) { return lb_begin_kernel(ctx); }
static int args_depth(const ast_arg_list *args) { return lb_args_depth(args); }
static ast_expr *mk(lang_ctx *ctx, ast_expr_kind k, tn_loc l) { return lb_expr(ctx, k, S(l)); }
static ast_expr *mk_binary(lang_ctx *ctx, ast_op op, ast_expr *a, ast_expr *b, tn_loc l)
{
    return lb_binary(ctx, op, a, b, S(l));
}
static ast_expr *mk_unary(lang_ctx *ctx, ast_op op, ast_expr *a, tn_loc l) { return lb_unary(ctx, op, a, S(l)); }
static ast_expr *mk_chain(lang_ctx *ctx, ast_expr *a, ast_op op, ast_expr *b, tn_loc l)
{
    return lb_chain(ctx, a, op, b, S(l));
}
static ast_item *mk_item(lang_ctx *ctx, ast_item_kind k, tn_loc l, tn_loc kw) { return lb_item(ctx, k, S(l), S(kw)); }
}

%token KERNEL "'kernel'" FROM "'from'" INCLUDE "'include'" OPTIONS "'options'"
%token PARAM "'param'" IN "'in'" OUT "'out'" INOUT "'inout'" STEP "'step'" AS "'as'"
%token DEFINE "'define'" TEMPLATE "'template'" OPTION "'option'" MAXRREGCOUNT "'maxrregcount'"
%token SMEM "'smem'" NONE "'none'" DEFAULT "'default'" LET "'let'" REQUIRE "'require'"
%token BLOCK "'block'" GRID "'grid'" ARG "'arg'" VERIFY "'verify'" AGAINST "'against'"
%token CONFIG "'config'" ATOL "'atol'" RTOL "'rtol'" METRIC "'metric'" OBJECTIVE "'objective'"
%token MINIMIZE "'minimize'" MAXIMIZE "'maximize'" SEARCH "'search'" MEASURE "'measure'"
%token EMIT "'emit'" PREFIX "'prefix'"
%token SIZE "'size'"   /* a statement keyword only where a statement starts (lexer.l) */
%token RESET "'reset'"
%token NOTIN "'not in'"
%token COMPAT "'compat'"   /* a statement keyword only where a statement starts (lexer.l) */
%token DOTDOT "'..'" POW "'**'" FLOORDIV "'//'" SHL "'<<'" SHR "'>>'" LE "'<='" GE "'>='"
%token EQ "'=='" NE "'!='" ANDAND "'&&'" OROR "'||'"
%token <ival> INT "number"
%token <fval> FLOAT "number "
%token <fval> DURATION "duration"
%token <bval> BOOL "'true' or 'false'"
%token <sval> STRING "string"
%token <sval> IDENT "identifier"
%token <ctype> CTYPE "type name"

%type <expr> expr cond_expr or_expr and_expr cmp_expr bor_expr bxor_expr band_expr shift_expr
%type <expr> add_expr mul_expr unary_expr pow_expr primary default_opt init_opt count_opt
%type <item> item
%type <exprs> expr_list expr_list_opt string_list dims targ_list
%type <arg> call_arg
%type <args> call_args call_args_opt
%type <names> name_list
%type <domain> domain
%type <route> route_opt
%type <ref> reference
%type <step> step_opt
%type <tol> tol_opt
%type <targs> targs_opt
%type <op> cmp_op
%type <dir> dir_opt
%type <sval> from_opt block_name_opt macro_name
%type <route> let_define_opt
%type <svars> size_vars
%type <sizes> size_values size_values_opt

%start spec

%%

/* spec = kernel_block { kernel_block }
 * kernel_block = "kernel" IDENT [ "<" targs ">" ] [ "as" IDENT ] "from" STRING "{" { item } "}" */
spec
    : kernel_block
    | spec kernel_block
    | error
    ;

kernel_block
    : KERNEL IDENT targs_opt block_name_opt FROM STRING '{' { NEW(begin_kernel(ctx) == 0 ? (void *)1 : NULL); } items '}'
        { ctx->spec->has_kernel = true;
          ctx->spec->kernel.name = $2; ctx->spec->kernel.loc = S(@2);
          ctx->spec->targs = $3.list; ctx->spec->has_targs = $3.present; ctx->spec->targs_loc = S(@3);
          ctx->spec->block.name = $4; ctx->spec->block.loc = S(@4);
          ctx->spec->file = $6; ctx->spec->file_loc = S(@6);
          span k = {@1.begin, @6.end}; ctx->spec->kernel_loc = k; }
    ;

/* the block's own name, when a file holds several blocks of one kernel */
block_name_opt
    : %empty                 { $$ = NULL; }
    | AS IDENT               { $$ = $2; @$ = @2; }
    ;

targs_opt
    : %empty                 { memset(&$$, 0, sizeof $$); }
    | '<' targ_list '>'      { $$.list = $2; $$.present = true; }
    ;

/* Template arguments are shift-level expressions (no comparisons, bit operators, logic
 * or ?:) so that '>' closes the list; parenthesise anything more: reduce<(N > 4)>. */
targ_list
    : shift_expr               { memset(&$$, 0, sizeof $$); PUSH($$, $1); }
    | targ_list ',' shift_expr { $$ = $1; PUSH($$, $3); }
    ;

items
    : %empty
    | items item             { if ($2) NEW(add_item(ctx, $2) == 0 ? (void *)1 : NULL); }
    ;

item
    /* include = "include" STRING { "," STRING } ";" */
    : INCLUDE string_list ';'      { NEW($$ = mk_item(ctx, IT_INCLUDE, @$, @1)); $$->u.strings = $2; }
    /* options = "options" STRING { "," STRING } ";" */
    | OPTIONS string_list ';'      { NEW($$ = mk_item(ctx, IT_OPTIONS, @$, @1)); $$->u.strings = $2; }
    /* param = "param" IDENT "in" domain [ "as" route ] [ "default" expr ] ";" */
    | PARAM IDENT IN domain route_opt default_opt ';'
        { NEW($$ = mk_item(ctx, IT_PARAM, @$, @1));
          $$->u.param.name.name = $2; $$->u.param.name.loc = S(@2);
          $$->u.param.domain = $4; $$->u.param.route = $5; $$->u.param.deflt = $6; }
    /* a reserved word as a param's name: one error saying what to write instead */
    | PARAM reserved_word IN domain route_opt default_opt ';'
        { $$ = NULL; NEW(lb_reserved_name(ctx, "param", S(@2), &$5) == 0 ? (void *)1 : NULL); }
    /* let = "let" binding { "," binding } ";"   binding = IDENT "=" expr [ "as" "define" [ macro_name ] ] */
    | LET let_bindings ';'         { $$ = NULL; }
    /* require = "require" expr ";" */
    | REQUIRE expr ';'             { NEW($$ = mk_item(ctx, IT_REQUIRE, @$, @1)); $$->u.expr = $2; }
    /* block = "block" dims ";"   grid = "grid" dims ";"   smem = "smem" expr ";" */
    | BLOCK dims ';'               { NEW($$ = mk_item(ctx, IT_BLOCK, @$, @1)); $$->u.dims = $2; }
    | GRID dims ';'                { NEW($$ = mk_item(ctx, IT_GRID, @$, @1)); $$->u.dims = $2; }
    | SMEM expr ';'                { NEW($$ = mk_item(ctx, IT_SMEM, @$, @1)); $$->u.expr = $2; }
    /* arg = "arg" IDENT ":" [ "in" | "out" | "inout" | "constant" ] TYPE [ "[" expr "]" ] [ "=" expr ] ";" */
    | ARG IDENT ':' dir_opt CTYPE count_opt init_opt ';'
        { NEW($$ = mk_item(ctx, IT_ARG, @$, @1));
          $$->u.arg.name.name = $2; $$->u.arg.name.loc = S(@2);
          $$->u.arg.dir = $4; $$->u.arg.dir_loc = S(@4);
          $$->u.arg.type = $5; $$->u.arg.type_loc = S(@5);
          $$->u.arg.count = $6; $$->u.arg.init = $7; }
    /* verify = "verify" IDENT { "," IDENT } "against" reference { ( "atol" | "rtol" ) expr } ";"
     *          (each of atol and rtol at most once) */
    | VERIFY name_list AGAINST reference tol_opt ';'
        { NEW($$ = mk_item(ctx, IT_VERIFY, @$, @1));
          $$->u.verify.outputs = $2; $$->u.verify.against = $4;
          $$->u.verify.atol = $5.atol; $$->u.verify.rtol = $5.rtol;
          $$->u.verify.checks = $5.checks; $$->u.verify.checker = $5.checker;
          $$->u.verify.checker_word_loc = $5.checker_word; }
    /* metric = "metric" IDENT "=" expr ";" */
    | METRIC IDENT '=' expr ';'
        { NEW($$ = mk_item(ctx, IT_METRIC, @$, @1));
          $$->u.let.name.name = $2; $$->u.let.name.loc = S(@2); $$->u.let.value = $4; }
    /* objective = "objective" ( "minimize" | "maximize" ) expr ";" */
    | OBJECTIVE MINIMIZE expr ';'
        { NEW($$ = mk_item(ctx, IT_OBJECTIVE, @$, @1));
          $$->u.objective.maximize = false; $$->u.objective.dir_loc = S(@2); $$->u.objective.value = $3; }
    | OBJECTIVE MAXIMIZE expr ';'
        { NEW($$ = mk_item(ctx, IT_OBJECTIVE, @$, @1));
          $$->u.objective.maximize = true; $$->u.objective.dir_loc = S(@2); $$->u.objective.value = $3; }
    /* search = "search" [ IDENT ] [ "(" [ settings ] ")" ] ";"   (no IDENT: the strategy is auto) */
    | SEARCH ';'                   { NEW($$ = mk_item(ctx, IT_SEARCH, @$, @1)); $$->u.search = NULL; }
    | SEARCH IDENT ';'
        { NEW($$ = mk_item(ctx, IT_SEARCH, @$, @1));
          NEW($$->u.search = mk(ctx, EX_NAME, @2)); $$->u.search->u.name = $2; }
    | SEARCH IDENT '(' call_args_opt ')' ';'
        { NEW($$ = mk_item(ctx, IT_SEARCH, @$, @1)); span l = {@2.begin, @5.end};
          NEW($$->u.search = lb_call(ctx, $2, S(@2), $4, l)); }
    | SEARCH '(' call_args_opt ')' ';'
        { NEW($$ = mk_item(ctx, IT_SEARCH, @$, @1)); span l = {@2.begin, @4.end};
          NEW($$->u.search = lb_call(ctx, NULL, S(@2), $3, l)); }
    /* measure = "measure" "(" [ settings ] ")" ";" */
    | MEASURE '(' call_args_opt ')' ';'
        { NEW($$ = mk_item(ctx, IT_MEASURE, @$, @1)); $$->u.settings = $3; }
    /* emit = "emit" IDENT STRING [ "prefix" IDENT ] ";" */
    | EMIT IDENT STRING ';'
        { NEW($$ = mk_item(ctx, IT_EMIT, @$, @1));
          $$->u.emit.what.name = $2; $$->u.emit.what.loc = S(@2);
          $$->u.emit.path = $3; $$->u.emit.path_loc = S(@3); }
    | EMIT IDENT STRING PREFIX IDENT ';'
        { NEW($$ = mk_item(ctx, IT_EMIT, @$, @1));
          $$->u.emit.what.name = $2; $$->u.emit.what.loc = S(@2);
          $$->u.emit.path = $3; $$->u.emit.path_loc = S(@3);
          $$->u.emit.prefix.name = $5; $$->u.emit.prefix.loc = S(@5); }
    /* size = "size" ( IDENT | "(" IDENT { "," IDENT } ")" ) "in" "[" [ dims { "," dims } [ "," ] ] "]" ";" */
    | SIZE size_vars IN '[' size_values_opt ']' ';'
        { NEW($$ = mk_item(ctx, IT_SIZE, @$, @1));
          $$->u.size.names = $2.names; $$->u.size.tuple = $2.tuple;
          $$->u.size.sizes = $5; span l = {@4.begin, @6.end}; $$->u.size.list_loc = l; }
    /* reset = "reset" IDENT { "," IDENT } [ "=" expr ] ";"
     *                 | "reset" "kernel" IDENT [ "<" targs ">" ] [ "from" STRING ] "block" dims "grid" dims ";" */
    | RESET name_list ';'
        { NEW($$ = mk_item(ctx, IT_RESET, @$, @1)); $$->u.reset.targets = $2; }
    | RESET name_list '=' expr ';'
        { NEW($$ = mk_item(ctx, IT_RESET, @$, @1)); $$->u.reset.targets = $2; $$->u.reset.value = $4; }
    | RESET KERNEL IDENT targs_opt from_opt BLOCK dims GRID dims ';'
        { NEW($$ = mk_item(ctx, IT_RESET, @$, @1));
          ast_reference *r = &$$->u.reset.kernel;
          r->is_kernel = true; r->loc = S(@2); r->loc.end = @9.end;
          r->kernel.name = $3; r->kernel.loc = S(@3);
          r->targs = $4.list; r->has_targs = $4.present;
          r->file = $5; r->file_loc = S(@5);
          r->block = $7; r->block_loc = S(@7); r->grid = $9; r->grid_loc = S(@9); }
    /* compat = "compat" IDENT ";"   (checker: kernel_tuner) */
    | COMPAT IDENT ';'
        { NEW($$ = mk_item(ctx, IT_COMPAT, @$, @1)); $$->u.compat.name = $2; $$->u.compat.loc = S(@2); }
    | error ';'                    { $$ = NULL; yyerrok; }
    ;

size_vars
    : IDENT                  { ast_name n = {$1, S(@1)}; memset(&$$, 0, sizeof $$); PUSH($$.names, n); }
    | '(' name_list ')'      { $$.names = $2; $$.tuple = true; }
    ;

size_values_opt
    : %empty                 { memset(&$$, 0, sizeof $$); }
    | size_values
    | size_values ','
    ;

/* Each size is written as a dims: one value, or a parenthesised tuple (a, b). */
size_values
    : dims                   { ast_size_tuple t = {$1, S(@1)}; memset(&$$, 0, sizeof $$); PUSH($$, t); }
    | size_values ',' dims   { ast_size_tuple t = {$3, S(@3)}; $$ = $1; PUSH($$, t); }
    ;

let_bindings
    : let_binding
    | let_bindings ',' let_binding
    ;

let_binding
    : IDENT '=' expr let_define_opt
        { ast_item *it; NEW(it = mk_item(ctx, IT_LET, @$, @1));
          it->u.let.name.name = $1; it->u.let.name.loc = S(@1); it->u.let.value = $3;
          it->u.let.as_define = $4.kind == ROUTE_DEFINE; it->u.let.define_loc = $4.loc;
          it->u.let.define.name = $4.text; it->u.let.define.loc = $4.text_loc;
          NEW(add_item(ctx, it) == 0 ? (void *)1 : NULL); }
    /* a reserved word as a let's name: one error saying what to write instead */
    | reserved_word '=' expr let_define_opt
        { NEW(lb_reserved_name(ctx, "let", S(@1), &$4) == 0 ? (void *)1 : NULL); }
    ;

/* a let passed to the kernel as -DMACRO=value (MACRO: the let's own name when not
 * given); kind ROUTE_NONE when it is not */
let_define_opt
    : %empty                 { memset(&$$, 0, sizeof $$); $$.kind = ROUTE_NONE; }
    | AS DEFINE              { memset(&$$, 0, sizeof $$); $$.kind = ROUTE_DEFINE; $$.loc = S(@2); }
    | AS DEFINE macro_name   { memset(&$$, 0, sizeof $$); $$.kind = ROUTE_DEFINE; $$.loc = S(@2);
                               $$.text = $3; $$.text_loc = S(@3); }
    ;

/* macro_name = IDENT | a reserved word but "default": the macro is a name of the kernel's
 * source, not of the spec, so `as define step` defines step ("default" would read as the
 * param's default, and is a C keyword: no macro's name) */
macro_name
    : IDENT                  { $$ = $1; }
    | spec_word              { NEW($$ = lb_word(ctx, S(@1))); }
    ;

/* reserved_word = a reserved word of the spec language (a name where one goes: an error) */
reserved_word
    : spec_word
    | DEFAULT
    ;

spec_word
    : KERNEL | FROM | INCLUDE | OPTIONS | PARAM | IN | OUT | INOUT | STEP | AS | DEFINE | TEMPLATE
    | OPTION | MAXRREGCOUNT | SMEM | NONE | LET | REQUIRE | BLOCK | GRID | ARG | VERIFY | AGAINST
    | CONFIG | ATOL | RTOL | METRIC | OBJECTIVE | MINIMIZE | MAXIMIZE | SEARCH | MEASURE | EMIT
    | PREFIX | RESET | BOOL {} | CTYPE {}
    ;

string_list
    : STRING
        { ast_expr *e; NEW(e = mk(ctx, EX_STRING, @1)); e->u.sval = $1;
          memset(&$$, 0, sizeof $$); PUSH($$, e); }
    | string_list ',' STRING
        { ast_expr *e; NEW(e = mk(ctx, EX_STRING, @3)); e->u.sval = $3; $$ = $1; PUSH($$, e); }
    ;

/* domain = "[" [ expr { "," expr } ] "]" | expr ".." expr [ "step" [ "*" ] expr ] */
domain
    : '[' expr_list_opt ']'
        { memset(&$$, 0, sizeof $$); $$.kind = DOM_LIST; $$.values = $2; $$.loc = S(@$); }
    | expr DOTDOT expr step_opt
        { memset(&$$, 0, sizeof $$); $$.kind = DOM_RANGE; $$.lo = $1; $$.hi = $3;
          $$.step = $4.step; $$.geometric = $4.geometric; $$.loc = S(@$); }
    ;

step_opt
    : %empty                 { $$.step = NULL; $$.geometric = false; }
    | STEP expr              { $$.step = $2; $$.geometric = false; }
    | STEP '*' expr          { $$.step = $3; $$.geometric = true; }
    ;

/* route = "define" [ macro_name ] | "template" | "option" [ STRING ] | "maxrregcount" | "smem" | "none" */
route_opt
    : %empty                 { memset(&$$, 0, sizeof $$); $$.kind = ROUTE_DEFINE; }
    | AS DEFINE              { memset(&$$, 0, sizeof $$); $$.kind = ROUTE_DEFINE; $$.explicit_route = true; $$.loc = S(@2); }
    | AS DEFINE macro_name   { memset(&$$, 0, sizeof $$); $$.kind = ROUTE_DEFINE; $$.explicit_route = true; $$.loc = S(@2);
                               $$.text = $3; $$.text_loc = S(@3); }
    | AS TEMPLATE            { memset(&$$, 0, sizeof $$); $$.kind = ROUTE_TEMPLATE; $$.explicit_route = true; $$.loc = S(@2); }
    | AS OPTION              { memset(&$$, 0, sizeof $$); $$.kind = ROUTE_OPTION; $$.explicit_route = true; $$.loc = S(@2); }
    | AS OPTION STRING       { memset(&$$, 0, sizeof $$); $$.kind = ROUTE_OPTION; $$.explicit_route = true; $$.loc = S(@2);
                               $$.text = $3; $$.text_loc = S(@3); }
    | AS MAXRREGCOUNT        { memset(&$$, 0, sizeof $$); $$.kind = ROUTE_MAXRREGCOUNT; $$.explicit_route = true; $$.loc = S(@2); }
    | AS SMEM                { memset(&$$, 0, sizeof $$); $$.kind = ROUTE_SMEM; $$.explicit_route = true; $$.loc = S(@2); }
    | AS NONE                { memset(&$$, 0, sizeof $$); $$.kind = ROUTE_NONE; $$.explicit_route = true; $$.loc = S(@2); }
    ;

default_opt
    : %empty                 { $$ = NULL; }
    | DEFAULT expr           { $$ = $2; }
    ;

/* dims = expr | "(" expr "," expr [ "," expr ] ")" */
dims
    : expr                   { memset(&$$, 0, sizeof $$); PUSH($$, $1); }
    | '(' expr ',' expr_list ')'
        { memset(&$$, 0, sizeof $$); PUSH($$, $2);
          for (int i = 0; i < $4.len; i++) PUSH($$, $4.items[i]); }
    ;

dir_opt
    : %empty                 { $$ = DIR_NONE; }
    | IN                     { $$ = DIR_IN; }
    | OUT                    { $$ = DIR_OUT; }
    | INOUT                  { $$ = DIR_INOUT; }
    /* `constant`: a __constant__ symbol of the module (not a reserved word: constant(v) fills) */
    | IDENT
        { $$ = DIR_CONSTANT;
          if (strcmp($1, "constant") != 0) {
              const char *best = suggest_best($1, (const char *const[]){"constant", "inout"}, 2);
              diag_error(ctx->diags, S(@1), "unknown direction '%s'%s%s%s (an argument is in, out, inout or "
                         "constant, then its type)", $1, best ? "; did you mean '" : "", best ? best : "",
                         best ? "'?" : "");
          } }
    ;

count_opt
    : %empty                 { $$ = NULL; }
    | '[' expr ']'           { $$ = $2; }
    ;

init_opt
    : %empty                 { $$ = NULL; }
    | '=' expr               { $$ = $2; }
    ;

name_list
    : IDENT
        { ast_name n = {$1, S(@1)}; memset(&$$, 0, sizeof $$); PUSH($$, n); }
    | name_list ',' IDENT
        { ast_name n = {$3, S(@3)}; $$ = $1; PUSH($$, n); }
    ;

/* reference = "config" "(" settings ")"
 *           | "kernel" IDENT [ "<" targs ">" ] [ "from" STRING ] "block" dims "grid" dims */
reference
    : CONFIG '(' call_args_opt ')'
        { memset(&$$, 0, sizeof $$); $$.is_kernel = false; $$.config = $3; $$.loc = S(@$); }
    | KERNEL IDENT targs_opt from_opt BLOCK dims GRID dims
        { memset(&$$, 0, sizeof $$); $$.is_kernel = true; $$.loc = S(@$);
          $$.kernel.name = $2; $$.kernel.loc = S(@2);
          $$.targs = $3.list; $$.has_targs = $3.present;
          $$.file = $4; $$.file_loc = S(@4);
          $$.block = $6; $$.block_loc = S(@6); $$.grid = $8; $$.grid_loc = S(@8); }
    ;

from_opt
    : %empty                 { $$ = NULL; }
    | FROM STRING            { $$ = $2; @$ = @2; /* the file, for "cannot find" */ }
    ;

tol_opt
    : %empty                 { memset(&$$, 0, sizeof $$); }
    | tol_opt ATOL expr
        { $$ = $1;
          if ($$.atol) { span s = S(@2); diag_error(ctx->diags, s, "atol is given twice"); }
          $$.atol = $3; }
    | tol_opt RTOL expr
        { $$ = $1;
          if ($$.rtol) { span s = S(@2); diag_error(ctx->diags, s, "rtol is given twice"); }
          $$.rtol = $3; }
    /* l2 T | ulp N | tol S (the checker says which names there are) */
    | tol_opt IDENT expr
        { $$ = $1; ast_arg a = {$2, S(@2), $3}; PUSH($$.checks, a); }
    /* check kernel NAME [<targs>] [from "FILE"] */
    | tol_opt IDENT KERNEL IDENT targs_opt from_opt
        { $$ = $1;
          ast_reference *r; NEW(r = arena_alloc(ctx->arena, sizeof *r)); memset(r, 0, sizeof *r);
          if ($$.checker) { span s = S(@3); diag_error(ctx->diags, s, "a checker kernel is given twice"); }
          r->is_kernel = true; r->loc = S(@$); r->loc.begin = @2.begin;
          r->kernel.name = $4; r->kernel.loc = S(@4);
          r->targs = $5.list; r->has_targs = $5.present;
          r->file = $6; r->file_loc = S(@6);
          $$.checker = r; $$.checker_word = S(@2);
          if (strcmp($2, "check") != 0) {
              span s = S(@2);
              diag_error(ctx->diags, s, "'%s kernel' is not a clause of verify; a checker kernel is written "
                         "check kernel NAME from \"FILE\"", $2);
          } }
    ;

expr_list_opt
    : %empty                 { memset(&$$, 0, sizeof $$); }
    | expr_list
    | expr_list ','
    ;

expr_list
    : expr                   { memset(&$$, 0, sizeof $$); PUSH($$, $1); }
    | expr_list ',' expr     { $$ = $1; PUSH($$, $3); }
    ;

call_args_opt
    : %empty                 { memset(&$$, 0, sizeof $$); }
    | call_args
    ;

call_args
    : call_arg               { memset(&$$, 0, sizeof $$); PUSH($$, $1); }
    | call_args ',' call_arg { $$ = $1; PUSH($$, $3); }
    ;

call_arg
    : expr                   { $$.name = NULL; $$.value = $1; memset(&$$.name_loc, 0, sizeof $$.name_loc); }
    | IDENT '=' expr         { $$.name = $1; $$.name_loc = S(@1); $$.value = $3; }
    | STEP '=' expr          { $$.name = "step"; $$.name_loc = S(@1); $$.value = $3; } /* ramp(step = 2) */
    ;

/* expr: the precedence climbs from ?: through || && comparisons | ^ & shifts + * unary to ** */
expr
    : cond_expr
    ;

cond_expr
    : or_expr
    | or_expr '?' expr ':' cond_expr
        { NEW($$ = mk(ctx, EX_COND, @$)); $$->u.cond.cond = $1; $$->u.cond.then = $3; $$->u.cond.otherwise = $5;
          int d = $1->depth > $3->depth ? $1->depth : $3->depth;
          $$ = nest(ctx, $$, d > $5->depth ? d : $5->depth, S(@2)); }
    ;

or_expr
    : and_expr
    | or_expr OROR and_expr        { NEW($$ = mk_binary(ctx, OP_OR, $1, $3, @$)); }
    ;

and_expr
    : cmp_expr
    | and_expr ANDAND cmp_expr     { NEW($$ = mk_binary(ctx, OP_AND, $1, $3, @$)); }
    ;

/* cmp_expr = bor_expr { cmp_op bor_expr } | bor_expr ( "in" | "not in" ) "[" [ expr { "," expr } [ "," ] ] "]"
 * (membership does not chain: a < b in [...] is an error; parenthesise) */
cmp_expr
    : bor_expr
    | cmp_expr cmp_op bor_expr     { NEW($$ = mk_chain(ctx, $1, $2, $3, @$)); }
    | bor_expr IN '[' expr_list_opt ']'
        { span l = {@3.begin, @5.end}; NEW($$ = lb_in(ctx, $1, $4, false, S(@$), S(@2), l)); }
    | bor_expr NOTIN '[' expr_list_opt ']'
        { span l = {@3.begin, @5.end}; NEW($$ = lb_in(ctx, $1, $4, true, S(@$), S(@2), l)); }
    ;

cmp_op
    : '<' { $$ = OP_LT; } | LE { $$ = OP_LE; } | '>' { $$ = OP_GT; } | GE { $$ = OP_GE; }
    | EQ { $$ = OP_EQ; } | NE { $$ = OP_NE; }
    ;

bor_expr
    : bxor_expr
    | bor_expr '|' bxor_expr       { NEW($$ = mk_binary(ctx, OP_BITOR, $1, $3, @$)); }
    ;

bxor_expr
    : band_expr
    | bxor_expr '^' band_expr      { NEW($$ = mk_binary(ctx, OP_BITXOR, $1, $3, @$)); }
    ;

band_expr
    : shift_expr
    | band_expr '&' shift_expr     { NEW($$ = mk_binary(ctx, OP_BITAND, $1, $3, @$)); }
    ;

shift_expr
    : add_expr
    | shift_expr SHL add_expr      { NEW($$ = mk_binary(ctx, OP_SHL, $1, $3, @$)); }
    | shift_expr SHR add_expr      { NEW($$ = mk_binary(ctx, OP_SHR, $1, $3, @$)); }
    ;

add_expr
    : mul_expr
    | add_expr '+' mul_expr        { NEW($$ = mk_binary(ctx, OP_ADD, $1, $3, @$)); }
    | add_expr '-' mul_expr        { NEW($$ = mk_binary(ctx, OP_SUB, $1, $3, @$)); }
    ;

mul_expr
    : unary_expr
    | mul_expr '*' unary_expr      { NEW($$ = mk_binary(ctx, OP_MUL, $1, $3, @$)); }
    | mul_expr '/' unary_expr      { NEW($$ = mk_binary(ctx, OP_DIV, $1, $3, @$)); }
    | mul_expr FLOORDIV unary_expr { NEW($$ = mk_binary(ctx, OP_FLOORDIV, $1, $3, @$)); }
    | mul_expr '%' unary_expr      { NEW($$ = mk_binary(ctx, OP_MOD, $1, $3, @$)); }
    ;

unary_expr
    : pow_expr
    | '-' unary_expr               { NEW($$ = mk_unary(ctx, OP_NEG, $2, @$)); }
    | '+' unary_expr               { NEW($$ = mk_unary(ctx, OP_POS, $2, @$)); }
    | '!' unary_expr               { NEW($$ = mk_unary(ctx, OP_NOT, $2, @$)); }
    | '~' unary_expr               { NEW($$ = mk_unary(ctx, OP_BITNOT, $2, @$)); }
    ;

pow_expr
    : primary
    | primary POW unary_expr       { NEW($$ = mk_binary(ctx, OP_POW, $1, $3, @$)); }
    ;

primary
    : INT                          { NEW($$ = mk(ctx, EX_INT, @$)); $$->u.ival = $1; }
    | FLOAT                        { NEW($$ = mk(ctx, EX_FLOAT, @$)); $$->u.fval = $1; }
    | DURATION                     { NEW($$ = mk(ctx, EX_FLOAT, @$)); $$->u.fval = $1; }
    | BOOL                         { NEW($$ = mk(ctx, EX_BOOL, @$)); $$->u.bval = $1; }
    | STRING                       { NEW($$ = mk(ctx, EX_STRING, @$)); $$->u.sval = $1; }
    | IDENT                        { NEW($$ = mk(ctx, EX_NAME, @$)); $$->u.name = $1; }
    | CTYPE                        { NEW($$ = mk(ctx, EX_CTYPE, @$)); $$->u.ctype = $1; }
    | IDENT '(' call_args_opt ')'
        { NEW($$ = mk(ctx, EX_CALL, @$)); $$->u.call.name = $1; $$->u.call.name_loc = S(@1); $$->u.call.args = $3;
          $$ = nest(ctx, $$, args_depth(&$3), S(@1)); }
    | CTYPE '(' call_args_opt ')'
        { NEW($$ = mk(ctx, EX_CALL, @$)); $$->u.call.name = ast_ctype_name($1); $$->u.call.name_loc = S(@1);
          $$->u.call.args = $3; $$ = nest(ctx, $$, args_depth(&$3), S(@1)); }
    | '(' expr ')'                 { $$ = $2; $$->parenthesized = true; $$->loc = S(@$);
                                     $$ = nest(ctx, $$, $$->depth, S(@1)); }
    ;

%%

/* tn_error: bison's own errors. Syntax errors go through yyreport_syntax_error; what
 * comes here is an exhausted stack, which (unless an allocation failed) means nesting
 * beyond what YYMAXDEPTH allows. */
static void tn_error(tn_loc *loc, void *scanner, lang_ctx *ctx, const char *msg)
{
    (void)scanner;
    if (ctx->oom)
        return;
    if (strcmp(msg, "memory exhausted") == 0) {
        ctx->too_deep = true;
        too_deep(ctx, S(*loc));
        return;
    }
    diag_error(ctx->diags, S(*loc), "%s", msg);
}

/* The token code (parser.h's: IDENT, ';', TN_EOF, ...) of symbol kind `sym`. */
static int token_code(yysymbol_kind_t sym)
{
    if (sym == YYSYMBOL_YYUNDEF)
        return TN_UNDEF;
    for (int code = 0; code <= YYMAXUTOK; code++)
        if (YYTRANSLATE(code) == sym)
            return code;
    return TN_UNDEF;
}

/* Syntax errors: the parser's state handed to syntax_report (lang/syntax.c), which says
 * what was expected and what was found. */
static int yyreport_syntax_error(const yypcontext_t *pctx, void *scanner, lang_ctx *ctx)
{
    _Static_assert(YYNTOKENS <= SYNTAX_MAX_EXPECTED, "syntax_error holds every token the parser may expect");
    yysymbol_kind_t expected[YYNTOKENS];
    syntax_error e;
    e.nexpected = yypcontext_expected_tokens(pctx, expected, YYNTOKENS);
    for (int i = 0; i < e.nexpected; i++) {
        e.expected[i] = token_code(expected[i]);
        e.expected_names[i] = yysymbol_name(expected[i]);
    }
    yysymbol_kind_t tok = yypcontext_token(pctx);
    /* The parser now skips to the next ';' (unless it stands on it): a bad character on
     * the way is part of this mistake, not another one (bl@ock 32;). */
    if (tok != YYSYMBOL_YYEOF && tok != YYTRANSLATE(';'))
        tn_lex_recovering(scanner);
    e.found = token_code(tok);
    e.begin = yypcontext_location(pctx)->begin;
    e.end = yypcontext_location(pctx)->end;
    syntax_report(ctx, &e);
    return 0;
}
