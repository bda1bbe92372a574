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
