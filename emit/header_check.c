/* header_check.c - the best-config header's checks (emit/header.c's helpers): the names
 * it defines are C identifiers that do not clash, and the spec is the results' own. Each
 * sets the error object (base/err.h) and returns CUTUNE_EINVAL on a failed check. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/err.h"
#include "../base/escape.h"
#include "../compiler/hnames.h"
#include "../compiler/spec.h"
#include "header_internal.h"

/* ---- the header's checks ------------------------------------------------------------------------------ */

/* Sets the error object (base/err.h); returns CUTUNE_EINVAL. */
int hdr_fail(const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return err_set(CUTUNE_EINVAL, "%s", msg);
}

/* The names the header of h defines (compiler/hnames.h) into *out. CUTUNE_OK or
 * CUTUNE_ENOMEM. */
int hdr_names_of(const hdr *h, hn_list **out)
{
    const model *m = h->m;
    const char **lets = m ? malloc(sizeof(char *) * (size_t)(m->nlets + 1)) : NULL;
    if (m && !lets)
        return CUTUNE_ENOMEM;
    for (int i = 0; m && i < m->nlets; i++)
        lets[i] = m->lets[i].name;
    hn_block b = {h->P, h->nparams, h->names, h->nsize_vars, h->size_vars, m ? m->nlets : 0, lets};
    int rc = hn_collect(out, &b);
    free(lets);
    return rc;
}

/* Every name the header defines is a C identifier, and no two clash (compiler/hnames.h:
 * a param `tuned` would define P_TUNED, which the header defines itself). */
int hdr_check_names(const hdr *h)
{
    for (int i = 0; i < h->nparams; i++)
        if (!esc_c_name(h->names[i]))
            return hdr_fail("param %d's name is not a C identifier: the header cannot define it", i + 1);
    for (int j = 0; j < h->nsize_vars; j++)
        if (!esc_c_name(h->size_vars[j]))
            return hdr_fail("size variable %d's name is not a C identifier: the header cannot define it", j + 1);
    hn_list *l;
    int rc = hdr_names_of(h, &l);
    if (rc != CUTUNE_OK)
        return rc;
    hn_clash c;
    if (hn_clash_find((const hn_list *const *)&l, 1, &c)) {
        strbuf text = STRBUF_INIT;
        hn_clash_text(&text, &c, "", "");
        rc = hdr_fail("%s", sb_ok(&text) ? sb_cstr(&text) : "two names of the header clash");
        sb_free(&text);
    }
    hn_free(l);
    return rc;
}

/* The spec must be of the results' kernel and params (same names, types, order). */
int hdr_check_spec(const hdr *h)
{
    const model *m = h->m;
    if (strcmp(m->kernel, h->kernel) != 0)
        return hdr_fail("the spec is of kernel '%s', the results of kernel '%s'", m->kernel, h->kernel);
    if (h->block && strcmp(m->block_name, h->block) != 0)
        return hdr_fail("the spec's block is '%s', the results' '%s'", m->block_name, h->block);
    if (m->nparams != h->nparams)
        return hdr_fail("the spec has %d params, the results %d", m->nparams, h->nparams);
    for (int i = 0; i < m->nparams; i++)
        if (strcmp(m->params[i].name, h->names[i]) != 0 || vtype_name(m->params[i].dom.type)[0] != h->types[i])
            return hdr_fail("the spec's param '%s' differs from the results' '%s' (name or type)", m->params[i].name,
                            h->names[i]);
    return CUTUNE_OK;
}
