/* devattrs.h - the device attributes a spec's expressions may read (sm_count, warp_size,
 * ...): their names, and the values one check uses.
 *
 * The checker treats each name as a constant of the device the spec is checked for:
 * the GPU being tuned (its driver's answers) or, without one, a table of the target
 * architecture's values (api/ builds those from runtime/occupancy's tables). The
 * values are plain numbers here; this file knows nothing of the driver. */
#ifndef CUTUNE_COMPILER_DEVATTRS_H
#define CUTUNE_COMPILER_DEVATTRS_H

#include <stdbool.h>
#include <stdint.h>

struct cutune_device; /* include/cutune.h */

typedef enum dev_attr {
    DA_SM_COUNT,
    DA_MAX_THREADS_PER_SM,
    DA_MAX_THREADS_PER_BLOCK,
    DA_REGS_PER_SM,
    DA_REGS_PER_BLOCK,
    DA_SMEM_PER_SM,
    DA_SMEM_PER_BLOCK,
    DA_SMEM_PER_BLOCK_OPTIN,
    DA_L2_BYTES,
    DA_WARP_SIZE,
    DA_CC_MAJOR,
    DA_CC_MINOR,
    DA_CC,
    DA_COUNT
} dev_attr;

/* One device's values, by attribute, and where they come from. */
typedef struct dev_values {
    int64_t v[DA_COUNT];
    bool assumed;     /* from a table of the architecture, not read from a GPU */
    char source[160]; /* "GPU 0: NVIDIA H100 80GB HBM3", "sm_90 table (H100 SXM5)" */
} dev_values;

/* dev_attr_name: the name a spec reads the attribute by ("sm_count"). */
const char *dev_attr_name(dev_attr a);

/* dev_attr_what: a short description for messages ("the number of SMs"). */
const char *dev_attr_what(dev_attr a);

/* dev_attr_find: the attribute spelt `name`, or -1. */
int dev_attr_find(const char *name);

/* dev_values_from_device: the values of a device as cutune_device describes it (the
 * driver's answers); `assumed` false and `source` naming the GPU. */
void dev_values_from_device(dev_values *out, const struct cutune_device *d);

/* dev_values_equal: whether two descriptions hold the same numbers (sources aside). */
bool dev_values_equal(const dev_values *a, const dev_values *b);

#endif
