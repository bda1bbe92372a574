/* analyze.c - cutune_analyze, the public facade over the compile session
 * (tuner/session.h): argument checks, the architecture to compile for, the total that
 * progress counts towards, the session's lifetime. api_analyze and api_session_* are the
 * same for the tuner (binaries kept, batches). No GPU needed. */
#include <stdio.h>
#include <string.h>

#include "search_run.h"

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
        api_set_error("jobs must be 0 (one per core) to %d, not %d", CUTUNE_MAX_JOBS, opts->jobs);
        return CUTUNE_EINVAL;
    }
    char arch[32];
    int rc = session_open(out, spec->model, &spec->diags, choose_arch(opts, arch, sizeof arch), opts, keep_binaries,
                          summary);
    if (rc < 0)
        return rc;
    uint64_t limit = opts ? opts->limit : 0;
    cutune_space_size size;
    if (cutune_space_count(spec, &size) == CUTUNE_OK && !size.valid_saturated && !size.valid_estimated)
        session_set_total(*out, limit && limit < size.valid ? limit : size.valid);
    return CUTUNE_OK;
}

int api_analyze(cutune_spec *spec, const cutune_analyze_options *opts, analyze_each each, void *user,
                bool keep_binaries, cutune_analyze_summary *summary)
{
    if (!spec || !each || !summary || !cutune_spec_ok(spec))
        return CUTUNE_EINVAL;
    session *s;
    int rc = open_session(&s, spec, opts, keep_binaries, summary);
    if (rc < 0)
        return rc;
    rc = session_run_space(s, each, user);
    session_close(s);
    return rc;
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

/* api_session (search_run.h) is the tuner's name for a session: the same object. */
int api_session_open(api_session **out, cutune_spec *spec, const cutune_analyze_options *opts, bool keep_binaries,
                     cutune_analyze_summary *summary)
{
    session *s;
    int rc = open_session(&s, spec, opts, keep_binaries, summary);
    *out = (api_session *)s;
    return rc;
}

int api_session_run(api_session *ss, const value *values, const uint64_t *ordinals, int n, analyze_each each,
                    void *user)
{
    return session_run((session *)ss, values, ordinals, n, each, user);
}

void api_session_set_total(api_session *ss, uint64_t total)
{
    session_set_total((session *)ss, total);
}

void api_session_close(api_session *ss)
{
    session_close((session *)ss);
}
