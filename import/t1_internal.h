/* t1_internal.h - what the files of the T1 importer share (t1.h says which does what).
 *
 * Ownership: everything a translation makes (paths, syntax trees, values, translated
 * text, messages until they are handed to the t1_result) lives in the context's arena,
 * freed at once when the translation ends. */
#ifndef CUTUNE_IMPORT_T1_INTERNAL_H
#define CUTUNE_IMPORT_T1_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "../base/arena.h"
#include "../base/strbuf.h"

/* ---- t1_json.c: the context, JSON paths, checked member access ---------------------- */

typedef struct t1_ctx {
    arena *a;
    const char *file; /* how messages name the T1 file */
    char **errors;
    int nerrors, caperrors;
    char **notes;
    int nnotes, capnotes;
    bool oom; /* an allocation failed: the translation stops with CUTUNE_ENOMEM */
} t1_ctx;

/* t1_error / t1_note: records "FILE: PATH: message" as an error (the file is refused)
 * or a note (the spec is written; the note says what was left out or changed). */
void t1_error(t1_ctx *c, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void t1_note(t1_ctx *c, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* t1_key / t1_index: the JSON path of member `key` / element `i` of the value at
 * `path` ("$.A.B", "$.A[3]"; a key that is no identifier as ['key']), in the arena. */
const char *t1_key(t1_ctx *c, const char *path, const char *key);
const char *t1_index(t1_ctx *c, const char *path, size_t i);

/* t1_type_name: "an object", "a string", "an integer", ... for messages. */
const char *t1_type_name(const json_t *v);

/* t1_member: the member `key` of the object `obj` (at `path`), or NULL when absent (a
 * JSON null counts as absent); a missing required member is an error. */
json_t *t1_member(t1_ctx *c, json_t *obj, const char *path, const char *key, bool required);

/* t1_want: whether `v` (at `path`) is of one of the JSON types in `mask` (bits
 * 1 << JSON_OBJECT, ...); when not, an error "is TYPE, expected WHAT". */
bool t1_want(t1_ctx *c, const json_t *v, const char *path, unsigned mask, const char *what);
#define T1_OBJECT (1u << JSON_OBJECT)
#define T1_ARRAY (1u << JSON_ARRAY)
#define T1_STRING (1u << JSON_STRING)
#define T1_INTEGER (1u << JSON_INTEGER)
#define T1_NUMBER ((1u << JSON_INTEGER) | (1u << JSON_REAL))
#define T1_BOOL ((1u << JSON_TRUE) | (1u << JSON_FALSE))

/* t1_string_member: the string member `key` of obj, or NULL (absent, or not a string:
 * an error). */
const char *t1_string_member(t1_ctx *c, json_t *obj, const char *path, const char *key, bool required);

/* t1_check_keys: notes each member of `obj` whose key is in neither `known` nor
 * `ignored` (NULL-ended lists) as not translated; a key in `ignored` is noted with
 * `why` (NULL: silently skipped). Returns nothing: unknown keys never refuse a file. */
void t1_check_keys(t1_ctx *c, json_t *obj, const char *path, const char *const *known, const char *const *ignored,
                   const char *why);

/* t1_relative: the file `to` (relative to the current folder, or absolute) as a path
 * relative to the folder `from` ("" for the current one). In the arena (NULL when out
 * of memory). */
const char *t1_relative(t1_ctx *c, const char *from, const char *to);

/* ---- t1_py.c: the Python expressions of T1 ------------------------------------------ */

enum t1_py_kind {
    PY_INT,      /* i */
    PY_FLOAT,    /* f */
    PY_BOOL,     /* i: 0 or 1 */
    PY_STR,      /* s */
    PY_NAME,     /* s */
    PY_LIST,     /* kids: the elements (a list or a tuple display) */
    PY_CALL,     /* s: the function's name; kids: the arguments */
    PY_UNARY,    /* op: '-', '+', '~' or PY_OP_NOT; kids[0] */
    PY_BIN,      /* op: '+', '-', '*', '/', '%', '&', '|', '^', PY_OP_FLOORDIV, PY_OP_POW, PY_OP_SHL, PY_OP_SHR */
    PY_BOOLOP,   /* op: PY_OP_AND or PY_OP_OR; kids[0], kids[1] */
    PY_CMP,      /* kids[0] ops[0] kids[1] ops[1] kids[2] ...: a chain of nkids - 1 comparisons */
    PY_IFEXP,    /* kids: body, condition, else (body if condition else else) */
    PY_COMP,     /* [kids[0] for s in kids[1] (if kids[2])]: nkids 2 or 3 */
    PY_SUBSCRIPT /* kids[0][kids[1]] */
};

enum t1_py_op {
    PY_OP_NOT = 256,
    PY_OP_FLOORDIV,
    PY_OP_POW,
    PY_OP_SHL,
    PY_OP_SHR,
    PY_OP_AND,
    PY_OP_OR,
    PY_OP_LT,
    PY_OP_LE,
    PY_OP_GT,
    PY_OP_GE,
    PY_OP_EQ,
    PY_OP_NE,
    PY_OP_IN,
    PY_OP_NOTIN,
    PY_OP_IS,
    PY_OP_ISNOT
};

typedef struct t1_py_node {
    enum t1_py_kind kind;
    int op;
    int *ops;   /* PY_CMP: nkids - 1 operators */
    size_t pos; /* byte offset in the expression's text */
    int64_t i;
    double f;
    const char *s;
    struct t1_py_node **kids;
    int nkids;
} t1_py_node;

/* An expression being read: its text, where it is in the T1 file, and the context. */
typedef struct t1_py_src {
    t1_ctx *c;
    const char *text;
    const char *path; /* its JSON path */
} t1_py_src;

/* t1_py_report: records an error at byte `pos` of the expression: "PATH: message (at
 * column N of "TEXT")". t1_py_error(src, pos, fmt, ...): the same, as an expression of
 * value -1 (a macro, so that the value is seen where it is returned: clang's analyzer
 * does not look into other files, and took an error's return for a success that left
 * its result unwritten). */
void t1_py_report(const t1_py_src *src, size_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
#define t1_py_error(...) (t1_py_report(__VA_ARGS__), -1)

/* t1_py_parse: the syntax tree of src's text (one expression, nothing after it). 0, or -1
 * after an error. */
int t1_py_parse(t1_py_node **out, const t1_py_src *src);

/* A value of an evaluated expression. */
enum t1_py_vkind { PV_INT, PV_FLOAT, PV_BOOL, PV_STR, PV_LIST };
typedef struct t1_py_val {
    enum t1_py_vkind kind;
    int64_t i; /* PV_INT, PV_BOOL */
    double f;
    const char *s;
    struct t1_py_val *items; /* PV_LIST */
    size_t n;
} t1_py_val;

/* The names an evaluation sees: a chain of bindings. */
typedef struct t1_py_env {
    const char *name;
    t1_py_val val;
    const struct t1_py_env *next;
} t1_py_env;

/* The most elements a list may hold (a param's values, a range). */
#define PY_MAX_LIST 1000000

/* t1_py_eval: the value of `n` with Python 3's meaning (ints exact, an overflow of 64 bits
 * refused; range, list, len, min, max, abs, int, float; list displays, comprehensions,
 * + and * of lists), names looked up in env. 0, or -1 after an error. */
int t1_py_eval(t1_py_val *out, const t1_py_node *n, const t1_py_env *env, const t1_py_src *src);

/* t1_py_unique: removes from the list *list each value equal to one before it (numbers
 * by value, 2 == 2.0; a NaN equals nothing), keeping the order of the rest: a spec lists
 * a value once. In O(n log n). Returns how many were removed; 0 with c->oom set when
 * memory runs out (the list unchanged). */
size_t t1_py_unique(t1_ctx *c, t1_py_val *list);

/* t1_py_truthy: Python's truth of a value. */
bool t1_py_truthy(const t1_py_val *v);

/* t1_py_text: the value as cutune writes it (ints in decimal, floats in their
 * shortest round-trip form with a '.' or an exponent, true/false, strings quoted and
 * escaped); NULL for a list, a float that is not finite or a string cutune cannot
 * hold (a control character). In the arena. */
const char *t1_py_text(t1_ctx *c, const t1_py_val *v);

/* ---- t1_tr.c: Python expressions in cutune's expression language --------------------- */

enum t1_type { TR_INT, TR_FLOAT, TR_BOOL, TR_STR };

/* A name an expression may read, as cutune spells it, and its type. */
typedef struct t1_name {
    const char *t1;   /* the name in the T1 file */
    const char *spec; /* the name in the spec */
    enum t1_type type;
} t1_name;

typedef struct t1_names {
    const t1_name *names;
    int n;
} t1_names;

/* t1_translate: the cutune expression for src's text, which must have type `want` (a
 * condition: TR_BOOL, where a number stands for its truth as in Python; a size or a
 * divisor: TR_INT), reading only `names`. Returns the text (in the arena), or NULL
 * after an error naming what is not translated and why. */
const char *t1_translate(const t1_py_src *src, const t1_names *names, enum t1_type want);

/* ---- t1.c, t1_space.c, t1_args.c, t1_settings.c: the sections of a T1 file --------- */

/* A tuning parameter as read. */
typedef struct t1_param {
    const char *name; /* the T1 name (the kernel's macro) */
    const char *spec; /* the spec's name: the T1 name, or it with '_' added when that is a
                           reserved or built-in word of cutune (`reserved`: then `as option
                           "-DNAME={}"`), or a name the best-config header cannot define
                           (then `as define NAME`) */
    bool reserved;    /* the T1 name is a word cutune reserves */
    const char *path; /* $.ConfigurationSpace.TuningParameters[i] */
    t1_py_val values; /* a list */
    enum t1_type type;
    bool has_default; /* Default given and one of the values */
    t1_py_val def;
} t1_param;

typedef struct t1_state {
    t1_ctx *c;
    json_t *root;
    const char *base_dir;    /* the T1 file's folder ("" for the current one) */
    const char *spec_dir;    /* the spec's folder */
    const char *kernel_path; /* the kernel file, as the importer opens it (NULL: unknown) */
    t1_param *params;
    int nparams;
    t1_names names;          /* the params, for the conditions and the geometry */
    t1_py_node **conditions; /* parsed, for the check of the default configuration */
    const char **cond_paths;
    int nconditions;
    t1_py_val problem_size; /* a list of ints, for argument sizes (empty without one) */
    strbuf body;            /* the statements after the params and conditions */
    const char **outputs;   /* the spec names of the arguments T1 marks "Output" */
    int noutputs, capoutputs;
    bool float_output; /* one of them has a floating-point type */
} t1_state;

/* t1_config_space (t1_space.c): ConfigurationSpace: s->params, s->names and the parsed
 * conditions set, each param and condition appended to `out` as a param or require
 * statement; what is refused is an error in the context. */
void t1_config_space(t1_state *s, strbuf *out);

/* t1_verify (t1_settings.c): a verify statement appended to `out` (the Output arguments
 * against the default configuration) when every param has a Default among its values
 * and that configuration meets the conditions; else a note says why there is none. */
void t1_verify(t1_state *s, strbuf *out);

/* t1_settings (t1_settings.c): Budget as a search statement and
 * BenchmarkConfig.iterations as a measure statement appended to `out`; notes for what
 * has no counterpart (General's objective, Search, BAT's host-side settings). */
void t1_settings(t1_state *s, strbuf *out);

/* t1_geometry: LocalSize, GlobalSize (with GlobalSizeType) or ProblemSize with GridDivX/Y/Z,
 * and SharedMemory of the KernelSpecification `ks`, as lets, block, grid and smem
 * statements appended to s->body. */
void t1_geometry(t1_state *s, json_t *ks, const char *path);

/* t1_arguments: KernelSpecification.Arguments as arg statements appended to s->body;
 * the outputs recorded in s. */
void t1_arguments(t1_state *s, json_t *ks, const char *path);

/* t1_comment: text for a single-line comment (control characters become blanks), in
 * the arena ("" when out of memory). */
const char *t1_comment(t1_state *s, const char *text);

/* t1_quote: text as a cutune string literal ("..." with \" and \\ escaped), or NULL
 * (an error at path) when it holds a control character. */
const char *t1_quote(t1_state *s, const char *text, const char *path);

/* t1_is_identifier: whether name is a C identifier; t1_reserved: whether it is a word
 * cutune reserves or a built-in name (a param, let or arg may not take it); t1_keyword:
 * whether it is a reserved word (no kernel's name in a spec: `kernel NAME from`). */
bool t1_is_identifier(const char *name);
bool t1_reserved(const char *name);
bool t1_keyword(const char *name);

/* t1_expr: the T1 expression at `path` (a JSON string, or an integer) translated as
 * `want` over the params; NULL after an error. */
const char *t1_expr(t1_state *s, json_t *v, const char *path, enum t1_type want);

#endif
