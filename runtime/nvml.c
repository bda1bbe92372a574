/* nvml.c - the energy counter through a run-time loaded NVML (nvml.h).
 *
 * The few types and entry points used are declared here as NVML's header declares them
 * (nvmlReturn_t is an int, nvmlDevice_t an opaque pointer), so the build needs no NVML
 * header. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "nvml.h"
#include "../base/err.h"

typedef int nvml_return; /* nvmlReturn_t: 0 is NVML_SUCCESS */
typedef struct nvml_device *nvml_device;

struct nvml {
    void *lib;
    nvml_return (*init)(void);
    nvml_return (*shutdown)(void);
    nvml_return (*by_pci)(const char *, nvml_device *);
    nvml_return (*energy)(nvml_device, unsigned long long *);
    const char *(*error_string)(nvml_return);
    nvml_device dev;
    int initialised;
};

/* NVML's words for `r`, or its number when the library cannot say. */
static void describe(const nvml *p, nvml_return r, const char *what)
{
    const char *s = p->error_string ? p->error_string(r) : NULL;
    if (s)
        err_set(-1, "NVML: %s: %s (NVML error %d)", what, s, r);
    else
        err_set(-1, "NVML: %s: NVML error %d", what, r);
}

int nvml_open(nvml **out, const char *pci_bus_id)
{
    *out = NULL;
    nvml *p = calloc(1, sizeof *p);
    if (!p) {
        err_set(-1, "out of memory");
        return -1;
    }
    p->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!p->lib) {
        const char *why = dlerror();
        err_set(-1, "NVML is not available: %s", why ? why : "libnvidia-ml.so.1 not found");
        free(p);
        return -1;
    }
    *(void **)&p->init = dlsym(p->lib, "nvmlInit_v2");
    *(void **)&p->shutdown = dlsym(p->lib, "nvmlShutdown");
    *(void **)&p->by_pci = dlsym(p->lib, "nvmlDeviceGetHandleByPciBusId_v2");
    *(void **)&p->energy = dlsym(p->lib, "nvmlDeviceGetTotalEnergyConsumption");
    *(void **)&p->error_string = dlsym(p->lib, "nvmlErrorString");
    if (!p->init || !p->shutdown || !p->by_pci || !p->energy) {
        err_set(-1, "NVML is not usable: libnvidia-ml.so.1 lacks %s",
                !p->init       ? "nvmlInit_v2"
                : !p->shutdown ? "nvmlShutdown"
                : !p->by_pci   ? "nvmlDeviceGetHandleByPciBusId_v2"
                               : "nvmlDeviceGetTotalEnergyConsumption");
        nvml_close(p);
        return -1;
    }
    nvml_return r = p->init();
    if (r != 0) {
        describe(p, r, "nvmlInit_v2");
        nvml_close(p);
        return -1;
    }
    p->initialised = 1;
    if ((r = p->by_pci(pci_bus_id, &p->dev)) != 0) {
        char what[96];
        snprintf(what, sizeof what, "the device at PCI %s", pci_bus_id);
        describe(p, r, what);
        nvml_close(p);
        return -1;
    }
    uint64_t mj;
    if (nvml_energy_mj(p, &mj) < 0) { /* e.g. NOT_SUPPORTED before Volta */
        nvml_close(p);
        return -1;
    }
    *out = p;
    return 0;
}

int nvml_energy_mj(nvml *p, uint64_t *mj)
{
    unsigned long long v = 0;
    nvml_return r = p->energy(p->dev, &v);
    if (r != 0) {
        describe(p, r, "nvmlDeviceGetTotalEnergyConsumption");
        return -1;
    }
    *mj = (uint64_t)v;
    return 0;
}

void nvml_close(nvml *p)
{
    if (!p)
        return;
    if (p->initialised)
        p->shutdown(); /* its status is of no use here: the process is done with NVML */
    if (p->lib)
        dlclose(p->lib);
    free(p);
}
