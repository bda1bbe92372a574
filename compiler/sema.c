/* sema.c - checks a syntax tree and builds the model (see sema.h).
 *
 * Order of work: collect every declared name (so statements may come in any order),
 * then settle params (their domains are constant expressions), then every other
 * statement. Lets, metrics and param domains are lowered on demand with cycle
 * detection, so `let a = b; let b = 2;` works and `let a = a + 1;` is an error.
 * A failed sub-expression becomes an error node (type VT_ERROR) that silences
 * follow-on errors, so each mistake is reported once.
 *
 * This file is the driver: it collects the names, runs the passes in order and is the
 * public entry; the passes live in sema_*.c (see sema_internal.h). */
#include "sema_internal.h"

#include <ctype.h>
#include <string.h>

#include "../base/suggest.h"
#include "rules.h"

/* The measured quantities a metric or the objective may read: the time in three units,
 * and the energy per launch and the mean power, when energy is measured. */
static const struct {
    const char *name;
    double scale;
    int measured;
} time_names[] = {{"time", 1.0, MQ_TIME},      {"time_s", 1.0, MQ_TIME},       {"time_ms", 1e3, MQ_TIME},
                  {"time_us", 1e6, MQ_TIME},   {"energy_J", 1.0, MQ_ENERGY_J}, {"energy_mJ", 1e3, MQ_ENERGY_J},
                  {"power_W", 1.0, MQ_POWER_W}};

void *sema_alloc(sema *s, size_t n)
{
    void *p = arena_alloc(s->a, n);
    if (!p)
        s->oom = true;
    return p;
}

const sym *sema_find_sym(const sema *s, const char *name)
{
    for (int i = 0; i < s->nsyms; i++)
        if (strcmp(s->syms[i].name, name) == 0)
            return &s->syms[i];
    return NULL;
}

static const char *sym_kind_name(sym_kind k)
{
    return k == SYM_PARAM ? "param" : k == SYM_LET ? "let" : k == SYM_METRIC ? "metric" : "built-in name";
}

/* Declares a name, reporting a clash with an earlier declaration. */
static void declare(sema *s, const char *name, span loc, sym_kind kind, int index)
{
    const sym *old = sema_find_sym(s, name);
    if (old) {
        if (old->kind == SYM_TIME)
            diag_error(s->dl, loc, "'%s' is a built-in name (the measured time); choose another name", name);
        else if (old->kind == SYM_DEVICE)
            diag_error(s->dl, loc, "'%s' is a built-in name (the device attribute: %s); choose another name", name,
                       dev_attr_what((dev_attr)old->index));
        else if (old->kind == kind)
            diag_error(s->dl, loc, "duplicate %s '%s'", sym_kind_name(kind), name);
        else
            diag_error(s->dl, loc, "'%s' is already declared as a %s", name, sym_kind_name(old->kind));
        if (old->kind != SYM_TIME && old->kind != SYM_DEVICE)
            diag_note(s->dl, true, old->loc, "'%s' was first declared here", name);
        return;
    }
    sym n = {name, loc, kind, index, 1.0};
    if (ARENA_PUSH(s->a, s->syms, s->nsyms, s->capsyms, n) < 0)
        s->oom = true;
}

void sema_declare(sema *s, const char *name, span loc, sym_kind kind, int index)
{
    declare(s, name, loc, kind, index);
}

/* An identifier suitable for a C macro: letters, digits and '_' (upper-cased). */
static const char *macro_prefix(sema *s, const char *name)
{
    char *p = arena_strdup(s->a, name);
    if (!p) {
        s->oom = true;
        return NULL;
    }
    for (char *c = p; *c; c++)
        *c = (char)toupper((unsigned char)*c);
    return p;
}

/* ---- the driver ------------------------------------------------------------------ */

static void collect(sema *s)
{
    model *m = s->m;
    const ast_spec *sp = s->spec;
    int np = 0, nl = 0, nm = 0;
    for (int i = 0; i < sp->len; i++) {
        ast_item_kind k = sp->items[i]->kind;
        np += k == IT_PARAM;
        nl += k == IT_LET;
        nl += k == IT_SIZE ? sp->items[i]->u.size.names.len : 0;
        nm += k == IT_METRIC;
    }
    m->params = sema_alloc(s, sizeof(m_param) * (size_t)(np + 1));
    m->lets = sema_alloc(s, sizeof(m_let) * (size_t)(nl + 1));
    m->metrics = sema_alloc(s, sizeof(m_metric) * (size_t)(nm + 1));
    s->param_items = sema_alloc(s, sizeof(ast_item *) * (size_t)(np + 1));
    s->let_items = sema_alloc(s, sizeof(ast_item *) * (size_t)(nl + 1));
    s->metric_items = sema_alloc(s, sizeof(ast_item *) * (size_t)(nm + 1));
    s->param_state = sema_alloc(s, sizeof(int) * (size_t)(np + 1));
    s->let_state = sema_alloc(s, sizeof(int) * (size_t)(nl + 1));
    s->let_stack = sema_alloc(s, sizeof(int) * (size_t)(nl + 1));
    s->metric_state = sema_alloc(s, sizeof(int) * (size_t)(nm + 1));
    if (s->oom)
        return;
    for (size_t i = 0; i < sizeof time_names / sizeof *time_names; i++) {
        sym t = {time_names[i].name, {0, 0}, SYM_TIME, time_names[i].measured, time_names[i].scale};
        if (ARENA_PUSH(s->a, s->syms, s->nsyms, s->capsyms, t) < 0)
            s->oom = true;
    }
    for (int i = 0; i < DA_COUNT; i++) { /* the device attributes: built in, like the time */
        sym t = {dev_attr_name((dev_attr)i), {0, 0}, SYM_DEVICE, i, 1.0};
        if (ARENA_PUSH(s->a, s->syms, s->nsyms, s->capsyms, t) < 0)
            s->oom = true;
    }
    for (int i = 0; i < sp->len; i++) {
        const ast_item *it = sp->items[i];
        if (it->kind == IT_PARAM) {
            if (m->nparams == MODEL_MAX_PARAMS) {
                diag_error(s->dl, it->u.param.name.loc, "too many params: at most %d are supported", MODEL_MAX_PARAMS);
                continue;
            }
            m_param *p = &m->params[m->nparams];
            p->name = it->u.param.name.name;
            p->loc = it->u.param.name.loc;
            p->dom.type = VT_ERROR;
            s->param_items[m->nparams] = it;
            declare(s, p->name, p->loc, SYM_PARAM, m->nparams);
            m->nparams++;
        } else if (it->kind == IT_LET) {
            m_let *l = &m->lets[m->nlets];
            l->name = it->u.let.name.name;
            l->loc = it->u.let.name.loc;
            if (it->u.let.as_define) {
                l->macro = it->u.let.define.name ? it->u.let.define.name : l->name;
                l->macro_loc = it->u.let.define.name ? it->u.let.define.loc : it->u.let.define_loc;
            }
            l->size_var = -1;
            s->let_items[m->nlets] = it;
            declare(s, l->name, l->loc, SYM_LET, m->nlets);
            m->nlets++;
        } else if (it->kind == IT_SIZE) {
            sema_collect_size(s, it); /* its variables are lets (sema_size.c) */
        } else if (it->kind == IT_METRIC) {
            m_metric *mt = &m->metrics[m->nmetrics];
            mt->name = it->u.let.name.name;
            mt->loc = it->u.let.name.loc;
            s->metric_items[m->nmetrics] = it;
            declare(s, mt->name, mt->loc, SYM_METRIC, m->nmetrics);
            m->nmetrics++;
        }
    }
    for (int i = 0; s->opts && i < s->opts->noverrides; i++) {
        const sym *sy = sema_find_sym(s, s->opts->overrides[i].name);
        if (sy && sy->kind == SYM_LET)
            continue;
        const char **names = sema_alloc(s, sizeof(char *) * (size_t)(m->nlets + 1));
        for (int j = 0; names && j < m->nlets; j++)
            names[j] = m->lets[j].name;
        const char *best = names ? suggest_best(s->opts->overrides[i].name, names, (size_t)m->nlets) : NULL;
        if (sy)
            diag_error_noloc(s->dl, "--set %s: '%s' is a %s; only lets can be set from outside",
                             s->opts->overrides[i].name, s->opts->overrides[i].name, sym_kind_name(sy->kind));
        else if (best)
            diag_error_noloc(s->dl, "--set %s: the spec has no let named '%s'; did you mean '%s'?",
                             s->opts->overrides[i].name, s->opts->overrides[i].name, best);
        else
            diag_error_noloc(s->dl, "--set %s: the spec has no let named '%s'", s->opts->overrides[i].name,
                             s->opts->overrides[i].name);
    }
}

/* check_kernel: the kernel, its file and its template arguments (no float among them). */
static void check_kernel(sema *s)
{
    model *m = s->m;
    const ast_spec *sp = s->spec;
    m->kernel = sp->kernel.name;
    m->kernel_loc = sp->kernel.loc;
    m->block_name = sp->block.name ? sp->block.name : sp->kernel.name;
    m->block_name_loc = sp->block.name ? sp->block.loc : sp->kernel.loc;
    m->kernel_file = sema_resolve_path(s, sp->file);
    if (m->kernel_file)
        sema_check_file(s, m->kernel_file, sp->file_loc, false, "kernel file");
    m->has_targs = sp->has_targs;
    m->ntargs = sp->targs.len;
    m->targs = sema_alloc(s, sizeof(texpr *) * (size_t)(sp->targs.len + 1));
    for (int i = 0; m->targs && i < sp->targs.len; i++) {
        texpr *t = sema_lower(s, sp->targs.items[i], CX_PARAMS | CX_CTYPE);
        if (t && t->type == VT_FLOAT) {
            diag_error(s->dl, t->loc, "a template argument cannot be a float%s",
                       sema_divides(s, sp->targs.items[i], 0) ? " ('/' divides exactly; use '//' or cdiv() for whole "
                                                                "numbers)"
                                                              : "");
            t = sema_error_node(s, t->loc);
        }
        m->targs[i] = t;
        if (t)
            s->used |= t->deps;
    }
}

/* check_items: every statement but params, lets and metrics (args first, so that verify
 * may name any), then what needs them all: block and grid present, one smem source, the
 * reference configuration, every let and metric settled, the header prefix. */
static void check_items(sema *s)
{
    model *m = s->m;
    const ast_spec *sp = s->spec;
    const ast_item *first_block = NULL, *first_grid = NULL, *first_smem = NULL, *first_verify = NULL;
    const ast_item *first_objective = NULL, *first_search = NULL, *first_measure = NULL, *first_compat = NULL;
    const ast_item *emits[3] = {NULL, NULL, NULL};
    int nargs = 0;
    for (int i = 0; i < sp->len; i++)
        nargs += sp->items[i]->kind == IT_ARG;
    m->args = sema_alloc(s, sizeof(m_arg) * (size_t)(nargs + 1));
    if (!m->args)
        return;
    /* Args first, so verify can refer to any of them wherever it stands. */
    for (int i = 0; i < sp->len; i++) {
        const ast_item *it = sp->items[i];
        if (it->kind != IT_ARG)
            continue;
        int k = sema_find_arg(m, it->u.arg.name.name);
        if (k >= 0) {
            diag_error(s->dl, it->u.arg.name.loc, "duplicate argument '%s'", it->u.arg.name.name);
            diag_note(s->dl, true, m->args[k].loc, "first declared here");
            continue;
        }
        sema_check_arg(s, it, &m->args[m->nargs++]);
    }
    for (int i = 0; i < sp->len; i++) {
        const ast_item *it = sp->items[i];
        switch (it->kind) {
        case IT_INCLUDE:
            for (int k = 0; k < it->u.strings.len; k++) {
                const char *dir = sema_resolve_path(s, it->u.strings.items[k]->u.sval);
                if (!dir)
                    return;
                sema_check_file(s, dir, it->u.strings.items[k]->loc, true, "include folder");
                if (ARENA_PUSH(s->a, m->includes, m->nincludes, s->caps[CAP_INCLUDES], dir) < 0)
                    s->oom = true;
            }
            break;
        case IT_OPTIONS:
            for (int k = 0; k < it->u.strings.len; k++) {
                const char *opt = it->u.strings.items[k]->u.sval;
                if (opt[0] != '-')
                    diag_error(s->dl, it->u.strings.items[k]->loc, "compile option \"%s\" does not start with '-'",
                               opt);
                if (ARENA_PUSH(s->a, m->options, m->noptions, s->caps[CAP_OPTIONS], opt) < 0)
                    s->oom = true;
            }
            break;
        case IT_PARAM:
        case IT_LET:
        case IT_METRIC:
        case IT_ARG: break;
        case IT_REQUIRE: {
            texpr *t = sema_lower_as(s, it->u.expr, CX_PARAMS, VT_BOOL, "a constraint");
            if (!t)
                return;
            if (t->type == VT_ERROR)
                break;
            if (t->kind == TX_CONST) {
                if (!t->u.k.u.b) {
                    diag_error(s->dl, it->u.expr->loc,
                               "this constraint is always false, so no configuration "
                               "satisfies it");
                } else {
                    diag_warning(s->dl, it->u.expr->loc, "this constraint is always true");
                }
                break;
            }
            m_require r = {t, it->u.expr->loc, false};
            s->used |= t->deps;
            if (ARENA_PUSH(s->a, m->requires, m->nrequires, s->caps[CAP_REQUIRES], r) < 0)
                s->oom = true;
            break;
        }
        case IT_BLOCK:
            if (sema_once(s, &first_block, it, "block"))
                m->block_dims = sema_lower_dims(s, &it->u.dims, it->loc, CX_PARAMS, m->block, "the block");
            break;
        case IT_GRID:
            if (sema_once(s, &first_grid, it, "grid"))
                m->grid_dims = sema_lower_dims(s, &it->u.dims, it->loc, CX_PARAMS, m->grid, "the grid");
            break;
        case IT_SMEM:
            if (sema_once(s, &first_smem, it, "smem")) {
                m->smem = sema_lower_as(s, it->u.expr, CX_PARAMS, VT_INT, "the dynamic shared memory size");
                if (m->smem && m->smem->kind == TX_CONST && m->smem->type == VT_INT && m->smem->u.k.u.i < 0)
                    diag_error(s->dl, m->smem->loc, "dynamic shared memory cannot be negative (%lld bytes)",
                               (long long)m->smem->u.k.u.i);
            }
            break;
        case IT_VERIFY:
            if (sema_once(s, &first_verify, it, "verify"))
                sema_check_verify(s, it);
            break;
        case IT_OBJECTIVE:
            if (sema_once(s, &first_objective, it, "objective")) {
                m->maximize = it->u.objective.maximize;
                texpr *t = sema_lower(s, it->u.objective.value, CX_PARAMS | CX_TIME);
                if (t && t->type != VT_ERROR && !is_num(t->type)) {
                    diag_error(s->dl, t->loc, "the objective must be a number, but it is %s", a_or_an(t->type));
                } else if (t && t->type != VT_ERROR && !t->uses_time) {
                    diag_error(s->dl, t->loc,
                               "the objective does not depend on the measured time, so measuring "
                               "cannot rank configurations (use time, or a metric of it)");
                } else if (t && t->type != VT_ERROR) {
                    const ast_expr *v = it->u.objective.value;
                    m->objective = t;
                    m->objective_name = v->kind == EX_NAME ? v->u.name : "objective";
                    if (!m->maximize && t->kind == TX_TIME && t->measured == MQ_TIME)
                        m->objective = NULL; /* minimise time: the default, kept simple */
                    else if (m->maximize && t->kind == TX_TIME && t->measured == MQ_TIME)
                        diag_warning(s->dl, it->u.objective.dir_loc,
                                     "maximizing the time picks the slowest "
                                     "configuration");
                }
            }
            break;
        case IT_SEARCH:
            if (sema_once(s, &first_search, it, "search"))
                sema_check_search(s, it);
            break;
        case IT_MEASURE:
            if (sema_once(s, &first_measure, it, "measure"))
                sema_check_measure(s, it);
            break;
        case IT_EMIT: sema_check_emit(s, it, emits); break;
        case IT_SIZE: sema_check_size(s, it); break;
        case IT_RESET: sema_check_reset(s, it); break;
        case IT_COMPAT: sema_once(s, &first_compat, it, "compat"); break;
        }
        if (s->oom)
            return;
    }
    span at = s->spec->kernel.loc;
    if (!first_block)
        diag_error(s->dl, at, "the spec has no 'block' statement: how many threads per block? (block (x, y);)");
    if (!first_grid)
        diag_error(s->dl, at, "the spec has no 'grid' statement: how many blocks? (grid cdiv(n, x);)");
    int smem_param = -1;
    for (int i = 0; i < m->nparams; i++) {
        if (m->params[i].route != ROUTE_SMEM)
            continue;
        if (first_smem) {
            diag_error(s->dl, m->params[i].loc,
                       "param '%s' is 'as smem' but the spec also has an 'smem' statement; "
                       "use one or the other",
                       m->params[i].name);
            diag_note(s->dl, true, first_smem->kw_loc, "the 'smem' statement is here");
            break;
        }
        if (smem_param >= 0) {
            diag_error(s->dl, m->params[i].loc,
                       "params '%s' and '%s' are both 'as smem'; only one can set the "
                       "dynamic shared memory size",
                       m->params[smem_param].name, m->params[i].name);
            diag_note(s->dl, true, m->params[smem_param].loc, "'%s' is 'as smem' here", m->params[smem_param].name);
            break;
        }
        smem_param = i;
        texpr *t = sema_node(s, TX_PARAM, VT_INT, m->params[i].loc);
        if (!t)
            return;
        t->u.index = i;
        t->deps = (param_set)1 << i;
        m->smem = t;
        s->used |= t->deps;
    }
    if (m->smem)
        s->used |= m->smem->deps;
    for (int d = 0; d < 3; d++) {
        if (d < m->block_dims && m->block[d])
            s->used |= m->block[d]->deps;
        if (d < m->grid_dims && m->grid[d])
            s->used |= m->grid[d]->deps;
    }
    if (first_compat) /* after the block and grid: it reads them */
        sema_check_compat(s, first_compat);
    if (!s->dl->errors)
        sema_check_reference(s);
    for (int i = 0; i < m->nmetrics; i++)
        sema_settle_metric(s, i, m->metrics[i].loc);
    for (int i = 0; i < m->nlets; i++)
        sema_settle_let(s, i, m->lets[i].loc);
    bool has_outputs = false;
    for (int i = 0; i < m->nargs; i++)
        has_outputs |= m->args[i].is_buffer && (m->args[i].dir == DIR_OUT || m->args[i].dir == DIR_INOUT);
    if (has_outputs && !first_verify)
        diag_warning(s->dl, at,
                     "no 'verify' statement: outputs will not be checked, so a variant that computes "
                     "the wrong answer could win");
    if (!m->emit.header_prefix) {
        m->emit.header_prefix = macro_prefix(s, m->block_name);
        m->emit.header_prefix_loc = m->block_name_loc;
    }
}

/* Routes and unused params, once every expression is lowered. */
static void check_params(sema *s)
{
    model *m = s->m;
    for (int i = 0; i < m->nparams; i++) {
        m_param *p = &m->params[i];
        if (p->dom.type == VT_ERROR)
            continue;
        param_set bit = (param_set)1 << i;
        if (p->route == ROUTE_TEMPLATE) {
            bool in_targs = false;
            for (int k = 0; k < m->ntargs; k++)
                in_targs |= m->targs[k] && (m->targs[k]->deps & bit);
            if (!in_targs)
                diag_error(s->dl, s->param_items[i]->u.param.route.loc,
                           "param '%s' is 'as template' but the "
                           "kernel's template arguments do not use it (kernel %s<%s, ...>)",
                           p->name, m->kernel, p->name);
        }
        /* After an error a use may be missing only because it failed (a misspelt name). */
        if (p->route == ROUTE_NONE && !(s->used & bit) && s->dl->errors == s->errors_before)
            diag_warning(s->dl, p->loc,
                         "param '%s' is 'as none' and no expression uses it, so its values only "
                         "repeat the same variant",
                         p->name);
    }
}

int sema_check(model **out, arena *a, const ast_spec *spec, const sema_options *opts, diag_list *dl)
{
    *out = NULL;
    sema s = {.a = a, .dl = dl, .spec = spec, .opts = opts, .errors_before = dl->errors};
    s.m = sema_alloc(&s, sizeof(model));
    if (!s.m)
        return -1;
    s.m->arena = a;
    s.m->src = spec->src;
    s.m->measure = (m_measure){.warmup = 3,
                               .repeat = 10,
                               .max_repeat = 100,
                               .spread = 0.02,
                               .flush_l2 = true,
                               .energy = false,
                               .energy_window_s = 0.2};
    s.m->search.strategy = STRAT_EXHAUSTIVE;
    if (opts && opts->device)
        s.m->device = *opts->device;
    collect(&s);
    for (int i = 0; !s.oom && i < s.m->nparams; i++) {
        sema_settle_param(&s, i);
        sema_check_param_route(&s, i);
    }
    if (!s.oom)
        check_kernel(&s);
    if (!s.oom)
        check_items(&s);
    if (!s.oom)
        check_params(&s);
    if (!s.oom) {
        /* whether energy must be measured, and whether the objective needs it */
        s.m->objective_energy = s.m->objective && model_reads_energy(s.m, s.m->objective);
        s.m->energy_used = s.m->objective_energy;
        for (int i = 0; i < s.m->nmetrics; i++)
            s.m->energy_used |= model_reads_energy(s.m, s.m->metrics[i].expr);
        rules_check(s.m, spec, dl);
    }
    if (s.oom || dl->out_of_memory)
        return -1;
    if (dl->errors != s.errors_before)
        return -1;
    *out = s.m;
    return 0;
}
