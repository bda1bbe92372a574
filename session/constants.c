/* constants.c - declared `__constant__` data against the spec's constant arguments
 * (constants.h). */
#include "constants.h"

#include <stdlib.h>
#include <string.h>

#include "../runtime/cmem.h"
#include "../runtime/includes.h"
#include "own.h"

/* What the scan of one file found: each declared name, where. */
typedef struct decl {
    const char *file; /* borrowed from the set or the model */
    char name[128];
    int line;
    bool initialised; /* its declaration gives it a value: not zero without an argument */
} decl;

typedef struct decls {
    decl *items;
    int len, cap;
    const char *file; /* the file being scanned */
    bool oom;
} decls;

static int on_decl(void *user, const char *name, size_t len, int line, bool initialised)
{
    decls *d = user;
    if (len >= sizeof d->items[0].name)
        return 0;                    /* no argument can have such a name */
    for (int i = 0; i < d->len; i++) /* the first declaration is the one named */
        if (strlen(d->items[i].name) == len && memcmp(d->items[i].name, name, len) == 0)
            return 0;
    if (d->len == d->cap) {
        int cap = d->cap ? 2 * d->cap : 8;
        decl *items = realloc(d->items, sizeof *items * (size_t)cap);
        if (!items) {
            d->oom = true;
            return 1;
        }
        d->items = items;
        d->cap = cap;
    }
    decl *x = &d->items[d->len++];
    x->file = d->file;
    memcpy(x->name, name, len);
    x->name[len] = '\0';
    x->line = line;
    x->initialised = initialised;
    return 0;
}

int constants_check(cutune_spec *spec)
{
    const model *m = spec->model;
    arena *a = arena_new();
    if (!a)
        return CUTUNE_ENOMEM;
    char *source = NULL;
    const char *dir_opt = NULL;
    const char **opts = NULL;
    int nopts = 0, warnings = 0, rc = CUTUNE_OK;
    decls found = {NULL, 0, 0, NULL, false};
    incl_set set = {0};
    if ((rc = own_options(m, a, &opts, &nopts)) < 0)
        goto done;
    int read = own_source(m->kernel_file, a, &source, &dir_opt);
    if (read != CUTUNE_OK) {
        rc = read == CUTUNE_ENOMEM ? read : CUTUNE_OK; /* unreadable: the compile says so */
        goto done;
    }
    opts[nopts++] = dir_opt;
    found.file = m->kernel_file;
    cmem_scan(source, strlen(source), on_decl, &found);
    /* the headers it reaches: as NVRTC would read them (a file that cannot be read is
     * left to the compile to report) */
    if (incl_resolve(&set, m->kernel_file, source, opts, nopts) == 0)
        for (int h = 0; h < set.nheaders && !found.oom; h++) {
            found.file = set.names[h];
            cmem_scan(set.texts[h], strlen(set.texts[h]), on_decl, &found);
        }
    if (found.oom) {
        rc = CUTUNE_ENOMEM;
        goto done;
    }
    for (int i = 0; i < found.len; i++) {
        bool filled = false;
        for (int k = 0; k < m->nargs && !filled; k++)
            filled = m->args[k].dir == DIR_CONSTANT && strcmp(m->args[k].name, found.items[i].name) == 0;
        if (filled || found.items[i].initialised)
            continue;
        diag_warning(&spec->diags, m->kernel_loc,
                     "%s:%d declares __constant__ '%s', and no argument fills it: on a GPU it stays zero "
                     "(arg %s : constant TYPE[COUNT] = ...; fills it before each variant runs)",
                     found.items[i].file, found.items[i].line, found.items[i].name, found.items[i].name);
        warnings++;
    }
    for (int k = 0; k < m->nargs; k++) {
        if (m->args[k].dir != DIR_CONSTANT)
            continue;
        bool declared = false;
        for (int i = 0; i < found.len && !declared; i++)
            declared = strcmp(found.items[i].name, m->args[k].name) == 0;
        if (declared)
            continue;
        diag_warning(&spec->diags, m->args[k].loc,
                     "constant argument '%s' fills the __constant__ symbol of that name, and no declaration of "
                     "it was found in the kernel's source (one a macro makes is not seen); a variant whose "
                     "module lacks it fails to load",
                     m->args[k].name);
        warnings++;
    }
done:
    incl_set_free(&set);
    free(found.items);
    free(source);
    arena_free(a);
    return rc < 0 ? rc : warnings;
}
