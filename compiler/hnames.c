/* hnames.c - every name a kernel block's header defines, and which may not meet (see
 * hnames.h). The names listed here are the ones emit/header*.c write (header_text.c,
 * header_table.c, header_sizes.c); a name added there is added here. */
#include "hnames.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cutune.h"

#include "cexpr.h"

/* ---- the names ------------------------------------------------------------------------- */

/* The macros every header defines, after "P_". */
static const char *const fixed_macros[] = {
    "TUNED",      "DEVICE_NAME", "COMPUTE_CAPABILITY", "BLOCK_DIM_X",  "BLOCK_DIM_Y",     "BLOCK_DIM_Z", "GRID_DIM_X",
    "GRID_DIM_Y", "GRID_DIM_Z",  "SMEM_BYTES",         "MAXRREGCOUNT", "COMPILE_OPTIONS", "DEFINES",
};

/* ... and those of a header over problem sizes. */
static const char *const size_macros[] = {"ENTRY_COUNT", "VARIANT_COUNT", "FOR_EACH_VARIANT"};

/* The functions and types, after "P_": the geometry functions (of entry 0 and of a
 * configuration), the arithmetic helpers, the types and the look-up. */
static const char *const fixed_globals[] = {
    "params",
    "config",
    "lookup",
    "block_dim_x",
    "block_dim_y",
    "block_dim_z",
    "grid_dim_x",
    "grid_dim_y",
    "grid_dim_z",
    "smem_bytes",
    "config_block_dim_x",
    "config_block_dim_y",
    "config_block_dim_z",
    "config_grid_dim_x",
    "config_grid_dim_y",
    "config_grid_dim_z",
    "config_smem_bytes",
    "cdiv",
    "floordiv",
    "mod",
    "shl",
    "shr",
};

/* The fields of P_config. */
static const char *const config_fields[] = {
    "device_name",  "compute_capability", "tuned",   "params",  "block_dim", "grid_dim", "smem_bytes",
    "maxrregcount", "compile_options",    "defines", "time_ms", "objective", "energy_j", "size",
    "variant",
};

/* The arguments and locals of P_lookup and P_lookup_size. */
static const char *const lookup_locals[] = {"device_name", "compute_capability", "table", "i", "same_cc", "a", "b"};
static const char *const lookup_size_locals[] = {
    "device_name", "compute_capability",
    "table",       "dev",
    "i",           "best",
    "best_ratio",  "best_work",
    "a",           "b",
    "ratio",       "work",
    "asked",       "tuned",
};

/* What <math.h> and <string.h> define that a name of the header could meet: object-like
 * macros (they rewrite any name), and the functions the header's expressions call (an
 * argument of that name would hide them). */
static const char *const libc_macros[] = {
    "NAN",         "INFINITY",     "HUGE_VAL",       "HUGE_VALF",        "HUGE_VALL",    "FP_INFINITE",  "FP_NAN",
    "FP_NORMAL",   "FP_SUBNORMAL", "FP_ZERO",        "FP_FAST_FMA",      "FP_FAST_FMAF", "FP_FAST_FMAL", "FP_ILOGB0",
    "FP_ILOGBNAN", "MATH_ERRNO",   "MATH_ERREXCEPT", "math_errhandling", "NULL",
};
static const char *const libc_functions[] = {"fabs", "floor", "ceil", "round", "pow", "log2", "sqrt", "strcmp"};

/* Adds a name; false when out of memory. */
static bool add(hn_list *l, const char *name, hn_scope scope, const char *group, hn_origin origin, int index,
                const char *source)
{
    if (!name)
        return false;
    hn_name nm = {name, scope, group, origin, index, source};
    return ARENA_PUSH(l->arena, l->v, l->n, l->cap, nm) == 0;
}

/* "P_" + s upper-cased, in the list's arena. */
static const char *upper_name(hn_list *l, const char *P, const char *s)
{
    char *t = arena_printf(l->arena, "%s_%s", P, s);
    for (char *p = t ? t + strlen(P) + 1 : NULL; p && *p; p++)
        if (*p >= 'a' && *p <= 'z')
            *p = (char)(*p - 'a' + 'A');
    return t;
}

/* s as the header writes it as a field or argument (cexpr_ident), in the list's arena. */
static const char *ident(hn_list *l, const char *s)
{
    strbuf b = STRBUF_INIT;
    cexpr_ident(s, &b);
    const char *t = sb_ok(&b) ? arena_strdup(l->arena, sb_cstr(&b)) : NULL;
    sb_free(&b);
    return t;
}

int hn_collect(hn_list **out, const hn_block *b)
{
    *out = NULL;
    hn_list *l = calloc(1, sizeof *l);
    if (!l || !(l->arena = arena_new())) {
        free(l);
        return CUTUNE_ENOMEM;
    }
    arena *a = l->arena;
    const char *P = b->prefix;
    const char *params_t = arena_printf(a, "%s_params", P), *config_t = arena_printf(a, "%s_config", P);
    const char *lookup_f = arena_printf(a, "%s_lookup", P), *lookup_size_f = arena_printf(a, "%s_lookup_size", P);
    const char *size_t_ = arena_printf(a, "the size struct of %s_config", P);
    const char *funcs = "the functions of the problem size";
    bool ok = params_t && config_t && lookup_f && lookup_size_f && size_t_;
    ok = ok && add(l, arena_printf(a, "CUTUNE_%s_H", P), HN_MACRO, NULL, HN_FIXED, -1, NULL);
    for (size_t i = 0; ok && i < sizeof fixed_macros / sizeof *fixed_macros; i++)
        ok = add(l, arena_printf(a, "%s_%s", P, fixed_macros[i]), HN_MACRO, NULL, HN_FIXED, -1, NULL);
    for (size_t i = 0; ok && i < sizeof fixed_globals / sizeof *fixed_globals; i++)
        ok = add(l, arena_printf(a, "%s_%s", P, fixed_globals[i]), HN_GLOBAL, NULL, HN_FIXED, -1, NULL);
    for (size_t i = 0; ok && i < sizeof config_fields / sizeof *config_fields; i++)
        ok = add(l, config_fields[i], HN_FIELD, config_t, HN_FIXED, -1, NULL);
    for (size_t i = 0; ok && i < sizeof lookup_locals / sizeof *lookup_locals; i++)
        ok = add(l, lookup_locals[i], HN_LOCAL, lookup_f, HN_FIXED, -1, NULL);
    for (int i = 0; ok && i < b->nparams; i++) {
        ok = add(l, upper_name(l, P, b->params[i]), HN_MACRO, NULL, HN_PARAM, i, b->params[i]) &&
             add(l, ident(l, b->params[i]), HN_FIELD, params_t, HN_PARAM, i, b->params[i]);
    }
    if (b->nsize_vars > 0) {
        const char *size_p = arena_printf(a, "%s_SIZE", P); /* P_SIZE_<VAR> */
        ok = ok && size_p && add(l, lookup_size_f, HN_GLOBAL, NULL, HN_FIXED, -1, NULL);
        for (size_t i = 0; ok && i < sizeof size_macros / sizeof *size_macros; i++)
            ok = add(l, arena_printf(a, "%s_%s", P, size_macros[i]), HN_MACRO, NULL, HN_FIXED, -1, NULL);
        for (size_t i = 0; ok && i < sizeof lookup_size_locals / sizeof *lookup_size_locals; i++)
            ok = add(l, lookup_size_locals[i], HN_LOCAL, lookup_size_f, HN_FIXED, -1, NULL);
        for (int j = 0; ok && j < b->nsize_vars; j++) {
            const char *v = b->size_vars[j];
            const char *id = ident(l, v);
            ok = add(l, upper_name(l, size_p, v), HN_MACRO, NULL, HN_SIZE, j, v) &&
                 add(l, id, HN_FIELD, size_t_, HN_SIZE, j, v) && add(l, id, HN_LOCAL, lookup_size_f, HN_SIZE, j, v);
        }
    }
    if (b->nlets > 0)
        ok = ok && add(l, "config", HN_LOCAL, funcs, HN_FIXED, -1, NULL);
    for (int i = 0; ok && i < b->nlets; i++)
        ok = add(l, ident(l, b->lets[i]), HN_LOCAL, funcs, HN_LET, i, b->lets[i]);
    if (!ok) {
        hn_free(l);
        return CUTUNE_ENOMEM;
    }
    *out = l;
    return CUTUNE_OK;
}

void hn_free(hn_list *l)
{
    if (!l)
        return;
    arena_free(l->arena);
    free(l);
}

/* ---- the rule ---------------------------------------------------------------------------- */

static bool same_group(const hn_name *a, const hn_name *b)
{
    return a->group && b->group && strcmp(a->group, b->group) == 0;
}

/* Whether a (of block la) and b (of block lb), of one name, cannot both be written. */
static bool meet(const hn_name *a, int la, const hn_name *b, int lb)
{
    if (a->scope == HN_MACRO || b->scope == HN_MACRO)
        return true;
    if (a->scope == HN_GLOBAL && b->scope == HN_GLOBAL)
        return true;
    if (la != lb)
        return false; /* fields and locals are inside their block's structs and functions */
    if (a->scope == b->scope)
        return (a->scope == HN_FIELD || a->scope == HN_LOCAL) && same_group(a, b);
    return (a->scope == HN_LOCAL && b->scope == HN_GLOBAL) || (a->scope == HN_GLOBAL && b->scope == HN_LOCAL);
}

static bool in(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], name) == 0)
            return true;
    return false;
}

/* The name of <math.h> or <string.h> that `nm` meets, or NULL. */
static const hn_name *libc_meets(const hn_name *nm)
{
    static hn_name macro = {NULL, HN_MACRO, NULL, HN_LIBC, -1, NULL};
    static hn_name function = {NULL, HN_GLOBAL, NULL, HN_LIBC, -1, NULL};
    if (in(nm->name, libc_macros, sizeof libc_macros / sizeof *libc_macros))
        return &macro;
    if (nm->scope != HN_FIELD && in(nm->name, libc_functions, sizeof libc_functions / sizeof *libc_functions))
        return &function;
    return NULL;
}

typedef struct entry {
    const hn_name *nm;
    int list, at;
} entry;

static int by_name(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    int c = strcmp(a->nm->name, b->nm->name);
    if (c)
        return c;
    return a->list != b->list ? (a->list > b->list) - (a->list < b->list) : (a->at > b->at) - (a->at < b->at);
}

/* Whether clash candidate (lb, at) comes before the best so far. */
static bool earlier(int lb, int at, int best_lb, int best_at)
{
    return best_lb < 0 || lb < best_lb || (lb == best_lb && at < best_at);
}

bool hn_clash_find(const hn_list *const *lists, int n, hn_clash *out)
{
    size_t total = 0;
    for (int k = 0; k < n; k++)
        total += (size_t)lists[k]->n;
    entry *all = malloc(sizeof *all * (total + 1));
    if (!all)
        return false;
    size_t m = 0;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < lists[k]->n; i++)
            all[m++] = (entry){&lists[k]->v[i], k, i};
    qsort(all, m, sizeof *all, by_name);
    int best_lb = -1, best_at = -1;
    for (size_t i = 0; i < m; i++) {
        const hn_name *lib = libc_meets(all[i].nm);
        if (lib && earlier(all[i].list, all[i].at, best_lb, best_at)) {
            /* the <math.h> name stands on the same block's side, first */
            *out = (hn_clash){all[i].list, all[i].list, lib, all[i].nm};
            best_lb = all[i].list;
            best_at = all[i].at;
        }
        for (size_t j = i + 1; j < m && strcmp(all[j].nm->name, all[i].nm->name) == 0; j++) {
            const entry *a = &all[i], *b = &all[j]; /* a before b: by block, then by place */
            if (!meet(a->nm, a->list, b->nm, b->list) || !earlier(b->list, b->at, best_lb, best_at))
                continue;
            if (b->nm->origin == HN_FIXED && a->nm->origin != HN_FIXED && a->list == b->list)
                *out = (hn_clash){a->list, b->list, b->nm, a->nm}; /* blame the param, not the header */
            else
                *out = (hn_clash){a->list, b->list, a->nm, b->nm};
            best_lb = b->list;
            best_at = b->at;
        }
    }
    free(all);
    return best_lb >= 0;
}

/* ---- messages ------------------------------------------------------------------------------ */

static void who(strbuf *out, const hn_name *nm)
{
    switch (nm->origin) {
    case HN_PARAM: sb_printf(out, "param '%s'", nm->source); break;
    case HN_SIZE: sb_printf(out, "size variable '%s'", nm->source); break;
    case HN_LET: sb_printf(out, "let '%s'", nm->source); break;
    case HN_LIBC: sb_add(out, "<math.h>"); break;
    default: sb_add(out, "the header"); break;
    }
}

static void role(strbuf *out, const hn_name *nm)
{
    switch (nm->scope) {
    case HN_MACRO: sb_add(out, "a macro"); break;
    case HN_GLOBAL: sb_add(out, nm->origin == HN_LIBC ? "a function" : "a function or type"); break;
    case HN_FIELD: sb_printf(out, "a field of %s", nm->group); break;
    default: sb_printf(out, "an argument or variable of %s", nm->group); break;
    }
}

void hn_clash_text(strbuf *out, const hn_clash *c, const char *label_a, const char *label_b)
{
    const hn_name *a = c->a, *b = c->b;
    who(out, b);
    if (b->origin == HN_FIXED)
        sb_printf(out, "%s defines %s itself (", label_b, b->name);
    else
        sb_printf(out, "%s would make the header define %s (", label_b, b->name);
    role(out, b);
    if (a->origin == HN_LIBC) {
        sb_add(out, "), a name of <math.h> or <string.h> (");
    } else if (a->origin == HN_FIXED) {
        sb_printf(out, "), a name the header%s defines for itself (", label_a);
    } else {
        sb_add(out, "), as ");
        who(out, a);
        sb_printf(out, "%s does (", label_a);
    }
    role(out, a);
    sb_add(out, "): ");
    bool fixed_a = a->origin == HN_FIXED || a->origin == HN_LIBC, fixed_b = b->origin == HN_FIXED;
    if (fixed_a && fixed_b)
        sb_add(out, "give the kernel blocks prefixes that do not overlap (kernel K as NAME: the prefix NAME; or "
                    "emit header \"...\" prefix P)");
    else if (fixed_a)
        sb_add(out, b->origin == HN_PARAM  ? "rename the param"
                    : b->origin == HN_SIZE ? "rename the size variable"
                                           : "rename the let");
    else if (c->la != c->lb)
        sb_add(out,
               "rename one, or give the kernel blocks prefixes that do not overlap (emit header \"...\" prefix P)");
    else
        sb_add(out, "rename one");
}
