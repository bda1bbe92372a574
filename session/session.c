/* session.c - the compile session (session.h): its life (open, close, the paths and
 * the cache it sets up) and its sources of configurations (the space's listing, a
 * batch, a stream), each configuration planned as a variant and made into the pool's
 * job, its distinct binary found or made, and the pool run over them. Delivering each
 * job the pool is done with (resources, occupancy, the summary, the callback) is
 * session_deliver.c's; the state both read is session_internal.h.
 *
 * Variants that would compile to the same binary (same name expression and options:
 * params routed `as none` only change the launch) are compiled once; later ones reuse
 * the first one's result and are marked duplicate. The table of distinct binaries is a
 * uthash table (uthash-dev) keyed by that compile identity. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/err.h"
#include "../base/sys.h"
#include "../compiler/space.h"
#include "../runtime/cache.h"
#include "../runtime/occupancy.h"
#include "../runtime/pool.h"
#include "session_internal.h"

int session_variant_of(const model *m, diag_list *diags, const value *vals, arena *scratch, const char **values,
                       const char *types, uint64_t ordinal, cutune_variant *v)
{
    variant var;
    eval_error err;
    if (plan_variant(m, vals, scratch, &var, &err) < 0) {
        diag_error(diags, err.loc, "%s", err.message);
        return CUTUNE_EEVAL;
    }
    strbuf sb = STRBUF_INIT;
    for (int i = 0; i < m->nparams; i++) {
        sb_reset(&sb);
        value_format(vals[i], &sb, false);
        values[i] = sb_ok(&sb) ? arena_strdup(scratch, sb_cstr(&sb)) : NULL;
        if (!values[i]) {
            sb_free(&sb);
            return CUTUNE_ENOMEM;
        }
    }
    sb_free(&sb);
    v->typed = plan_typed_values(scratch, vals, values, m->nparams);
    if (!v->typed)
        return CUTUNE_ENOMEM;
    v->ordinal = ordinal;
    v->nparams = m->nparams;
    v->values = values;
    v->types = types;
    memcpy(v->block, var.block, sizeof v->block);
    memcpy(v->grid, var.grid, sizeof v->grid);
    v->block_dims = var.block_dims;
    v->grid_dims = var.grid_dims;
    v->smem_bytes = var.smem_bytes;
    v->defines = var.defines;
    v->ndefines = var.ndefines;
    v->options = var.options;
    v->noptions = var.noptions;
    v->ncommon_options = var.ncommon_options;
    v->name_expression = var.name_expression;
    return 0;
}

/* `opt` as NVRTC gets it: an include folder of the spec ("-Idir", as the plan spells it)
 * becomes its canonical folder, so that the binary and its cache key do not depend on
 * how the spec's path was spelled (a.tune, ./a.tune, an absolute path, a symlinked
 * folder); every other option as it is. */
static const char *canonical_option(const session *s, const char *opt)
{
    for (int i = 0; i < s->ninc_opts; i++)
        if (strcmp(opt, s->inc_opt_from[i]) == 0)
            return s->inc_opt_to[i];
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

/* `s` copied into `a` (NULL stays NULL). */
static char *copy_string(arena *a, const char *s)
{
    return s ? arena_strdup(a, s) : NULL;
}

/* The n strings `items` copied into `a`, in an array of n + extra + 1 slots; NULL when
 * out of memory. */
static const char **copy_strings(arena *a, const char *const *items, int n, int extra)
{
    const char **out = arena_alloc(a, sizeof(char *) * (size_t)(n + extra + 1));
    for (int i = 0; out && i < n; i++)
        if (!(out[i] = copy_string(a, items[i])))
            return NULL;
    return out;
}

/* The configuration `vals` (n values) copied into `a`, strings included; NULL when out
 * of memory. */
static value *copy_values(arena *a, const value *vals, int n)
{
    value *out = arena_alloc(a, sizeof(value) * (size_t)(n + 1));
    for (int i = 0; out && i < n; i++) {
        out[i] = vals[i];
        if (vals[i].type == VT_STRING && !(out[i].u.s = arena_strdup(a, vals[i].u.s)))
            return NULL;
    }
    return out;
}

/* The variant's compile identity (in `a`, its length in *len): everything NVRTC sees
 * besides the source. NULL when out of memory. */
static char *identity_of(arena *a, const cutune_variant *v, size_t *len)
{
    strbuf sb = STRBUF_INIT;
    plan_identity(&sb, v->name_expression, v->defines, v->ndefines, v->options, v->noptions);
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

/* The next configuration as a variant (in s->scratch), from the space, the batch or the
 * stream: 1, 0 at the end, SESSION_WAIT (the stream has nothing until a delivery), or a
 * negative status (with a diagnostic for CUTUNE_EEVAL). */
static int next_variant(session *s, const cutune_variant **out)
{
    const value *vals;
    uint64_t ordinal;
    if (s->feed) {
        int rc = s->feed(s->feed_user, &vals, &ordinal);
        if (rc != 1)
            return rc; /* 0 the end, SESSION_WAIT, or a status */
    } else if (s->iter) {
        const uint64_t *idx;
        eval_error err;
        int shards = s->opts && s->opts->shard_count > 1 ? s->opts->shard_count : 1;
        do { /* a shard lists only its own ordinals (of the whole space) */
            int rc = space_iter_next(s->iter, &idx, &vals, &err);
            if (rc < 0) {
                diag_error(s->diags, err.loc, "%s", err.message);
                return CUTUNE_EEVAL;
            }
            if (rc == 0)
                return 0;
            ordinal = s->next_ordinal++;
        } while (shards > 1 &&
                 !space_in_shard(ordinal, (uint64_t)s->opts->shard_index, (uint64_t)shards, space_shard_block(s->m)));
    } else {
        if (s->batch_i >= s->batch_n)
            return 0;
        vals = s->batch_vals + (size_t)s->batch_i * (size_t)s->m->nparams;
        ordinal = s->batch_ordinals[s->batch_i];
        s->batch_i++;
    }
    arena_reset(s->scratch);
    int st = session_variant_of(s->m, s->diags, vals, s->scratch, s->values, s->types, ordinal, &s->v);
    if (st < 0)
        return st;
    /* Its arguments as the GPU worker will plan them: a buffer whose bytes overflow
     * (its count reads params) cannot run, and analyze says so without a GPU. */
    eval_error e;
    s->unrunnable = plan_args(s->m, vals, s->counts, s->scalars, &e) < 0 ? arena_strdup(s->scratch, e.message) : NULL;
    s->vals = vals;
    *out = &s->v;
    return 1;
}

/* The distinct binary of compile identity `identity` (idlen bytes): *found is set when
 * an earlier variant had it, else a new entry is made (and returned). NULL when out of
 * memory. */
static unique *unique_for(session *s, const char *identity, size_t idlen, bool *found)
{
    unique *u = NULL;
    HASH_FIND(hh, s->table, identity, idlen, u);
    *found = u != NULL;
    if (u)
        return u;
    u = calloc(1, sizeof *u);
    if (!u || !(u->identity = malloc(idlen))) {
        free(u);
        return NULL;
    }
    memcpy(u->identity, identity, idlen);
    u->identity_len = idlen;
    HASH_ADD_KEYPTR(hh, s->table, u->identity, u->identity_len, u);
    if (u->oom) {
        free(u->identity);
        free(u);
        return NULL;
    }
    return u;
}

/* pool hook: the next job (1), no more (0), or stop (-1, s->status says why). */
static int next_job(void *ud, pool_job *pj)
{
    session *s = ud;
    if (s->limit && s->produced >= s->limit)
        return 0;
    if (s->opts && s->opts->cancel && *s->opts->cancel) {
        s->summary->interrupted = 1;
        return 0; /* what is under way is still delivered */
    }
    const cutune_variant *v = NULL;
    int rc = next_variant(s, &v);
    if (rc == SESSION_WAIT)
        return POOL_WAIT;
    if (rc <= 0) {
        if (rc < 0)
            s->status = rc;
        return rc < 0 ? -1 : 0;
    }
    job_state *js = calloc(1, sizeof *js);
    arena *a = arena_new();
    if (!js || !a) {
        free(js);
        arena_free(a);
        s->status = CUTUNE_ENOMEM;
        return -1;
    }
    js->arena = a;
    js->variant = *v;
    js->unrunnable = s->unrunnable ? copy_string(a, s->unrunnable) : NULL;
    js->variant.values = (const char *const *)copy_strings(a, v->values, v->nparams, 0);
    js->variant.types = copy_string(a, v->types ? v->types : "");
    js->variant.defines = (const char *const *)copy_strings(a, v->defines, v->ndefines, 0);
    js->variant.options = (const char *const *)copy_strings(a, v->options, v->noptions, 0);
    js->variant.name_expression = copy_string(a, v->name_expression);
    js->vals = copy_values(a, s->vals, v->nparams);
    js->variant.typed =
        js->vals && js->variant.values ? plan_typed_values(a, js->vals, js->variant.values, v->nparams) : NULL;
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
    bool found = false;
    unique *u = NULL;
    /* a known one makes no entry of distinct binaries: a later variant of its identity
     * compiles itself */
    js->known = js->vals && s->feed && s->known && s->known(s->known_user, v->ordinal, js->vals);
    if (!js->variant.values || !js->vals || !js->variant.typed || !js->variant.defines || !js->variant.options ||
        !js->variant.name_expression || !opts || !identity ||
        (!js->known && !(u = unique_for(s, identity, idlen, &found)))) {
        arena_free(a);
        free(js);
        s->status = CUTUNE_ENOMEM;
        return -1;
    }
    int k = 0;
    for (int i = 0; i < v->ndefines; i++)
        opts[k++] = js->variant.defines[i];
    for (int i = 0; i < v->noptions; i++)
        opts[k++] = canonical_option(s, js->variant.options[i]);
    opts[k++] = s->kernel_dir_opt;

    memset(pj, 0, sizeof *pj);
    if (js->known) {
        pj->skip = true;
    } else if (found) {
        js->dup_of = u;
        pj->skip = true;
    } else {
        js->self = u;
    }
    pj->job.source_name = s->kernel_path;
    pj->job.source = s->source;
    pj->job.name_expression = js->variant.name_expression;
    pj->job.options = opts;
    pj->job.noptions = k;
    pj->job.arch = s->arch;
    pj->tag = js;
    s->produced++;
    return 1;
}

void session_set_known(session *s, session_known known, void *user)
{
    s->known = known;
    s->known_user = user;
}

void session_close(session *s)
{
    if (!s)
        return;
    space_iter_free(s->iter);
    space_free(s->space);
    cache_close(s->cache);
    unique *u, *next;
    HASH_ITER(hh, s->table, u, next)
    {
        HASH_DEL(s->table, u);
        free(u->identity);
        free(u->log);
        free(u->cubin);
        free(u->lowered_name);
        free(u);
    }
    free(s->kernel_dir);
    free(s->kernel_dir_opt);
    arena_free(s->paths);
    free(s->source);
    free(s->compiler_error);
    arena_free(s->scratch);
    free(s->values);
    free(s->counts);
    free(s->scalars);
    free(s->types);
    free(s);
}

/* The kernel's canonical path and folder (for its quoted includes), and every include
 * folder of the spec canonical, for the -I options NVRTC gets (which runtime/includes
 * follows, in the pool, to read the #include lines' files). CUTUNE_OK or
 * CUTUNE_ENOMEM. */
static int set_paths(session *s)
{
    const model *m = s->m;
    s->paths = arena_new();
    s->kernel_path = s->paths ? canonical_in(s->paths, m->kernel_file) : NULL;
    const char *slash = s->kernel_path ? strrchr(s->kernel_path, '/') : NULL;
    s->kernel_dir = !s->kernel_path ? NULL
                    : slash         ? strndup(s->kernel_path, (size_t)(slash - s->kernel_path))
                                    : strdup(".");
    s->kernel_dir_opt = s->kernel_dir ? malloc(strlen(s->kernel_dir) + 3) : NULL;
    s->inc_opt_from = s->paths ? arena_alloc(s->paths, sizeof(char *) * (size_t)(m->nincludes + 1)) : NULL;
    s->inc_opt_to = s->paths ? arena_alloc(s->paths, sizeof(char *) * (size_t)(m->nincludes + 1)) : NULL;
    for (int i = 0; s->inc_opt_from && s->inc_opt_to && i < m->nincludes; i++) {
        const char *canon = canonical_in(s->paths, m->includes[i]);
        s->inc_opt_from[i] = arena_printf(s->paths, "-I%s", m->includes[i]); /* as compiler/plan.c spells it */
        s->inc_opt_to[i] = canon ? arena_printf(s->paths, "-I%s", canon) : NULL;
        if (!canon || !s->inc_opt_from[i] || !s->inc_opt_to[i]) {
            s->inc_opt_from = NULL; /* out of memory: failed below */
            break;
        }
        s->ninc_opts = i + 1;
    }
    if (!s->kernel_dir || !s->kernel_dir_opt || !s->inc_opt_from || !s->inc_opt_to)
        return CUTUNE_ENOMEM;
    sprintf(s->kernel_dir_opt, "-I%s", s->kernel_dir);
    return CUTUNE_OK;
}

/* Opens the cache the options name (or the default folder), unless they turn it off;
 * a cache that cannot be opened is a warning in the summary, not an error. */
static void open_cache(session *s)
{
    const cutune_analyze_options *opts = s->opts;
    if (opts && opts->no_cache)
        return;
    char *fallback = opts && opts->cache_dir ? NULL : cache_default_dir(); /* in full, never cut */
    const char *dir = opts && opts->cache_dir ? opts->cache_dir : fallback;
    if (dir && cache_open(&s->cache, dir) == 0)
        s->summary->cache_dir = arena_strdup(s->diags->arena, dir); /* the spec's: outlives the session */
    else
        s->summary->cache_warning =
            arena_printf(s->diags->arena, "cache off: %s",
                         dir ? err_last()->message : "no cache folder (set CUTUNE_CACHE_DIR or HOME)");
    free(fallback);
}

int session_open(session **out, const model *m, diag_list *diags, const char *arch, const cutune_analyze_options *opts,
                 bool keep_binaries, cutune_analyze_summary *summary)
{
    *out = NULL;
    memset(summary, 0, sizeof *summary);
    if (!(summary->arch = arena_strdup(diags->arena, arch))) /* the spec's: outlives the session */
        return CUTUNE_ENOMEM;
    if (!compile_supported_arch(summary->arch)) {
        int major = 0, minor = 0;
        compile_nvrtc_version(&major, &minor);
        diag_error_noloc(diags, "NVRTC %d.%d cannot compile for '%s' (use --arch with an sm_XX it supports)", major,
                         minor, summary->arch);
        return CUTUNE_EINVAL;
    }
    session *s = calloc(1, sizeof *s);
    if (!s)
        return CUTUNE_ENOMEM;
    s->m = m;
    s->diags = diags;
    s->opts = opts;
    s->keep_binaries = keep_binaries;
    s->summary = summary;
    s->limit = opts ? opts->limit : 0;
    s->arch = summary->arch;
    s->occ = occ_arch_find(s->arch);
    s->source = sys_read_file(m->kernel_file, SYS_LIMIT_SOURCE, NULL);
    if (!s->source) {
        diag_error_noloc(diags, "cannot read kernel file '%s': %s", m->kernel_file, sys_strerror(errno));
        free(s);
        return CUTUNE_EIO;
    }
    s->scratch = arena_new();
    s->values = calloc((size_t)m->nparams + 1, sizeof(char *));
    s->types = calloc((size_t)m->nparams + 1, 1);
    s->counts = calloc((size_t)m->nargs + 1, sizeof *s->counts);
    s->scalars = calloc((size_t)m->nargs + 1, sizeof *s->scalars);
    if (set_paths(s) < 0 || !s->scratch || !s->values || !s->types || !s->counts || !s->scalars) {
        session_close(s);
        return CUTUNE_ENOMEM;
    }
    for (int i = 0; i < m->nparams; i++)
        s->types[i] = vtype_name(m->params[i].dom.type)[0];
    open_cache(s);
    s->threads = opts && opts->jobs > 0 ? opts->jobs : pool_default_threads();
    if (s->threads > CUTUNE_MAX_JOBS) /* a machine of more cores than that */
        s->threads = CUTUNE_MAX_JOBS;
    summary->threads = s->threads;
    *out = s;
    return CUTUNE_OK;
}

void session_set_total(session *s, uint64_t total)
{
    s->total = total;
}

/* Runs the pool over the session's source of configurations (the space, or a batch). */
static int run_pool(session *s, session_each each, void *user)
{
    cutune_analyze_summary *summary = s->summary;
    s->each = each;
    s->user = user;
    s->status = 0;
    int rc = CUTUNE_OK;
    pool_hooks hooks = {next_job, session_job_done, session_job_release};
    pool_stats stats;
    /* A stream (the tuner's) takes each variant as soon as it is compiled: in listing
     * order, one slow compile would keep the GPU waiting with others ready behind it. */
    unsigned flags = s->feed ? POOL_ANY_ORDER : 0;
    if (pool_run(s->threads, s->threads * 4, flags, s->cache, &hooks, s, &stats) < 0)
        rc = s->status ? s->status : CUTUNE_ENOMEM;
    summary->wall_seconds += stats.wall_seconds;
    if (stats.cache_errors && !summary->cache_warning)
        summary->cache_warning = arena_printf(s->diags->arena, "%llu cache entries not written: %s",
                                              (unsigned long long)stats.cache_errors, stats.cache_error);
    if (stats.warning[0] && !summary->compile_warning)
        summary->compile_warning = arena_printf(s->diags->arena, "%s", stats.warning);
    if (rc == CUTUNE_ECOMPILER)
        diag_error_noloc(s->diags, "NVRTC failed: %s", s->compiler_error ? s->compiler_error : "unknown error");
    return rc;
}

int session_run_space(session *s, session_each each, void *user)
{
    space_iter_free(s->iter); /* the listing starts over */
    s->iter = NULL;
    s->feed = NULL;
    if ((!s->space && space_new(&s->space, s->m, NULL, 0) < 0) || space_iter_new(&s->iter, s->space) < 0)
        return CUTUNE_ENOMEM;
    s->batch_n = 0;
    s->next_ordinal = 0;
    s->produced = s->delivered = 0;
    s->limit = s->opts ? s->opts->limit : 0;
    return run_pool(s, each, user);
}

int session_stream(session *s, session_feed feed, void *feed_user, session_each each, void *user)
{
    space_iter_free(s->iter); /* the stream is the source now */
    s->iter = NULL;
    s->batch_n = 0;
    s->feed = feed;
    s->feed_user = feed_user;
    s->limit = 0;
    s->produced = s->delivered = 0;
    int rc = run_pool(s, each, user);
    s->feed = NULL;
    return rc;
}

uint64_t session_in_flight(const session *s)
{
    return s->produced - s->delivered;
}

int session_run(session *s, const value *values, const uint64_t *ordinals, int n, session_each each, void *user)
{
    space_iter_free(s->iter); /* a batch is the source now */
    s->iter = NULL;
    s->feed = NULL;
    s->batch_vals = values;
    s->batch_ordinals = ordinals;
    s->batch_n = n;
    s->batch_i = 0;
    s->limit = 0;
    s->produced = s->delivered = 0;
    return run_pool(s, each, user);
}
