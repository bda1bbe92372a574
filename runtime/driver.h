/* driver.h - the CUDA driver, loaded at run time.
 *
 * cutune links no libcuda: it opens libcuda.so.1 with dlopen and finds each entry point
 * with cuGetProcAddress, so the same binary runs on machines without a driver (where
 * drv_open says so, plainly) and on machines with one. */
#ifndef CUTUNE_RUNTIME_DRIVER_H
#define CUTUNE_RUNTIME_DRIVER_H

#include <stddef.h>

typedef struct drv drv;

/* drv_open: loads and initialises the driver. Returns 0, or -1 with a message in err
 * saying what is missing (no libcuda.so.1, no device, a driver too old...). */
int drv_open(drv **out, char *err, size_t errsize);

/* drv_close: unloads it; NULL is a no-op. */
void drv_close(drv *d);

/* drv_version: the driver's CUDA version (13000 for 13.0). */
int drv_version(const drv *d);

/* drv_device_count: devices the driver sees (0, or -1 with err). */
int drv_device_count(drv *d, int *count, char *err, size_t errsize);

/* What cutune needs to know of a device. */
typedef struct drv_device {
    char name[256];
    int cc;                       /* major*10+minor */
    int sm_count;
    int warp_size;
    int max_threads_per_block;
    int max_threads_per_sm;
    int max_blocks_per_sm;
    int regs_per_sm;
    int regs_per_block;
    int smem_per_sm;
    int smem_per_block;
    int smem_per_block_optin;
    int smem_reserved_per_block;
    int l2_bytes;
} drv_device;

/* drv_device_info: the attributes of device `ordinal` (0, or -1 with err). */
int drv_device_info(drv *d, int ordinal, drv_device *out, char *err, size_t errsize);

#endif
