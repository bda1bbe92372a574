/* t1_args.c - the launch geometry and the arguments of a T1 KernelSpecification as
 * spec statements (t1_internal.h; docs/kernel-tuner.md has the table).
 *
 * Geometry, as Kernel Tuner reads a T1 file: with a ProblemSize, the grid is the
 * problem size divided (rounding up) by the product of each dimension's GridDiv
 * expressions (a dimension without GridDiv is divided by its LocalSize entry when that
 * names a param, else not at all), and GlobalSize is not used; without one, GlobalSize
 * is the grid in blocks (GlobalSizeType "CUDA", or absent as BAT reads it) or in
 * threads ("OpenCL", KTT's: divided by the block, rounding up).
 *
 * Arguments: a Scalar is `arg NAME : TYPE = VALUE`, a Vector a buffer whose direction is
 * its AccessType (absent: ReadWrite, KTT's default) and whose contents are its FillType:
 * Constant (absent: KTT's default) as zeros or constant(v), Random as random(seed, 0,
 * FillValue) (KTT's uniform [0, FillValue)), Generator as ramp() where the expression
 * of i is linear, BinaryRaw as file(). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "t1_internal.h"
#include "../base/sys.h"

static bool is_word_char(char ch)
{
    return ch == '_' || (ch >= '0' && ch <= '9') || ((ch | 32) >= 'a' && (ch | 32) <= 'z');
}

static const char *const dims[3] = {"X", "Y", "Z"};

/* factor: a translated expression as an operand of '*' (parenthesised unless it is a
 * name or a number). */
static const char *factor(t1_state *s, const char *text)
{
    bool plain = t1_is_identifier(text) || strspn(text, "0123456789") == strlen(text);
    return plain ? text : arena_printf(s->c->a, "(%s)", text);
}

/* unique_let: `base`, with '_' added while a param has that name. */
static const char *unique_let(t1_state *s, const char *base)
{
    const char *name = base;
    for (int k = 0; name && k < s->nparams; k++)
        if (strcmp(s->params[k].spec, name) == 0 || strcmp(s->params[k].name, name) == 0) {
            name = arena_printf(s->c->a, "%s_", name);
            k = -1;
        }
    return name;
}

/* dims_text: "(a, b, c)" with trailing 1s dropped, or "a" alone. */
static const char *dims_text(t1_state *s, const char *const d[3])
{
    int n = 3;
    while (n > 1 && strcmp(d[n - 1], "1") == 0)
        n--;
    if (n == 1)
        return d[0];
    return n == 2 ? arena_printf(s->c->a, "(%s, %s)", d[0], d[1])
                  : arena_printf(s->c->a, "(%s, %s, %s)", d[0], d[1], d[2]);
}

/* below_one: whether the T1 expression v (at path) is a constant below 1 (a JSON int, or
 * an expression of no name): a block or grid dimension or a problem size a spec refuses
 * at check time, so the file is refused here, at its path. An expression of params is the spec's to check per
 * configuration; what does not evaluate is left to the translation to report. */
static bool below_one(t1_state *s, json_t *v, const char *path)
{
    if (json_is_integer(v))
        return json_integer_value(v) < 1;
    if (!json_is_string(v))
        return false;
    int errors = s->c->nerrors;
    t1_py_src src = {.c = s->c, .text = json_string_value(v), .path = path};
    t1_py_node *n;
    t1_py_val val;
    bool constant = t1_py_parse(&n, &src) == 0 && t1_py_eval(&val, n, NULL, &src) == 0;
    s->c->nerrors = errors; /* a name (not a constant) or an error the translation reports */
    return constant && (val.kind == PV_INT || val.kind == PV_BOOL) && val.i < 1;
}

/* problem_grid: the lets of ProblemSize and the grid from GridDivX/Y/Z into grid[3]. */
static bool problem_grid(t1_state *s, json_t *ks, json_t *ps, const char *path, json_t *local, const char *grid[3])
{
    const char *ppath = t1_key(s->c, path, "ProblemSize");
    size_t n = json_is_array(ps) ? json_array_size(ps) : 1;
    if (!json_is_array(ps) && !t1_want(s->c, ps, ppath, T1_INTEGER | T1_STRING, "an integer or an array of them"))
        return false;
    if (n < 1 || n > 3) {
        t1_error(s->c, ppath, "has %zu dimensions: 1 to 3 are translated", n);
        return false;
    }
    s->problem_size = (t1_py_val){.kind = PV_LIST, .n = n, .items = arena_alloc(s->c->a, 3 * sizeof(t1_py_val))};
    if (!s->problem_size.items) {
        s->c->oom = true;
        return false;
    }
    const char *names[3] = {"problem_size_x", "problem_size_y", "problem_size_z"};
    sb_add(&s->body, "    let ");
    bool ok = true;
    for (size_t d = 0; d < n; d++) {
        json_t *v = json_is_array(ps) ? json_array_get(ps, d) : ps;
        const char *at = json_is_array(ps) ? t1_index(s->c, ppath, d) : ppath;
        names[d] = unique_let(s, names[d]);
        const char *text = t1_expr(s, v, at, TR_INT);
        if (!text) {
            ok = false;
            continue;
        }
        if (below_one(s, v, at)) {
            t1_error(s->c, at, "a problem size of %s: at least 1", text);
            ok = false;
        }
        /* an argument's Size reads ProblemSize[d]: a constant (0 when it depends on params) */
        s->problem_size.items[d] = (t1_py_val){.kind = PV_INT, .i = json_is_integer(v) ? json_integer_value(v) : 0};
        sb_printf(&s->body, "%s%s = %s", d ? ", " : "", names[d], text);
    }
    sb_add(&s->body, ";    # T1's ProblemSize\n");
    for (int d = 0; d < 3; d++) {
        const char *key = d == 0 ? "GridDivX" : d == 1 ? "GridDivY" : "GridDivZ";
        const char *gpath = t1_key(s->c, path, key);
        json_t *div = t1_member(s->c, ks, path, key, false);
        strbuf sb = STRBUF_INIT;
        if (!div) { /* Kernel Tuner's default: the block size param of this dimension */
            json_t *l = local ? json_object_get(local, dims[d]) : NULL;
            for (int k = 0; json_is_string(l) && k < s->nparams; k++)
                if (strcmp(s->params[k].name, json_string_value(l)) == 0)
                    sb_add(&sb, s->params[k].spec);
        } else if (t1_want(s->c, div, gpath, T1_ARRAY,
                           "an array of expressions (their product divides the "
                           "problem size)")) {
            for (size_t k = 0; k < json_array_size(div); k++) {
                const char *text = t1_expr(s, json_array_get(div, k), t1_index(s->c, gpath, k), TR_INT);
                if (!text)
                    ok = false;
                else
                    sb_printf(&sb, "%s%s", sb.len ? " * " : "", factor(s, text));
            }
        } else {
            ok = false;
        }
        const char *size = (size_t)d < n ? names[d] : "1";
        if (!sb_ok(&sb))
            s->c->oom = true;
        grid[d] = sb.len == 0 ? size : arena_printf(s->c->a, "cdiv(%s, %s)", size, sb_cstr(&sb));
        sb_free(&sb);
    }
    if (t1_member(s->c, ks, path, "GlobalSize", false))
        t1_note(s->c, t1_key(s->c, path, "GlobalSize"),
                "not used: with a ProblemSize, the grid is the problem size "
                "divided by GridDivX/Y/Z, as Kernel Tuner launches it");
    return ok;
}

/* dim_text: dimension d (X, Y, Z) of the object obj at path as a spec expression ("1"
 * when Y or Z is absent; X is required), or NULL with the error said: not translated, or a
 * constant below 1 (what: "grid" or "block", for the message). */
static const char *dim_text(t1_state *s, json_t *obj, const char *path, int d, const char *what)
{
    json_t *v = t1_member(s->c, obj, path, dims[d], d == 0);
    const char *dpath = t1_key(s->c, path, dims[d]);
    const char *text = v ? t1_expr(s, v, dpath, TR_INT) : "1";
    if (text && below_one(s, v, dpath)) {
        t1_error(s->c, dpath, "is %s: a %s dimension is at least 1", text, what);
        return NULL;
    }
    return text;
}

/* global_grid: the grid from GlobalSize and GlobalSizeType into grid[3]. */
static bool global_grid(t1_state *s, json_t *ks, const char *path, const char *const block[3], const char *grid[3])
{
    const char *gpath = t1_key(s->c, path, "GlobalSize");
    json_t *global = t1_member(s->c, ks, path, "GlobalSize", true);
    const char *type = t1_string_member(s->c, ks, path, "GlobalSizeType", false);
    const char *tpath = t1_key(s->c, path, "GlobalSizeType");
    bool threads = false;
    if (!type)
        t1_note(s->c, tpath, "absent: GlobalSize is read as the grid in blocks (\"CUDA\"), as BAT launches it");
    else if (strcmp(type, "OpenCL") == 0)
        threads = true;
    else if (strcmp(type, "CUDA") != 0) {
        t1_error(s->c, tpath, "\"%s\" is not translated (\"CUDA\": blocks; \"OpenCL\": threads)", type);
        return false;
    }
    for (int d = 0; d < 3; d++) {
        const char *key = d == 0 ? "GridDivX" : d == 1 ? "GridDivY" : "GridDivZ";
        if (t1_member(s->c, ks, path, key, false))
            t1_note(s->c, t1_key(s->c, path, key), "not used: without a ProblemSize the grid is GlobalSize");
    }
    if (!global || !t1_want(s->c, global, gpath, T1_OBJECT, "an object with X, Y and Z"))
        return false;
    static const char *const known[] = {"X", "Y", "Z", NULL};
    t1_check_keys(s->c, global, gpath, known, NULL, NULL);
    bool ok = true;
    for (int d = 0; d < 3; d++) {
        const char *text = dim_text(s, global, gpath, d, "grid");
        if (!text) {
            ok = false;
            continue;
        }
        grid[d] = threads && strcmp(block[d], "1") != 0 ? arena_printf(s->c->a, "cdiv(%s, %s)", text, block[d]) : text;
    }
    return ok;
}

void t1_geometry(t1_state *s, json_t *ks, const char *path)
{
    const char *lpath = t1_key(s->c, path, "LocalSize");
    json_t *local = t1_member(s->c, ks, path, "LocalSize", true);
    const char *block[3] = {"1", "1", "1"}, *grid[3] = {"1", "1", "1"};
    bool ok = local && t1_want(s->c, local, lpath, T1_OBJECT, "an object with X, Y and Z");
    if (ok) {
        static const char *const known[] = {"X", "Y", "Z", NULL};
        t1_check_keys(s->c, local, lpath, known, NULL, NULL);
        for (int d = 0; d < 3; d++) {
            const char *text = dim_text(s, local, lpath, d, "block");
            if (!text)
                ok = false;
            else
                block[d] = text;
        }
    }
    json_t *ps = t1_member(s->c, ks, path, "ProblemSize", false);
    if (ps)
        ok = problem_grid(s, ks, ps, path, ok ? local : NULL, grid) && ok;
    else
        ok = global_grid(s, ks, path, block, grid) && ok;
    json_t *smem = t1_member(s->c, ks, path, "SharedMemory", false);
    const char *spath = t1_key(s->c, path, "SharedMemory");
    const char *smem_text = smem ? t1_expr(s, smem, spath, TR_INT) : NULL;
    if (json_is_integer(smem) && json_integer_value(smem) < 0)
        t1_error(s->c, spath, "a negative size");
    if (!ok)
        return;
    sb_printf(&s->body, "    block %s;\n", dims_text(s, block));
    sb_printf(&s->body, "    grid %s;\n", dims_text(s, grid));
    if (smem_text && strcmp(smem_text, "0") != 0)
        sb_printf(&s->body, "    smem %s;    # T1's SharedMemory: dynamic shared memory, bytes\n", smem_text);
}

/* ---- arguments ------------------------------------------------------------------------- */

/* The T1 types and cutune's. */
static const struct {
    const char *t1, *spec;
    bool is_float;
    double min, max; /* integer types: the range of a value */
    int lanes;       /* a vector type's (0: a scalar type) */
} types[] = {
    {"bool", "int8", false, 0, 1, 0},
    {"int8", "int8", false, -128, 127, 0},
    {"uint8", "uint8", false, 0, 255, 0},
    {"int16", "int16", false, -32768, 32767, 0},
    {"uint16", "uint16", false, 0, 65535, 0},
    {"int32", "int", false, -2147483648.0, 2147483647.0, 0},
    {"uint32", "uint", false, 0, 4294967295.0, 0},
    {"int64", "int64", false, -9223372036854775808.0, 9223372036854775807.0, 0},
    {"uint64", "uint64", false, 0, 18446744073709551615.0, 0},
    {"half", "half", true, 0, 0, 0},
    {"float", "float", true, 0, 0, 0},
    {"double", "double", true, 0, 0, 0},
    /* the vector types cutune has (buffers only; KTT's half4, float8, ... it has not) */
    {"half2", "half2", true, 0, 0, 2},
    {"float2", "float2", true, 0, 0, 2},
    {"float4", "float4", true, 0, 0, 4},
    {"double2", "double2", true, 0, 0, 2},
    {"double4", "double4", true, 0, 0, 4},
};
enum { NTYPES = sizeof types / sizeof *types };

/* number_text: a FillValue for an element of type t: an int type's must be whole and in
 * its range. NULL after an error at path. */
static const char *number_text(t1_state *s, json_t *v, int t, const char *path)
{
    if (!t1_want(s->c, v, path, T1_NUMBER, "a number"))
        return NULL;
    if (types[t].is_float) {
        t1_py_val x = {.kind = PV_FLOAT, .f = json_number_value(v)};
        if (json_is_integer(v))
            return arena_printf(s->c->a, "%lld", (long long)json_integer_value(v));
        return t1_py_text(s->c, &x);
    }
    if (json_is_integer(v)) {
        long long i = json_integer_value(v);
        if ((double)i < types[t].min || (double)i > types[t].max) {
            t1_error(s->c, path, "%lld does not fit a %s", i, types[t].t1);
            return NULL;
        }
        return arena_printf(s->c->a, "%lld", i);
    }
    double f = json_real_value(v);
    if (f != floor(f) || f < types[t].min || f > types[t].max || fabs(f) > 9e15) {
        t1_error(s->c, path, "%g is not a value of a %s", f, types[t].t1);
        return NULL;
    }
    return arena_printf(s->c->a, "%lld", (long long)f);
}

/* linear: a Generator's DataSource as a * i + b; false when it is not linear in i. */
static bool linear(const t1_py_node *n, double *a, double *b)
{
    double a1, b1, a2, b2;
    switch (n->kind) {
    case PY_INT: *a = 0, *b = (double)n->i; return true;
    case PY_FLOAT: *a = 0, *b = n->f; return true;
    case PY_NAME: *a = 1, *b = 0; return strcmp(n->s, "i") == 0;
    case PY_UNARY:
        if ((n->op != '-' && n->op != '+') || !linear(n->kids[0], a, b))
            return false;
        if (n->op == '-')
            *a = -*a, *b = -*b;
        return true;
    case PY_BIN:
        if (!linear(n->kids[0], &a1, &b1) || !linear(n->kids[1], &a2, &b2))
            return false;
        switch (n->op) {
        case '+': *a = a1 + a2, *b = b1 + b2; return true;
        case '-': *a = a1 - a2, *b = b1 - b2; return true;
        case '*':
            if (a1 != 0 && a2 != 0)
                return false;
            *a = a1 * b2 + a2 * b1, *b = b1 * b2;
            return true;
        case '/':
            if (a2 != 0 || b2 == 0)
                return false;
            *a = a1 / b2, *b = b1 / b2;
            return true;
        }
        return false;
    default: return false;
    }
}

/* size_text: a Vector's Size: an integer, or an expression of ProblemSize and of params
 * (each a list of its values: Kernel Tuner's sizes take max(param)), evaluated. */
static const char *size_text(t1_state *s, json_t *v, const char *path)
{
    if (json_is_integer(v)) {
        if (json_integer_value(v) < 1) {
            t1_error(s->c, path, "a size of %lld elements: at least 1", (long long)json_integer_value(v));
            return NULL;
        }
        return arena_printf(s->c->a, "%lld", (long long)json_integer_value(v));
    }
    if (!t1_want(s->c, v, path, T1_INTEGER | T1_STRING, "a number of elements (an integer, or an expression)"))
        return NULL;
    t1_py_src src = {.c = s->c, .text = json_string_value(v), .path = path};
    t1_py_env *env = NULL;
    for (int k = 0; k <= s->nparams; k++) {
        t1_py_env *e = arena_alloc(s->c->a, sizeof *e);
        if (!e) {
            s->c->oom = true;
            return NULL;
        }
        if (k == s->nparams)
            *e = (t1_py_env){.name = "ProblemSize", .val = s->problem_size, .next = env};
        else
            *e = (t1_py_env){.name = s->params[k].name, .val = s->params[k].values, .next = env};
        env = e;
    }
    t1_py_node *n;
    t1_py_val x;
    if (t1_py_parse(&n, &src) || t1_py_eval(&x, n, env, &src))
        return NULL;
    if (x.kind != PV_INT || x.i < 1) {
        t1_py_report(&src, 0, "gives %s, not a number of elements (an int of at least 1)",
                     x.kind == PV_INT ? arena_printf(s->c->a, "%lld", (long long)x.i) : "no int");
        return NULL;
    }
    return arena_printf(s->c->a, "%lld", (long long)x.i);
}

/* arg_name: the argument's name in the spec: T1's Name (else argN), made an identifier
 * that no other argument and no reserved word has. */
static const char *arg_name(t1_state *s, const char *name, size_t i, const char **taken, size_t ntaken,
                            const char *path)
{
    char *r = name ? arena_strdup(s->c->a, name) : arena_printf(s->c->a, "arg%zu", i);
    if (!r) {
        s->c->oom = true;
        return NULL;
    }
    for (char *p = r; *p; p++)
        if (!(*p == '_' || (*p >= '0' && *p <= '9') || ((*p | 32) >= 'a' && (*p | 32) <= 'z')))
            *p = '_';
    const char *spec = r[0] && !(r[0] >= '0' && r[0] <= '9') ? r : arena_printf(s->c->a, "a_%s", r);
    for (size_t k = 0; spec && k < ntaken; k++)
        if (strcmp(taken[k], spec) == 0 || t1_reserved(spec)) {
            spec = arena_printf(s->c->a, "%s_", spec);
            k = (size_t)-1;
        }
    while (spec && t1_reserved(spec))
        spec = arena_printf(s->c->a, "%s_", spec);
    if (spec && name && strcmp(spec, name) != 0)
        t1_note(s->c, t1_key(s->c, path, "Name"),
                "the argument is named '%s' in the spec (arguments are passed "
                "by position: the name is only the spec's)",
                spec);
    return spec;
}

/* vector_init: the buffer's contents (after " = "), "" for none. NULL after an error. */
static const char *vector_init(t1_state *s, json_t *a, const char *path, int t, size_t i, const char *dir)
{
    const char *fill = t1_string_member(s->c, a, path, "FillType", false);
    const char *fpath = t1_key(s->c, path, "FillType");
    json_t *value = t1_member(s->c, a, path, "FillValue", false);
    const char *vpath = t1_key(s->c, path, "FillValue");
    if (!fill)
        fill = "Constant";
    if (strcmp(fill, "Constant") == 0 || strcmp(fill, "Random") == 0) {
        if (!value) {
            t1_error(s->c, vpath, "is missing: a %s fill needs one", fill);
            return NULL;
        }
        const char *v = number_text(s, value, t, vpath);
        if (!v)
            return NULL;
        if (strcmp(dir, "out") == 0)
            return ""; /* an out buffer is poisoned before each run: contents would be ignored */
        if (fill[0] == 'C')
            return json_number_value(value) == 0 ? "zeros" : arena_printf(s->c->a, "constant(%s)", v);
        json_t *seed = t1_member(s->c, a, path, "RandomSeed", false);
        long long sd = (long long)i;
        if (seed) {
            if (!json_is_integer(seed) || json_integer_value(seed) < 0) {
                t1_error(s->c, t1_key(s->c, path, "RandomSeed"), "is not an integer of at least 0");
                return NULL;
            }
            sd = json_integer_value(seed);
        }
        if (json_number_value(value) < 0) {
            t1_error(s->c, vpath, "a random fill's values lie in [0, FillValue): FillValue must be at least 0");
            return NULL;
        }
        return arena_printf(s->c->a, "random(seed = %lld, min = 0, max = %s)", sd, v);
    }
    const char *source = NULL, *spath = t1_key(s->c, path, "DataSource");
    if (strcmp(fill, "Generator") == 0 || strcmp(fill, "BinaryRaw") == 0)
        source = t1_string_member(s->c, a, path, "DataSource", true);
    if (strcmp(fill, "Generator") == 0 && source) {
        t1_py_src src = {.c = s->c, .text = source, .path = spath};
        t1_py_node *n;
        double ka, kb;
        if (t1_py_parse(&n, &src))
            return NULL;
        if (!linear(n, &ka, &kb)) {
            t1_py_report(&src, 0,
                         "a Generator that is not linear in i is not translated (cutune's ramp() is "
                         "start + i * step)");
            return NULL;
        }
        t1_py_val start = {.kind = PV_FLOAT, .f = kb}, step = {.kind = PV_FLOAT, .f = ka};
        const char *st = t1_py_text(s->c, &start), *sp = t1_py_text(s->c, &step);
        if (!st || !sp) {
            t1_py_report(&src, 0, "gives a value that is not finite");
            return NULL;
        }
        return strcmp(dir, "out") == 0 ? "" : arena_printf(s->c->a, "ramp(start = %s, step = %s)", st, sp);
    }
    if (strcmp(fill, "BinaryRaw") == 0 && source) {
        char *full = source[0] == '/' || !s->base_dir[0] ? arena_strdup(s->c->a, source)
                                                         : arena_printf(s->c->a, "%s/%s", s->base_dir, source);
        const char *rel = source[0] == '/' ? source : full ? t1_relative(s->c, s->spec_dir, full) : NULL;
        const char *q = rel ? t1_quote(s, rel, spath) : NULL;
        if (!q)
            return NULL;
        t1_note(s->c, fpath, "BinaryRaw: file(%s) reads raw little-endian elements (exactly the buffer's bytes)", q);
        return arena_printf(s->c->a, "file(%s)", q);
    }
    if (strcmp(fill, "Uninitialized") == 0) {
        if (strcmp(dir, "out") != 0)
            t1_note(s->c, fpath, "Uninitialized: the buffer is filled with zeros");
        return strcmp(dir, "out") == 0 ? "" : "zeros";
    }
    if (strcmp(fill, "Generator") != 0 && strcmp(fill, "BinaryRaw") != 0)
        t1_error(s->c, fpath,
                 "\"%s\" is not supported: cutune fills buffers with zeros, constant(v), random(), "
                 "ramp() or file() (Constant, Random, Generator linear in i, BinaryRaw)",
                 fill);
    return NULL;
}

/* declares_constant: whether the kernel file's text declares a __constant__ variable
 * called `name` (its own text only: a declaration behind a macro or an #include is not
 * seen, and `cutune check` then warns of what is not filled). -1 when the file cannot
 * be read. */
static int declares_constant(t1_state *s, const char *name)
{
    if (!s->kernel_path)
        return -1;
    char *text = sys_read_file(s->kernel_path, SYS_LIMIT_SOURCE, NULL);
    if (!text)
        return -1;
    size_t n = strlen(name);
    int found = 0;
    for (const char *p = strstr(text, "__constant__"); p && !found; p = strstr(p + 1, "__constant__")) {
        const char *end = strpbrk(p, ";{=");
        for (const char *q = p; end && q + n <= end && !found; q++)
            found = strncmp(q, name, n) == 0 && !is_word_char(q[-1]) && !is_word_char(q[n]);
    }
    free(text);
    return found;
}

/* constant_arg: a Vector with MemType "Constant" (Kernel Tuner's cmem_args, as BAT passes
 * them: the data fills the kernel's __constant__ NAME and is also the kernel's argument
 * in its place): `arg NAME : constant ...` when the kernel declares that variable, and
 * the argument under a name of its own in *pos_name. False after an error. */
static bool constant_arg(t1_state *s, json_t *a, const char *path, const char *name, int t, const char *count,
                         const char *init, const char **taken, size_t *ntaken, const char **pos_name)
{
    (void)a;
    const char *cpath = t1_key(s->c, path, "MemType");
    int declared = declares_constant(s, name);
    if (declared == 0) {
        t1_note(s->c, cpath, "the kernel declares no __constant__ '%s': passed as the kernel's argument only", name);
        return true;
    }
    sb_printf(&s->body,
              "    arg %s : constant %s[%s] = %s;    # T1's MemType \"Constant\": the kernel's __constant__ %s\n", name,
              types[t].spec, count, init[0] ? init : "zeros", name);
    const char *arg = arena_printf(s->c->a, "%s_arg", name);
    for (size_t k = 0; arg && k < *ntaken; k++)
        if (strcmp(taken[k], arg) == 0) {
            arg = arena_printf(s->c->a, "%s_", arg);
            k = (size_t)-1;
        }
    if (!arg) {
        s->c->oom = true;
        return false;
    }
    taken[(*ntaken)++] = arg;
    t1_note(s->c, cpath,
            "fills the kernel's __constant__ '%s' and is passed as its argument too (as '%s'), as BAT "
            "passes constant memory",
            name, arg);
    *pos_name = arg;
    return true;
}

/* mem_type: an argument's MemType (at path; absent, or "Constant": Kernel Tuner's
 * cmem_args, for a Vector) into *cmem. False after an error. */
static bool mem_type(t1_state *s, json_t *a, const char *path, const char *mem, bool *cmem)
{
    json_t *memtype = t1_member(s->c, a, path, "MemType", false);
    if (!memtype)
        return true;
    const char *cpath = t1_key(s->c, path, "MemType");
    if (!t1_want(s->c, memtype, cpath, T1_STRING, "a string"))
        return false;
    if (strcmp(json_string_value(memtype), "Constant") != 0) {
        t1_error(s->c, cpath, "\"%s\" is not a memory type cutune knows (\"Constant\" is Kernel Tuner's cmem_args)",
                 json_string_value(memtype));
        return false;
    }
    *cmem = true;
    if (strcmp(mem, "Vector") != 0) {
        t1_error(s->c, cpath, "constant memory of a %s is not translated (a Vector's is)", mem);
        return false;
    }
    return true;
}

/* arg_type: the index in types[] of an argument's T1 Type (at tpath) of memory type
 * `mem`; -1 after an error (a type cutune has not, a scalar of a vector type). */
static int arg_type(t1_state *s, const char *type, const char *mem, const char *tpath)
{
    int t = 0;
    while (t < NTYPES && strcmp(types[t].t1, type) != 0)
        t++;
    if (t == NTYPES) {
        bool vector =
            strcmp(type, "custom") == 0 || (strlen(type) > 4 && strspn(type + strlen(type) - 1, "0123456789"));
        t1_error(s->c, tpath, "\"%s\" is not supported: %s", type,
                 vector ? "of the vector types cutune has only half2, float2, float4, double2 and double4 "
                          "(docs/language.md, section 13); custom types it has not"
                        : "not a T1 type");
        return -1;
    }
    if (strcmp(type, "bool") == 0)
        t1_note(s->c, tpath, "bool is passed as int8 (one byte, as KTT passes it)");
    bool vector = types[t].lanes > 1;
    if (vector && strcmp(mem, "Scalar") == 0) {
        t1_error(s->c, tpath, "a scalar of a vector type is not translated (a %s is an element type of buffers)", type);
        return -1;
    }
    if (vector)
        t1_note(s->c, tpath, "%s: Size counts vectors; a fill numbers their lanes (docs/language.md, vector types)",
                type);
    return t;
}

/* one_arg: Arguments[i] as an arg statement in s->body. */
static void one_arg(t1_state *s, json_t *a, size_t i, const char *path, const char **taken, size_t *ntaken)
{
    static const char *const known[] = {"Name",      "Type",    "MemoryType", "AccessType", "FillType",
                                        "FillValue", "Size",    "TypeSize",   "DataSource", "RandomSeed",
                                        "Output",    "MemType", NULL};
    if (!t1_want(s->c, a, path, T1_OBJECT, "an object (an argument)"))
        return;
    t1_check_keys(s->c, a, path, known, NULL, NULL);
    const char *name = arg_name(s, t1_string_member(s->c, a, path, "Name", false), i, taken, *ntaken, path);
    const char *type = t1_string_member(s->c, a, path, "Type", true);
    const char *mem = t1_string_member(s->c, a, path, "MemoryType", true);
    if (!name || !type || !mem)
        return;
    taken[(*ntaken)++] = name;
    int t = arg_type(s, type, mem, t1_key(s->c, path, "Type"));
    if (t < 0)
        return;
    bool cmem = false;
    if (!mem_type(s, a, path, mem, &cmem))
        return;
    const char *mpath = t1_key(s->c, path, "MemoryType");
    json_t *output = t1_member(s->c, a, path, "Output", false);
    bool is_output = output && (json_is_true(output) || (json_is_integer(output) && json_integer_value(output)));
    if (output && !json_is_boolean(output) && !json_is_integer(output))
        t1_error(s->c, t1_key(s->c, path, "Output"), "is %s, expected 1 or 0", t1_type_name(output));
    if (strcmp(mem, "Scalar") == 0) {
        json_t *value = t1_member(s->c, a, path, "FillValue", true);
        const char *fill = t1_string_member(s->c, a, path, "FillType", false);
        if (fill && strcmp(fill, "Constant") != 0)
            t1_error(s->c, t1_key(s->c, path, "FillType"), "\"%s\" for a scalar: a scalar is its FillValue", fill);
        const char *v = value ? number_text(s, value, t, t1_key(s->c, path, "FillValue")) : NULL;
        if (v)
            sb_printf(&s->body, "    arg %s : %s = %s;\n", name, types[t].spec, v);
        if (is_output)
            t1_note(s->c, t1_key(s->c, path, "Output"), "a scalar is no output: not verified");
        return;
    }
    if (strcmp(mem, "Local") == 0 || strcmp(mem, "Symbol") == 0) {
        t1_error(s->c, mpath, "\"%s\" is not supported: %s", mem,
                 mem[0] == 'L' ? "OpenCL's __local arguments have no CUDA counterpart (a CUDA kernel declares its "
                                 "shared memory; dynamic shared memory is SharedMemory)"
                               : "a __constant__ or __device__ symbol filled before the launch is not in cutune's "
                                 "language yet");
        return;
    }
    if (strcmp(mem, "Vector") != 0) {
        t1_error(s->c, mpath, "\"%s\" is not a T1 memory type (Scalar, Vector, Local, Symbol)", mem);
        return;
    }
    json_t *typesize = t1_member(s->c, a, path, "TypeSize", false);
    if (typesize && !(json_is_integer(typesize) && json_integer_value(typesize) == 1))
        t1_error(s->c, t1_key(s->c, path, "TypeSize"),
                 "a TypeSize other than 1 (a vector element) is not "
                 "translated");
    json_t *size = t1_member(s->c, a, path, "Size", true);
    const char *count = size ? size_text(s, size, t1_key(s->c, path, "Size")) : NULL;
    const char *access = t1_string_member(s->c, a, path, "AccessType", false);
    const char *dir = "inout";
    if (access && strcmp(access, "ReadOnly") == 0)
        dir = "in";
    else if (access && strcmp(access, "WriteOnly") == 0)
        dir = "out";
    else if (access && strcmp(access, "ReadWrite") != 0) {
        t1_error(s->c, t1_key(s->c, path, "AccessType"),
                 "\"%s\" is not a T1 access type (ReadOnly, WriteOnly, "
                 "ReadWrite)",
                 access);
        return;
    }
    if (is_output && dir[0] == 'i' && dir[2] == '\0') {
        t1_note(s->c, t1_key(s->c, path, "Output"),
                "a ReadOnly argument marked as an output: passed as inout, so "
                "that it can be verified");
        dir = "inout";
    }
    const char *init = vector_init(s, a, path, t, i, cmem ? "in" : dir);
    if (!count || !init)
        return;
    if (cmem && !constant_arg(s, a, path, name, t, count, init, taken, ntaken, &name))
        return;
    sb_printf(&s->body, "    arg %s : %s %s[%s]%s%s;\n", name, dir, types[t].spec, count, init[0] ? " = " : "", init);
    if (is_output) {
        if (ARENA_PUSH(s->c->a, s->outputs, s->noutputs, s->capoutputs, name) != 0)
            s->c->oom = true;
        s->float_output |= types[t].is_float;
    }
}

void t1_arguments(t1_state *s, json_t *ks, const char *path)
{
    const char *apath = t1_key(s->c, path, "Arguments");
    json_t *args = t1_member(s->c, ks, path, "Arguments", false);
    if (!args) {
        t1_note(s->c, apath, "absent: the kernel is passed no arguments");
        return;
    }
    if (!t1_want(s->c, args, apath, T1_ARRAY, "an array of arguments"))
        return;
    size_t n = json_array_size(args), ntaken = 0;
    const char **taken = arena_alloc(s->c->a, (2 * n + 1) * sizeof *taken); /* a constant one takes two */
    if (!taken) {
        s->c->oom = true;
        return;
    }
    for (size_t i = 0; i < n; i++)
        one_arg(s, json_array_get(args, i), i, t1_index(s->c, apath, i), taken, &ntaken);
}
