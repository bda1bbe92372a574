/* analyze.c - cutune_analyze: every variant through NVRTC (via the compile pool and
 * the cache), with its resources and theoretical occupancy. No GPU needed.
 *
 * Variants that would compile to the same binary (same name expression and options:
 * params routed `as none` only change the launch) are compiled once; later ones reuse
 * the first one's result and are marked duplicate. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "../runtime/driver.h"
#include "../runtime/occupancy.h"
#include "../runtime/pool.h"
#include "../base/sys.h"
#include "search_run.h"

/* What a unique binary's compile produced, kept for its duplicates. */
typedef struct unique {
    uint64_t hash;
    char *identity;            /* name expression and options, NUL-separated */
    size_t identity_len;
    bool ok, cached, has_resources, nvrtc_failed;
    kernel_resources res;
    double seconds;
    char *log;                 /* excerpt */
    unsigned char *cubin;      /* kept when the caller wants binaries (tuning) */
    size_t cubin_size;
    char *lowered_name;
    struct unique *next;       /* hash chain */
} unique;

/* A job in flight: a deep copy of its variant (the iterator reuses its storage). */
typedef struct job_state {
    arena *arena;
    cutune_variant variant;
    const unique *dup_of;      /* NULL: compiled (or looked up) itself */
    unique *self;              /* to fill when it is not a duplicate */
} job_state;

typedef struct run {
    cutune_spec *spec;
    const cutune_analyze_options *opts;
    cutune_configs *configs;
    const occ_arch *occ;       /* NULL: no occupancy model for this architecture */
    const char *arch;
    char *source;
    const char **include_dirs;   /* canonical (the cache key's walk) */
    int ninclude_dirs;
    const char *kernel_dir_opt;
    const char *kernel_path;     /* the kernel file, canonical: NVRTC's program name */
    const char **inc_opt_from, **inc_opt_to; /* "-I" of each spec include folder, as spelled / canonical */
    int ninc_opts;
    unique **table;
    size_t table_size;
    uint64_t produced, limit, total;
    analyze_each each;
    void *user;
    bool keep_binaries;
    cutune_analyze_summary *summary;
    cutune_progress progress;
    double t0;
    int status;                /* why a hook stopped the run */
    char *compiler_error;
    /* A batch (api_session_run) instead of the iterator: configurations by value. */
    const value *batch_vals;
    const uint64_t *batch_ordinals;
    int batch_n, batch_i;
    arena *scratch;            /* the batch's current variant */
    const char **values;
    char *types;
    cutune_variant v;
} run;

/* `opt` as NVRTC gets it: an include folder of the spec ("-Idir", as the plan spells it)
 * becomes its canonical folder, so that the binary and its cache key do not depend on
 * how the spec's path was spelled (a.tune, ./a.tune, an absolute path, a symlinked
 * folder); every other option as it is. */
static const char *canonical_option(const run *r, const char *opt)
{
    for (int i = 0; i < r->ninc_opts; i++)
        if (strcmp(opt, r->inc_opt_from[i]) == 0)
            return r->inc_opt_to[i];
    return opt;
}

/* `path` made canonical in arena `a` (as it is when it cannot be resolved); NULL when
 * out of memory. */
static const char *canonical_in(arena *a, const char *path)
{
    char *c = sys_canonical_path(path);
    const char *out = arena_strdup(a, c ? c : path);
    free(c);
    return out;
}

static char *copy_string(arena *a, const char *s)
{
    return s ? arena_strdup(a, s) : NULL;
}

static const char **copy_strings(arena *a, const char *const *items, int n, int extra)
{
    const char **out = arena_alloc(a, sizeof(char *) * (size_t)(n + extra + 1));
    for (int i = 0; out && i < n; i++)
        if (!(out[i] = copy_string(a, items[i])))
            return NULL;
    return out;
}

/* The variant's compile identity: everything NVRTC sees besides the source. */
static char *identity_of(arena *a, const cutune_variant *v, size_t *len)
{
    strbuf sb = STRBUF_INIT;
    sb_addn(&sb, v->name_expression, strlen(v->name_expression) + 1);
    for (int i = 0; i < v->ndefines; i++)
        sb_addn(&sb, v->defines[i], strlen(v->defines[i]) + 1);
    for (int i = 0; i < v->noptions; i++)
        sb_addn(&sb, v->options[i], strlen(v->options[i]) + 1);
    char *out = NULL;
    if (sb_ok(&sb)) {
        out = arena_alloc(a, sb.len);
        if (out)
            memcpy(out, sb.data, sb.len);
        *len = sb.len;
    }
    sb_free(&sb);
    return out;
}

/* The batch's next configuration as a variant (in r->scratch): 1, 0 at its end, or a
 * negative status. */
static int batch_next(run *r, const cutune_variant **out)
{
    if (r->batch_i >= r->batch_n)
        return 0;
    const model *m = r->spec->model;
    const value *vals = r->batch_vals + (size_t)r->batch_i * (size_t)m->nparams;
    arena_reset(r->scratch);
    int st = api_variant_of(r->spec, vals, r->scratch, r->values, r->types, r->batch_ordinals[r->batch_i], &r->v);
    if (st < 0)
        return st;
    r->batch_i++;
    *out = &r->v;
    return 1;
}

static int next_job(void *ud, pool_job *pj)
{
    run *r = ud;
    if (r->limit && r->produced >= r->limit)
        return 0;
    if (r->opts && r->opts->cancel && *r->opts->cancel) {
        r->summary->interrupted = 1;
        return 0; /* what is under way is still delivered */
    }
    const cutune_variant *v;
    int rc = r->configs ? cutune_configs_next(r->configs, &v) : batch_next(r, &v);
    if (rc <= 0) {
        if (rc < 0)
            r->status = rc;
        return rc < 0 ? -1 : 0;
    }
    job_state *js = calloc(1, sizeof *js);
    arena *a = arena_new();
    if (!js || !a) {
        free(js);
        arena_free(a);
        r->status = CUTUNE_ENOMEM;
        return -1;
    }
    js->arena = a;
    js->variant = *v;
    js->variant.values = (const char *const *)copy_strings(a, v->values, v->nparams, 0);
    js->variant.types = copy_string(a, v->types ? v->types : "");
    js->variant.defines = (const char *const *)copy_strings(a, v->defines, v->ndefines, 0);
    js->variant.options = (const char *const *)copy_strings(a, v->options, v->noptions, 0);
    js->variant.name_expression = copy_string(a, v->name_expression);
    /* Spec types are one char per param; copy them as a string of that length. */
    if (v->types) {
        char *t = arena_alloc(a, (size_t)v->nparams + 1);
        if (t)
            memcpy(t, v->types, (size_t)v->nparams);
        js->variant.types = t;
    }
    /* NVRTC gets: -D macros, the spec's options (its include folders among them), and
     * the kernel file's own folder for its quoted includes. */
    int nopts = v->ndefines + v->noptions + 1;
    const char **opts = arena_alloc(a, sizeof(char *) * (size_t)(nopts + 1));
    size_t idlen = 0;
    char *identity = identity_of(a, v, &idlen);
    if (!js->variant.values || !js->variant.defines || !js->variant.options || !js->variant.name_expression ||
        !opts || !identity) {
        arena_free(a);
        free(js);
        r->status = CUTUNE_ENOMEM;
        return -1;
    }
    int k = 0;
    for (int i = 0; i < v->ndefines; i++)
        opts[k++] = js->variant.defines[i];
    for (int i = 0; i < v->noptions; i++)
        opts[k++] = canonical_option(r, js->variant.options[i]);
    opts[k++] = r->kernel_dir_opt;

    uint64_t h = XXH3_64bits(identity, idlen);
    unique *u = r->table[h % r->table_size];
    while (u && !(u->hash == h && u->identity_len == idlen && memcmp(u->identity, identity, idlen) == 0))
        u = u->next;
    memset(pj, 0, sizeof *pj);
    if (u) {
        js->dup_of = u;
        pj->skip = true;
    } else {
        u = calloc(1, sizeof *u);
        if (!u || !(u->identity = malloc(idlen))) {
            free(u);
            arena_free(a);
            free(js);
            r->status = CUTUNE_ENOMEM;
            return -1;
        }
        memcpy(u->identity, identity, idlen);
        u->identity_len = idlen;
        u->hash = h;
        u->next = r->table[h % r->table_size];
        r->table[h % r->table_size] = u;
        js->self = u;
    }
    pj->job.source_name = r->kernel_path;
    pj->job.source = r->source;
    pj->job.name_expression = js->variant.name_expression;
    pj->job.options = opts;
    pj->job.noptions = k;
    pj->job.arch = r->arch;
    pj->include_dirs = r->include_dirs;
    pj->ninclude_dirs = r->ninclude_dirs;
    pj->tag = js;
    r->produced++;
    return 1;
}

static void release_job(void *ud, pool_job *pj)
{
    (void)ud;
    job_state *js = pj->tag;
    arena_free(js->arena);
    free(js);
}

static int64_t threads_of(const cutune_variant *v)
{
    return v->block[0] * v->block[1] * v->block[2];
}

static int job_done(void *ud, pool_job *pj, compile_output *out, const char *error)
{
    run *r = ud;
    job_state *js = pj->tag;
    unique *u = js->self;
    if (u) { /* this job's own compile (or cache hit) */
        u->ok = !error && out->ok;
        u->nvrtc_failed = error != NULL;
        u->cached = out->cached;
        u->has_resources = out->has_resources;
        u->res = out->res;
        u->seconds = out->seconds;
        u->log = error ? strdup(error) : compile_log_excerpt(out->log);
        if (r->keep_binaries && out->ok) { /* take them over */
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
        if (!r->compiler_error)
            r->compiler_error = strdup(src->log ? src->log : "NVRTC failed");
        r->status = CUTUNE_ECOMPILER;
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
    if (!src->ok) {
        a.why = "does not compile";
    } else if (!r->occ) {
        a.launchable = 1; /* unknown: no model to say otherwise */
    } else {
        const char *geometry = occ_check_geometry(r->occ, js->variant.block, js->variant.grid);
        occ_usage use = {(int)threads_of(&js->variant), src->res.registers, src->res.static_smem,
                         js->variant.smem_bytes, src->res.barriers, 1};
        occ_result occ;
        if (threads_of(&js->variant) > 1 << 30 || occ_compute(r->occ, &use, &occ) < 0) {
            a.why = "the block shape is out of range";
        } else {
            snprintf(a.occupancy.arch, sizeof a.occupancy.arch, "%s", r->occ->name);
            a.occupancy.blocks_per_sm = occ.blocks_per_sm;
            a.occupancy.active_warps = occ.active_warps;
            a.occupancy.max_warps = occ.max_warps;
            a.occupancy.occupancy = occ.occupancy;
            a.occupancy.limiter = occ_limiter_name(occ.limiter);
            a.occupancy.by_warps = occ.by_warps;
            a.occupancy.by_blocks = occ.by_blocks;
            a.occupancy.by_registers = occ.by_registers;
            a.occupancy.by_shared_memory = occ.by_shared_memory;
            a.occupancy.regs_per_block = occ.regs_per_block;
            a.occupancy.smem_per_block = occ.smem_per_block;
            a.occupancy.unlaunchable = occ.unlaunchable;
            a.why = geometry ? geometry : occ.unlaunchable;
            a.launchable = a.why == NULL;
        }
    }
    cutune_analyze_summary *s = r->summary;
    s->variants++;
    if (a.duplicate)
        s->duplicates++;
    else if (a.cached)
        s->cached++;
    else if (src->ok || !src->nvrtc_failed) {
        s->compiled++;
        s->compile_seconds += src->seconds;
    }
    if (!a.compiled)
        s->failed++;
    else if (!a.launchable)
        s->unlaunchable++;
    analyze_binary bin = {src->cubin, src->cubin_size, src->lowered_name};
    if (r->each(r->user, &a, r->keep_binaries && src->ok ? &bin : NULL) != 0) {
        r->status = CUTUNE_ESTOPPED;
        rc = -1;
    }
    if (r->opts && r->opts->progress) {
        r->progress.done = s->variants;
        r->progress.total = r->total;
        r->progress.compiled = s->compiled;
        r->progress.cached = s->cached + s->duplicates;
        r->progress.failed = s->failed;
        r->opts->progress(r->opts->progress_user, &r->progress);
    }
done:
    release_job(ud, pj);
    return rc;
}

/* The architecture to compile for: asked, else the first GPU's, else sm_90. */
static const char *choose_arch(const cutune_analyze_options *opts, char *buf, size_t size)
{
    if (opts && opts->arch)
        return opts->arch;
    cutune_device dev;
    if (cutune_device_get(0, &dev) == CUTUNE_OK) {
        snprintf(buf, size, "%s", dev.arch);
        return buf;
    }
    return "sm_90";
}

/* The public form: no binaries. */
typedef struct public_each {
    int (*each)(void *user, const cutune_analysis *a);
    void *user;
} public_each;

static int call_public(void *user, const cutune_analysis *a, const analyze_binary *bin)
{
    (void)bin;
    const public_each *p = user;
    return p->each(p->user, a);
}

int cutune_analyze(cutune_spec *spec, const cutune_analyze_options *opts,
                   int (*each)(void *user, const cutune_analysis *a), void *user, cutune_analyze_summary *summary)
{
    if (!each)
        return CUTUNE_EINVAL;
    public_each p = {each, user};
    return api_analyze(spec, opts, call_public, &p, false, summary);
}

struct api_session {
    run r;
    cache *c;
    char *kernel_dir, *dir_opt;
    arena *paths;              /* the canonical paths and include options */
    int threads;
};

void api_session_close(api_session *ss)
{
    if (!ss)
        return;
    run *r = &ss->r;
    cutune_configs_free(r->configs);
    cache_close(ss->c);
    for (size_t i = 0; r->table && i < r->table_size; i++)
        for (unique *u = r->table[i], *next; u; u = next) {
            next = u->next;
            free(u->identity);
            free(u->log);
            free(u->cubin);
            free(u->lowered_name);
            free(u);
        }
    free(r->table);
    free(r->include_dirs);
    free(ss->kernel_dir);
    free(ss->dir_opt);
    arena_free(ss->paths);
    free(r->source);
    free(r->compiler_error);
    arena_free(r->scratch);
    free(r->values);
    free(r->types);
    free(ss);
}

int api_session_open(api_session **out, cutune_spec *spec, const cutune_analyze_options *opts, bool keep_binaries,
                     cutune_analyze_summary *summary)
{
    *out = NULL;
    if (!spec || !summary || !cutune_spec_ok(spec))
        return CUTUNE_EINVAL;
    memset(summary, 0, sizeof *summary);
    if (opts && (opts->jobs < 0 || opts->jobs > CUTUNE_MAX_JOBS)) {
        api_set_error("jobs must be 0 (one per core) to %d, not %d", CUTUNE_MAX_JOBS, opts->jobs);
        return CUTUNE_EINVAL;
    }
    const model *m = spec->model;
    api_session *ss = calloc(1, sizeof *ss);
    if (!ss)
        return CUTUNE_ENOMEM;
    run *rr = &ss->r;
    rr->spec = spec;
    rr->opts = opts;
    rr->keep_binaries = keep_binaries;
    rr->summary = summary;
    rr->limit = opts ? opts->limit : 0;
    char arch_buf[32];
    rr->arch = choose_arch(opts, arch_buf, sizeof arch_buf);
    snprintf(summary->arch, sizeof summary->arch, "%s", rr->arch);
    rr->arch = summary->arch; /* arch_buf does not outlive this call */
    int rc = CUTUNE_OK;
    char err[512];
    if (!compile_supported_arch(rr->arch)) {
        int major = 0, minor = 0;
        compile_nvrtc_version(&major, &minor, err, sizeof err);
        diag_error_noloc(&spec->diags, "NVRTC %d.%d cannot compile for '%s' (use --arch with an sm_XX it supports)",
                         major, minor, rr->arch);
        free(ss);
        return CUTUNE_EINVAL;
    }
    rr->occ = occ_arch_find(rr->arch);
    rr->source = sys_read_file(m->kernel_file, SYS_LIMIT_SOURCE, NULL);
    if (!rr->source) {
        diag_error_noloc(&spec->diags, "cannot read kernel file '%s': %s", m->kernel_file, sys_strerror(errno));
        free(ss);
        return CUTUNE_EIO;
    }
    /* The kernel's folder, for its quoted includes; and every include folder, for the
     * cache key's walk over #include lines. */
    ss->paths = arena_new();
    rr->kernel_path = ss->paths ? canonical_in(ss->paths, m->kernel_file) : NULL;
    const char *slash = rr->kernel_path ? strrchr(rr->kernel_path, '/') : NULL;
    ss->kernel_dir = !rr->kernel_path ? NULL
                     : slash         ? strndup(rr->kernel_path, (size_t)(slash - rr->kernel_path))
                                     : strdup(".");
    ss->dir_opt = ss->kernel_dir ? malloc(strlen(ss->kernel_dir) + 3) : NULL;
    rr->include_dirs = calloc((size_t)m->nincludes + 2, sizeof(char *));
    rr->inc_opt_from = ss->paths ? arena_alloc(ss->paths, sizeof(char *) * (size_t)(m->nincludes + 1)) : NULL;
    rr->inc_opt_to = ss->paths ? arena_alloc(ss->paths, sizeof(char *) * (size_t)(m->nincludes + 1)) : NULL;
    for (int i = 0; rr->inc_opt_from && rr->inc_opt_to && rr->include_dirs && i < m->nincludes; i++) {
        const char *canon = canonical_in(ss->paths, m->includes[i]);
        rr->inc_opt_from[i] = arena_printf(ss->paths, "-I%s", m->includes[i]); /* as compiler/plan.c spells it */
        rr->inc_opt_to[i] = canon ? arena_printf(ss->paths, "-I%s", canon) : NULL;
        rr->include_dirs[rr->ninclude_dirs++] = canon;
        if (!canon || !rr->inc_opt_from[i] || !rr->inc_opt_to[i]) {
            rr->inc_opt_from = NULL; /* out of memory: failed below */
            break;
        }
        rr->ninc_opts = i + 1;
    }
    rr->table_size = 4099;
    rr->table = calloc(rr->table_size, sizeof(unique *));
    rr->scratch = arena_new();
    rr->values = calloc((size_t)m->nparams + 1, sizeof(char *));
    rr->types = calloc((size_t)m->nparams + 1, 1);
    if (!ss->kernel_dir || !ss->dir_opt || !rr->include_dirs || !rr->inc_opt_from || !rr->inc_opt_to ||
        !rr->table || !rr->scratch || !rr->values || !rr->types) {
        api_session_close(ss);
        return CUTUNE_ENOMEM;
    }
    for (int i = 0; i < m->nparams; i++)
        rr->types[i] = vtype_name(m->params[i].dom.type)[0];
    sprintf(ss->dir_opt, "-I%s", ss->kernel_dir);
    rr->kernel_dir_opt = ss->dir_opt;
    rr->include_dirs[rr->ninclude_dirs++] = ss->kernel_dir;

    cutune_space_size size;
    if (cutune_space_count(spec, &size) == CUTUNE_OK && !size.valid_saturated && !size.valid_estimated)
        rr->total = rr->limit && rr->limit < size.valid ? rr->limit : size.valid;

    if (!(opts && opts->no_cache)) {
        char dir_buf[1024];
        const char *dir = opts && opts->cache_dir ? opts->cache_dir : cache_default_dir(dir_buf, sizeof dir_buf);
        if (dir && cache_open(&ss->c, dir, err, sizeof err) == 0)
            snprintf(summary->cache_dir, sizeof summary->cache_dir, "%s", dir);
        else
            snprintf(summary->cache_warning, sizeof summary->cache_warning, "cache off: %s",
                     dir ? err : "no cache folder (set CUTUNE_CACHE_DIR or HOME)");
    }
    ss->threads = opts && opts->jobs > 0 ? opts->jobs : pool_default_threads();
    if (ss->threads > CUTUNE_MAX_JOBS) /* a machine of more cores than that */
        ss->threads = CUTUNE_MAX_JOBS;
    summary->threads = ss->threads;
    *out = ss;
    return rc;
}

void api_session_set_total(api_session *ss, uint64_t total)
{
    ss->r.total = total;
}

/* Runs the pool over the session's source (the iterator, or a batch). */
static int session_pool(api_session *ss, analyze_each each, void *user)
{
    run *r = &ss->r;
    cutune_analyze_summary *summary = r->summary;
    r->each = each;
    r->user = user;
    r->status = 0;
    char err[512];
    int rc = CUTUNE_OK;
    pool_hooks hooks = {next_job, job_done, release_job};
    pool_stats stats;
    if (pool_run(ss->threads, ss->threads * 4, ss->c, &hooks, r, &stats, err, sizeof err) < 0)
        rc = r->status ? r->status : CUTUNE_ENOMEM;
    summary->wall_seconds += stats.wall_seconds;
    if (stats.cache_errors && !summary->cache_warning[0])
        snprintf(summary->cache_warning, sizeof summary->cache_warning, "%llu cache entries not written: %s",
                 (unsigned long long)stats.cache_errors, stats.cache_error);
    if (rc == CUTUNE_ECOMPILER)
        diag_error_noloc(&r->spec->diags, "NVRTC failed: %s", r->compiler_error ? r->compiler_error : "unknown error");
    return rc;
}

int api_session_run(api_session *ss, const value *values, const uint64_t *ordinals, int n, analyze_each each,
                     void *user)
{
    run *r = &ss->r;
    r->batch_vals = values;
    r->batch_ordinals = ordinals;
    r->batch_n = n;
    r->batch_i = 0;
    r->limit = 0;
    r->produced = 0;
    return session_pool(ss, each, user);
}

int api_analyze(cutune_spec *spec, const cutune_analyze_options *opts, analyze_each each, void *user,
                bool keep_binaries, cutune_analyze_summary *summary)
{
    if (!spec || !each || !summary || !cutune_spec_ok(spec))
        return CUTUNE_EINVAL;
    api_session *ss;
    int rc = api_session_open(&ss, spec, opts, keep_binaries, summary);
    if (rc < 0)
        return rc;
    if ((rc = cutune_configs_new(&ss->r.configs, spec)) == CUTUNE_OK)
        rc = session_pool(ss, each, user);
    api_session_close(ss);
    return rc;
}
