/* profiler.c - hardware counters through CUPTI's range profiler (see profiler.h).
 *
 * The calls, in order (CUPTI 12.6+'s range profiler and profiler host APIs):
 *   open:    cuptiProfilerInitialize; cuptiDeviceGetChipName; the counter availability
 *            image (cuptiProfilerGetCounterAvailability, twice: size, then bytes); a host
 *            object for the chip (cuptiProfilerHostInitialize) to which the metrics are
 *            added one by one (an unknown name is named), then the config image and its
 *            number of passes.
 *   measure: cuptiRangeProfilerEnable on the context and the counter data image sized
 *            (at the first measurement; kept while measurements succeed); the image
 *            initialised afresh; SetConfig (auto range, kernel replay, one range);
 *            Start; the launch; Stop; DecodeData; EvaluateToGpuValues.
 *   close:   Disable; the host object; cuptiProfilerDeInitialize.
 * A fresh image and configuration per measurement keeps one launch's counters apart
 * from the next's; a failure disables the profiler, and the next measurement enables it
 * again. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include "cupti_host.h"
#include "../base/err.h"
#include "profiler.h"

const char *const prof_default_names[PROF_NDEFAULT] = {
    "sm__warps_active.avg.pct_of_peak_sustained_active",  "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed", "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum.per_second",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "smsp__thread_inst_executed_per_inst_executed.ratio", "gpu__time_duration.sum",
};

/* nvprof's name for each; sm__throughput had none (the nearest: sm_efficiency). */
static const char *const nvprof_names[PROF_NDEFAULT] = {
    "achieved_occupancy",   "sm_throughput",    "dram_utilization",          "gld_throughput",
    "global_load_requests", "gld_transactions", "warp_execution_efficiency", "gpu_time",
};

const char *prof_nvprof_name(const char *metric)
{
    for (int i = 0; i < PROF_NDEFAULT; i++)
        if (metric && strcmp(metric, prof_default_names[i]) == 0)
            return nvprof_names[i];
    return NULL;
}

const char *prof_chip_of_arch(const char *arch)
{
    static const struct {
        const char *arch, *chip;
    } map[] = {
        {"sm_70", "GV100"}, {"sm_75", "TU102"}, {"sm_80", "GA100"},  {"sm_86", "GA102"},  {"sm_87", "GA10B"},
        {"sm_89", "AD102"}, {"sm_90", "GH100"}, {"sm_90a", "GH100"}, {"sm_100", "GB100"}, {"sm_120", "GB202"},
    };
    for (size_t i = 0; arch && i < sizeof map / sizeof map[0]; i++)
        if (strcmp(arch, map[i].arch) == 0)
            return map[i].chip;
    return NULL;
}

/* ---- the library ------------------------------------------------------------------ */

typedef CUptiResult (*cupti_fn)(void *params);

typedef struct cupti {
    void *lib;
    CUptiResult (*result_string)(CUptiResult, const char **);
    cupti_fn init, deinit, chip_name, availability;
    cupti_fn host_init, host_deinit, host_base, host_add, host_image_size, host_image, host_passes, host_eval;
    cupti_fn rp_enable, rp_disable, rp_set_config, rp_start, rp_stop, rp_decode, rp_data_size, rp_data_init,
        rp_data_info;
} cupti;

/* The library's candidates: $CUTUNE_CUPTI, then the loader's path, then the toolkit's
 * usual places ($CUDA_HOME, /usr/local/cuda: lib64, extras/CUPTI/lib64, lib). */
static void *open_library(char *tried, size_t size)
{
    const char *env = getenv("CUTUNE_CUPTI");
    if (env && *env) {
        snprintf(tried, size, "%s", env);
        return dlopen(env, RTLD_NOW | RTLD_LOCAL);
    }
    void *lib = dlopen("libcupti.so.13", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        lib = dlopen("libcupti.so.12", RTLD_NOW | RTLD_LOCAL);
    const char *homes[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH"), "/usr/local/cuda"};
    const char *subs[] = {"extras/CUPTI/lib64", "lib64", "lib"};
    char path[4096];
    for (size_t h = 0; !lib && h < 3; h++)
        for (size_t s = 0; !lib && homes[h] && *homes[h] && s < 3; s++) {
            snprintf(path, sizeof path, "%s/%s/libcupti.so", homes[h], subs[s]);
            lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        }
    snprintf(tried, size,
             "libcupti.so.13 on the loader's path, $CUDA_HOME, /usr/local/cuda "
             "(extras/CUPTI/lib64, lib64, lib); set CUTUNE_CUPTI to the library's path");
    return lib;
}

/* AddressSanitizer's runtime refuses libraries opened with RTLD_DEEPBIND, and CUPTI opens
 * libnvperf_host.so so: the process would be stopped. A sanitizer build says so instead. */
#if defined(__SANITIZE_ADDRESS__)
#define CUTUNE_NO_CUPTI \
    "this cutune is built with AddressSanitizer, whose runtime cannot load CUPTI's " \
    "libnvperf_host.so (CUPTI opens it with RTLD_DEEPBIND): hardware counters need a build " \
    "without the sanitizer"
#endif

static int load(cupti *c)
{
    memset(c, 0, sizeof *c);
#ifdef CUTUNE_NO_CUPTI
    err_set(-1, "%s", CUTUNE_NO_CUPTI);
    return -1;
#endif
    char tried[512];
    c->lib = open_library(tried, sizeof tried);
    if (!c->lib) {
        err_set(-1, "CUPTI (libcupti, part of the CUDA toolkit) was not found: tried %s", tried);
        return -1;
    }
    struct {
        void *slot;
        const char *name;
    } syms[] = {
        {&c->result_string, "cuptiGetResultString"},
        {&c->init, "cuptiProfilerInitialize"},
        {&c->deinit, "cuptiProfilerDeInitialize"},
        {&c->chip_name, "cuptiDeviceGetChipName"},
        {&c->availability, "cuptiProfilerGetCounterAvailability"},
        {&c->host_init, "cuptiProfilerHostInitialize"},
        {&c->host_deinit, "cuptiProfilerHostDeinitialize"},
        {&c->host_base, "cuptiProfilerHostGetBaseMetrics"},
        {&c->host_add, "cuptiProfilerHostConfigAddMetrics"},
        {&c->host_image_size, "cuptiProfilerHostGetConfigImageSize"},
        {&c->host_image, "cuptiProfilerHostGetConfigImage"},
        {&c->host_passes, "cuptiProfilerHostGetNumOfPasses"},
        {&c->host_eval, "cuptiProfilerHostEvaluateToGpuValues"},
        {&c->rp_enable, "cuptiRangeProfilerEnable"},
        {&c->rp_disable, "cuptiRangeProfilerDisable"},
        {&c->rp_set_config, "cuptiRangeProfilerSetConfig"},
        {&c->rp_start, "cuptiRangeProfilerStart"},
        {&c->rp_stop, "cuptiRangeProfilerStop"},
        {&c->rp_decode, "cuptiRangeProfilerDecodeData"},
        {&c->rp_data_size, "cuptiRangeProfilerGetCounterDataSize"},
        {&c->rp_data_init, "cuptiRangeProfilerCounterDataImageInitialize"},
        {&c->rp_data_info, "cuptiRangeProfilerGetCounterDataInfo"},
    };
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
        void *f = dlsym(c->lib, syms[i].name);
        if (!f) {
            err_set(-1, "this CUPTI has no %s (the range profiler needs CUDA 12.6 or later)", syms[i].name);
            dlclose(c->lib);
            c->lib = NULL;
            return -1;
        }
        memcpy(syms[i].slot, &f, sizeof f);
    }
    return 0;
}

/* err = "what: CUPTI's words", with the fix for the errors users meet. -1. */
static int fail(const cupti *c, CUptiResult r, const char *what)
{
    const char *s = NULL;
    if (!c->result_string || c->result_string(r, &s) != CUPTI_SUCCESS || !s)
        s = "unknown CUPTI error";
    const char *hint = "";
    if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES || r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
        hint = " (the driver lets only administrators read the GPU's counters: run as root, or load the driver "
               "with NVreg_RestrictProfilingToAdminUsers=0; https://developer.nvidia.com/ERR_NVGPUCTRPERM)";
    else if (r == CUPTI_ERROR_NOT_SUPPORTED || r == CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED ||
             r == CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED)
        hint = " (this device or its virtualisation does not let the counters be read)";
    err_set(-1, "%s: %s%s", what, s, hint);
    return -1;
}

/* A host object for `chip` (availability may be NULL without a device). */
static int host_open(const cupti *c, const char *chip, const uint8_t *availability, CUpti_Profiler_Host_Object **out)
{
    CUpti_Profiler_Host_Initialize_Params p = {.structSize =
                                                   CUPTI_HOST_SIZE(CUpti_Profiler_Host_Initialize_Params, pHostObject)};
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = chip;
    p.pCounterAvailabilityImage = availability;
    CUptiResult r = c->host_init(&p);
    if (r != CUPTI_SUCCESS) {
        char what[128];
        snprintf(what, sizeof what, "CUPTI's profiler host for chip %s", chip);
        return fail(c, r, what);
    }
    *out = p.pHostObject;
    return 0;
}

static void host_close(const cupti *c, CUpti_Profiler_Host_Object *h)
{
    if (!h)
        return;
    CUpti_Profiler_Host_Deinitialize_Params p = {
        .structSize = CUPTI_HOST_SIZE(CUpti_Profiler_Host_Deinitialize_Params, pHostObject)};
    p.pHostObject = h;
    c->host_deinit(&p);
}

/* Adds the n names to h one at a time, so that the unknown one is named: 0, 1 (*bad
 * unknown, err says so), -1 otherwise. */
static int add_names(const cupti *c, CUpti_Profiler_Host_Object *h, const char *chip, const char *const *names, int n,
                     int *bad)
{
    for (int i = 0; i < n; i++) {
        if (strstr(names[i], "__sass_")) {
            if (bad)
                *bad = i;
            err_set(-1,
                    "'%s' is a SASS-patched metric: it needs the kernel's code instrumented (Nsight "
                    "Compute does that; CUPTI's range profiler, which cutune uses, does not, and reads no meaningful "
                    "value for it). Hardware counters only: for divergence, "
                    "smsp__thread_inst_executed_per_inst_executed.ratio; for load efficiency, "
                    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum against "
                    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                    names[i]);
            return 1;
        }
        CUpti_Profiler_Host_ConfigAddMetrics_Params p = {
            .structSize = CUPTI_HOST_SIZE(CUpti_Profiler_Host_ConfigAddMetrics_Params, numMetrics)};
        p.pHostObject = h;
        p.ppMetricNames = (const char **)&names[i];
        p.numMetrics = 1;
        CUptiResult r = c->host_add(&p);
        if (r == CUPTI_ERROR_INVALID_PARAMETER || r == CUPTI_ERROR_INVALID_METRIC_NAME) {
            if (bad)
                *bad = i;
            err_set(-1,
                    "'%s' is not a metric of %s (`cutune metrics` lists them; a base metric takes a "
                    "suffix such as .sum, .avg or .pct_of_peak_sustained_elapsed)",
                    names[i], chip);
            return 1;
        }
        if (r != CUPTI_SUCCESS)
            return fail(c, r, "adding a metric to CUPTI's configuration");
    }
    return 0;
}

int prof_check_names(const char *chip, const char *const *names, int n, int *bad)
{
    cupti c;
    if (load(&c) < 0)
        return -1;
    CUpti_Profiler_Host_Object *h = NULL;
    int rc = host_open(&c, chip, NULL, &h);
    if (rc == 0)
        rc = add_names(&c, h, chip, names, n, bad);
    host_close(&c, h);
    dlclose(c.lib);
    return rc;
}

int prof_list(const char *chip, void (*each)(void *user, const char *name, const char *kind), void *user)
{
    static const char *const kinds[] = {"counter", "ratio", "throughput"};
    cupti c;
    if (load(&c) < 0)
        return -1;
    CUpti_Profiler_Host_Object *h = NULL;
    int rc = host_open(&c, chip, NULL, &h);
    for (int t = CUPTI_METRIC_TYPE_COUNTER; rc == 0 && t < CUPTI_METRIC_TYPE__COUNT; t++) {
        CUpti_Profiler_Host_GetBaseMetrics_Params p = {
            .structSize = CUPTI_HOST_SIZE(CUpti_Profiler_Host_GetBaseMetrics_Params, numMetrics)};
        p.pHostObject = h;
        p.metricType = (CUpti_MetricType)t;
        CUptiResult r = c.host_base(&p);
        if (r != CUPTI_SUCCESS) {
            rc = fail(&c, r, "listing CUPTI's metrics");
            break;
        }
        for (size_t i = 0; i < p.numMetrics; i++)
            each(user, p.ppMetricNames[i], kinds[t]);
    }
    host_close(&c, h);
    dlclose(c.lib);
    return rc;
}

/* ---- on the device ---------------------------------------------------------------- */

struct prof {
    cupti c;
    bool initialised;
    CUcontext ctx;
    const char *const *names;
    int n;
    CUpti_Profiler_Host_Object *host;
    uint8_t *availability;
    uint8_t *config;
    size_t config_size;
    int passes;
    CUpti_RangeProfiler_Object *obj; /* enabled (NULL: not yet, or after a failure) */
    uint8_t *data;                   /* its counter data image */
    size_t data_size;
};

int prof_passes(const prof *p)
{
    return p->passes;
}

int prof_open(prof **out, CUcontext ctx, int ordinal, const char *const *names, int n)
{
    *out = NULL;
    prof *p = calloc(1, sizeof *p);
    if (!p) {
        err_set(-1, "out of memory");
        return -1;
    }
    p->ctx = ctx;
    p->names = names;
    p->n = n;
    if (load(&p->c) < 0) {
        free(p);
        return -1;
    }
    const cupti *c = &p->c;
    CUptiResult r;
    CUpti_Profiler_Initialize_Params ip = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    if ((r = c->init(&ip)) != CUPTI_SUCCESS) {
        fail(c, r, "CUPTI's profiler could not start");
        goto failed;
    }
    p->initialised = true;
    CUpti_Device_GetChipName_Params cp = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    cp.deviceIndex = (size_t)ordinal;
    if ((r = c->chip_name(&cp)) != CUPTI_SUCCESS) {
        fail(c, r, "CUPTI could not name the device's chip");
        goto failed;
    }
    CUpti_Profiler_GetCounterAvailability_Params ap = {.structSize =
                                                           CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
    ap.ctx = ctx;
    if ((r = c->availability(&ap)) != CUPTI_SUCCESS) {
        fail(c, r, "CUPTI could not tell which counters the device has");
        goto failed;
    }
    p->availability = malloc(ap.counterAvailabilityImageSize + 1);
    if (!p->availability) {
        err_set(-1, "out of memory");
        goto failed;
    }
    ap.pCounterAvailabilityImage = p->availability;
    if ((r = c->availability(&ap)) != CUPTI_SUCCESS) {
        fail(c, r, "CUPTI could not tell which counters the device has");
        goto failed;
    }
    if (host_open(c, cp.pChipName, p->availability, &p->host) < 0 ||
        add_names(c, p->host, cp.pChipName, names, n, NULL) != 0)
        goto failed;
    CUpti_Profiler_Host_GetConfigImageSize_Params sp = {
        .structSize = CUPTI_HOST_SIZE(CUpti_Profiler_Host_GetConfigImageSize_Params, configImageSize)};
    sp.pHostObject = p->host;
    if ((r = c->host_image_size(&sp)) != CUPTI_SUCCESS) {
        fail(c, r, "sizing CUPTI's counter configuration");
        goto failed;
    }
    p->config_size = sp.configImageSize;
    p->config = malloc(p->config_size + 1);
    if (!p->config) {
        err_set(-1, "out of memory");
        goto failed;
    }
    CUpti_Profiler_Host_GetConfigImage_Params gp = {
        .structSize = CUPTI_HOST_SIZE(CUpti_Profiler_Host_GetConfigImage_Params, pConfigImage)};
    gp.pHostObject = p->host;
    gp.configImageSize = p->config_size;
    gp.pConfigImage = p->config;
    if ((r = c->host_image(&gp)) != CUPTI_SUCCESS) {
        fail(c, r, "building CUPTI's counter configuration");
        goto failed;
    }
    CUpti_Profiler_Host_GetNumOfPasses_Params np = {
        .structSize = CUPTI_HOST_SIZE(CUpti_Profiler_Host_GetNumOfPasses_Params, numOfPasses)};
    np.configImageSize = p->config_size;
    np.pConfigImage = p->config;
    if ((r = c->host_passes(&np)) != CUPTI_SUCCESS) {
        fail(c, r, "counting CUPTI's passes");
        goto failed;
    }
    p->passes = (int)np.numOfPasses;
    *out = p;
    return 0;
failed:
    prof_close(p);
    return -1;
}

/* Enables the range profiler on the context, with a counter data image for one range
 * (kept enabled across measurements: every launch between Start and Stop is a range,
 * and nothing but the one launch runs there). 0, or -1 with err. */
static int enable(prof *p)
{
    const cupti *c = &p->c;
    CUptiResult r;
    CUpti_RangeProfiler_Enable_Params ep = {.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    ep.ctx = p->ctx;
    if ((r = c->rp_enable(&ep)) != CUPTI_SUCCESS)
        return fail(c, r, "CUPTI's range profiler could not be enabled");
    p->obj = ep.pRangeProfilerObject;
    CUpti_RangeProfiler_GetCounterDataSize_Params dp = {.structSize =
                                                            CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    dp.pRangeProfilerObject = p->obj;
    dp.pMetricNames = (const char **)p->names;
    dp.numMetrics = (size_t)p->n;
    dp.maxNumOfRanges = 1;
    dp.maxNumRangeTreeNodes = 1;
    if ((r = c->rp_data_size(&dp)) != CUPTI_SUCCESS)
        return fail(c, r, "sizing CUPTI's counter data");
    p->data_size = dp.counterDataSize;
    p->data = calloc(1, p->data_size + 1);
    if (!p->data) {
        err_set(-1, "out of memory");
        return -1;
    }
    return 0;
}

static void disable(prof *p)
{
    if (p->obj) {
        CUpti_RangeProfiler_Disable_Params xp = {.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
        xp.pRangeProfilerObject = p->obj;
        p->c.rp_disable(&xp);
        p->obj = NULL;
    }
    free(p->data);
    p->data = NULL;
}

int prof_measure(prof *p, int (*launch)(void *user), void *user, double *values, bool *launch_failed)
{
    const cupti *c = &p->c;
    *launch_failed = false;
    for (int i = 0; i < p->n; i++)
        values[i] = NAN;
    CUptiResult r;
    if (!p->obj && enable(p) < 0) {
        disable(p);
        return -1;
    }
    /* a fresh image for this launch's one range, then the configuration */
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params ip = {
        .structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    ip.pRangeProfilerObject = p->obj;
    ip.counterDataSize = p->data_size;
    ip.pCounterData = p->data;
    if ((r = c->rp_data_init(&ip)) != CUPTI_SUCCESS) {
        fail(c, r, "preparing CUPTI's counter data");
        goto failed;
    }
    CUpti_RangeProfiler_SetConfig_Params sp = {.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    sp.pRangeProfilerObject = p->obj;
    sp.configSize = p->config_size;
    sp.pConfig = p->config;
    sp.counterDataImageSize = p->data_size;
    sp.pCounterDataImage = p->data;
    sp.range = CUPTI_AutoRange;
    sp.replayMode = CUPTI_KernelReplay;
    sp.maxRangesPerPass = 1;
    sp.numNestingLevels = 1;
    sp.minNestingLevel = 1;
    sp.passIndex = 0;
    sp.targetNestingLevel = 1;
    if ((r = c->rp_set_config(&sp)) != CUPTI_SUCCESS) {
        fail(c, r, "configuring CUPTI's range profiler");
        goto failed;
    }
    CUpti_RangeProfiler_Start_Params stp = {.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    stp.pRangeProfilerObject = p->obj;
    if ((r = c->rp_start(&stp)) != CUPTI_SUCCESS) {
        fail(c, r, "starting CUPTI's range profiler");
        goto failed;
    }
    int launched = launch(user);
    CUpti_RangeProfiler_Stop_Params sop = {.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    sop.pRangeProfilerObject = p->obj;
    r = c->rp_stop(&sop);
    if (launched < 0) {
        *launch_failed = true;
        goto failed;
    }
    if (r != CUPTI_SUCCESS) {
        fail(c, r, "stopping CUPTI's range profiler");
        goto failed;
    }
    CUpti_RangeProfiler_DecodeData_Params ddp = {.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    ddp.pRangeProfilerObject = p->obj;
    if ((r = c->rp_decode(&ddp)) != CUPTI_SUCCESS) {
        fail(c, r, "decoding CUPTI's counters");
        goto failed;
    }
    CUpti_RangeProfiler_GetCounterDataInfo_Params gip = {.structSize =
                                                             CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    gip.pCounterDataImage = p->data;
    gip.counterDataImageSize = p->data_size;
    if ((r = c->rp_data_info(&gip)) != CUPTI_SUCCESS) {
        fail(c, r, "reading CUPTI's counter data");
        goto failed;
    }
    if (gip.numTotalRanges != 1) {
        err_set(-1, "CUPTI recorded %zu ranges for one launch (%zu dropped), not 1", gip.numTotalRanges,
                ddp.numOfRangeDropped);
        goto failed;
    }
    CUpti_Profiler_Host_EvaluateToGpuValues_Params vp = {
        .structSize = CUPTI_HOST_SIZE(CUpti_Profiler_Host_EvaluateToGpuValues_Params, pMetricValues)};
    vp.pHostObject = p->host;
    vp.pCounterDataImage = p->data;
    vp.counterDataImageSize = p->data_size;
    vp.rangeIndex = 0;
    vp.ppMetricNames = (const char **)p->names;
    vp.numMetrics = (size_t)p->n;
    vp.pMetricValues = values;
    if ((r = c->host_eval(&vp)) != CUPTI_SUCCESS) {
        for (int i = 0; i < p->n; i++)
            values[i] = NAN;
        return fail(c, r, "evaluating the counters"); /* the session itself is sound */
    }
    return 0;
failed:
    disable(p); /* the next measurement starts from a clean profiler */
    return -1;
}

void prof_close(prof *p)
{
    if (!p)
        return;
    if (p->c.lib) {
        disable(p);
        host_close(&p->c, p->host);
        if (p->initialised) {
            CUpti_Profiler_DeInitialize_Params dp = {.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
            p->c.deinit(&dp);
        }
        dlclose(p->c.lib);
    }
    free(p->availability);
    free(p->config);
    free(p);
}
