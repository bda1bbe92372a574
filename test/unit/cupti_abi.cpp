// cupti_abi.cpp - runtime/cupti_host.h mirrors the structs of CUPTI's profiler host API
// for C (the toolkit's header includes C++'s <string>). This checks, at compile time,
// every mirrored struct's size and every field's offset against the toolkit's own
// header; the program itself only says so. Built where CMake finds a C++ compiler.
#include <cstddef>
#include <cstdio>

#include <cupti_profiler_host.h>

namespace mirror {
#include "runtime/cupti_host.h"
}

#define SAME(T, f) static_assert(offsetof(mirror::T, f) == offsetof(::T, f), #T "." #f " moved")
#define SAME_SIZE(T) static_assert(sizeof(mirror::T) == sizeof(::T), #T "'s size differs")

SAME_SIZE(CUpti_Profiler_Host_Initialize_Params);
SAME(CUpti_Profiler_Host_Initialize_Params, profilerType);
SAME(CUpti_Profiler_Host_Initialize_Params, pChipName);
SAME(CUpti_Profiler_Host_Initialize_Params, pCounterAvailabilityImage);
SAME(CUpti_Profiler_Host_Initialize_Params, pHostObject);
SAME_SIZE(CUpti_Profiler_Host_Deinitialize_Params);
SAME(CUpti_Profiler_Host_Deinitialize_Params, pHostObject);
SAME_SIZE(CUpti_Profiler_Host_GetBaseMetrics_Params);
SAME(CUpti_Profiler_Host_GetBaseMetrics_Params, metricType);
SAME(CUpti_Profiler_Host_GetBaseMetrics_Params, ppMetricNames);
SAME(CUpti_Profiler_Host_GetBaseMetrics_Params, numMetrics);
SAME_SIZE(CUpti_Profiler_Host_GetMetricProperties_Params);
SAME(CUpti_Profiler_Host_GetMetricProperties_Params, pMetricName);
SAME(CUpti_Profiler_Host_GetMetricProperties_Params, pDescription);
SAME(CUpti_Profiler_Host_GetMetricProperties_Params, pHwUnit);
SAME(CUpti_Profiler_Host_GetMetricProperties_Params, pDimUnit);
SAME(CUpti_Profiler_Host_GetMetricProperties_Params, metricType);
SAME_SIZE(CUpti_Profiler_Host_ConfigAddMetrics_Params);
SAME(CUpti_Profiler_Host_ConfigAddMetrics_Params, ppMetricNames);
SAME(CUpti_Profiler_Host_ConfigAddMetrics_Params, numMetrics);
SAME_SIZE(CUpti_Profiler_Host_GetConfigImageSize_Params);
SAME(CUpti_Profiler_Host_GetConfigImageSize_Params, configImageSize);
SAME_SIZE(CUpti_Profiler_Host_GetConfigImage_Params);
SAME(CUpti_Profiler_Host_GetConfigImage_Params, configImageSize);
SAME(CUpti_Profiler_Host_GetConfigImage_Params, pConfigImage);
SAME_SIZE(CUpti_Profiler_Host_GetNumOfPasses_Params);
SAME(CUpti_Profiler_Host_GetNumOfPasses_Params, pConfigImage);
SAME(CUpti_Profiler_Host_GetNumOfPasses_Params, numOfPasses);
SAME_SIZE(CUpti_Profiler_Host_EvaluateToGpuValues_Params);
SAME(CUpti_Profiler_Host_EvaluateToGpuValues_Params, pCounterDataImage);
SAME(CUpti_Profiler_Host_EvaluateToGpuValues_Params, counterDataImageSize);
SAME(CUpti_Profiler_Host_EvaluateToGpuValues_Params, rangeIndex);
SAME(CUpti_Profiler_Host_EvaluateToGpuValues_Params, ppMetricNames);
SAME(CUpti_Profiler_Host_EvaluateToGpuValues_Params, numMetrics);
SAME(CUpti_Profiler_Host_EvaluateToGpuValues_Params, pMetricValues);
static_assert(int(mirror::CUPTI_METRIC_TYPE__COUNT) == int(::CUPTI_METRIC_TYPE__COUNT), "metric types differ");
static_assert(int(mirror::CUPTI_PROFILER_TYPE_RANGE_PROFILER) == int(::CUPTI_PROFILER_TYPE_RANGE_PROFILER),
              "profiler types differ");

int main()
{
    std::puts("runtime/cupti_host.h matches the toolkit's cupti_profiler_host.h");
    return 0;
}
