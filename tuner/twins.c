/* twins.c - variants that are the same experiment (twins.h).
 *
 * Two variants are twins when the GPU would be asked to do exactly the same thing for
 * each: the same machine code and resources (runtime/cubin.h's digest, which sees
 * through compile options that did not change the code, such as a register cap above
 * what the kernel uses), the same kernel symbol, grid, block and dynamic shared memory,
 * and the same arguments (every buffer's element count and every scalar's value, as
 * compiler/plan.c plans them for each configuration). The first of them is run; the
 * others take its outcome and times (result_take_twin) and are not run. The table maps
 * an identity to the index of the record that was run. */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "../compiler/plan.h"
#include "../runtime/cubin.h"
#include "twins.h"

/* uthash: never exit on a failed allocation (library code), flag the element instead. */
#define HASH_NONFATAL_OOM 1
#define uthash_nonfatal_oom(elt) ((elt)->oom = true)
#define HASH_FUNCTION(keyptr, keylen, hashv) ((hashv) = (unsigned)XXH3_64bits((keyptr), (keylen)))
#include <uthash.h>

typedef struct twin_entry {
    twin_id id;     /* the key */
    uint64_t index; /* the record that was run */
    bool oom;
    UT_hash_handle hh;
} twin_entry;

struct twins {
    const model *m;
    twin_entry *table;
    int64_t *counts;
    value *scalars;
};

int twins_new(twins **out, const model *m)
{
    twins *tw = calloc(1, sizeof *tw);
    *out = tw;
    if (!tw)
        return CUTUNE_ENOMEM;
    tw->m = m;
    tw->counts = calloc((size_t)m->nargs + 1, sizeof(int64_t));
    tw->scalars = calloc((size_t)m->nargs + 1, sizeof(value));
    return tw->counts && tw->scalars ? CUTUNE_OK : CUTUNE_ENOMEM;
}

void twins_free(twins *tw)
{
    if (!tw)
        return;
    twin_entry *e, *tmp;
    HASH_ITER(hh, tw->table, e, tmp)
    {
        HASH_DEL(tw->table, e);
        free(e);
    }
    free(tw->counts);
    free(tw->scalars);
    free(tw);
}

int twins_identity(twins *tw, const value *vals, const cutune_variant *v, const session_binary *bin, twin_id *out)
{
    cubin_digest code;
    eval_error e;
    if (!bin || !bin->cubin || cubin_code_digest(bin->cubin, bin->cubin_size, &code) < 0 ||
        plan_args(tw->m, vals, tw->counts, tw->scalars, &e) < 0)
        return -1;
    XXH3_state_t *h = XXH3_createState();
    if (!h || XXH3_128bits_reset(h) != XXH_OK) {
        XXH3_freeState(h);
        return -1;
    }
    XXH3_128bits_update(h, &code, sizeof code);
    XXH3_128bits_update(h, bin->symbol, strlen(bin->symbol) + 1);
    XXH3_128bits_update(h, v->grid, sizeof v->grid);
    XXH3_128bits_update(h, v->block, sizeof v->block);
    XXH3_128bits_update(h, &v->smem_bytes, sizeof v->smem_bytes);
    for (int i = 0; i < tw->m->nargs; i++) {
        const value *s = &tw->scalars[i];
        if (tw->m->args[i].is_buffer) {
            XXH3_128bits_update(h, &tw->counts[i], sizeof tw->counts[i]);
            continue;
        }
        /* a scalar: its type and value (the union's bytes are not all defined) */
        XXH3_128bits_update(h, &s->type, sizeof s->type);
        switch (s->type) {
        case VT_INT: XXH3_128bits_update(h, &s->u.i, sizeof s->u.i); break;
        case VT_FLOAT: XXH3_128bits_update(h, &s->u.f, sizeof s->u.f); break;
        case VT_BOOL: XXH3_128bits_update(h, &s->u.b, sizeof s->u.b); break;
        default: XXH3_128bits_update(h, s->u.s ? s->u.s : "", s->u.s ? strlen(s->u.s) + 1 : 1); break;
        }
    }
    XXH128_hash_t d = XXH3_128bits_digest(h);
    XXH3_freeState(h);
    out->lo = d.low64;
    out->hi = d.high64;
    return 0;
}

int64_t twins_find(const twins *tw, twin_id id)
{
    twin_entry *e = NULL;
    HASH_FIND(hh, tw->table, &id, sizeof id, e);
    return e ? (int64_t)e->index : -1;
}

int twins_add(twins *tw, twin_id id, uint64_t index)
{
    if (twins_find(tw, id) >= 0)
        return CUTUNE_OK;
    twin_entry *e = calloc(1, sizeof *e);
    if (!e)
        return CUTUNE_ENOMEM;
    e->id = id;
    e->index = index;
    HASH_ADD(hh, tw->table, id, sizeof e->id, e);
    if (e->oom) {
        free(e);
        return CUTUNE_ENOMEM;
    }
    return CUTUNE_OK;
}
