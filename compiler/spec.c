/* spec.c - the loaded spec's helpers (see spec.h). */
#include "spec.h"

#include <stdlib.h>
#include <string.h>

#include "../base/err.h"
#include "hnames.h"
#include "pin.h"

const char *spec_render(cutune_spec *spec, int from, bool color)
{
    sb_reset(&spec->rendered);
    diag_list view = spec->diags;
    if (from < 0)
        from = 0;
    if (from > view.len)
        from = view.len;
    if (from > 0)
        view.items += from; /* never an offset on an empty list's NULL items */
    view.len -= from;
    view.dropped = from == 0 ? spec->diags.dropped : 0;
    diag_render(&view, &spec->rendered, color);
    return sb_ok(&spec->rendered) ? sb_cstr(&spec->rendered) : NULL;
}

int spec_eval_failed(cutune_spec *spec, const eval_error *err)
{
    diag_error(&spec->diags, err->loc, "%s", err->message);
    return CUTUNE_EEVAL;
}

/* ---- problem sizes ------------------------------------------------------------------ */

int spec_size_count(const cutune_spec *spec)
{
    const m_sizes *sz = &spec->model->sizes;
    return sz->nvars > 0 ? sz->count : 1;
}

const char *spec_size_label(const cutune_spec *spec, int k)
{
    const model *m = spec->model;
    const m_sizes *sz = &m->sizes;
    if (sz->nvars == 0 || k < 0 || k >= sz->count)
        return "";
    strbuf sb = STRBUF_INIT;
    for (int j = 0; j < sz->nvars; j++)
        sb_printf(&sb, "%s%s=%lld", j ? "," : "", m->lets[sz->lets[j]].name, (long long)sz->values[k * sz->nvars + j]);
    const char *out = sb_ok(&sb) ? arena_strdup(spec->arena, sb_cstr(&sb)) : NULL;
    sb_free(&sb);
    return out;
}

int spec_select_size(cutune_spec *spec, int k)
{
    model *m = spec->model;
    if (k < 0 || k >= spec_size_count(spec))
        return CUTUNE_EINVAL;
    if (m->sizes.nvars == 0 || k == m->sizes.selected)
        return CUTUNE_OK;
    if (!spec->size_models) {
        spec->size_models = arena_alloc(spec->arena, sizeof(model *) * (size_t)m->sizes.count);
        if (!spec->size_models)
            return CUTUNE_ENOMEM;
        spec->size_models[m->sizes.selected] = m;
    }
    if (!spec->size_models[k]) {
        /* Checked again with size k: its own diagnostics in a list of their own, so
         * that the warnings of the first check are not repeated; errors (a domain or a
         * constant that fails at this size only) are copied with a note. */
        const char *label = spec_size_label(spec, k);
        sema_options so = spec->sema_opts;
        so.size_index = k;
        so.sizes = &m->sizes; /* the same block, options and device: the same sizes */
        diag_list dl;
        diag_init(&dl, spec->arena, spec->src);
        model *mk = NULL;
        int rc = sema_check(&mk, spec->arena, spec->unit ? spec->unit : spec->ast, &so, &dl);
        if (rc < 0 || !mk) {
            if (dl.out_of_memory || !label)
                return CUTUNE_ENOMEM;
            bool after_error = false;
            for (int i = 0; i < dl.len; i++) {
                const diag *d = &dl.items[i];
                if (d->severity != DIAG_NOTE)
                    after_error = d->severity == DIAG_ERROR;
                if (d->severity == DIAG_ERROR) {
                    if (d->has_loc)
                        diag_error(&spec->diags, d->loc, "%s", d->message);
                    else
                        diag_error_noloc(&spec->diags, "%s", d->message);
                    diag_note(&spec->diags, false, d->loc, "at the size %s", label);
                } else if (d->severity == DIAG_NOTE && after_error) {
                    diag_note(&spec->diags, d->has_loc, d->loc, "%s", d->message);
                }
            }
            return CUTUNE_ESPEC;
        }
        spec->size_models[k] = mk;
    }
    spec->model = spec->size_models[k];
    return spec_pin_model(spec);
}

/* ---- several kernel blocks ----------------------------------------------------------- */

int spec_kernel_count(const cutune_spec *spec)
{
    return spec->nkernels > 0 ? spec->nkernels : 1;
}

int spec_select_kernel(cutune_spec *spec, int i)
{
    if (i < 0 || i >= spec_kernel_count(spec))
        return CUTUNE_EINVAL;
    if (spec->nkernels <= 1 || i == spec->kernel)
        return CUTUNE_OK;
    spec->kernel_size_models[spec->kernel] = spec->size_models;
    spec->kernel_models[spec->kernel] = spec->model;
    spec->kernel = i;
    spec->model = spec->kernel_models[i];
    spec->size_models = spec->kernel_size_models[i];
    const ast_spec *u = spec->ast;
    for (int k = 0; k < i; k++)
        u = u->next;
    spec->unit = u;
    return spec_pin_model(spec);
}

/* ---- a space restricted to given configurations ---------------------------------------- */

int spec_restrict(cutune_spec *spec, const char *const *configs, int n)
{
    int nk = spec_kernel_count(spec), k = spec->nkernels > 1 ? spec->kernel : 0;
    if (n < 1 || !configs)
        return err_set(CUTUNE_EINVAL, "no configuration to restrict the space to");
    if (!spec->pins) {
        spec->pins = arena_alloc(spec->arena, sizeof(const char **) * (size_t)nk);
        spec->npins = arena_alloc(spec->arena, sizeof(int) * (size_t)nk);
        if (!spec->pins || !spec->npins)
            return err_set(CUTUNE_ENOMEM, "out of memory");
        memset(spec->pins, 0, sizeof(const char **) * (size_t)nk);
        memset(spec->npins, 0, sizeof(int) * (size_t)nk);
    }
    if (spec->pins[k])
        return err_set(CUTUNE_EINVAL, "the kernel block %s is restricted already: give every configuration at once",
                       spec->model->kernel);
    const char **copy = arena_alloc(spec->arena, sizeof(char *) * (size_t)n);
    for (int i = 0; copy && i < n; i++)
        if (!configs[i] || !(copy[i] = arena_strdup(spec->arena, configs[i])))
            return configs[i] ? err_set(CUTUNE_ENOMEM, "out of memory")
                              : err_set(CUTUNE_EINVAL, "configuration %d is NULL", i);
    if (!copy)
        return err_set(CUTUNE_ENOMEM, "out of memory");
    const char *why;
    int rc = pin_apply(spec->model, copy, n, &why);
    if (rc < 0)
        return rc == -1 ? err_set(CUTUNE_EINVAL, "%s", why) : err_set(CUTUNE_ENOMEM, "out of memory");
    spec->pins[k] = copy;
    spec->npins[k] = n;
    return CUTUNE_OK;
}

int spec_pin_model(cutune_spec *spec)
{
    int k = spec->nkernels > 1 ? spec->kernel : 0;
    if (!spec->pins || !spec->pins[k] || !spec->model || spec->model->pinned)
        return CUTUNE_OK;
    const char *why;
    int rc = pin_apply(spec->model, spec->pins[k], spec->npins[k], &why);
    if (rc == -1) {
        diag_error_noloc(&spec->diags, "%s", why);
        return CUTUNE_ESPEC;
    }
    return rc < 0 ? CUTUNE_ENOMEM : CUTUNE_OK;
}

/* A clash of one emit kind between kernel blocks a and b (paths or prefixes): an error
 * at b's kernel, a note at a's. */
static void clash(cutune_spec *spec, int ia, const model *a, int ib, const model *b, const char *what, const char *text)
{
    bool prefix = strcmp(what, "header prefix") == 0;
    diag_error(&spec->diags, b->kernel_loc,
               "kernel block %d ('%s') has the same %s as kernel block %d ('%s'): %s; each kernel block needs its "
               "own (%s)",
               ib + 1, b->block_name, what, ia + 1, a->block_name, text,
               prefix ? "name the blocks: kernel NAME as BLOCK, or emit header ... prefix P" : "another path");
    diag_note(&spec->diags, true, a->kernel_loc, "kernel block %d is here", ia + 1);
}

/* Block names (`kernel K as NAME`) are what --kernel selects: a block's own name may
 * not be another block's name (its own, or its kernel's when it has none). An error at
 * the later block's name, a note at the other. */
static void check_block_names(cutune_spec *spec, model *const *models, const ast_spec *first, int n)
{
    const ast_spec *ub = first;
    for (int i = 0; i < n; i++, ub = ub->next) {
        const ast_spec *ua = first;
        for (int j = 0; j < i; j++, ua = ua->next) {
            const model *a = models[j], *b = models[i];
            if (strcmp(a->block_name, b->block_name) != 0 || (!ua->block.name && !ub->block.name))
                continue; /* two unnamed blocks of one kernel: --kernel K picks the first */
            diag_error(&spec->diags, b->block_name_loc,
                       "kernel block %d is named '%s', as kernel block %d is; each kernel block's name must be "
                       "its own (--kernel selects a block by it)",
                       i + 1, b->block_name, j + 1);
            diag_note(&spec->diags, true, a->block_name_loc, "kernel block %d's name is here", j + 1);
            break;
        }
    }
}

/* Where name nm of block m's header comes from: its param, size variable or let, else
 * the prefix. */
static span name_loc(const model *m, const hn_name *nm)
{
    switch (nm->origin) {
    case HN_PARAM: return m->params[nm->index].loc;
    case HN_SIZE: return m->lets[m->sizes.lets[nm->index]].loc;
    case HN_LET: return m->lets[nm->index].loc;
    default: return m->emit.header_prefix_loc;
    }
}

/* The header names of the n blocks (models[0 .. n), the file's blocks numbers[0 .. n),
 * counted from 1), checked together (compiler/hnames.h): the first clash as an error at
 * the later name, a note at the other. CUTUNE_OK, CUTUNE_ESPEC or CUTUNE_ENOMEM. */
static int check_header_names(cutune_spec *spec, model *const *models, const int *numbers, int n)
{
    hn_list **lists = calloc((size_t)n, sizeof *lists);
    int rc = lists ? CUTUNE_OK : CUTUNE_ENOMEM;
    for (int k = 0; rc == CUTUNE_OK && k < n; k++) {
        const model *m = models[k];
        const char **params = arena_alloc(spec->arena, sizeof(char *) * (size_t)(m->nparams + 1));
        const char **lets = arena_alloc(spec->arena, sizeof(char *) * (size_t)(m->nlets + 1));
        const char **vars = arena_alloc(spec->arena, sizeof(char *) * (size_t)(m->sizes.nvars + 1));
        if (!params || !lets || !vars) {
            rc = CUTUNE_ENOMEM;
            break;
        }
        for (int i = 0; i < m->nparams; i++)
            params[i] = m->params[i].name;
        for (int i = 0; i < m->nlets; i++)
            lets[i] = m->lets[i].name;
        for (int j = 0; j < m->sizes.nvars; j++)
            vars[j] = m->lets[m->sizes.lets[j]].name;
        hn_block b = {m->emit.header_prefix, m->nparams, params, m->sizes.nvars, vars, m->nlets, lets};
        rc = hn_collect(&lists[k], &b);
    }
    hn_clash c;
    if (rc == CUTUNE_OK && hn_clash_find((const hn_list *const *)lists, n, &c)) {
        const model *ma = models[c.la], *mb = models[c.lb];
        strbuf text = STRBUF_INIT, la = STRBUF_INIT, lb = STRBUF_INIT;
        if (n > 1) {
            sb_printf(&la, " of kernel block %d ('%s')", numbers[c.la], ma->block_name);
            sb_printf(&lb, " of kernel block %d ('%s')", numbers[c.lb], mb->block_name);
        }
        hn_clash_text(&text, &c, sb_cstr(&la), sb_cstr(&lb));
        diag_error(&spec->diags, name_loc(mb, c.b), "%s",
                   sb_ok(&text) ? sb_cstr(&text) : "two names of the header clash");
        if (c.a->origin == HN_FIXED)
            diag_note(&spec->diags, true, name_loc(ma, c.a), "the prefix %s is from here", ma->emit.header_prefix);
        else if (c.a->origin != HN_LIBC)
            diag_note(&spec->diags, true, name_loc(ma, c.a), "%s is defined for this", c.a->name);
        sb_free(&text);
        sb_free(&la);
        sb_free(&lb);
        rc = CUTUNE_ESPEC;
    }
    for (int k = 0; lists && k < n; k++)
        hn_free(lists[k]);
    free(lists);
    return rc;
}

int spec_check_kernels(cutune_spec *spec)
{
    int n = 0;
    for (const ast_spec *u = spec->ast; u; u = u->next)
        n++;
    if (n <= 1)
        return check_header_names(spec, &spec->model, (const int[]){1}, 1);
    spec->kernel_models = arena_alloc(spec->arena, sizeof(model *) * (size_t)n);
    spec->kernel_size_models = arena_alloc(spec->arena, sizeof(model **) * (size_t)n);
    if (!spec->kernel_models || !spec->kernel_size_models)
        return CUTUNE_ENOMEM;
    spec->nkernels = n;
    spec->kernel_models[0] = spec->model;
    spec->kernel_size_models[0] = spec->size_models;
    int errors = spec->diags.errors, k = 1;
    for (const ast_spec *u = spec->ast->next; u; u = u->next, k++) {
        sema_options so = spec->sema_opts;
        so.size_index = 0;
        if (!u->has_kernel)
            return CUTUNE_ESPEC;
        if (sema_check(&spec->kernel_models[k], spec->arena, u, &so, &spec->diags) < 0 && spec->diags.out_of_memory)
            return CUTUNE_ENOMEM;
    }
    if (spec->diags.errors != errors)
        return CUTUNE_ESPEC;
    check_block_names(spec, spec->kernel_models, spec->ast, n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++) {
            const model *a = spec->kernel_models[j], *b = spec->kernel_models[i];
            const m_emit *ea = &a->emit, *eb = &b->emit;
            /* prefixes meet only where both write a header (cutune emit header --spec
             * and --header FILE check the headers they write: cutune_header_names) */
            if (ea->header_path && eb->header_path && strcmp(ea->header_prefix, eb->header_prefix) == 0)
                clash(spec, j, a, i, b, "header prefix", ea->header_prefix);
            if (ea->results_path && eb->results_path && strcmp(ea->results_path, eb->results_path) == 0)
                clash(spec, j, a, i, b, "results path", ea->results_path);
            if (ea->csv_path && eb->csv_path && strcmp(ea->csv_path, eb->csv_path) == 0)
                clash(spec, j, a, i, b, "CSV path", ea->csv_path);
        }
    if (spec->diags.errors != errors)
        return CUTUNE_ESPEC;
    model **writing = arena_alloc(spec->arena, sizeof(model *) * (size_t)n); /* the blocks that write a header */
    int *numbers = arena_alloc(spec->arena, sizeof(int) * (size_t)n), nw = 0;
    if (!writing || !numbers)
        return CUTUNE_ENOMEM;
    for (int i = 0; i < n; i++)
        if (spec->kernel_models[i]->emit.header_path) {
            numbers[nw] = i + 1;
            writing[nw++] = spec->kernel_models[i];
        }
    return nw ? check_header_names(spec, writing, numbers, nw) : CUTUNE_OK;
}
