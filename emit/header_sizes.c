/* header_sizes.c - the header of a run over problem sizes (docs/header.md, "Problem
 * sizes"): each entry's size, the compiled variants the entries need, and their macros
 * and fields (the look-up by size, P_lookup_size, is header_table.c's). Written only when
 * the results are of a run over sizes, so a header without sizes is as it always was. */
#include <string.h>

#include "../base/err.h"
#include "../compiler/cexpr.h"
#include "header_internal.h"

/* Whether param i changes the binary: a define, template, option or register cap (as
 * none and as smem change only the launch). Without the spec, the route the results
 * record; when they record none (older files), every param counts. */
static bool compile_time(const hdr *h, int i)
{
    if (h->m)
        return h->m->params[i].route != ROUTE_NONE && h->m->params[i].route != ROUTE_SMEM;
    const char *r = h->routes ? h->routes[i] : NULL;
    return !r || (strcmp(r, "none") != 0 && strcmp(r, "smem") != 0);
}

/* The results as entries: one per result, or one per size of a run over sizes (its
 * sizes in order); h->n of them. */
int hdr_flatten(hdr *h, arena *a, const cutune_tune_result *const *results, int n, const cutune_header_options *opts,
                const cutune_tune_result ***flat, const char ***srcs)
{
    int total = 0;
    for (int k = 0; k < n; k++) {
        if (!results[k])
            return err_set(CUTUNE_EINVAL, "results[%d] is NULL", k);
        total += results[k]->nsizes > 0 ? results[k]->nsizes : 1;
        if ((results[k]->nsizes > 0) != (results[0]->nsizes > 0))
            return err_set(CUTUNE_EINVAL,
                           "results of a run over problem sizes and of one without cannot share a header");
    }
    *flat = arena_alloc(a, sizeof(**flat) * (size_t)(total + 1));
    *srcs = arena_alloc(a, sizeof(**srcs) * (size_t)(total + 1));
    h->e = arena_alloc(a, sizeof(entry) * (size_t)(total + 1));
    if (!*flat || !*srcs || !h->e)
        return CUTUNE_ENOMEM;
    int at = 0;
    for (int k = 0; k < n; k++) {
        const cutune_tune_result *r = results[k];
        for (int j = 0; j < (r->nsizes > 0 ? r->nsizes : 1); j++) {
            (*srcs)[at] = opts && opts->sources ? opts->sources[k] : NULL;
            (*flat)[at++] = r->nsizes > 0 ? r->sizes[j] : r;
        }
    }
    h->n = total;
    if (results[0]->nsizes > 0) {
        h->nsize_vars = results[0]->nsize_vars;
        h->size_vars = results[0]->size_vars;
    }
    h->routes = (*flat)[0]->param_routes;
    return CUTUNE_OK;
}

int hdr_sizes_prepare(hdr *h)
{
    /* A compiled variant is a distinct tuple of the compile-time params' values; the
     * entries are numbered by the first entry that has it. */
    h->nvariants = 0;
    for (int k = 0; k < h->n; k++) {
        entry *e = &h->e[k];
        e->variant = -1;
        for (int q = 0; q < k && e->variant < 0; q++) {
            bool same = true;
            for (int i = 0; same && i < h->nparams; i++)
                same = !compile_time(h, i) || strcmp(e->v->values[i], h->e[q].v->values[i]) == 0;
            if (same)
                e->variant = h->e[q].variant;
        }
        if (e->variant < 0)
            e->variant = h->nvariants++;
    }
    return CUTUNE_OK;
}

int hdr_sizes_defaults(hdr *h, arena *a)
{
    cutune_spec *spec = h->spec;
    const m_sizes *sz = &spec->model->sizes;
    int held = sz->selected, count = sz->count, nv = sz->nvars;
    entry *e = arena_alloc(a, sizeof(entry) * (size_t)(count + 1));
    const char **vars = arena_alloc(a, sizeof(char *) * (size_t)(nv + 1));
    if (!e || !vars)
        return CUTUNE_ENOMEM;
    for (int j = 0; j < nv; j++)
        vars[j] = spec->model->lets[sz->lets[j]].name;
    int rc = CUTUNE_OK;
    for (int k = 0; k < count && rc == CUTUNE_OK; k++) {
        if ((rc = spec_select_size(spec, k)) != CUTUNE_OK)
            break;
        h->m = spec->model;
        if ((rc = hdr_default_entry(h, a, &e[k])) == CUTUNE_OK)
            e[k].size = &spec->model->sizes.values[k * nv];
    }
    int back = spec_select_size(spec, held);
    h->m = spec->model;
    if (rc != CUTUNE_OK)
        return rc;
    if (back != CUTUNE_OK)
        return back;
    h->e = e;
    h->n = count;
    h->nsize_vars = nv;
    h->size_vars = vars;
    return hdr_sizes_prepare(h);
}

void hdr_sizes_describe(strbuf *out, const hdr *h, const entry *e)
{
    if (!e->size)
        return;
    for (int j = 0; j < h->nsize_vars; j++) {
        sb_add(out, j ? "," : " at ");
        hdr_comment(out, h->size_vars[j]);
        sb_printf(out, "=%lld", (long long)e->size[j]);
    }
}

void hdr_sizes_macros(hdr *h)
{
    strbuf *o = &h->out;
    const char *P = h->P;
    sb_add(o, "\n/* the problem size entry 0 was tuned at (the spec's `size` variables) */\n");
    for (int j = 0; j < h->nsize_vars; j++) {
        sb_printf(o, "#define %s_SIZE_", P);
        hdr_upper(o, h->size_vars[j]);
        sb_printf(o, " %lldLL\n", (long long)h->e[0].size[j]);
    }
    sb_printf(o, "#define %s_ENTRY_COUNT %d\n", P, h->n);
    sb_printf(o,
              "\n/* the compiled variants: the distinct values of the compile-time params (as define,\n"
              " * template, option, maxrregcount) among the entries. Build each one (a template\n"
              " * instantiation, or a compile with its -D macros) and launch the one an entry names\n"
              " * (config->variant). %s_FOR_EACH_VARIANT(X) calls X(variant",
              P);
    for (int i = 0; i < h->nparams; i++)
        if (compile_time(h, i)) {
            sb_add(o, ", ");
            hdr_comment(o, h->names[i]);
        }
    sb_printf(o, ") for each. */\n#define %s_VARIANT_COUNT %d\n#define %s_FOR_EACH_VARIANT(X)", P, h->nvariants, P);
    for (int v = 0; v < h->nvariants; v++) {
        int k = 0;
        while (h->e[k].variant != v)
            k++;
        sb_printf(o, " \\\n    X(%d", v);
        for (int i = 0; i < h->nparams; i++)
            if (compile_time(h, i)) {
                sb_add(o, ", ");
                hdr_literal(o, h->e[k].vals[i]);
            }
        sb_add(o, ")");
    }
    sb_add(o, "\n");
}

void hdr_sizes_fields(hdr *h)
{
    strbuf *o = &h->out;
    sb_add(o, "    struct {\n");
    for (int j = 0; j < h->nsize_vars; j++) {
        sb_add(o, "        long long ");
        cexpr_ident(h->size_vars[j], o);
        sb_add(o, ";\n");
    }
    sb_printf(o,
              "    } size;                        /* the problem size it was tuned at */\n"
              "    int variant;                   /* its compiled variant: 0 .. %s_VARIANT_COUNT - 1 */\n",
              h->P);
}

void hdr_sizes_init(hdr *h, const entry *e)
{
    strbuf *o = &h->out;
    sb_add(o, ", {");
    for (int j = 0; j < h->nsize_vars; j++)
        sb_printf(o, "%s%lldLL", j ? ", " : "", (long long)e->size[j]);
    sb_printf(o, "}, %d", e->variant);
}
