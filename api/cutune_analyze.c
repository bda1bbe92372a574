/* cutune_analyze.c - cutune/analyze.h: cutune_analyze, the public facade over the
 * compile session (session/session.h): argument checks, the architecture to compile for,
 * the total that progress counts towards, the session's lifetime; the analysis at each
 * problem size (cutune_analyze_sizes) and what is said when nothing can run. No GPU
 * needed. */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "../emit/emit_text.h"
#include "../emit/verdict.h"
#include "../session/own.h"

/* The architecture to compile for: asked, else the first GPU's, else sm_90; *dv gets
 * the device attributes' values to go with it (the GPU's, else the arch's table; an
 * arch without a table keeps the values the spec was checked with, dv->v[DA_CC] 0). */
static const char *choose_arch(const cutune_analyze_options *opts, char *buf, size_t size, dev_values *dv)
{
    memset(dv, 0, sizeof *dv);
    if (opts && opts->arch) {
        api_device_values_for_arch(dv, opts->arch);
        return opts->arch;
    }
    cutune_device dev;
    if (cutune_device_get(&dev, 0) == CUTUNE_OK) {
        dev_values_from_device(dv, &dev);
        snprintf(buf, size, "%s", dev.arch);
        return buf;
    }
    api_device_values_for_arch(dv, "sm_90");
    return "sm_90";
}

/* Checks the arguments and opens a session for `spec`, its progress total the number of
 * valid configurations (at most opts->limit) when that is known exactly. */
static int open_session(session **out, cutune_spec *spec, const cutune_analyze_options *opts, bool keep_binaries,
                        cutune_analyze_summary *summary)
{
    *out = NULL;
    if (!spec || !summary || !cutune_spec_ok(spec))
        return CUTUNE_EINVAL;
    memset(summary, 0, sizeof *summary);
    if (opts && (opts->jobs < 0 || opts->jobs > CUTUNE_MAX_JOBS)) {
        err_set(CUTUNE_EINVAL, "jobs must be 0 (one per core) to %d, not %d", CUTUNE_MAX_JOBS, opts->jobs);
        return CUTUNE_EINVAL;
    }
    char arch[32];
    dev_values dv;
    const char *target = choose_arch(opts, arch, sizeof arch, &dv);
    int rc = dv.v[DA_CC] ? api_spec_recheck(spec, &dv) : CUTUNE_OK;
    if (rc < 0)
        return rc;
    rc = session_open(out, spec->model, &spec->diags, target, opts, keep_binaries, summary);
    if (rc < 0)
        return rc;
    uint64_t limit = opts ? opts->limit : 0;
    cutune_space_size size;
    if (cutune_space_count(&size, spec) == CUTUNE_OK && !size.valid_saturated && !size.valid_estimated)
        session_set_total(*out, limit && limit < size.valid ? limit : size.valid);
    return CUTUNE_OK;
}

/* The public form: no binaries. */
typedef struct public_each {
    int (*each)(void *user, const cutune_analysis *a);
    void *user;
} public_each;

static int call_public(void *user, const cutune_analysis *a, const value *vals, const session_binary *bin)
{
    (void)vals;
    (void)bin;
    const public_each *p = user;
    return p->each(p->user, a);
}

int cutune_analyze(cutune_analyze_summary *summary, cutune_spec *spec, const cutune_analyze_options *opts,
                   int (*each)(void *user, const cutune_analysis *a), void *user)
{
    if (!each)
        return CUTUNE_EINVAL;
    int rc = api_options_ok(opts, CUTUNE_ANALYZE_OPTIONS_VERSION, "cutune_analyze_options");
    if (rc < 0)
        return rc;
    if (opts && opts->shard_count > 1 && (opts->shard_index < 0 || opts->shard_index >= opts->shard_count))
        return err_set(CUTUNE_EINVAL, "shard %d of %d: the index runs from 0 to %d", opts->shard_index,
                       opts->shard_count, opts->shard_count - 1);
    public_each p = {each, user};
    session *s;
    rc = open_session(&s, spec, opts, false, summary);
    if (rc < 0)
        return rc;
    rc = session_run_space(s, call_public, &p);
    session_close(s);
    if (rc == CUTUNE_OK && !summary->interrupted) { /* the spec's reset and checker kernels, as warnings */
        int own = own_check(spec, summary->arch);
        if (own == CUTUNE_ENOMEM || own == CUTUNE_EEVAL)
            rc = own;
    }
    return rc;
}

/* add_summary: `one`, a size's summary, added to *total: the counts and seconds summed,
 * the rest the latest's (interrupted when any was). */
static void add_summary(cutune_analyze_summary *total, const cutune_analyze_summary *one)
{
    cutune_analyze_summary sum = *one;
    sum.variants += total->variants;
    sum.compiled += total->compiled;
    sum.cached += total->cached;
    sum.duplicates += total->duplicates;
    sum.failed += total->failed;
    sum.unlaunchable += total->unlaunchable;
    sum.compile_seconds += total->compile_seconds;
    sum.wall_seconds += total->wall_seconds;
    sum.interrupted |= total->interrupted;
    *total = sum;
}

int cutune_analyze_sizes(cutune_analyze_summary *total, cutune_spec *spec, const cutune_analyze_options *opts,
                         cutune_size_fn size, int (*each)(void *user, const cutune_analysis *a), void *user)
{
    if (!total || !each || !cutune_spec_ok(spec))
        return err_set(CUTUNE_EINVAL, "cutune_analyze_sizes: no summary, callback or valid spec");
    memset(total, 0, sizeof *total);
    int rc = CUTUNE_OK, nsizes = cutune_spec_size_count(spec);
    for (int k = 0; k < nsizes && rc == CUTUNE_OK && !total->interrupted; k++) {
        if (nsizes > 1 && (rc = cutune_spec_select_size(spec, k)) != CUTUNE_OK)
            return rc; /* the spec's error at this size is a diagnostic */
        if (size && size(user, k, NULL) != 0) {
            rc = CUTUNE_ESTOPPED;
            break;
        }
        cutune_analyze_summary one;
        rc = cutune_analyze(&one, spec, opts, each, user);
        if (rc == CUTUNE_OK || rc == CUTUNE_ESTOPPED) { /* stopped by `each`: what was done is told */
            add_summary(total, &one);
            if (size && size(user, k, &one) != 0)
                rc = CUTUNE_ESTOPPED;
        }
    }
    if (nsizes > 1)
        cutune_spec_select_size(spec, 0);
    return rc;
}

int cutune_analyze_verdict_text(char **out, const cutune_analyze_summary *sum)
{
    if (!out || !sum)
        return err_set(CUTUNE_EINVAL, "cutune_analyze_verdict_text: no output or summary");
    *out = verdict_nothing_runs(sum);
    return *out ? CUTUNE_OK : err_set(CUTUNE_ENOMEM, "out of memory");
}

int cutune_analysis_csv(char **out, const cutune_spec *spec, const cutune_analysis *a)
{
    if (!out || !spec || (a && !a->variant))
        return err_set(CUTUNE_EINVAL, "cutune_analysis_csv: no output or spec, or an analysis without a variant");
    int rc = emit_analysis_csv(out, spec, a);
    return rc == CUTUNE_ENOMEM ? err_set(rc, "out of memory") : rc;
}

int cutune_analysis_json(char **out, const cutune_spec *spec, const cutune_analysis *a)
{
    if (!out || !spec || !a || !a->variant)
        return err_set(CUTUNE_EINVAL, "cutune_analysis_json: no output, spec or analysis");
    int rc = emit_analysis_json(out, spec, a);
    return rc == CUTUNE_ENOMEM ? err_set(rc, "out of memory") : rc;
}
