/* model.h - a checked spec: what compiler/sema.c builds from the syntax tree.
 *
 * Names are resolved, types known, constants folded, paths resolved, defaults filled
 * in. Everything later stages need is here and nothing of the syntax is (spans are
 * kept for messages). Ownership: every part lives in the arena given to sema_check(),
 * together with the source and the syntax tree it was made from. */
#ifndef CUTUNE_COMPILER_MODEL_H
#define CUTUNE_COMPILER_MODEL_H

#include "../lang/ast.h"
#include "../lang/diag.h"
#include "devattrs.h"
#include "value.h"

enum { MODEL_MAX_PARAMS = 64 };
enum { MODEL_MAX_SIZE_VARS = 8 }; /* variables of the size statement */

/* A set of params, by index (deps of an expression). */
typedef uint64_t param_set;

/* ---- typed expressions --------------------------------------------------------- */

typedef enum texpr_kind {
    TX_CONST,
    TX_PARAM,
    TX_LET,
    TX_TIME,
    TX_METRIC,
    TX_UNARY,
    TX_BINARY,
    TX_CHAIN,
    TX_COND,
    TX_CALL,
    TX_CTYPE,
    TX_SLOT /* a value computed ahead and held in eval_env.slots (compiler/space.c hoisting) */
} texpr_kind;

/* What a TX_TIME node reads (energy is measured too). */
enum { MQ_TIME, MQ_ENERGY_J, MQ_POWER_W };

typedef enum builtin_fn {
    FN_MIN,
    FN_MAX,
    FN_CDIV,
    FN_CEIL,
    FN_FLOOR,
    FN_ROUND,
    FN_ABS,
    FN_POW,
    FN_LOG2,
    FN_SQRT,
    FN_INT,
    FN_FLOAT,
    FN_IS_POW2
} builtin_fn;

typedef struct texpr texpr;
struct texpr {
    texpr_kind kind;
    vtype type;
    span loc;
    param_set deps; /* params this expression reads, through lets too */
    int depth;      /* nesting levels, through the lets and metrics it reads
                                (at most AST_MAX_DEPTH: sema refuses deeper) */
    bool uses_time; /* reads a measured quantity (directly or through a metric) */
    int measured;   /* TX_TIME: which quantity: MQ_TIME, MQ_ENERGY_J, MQ_POWER_W */
    /* What compiler/cexpr.c needs to write an expression as it was written, recorded by
     * the checker. TX_CONST: folded_from is the node folded into it (its parts folded
     * in turn; NULL: a literal or a let's value), from_let the let whose value it is,
     * read by name (NULL: none). reads_let: some constant part reads a let by name, here
     * or in the expression of a derived let that this one reads. */
    const texpr *folded_from;
    const struct m_let *from_let;
    bool reads_let;
    union {
        value k;           /* TX_CONST */
        int index;         /* TX_PARAM, TX_LET, TX_METRIC, TX_SLOT */
        double time_scale; /* TX_TIME: seconds -> the unit asked for */
        ast_ctype ctype;   /* TX_CTYPE */
        struct {
            ast_op op;
            texpr *a, *b;
        } op; /* TX_UNARY (b NULL), TX_BINARY */
        struct {
            int n;
            texpr **operands;
            ast_op *ops;
        } chain;
        struct {
            texpr *cond, *then, *otherwise;
        } cond;
        struct {
            builtin_fn fn;
            int n;
            texpr **args;
        } call;
    } u;
};

/* ---- params ------------------------------------------------------------------- */

typedef enum domain_kind { DK_LIST, DK_ARITH, DK_GEOM } domain_kind;

/* The values a param takes, in order. Ranges are not materialised. */
typedef struct domain {
    domain_kind kind;
    vtype type;
    uint64_t size;
    value *values;       /* DK_LIST */
    int64_t first, step; /* DK_ARITH: first + i*step; DK_GEOM: first * step^i */
} domain;

/* model_domain_at: the i-th value (i < size). */
value model_domain_at(const domain *d, uint64_t i);

/* model_domain_find: the index of `v` in the domain, or -1 when it is not one of its values. */
int64_t model_domain_find(const domain *d, value v);

typedef struct m_param {
    const char *name;
    span loc;
    domain dom;
    ast_route_kind route;
    const char *macro;      /* ROUTE_DEFINE: the macro name */
    const char *option_fmt; /* ROUTE_OPTION: format with {} (NULL: the value is the option) */
    bool option_switch;     /* ROUTE_OPTION of bool values with a format without {}: the
                                option is given when the value is true, nothing when false */
    bool has_default;
    uint64_t default_index;
} m_param;

typedef struct m_let {
    const char *name;
    span loc;
    texpr *expr; /* folded to TX_CONST when it depends on no param */
    vtype type;
    bool overridden;   /* set from outside (e.g. --set nx=4096) */
    const char *macro; /* `as define`: passed to every variant as -DMACRO=value (NULL: not) */
    span macro_loc;    /* the macro's name, or the `define` keyword when it is the let's */
    int size_var;      /* -1, or its position among the size statement's variables */
} m_let;

typedef struct m_require {
    texpr *expr;
    span loc;
    bool pin; /* not the spec's: a restriction to given configurations (compiler/pin.h) */
} m_require;

/* ---- arguments ---------------------------------------------------------------- */

typedef enum init_kind {
    INIT_NONE,
    INIT_ZEROS,
    INIT_CONSTANT,
    INIT_RANDOM,
    INIT_RAMP,
    INIT_SCALAR,
    INIT_FILE,  /* file("a.npy") */
    INIT_NORMAL /* normal(seed, mean, stddev): lo is the mean, hi the standard deviation */
} init_kind;

typedef struct m_arg {
    const char *name;
    span loc;
    bool is_buffer;
    ast_dir dir; /* buffers only */
    ast_ctype type;
    texpr *count; /* buffers: element count (int) */
    init_kind init;
    texpr *value;  /* INIT_SCALAR: the value; INIT_CONSTANT: the fill value */
    uint64_t seed; /* INIT_RANDOM */
    double lo, hi; /* INIT_RANDOM range; INIT_RAMP start (lo) and step (hi) */
    /* INIT_FILE: the resolved path, whether it is .npy (else raw), and where
     * its data starts (.npy: after the header; checked again when the worker reads it). */
    const char *file;
    span file_loc;
    bool file_npy;
} m_arg;

/* ---- verification, objective, search, measurement, outputs --------------------- */

/* A kernel of the spec's own that is not the tuned one (verify's reference kernel, a
 * checker kernel, a reset kernel): its name, template arguments, file and geometry. */
typedef struct m_kernel_ref {
    const char *name;
    texpr **targs;
    int ntargs;
    bool has_targs;
    const char *file; /* resolved path (the spec's kernel file when not given) */
    texpr *block[3], *grid[3];
    int block_dims, grid_dims; /* 0: no geometry given (a checker kernel: cutune's own) */
} m_kernel_ref;

typedef struct m_verify {
    bool present;
    span loc;
    int *outputs; /* arg indices */
    int noutputs;
    bool against_kernel;
    span ref_loc;
    bool config_ok;   /* every param of the reference config was resolved */
    uint64_t *config; /* against config: a domain index per param */
    m_kernel_ref ref; /* against a kernel */
    double atol, rtol;
    /* the checker (compiler/sema_data.c). CHECK_ELEMENTWISE is atol/rtol above;
     * CHECK_L2: ||out - ref||2 / ||ref||2 <= check_tol; CHECK_ULP: the largest distance in
     * units in the last place <= check_tol; CHECK_KERNEL: the user's kernel's score <=
     * check_tol (docs/language.md, section 14). */
    int check; /* a check_kind */
    double check_tol;
    span check_loc;
    m_kernel_ref checker; /* CHECK_KERNEL (no geometry) */
} m_verify;

/* ---- launch hooks and checkers (compiler/sema_data.c) ----------------- */

typedef enum check_kind { CHECK_ELEMENTWISE, CHECK_L2, CHECK_ULP, CHECK_KERNEL } check_kind;

typedef enum reset_kind { RESET_ZEROS, RESET_CONSTANT, RESET_INPUT, RESET_KERNEL } reset_kind;

/* One reset, run before every launch of a variant (and of the reference), in the order
 * written: a buffer set to zeros, to a constant or back to its initial contents, or a
 * kernel of the user's launched with the same arguments. */
typedef struct m_reset {
    reset_kind kind;
    span loc;
    int arg;             /* the buffer (not RESET_KERNEL) */
    double constant;     /* RESET_CONSTANT (exact for integers up to 2^53) */
    m_kernel_ref kernel; /* RESET_KERNEL */
} m_reset;

typedef struct m_metric {
    const char *name;
    span loc;
    texpr *expr;
} m_metric;

typedef enum strategy {
    STRAT_EXHAUSTIVE,
    STRAT_RANDOM,
    STRAT_ANNEAL,
    STRAT_GENETIC,
    STRAT_LOCAL,
    STRAT_GUIDED,
    STRAT_AUTO
} strategy;

#define STRATEGY_COUNT 7

/* model_strategy_name: the strategy's name as specs, options and results spell it. The one
 * table of strategy names (compiler/model.c); everything else converts through it. */
const char *model_strategy_name(strategy s);

/* model_strategy_from_name: sets `*out` to the strategy spelled `name`; false (and `*out`
 * untouched) when no strategy has that name. */
bool model_strategy_from_name(const char *name, strategy *out);

/* model_strategy_names: the names, in enum order, NULL-terminated. */
const char *const *model_strategy_names(void);

typedef struct m_search {
    strategy strategy;
    span loc;
    int64_t budget;      /* max evaluations; 0 = no limit */
    double time_limit_s; /* 0 = no limit */
    int64_t patience;    /* stop after this many evaluations without improvement; 0 = never */
    uint64_t seed;
    /* strategy-specific knobs (0 = the strategy's default) */
    double temperature, cooling;
    int64_t population, restarts;
    double mutation;
} m_search;

typedef struct m_measure {
    int64_t warmup;
    int64_t repeat; /* minimum timed repetitions */
    int64_t max_repeat;
    double spread; /* stop repeating once (max-min)/median of the best runs is below this */
    bool flush_l2;
    double timeout_s;       /* per-variant limit; 0 = derived from the reference's time */
    bool energy;            /* energy per launch of every variant timed in full (NVML) */
    double energy_window_s; /* the window of launches the energy is read over */
} m_measure;

typedef struct m_emit {
    const char *header_path, *header_prefix;
    const char *results_path;
    const char *csv_path;
    span header_loc, results_loc, csv_loc;
    span header_prefix_loc; /* where the prefix is written; the kernel's name when it is the default */
    bool header_leaves, results_leaves, csv_leaves; /* the path leaves the spec's folder (rules_path_leaves) */
} m_emit;

/* ---- problem sizes (the `size` statement; docs/language.md) ---------------------- */

/* The sizes a spec is tuned over: each size gives every size variable (a let) a value;
 * the model's lets hold one of them (`selected`), and tuning runs once per size. */
typedef struct m_sizes {
    int nvars;       /* 0: no size statement (one size: the lets as written) */
    int *lets;       /* each size variable's let index, in the statement's order */
    int count;       /* how many sizes (after --set picked some) */
    int64_t *values; /* count * nvars, size-major: positive ints */
    span *locs;      /* where each size is written (its --set when set from outside) */
    int selected;    /* the size the lets hold: 0 .. count - 1 */
    span loc;        /* the statement's keyword */
} m_sizes;

/* ---- the model ---------------------------------------------------------------- */

typedef struct model {
    arena *arena;
    const src_file *src;

    const char *kernel; /* the __global__ function's name */
    span kernel_loc;
    /* The block's name (`kernel NAME as BLOCK`): what --kernel selects and the header
     * prefix defaults to; the kernel's name when the block has none of its own. */
    const char *block_name;
    span block_name_loc; /* the name after `as`, else the kernel's name */
    texpr **targs;       /* template arguments, NULL when not a template */
    int ntargs;
    bool has_targs;
    const char *kernel_file; /* resolved path */
    const char **includes;   /* resolved directories */
    int nincludes;
    const char **options; /* base compile options */
    int noptions;

    m_param *params;
    int nparams;
    m_let *lets;
    int nlets;
    m_require *requires;
    int nrequires;
    bool pinned; /* restricted to given configurations (compiler/pin.h): the last requires */

    texpr *block[3], *grid[3];
    int block_dims, grid_dims;
    texpr *smem; /* NULL: no dynamic shared memory */

    m_arg *args;
    int nargs;
    m_verify verify;
    m_metric *metrics;
    int nmetrics;
    bool maximize;
    texpr *objective; /* NULL: minimise time */
    const char *objective_name;
    m_search search;
    m_measure measure;
    m_emit emit;
    /* The device attributes (compiler/devattrs.h): the values this model was checked with
     * (folded into its expressions as constants) and which of them it reads (a bit per
     * dev_attr; 0: the model does not depend on the device). */
    dev_values device;
    uint32_t device_used;
    bool energy_used;      /* a metric or the objective reads energy_J or power_W */
    bool objective_energy; /* the objective does (directly or through a metric) */
    m_sizes sizes;         /* problem sizes; sizes.nvars 0 when the spec has none */
    m_reset *resets;       /* in the order written */
    int nresets;
    /* `compat kernel_tuner;` (compiler/sema_compat.c): the macros every variant gets,
     * block_size_x/y/z and grid_size_x/y/z with its launch's dimensions, each NULL when
     * not asked for or when a param or let defines that macro itself */
    const char *compat_macros[6];
} model;

/* model_chain_of_two: fills `chain` (a TX_CHAIN node) as the comparison `a op b`: its
 * operands and operator go to `operands` (room for 2) and `ops` (room for 1), its deps
 * and its use of the time are both operands'. */
void model_chain_of_two(texpr *chain, texpr **operands, ast_op *ops, texpr *a, ast_op op, texpr *b);

/* model_reads_energy: whether `e` reads the energy per launch or the power
 * (energy_J, power_W, ...), directly or through a metric of model m. */
bool model_reads_energy(const model *m, const texpr *e);

#endif
