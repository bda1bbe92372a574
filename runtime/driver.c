/* driver.c - the CUDA driver through dlopen and cuGetProcAddress (see driver.h).
 * cuda.h is included for its types and constants only; nothing links against libcuda. */
#include "driver.h"
#include "../base/err.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef CUresult (*get_proc_fn)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);

void drv_error(const drv *d, CUresult r, const char *what)
{
    const char *text = NULL, *name = NULL;
    if (!d->cuGetErrorString || d->cuGetErrorString(r, &text) != CUDA_SUCCESS || !text)
        text = "unknown error";
    if (!d->cuGetErrorName || d->cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
        name = "CUDA_ERROR";
    err_set(-1, "%s failed: %s: %s (CUDA error %d)", what, name, text, (int)r);
}

static void describe(const drv *d, CUresult r, const char *what)
{
    drv_error(d, r, what);
}

int drv_open(drv **out)
{
    *out = NULL;
    void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        err_set(-1, "no CUDA driver on this machine (%s)", why ? why : "libcuda.so.1 not found");
        return -1;
    }
    drv *d = calloc(1, sizeof *d);
    if (!d) {
        dlclose(lib);
        err_set(-1, "out of memory");
        return -1;
    }
    d->lib = lib;
    get_proc_fn get_proc = (get_proc_fn)dlsym(lib, "cuGetProcAddress_v2");
    if (!get_proc) {
        err_set(-1, "the CUDA driver is too old: it lacks cuGetProcAddress_v2 (CUDA 12.0 or newer is needed)");
        drv_close(d);
        return -1;
    }
    struct {
        const char *name;
        void **slot;
    } entries[] = {
        {"cuInit", (void **)&d->cuInit},
        {"cuDriverGetVersion", (void **)&d->cuDriverGetVersion},
        {"cuDeviceGetCount", (void **)&d->cuDeviceGetCount},
        {"cuDeviceGet", (void **)&d->cuDeviceGet},
        {"cuDeviceGetName", (void **)&d->cuDeviceGetName},
        {"cuDeviceGetPCIBusId", (void **)&d->cuDeviceGetPCIBusId},
        {"cuDeviceGetAttribute", (void **)&d->cuDeviceGetAttribute},
        {"cuGetErrorString", (void **)&d->cuGetErrorString},
        {"cuGetErrorName", (void **)&d->cuGetErrorName},
        {"cuDevicePrimaryCtxRetain", (void **)&d->cuDevicePrimaryCtxRetain},
        {"cuDevicePrimaryCtxRelease", (void **)&d->cuDevicePrimaryCtxRelease},
        {"cuCtxSetCurrent", (void **)&d->cuCtxSetCurrent},
        {"cuCtxSynchronize", (void **)&d->cuCtxSynchronize},
        {"cuModuleLoadData", (void **)&d->cuModuleLoadData},
        {"cuModuleUnload", (void **)&d->cuModuleUnload},
        {"cuModuleGetFunction", (void **)&d->cuModuleGetFunction},
        {"cuModuleGetGlobal", (void **)&d->cuModuleGetGlobal},
        {"cuFuncSetAttribute", (void **)&d->cuFuncSetAttribute},
        {"cuFuncGetAttribute", (void **)&d->cuFuncGetAttribute},
        {"cuOccupancyMaxActiveBlocksPerMultiprocessor", (void **)&d->cuOccupancyMaxActiveBlocksPerMultiprocessor},
        {"cuMemAlloc", (void **)&d->cuMemAlloc},
        {"cuMemFree", (void **)&d->cuMemFree},
        {"cuMemcpyHtoD", (void **)&d->cuMemcpyHtoD},
        {"cuMemcpyDtoH", (void **)&d->cuMemcpyDtoH},
        {"cuMemcpyDtoD", (void **)&d->cuMemcpyDtoD},
        {"cuMemsetD8", (void **)&d->cuMemsetD8},
        {"cuMemsetD32Async", (void **)&d->cuMemsetD32Async},
        {"cuMemsetD8Async", (void **)&d->cuMemsetD8Async}, /* resets */
        {"cuMemsetD16Async", (void **)&d->cuMemsetD16Async},
        {"cuMemcpyDtoDAsync", (void **)&d->cuMemcpyDtoDAsync},
        {"cuLaunchKernel", (void **)&d->cuLaunchKernel},
        {"cuStreamCreate", (void **)&d->cuStreamCreate},
        {"cuStreamDestroy", (void **)&d->cuStreamDestroy},
        {"cuStreamSynchronize", (void **)&d->cuStreamSynchronize},
        {"cuEventCreate", (void **)&d->cuEventCreate},
        {"cuEventDestroy", (void **)&d->cuEventDestroy},
        {"cuEventRecord", (void **)&d->cuEventRecord},
        {"cuEventSynchronize", (void **)&d->cuEventSynchronize},
        {"cuEventElapsedTime", (void **)&d->cuEventElapsedTime},
    };
    for (size_t i = 0; i < sizeof entries / sizeof *entries; i++) {
        CUdriverProcAddressQueryResult found;
        CUresult r = get_proc(entries[i].name, entries[i].slot, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &found);
        if (r != CUDA_SUCCESS || found != CU_GET_PROC_ADDRESS_SUCCESS || !*entries[i].slot) {
            err_set(-1, "the CUDA driver lacks %s", entries[i].name);
            drv_close(d);
            return -1;
        }
    }
    CUresult r = d->cuInit(0);
    if (r != CUDA_SUCCESS) {
        describe(d, r, "cuInit");
        drv_close(d);
        return -1;
    }
    if ((r = d->cuDriverGetVersion(&d->version)) != CUDA_SUCCESS) {
        describe(d, r, "cuDriverGetVersion");
        drv_close(d);
        return -1;
    }
    *out = d;
    return 0;
}

void drv_close(drv *d)
{
    if (!d)
        return;
    if (d->lib)
        dlclose(d->lib);
    free(d);
}

int drv_version(const drv *d)
{
    return d->version;
}

int drv_device_count(drv *d, int *count)
{
    CUresult r = d->cuDeviceGetCount(count);
    if (r != CUDA_SUCCESS) {
        describe(d, r, "cuDeviceGetCount");
        return -1;
    }
    return 0;
}

int drv_device_info(drv *d, int ordinal, drv_device *out)
{
    memset(out, 0, sizeof *out);
    CUdevice dev;
    CUresult r = d->cuDeviceGet(&dev, ordinal);
    if (r != CUDA_SUCCESS) {
        describe(d, r, "cuDeviceGet");
        return -1;
    }
    if ((r = d->cuDeviceGetName(out->name, (int)sizeof out->name, dev)) != CUDA_SUCCESS) {
        describe(d, r, "cuDeviceGetName");
        return -1;
    }
    int major = 0, minor = 0;
    struct {
        CUdevice_attribute attr;
        int *slot;
    } attrs[] = {
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &major},
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &minor},
        {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &out->sm_count},
        {CU_DEVICE_ATTRIBUTE_WARP_SIZE, &out->lim.warp_size},
        {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &out->lim.max_threads_per_block},
        {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, &out->lim.max_threads_per_sm},
        {CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR, &out->lim.max_blocks_per_sm},
        {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR, &out->lim.regs_per_sm},
        {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, &out->lim.regs_per_block},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, &out->lim.smem_per_sm},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, &out->lim.smem_per_block},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, &out->lim.smem_per_block_optin},
        {CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK, &out->lim.smem_reserved_per_block},
        {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, &out->l2_bytes},
    };
    for (size_t i = 0; i < sizeof attrs / sizeof *attrs; i++) {
        if ((r = d->cuDeviceGetAttribute(attrs[i].slot, attrs[i].attr, dev)) != CUDA_SUCCESS) {
            describe(d, r, "cuDeviceGetAttribute");
            return -1;
        }
    }
    out->cc = major * 10 + minor;
    return 0;
}
