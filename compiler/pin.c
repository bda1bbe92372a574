/* pin.c - a space restricted to given configurations (see pin.h).
 *
 * What the restriction adds to the model, for configurations c1 .. cn:
 *   - for each param that every configuration names: one constraint reading that param
 *     alone, "p == v1 or p == v2 ..." (its distinct values), so that counting and
 *     listing prune it as soon as the param is fixed, never after the others;
 *   - for n > 1: one constraint "(c1's equalities) or (c2's) or ...", which keeps the
 *     union from growing into the product of the values (a=1,b=2 and a=3,b=4 are two
 *     configurations, not four).
 * Disjunctions and conjunctions are built as balanced trees, so their depth grows
 * with the logarithm of their size. */
#include "pin.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../base/suggest.h"
#include "../base/utf8.h"
#include "eval.h"
#include "space.h"

/* One configuration as read: a domain index per param, or -1 where it names none. */
typedef struct pin_config {
    const char *text;
    int64_t *index; /* nparams */
} pin_config;

typedef struct pin_ctx {
    model *m;
    arena *a;
    const char *why;
    bool oom;
} pin_ctx;

static void *pin_alloc(pin_ctx *c, size_t size)
{
    void *p = arena_alloc(c->a, size ? size : 1);
    if (!p)
        c->oom = true;
    else
        memset(p, 0, size ? size : 1);
    return p;
}

/* Reads `text` (trimmed) as a value of type `t` into *out. False when it is not one. */
static bool read_value(pin_ctx *c, const char *text, vtype t, value *out)
{
    char *end;
    switch (t) {
    case VT_INT: {
        char digits[128];
        value_strip_separators(text, digits, sizeof digits);
        bool hex = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
        errno = 0;
        long long i = strtoll(hex ? digits + 2 : digits, &end, hex ? 16 : 10);
        if (!*digits || *end || errno || (hex && !digits[2]) || strlen(text) >= sizeof digits)
            return false;
        *out = value_int(i);
        return true;
    }
    case VT_FLOAT: {
        errno = 0;
        double d = strtod(text, &end);
        if (!*text || *end || errno == ERANGE)
            return false;
        *out = value_float(d);
        return true;
    }
    case VT_BOOL:
        if (strcmp(text, "true") != 0 && strcmp(text, "false") != 0)
            return false;
        *out = value_bool(text[0] == 't');
        return true;
    case VT_STRING:
        if (utf8_check(text, strlen(text)) != strlen(text))
            return false;
        *out = value_string(arena_strdup(c->a, text));
        if (!out->u.s)
            c->oom = true;
        return out->u.s != NULL;
    default: return false;
    }
}

/* The first values of param p, for a message: "32, 64, 128" or "1, 2, 3, ... (1000 values)". */
static const char *some_values(pin_ctx *c, const m_param *p)
{
    strbuf sb = STRBUF_INIT;
    uint64_t shown = p->dom.size <= 8 ? p->dom.size : 6;
    for (uint64_t i = 0; i < shown; i++) {
        sb_add(&sb, i ? ", " : "");
        value_format(model_domain_at(&p->dom, i), &sb, p->dom.type == VT_STRING);
    }
    if (shown < p->dom.size)
        sb_printf(&sb, ", ... (%llu values)", (unsigned long long)p->dom.size);
    const char *s = sb_ok(&sb) ? arena_strdup(c->a, sb_cstr(&sb)) : NULL;
    sb_free(&sb);
    if (!s)
        c->oom = true;
    return s ? s : "";
}

/* Sets c->why to "--config TEXT: " + the message. Returns -1 (-2 when out of memory). */
static int refuse(pin_ctx *c, const char *text, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int refuse(pin_ctx *c, const char *text, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = arena_vprintf(c->a, fmt, ap);
    va_end(ap);
    c->why = msg ? arena_printf(c->a, "--config %s: %s", text, msg) : NULL;
    if (!c->why)
        c->oom = true;
    return c->oom ? -2 : -1;
}

/* Reads configuration `text` into *out. 0, -1 (c->why says why) or -2. */
static int read_config(pin_ctx *c, const char *text, pin_config *out)
{
    model *m = c->m;
    out->text = text;
    out->index = pin_alloc(c, sizeof(int64_t) * (size_t)m->nparams);
    char *copy = arena_strdup(c->a, text);
    if (!out->index || !copy)
        return -2;
    for (int i = 0; i < m->nparams; i++)
        out->index[i] = -1;
    int named = 0;
    for (char *item = copy, *next; item; item = next) {
        next = strchr(item, ',');
        if (next)
            *next++ = '\0';
        item += strspn(item, " \t");
        char *eq = strchr(item, '=');
        if (!eq || eq == item)
            return refuse(c, text, "'%s' is not NAME=VALUE", item);
        char *name_end = eq;
        while (name_end > item && (name_end[-1] == ' ' || name_end[-1] == '\t'))
            name_end--;
        *name_end = '\0';
        char *val = eq + 1;
        val += strspn(val, " \t");
        for (size_t n = strlen(val); n && (val[n - 1] == ' ' || val[n - 1] == '\t'); n--)
            val[n - 1] = '\0';
        int p = -1;
        for (int i = 0; i < m->nparams && p < 0; i++)
            if (strcmp(m->params[i].name, item) == 0)
                p = i;
        if (p < 0) {
            bool is_let = false;
            for (int i = 0; i < m->nlets && !is_let; i++)
                is_let = strcmp(m->lets[i].name, item) == 0;
            if (is_let)
                return refuse(c, text, "'%s' is a let, not a param (--set NAME=VALUE sets a let)", item);
            const char **names = pin_alloc(c, sizeof(char *) * (size_t)(m->nparams + 1));
            if (!names)
                return -2;
            for (int i = 0; i < m->nparams; i++)
                names[i] = m->params[i].name;
            const char *best = suggest_best(item, names, (size_t)m->nparams);
            if (best)
                return refuse(c, text, "the kernel %s has no param '%s'; did you mean '%s'?", m->kernel, item, best);
            strbuf all = STRBUF_INIT;
            for (int i = 0; i < m->nparams; i++)
                sb_printf(&all, "%s%s", i ? ", " : "", names[i]);
            int rc = refuse(c, text, "the kernel %s has no param '%s' (its params: %s)", m->kernel, item,
                            m->nparams ? sb_cstr(&all) : "none");
            sb_free(&all);
            return rc;
        }
        const m_param *par = &m->params[p];
        if (out->index[p] >= 0)
            return refuse(c, text, "param '%s' is given twice", item);
        value v;
        int64_t k = -1;
        if (read_value(c, val, par->dom.type, &v))
            k = model_domain_find(&par->dom, v);
        else if (par->dom.type == VT_FLOAT && read_value(c, val, VT_INT, &v))
            k = model_domain_find(&par->dom, value_float((double)v.u.i));
        if (c->oom)
            return -2;
        if (k < 0)
            return refuse(c, text, "%s%s%s is not a value of param '%s' (its values: %s)",
                          par->dom.type == VT_STRING ? "\"" : "'", val, par->dom.type == VT_STRING ? "\"" : "'", item,
                          some_values(c, par));
        out->index[p] = k;
        named++;
    }
    return named ? 0 : refuse(c, text, "names no param");
}

/* ---- the constraints ---------------------------------------------------------------- */

static texpr *node(pin_ctx *c, texpr_kind kind, vtype type)
{
    texpr *t = pin_alloc(c, sizeof *t);
    if (t) {
        t->kind = kind;
        t->type = type;
        t->loc = c->m->kernel_loc;
        t->depth = 1;
    }
    return t;
}

/* "param p == its value k". */
static texpr *equals(pin_ctx *c, int p, int64_t k)
{
    texpr *param = node(c, TX_PARAM, c->m->params[p].dom.type);
    texpr *konst = node(c, TX_CONST, c->m->params[p].dom.type);
    texpr *chain = node(c, TX_CHAIN, VT_BOOL);
    texpr **operands = pin_alloc(c, 2 * sizeof(texpr *));
    ast_op *ops = pin_alloc(c, sizeof(ast_op));
    if (!param || !konst || !chain || !operands || !ops)
        return NULL;
    param->u.index = p;
    param->deps = (param_set)1 << p;
    konst->u.k = model_domain_at(&c->m->params[p].dom, (uint64_t)k);
    model_chain_of_two(chain, operands, ops, param, OP_EQ, konst);
    chain->depth = 2;
    return chain;
}

/* parts[0 .. n) joined by `op` (OP_AND, OP_OR) as a balanced tree; NULL for n == 0. */
static texpr *join(pin_ctx *c, ast_op op, texpr **parts, int n)
{
    if (n <= 0)
        return NULL;
    if (n == 1)
        return parts[0];
    texpr *a = join(c, op, parts, n / 2), *b = join(c, op, parts + n / 2, n - n / 2);
    texpr *t = a && b ? node(c, TX_BINARY, VT_BOOL) : NULL;
    if (!t)
        return NULL;
    t->u.op.op = op;
    t->u.op.a = a;
    t->u.op.b = b;
    t->deps = a->deps | b->deps;
    t->depth = 1 + (a->depth > b->depth ? a->depth : b->depth);
    return t;
}

/* The constraints for configs[0 .. n) (see the opening comment) into *out, *nout. */
static int constraints(pin_ctx *c, const pin_config *configs, int n, m_require **out, int *nout)
{
    model *m = c->m;
    m_require *reqs = pin_alloc(c, sizeof(m_require) * (size_t)(m->nparams + 1));
    texpr **parts = pin_alloc(c, sizeof(texpr *) * (size_t)(n > m->nparams ? n : m->nparams) + 1);
    if (!reqs || !parts)
        return -2;
    int k = 0;
    for (int p = 0; p < m->nparams; p++) {
        int np = 0;
        bool everywhere = true;
        for (int i = 0; i < n && everywhere; i++) {
            everywhere = configs[i].index[p] >= 0;
            bool seen = false;
            for (int j = 0; j < i && everywhere && !seen; j++)
                seen = configs[j].index[p] == configs[i].index[p];
            if (everywhere && !seen && !(parts[np++] = equals(c, p, configs[i].index[p])))
                return -2;
        }
        if (!everywhere)
            continue;
        if (!(reqs[k].expr = join(c, OP_OR, parts, np)))
            return -2;
        reqs[k].loc = m->kernel_loc;
        reqs[k++].pin = true;
    }
    if (n > 1) {
        texpr **alts = pin_alloc(c, sizeof(texpr *) * (size_t)n);
        if (!alts)
            return -2;
        for (int i = 0; i < n; i++) {
            int np = 0;
            for (int p = 0; p < m->nparams; p++)
                if (configs[i].index[p] >= 0 && !(parts[np++] = equals(c, p, configs[i].index[p])))
                    return -2;
            if (!(alts[i] = join(c, OP_AND, parts, np)))
                return -2;
        }
        if (!(reqs[k].expr = join(c, OP_OR, alts, n)))
            return -2;
        reqs[k].loc = m->kernel_loc;
        reqs[k++].pin = true;
    }
    *out = reqs;
    *nout = k;
    return 0;
}

/* Whether the spec's constraints allow some configuration of `cfg`: 0 when they do,
 * -1 with c->why when they exclude it (naming the require a whole configuration
 * breaks), -2 out of memory. */
static int allowed(pin_ctx *c, const pin_config *cfg)
{
    model *m = c->m;
    m_require *reqs;
    int nreqs;
    int rc = constraints(c, cfg, 1, &reqs, &nreqs);
    if (rc < 0)
        return rc;
    model one = *m; /* the spec's constraints, then this configuration's */
    one.requires = pin_alloc(c, sizeof(m_require) * (size_t)(m->nrequires + nreqs + 1));
    if (!one.requires)
        return -2;
    if (m->nrequires)
        memcpy(one.requires, m->requires, sizeof(m_require) * (size_t)m->nrequires);
    memcpy(one.requires + m->nrequires, reqs, sizeof(m_require) * (size_t)nreqs);
    one.nrequires = m->nrequires + nreqs;
    space *sp = NULL;
    if (space_new(&sp, &one, NULL, 0) < 0)
        return -2;
    space_count_result r;
    eval_error err;
    rc = space_count_ex(sp, NULL, &r, &err);
    space_free(sp);
    if (rc < 0)
        return refuse(c, cfg->text, "a constraint fails to evaluate for it: %s", err.message);
    if (r.count > 0 || r.at_least > 0 || !r.exact)
        return 0;
    bool whole = true;
    for (int p = 0; p < m->nparams; p++)
        whole &= cfg->index[p] >= 0;
    if (!whole)
        return refuse(c, cfg->text, "the spec's constraints exclude every configuration with these values");
    value *vals = pin_alloc(c, sizeof(value) * (size_t)(m->nparams + 1));
    if (!vals)
        return -2;
    for (int p = 0; p < m->nparams; p++)
        vals[p] = model_domain_at(&m->params[p].dom, (uint64_t)cfg->index[p]);
    eval_env env = {m, vals, false, 0.0, NULL, false, 0.0, 0.0};
    for (int i = 0; i < m->nrequires; i++) {
        bool holds = true;
        if (eval_bool(m->requires[i].expr, &env, &holds, &err) == 0 && !holds) {
            unsigned line = 0, col = 0;
            if (m->src)
                src_position(m->src, m->requires[i].loc.begin, &line, &col);
            return refuse(c, cfg->text, "the spec's constraints exclude it: it breaks the require at %s:%u:%u",
                          m->src ? m->src->path : "the spec", line, col);
        }
    }
    return refuse(c, cfg->text, "the spec's constraints exclude it");
}

int pin_apply(model *m, const char *const *configs, int n, const char **why)
{
    *why = NULL;
    if (m->pinned)
        return 0;
    pin_ctx c = {m, m->arena, NULL, false};
    if (n < 1)
        return 0;
    pin_config *read = pin_alloc(&c, sizeof(pin_config) * (size_t)n);
    if (!read)
        return -2;
    for (int i = 0; i < n; i++) {
        int rc = read_config(&c, configs[i], &read[i]);
        if (rc == 0)
            rc = allowed(&c, &read[i]);
        if (rc < 0) {
            *why = c.why;
            return c.oom ? -2 : rc;
        }
    }
    m_require *reqs;
    int nreqs;
    if (constraints(&c, read, n, &reqs, &nreqs) < 0)
        return -2;
    m_require *all = pin_alloc(&c, sizeof(m_require) * (size_t)(m->nrequires + nreqs + 1));
    if (!all)
        return -2;
    if (m->nrequires)
        memcpy(all, m->requires, sizeof(m_require) * (size_t)m->nrequires);
    memcpy(all + m->nrequires, reqs, sizeof(m_require) * (size_t)nreqs);
    m->requires = all;
    m->nrequires += nreqs;
    m->pinned = true;
    return 0;
}
