/* own.c - the spec's own kernels (own.h): compile options and NVRTC compiles of the
 * kernels a spec names that are not variants. Runs wherever it is called: analyze's
 * process (own_check) and the GPU worker (tuner/gw_reference.c, tuner/gw_hooks.c). */
#include "own.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/err.h"
#include "../base/sys.h"
#include "../compiler/eval.h"
#include "../compiler/plan.h"
#include "../runtime/cached.h"

int own_options(const model *m, arena *a, const char ***out, int *n)
{
    const char **opts = arena_alloc(a, sizeof(char *) * (size_t)(m->noptions + m->nincludes + m->nlets + 2));
    *out = opts;
    *n = 0;
    if (!opts)
        return CUTUNE_ENOMEM;
    for (int i = 0; i < m->noptions; i++)
        opts[(*n)++] = m->options[i];
    for (int i = 0; i < m->nlets; i++) { /* constant lets `as define`: every variant's, so these kernels' too */
        const m_let *l = &m->lets[i];
        if (!l->macro || l->expr->kind != TX_CONST)
            continue;
        strbuf sb = STRBUF_INIT;
        value_format_c(l->expr->u.k, &sb, false);
        opts[*n] = sb_ok(&sb) ? arena_printf(a, "-D%s=%s", l->macro, sb_cstr(&sb)) : NULL;
        sb_free(&sb);
        if (!opts[(*n)++])
            return CUTUNE_ENOMEM;
    }
    for (int i = 0; i < m->nincludes; i++)
        if (!(opts[(*n)++] = arena_printf(a, "-I%s", m->includes[i])))
            return CUTUNE_ENOMEM;
    return CUTUNE_OK;
}

int own_source(const char *file, arena *a, char **source, const char **dir_opt)
{
    *dir_opt = NULL;
    if (!(*source = sys_read_file(file, SYS_LIMIT_SOURCE, NULL)))
        return CUTUNE_EIO;
    const char *slash = strrchr(file, '/');
    *dir_opt = slash ? arena_printf(a, "-I%.*s", (int)(slash - file), file) : "-I.";
    if (!*dir_opt) {
        free(*source);
        *source = NULL;
        return CUTUNE_ENOMEM;
    }
    return CUTUNE_OK;
}

int own_job(const model *m, const char *arch, const m_kernel_ref *k, arena *a, compile_job *job, char **source,
            eval_error *e)
{
    memset(job, 0, sizeof *job);
    *source = NULL;
    job->name_expression = plan_template_name(m, k->name, k->targs, k->ntargs, k->has_targs, NULL, a, e);
    if (!job->name_expression)
        return CUTUNE_EEVAL;
    const char **opts;
    int nopts;
    int rc = own_options(m, a, &opts, &nopts);
    if (rc == CUTUNE_OK)
        rc = own_source(k->file, a, source, &opts[nopts]);
    if (rc < 0)
        return rc;
    job->source_name = k->file;
    job->source = *source;
    job->options = opts;
    job->noptions = nopts + 1;
    job->arch = arch;
    return CUTUNE_OK;
}

int own_compile(cutune_spec *spec, const char *arch, const char *cache_dir, bool warn, const m_kernel_ref *k, span loc,
                const char *what, compile_output *out)
{
    void (*report)(diag_list *, span, const char *, ...) = warn ? diag_warning : diag_error;
    memset(out, 0, sizeof *out);
    arena *a = arena_new();
    if (!a)
        return CUTUNE_ENOMEM;
    char *source = NULL;
    eval_error e;
    compile_job job;
    int rc = own_job(spec->model, arch, k, a, &job, &source, &e);
    if (rc == CUTUNE_EEVAL) {
        rc = spec_eval_failed(spec, &e);
    } else if (rc == CUTUNE_EIO) {
        report(&spec->diags, loc, "cannot read the %s's file '%s': %s", what, k->file, sys_strerror(errno));
    } else if (rc == CUTUNE_OK && cache_compile(cache_dir, &job, out) < 0) {
        report(&spec->diags, loc, "compiling the %s: %s", what, err_last()->message);
        rc = CUTUNE_ECOMPILER;
    } else if (rc == CUTUNE_OK && !out->ok) {
        char *log = compile_log_excerpt(out->log);
        report(&spec->diags, loc, "the %s '%s' does not compile for %s:\n%s", what, job.name_expression, arch,
               log ? log : out->log);
        free(log);
        compile_output_free(out);
        rc = CUTUNE_ESPEC;
    }
    free(source);
    arena_free(a);
    return rc;
}

int own_check(cutune_spec *spec, const char *arch)
{
    const model *m = spec->model;
    int failed = 0;
    for (int i = 0; i < m->nresets; i++) {
        const m_reset *r = &m->resets[i];
        if (r->kind != RESET_KERNEL)
            continue;
        compile_output out;
        int rc = own_compile(spec, arch, NULL, true, &r->kernel, r->loc, "reset kernel", &out);
        if (rc == CUTUNE_ENOMEM || rc == CUTUNE_EEVAL)
            return rc;
        failed += rc != CUTUNE_OK;
        compile_output_free(&out);
    }
    const m_verify *vf = &m->verify;
    if (vf->present && vf->check == CHECK_KERNEL) {
        compile_output out;
        int rc = own_compile(spec, arch, NULL, true, &vf->checker, vf->check_loc, "checker kernel", &out);
        if (rc == CUTUNE_ENOMEM || rc == CUTUNE_EEVAL)
            return rc;
        failed += rc != CUTUNE_OK;
        compile_output_free(&out);
    }
    return failed;
}
