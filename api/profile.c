/* profile.c - the hardware counters' side of the API (issue 18): the default set, the
 * counters a result holds, and a chip's metric names. The work is runtime/profiler's
 * (CUPTI) and tuner/counters.c's (the profiling phase of a run). */
#include <stdio.h>

#include "../results/result.h"
#include "../runtime/profiler.h"
#include "internal.h"

int cutune_profile_default_metrics(const char *const **names)
{
    if (names)
        *names = prof_default_names;
    return PROF_NDEFAULT;
}

const char *cutune_profile_nvprof_name(const char *metric)
{
    return prof_nvprof_name(metric);
}

int cutune_tune_profile_count(const cutune_tune_result *r)
{
    return r ? r->nhw : 0;
}

const char *cutune_tune_profile_metric(const cutune_tune_result *r, int i)
{
    return r && i >= 0 && i < r->nhw ? r->hw_names[i] : NULL;
}

int cutune_profile_list(const char *arch, void (*each)(void *user, const char *name, const char *kind), void *user)
{
    if (!each)
        return CUTUNE_EINVAL;
    const char *chip = prof_chip_of_arch(arch ? arch : "sm_90");
    if (!chip)
        return err_set(CUTUNE_EINVAL, "cutune does not know CUPTI's chip for %s", arch);
    char err[512];
    if (prof_list(chip, each, user, err, sizeof err) < 0)
        return err_set(CUTUNE_ENODEV, "%s", err);
    return CUTUNE_OK;
}

const char *cutune_profile_chip(const char *arch)
{
    return prof_chip_of_arch(arch ? arch : "sm_90");
}

int cutune_profile_check(const char *arch, const char *const *names, int n)
{
    if (!names || n < 0)
        return CUTUNE_EINVAL;
    const char *chip = prof_chip_of_arch(arch ? arch : "sm_90");
    if (!chip)
        return err_set(CUTUNE_EINVAL, "cutune does not know CUPTI's chip for %s", arch);
    char err[1024];
    int bad = -1;
    int rc = prof_check_names(chip, names, n, &bad, err, sizeof err);
    if (rc < 0)
        return err_set(CUTUNE_ENODEV, "%s", err);
    if (rc > 0)
        return err_set(CUTUNE_EINVAL, "%s", err);
    return CUTUNE_OK;
}
