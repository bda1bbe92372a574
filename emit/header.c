/* header.c - the best-config header (hdr_emit, for the public emitter; docs/header.md): the
 * winner of one or more tuning runs (one per device), or a spec's default
 * configuration, as C macros, a configuration struct with a look-up by device, and
 * the launch geometry as inline functions of the problem size. The text is plain
 * C11 and C++ and compiles cleanly under -Wall -Wextra -pedantic and with nvcc.
 *
 * This file holds the entry points: the arguments checked, the header's entries made
 * (each result's winner and runner-up, or the default configuration) and checked, then
 * the text written (header_text.c, header_table.c; header_sizes.c for a run over sizes,
 * header_check.c for the names). Ownership: hdr_emit's text is the caller's; all else
 * lives in an arena freed before it returns. */
#include <stdint.h>
#include <string.h>

#include "../base/escape.h"
#include "../compiler/space.h"
#include "../compiler/spec.h"
#include "../session/session.h"
#include "header.h"
#include "header_internal.h"

/* ---- the entries ---------------------------------------------------------------------- */

/* better: whether a's objective beats b's (higher when maximize, else lower). */
static bool better(const cutune_measurement *a, const cutune_measurement *b, int maximize)
{
    return maximize ? a->objective > b->objective : a->objective < b->objective;
}

/* The best complete measurement other than the winner. */
static const cutune_measurement *runner_up(const cutune_tune_result *r, const cutune_measurement *best)
{
    const cutune_measurement *ru = NULL;
    int maximize = r->summary.maximize;
    for (uint64_t i = 0; i < r->n; i++) {
        const cutune_measurement *m = &r->records[i]->m;
        if (m == best || !record_can_win(r->records[i]))
            continue;
        if (!ru || better(m, ru, maximize))
            ru = m;
    }
    return ru;
}

/* The default configuration: checked against every constraint, then planned. */
int hdr_default_entry(hdr *h, arena *a, entry *e)
{
    cutune_spec *spec = h->spec;
    const model *m = h->m;
    value *vals = arena_alloc(a, sizeof(value) * (size_t)(m->nparams + 1));
    cutune_variant *cv = arena_alloc(a, sizeof *cv);
    const char **texts = arena_alloc(a, sizeof(char *) * (size_t)(m->nparams + 1));
    char *types = arena_alloc(a, (size_t)m->nparams + 1);
    if (!vals || !cv || !texts || !types)
        return CUTUNE_ENOMEM;
    for (int i = 0; i < m->nparams; i++) {
        const m_param *p = &m->params[i];
        vals[i] = model_domain_at(&p->dom, p->has_default ? p->default_index : 0);
        types[i] = vtype_name(p->dom.type)[0];
    }
    eval_env env = {m, vals, false, 0.0, NULL, false, 0.0, 0.0};
    eval_error err;
    for (int k = 0; k < m->nrequires; k++) {
        bool ok;
        if (m->requires[k].pin)
            continue; /* --config narrowed the run, not the header's defaults */
        if (eval_bool(m->requires[k].expr, &env, &ok, &err) < 0)
            return spec_eval_failed(spec, &err);
        if (!ok) {
            strbuf s = STRBUF_INIT;
            space_describe_config(m, vals, ~(param_set)0, &s);
            diag_error(&spec->diags, m->requires[k].loc,
                       "the default configuration (%s) violates this constraint; give the params defaults that "
                       "satisfy it (param x in [...] default v)",
                       sb_cstr(&s));
            sb_free(&s);
            return CUTUNE_ESPEC;
        }
    }
    int st = session_variant_of(spec->model, &spec->diags, vals, a, texts, types, 0, cv);
    if (st < 0)
        return st;
    e->v = cv;
    e->ncommon = cv->ncommon_options;
    e->vals = vals;
    h->types = types;
    return CUTUNE_OK;
}

/* ---- the entry point ------------------------------------------------------------------- */

static int prepare(hdr *h, arena *a, const cutune_tune_result *const *results, int nresults,
                   const cutune_header_options *opts)
{
    const cutune_tune_result **flat;
    const char **srcs;
    int rc = hdr_flatten(h, a, results, nresults, opts, &flat, &srcs);
    if (rc != CUTUNE_OK)
        return rc;
    int n = h->n;
    for (int k = 0; k < n; k++) {
        const cutune_tune_result *r = flat[k];
        const char *src = srcs[k];
        if (h->nsize_vars) { /* the same size variables everywhere */
            bool same = r->nsize_vars == h->nsize_vars && r->size_values;
            for (int j = 0; same && j < h->nsize_vars; j++)
                same = strcmp(r->size_vars[j], h->size_vars[j]) == 0;
            if (!same)
                return hdr_fail("results over different size variables cannot share a header (%s)",
                                src ? src : "a results file");
        }
        if (!result_best(r)) {
            if (r->size_values) {
                strbuf d = STRBUF_INIT;
                entry tmp = {.size = r->size_values};
                hdr_sizes_describe(&d, h, &tmp);
                int f = hdr_fail("%s: no variant ran correctly%s, so there is no winner to write",
                                 src ? src : "the results", sb_ok(&d) ? sb_cstr(&d) : "");
                sb_free(&d);
                return f;
            }
            return hdr_fail("%s: no variant ran correctly, so there is no winner to write", src ? src : "the results");
        }
        if (k == 0) {
            h->kernel = r->kernel;
            h->block = r->block;
            h->nparams = r->nparams;
            h->names = r->param_names;
            h->types = arena_alloc(a, (size_t)r->nparams + 1);
            if (!h->types)
                return CUTUNE_ENOMEM;
            for (int i = 0; i < r->nparams; i++)
                h->types[i] = r->param_types[i][0] == 'b'   ? 'b'
                              : r->param_types[i][0] == 'f' ? 'f'
                              : r->param_types[i][0] == 's' ? 's'
                                                            : 'i';
        } else {
            if (strcmp(r->kernel, h->kernel) != 0)
                return hdr_fail("results of different kernels ('%s' and '%s') cannot share a header", h->kernel,
                                r->kernel);
            if (h->block && r->block && strcmp(r->block, h->block) != 0)
                return hdr_fail("results of different kernel blocks ('%s' and '%s') cannot share a header", h->block,
                                r->block);
            bool same = r->nparams == h->nparams;
            for (int i = 0; same && i < h->nparams; i++)
                same = strcmp(r->param_names[i], h->names[i]) == 0 &&
                       strcmp(r->param_types[i], flat[0]->param_types[i]) == 0;
            if (!same)
                return hdr_fail("results with different params cannot share a header (%s)",
                                src ? src : "a results file");
        }
        entry *e = &h->e[k];
        e->r = r;
        e->best = result_best(r);
        e->runner_up = runner_up(r, e->best);
        e->v = e->best->variant;
        e->vals = result_record_of(e->best)->vals; /* the typed configuration: never its text read back */
        if (!e->vals)
            return hdr_fail("%s holds a winner without its configuration's values", src ? src : "a result");
        e->ncommon = e->v->ncommon_options;
        e->source = src;
        e->size = r->size_values;
    }
    for (int k = 0; k < n; k++) /* one entry per device (and size): the look-up would never reach a second */
        for (int q = 0; q < k; q++) {
            const entry *e = &h->e[k], *f = &h->e[q];
            bool same = strcmp(e->r->device.name, f->r->device.name) == 0 && e->r->device.cc == f->r->device.cc;
            for (int j = 0; same && j < h->nsize_vars; j++)
                same = e->size[j] == f->size[j];
            if (!same)
                continue;
            strbuf d = STRBUF_INIT, at = STRBUF_INIT;
            esc_c_string(&d, e->r->device.name); /* as a C string's contents: printable, whatever the file held */
            hdr_sizes_describe(&at, h, e);
            rc =
                hdr_fail("%s and %s are both of device \"%s\" (compute capability %d)%s: the look-up would never reach "
                         "the second's entry; give one results file per device%s",
                         f->source ? f->source : "a results file", e->source ? e->source : "another",
                         sb_ok(&d) ? sb_cstr(&d) : "", e->r->device.cc, sb_ok(&at) ? sb_cstr(&at) : "",
                         h->nsize_vars ? " and size" : "");
            sb_free(&d);
            sb_free(&at);
            return rc;
        }
    if (h->m) {
        rc = hdr_check_spec(h);
        if (rc != CUTUNE_OK)
            return rc;
        for (int k = 0; k < n; k++)
            h->e[k].ncommon = h->m->noptions + h->m->nincludes;
    }
    return h->nsize_vars ? hdr_sizes_prepare(h) : CUTUNE_OK;
}

/* The header's entries, prefix and names, checked (everything before its text): into h,
 * its allocations in `a` and `prefix`. CUTUNE_OK, or an error with the error object set
 * (or a diagnostic on the spec). */
static int setup(hdr *h, arena *a, strbuf *prefix, cutune_spec *spec, const cutune_tune_result *const *results,
                 int nresults, const cutune_header_options *opts)
{
    memset(h, 0, sizeof *h);
    h->spec = spec;
    h->m = spec ? spec->model : NULL;
    h->n = nresults > 0 ? nresults : 1;
    h->tuned = nresults > 0;
    h->e = arena_alloc(a, sizeof(entry) * (size_t)h->n); /* prepare() makes room for every size */
    if (!h->e)
        return CUTUNE_ENOMEM;
    int rc;
    if (nresults > 0) {
        rc = prepare(h, a, results, nresults, opts);
    } else {
        h->kernel = h->m->kernel;
        h->block = h->m->block_name;
        h->nparams = h->m->nparams;
        const char **names = arena_alloc(a, sizeof(char *) * (size_t)(h->m->nparams + 1));
        for (int i = 0; names && i < h->m->nparams; i++)
            names[i] = h->m->params[i].name;
        h->names = names;
        rc = names ? hdr_default_entry(h, a, &h->e[0]) : CUTUNE_ENOMEM;
        if (rc == CUTUNE_OK && h->m->sizes.nvars > 0)
            rc = hdr_sizes_defaults(h, a); /* one default entry per size: the same code compiles */
    }
    if (rc != CUTUNE_OK)
        return rc;
    for (int k = 0; k < h->n; k++) { /* the config struct holds them as unsigned int */
        const cutune_variant *v = h->e[k].v;
        for (int d = 0; d < 3; d++)
            if (v->block[d] < 1 || v->block[d] > UINT32_MAX || v->grid[d] < 1 || v->grid[d] > UINT32_MAX)
                return hdr_fail("entry %d's launch dimensions are out of the range a launch takes", k);
        if (v->smem_bytes < 0 || v->smem_bytes > UINT32_MAX)
            return hdr_fail("entry %d's shared memory is out of the range a launch takes", k);
    }
    h->P = opts && opts->prefix ? opts->prefix : h->m && h->m->emit.header_prefix ? h->m->emit.header_prefix : NULL;
    if (!h->P) {
        const char *name = h->block ? h->block : h->kernel; /* the block's name, as the spec's default */
        if (!esc_c_name(name))
            return hdr_fail("the kernel's name is not a C identifier: it cannot make the header's prefix");
        hdr_upper(prefix, name);
        h->P = sb_cstr(prefix);
    }
    if (!esc_c_name(h->P))
        return hdr_fail("the prefix '%s' is not a C identifier", h->P);
    return hdr_check_names(h);
}

/* The arguments as the public functions take them (the facade, api/cutune_emit.c, has checked
 * them; a caller inside the library that breaks them gets the same refusal). */
static int check_args(cutune_spec *spec, const cutune_tune_result *const *results, int nresults)
{
    if (nresults < 0 || (nresults > 0 && !results) || (nresults == 0 && !spec))
        return hdr_fail("neither results nor a spec");
    if (spec && (!spec->loaded_ok || !spec->model))
        return hdr_fail("the spec has errors");
    return CUTUNE_OK;
}

/* begin: the arguments checked and h set up over a new arena (*a, freed by the caller
 * with arena_free, NULL-safe) for hdr_emit and hdr_emit_names. CUTUNE_OK, or the
 * error (with *a possibly NULL). */
static int begin(hdr *h, arena **a, strbuf *prefix, cutune_spec *spec, const cutune_tune_result *const *results,
                 int nresults, const cutune_header_options *opts)
{
    memset(h, 0, sizeof *h); /* the caller frees h's buffers whatever happens */
    int rc = check_args(spec, results, nresults);
    if (rc != CUTUNE_OK)
        return rc;
    if (!(*a = arena_new()))
        return CUTUNE_ENOMEM;
    return setup(h, *a, prefix, spec, results, nresults, opts);
}

int hdr_emit(char **out, cutune_spec *spec, const cutune_tune_result *const *results, int nresults,
             const cutune_header_options *opts)
{
    if (!out)
        return hdr_fail("no output");
    *out = NULL;
    hdr h;
    strbuf prefix = STRBUF_INIT;
    arena *a = NULL;
    int rc = begin(&h, &a, &prefix, spec, results, nresults, opts);
    if (rc == CUTUNE_OK && h.m)
        rc = hdr_functions(&h);
    if (rc == CUTUNE_OK) {
        hdr_assemble(&h, opts);
        if (!sb_ok(&h.out) || !sb_ok(&h.funcs) || !sb_ok(&h.cfuncs))
            rc = CUTUNE_ENOMEM;
        else
            *out = sb_steal(&h.out);
    }
    sb_free(&h.out);
    sb_free(&h.funcs);
    sb_free(&h.cfuncs);
    sb_free(&prefix);
    arena_free(a);
    return rc;
}

int hdr_emit_names(hn_list **out, cutune_spec *spec, const cutune_tune_result *const *results, int nresults,
                   const cutune_header_options *opts)
{
    *out = NULL;
    hdr h;
    strbuf prefix = STRBUF_INIT;
    arena *a = NULL;
    int rc = begin(&h, &a, &prefix, spec, results, nresults, opts);
    if (rc == CUTUNE_OK)
        rc = hdr_names_of(&h, out);
    sb_free(&prefix);
    arena_free(a);
    return rc;
}
