/* sema_internal.h - what the checker's files (compiler/sema*.c) share; private to them.
 *
 * The checker is one pass over a syntax tree, cut into files along its seams:
 *   sema.c        the driver: names collected, the order of the passes, sema_check()
 *   sema_expr.c   expressions: names resolved, types checked, constants folded
 *   sema_let.c    lets and metrics, lowered on demand with cycle detection; --set
 *   sema_param.c  param domains, routes and defaults
 *   sema_arg.c    args: types, directions, counts, values and initial contents
 *   sema_verify.c verify: outputs, tolerances, the reference configuration or kernel
 *   sema_stmt.c   the other statements (search, measure, emit), paths, named settings
 * Ownership: everything a function makes lives in the arena s->a (the model's); the
 * `sema` context lives on sema_check()'s stack for one check. */
#ifndef CUTUNE_COMPILER_SEMA_INTERNAL_H
#define CUTUNE_COMPILER_SEMA_INTERNAL_H

#include "sema.h"

/* ---- symbols ------------------------------------------------------------------ */

typedef enum sym_kind { SYM_PARAM, SYM_LET, SYM_METRIC, SYM_TIME, SYM_DEVICE /* index: a dev_attr */ } sym_kind;

typedef struct sym {
    const char *name;
    span loc;
    sym_kind kind;
    int index;         /* into the model's params / lets / metrics */
    double time_scale; /* SYM_TIME: seconds -> this unit */
} sym;

enum { ST_TODO, ST_BUSY, ST_DONE };

enum {
    CAP_PARAMS,
    CAP_LETS,
    CAP_REQUIRES,
    CAP_ARGS,
    CAP_METRICS,
    CAP_INCLUDES,
    CAP_OPTIONS,
    CAP_SIZES,
    CAP_RESETS,
    CAP_COUNT
};

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
    int *let_stack; /* the lets being settled, innermost last (to name a cycle) */
    int let_depth;
    int depth;                /* lower_node calls in progress (bounded by AST_MAX_DEPTH) */
    const char *const_reason; /* why a value must be constant here (NULL: the general reason) */
    param_set used;           /* params some expression reads */
    int errors_before;        /* errors in the list before the check began */
    bool oom;
    int caps[CAP_COUNT];       /* capacities of the model's vectors */
    const ast_item *size_item; /* the size statement settled (sema_size.c); NULL before */
    bool sizes_done;
} sema;

/* What an expression may refer to where it is written. */
enum {
    CX_PARAMS = 1, /* params, and lets that depend on them */
    CX_TIME = 2,   /* the measured time and metrics */
    CX_CTYPE = 4   /* a C type name (template arguments) */
};

/* The names init values are spelt with (random, constant, ramp, zeros, file, normal), in that order. */
enum { SEMA_NINIT_NAMES = 6 };        /* file, normal */
enum { SEMA_CONSTANT_BYTES = 65536 }; /* the constant memory a module may declare */
extern const char *const sema_init_names[SEMA_NINIT_NAMES];

/* is_num: whether t is a number (an int or a float). */
static inline bool is_num(vtype t)
{
    return t == VT_INT || t == VT_FLOAT;
}

/* a_or_an: "an int", "a float", "a bool" or "a string", for messages. */
static inline const char *a_or_an(vtype t)
{
    return t == VT_INT ? "an int" : t == VT_FLOAT ? "a float" : t == VT_BOOL ? "a bool" : "a string";
}

/* ---- sema.c: memory and names --------------------------------------------------- */

/* sema_alloc: n bytes from the arena, or NULL with s->oom set. */
void *sema_alloc(sema *s, size_t n);

/* sema_find_sym: the declared name `name` (params, lets, metrics, the time names), or
 * NULL. */
const sym *sema_find_sym(const sema *s, const char *name);

/* sema_declare: declares `name` (a symbol of `kind` at `index`), reporting a clash with
 * an earlier declaration (sema.c). */
void sema_declare(sema *s, const char *name, span loc, sym_kind kind, int index);

/* ---- sema_expr.c: expressions ------------------------------------------------------ */

/* sema_node: a new node of `kind` and `type` at `loc` (depth 1, no deps), or NULL out
 * of memory. */
texpr *sema_node(sema *s, texpr_kind kind, vtype type, span loc);

/* sema_error_node: a VT_ERROR node, which silences errors about what contains it. */
texpr *sema_error_node(sema *s, span loc);

/* sema_const_node: a TX_CONST node holding v. */
texpr *sema_const_node(sema *s, value v, span loc);

/* sema_lower: the typed, resolved, folded form of a whole expression `e`; never NULL
 * unless out of memory. `allow` says what may be referred to (CX_*). Errors are
 * reported, and give an error node. */
texpr *sema_lower(sema *s, const ast_expr *e, unsigned allow);

/* sema_lower_node: the typed form of `e`, a part of the expression being lowered (no
 * check for a certain evaluation error: sema_lower makes it for the whole); the depth
 * bound applies. NULL only out of memory. */
texpr *sema_lower_node(sema *s, const ast_expr *e, unsigned allow);

/* sema_unary_node: a new node `op a` of type `type` at loc, its deps and time use a's
 * (not folded yet: the caller folds or finishes it); NULL out of memory. */
texpr *sema_unary_node(sema *s, ast_op op, vtype type, texpr *a, span loc);

/* sema_finish_node: a node built of lowered parts (its deps and uses_time set) given its
 * depth and reads_let, and folded into a constant when it reads nothing. */
texpr *sema_finish_node(sema *s, texpr *t);

/* sema_lower_in (sema_member.c): `x in [a, b, ...]` (EX_IN) lowered into the comparisons
 * it means, x == a || x == b || ... (negated for `not in`), after checking that x can be
 * compared with each value; an error node after reporting why not. */
texpr *sema_lower_in(sema *s, const ast_expr *e, unsigned allow);

/* sema_lower_as: lowers `e` and checks its type is `want` (an int is accepted where a
 * float is wanted). Reports "<what> must be <want>, but it is <got>" and gives an error
 * node when it is not. */
texpr *sema_lower_as(sema *s, const ast_expr *e, unsigned allow, vtype want, const char *what);

/* sema_lower_const: sets *out to the constant `e` of type `want` (an int converted where
 * a float is wanted); false after reporting why it is not one. */
bool sema_lower_const(sema *s, const ast_expr *e, vtype want, const char *what, value *out);

/* sema_divides: whether `e` divides with '/', itself or through the lets it names (up
 * to a few levels; call with depth 0), for the hint on a float where an int is wanted. */
bool sema_divides(const sema *s, const ast_expr *e, int depth);

/* ---- sema_let.c: lets and metrics, on demand ------------------------------------- */

/* sema_settle_let: let `index` lowered (once; later calls give the same tree) with any
 * --set override applied; a cycle is reported at `use` and gives an error node. NULL
 * only out of memory. */
texpr *sema_settle_let(sema *s, int index, span use);

/* sema_settle_metric: metric `index` lowered (once), checked to be a number; a cycle is
 * reported at `use`. NULL only out of memory. */
texpr *sema_settle_metric(sema *s, int index, span use);

/* sema_parse_override: a --set value's text read as the spec reads literals (an int, a
 * float, true/false, else a string); false when the text is not UTF-8. */
bool sema_parse_override(sema *s, const char *text, value *out);

/* ---- sema_size.c: problem sizes (the `size` statement) ------------------------------ */

/* sema_collect_size: declares the variables of size statement `it` as lets (collect). */
void sema_collect_size(sema *s, const ast_item *it);

/* sema_settle_size: the sizes checked (once) and the size variables' lets set to the
 * selected size (s->opts->size_index; --set picks among them); the let `index` of a
 * size variable settled (a size that reads one is reported at `use`). NULL only out of
 * memory. */
texpr *sema_settle_size(sema *s, int index, span use);

/* sema_check_size: the statement `it` in check_items: one size statement at most, and
 * its sizes settled. */
void sema_check_size(sema *s, const ast_item *it);

/* ---- sema_param.c: params ---------------------------------------------------------- */

/* sema_settle_param: settles param `index`'s domain (once); 0, or -1 when it is broken
 * (reported, and the domain's type is VT_ERROR). */
int sema_settle_param(sema *s, int index);

/* sema_check_param_route: checks param `index`'s route and settles its default (after
 * sema_settle_param). */
void sema_check_param_route(sema *s, int index);

/* ---- sema_stmt.c: statements ------------------------------------------------------- */

/* sema_resolve_path: `rel` resolved against the spec's folder (absolute paths kept), in
 * the arena; NULL out of memory. */
const char *sema_resolve_path(sema *s, const char *rel);

/* sema_check_file: reports when `path` is missing or is not a folder (want_dir) or not a
 * regular file; nothing when the options skip file checks. */
void sema_check_file(sema *s, const char *path, span loc, bool want_dir, const char *what);

/* sema_once: true for the first statement of its kind (*first set to it); false after
 * reporting a second one. */
bool sema_once(sema *s, const ast_item **first, const ast_item *it, const char *what);

/* sema_lower_dims: lowers a block or grid's dimensions into out[0..3) as positive ints;
 * returns how many there are (0 after reporting more than 3). */
int sema_lower_dims(sema *s, const ast_expr_list *dims, span loc, unsigned allow, texpr **out, const char *what);

/* sema_match_settings: named settings such as random(seed = 1) or search anneal(budget
 * = 300): each key must be one of `keys` (with a hint otherwise, naming `owner`) and appear
 * once; found[k] is the setting given for keys[k], NULL when absent. */
void sema_match_settings(sema *s, const ast_arg_list *args, const char *const *keys, int nkeys, const ast_arg **found,
                         const char *owner);

/* sema_setting_int: *out set to setting `a`, a constant int of at least `min`; false when
 * `a` is NULL (not given) or after reporting why it is not one. */
bool sema_setting_int(sema *s, const ast_arg *a, int64_t min, int64_t *out);

/* sema_setting_float: *out set to setting `a`, a constant number at least `min` (above it
 * when `strict`); false when `a` is NULL or after reporting. */
bool sema_setting_float(sema *s, const ast_arg *a, double min, bool strict, double *out);

/* sema_lower_kernel_ref: a kernel of the spec's own (`what`: "reference
 * kernel", "reset kernel", "checker kernel") into *out: its file resolved and checked,
 * its template arguments and geometry (when the reference gives one) lowered. */
void sema_lower_kernel_ref(sema *s, const ast_reference *ref, const char *what, bool geometry, m_kernel_ref *out);

/* sema_check_search: checks the search statement `it` into s->m->search. */
void sema_check_search(sema *s, const ast_item *it);

/* sema_check_measure: checks the measure statement `it` into s->m->measure. */
void sema_check_measure(sema *s, const ast_item *it);

/* sema_check_emit: checks the emit statement `it` into s->m->emit; seen[3] holds the
 * first emit of each kind, to report repeats. */
void sema_check_emit(sema *s, const ast_item *it, const ast_item **seen);

/* ---- sema_arg.c: arguments ---------------------------------------------------------- */

/* sema_int_fits: whether the integer v fits the integer C type `type` (int8 300 would be
 * silently wrapped on the device); when not, reports "does not fit" with the type's range
 * at loc. Always true for a floating type. */
bool sema_int_fits(sema *s, int64_t v, ast_ctype type, span loc);

/* sema_check_arg: checks the arg statement `it` into *arg. */
void sema_check_arg(sema *s, const ast_item *it, m_arg *arg);

/* sema_find_arg: the index of the model's argument `name`, or -1. */
int sema_find_arg(const model *m, const char *name);

/* sema_arg_named: the index of the argument `n` names, or -1 after an
 * error at it: "did you mean" the closest argument, else `why` in parentheses. */
int sema_arg_named(sema *s, const ast_name *n, const char *why);

/* ---- sema_verify.c: verify --------------------------------------------------------- */

/* sema_check_verify: checks the verify statement `it` into s->m->verify (after the args). */
void sema_check_verify(sema *s, const ast_item *it);

/* sema_check_reference: checks the verify reference configuration against every
 * constraint (once all are lowered). */
void sema_check_reference(sema *s);

/* ---- sema_compat.c: another tool's conventions ------------------------------------ */

/* sema_check_compat: `compat NAME;` (it, the first such statement), once the block and
 * grid are lowered: for kernel_tuner, the macros block_size_x/y/z and grid_size_x/y/z
 * (s->m->compat_macros) and the constraint block_x * block_y * block_z <= 1024. */
void sema_check_compat(sema *s, const ast_item *it);

/* ---- sema_data.c: data and checks (files, integer random(), reset, checkers) -------------- */

/* sema_check_data_init: after sema_check_arg: an integer random()'s range (whole numbers
 * from ceil(min) to floor(max) must exist and fit the type), and file("PATH") contents
 * (arg->init set to INIT_FILE; the file's type and element count checked). */
void sema_check_data_init(sema *s, const ast_expr *init, m_arg *arg);

/* sema_check_reset: checks the reset statement `it` into s->m->resets (after the args). */
void sema_check_reset(sema *s, const ast_item *it);

/* sema_check_checker: checks verify's checker clauses (atol/rtol, l2, ulp, check kernel,
 * tol) into s->m->verify (after its outputs). */
void sema_check_checker(sema *s, const ast_item *it);

#endif
