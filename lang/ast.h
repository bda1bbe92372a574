/* ast.h - the syntax tree of a .tune spec, exactly as written.
 *
 * Ownership: every node, list and string is allocated in the arena of the parse that
 * made it (ast_spec.arena is not owned by the spec; the caller of lang_parse owns it).
 * The tree knows nothing of CUDA and nothing of meaning: names are unresolved and
 * types unknown; compiler/sema.c checks it and builds the model the later stages use.
 * Each node keeps its span for diagnostics. */
#ifndef CUTUNE_LANG_AST_H
#define CUTUNE_LANG_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "src.h"

/* Operators, shared by the parser and the evaluator. */
typedef enum ast_op {
    OP_ADD,
    OP_SUB,
    OP_MUL,
    OP_DIV,
    OP_FLOORDIV,
    OP_MOD,
    OP_POW,
    OP_SHL,
    OP_SHR,
    OP_BITAND,
    OP_BITOR,
    OP_BITXOR,
    OP_LT,
    OP_LE,
    OP_GT,
    OP_GE,
    OP_EQ,
    OP_NE,
    OP_AND,
    OP_OR,
    OP_NOT,
    OP_NEG,
    OP_POS,
    OP_BITNOT
} ast_op;

/* ast_op_text: the operator as written ("+", "//", "&&", ...). */
const char *ast_op_text(ast_op op);

/* Element and scalar types of kernel arguments (also usable as template arguments). */
typedef enum ast_ctype {
    CT_HALF,
    CT_BF16,
    CT_FLOAT,
    CT_DOUBLE,
    CT_INT8,
    CT_UINT8,
    CT_INT16,
    CT_UINT16,
    CT_INT,
    CT_UINT,
    CT_INT64,
    CT_UINT64,
    /* CUDA's vector types: 2 or 4 lanes of a scalar type, aligned to their size */
    CT_FLOAT2,
    CT_FLOAT4,
    CT_DOUBLE2,
    CT_INT2,
    CT_INT4,
    CT_UINT2,
    CT_UINT4,
    CT_DOUBLE4, /* 32 bytes, aligned to 16 (CUDA 13 deprecates it for double4_16a/_32a) */
    CT_CHAR2,
    CT_CHAR4,
    CT_UCHAR2,
    CT_UCHAR4,
    CT_SHORT2,
    CT_SHORT4,
    CT_USHORT2,
    CT_USHORT4,
    CT_HALF2 /* __half2 (cuda_fp16.h) */
} ast_ctype;

/* ast_ctype_name: the spec's spelling ("float", "int64", "float4", ...); ast_ctype_cuda:
 * the CUDA spelling ("float", "long long", "__half", "float4", ...); ast_ctype_size: bytes
 * per element (a vector's: all its lanes, which is also its alignment, but double4's, 16);
 * is_float: a
 * floating-point type or a vector of one; ast_ctype_lanes: 1 for a scalar type, else the
 * vector's lanes; ast_ctype_component: a vector's lane type (a scalar type: itself). */
const char *ast_ctype_name(ast_ctype t);
const char *ast_ctype_cuda(ast_ctype t);
int ast_ctype_size(ast_ctype t);
bool ast_ctype_is_float(ast_ctype t);
int ast_ctype_lanes(ast_ctype t);
ast_ctype ast_ctype_component(ast_ctype t);

typedef enum ast_expr_kind {
    EX_INT,
    EX_FLOAT,
    EX_BOOL,
    EX_STRING,
    EX_NAME,
    EX_UNARY,
    EX_BINARY,
    EX_CHAIN, /* a < b <= c: comparisons chained as in mathematics */
    EX_COND,  /* c ? a : b */
    EX_CALL,  /* f(x, y) or f(key = value, ...) */
    EX_CTYPE, /* a C type written where a template argument is expected */
    EX_IN     /* x in [a, b, ...], x not in [...]: membership */
} ast_expr_kind;

typedef struct ast_expr ast_expr;

/* The deepest expression a spec may hold, in levels of nesting (each operator, call,
 * '?:' and pair of parentheses is one level). The parser refuses anything deeper, and
 * the checker applies the same bound to an expression together with the lets it reads,
 * so every walk over an expression (checking, folding, evaluating, printing as C) has a
 * bounded recursion. Real specs stay far below it; 1,000 levels of the deepest walk use
 * well under 8 MiB of stack, sanitizers included (test/cli/hostile_spec.sh). */
enum { AST_MAX_DEPTH = 1000 };

/* One argument of a call: positional (name == NULL) or named (key = value). */
typedef struct ast_arg {
    const char *name;
    span name_loc;
    ast_expr *value;
} ast_arg;

typedef struct ast_expr_list {
    ast_expr **items;
    int len, cap;
} ast_expr_list;

typedef struct ast_arg_list {
    ast_arg *items;
    int len, cap;
} ast_arg_list;

struct ast_expr {
    ast_expr_kind kind;
    span loc;
    bool parenthesized;
    int depth; /* nesting levels, this node included (parentheses count): 1 for a leaf */
    union {
        int64_t ival;
        double fval; /* a duration literal (10s, 500ms) is a float in seconds */
        bool bval;
        const char *sval;
        ast_ctype ctype;
        const char *name;
        struct {
            ast_op op;
            ast_expr *operand;
        } unary;
        struct {
            ast_op op;
            ast_expr *lhs, *rhs;
        } binary;
        struct {
            ast_expr_list operands; /* n operands */
            ast_op *ops;            /* n-1 comparison operators */
        } chain;
        struct {
            ast_expr *cond, *then, *otherwise;
        } cond;
        struct {
            const char *name;
            span name_loc;
            ast_arg_list args;
        } call;
        struct {
            ast_expr *item;       /* the value looked for */
            ast_expr_list values; /* the list's values, in order */
            bool negated;         /* not in */
            span op_loc;          /* `in` or `not in` */
            span list_loc;        /* the [...] */
        } in;
    } u;
};

/* Where a param's value goes in the variant. */
typedef enum ast_route_kind {
    ROUTE_DEFINE,       /* -DNAME=value (the default) */
    ROUTE_TEMPLATE,     /* a template argument of the kernel */
    ROUTE_OPTION,       /* a compile option: the value itself, or a format with {} */
    ROUTE_MAXRREGCOUNT, /* -maxrregcount=value; 0 means no cap */
    ROUTE_SMEM,         /* the launch's dynamic shared memory bytes */
    ROUTE_NONE          /* used only inside the spec (geometry, constraints) */
} ast_route_kind;

typedef struct ast_route {
    ast_route_kind kind;
    bool explicit_route;
    span loc;
    const char *text; /* ROUTE_DEFINE: macro name (NULL = the param's name);
                           ROUTE_OPTION: format string (NULL = the value itself) */
    span text_loc;
} ast_route;

typedef enum ast_domain_kind { DOM_LIST, DOM_RANGE } ast_domain_kind;

typedef struct ast_domain {
    ast_domain_kind kind;
    span loc;
    ast_expr_list values;     /* DOM_LIST */
    ast_expr *lo, *hi, *step; /* DOM_RANGE; step NULL = 1 */
    bool geometric;           /* step *k */
} ast_domain;

/* DIR_CONSTANT: the module's __constant__ symbol of the arg's name, filled from its
 * initial contents before the variant runs; not a kernel parameter. */
typedef enum ast_dir { DIR_NONE, DIR_IN, DIR_OUT, DIR_INOUT, DIR_CONSTANT } ast_dir;

typedef enum ast_item_kind {
    IT_INCLUDE,
    IT_OPTIONS,
    IT_PARAM,
    IT_LET,
    IT_REQUIRE,
    IT_BLOCK,
    IT_GRID,
    IT_SMEM,
    IT_ARG,
    IT_VERIFY,
    IT_METRIC,
    IT_OBJECTIVE,
    IT_SEARCH,
    IT_MEASURE,
    IT_EMIT,
    IT_SIZE,  /* size n in [...]; size (nx, ny) in [(..., ...), ...] (problem sizes) */
    IT_RESET, /* reset NAME, ... [= contents]; or reset kernel ... block ... grid ...; */
    IT_COMPAT /* compat kernel_tuner; (another tool's conventions, opted in) */
} ast_item_kind;

typedef struct ast_name {
    const char *name;
    span loc;
} ast_name;

typedef struct ast_name_list {
    ast_name *items;
    int len, cap;
} ast_name_list;

/* The thing outputs are verified against. */
typedef struct ast_reference {
    bool is_kernel;
    span loc;
    ast_arg_list config; /* against config(p = v, ...) */
    /* against kernel NAME<targs> [from "file"] block (...) grid (...) */
    ast_name kernel;
    ast_expr_list targs;
    bool has_targs;
    const char *file;
    span file_loc;
    ast_expr_list block, grid;
    span block_loc, grid_loc;
} ast_reference;

/* One problem size of a `size` statement: a value per size variable, as written. */
typedef struct ast_size_tuple {
    ast_expr_list values;
    span loc;
} ast_size_tuple;

typedef struct ast_size_list {
    ast_size_tuple *items;
    int len, cap;
} ast_size_list;

typedef struct ast_item {
    ast_item_kind kind;
    span loc;    /* the whole statement */
    span kw_loc; /* its keyword */
    union {
        ast_expr_list strings; /* IT_INCLUDE, IT_OPTIONS */
        struct {
            ast_name name;
            ast_domain domain;
            ast_route route;
            ast_expr *deflt;
        } param;
        struct {
            ast_name name;
            ast_expr *value;
            bool as_define;  /* let only: `let x = ... as define [MACRO]` */
            ast_name define; /* the macro's name as written (name NULL: the let's own) */
            span define_loc; /* the `define` keyword */
        } let;               /* also IT_METRIC */
        ast_expr *expr;      /* IT_REQUIRE, IT_SMEM */
        ast_expr_list dims;  /* IT_BLOCK, IT_GRID */
        struct {
            ast_name name;
            ast_dir dir;
            span dir_loc;
            ast_ctype type;
            span type_loc;
            ast_expr *count; /* NULL for a scalar */
            ast_expr *init;  /* NULL when not given */
        } arg;
        struct {
            ast_name_list outputs;
            ast_reference against;
            ast_expr *atol, *rtol;
            /* the other clauses: `l2 T`, `ulp N`, `tol S` (name, value), and a
             * checker kernel (`check kernel NAME<...> [from "F"]`; NULL when absent). */
            ast_arg_list checks;
            ast_reference *checker;
            span checker_word_loc;
        } verify;
        ast_name compat;           /* IT_COMPAT: whose conventions */
        struct {                   /* IT_RESET */
            ast_name_list targets; /* reset a, b [= value]; (empty for a kernel) */
            ast_expr *value;       /* NULL: each target's own initial contents */
            ast_reference kernel;  /* is_kernel: reset kernel NAME ... block ... grid ... */
        } reset;
        struct {
            bool maximize;
            span dir_loc;
            ast_expr *value;
        } objective;
        ast_expr *search;      /* a name or a call: exhaustive, random(budget = 200); a call
                                    without a name: search(budget = 200); NULL: search; */
        ast_arg_list settings; /* IT_MEASURE */
        struct {
            ast_name what; /* header, results, csv */
            const char *path;
            span path_loc;
            ast_name prefix; /* name NULL when absent */
        } emit;
        struct {
            ast_name_list names; /* the size variables (lets), in order */
            bool tuple;          /* written (a, b): each size is a tuple */
            ast_size_list sizes; /* the sizes, in order */
            span list_loc;       /* the [...] */
        } size;                  /* IT_SIZE */
    } u;
} ast_item;

typedef struct ast_spec {
    const src_file *src;
    bool has_kernel;
    ast_name kernel;     /* kernel NAME */
    ast_expr_list targs; /* <...> after the name */
    bool has_targs;
    span targs_loc;
    ast_name block;   /* kernel NAME<...> as BLOCK: the block's own name (name NULL: none) */
    const char *file; /* from "file.cu" */
    span file_loc;
    span kernel_loc; /* `kernel NAME<...> from "..."` */
    ast_item **items;
    int len, cap;
    struct ast_spec *next; /* the file's next kernel block (NULL: none): a spec file may hold
                                   several, each a spec of its own sharing the source */
} ast_spec;

#endif
