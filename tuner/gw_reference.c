/* gw_reference.c - the reference's run (gw.h): a configuration given by
 * `verify ... against config(...)`, or a kernel of its own, compiled here, run once on
 * the worker's bench, and its verified outputs kept on the device.
 *
 * Process: runs in the GPU worker only (gw_main.c's set-up), never in the tuner; what
 * it writes into the results (the reference, its GPU time) is the worker's copy, which
 * the set-up reply carries back. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/sys.h"
#include "../compiler/eval.h"
#include "../compiler/plan.h"
#include "../runtime/includes.h"
#include "../session/own.h"
#include "../base/err.h"
#include "gw.h"

int gw_reference(gw *g)
{
    const gw_plan *p = g->p;
    const model *m = p->m;
    const m_verify *vf = &m->verify;
    arena *a = arena_new();
    if (!a)
        return CUTUNE_ENOMEM;
    int rc = CUTUNE_OK;
    eval_error e;
    cutune_variant v;
    memset(&v, 0, sizeof v);
    compile_job job;
    memset(&job, 0, sizeof job);
    const char **opts = NULL;
    int nopts = 0;
    char *source = NULL;
    const char *source_path;
    if (!vf->against_kernel) {
        for (int i = 0; i < m->nparams; i++)
            g->vals[i] = model_domain_at(&m->params[i].dom, vf->config[i]);
        variant pv;
        if (plan_variant(m, g->vals, a, &pv, &e) < 0 || plan_args(m, g->vals, g->counts, g->scalars, &e) < 0) {
            rc = spec_eval_failed(p->spec, &e);
            goto done;
        }
        for (int d = 0; d < 3; d++) {
            v.block[d] = pv.block[d];
            v.grid[d] = pv.grid[d];
        }
        v.smem_bytes = pv.smem_bytes;
        job.name_expression = pv.name_expression;
        opts = arena_alloc(a, sizeof(char *) * (size_t)(pv.ndefines + pv.noptions + 2));
        if (!opts) {
            rc = CUTUNE_ENOMEM;
            goto done;
        }
        for (int i = 0; i < pv.ndefines; i++)
            opts[nopts++] = pv.defines[i];
        for (int i = 0; i < pv.noptions; i++)
            opts[nopts++] = pv.options[i];
        source_path = m->kernel_file;
        p->res->summary.reference =
            arena_strdup(p->res->arena, "configuration given by verify ... against config(...)");
    } else {
        /* The reference kernel: the spec's common options, its own geometry; arguments
         * may not depend on params (there is no configuration to take them from). */
        eval_env env = {m, NULL, false, 0.0, NULL, false, 0.0, 0.0};
        int64_t dims[6] = {1, 1, 1, 1, 1, 1};
        for (int d = 0; d < vf->ref.block_dims; d++)
            if (eval_int(vf->ref.block[d], &env, &dims[d], &e) < 0) {
                rc = spec_eval_failed(p->spec, &e);
                goto done;
            }
        for (int d = 0; d < vf->ref.grid_dims; d++)
            if (eval_int(vf->ref.grid[d], &env, &dims[3 + d], &e) < 0) {
                rc = spec_eval_failed(p->spec, &e);
                goto done;
            }
        for (int d = 0; d < 3; d++) {
            v.block[d] = dims[d];
            v.grid[d] = dims[3 + d];
        }
        if (plan_args(m, NULL, g->counts, g->scalars, &e) < 0) {
            diag_error(&p->spec->diags, vf->ref_loc, "the reference kernel's arguments cannot depend on params: %s",
                       e.message);
            rc = CUTUNE_ESPEC;
            goto done;
        }
        job.name_expression =
            plan_template_name(m, vf->ref.name, vf->ref.targs, vf->ref.ntargs, vf->ref.has_targs, NULL, a, &e);
        if (!job.name_expression) {
            rc = spec_eval_failed(p->spec, &e);
            goto done;
        }
        if ((rc = own_options(m, a, &opts, &nopts)) < 0)
            goto done;
        source_path = vf->ref.file;
        p->res->summary.reference = arena_printf(p->res->arena, "kernel %s", job.name_expression);
    }
    source = sys_read_file(source_path, SYS_LIMIT_SOURCE, NULL);
    if (!source) {
        diag_error_noloc(&p->spec->diags, "cannot read '%s': %s", source_path, sys_strerror(errno));
        rc = CUTUNE_EIO;
        goto done;
    }
    const char *slash = strrchr(source_path, '/');
    opts[nopts++] = slash ? arena_printf(a, "-I%.*s", (int)(slash - source_path), source_path) : "-I.";
    job.source_name = source_path;
    job.source = source;
    job.options = opts;
    job.noptions = nopts;
    job.arch = p->arch;
    compile_output out;
    if (incl_compile(&job, &out) < 0) {
        diag_error_noloc(&p->spec->diags, "compiling the reference: %s", err_last()->message);
        rc = CUTUNE_ECOMPILER;
        goto done;
    }
    if (!out.ok) {
        char *log = compile_log_excerpt(out.log);
        diag_error(&p->spec->diags, vf->ref_loc, "the reference does not compile:\n%s", log ? log : out.log);
        free(log);
        compile_output_free(&out);
        rc = CUTUNE_ESPEC;
        goto done;
    }
    bench_binary bin = {(const unsigned char *)out.cubin, out.lowered_name, {0}, {0}, (unsigned)v.smem_bytes};
    for (int d = 0; d < 3; d++) {
        bin.grid[d] = (unsigned)v.grid[d];
        bin.block[d] = (unsigned)v.block[d];
    }
    bench_config c;
    gw_plain_args(g, &c);
    bench_result br;
    int run = bench_run(g->b, &bin, &c, NULL, &br);
    if (run < 0 || br.status != OUTCOME_OK) {
        diag_error(&p->spec->diags, vf->ref_loc, "the reference failed to run: %s", br.reason);
        rc = run < 0 ? CUTUNE_ENODEV : CUTUNE_ESPEC;
    } else {
        p->res->summary.gpu_seconds += br.gpu_seconds;
        /* Keep the reference's outputs on the device, and compare there. */
        bench_keep_failure kf;
        if (bench_keep_reference(g->b, &kf) < 0) {
            switch (kf.kind) {
            case BENCH_KEEP_COMPARE:
                diag_error_noloc(&p->spec->diags, "preparing verification: %s", err_last()->message);
                rc = CUTUNE_ECOMPILER;
                break;
            case BENCH_KEEP_DEVICE:
                diag_error_noloc(&p->spec->diags, "keeping the reference's output: %s", err_last()->message);
                rc = CUTUNE_ENODEV;
                break;
            case BENCH_KEEP_NAN:
                /* NaN is never equal to itself: the reference left elements unwritten
                 * (still poisoned) or computed NaN, and no variant could pass. */
                diag_error(&p->spec->diags, vf->ref_loc, "the reference's output '%s' has %zu NaN elements of %lld "
                           "(the first at %zu): unwritten or not a number, so no variant could match it",
                           p->args[kf.arg].name, kf.nan, (long long)kf.count, kf.first);
                rc = CUTUNE_ESPEC;
                break;
            }
        }
    }
    compile_output_free(&out);
done:
    free(source);
    arena_free(a);
    return rc;
}
