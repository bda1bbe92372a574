/* spec.c - the loaded spec's helpers (see spec.h). */
#include "spec.h"

const char *spec_render(cutune_spec *spec, int from, bool color)
{
    sb_reset(&spec->rendered);
    diag_list view = spec->diags;
    if (from < 0)
        from = 0;
    if (from > view.len)
        from = view.len;
    view.items += from;
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
        diag_list dl;
        diag_init(&dl, spec->arena, spec->src);
        model *mk = NULL;
        int rc = sema_check(&mk, spec->arena, spec->ast, &so, &dl);
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
    return CUTUNE_OK;
}
