/* driver.h - the CUDA driver, loaded at run time.
 *
 * cutune links no libcuda: it opens libcuda.so.1 with dlopen and finds each entry point
 * with cuGetProcAddress, so the same binary runs on machines without a driver (where
 * drv_open says so, plainly) and on machines with one. */
#ifndef CUTUNE_RUNTIME_DRIVER_H
#define CUTUNE_RUNTIME_DRIVER_H

#include <cuda.h> /* types and constants only: nothing links against libcuda */
#include <stddef.h>

#include "occupancy.h"

/* The driver's entry points cutune uses, found with cuGetProcAddress (CUDA 12.0 ABI). */
typedef struct drv {
    void *lib;
    int version;
    CUresult (*cuInit)(unsigned);
    CUresult (*cuDriverGetVersion)(int *);
    CUresult (*cuDeviceGetCount)(int *);
    CUresult (*cuDeviceGet)(CUdevice *, int);
    CUresult (*cuDeviceGetName)(char *, int, CUdevice);
    CUresult (*cuDeviceGetPCIBusId)(char *, int, CUdevice);
    CUresult (*cuDeviceGetAttribute)(int *, CUdevice_attribute, CUdevice);
    CUresult (*cuGetErrorString)(CUresult, const char **);
    CUresult (*cuGetErrorName)(CUresult, const char **);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
    CUresult (*cuCtxSetCurrent)(CUcontext);
    CUresult (*cuCtxSynchronize)(void);
    CUresult (*cuModuleLoadData)(CUmodule *, const void *);
    CUresult (*cuModuleUnload)(CUmodule);
    CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*cuModuleGetGlobal)(CUdeviceptr *, size_t *, CUmodule, const char *); /* runtime/cmem.c */
    CUresult (*cuFuncSetAttribute)(CUfunction, CUfunction_attribute, int);
    CUresult (*cuFuncGetAttribute)(int *, CUfunction_attribute, CUfunction);
    CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction, int, size_t);
    CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
    CUresult (*cuMemFree)(CUdeviceptr);
    CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
    CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
    CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
    CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t);
    CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned int, size_t, CUstream);
    /* resets before each launch (runtime/hook.c) */
    CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
    CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);
    CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
    CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                               CUstream, void **, void **);
    CUresult (*cuStreamCreate)(CUstream *, unsigned);
    CUresult (*cuStreamDestroy)(CUstream);
    CUresult (*cuStreamSynchronize)(CUstream);
    CUresult (*cuEventCreate)(CUevent *, unsigned);
    CUresult (*cuEventDestroy)(CUevent);
    CUresult (*cuEventRecord)(CUevent, CUstream);
    CUresult (*cuEventSynchronize)(CUevent);
    CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
} drv;

/* drv_error: the message for a failed call: "what failed: NAME: description (CUDA error N)". */
void drv_error(const drv *d, CUresult r, const char *what);

/* drv_open: loads and initialises the driver. Returns 0, or -1 with err_last set
 * saying what is missing (no libcuda.so.1, no device, a driver too old...). */
int drv_open(drv **out);

/* drv_close: unloads it; NULL is a no-op. */
void drv_close(drv *d);

/* drv_version: the driver's CUDA version (13000 for 13.0). */
int drv_version(const drv *d);

/* drv_device_count: devices the driver sees (0, or -1 with err_last set). */
int drv_device_count(drv *d, int *count);

/* What cutune needs to know of a device. */
typedef struct drv_device {
    char name[256];
    int cc; /* major*10+minor */
    int sm_count;
    occ_limits lim;
    int l2_bytes;
} drv_device;

/* drv_device_info: the attributes of device `ordinal` (0, or -1 with err_last set). */
int drv_device_info(drv *d, int ordinal, drv_device *out);

#endif
