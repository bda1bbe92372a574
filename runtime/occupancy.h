/* occupancy.h - theoretical occupancy: how many blocks of a kernel fit on one SM.
 *
 * The rule the CUDA driver applies (cuOccupancyMaxActiveBlocksPerMultiprocessor with
 * the default shared-memory carveout), per architecture: the SM's warp slots, its
 * block slots, its registers (allocated per warp in 256-register units within each of
 * the SM's sub-partitions), its shared memory (allocated per block in 128- or
 * 256-byte units, plus 1 KB the system reserves per block from CC 8.0 on), and its
 * named barriers. The smallest of these limits is the answer, and names the limiter.
 * Checked against every row of the driver's answers measured on an H100
 * (test/unit/test_occupancy.c). */
#ifndef CUTUNE_RUNTIME_OCCUPANCY_H
#define CUTUNE_RUNTIME_OCCUPANCY_H

#include <stdint.h>

/* An SM's and a block's limits: what the driver reports of a device (runtime/driver.h's
 * drv_device) and the CUDA Programming Guide's table gives of an architecture (occ_arch),
 * one struct so that a device's figures replace a table's whole. */
typedef struct occ_limits {
    int warp_size;
    int max_threads_per_block;
    int max_threads_per_sm;
    int max_blocks_per_sm;
    int regs_per_sm;
    int regs_per_block;
    int smem_per_sm;             /* the largest carveout, bytes */
    int smem_per_block;          /* without opting in */
    int smem_per_block_optin;    /* the most a block may opt in to */
    int smem_reserved_per_block; /* taken by the system from each block's share */
} occ_limits;

/* What limits an architecture's SM (figures of the CUDA Programming Guide's table of
 * compute capabilities, and the allocation rules of the toolkit's occupancy
 * calculator). */
typedef struct occ_arch {
    int cc;           /* 90 for compute capability 9.0 */
    const char *name; /* "sm_90" */
    occ_limits lim;
    int max_regs_per_thread;
    int reg_alloc_unit; /* registers per warp are rounded up to this */
    int sub_partitions; /* registers are split between these */
    int smem_alloc_unit;
    int barriers_per_block_slot; /* named barriers available per resident block slot */
} occ_arch;

/* occ_arch_find: the architecture for "sm_90", "90", "9.0" or "compute_90", or NULL. */
const occ_arch *occ_arch_find(const char *name);

/* occ_arch_by_cc: the architecture for compute capability major*10+minor, or NULL. */
const occ_arch *occ_arch_by_cc(int cc);

/* occ_arch_list: all known architectures, in order; *n gets their count. */
const occ_arch *occ_arch_list(int *n);

typedef enum occ_limiter {
    OCC_LIMIT_NONE,   /* nothing fits: see launchable */
    OCC_LIMIT_WARPS,  /* the SM's warp slots */
    OCC_LIMIT_BLOCKS, /* the SM's block slots */
    OCC_LIMIT_REGISTERS,
    OCC_LIMIT_SHARED_MEMORY,
    OCC_LIMIT_BARRIERS
} occ_limiter;

/* occ_limiter_name: "warps", "blocks", "registers", "shared memory", "barriers", "none". */
const char *occ_limiter_name(occ_limiter l);

/* A kernel's use of SM resources per block. */
typedef struct occ_usage {
    int threads; /* threads per block */
    int regs_per_thread;
    int64_t static_smem;  /* bytes declared __shared__ in the kernel */
    int64_t dynamic_smem; /* bytes asked for at launch */
    int barriers;         /* named barriers the kernel uses (0 or 1 for most) */
    int opted_in;         /* 1: the block may use up to smem_per_block_optin */
} occ_usage;

typedef struct occ_result {
    int blocks_per_sm;
    int active_warps;
    int max_warps;
    double occupancy; /* active_warps / max_warps, 0..1 */
    occ_limiter limiter;
    /* Blocks per SM each resource allows (INT32_MAX when it does not limit). */
    int by_warps, by_blocks, by_registers, by_shared_memory, by_barriers;
    int regs_per_block;       /* registers the block is allocated */
    int64_t smem_per_block;   /* shared memory the block is allocated */
    const char *unlaunchable; /* why no block fits, or NULL when one does */
} occ_result;

/* occ_compute: the occupancy of `u` on `arch`. Returns 0, or -1 for meaningless input
 * (threads < 1, negative sizes), leaving *out zeroed. A kernel that cannot run at all
 * (too many threads, registers or shared memory per block) is not an error: it gets
 * blocks_per_sm = 0 and a reason in unlaunchable. */
int occ_compute(const occ_arch *arch, const occ_usage *u, occ_result *out);

/* occ_check_geometry: why a launch of this block and grid shape cannot happen on
 * `arch` (a dimension above the hardware's limit), or NULL when it can. */
const char *occ_check_geometry(const occ_arch *arch, const int64_t block[3], const int64_t grid[3]);

/* What cutune assumes of an architecture's device when there is no GPU to ask (device
 * attributes in a spec checked with `--arch`): the SM count and L2 size differ between
 * the products of one architecture, so one product stands for it. */
typedef struct occ_sku {
    int cc;
    const char *product; /* "H100 SXM5" */
    int sm_count;
    int l2_bytes;
    const char *others; /* other products of the arch and their SM counts, for messages */
} occ_sku;

/* occ_arch_sku: the product assumed for compute capability `cc`, or NULL. */
const occ_sku *occ_arch_sku(int cc);

#endif
