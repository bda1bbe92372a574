/* spec_count.c - a spec's space counted, and an empty one explained (spec.h): which
 * constraint, alone or with one other, leaves no configuration. Counting walks down
 * to compiler/space and never back up: every stage that counts (the facade, the
 * tuner) calls this. */
#include "spec.h"

#include <stdlib.h>
#include <string.h>

#include "space.h"

/* Constraint r empties the space together with earlier ones: when a single earlier
 * one suffices, names it (an error at r, a note at it) and returns 1; 0 when it takes
 * more than two; a negative status on failure. `reqs` is scratch of nrequires ints. */
static int explain_pair(cutune_spec *spec, int r, int *reqs)
{
    const model *m = spec->model;
    for (int j = 0; j < r; j++) {
        reqs[0] = j;
        reqs[1] = r;
        space *sp;
        if (space_new(&sp, m, reqs, 2) < 0)
            return CUTUNE_ENOMEM;
        uint64_t count;
        bool sat;
        eval_error err;
        int crc = space_count(sp, &count, &sat, &err);
        space_free(sp);
        if (crc < 0)
            return spec_eval_failed(spec, &err);
        if (count == 0) {
            unsigned line, col;
            src_position(spec->src, m->requires[j].loc.begin, &line, &col);
            diag_error(&spec->diags, m->requires[r].loc,
                       "no configuration satisfies both this constraint and "
                       "the one on line %u",
                       line);
            diag_note(&spec->diags, true, m->requires[j].loc, "the other constraint");
            return 1;
        }
    }
    return 0;
}

/* The space is empty: find the constraint that empties it. A constraint that no
 * configuration satisfies on its own is named alone; otherwise the first one that,
 * with those before it, leaves nothing. */
static int explain_empty(cutune_spec *spec)
{
    const model *m = spec->model;
    int *reqs = malloc(sizeof(int) * (size_t)(m->nrequires + 1));
    if (!reqs)
        return CUTUNE_ENOMEM;
    int rc = CUTUNE_ESPEC;
    bool reported = false;
    for (int r = 0; r < m->nrequires && !reported; r++) {
        for (int pass = 0; pass < 2 && !reported; pass++) {
            /* pass 0: this constraint alone; pass 1: it and every one before it */
            int n = 0;
            if (pass == 0)
                reqs[n++] = r;
            else
                for (int k = 0; k <= r; k++)
                    reqs[n++] = k;
            space *sp;
            if (space_new(&sp, m, reqs, n) < 0) {
                rc = CUTUNE_ENOMEM;
                goto done;
            }
            uint64_t count;
            bool sat;
            eval_error err;
            int crc = space_count(sp, &count, &sat, &err);
            space_free(sp);
            if (crc < 0) {
                rc = spec_eval_failed(spec, &err);
                goto done;
            }
            if (count == 0) {
                if (pass == 0) {
                    diag_error(&spec->diags, m->requires[r].loc, "no configuration satisfies this constraint");
                } else {
                    int named = explain_pair(spec, r, reqs);
                    if (named < 0) {
                        rc = named;
                        goto done;
                    }
                    if (!named)
                        diag_error(&spec->diags, m->requires[r].loc,
                                   "no configuration satisfies this constraint "
                                   "together with the ones before it");
                }
                reported = true;
            }
        }
    }
    if (!reported)
        diag_error(&spec->diags, spec->model->kernel_loc, "no configuration satisfies every constraint");
done:
    free(reqs);
    return rc;
}

int spec_count(cutune_space_size *out, cutune_spec *spec, cutune_progress_fn progress, void *user)
{
    memset(out, 0, sizeof *out);
    space *sp;
    if (space_new(&sp, spec->model, NULL, 0) < 0)
        return CUTUNE_ENOMEM;
    bool sat;
    out->raw = space_raw(sp, &sat);
    out->raw_saturated = sat;
    eval_error err;
    space_count_opts opts = {0};
    opts.progress = progress;
    opts.user = user;
    space_count_result r;
    int rc = space_count_ex(sp, &opts, &r, &err);
    space_free(sp);
    if (rc < 0)
        return spec_eval_failed(spec, &err);
    out->valid = r.count;
    out->valid_saturated = r.saturated;
    out->valid_estimated = !r.exact;
    out->valid_at_least = r.at_least;
    out->samples = r.exact ? 0 : r.samples;
    if (out->valid == 0 && r.exact)
        return explain_empty(spec);
    return CUTUNE_OK;
}
