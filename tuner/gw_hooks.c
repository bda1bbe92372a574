/* gw_hooks.c - the spec's resets and checker in the GPU worker (gw.h): the resets made
 * plain for runtime/hook.c, and the kernels of its own that a spec names (reset
 * kernels, a checker kernel) compiled here through the compile cache (session/own.c), as
 * the reference is (gw_reference.c), and their jobs for the worker to compile ahead
 * (gw_hooks_jobs). Their binaries live in g->extra for the worker's life.
 *
 * Process: runs in the GPU worker only (gw_main.c's set-up), never in the tuner. */
#include <stdlib.h>

#include "../compiler/eval.h"
#include "../session/own.h"
#include "gw.h"

/* A constant geometry (the reset kernel's) into dims[0..3). */
static int constant_dims(gw *g, texpr *const *t, int n, unsigned *dims)
{
    eval_env env = {g->p->m, NULL, false, 0.0, NULL, false, 0.0, 0.0};
    eval_error e;
    for (int d = 0; d < 3; d++)
        dims[d] = 1;
    for (int d = 0; d < n; d++) {
        int64_t v;
        if (eval_int(t[d], &env, &v, &e) < 0)
            return spec_eval_failed(g->p->spec, &e);
        dims[d] = (unsigned)v;
    }
    return CUTUNE_OK;
}

/* Kernel k's job appended to jobs[*n] and its source to sources[*n], *n advanced; left
 * out when it cannot be made. */
static void add_job(gw *g, arena *a, const m_kernel_ref *k, compile_job *jobs, char **sources, int *n)
{
    eval_error e;
    if (own_job(g->p->m, g->p->arch, k, a, &jobs[*n], &sources[*n], &e) == CUTUNE_OK)
        (*n)++;
    else
        free(sources[*n]); /* gw_hooks_prepare says why, when it compiles the kernel */
}

void gw_hooks_jobs(gw *g, arena *a, compile_job *jobs, char **sources, int *n)
{
    const model *m = g->p->m;
    for (int i = 0; i < m->nresets; i++)
        if (m->resets[i].kind == RESET_KERNEL)
            add_job(g, a, &m->resets[i].kernel, jobs, sources, n);
    if (m->verify.present && m->verify.check == CHECK_KERNEL)
        add_job(g, a, &m->verify.checker, jobs, sources, n);
}

int gw_hooks_prepare(gw *g)
{
    const model *m = g->p->m;
    int n = m->nresets;
    const m_verify *vf = &m->verify;
    int want = n + (vf->present && vf->check == CHECK_KERNEL);
    if (want == 0)
        return CUTUNE_OK;
    g->hooks = calloc((size_t)n + 1, sizeof(hook_spec));
    g->extra = calloc((size_t)want, sizeof(compile_output));
    if (!g->hooks || !g->extra)
        return CUTUNE_ENOMEM;
    for (int i = 0; i < n; i++) {
        const m_reset *r = &m->resets[i];
        hook_spec *h = &g->hooks[i];
        h->arg = r->arg;
        h->constant = r->constant;
        h->kind = r->kind == RESET_ZEROS      ? HOOK_ZEROS
                  : r->kind == RESET_CONSTANT ? HOOK_CONSTANT
                  : r->kind == RESET_INPUT    ? HOOK_INPUT
                                              : HOOK_KERNEL;
        if (r->kind != RESET_KERNEL)
            continue;
        compile_output *out = &g->extra[g->nextra];
        int rc = own_compile(g->p->spec, g->p->arch, g->p->cache_dir, false, &r->kernel, r->loc, "reset kernel", out);
        if (rc == CUTUNE_OK)
            g->nextra++;
        if (rc == CUTUNE_OK)
            rc = constant_dims(g, r->kernel.block, r->kernel.block_dims, h->block);
        if (rc == CUTUNE_OK)
            rc = constant_dims(g, r->kernel.grid, r->kernel.grid_dims, h->grid);
        if (rc != CUTUNE_OK)
            return rc;
        h->cubin = out->cubin;
        h->symbol = out->lowered_name;
    }
    if (vf->present && vf->check == CHECK_KERNEL) {
        compile_output *out = &g->extra[g->nextra];
        int rc = own_compile(g->p->spec, g->p->arch, g->p->cache_dir, false, &vf->checker, vf->check_loc,
                             "checker kernel", out);
        if (rc != CUTUNE_OK)
            return rc;
        g->nextra++;
        g->vf.check_cubin = out->cubin;
        g->vf.check_symbol = out->lowered_name;
    }
    if (bench_set_hooks(g->b, g->hooks, n) < 0)
        return CUTUNE_ENODEV;
    return CUTUNE_OK;
}
