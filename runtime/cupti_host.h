/* cupti_host.h - the few declarations of CUPTI's profiler host API (cupti_profiler_host.h,
 * CUDA 12.6 and later) that runtime/profiler.c uses, for C.
 *
 * The toolkit's own header includes C++'s <string> (for nothing it declares), so a C11
 * file cannot include it. The structs below copy its layout field for field; every one
 * begins with structSize, which CUPTI reads to know which fields the caller has, so a
 * later CUPTI accepts them. test/unit/cupti_abi.cpp (built where a C++ compiler is
 * found) checks each offset and size against the toolkit's header. Nothing here is
 * linked: the functions are looked up with dlsym. */
#ifndef CUTUNE_RUNTIME_CUPTI_HOST_H
#define CUTUNE_RUNTIME_CUPTI_HOST_H

#include <stddef.h>
#include <stdint.h>

#include <cupti_result.h>

#ifndef CUPTI_PROFILER_STRUCT_SIZE
#define CUPTI_PROFILER_STRUCT_SIZE(type_, lastfield_) (offsetof(type_, lastfield_) + sizeof(((type_ *)0)->lastfield_))
#endif

typedef enum CUpti_MetricType {
    CUPTI_METRIC_TYPE_COUNTER = 0,
    CUPTI_METRIC_TYPE_RATIO,
    CUPTI_METRIC_TYPE_THROUGHPUT,
    CUPTI_METRIC_TYPE__COUNT
} CUpti_MetricType;

typedef enum CUpti_ProfilerType {
    CUPTI_PROFILER_TYPE_RANGE_PROFILER,
    CUPTI_PROFILER_TYPE_PM_SAMPLING,
    CUPTI_PROFILER_TYPE_PROFILER_INVALID
} CUpti_ProfilerType;

typedef struct CUpti_Profiler_Host_Object CUpti_Profiler_Host_Object;

typedef struct CUpti_Profiler_Host_Initialize_Params {
    size_t structSize;
    void *pPriv;
    CUpti_ProfilerType profilerType;
    const char *pChipName;
    const uint8_t *pCounterAvailabilityImage;
    CUpti_Profiler_Host_Object *pHostObject;
} CUpti_Profiler_Host_Initialize_Params;

typedef struct CUpti_Profiler_Host_Deinitialize_Params {
    size_t structSize;
    void *pPriv;
    CUpti_Profiler_Host_Object *pHostObject;
} CUpti_Profiler_Host_Deinitialize_Params;

typedef struct CUpti_Profiler_Host_GetBaseMetrics_Params {
    size_t structSize;
    void *pPriv;
    CUpti_Profiler_Host_Object *pHostObject;
    CUpti_MetricType metricType;
    const char **ppMetricNames;
    size_t numMetrics;
} CUpti_Profiler_Host_GetBaseMetrics_Params;

typedef struct CUpti_Profiler_Host_GetMetricProperties_Params {
    size_t structSize;
    void *pPriv;
    CUpti_Profiler_Host_Object *pHostObject;
    const char *pMetricName;
    const char *pDescription;
    const char *pHwUnit;
    const char *pDimUnit;
    CUpti_MetricType metricType;
} CUpti_Profiler_Host_GetMetricProperties_Params;

typedef struct CUpti_Profiler_Host_ConfigAddMetrics_Params {
    size_t structSize;
    void *pPriv;
    CUpti_Profiler_Host_Object *pHostObject;
    const char **ppMetricNames;
    size_t numMetrics;
} CUpti_Profiler_Host_ConfigAddMetrics_Params;

typedef struct CUpti_Profiler_Host_GetConfigImageSize_Params {
    size_t structSize;
    void *pPriv;
    CUpti_Profiler_Host_Object *pHostObject;
    size_t configImageSize;
} CUpti_Profiler_Host_GetConfigImageSize_Params;

typedef struct CUpti_Profiler_Host_GetConfigImage_Params {
    size_t structSize;
    void *pPriv;
    CUpti_Profiler_Host_Object *pHostObject;
    size_t configImageSize;
    uint8_t *pConfigImage;
} CUpti_Profiler_Host_GetConfigImage_Params;

typedef struct CUpti_Profiler_Host_GetNumOfPasses_Params {
    size_t structSize;
    void *pPriv;
    size_t configImageSize;
    uint8_t *pConfigImage;
    size_t numOfPasses;
} CUpti_Profiler_Host_GetNumOfPasses_Params;

typedef struct CUpti_Profiler_Host_EvaluateToGpuValues_Params {
    size_t structSize;
    void *pPriv;
    CUpti_Profiler_Host_Object *pHostObject;
    const uint8_t *pCounterDataImage;
    size_t counterDataImageSize;
    size_t rangeIndex;
    const char **ppMetricNames;
    size_t numMetrics;
    double *pMetricValues;
} CUpti_Profiler_Host_EvaluateToGpuValues_Params;

#define CUPTI_HOST_SIZE(type_, last_) CUPTI_PROFILER_STRUCT_SIZE(type_, last_)

#endif
