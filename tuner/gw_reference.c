/* gw_reference.c - the reference's run (gw.h): a configuration given by
 * `verify ... against config(...)`, or a kernel of its own, compiled here, run once on
 * the worker's bench, and its verified outputs kept on the device; and the plain
 * arguments of a run (gw_plain_args), the reference's as every variant's (gw_main.c).
 *
 * Process: runs in the GPU worker only (gw_main.c's set-up), never in the tuner; what
 * it writes into the results (the reference, its GPU time) is the worker's copy, which
 * the set-up reply carries back. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/err.h"
#include "../base/sys.h"
#include "../base/trace.h"
#include "../compiler/eval.h"
#include "../compiler/plan.h"
#include "../runtime/cached.h"
#include "../session/own.h"
#include "gw.h"

void gw_plain_args(gw *g, bench_config *out)
{
    for (int i = 0; i < g->p->m->nargs; i++) {
        const value *v = &g->scalars[i];
        g->plain[i] = (bench_scalar){v->type == VT_INT, v->type == VT_INT ? v->u.i : 0, 0};
        if (!g->p->m->args[i].is_buffer)
            g->plain[i].d = value_as_double(*v);
    }
    out->counts = g->counts;
    out->scalars = g->plain;
}

/* The reference as it is compiled and launched: its compile job (options in the
 * arena, source read by compile_ref), the file it is read from, its geometry. */
typedef struct ref_plan {
    compile_job job;
    const char **opts;
    int nopts;
    const char *source_path;
    char *source; /* malloc'd (own_source): freed by gw_reference */
    int64_t block[3], grid[3], smem_bytes;
} ref_plan;

/* The reference configuration's (`verify ... against config(...)`) compile job and
 * geometry, planned as a variant's (its values in g->vals), into *r; no diagnostic.
 * CUTUNE_OK; CUTUNE_EEVAL with *e; CUTUNE_ENOMEM. */
static int config_job(gw *g, arena *a, ref_plan *r, eval_error *e)
{
    const model *m = g->p->m;
    for (int i = 0; i < m->nparams; i++)
        g->vals[i] = model_domain_at(&m->params[i].dom, m->verify.config[i]);
    variant pv;
    if (plan_variant(m, g->vals, a, &pv, e) < 0)
        return CUTUNE_EEVAL;
    for (int d = 0; d < 3; d++) {
        r->block[d] = pv.block[d];
        r->grid[d] = pv.grid[d];
    }
    r->smem_bytes = pv.smem_bytes;
    r->job.name_expression = pv.name_expression;
    r->opts = arena_alloc(a, sizeof(char *) * (size_t)(pv.ndefines + pv.noptions + 2));
    if (!r->opts)
        return CUTUNE_ENOMEM;
    for (int i = 0; i < pv.ndefines; i++)
        r->opts[r->nopts++] = pv.defines[i];
    for (int i = 0; i < pv.noptions; i++)
        r->opts[r->nopts++] = pv.options[i];
    r->source_path = m->kernel_file;
    return CUTUNE_OK;
}

/* The reference kernel's (`verify ... against kernel ...`) name and options into *r:
 * the spec's common options; no diagnostic. CUTUNE_OK; CUTUNE_EEVAL with *e;
 * CUTUNE_ENOMEM. */
static int kernel_job(gw *g, arena *a, ref_plan *r, eval_error *e)
{
    const model *m = g->p->m;
    const m_verify *vf = &m->verify;
    r->job.name_expression =
        plan_template_name(m, vf->ref.name, vf->ref.targs, vf->ref.ntargs, vf->ref.has_targs, NULL, a, e);
    if (!r->job.name_expression)
        return CUTUNE_EEVAL;
    r->source_path = vf->ref.file;
    return own_options(m, a, &r->opts, &r->nopts);
}

/* The reference configuration planned (config_job) with its arguments (g->counts,
 * scalars) into *r. CUTUNE_OK, or a status with a diagnostic on the spec. */
static int plan_config(gw *g, arena *a, ref_plan *r)
{
    const gw_plan *p = g->p;
    eval_error e;
    int rc = config_job(g, a, r, &e);
    if (rc == CUTUNE_EEVAL || (rc == CUTUNE_OK && plan_args(p->m, g->vals, g->counts, g->scalars, &e) < 0))
        return spec_eval_failed(p->spec, &e);
    if (rc < 0)
        return rc;
    p->res->summary.reference = arena_strdup(p->res->arena, "configuration given by verify ... against config(...)");
    return CUTUNE_OK;
}

/* The reference kernel into *r: kernel_job's, and its own geometry; its arguments may
 * not depend on params (there is no configuration to take them from). CUTUNE_OK, or a
 * status with a diagnostic. */
static int plan_kernel(gw *g, arena *a, ref_plan *r)
{
    const gw_plan *p = g->p;
    const model *m = p->m;
    const m_verify *vf = &m->verify;
    eval_error e;
    eval_env env = {m, NULL, false, 0.0, NULL, false, 0.0, 0.0};
    int64_t dims[6] = {1, 1, 1, 1, 1, 1};
    for (int d = 0; d < vf->ref.block_dims; d++)
        if (eval_int(vf->ref.block[d], &env, &dims[d], &e) < 0)
            return spec_eval_failed(p->spec, &e);
    for (int d = 0; d < vf->ref.grid_dims; d++)
        if (eval_int(vf->ref.grid[d], &env, &dims[3 + d], &e) < 0)
            return spec_eval_failed(p->spec, &e);
    for (int d = 0; d < 3; d++) {
        r->block[d] = dims[d];
        r->grid[d] = dims[3 + d];
    }
    if (plan_args(m, NULL, g->counts, g->scalars, &e) < 0) {
        diag_error(&p->spec->diags, vf->ref_loc, "the reference kernel's arguments cannot depend on params: %s",
                   e.message);
        return CUTUNE_ESPEC;
    }
    int rc = kernel_job(g, a, r, &e);
    if (rc == CUTUNE_EEVAL)
        return spec_eval_failed(p->spec, &e);
    if (rc < 0)
        return rc;
    p->res->summary.reference = arena_printf(p->res->arena, "kernel %s", r->job.name_expression);
    return CUTUNE_OK;
}

/* The planned reference's source read (own_source) and its job completed for p->arch.
 * CUTUNE_OK; CUTUNE_EIO (errno says why); CUTUNE_ENOMEM. */
static int read_source(gw *g, arena *a, ref_plan *r)
{
    int rc = own_source(r->source_path, a, &r->source, &r->opts[r->nopts]);
    if (rc < 0)
        return rc;
    r->nopts++;
    r->job.source_name = r->source_path;
    r->job.source = r->source;
    r->job.options = r->opts;
    r->job.noptions = r->nopts;
    r->job.arch = g->p->arch;
    return CUTUNE_OK;
}

int gw_reference_job(gw *g, arena *a, compile_job *job, char **source)
{
    ref_plan r;
    memset(&r, 0, sizeof r);
    eval_error e;
    int rc = g->p->m->verify.against_kernel ? kernel_job(g, a, &r, &e) : config_job(g, a, &r, &e);
    if (rc == CUTUNE_OK)
        rc = read_source(g, a, &r);
    *job = r.job;
    *source = r.source;
    return rc;
}

/* Compiles the planned reference into *out (the caller frees it on CUTUNE_OK).
 * CUTUNE_OK, or a status with a diagnostic on the spec. */
static int compile_ref(gw *g, arena *a, ref_plan *r, compile_output *out)
{
    const gw_plan *p = g->p;
    int rc = read_source(g, a, r);
    if (rc == CUTUNE_EIO)
        diag_error_noloc(&p->spec->diags, "cannot read '%s': %s", r->source_path, sys_strerror(errno));
    if (rc < 0)
        return rc;
    if (cache_compile(p->cache_dir, &r->job, out) < 0) {
        diag_error_noloc(&p->spec->diags, "compiling the reference: %s", err_last()->message);
        return CUTUNE_ECOMPILER;
    }
    if (!out->ok) {
        char *log = compile_log_excerpt(out->log);
        diag_error(&p->spec->diags, p->m->verify.ref_loc, "the reference does not compile:\n%s", log ? log : out->log);
        free(log);
        compile_output_free(out);
        return CUTUNE_ESPEC;
    }
    return CUTUNE_OK;
}

/* Why the reference's outputs could not be kept (bench_keep_reference's failure `kf`),
 * as a diagnostic; the status. */
static int keep_failed(gw *g, const bench_keep_failure *kf)
{
    const gw_plan *p = g->p;
    switch (kf->kind) {
    case BENCH_KEEP_COMPARE:
        diag_error_noloc(&p->spec->diags, "preparing verification: %s", err_last()->message);
        return CUTUNE_ECOMPILER;
    case BENCH_KEEP_DEVICE:
        diag_error_noloc(&p->spec->diags, "keeping the reference's output: %s", err_last()->message);
        return CUTUNE_ENODEV;
    case BENCH_KEEP_NAN:
        /* NaN is never equal to itself: the reference left elements unwritten
         * (still poisoned) or computed NaN, and no variant could pass. */
        diag_error(&p->spec->diags, p->m->verify.ref_loc,
                   "the reference's output '%s' has %zu NaN elements of %lld "
                   "(the first at %zu): unwritten or not a number, so no variant could match it",
                   p->args[kf->arg].name, kf->nan, (long long)kf->count, kf->first);
        return CUTUNE_ESPEC;
    }
    return CUTUNE_ESPEC;
}

/* Runs the compiled reference `out` once with the planned geometry and arguments and
 * keeps its outputs on the device, to compare there; its GPU time is added to the
 * results. CUTUNE_OK, or a status with a diagnostic. */
static int run_ref(gw *g, const ref_plan *r, const compile_output *out)
{
    const gw_plan *p = g->p;
    bench_binary bin = {(const unsigned char *)out->cubin, out->lowered_name, {0}, {0}, (unsigned)r->smem_bytes};
    for (int d = 0; d < 3; d++) {
        bin.grid[d] = (unsigned)r->grid[d];
        bin.block[d] = (unsigned)r->block[d];
    }
    bench_config c;
    gw_plain_args(g, &c);
    bench_result br;
    trace_begin("reference run");
    int run = bench_run(g->b, &bin, &c, NULL, &br);
    trace_end("reference run");
    if (run < 0 || br.status != OUTCOME_OK) {
        diag_error(&p->spec->diags, p->m->verify.ref_loc, "the reference failed to run: %s", br.reason);
        return run < 0 ? CUTUNE_ENODEV : CUTUNE_ESPEC;
    }
    p->res->summary.gpu_seconds += br.gpu_seconds;
    g->ref_inputs_s += br.inputs_seconds;
    bench_keep_failure kf;
    trace_begin("reference kept");
    int kept = bench_keep_reference(g->b, &kf);
    trace_end("reference kept");
    return kept < 0 ? keep_failed(g, &kf) : CUTUNE_OK;
}

int gw_reference(gw *g)
{
    arena *a = arena_new();
    if (!a)
        return CUTUNE_ENOMEM;
    ref_plan r;
    memset(&r, 0, sizeof r);
    int rc = g->p->m->verify.against_kernel ? plan_kernel(g, a, &r) : plan_config(g, a, &r);
    compile_output out;
    double compiling = sys_seconds();
    trace_begin("reference compile");
    if (rc == CUTUNE_OK)
        rc = compile_ref(g, a, &r, &out);
    trace_end("reference compile");
    if (rc == CUTUNE_OK) {
        g->ref_compile_s += sys_seconds() - compiling;
        rc = run_ref(g, &r, &out);
        compile_output_free(&out);
    }
    free(r.source);
    arena_free(a);
    return rc;
}
