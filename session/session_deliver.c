/* session_deliver.c - the compile session's delivery (session.h, session_internal.h):
 * each job the pool is done with (compiled, found in the cache, or skipped as a
 * duplicate or a known configuration) recorded in its distinct binary, made into the
 * variant's analysis (resources, theoretical occupancy, whether it can launch and why
 * not), counted in the summary, reported as progress and handed to the caller's
 * callback. Planning the jobs and running the pool are session.c's.
 *
 * Ownership: a delivered job's compile output is taken over here (its cubin and lowered
 * name move into the distinct binary when binaries are kept, the rest is freed) and the
 * job is released once the callback returns; the analysis handed to the callback is on
 * the stack, valid during the call. */
#include <stdlib.h>
#include <string.h>

#include "../runtime/compile.h"
#include "../runtime/occupancy.h"
#include "session_internal.h"

/* pool hook: a job produced but not delivered (and every delivered one, after). */
void session_job_release(void *ud, pool_job *pj)
{
    (void)ud;
    job_state *js = pj->tag;
    arena_free(js->arena);
    free(js);
}

void session_occupancy(const occ_arch *arch, const occ_result *r, cutune_occupancy *out)
{
    out->arch = arch->name; /* static: the occupancy model's table */
    out->blocks_per_sm = r->blocks_per_sm;
    out->active_warps = r->active_warps;
    out->max_warps = r->max_warps;
    out->occupancy = r->occupancy;
    out->limiter = occ_limiter_name(r->limiter);
    out->by_warps = r->by_warps;
    out->by_blocks = r->by_blocks;
    out->by_registers = r->by_registers;
    out->by_shared_memory = r->by_shared_memory;
    out->regs_per_block = r->regs_per_block;
    out->smem_per_block = r->smem_per_block;
    out->unlaunchable = r->unlaunchable;
}

/* The threads of variant `v`'s block. */
static int64_t threads_of(const cutune_variant *v)
{
    return v->block[0] * v->block[1] * v->block[2];
}

/* a->occupancy, a->why and a->launchable of compiled variant `v` with resources `res`. */
static void occupancy_of(const session *s, const cutune_variant *v, const kernel_resources *res, cutune_analysis *a)
{
    if (!s->occ) {
        a->launchable = 1; /* unknown: no model to say otherwise */
        return;
    }
    const char *geometry = occ_check_geometry(s->occ, v->block, v->grid);
    occ_usage use = {(int)threads_of(v), res->registers, res->static_smem, v->smem_bytes, res->barriers, 1};
    occ_result occ;
    if (threads_of(v) > 1 << 30 || occ_compute(s->occ, &use, &occ) < 0) {
        a->why = "the block shape is out of range";
        return;
    }
    session_occupancy(s->occ, &occ, &a->occupancy);
    a->why = geometry ? geometry : occ.unlaunchable;
    a->launchable = a->why == NULL;
}

const char session_not_compiled[] = "not compiled: its outcome is known";

/* The progress report, after a delivery. */
static void report_progress(session *s)
{
    if (!s->opts || !s->opts->progress)
        return;
    const cutune_analyze_summary *sum = s->summary;
    s->progress.done = sum->variants;
    s->progress.total = s->total;
    s->progress.compiled = sum->compiled;
    s->progress.cached = sum->cached + sum->duplicates;
    s->progress.failed = sum->failed;
    s->opts->progress(s->opts->progress_user, &s->progress);
}

/* A known variant (session_known), delivered uncompiled: 0 to go on, -1 to stop. */
static int known_done(session *s, job_state *js)
{
    cutune_analysis a;
    memset(&a, 0, sizeof a);
    a.variant = &js->variant;
    a.log = "";
    a.why = session_not_compiled;
    s->summary->variants++;
    int rc = 0;
    if (s->each(s->user, &a, js->vals, NULL) != 0) {
        s->status = CUTUNE_ESTOPPED;
        rc = -1;
    }
    report_progress(s);
    return rc;
}

/* pool hook: job `pj`'s result, in production order: recorded, counted, and handed to
 * the callback. 0 to go on, -1 to stop (s->status says why). */
int session_job_done(void *ud, pool_job *pj, compile_output *out, const char *error)
{
    session *s = ud;
    s->delivered++;
    job_state *js = pj->tag;
    if (js->known) {
        compile_output_free(out);
        int rc = known_done(s, js);
        session_job_release(ud, pj);
        return rc;
    }
    unique *u = js->self;
    if (u) { /* this job's own compile (or cache hit) */
        u->ok = !error && out->ok;
        u->nvrtc_failed = error != NULL;
        u->cached = out->cached;
        u->has_resources = out->has_resources;
        u->res = out->res;
        u->seconds = out->seconds;
        u->log = error ? strdup(error) : compile_log_excerpt(out->log);
        if (s->keep_binaries && out->ok) { /* take them over */
            u->cubin = out->cubin;
            u->cubin_size = out->cubin_size;
            u->lowered_name = out->lowered_name;
            out->cubin = NULL;
            out->lowered_name = NULL;
        }
    }
    compile_output_free(out);
    const unique *src = u ? u : js->dup_of;
    int rc = 0;
    if (src->nvrtc_failed) {
        /* NVRTC itself broke (not the kernel): no point going on. */
        if (!s->compiler_error)
            s->compiler_error = strdup(src->log ? src->log : "NVRTC failed");
        s->status = CUTUNE_ECOMPILER;
        rc = -1;
        goto done;
    }
    cutune_analysis a;
    memset(&a, 0, sizeof a);
    a.variant = &js->variant;
    a.compiled = src->ok;
    a.log = src->log ? src->log : "";
    a.has_resources = src->ok && src->has_resources;
    a.registers = src->res.registers;
    a.static_smem = src->res.static_smem;
    a.local_bytes = src->res.stack_frame;
    a.spill_stores = src->res.spill_stores;
    a.spill_loads = src->res.spill_loads;
    a.barriers = src->res.barriers;
    a.compile_seconds = src->seconds;
    a.cached = src->cached;
    a.duplicate = js->dup_of != NULL;
    a.launchable = 0;
    if (!src->ok)
        a.why = "does not compile";
    else
        occupancy_of(s, &js->variant, &src->res, &a);
    if (src->ok && a.launchable && js->unrunnable) {
        a.launchable = 0;
        a.why = js->unrunnable;
    }
    cutune_analyze_summary *sum = s->summary;
    sum->variants++;
    if (a.duplicate)
        sum->duplicates++;
    else if (a.cached)
        sum->cached++;
    else if (src->ok || !src->nvrtc_failed) {
        sum->compiled++;
        sum->compile_seconds += src->seconds;
    }
    if (!a.compiled)
        sum->failed++;
    else if (!a.launchable)
        sum->unlaunchable++;
    session_binary bin = {src->cubin, src->cubin_size, src->lowered_name};
    if (s->each(s->user, &a, js->vals, s->keep_binaries && src->ok ? &bin : NULL) != 0) {
        s->status = CUTUNE_ESTOPPED;
        rc = -1;
    }
    report_progress(s);
done:
    session_job_release(ud, pj);
    return rc;
}
