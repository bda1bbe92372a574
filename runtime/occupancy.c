/* occupancy.c - the theoretical occupancy model (see occupancy.h). */
#include "occupancy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Per architecture. Threads, blocks, registers and shared memory per SM and per block:
 * the CUDA C++ Programming Guide, "Technical Specifications per Compute Capability".
 * Allocation units, sub-partitions, block slots and barrier counts: the rules of the
 * CUDA toolkit's occupancy calculator (cuda_occupancy.h, CUDA 13.0). Only sm_90 is
 * checked against a real device's answers (test/data/occupancy_h100.csv, measured on an H100). */
static const occ_arch archs[] = {
    /* cc  name    {warp thr/blk thr/SM blk/SM regs/SM regs/blk smem/SM smem/blk optin rsv}  maxreg unit sub smem-unit bar */
    {61, "sm_61", {32, 1024, 2048, 32, 65536, 65536, 98304, 49152, 49152, 0}, 255, 256, 4, 256, 2},
    {70, "sm_70", {32, 1024, 2048, 32, 65536, 65536, 98304, 49152, 98304, 0}, 256, 256, 4, 256, 2},
    {75, "sm_75", {32, 1024, 1024, 16, 65536, 65536, 65536, 49152, 65536, 0}, 256, 256, 4, 256, 2},
    {80, "sm_80", {32, 1024, 2048, 32, 65536, 65536, 167936, 49152, 166912, 1024}, 256, 256, 4, 128, 2},
    {86, "sm_86", {32, 1024, 1536, 16, 65536, 65536, 102400, 49152, 101376, 1024}, 256, 256, 4, 128, 1},
    {87, "sm_87", {32, 1024, 1536, 16, 65536, 65536, 167936, 49152, 166912, 1024}, 256, 256, 4, 128, 1},
    {89, "sm_89", {32, 1024, 1536, 24, 65536, 65536, 102400, 49152, 101376, 1024}, 256, 256, 4, 128, 1},
    {90, "sm_90", {32, 1024, 2048, 32, 65536, 65536, 233472, 49152, 232448, 1024}, 256, 256, 4, 128, 2},
    {100, "sm_100", {32, 1024, 2048, 32, 65536, 65536, 233472, 49152, 232448, 1024}, 256, 256, 4, 128, 2},
    {120, "sm_120", {32, 1024, 1536, 24, 65536, 65536, 102400, 49152, 101376, 1024}, 256, 256, 4, 128, 1},
};
enum { NARCHS = sizeof archs / sizeof *archs };

const occ_arch *occ_arch_list(int *n)
{
    *n = NARCHS;
    return archs;
}

const occ_arch *occ_arch_by_cc(int cc)
{
    for (int i = 0; i < NARCHS; i++)
        if (archs[i].cc == cc)
            return &archs[i];
    return NULL;
}

const occ_arch *occ_arch_find(const char *name)
{
    if (!name)
        return NULL;
    const char *digits = name;
    if (strncmp(name, "sm_", 3) == 0)
        digits = name + 3;
    else if (strncmp(name, "compute_", 8) == 0)
        digits = name + 8;
    char *end;
    long major = strtol(digits, &end, 10);
    if (end == digits)
        return NULL;
    long cc = major;
    if (*end == '.') { /* "9.0" */
        const char *minor_text = end + 1;
        long minor = strtol(minor_text, &end, 10);
        if (end == minor_text || minor < 0 || minor > 9)
            return NULL;
        cc = major * 10 + minor;
    }
    if (*end == 'a' || *end == 'f') /* sm_90a, sm_100f: same resources */
        end++;
    if (*end != '\0')
        return NULL;
    return occ_arch_by_cc((int)cc);
}

const char *occ_limiter_name(occ_limiter l)
{
    static const char *const names[] = {"none", "warps", "blocks", "registers", "shared memory", "barriers"};
    return names[l];
}

static int div_up(int64_t a, int64_t b)
{
    return (int)((a + b - 1) / b);
}
static int64_t round_up(int64_t a, int64_t b)
{
    return (a + b - 1) / b * b;
}

int occ_compute(const occ_arch *a, const occ_usage *u, occ_result *out)
{
    memset(out, 0, sizeof *out);
    if (!a || u->threads < 1 || u->regs_per_thread < 0 || u->static_smem < 0 || u->dynamic_smem < 0 || u->barriers < 0)
        return -1;
    int warps_per_block = div_up(u->threads, a->lim.warp_size);
    out->max_warps = a->lim.max_threads_per_sm / a->lim.warp_size;

    /* Warp slots, and the hardware's threads-per-block limit. */
    if (u->threads > a->lim.max_threads_per_block) {
        out->by_warps = 0;
        out->unlaunchable = "more threads per block than the hardware allows";
    } else {
        out->by_warps = out->max_warps / warps_per_block;
    }
    out->by_blocks = a->lim.max_blocks_per_sm;

    /* Registers: each warp's share is rounded up to the allocation unit, and warps are
     * placed within sub-partitions, each holding a quarter of the register file. */
    int regs_per_warp = (int)round_up((int64_t)u->regs_per_thread * a->lim.warp_size, a->reg_alloc_unit);
    out->regs_per_block = regs_per_warp * warps_per_block;
    int64_t regs_assumed = (int64_t)regs_per_warp * round_up(warps_per_block, a->sub_partitions);
    if (u->regs_per_thread > a->max_regs_per_thread || out->regs_per_block > a->lim.regs_per_block ||
        regs_assumed > a->lim.regs_per_block) {
        out->by_registers = 0;
        if (!out->unlaunchable)
            out->unlaunchable = "more registers per block than the hardware allows";
    } else if (regs_per_warp == 0) {
        out->by_registers = INT32_MAX;
    } else {
        int warps_per_sub = a->lim.regs_per_sm / a->sub_partitions / regs_per_warp;
        out->by_registers = warps_per_sub * a->sub_partitions / warps_per_block;
    }

    /* Shared memory: the block's static and dynamic bytes plus the system's reserve,
     * rounded up to the allocation unit, from the largest carveout. */
    int64_t used = u->static_smem + u->dynamic_smem;
    out->smem_per_block = round_up(used + a->lim.smem_reserved_per_block, a->smem_alloc_unit);
    int64_t block_limit = u->opted_in ? a->lim.smem_per_block_optin : a->lim.smem_per_block;
    if (used > block_limit) {
        out->by_shared_memory = 0;
        if (!out->unlaunchable)
            out->unlaunchable = u->opted_in || used > a->lim.smem_per_block_optin
                                    ? "more shared memory per block than the hardware allows"
                                    : "more shared memory per block than allowed without opting in";
    } else if (out->smem_per_block == 0) {
        out->by_shared_memory = INT32_MAX; /* before CC 8.0 a block may use none */
    } else {
        out->by_shared_memory = (int)(a->lim.smem_per_sm / out->smem_per_block);
    }

    /* Named barriers: a fixed number per block slot. */
    out->by_barriers = u->barriers > 1 ? a->barriers_per_block_slot * a->lim.max_blocks_per_sm / u->barriers : INT32_MAX;

    /* The smallest limit binds. On a tie the resource the kernel's code controls is
     * named (registers, then shared memory) before the block shape's (warps, blocks). */
    struct {
        int value;
        occ_limiter l;
    } limits[] = {{out->by_registers, OCC_LIMIT_REGISTERS},
                  {out->by_shared_memory, OCC_LIMIT_SHARED_MEMORY},
                  {out->by_warps, OCC_LIMIT_WARPS},
                  {out->by_blocks, OCC_LIMIT_BLOCKS},
                  {out->by_barriers, OCC_LIMIT_BARRIERS}};
    int best = INT32_MAX;
    for (size_t i = 0; i < sizeof limits / sizeof *limits; i++)
        if (limits[i].value < best) {
            best = limits[i].value;
            out->limiter = limits[i].l;
        }
    out->blocks_per_sm = best;
    if (best == 0) {
        if (!out->unlaunchable)
            out->unlaunchable = "no block fits on an SM";
    }
    out->active_warps = best * warps_per_block;
    out->occupancy = out->max_warps ? (double)out->active_warps / out->max_warps : 0.0;
    return 0;
}

const char *occ_check_geometry(const occ_arch *arch, const int64_t block[3], const int64_t grid[3])
{
    /* The same on every architecture cutune knows. */
    static const int64_t max_block[3] = {1024, 1024, 64};
    static const int64_t max_grid[3] = {2147483647, 65535, 65535};
    static const char *const why_block[3] = {"block x is above 1024", "block y is above 1024", "block z is above 64"};
    static const char *const why_grid[3] = {"grid x is above 2^31-1", "grid y is above 65535", "grid z is above 65535"};
    if (block[0] * block[1] * block[2] > arch->lim.max_threads_per_block)
        return "more threads per block than the hardware allows";
    for (int d = 0; d < 3; d++) {
        if (block[d] > max_block[d])
            return why_block[d];
        if (grid[d] > max_grid[d])
            return why_grid[d];
    }
    return NULL;
}

/* The product assumed per architecture: SM counts and L2 sizes as the vendor's product
 * pages give them (and, for the H100 SXM5, as its driver reports them: cudaDeviceProp
 * multiProcessorCount 132, l2CacheSize 52428800, docs/results/seeds-h100.md). Every
 * other figure comes from the architecture's row above. */
static const occ_sku skus[] = {
    {61, "GeForce GTX 1080", 20, 2 << 20, "Tesla P40: 30, GTX 1080 Ti: 28"},
    {70, "Tesla V100 SXM2", 80, 6 << 20, "V100 PCIe: 80, Titan V: 80"},
    {75, "Tesla T4", 40, 4 << 20, "RTX 2080 Ti: 68, RTX 2080: 46"},
    {80, "A100 SXM4", 108, 40 << 20, "A100 PCIe: 108, A30: 56"},
    {86, "GeForce RTX 3090", 82, 6 << 20, "A10: 72, RTX A6000: 84, RTX 3080: 68"},
    {87, "Jetson AGX Orin", 16, 4 << 20, "Jetson Orin NX: 8"},
    {89, "GeForce RTX 4090", 128, 72 << 20, "L40S: 142, L4: 58, RTX 4080: 76"},
    {90, "H100 SXM5", 132, 50 << 20, "H100 PCIe: 114, H200: 132, GH200: 132"},
    {100, "B200", 148, 126 << 20, "(none listed)"},
    {120, "GeForce RTX 5090", 170, 96 << 20, "RTX 5080: 84, RTX PRO 6000: 188"},
};

const occ_sku *occ_arch_sku(int cc)
{
    for (size_t i = 0; i < sizeof skus / sizeof *skus; i++)
        if (skus[i].cc == cc)
            return &skus[i];
    return NULL;
}
