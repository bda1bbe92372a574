/* nvml.h - the GPU's energy counter through NVML, loaded at run time like the driver
 * (dlopen("libnvidia-ml.so.1"); never linked): the same binary runs, and says why it
 * measures no energy, where NVML is missing.
 *
 * Only what cutune reads: the device's total energy since the driver loaded
 * (nvmlDeviceGetTotalEnergyConsumption, millijoules, Volta and later), found by PCI bus
 * id so that it is the GPU the CUDA driver calls by its ordinal. Nothing is set:
 * clocks and power limits are left alone. */
#ifndef CUTUNE_RUNTIME_NVML_H
#define CUTUNE_RUNTIME_NVML_H

#include <stddef.h>
#include <stdint.h>

typedef struct nvml nvml;

/* nvml_open: NVML, initialised, and the device at `pci_bus_id` (as
 * cuDeviceGetPCIBusId writes it). 0, or -1 with err_last set: the library missing, its init
 * failing, no such device, or a device without an energy counter (checked by reading
 * it once). *out is NULL on failure. */
int nvml_open(nvml **out, const char *pci_bus_id);

/* nvml_energy_mj: the device's energy counter, in millijoules. 0, or -1 with err_last set. */
int nvml_energy_mj(nvml *p, uint64_t *mj);

/* nvml_close: shuts NVML down and unloads it; NULL is a no-op. */
void nvml_close(nvml *p);

#endif
