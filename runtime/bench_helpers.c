/* bench_helpers.c - the compile jobs of cutune's own kernels a bench will need
 * (bench.h's bench_helper_jobs), found from its arguments as bench.c's steps find them:
 * bench_prepare_args makes a fill kernel per element type of initial contents made on
 * the device, bench_keep_reference a comparison and a built-in checker per verified
 * type. Not among them: the unsigned-word comparison of an `in` buffer with its pristine
 * copy (bench_inputs_changed), which only a variant whose outputs disagree needs, and
 * which is then compiled (through the cache) when first needed.
 * No device: the GPU worker compiles them ahead while its driver starts. The jobs'
 * sources are the struct's (bench_helpers_free). */
#include <stdlib.h>
#include <string.h>

#include "../base/err.h"
#include "bench.h"

/* The job of kind (0 fill, 1 comparison, 2 checker in `mode`) for `type`, once: appended
 * to h unless there already. 0, or -1 when out of memory. */
static int add(bench_helpers *h, bool *seen, int kind, chk_mode mode, data_type type, const char *arch)
{
    int at = kind * (DT_UINT64 + 1) + (int)type;
    if (seen[at])
        return 0;
    compile_job job;
    char *source = kind == 0   ? fill_job(type, arch, &job)
                   : kind == 1 ? cmp_job(type, arch, &job)
                               : chk_job(mode, type, arch, &job);
    if (!source)
        return -1;
    seen[at] = true;
    h->sources[h->n] = source;
    h->jobs[h->n++] = job;
    return 0;
}

int bench_helper_jobs(bench_helpers *out, const char *arch, const bench_arg *args, int nargs, const bench_verify *vf)
{
    memset(out, 0, sizeof *out);
    bool seen[BENCH_MAX_HELPERS] = {false};
    int rc = 0;
    for (int i = 0; i < nargs && rc == 0; i++)
        if (args[i].is_buffer && args[i].has_init && args[i].fill.kind != FILL_FILE)
            rc = add(out, seen, 0, CHK_L2, args[i].type, arch);
    bool builtin_check = vf->check > 0 && vf->check - 1 != CHK_USER;
    for (int k = 0; vf->present && k < vf->noutputs && rc == 0; k++) {
        data_type type = args[vf->outputs[k]].type;
        rc = add(out, seen, 1, CHK_L2, type, arch);
        if (rc == 0 && builtin_check)
            rc = add(out, seen, 2, (chk_mode)(vf->check - 1), type, arch);
    }
    if (rc < 0) {
        bench_helpers_free(out);
        err_set(-1, "out of memory");
    }
    return rc;
}

void bench_helpers_free(bench_helpers *h)
{
    for (int i = 0; i < h->n; i++)
        free(h->sources[i]);
    memset(h, 0, sizeof *h);
}
