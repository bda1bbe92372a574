/* devattrs.c - device attribute names and values (see devattrs.h). */
#include "devattrs.h"

#include <stdio.h>
#include <string.h>

#include "cutune.h"

static const struct {
    const char *name, *what;
} attrs[DA_COUNT] = {
    [DA_SM_COUNT] = {"sm_count", "the number of SMs"},
    [DA_MAX_THREADS_PER_SM] = {"max_threads_per_sm", "the most resident threads per SM"},
    [DA_MAX_THREADS_PER_BLOCK] = {"max_threads_per_block", "the most threads per block"},
    [DA_REGS_PER_SM] = {"regs_per_sm", "32-bit registers per SM"},
    [DA_REGS_PER_BLOCK] = {"regs_per_block", "32-bit registers a block may use"},
    [DA_SMEM_PER_SM] = {"smem_per_sm", "shared memory per SM, bytes"},
    [DA_SMEM_PER_BLOCK] = {"smem_per_block", "shared memory per block without opting in, bytes"},
    [DA_SMEM_PER_BLOCK_OPTIN] = {"smem_per_block_optin", "the most shared memory a block may opt in to, bytes"},
    [DA_L2_BYTES] = {"l2_bytes", "the L2 cache size, bytes"},
    [DA_WARP_SIZE] = {"warp_size", "threads per warp"},
    [DA_CC_MAJOR] = {"cc_major", "the compute capability's major number"},
    [DA_CC_MINOR] = {"cc_minor", "the compute capability's minor number"},
    [DA_CC] = {"cc", "the compute capability as one number (90 for 9.0)"},
};

const char *dev_attr_name(dev_attr a)
{
    return a >= 0 && a < DA_COUNT ? attrs[a].name : "?";
}

const char *dev_attr_what(dev_attr a)
{
    return a >= 0 && a < DA_COUNT ? attrs[a].what : "?";
}

int dev_attr_find(const char *name)
{
    for (int i = 0; name && i < DA_COUNT; i++)
        if (strcmp(attrs[i].name, name) == 0)
            return i;
    return -1;
}

void dev_values_from_device(dev_values *out, const cutune_device *d)
{
    memset(out, 0, sizeof *out);
    out->v[DA_SM_COUNT] = d->sm_count;
    out->v[DA_MAX_THREADS_PER_SM] = d->max_threads_per_sm;
    out->v[DA_MAX_THREADS_PER_BLOCK] = d->max_threads_per_block;
    out->v[DA_REGS_PER_SM] = d->regs_per_sm;
    out->v[DA_REGS_PER_BLOCK] = d->regs_per_block;
    out->v[DA_SMEM_PER_SM] = d->smem_per_sm;
    out->v[DA_SMEM_PER_BLOCK] = d->smem_per_block;
    out->v[DA_SMEM_PER_BLOCK_OPTIN] = d->smem_per_block_optin;
    out->v[DA_L2_BYTES] = d->l2_bytes;
    out->v[DA_WARP_SIZE] = d->warp_size;
    out->v[DA_CC_MAJOR] = d->cc / 10;
    out->v[DA_CC_MINOR] = d->cc % 10;
    out->v[DA_CC] = d->cc;
    out->assumed = false;
    snprintf(out->source, sizeof out->source, "GPU %d: %.120s", d->ordinal,
             d->name ? d->name : ""); /* an application's may be NULL */
}

bool dev_values_equal(const dev_values *a, const dev_values *b)
{
    return memcmp(a->v, b->v, sizeof a->v) == 0;
}
