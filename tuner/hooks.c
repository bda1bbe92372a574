/* hooks.c - issue 16 in the GPU worker (tuner.h): the spec's resets made plain for
 * runtime/hook.c, and the kernels of its own that a spec names (reset kernels, a checker
 * kernel) compiled here with NVRTC, as the reference kernel is (tuner/reference.c).
 * Their binaries live in g->extra until tuner_gpu_free. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <xxhash.h>

#include "../base/sys.h"
#include "../compiler/eval.h"
#include "../runtime/includes.h"
#include "tuner.h"

/* Compiles kernel `k` (its name and template arguments, from its file) with the spec's
 * common options (and its constant let-defines, as the reference kernel) for `arch`
 * into *out (kept by the caller). 0, or a status with a diagnostic on the spec at `loc`
 * (an error, or a warning when `warn`: analyze without a GPU). */
static int compile_for(cutune_spec *spec, const char *arch, bool warn, const m_kernel_ref *k, span loc,
                       const char *what, compile_output *out)
{
    const char *file = k->file;
    const model *m = spec->model;
    void (*report)(diag_list *, span, const char *, ...) = warn ? diag_warning : diag_error;
    memset(out, 0, sizeof *out);
    arena *a = arena_new();
    if (!a)
        return CUTUNE_ENOMEM;
    int rc = CUTUNE_OK;
    char *source = NULL;
    eval_error e;
    compile_job job;
    memset(&job, 0, sizeof job);
    job.name_expression = plan_template_name(m, k->name, k->targs, k->ntargs, k->has_targs, NULL, a, &e);
    if (!job.name_expression) {
        rc = spec_eval_failed(spec, &e);
        goto done;
    }
    const char **opts;
    int nopts;
    if ((rc = tuner_kernel_options(m, a, &opts, &nopts)) < 0)
        goto done;
    source = sys_read_file(file, SYS_LIMIT_SOURCE, NULL);
    if (!source) {
        report(&spec->diags, loc, "cannot read the %s's file '%s': %s", what, file, sys_strerror(errno));
        rc = CUTUNE_EIO;
        goto done;
    }
    const char *slash = strrchr(file, '/');
    opts[nopts++] = slash ? arena_printf(a, "-I%.*s", (int)(slash - file), file) : "-I.";
    job.source_name = file;
    job.source = source;
    job.options = opts;
    job.noptions = nopts;
    job.arch = arch;
    char err[512];
    if (incl_compile(&job, out, err, sizeof err) < 0) {
        report(&spec->diags, loc, "compiling the %s: %s", what, err);
        rc = CUTUNE_ECOMPILER;
    } else if (!out->ok) {
        char *log = compile_log_excerpt(out->log);
        report(&spec->diags, loc, "the %s '%s' does not compile for %s:\n%s", what, job.name_expression, arch,
               log ? log : out->log);
        free(log);
        compile_output_free(out);
        rc = CUTUNE_ESPEC;
    }
done:
    free(source);
    arena_free(a);
    return rc;
}

/* A constant geometry (the reset kernel's) into dims[0..3). */
static int constant_dims(tuner_gpu *g, texpr *const *t, int n, unsigned *dims)
{
    eval_env env = {g->m, NULL, false, 0.0, NULL, false, 0.0, 0.0};
    eval_error e;
    for (int d = 0; d < 3; d++)
        dims[d] = 1;
    for (int d = 0; d < n; d++) {
        int64_t v;
        if (eval_int(t[d], &env, &v, &e) < 0)
            return spec_eval_failed(g->spec, &e);
        dims[d] = (unsigned)v;
    }
    return CUTUNE_OK;
}

int tuner_hooks_prepare(tuner_gpu *g, char *err, size_t errsize)
{
    const model *m = g->m;
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
        h->kind = r->kind == RESET_ZEROS ? HOOK_ZEROS : r->kind == RESET_CONSTANT ? HOOK_CONSTANT
                  : r->kind == RESET_INPUT ? HOOK_INPUT : HOOK_KERNEL;
        if (r->kind != RESET_KERNEL)
            continue;
        compile_output *out = &g->extra[g->nextra];
        int rc = compile_for(g->spec, g->arch, false, &r->kernel, r->loc,
                             "reset kernel", out);
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
        int rc = compile_for(g->spec, g->arch, false, &vf->checker, vf->check_loc, "checker kernel", out);
        if (rc != CUTUNE_OK)
            return rc;
        g->nextra++;
        g->vf.check_cubin = out->cubin;
        g->vf.check_symbol = out->lowered_name;
    }
    if (bench_set_hooks(g->b, g->hooks, n, err, errsize) < 0)
        return CUTUNE_ENODEV;
    return CUTUNE_OK;
}

void tuner_hooks_free(tuner_gpu *g)
{
    for (int i = 0; i < g->nextra; i++)
        compile_output_free(&g->extra[i]);
    free(g->extra);
    free(g->hooks);
    g->extra = NULL;
    g->hooks = NULL;
    g->nextra = 0;
}

int tuner_own_kernels_check(cutune_spec *spec, const char *arch)
{
    const model *m = spec->model;
    int failed = 0;
    for (int i = 0; i < m->nresets; i++) {
        const m_reset *r = &m->resets[i];
        if (r->kind != RESET_KERNEL)
            continue;
        compile_output out;
        int rc = compile_for(spec, arch, true, &r->kernel, r->loc,
                             "reset kernel", &out);
        if (rc == CUTUNE_ENOMEM || rc == CUTUNE_EEVAL)
            return rc;
        failed += rc != CUTUNE_OK;
        compile_output_free(&out);
    }
    const m_verify *vf = &m->verify;
    if (vf->present && vf->check == CHECK_KERNEL) {
        compile_output out;
        int rc = compile_for(spec, arch, true, &vf->checker, vf->check_loc, "checker kernel", &out);
        if (rc == CUTUNE_ENOMEM || rc == CUTUNE_EEVAL)
            return rc;
        failed += rc != CUTUNE_OK;
        compile_output_free(&out);
    }
    return failed;
}

void tuner_inputs_identity(const model *m, char *hex, size_t size)
{
    hex[0] = '\0';
    XXH3_state_t *h = NULL;
    for (int i = 0; i < m->nargs; i++) {
        const m_arg *a = &m->args[i];
        if (a->init != INIT_FILE || !a->file)
            continue;
        if (!h && (!(h = XXH3_createState()) || XXH3_64bits_reset(h) != XXH_OK)) {
            snprintf(hex, size, "unhashed");
            XXH3_freeState(h);
            return;
        }
        char *canon = sys_canonical_path(a->file);
        const char *path = canon ? canon : a->file;
        struct stat st;
        long long parts[3] = {-1, -1, -1};
        if (stat(path, &st) == 0) {
            parts[0] = (long long)st.st_size;
            parts[1] = (long long)st.st_mtim.tv_sec;
            parts[2] = (long long)st.st_mtim.tv_nsec;
        }
        XXH3_64bits_update(h, path, strlen(path) + 1);
        XXH3_64bits_update(h, parts, sizeof parts);
        free(canon);
    }
    if (h) {
        snprintf(hex, size, "%016llx", (unsigned long long)XXH3_64bits_digest(h));
        XXH3_freeState(h);
    }
}
