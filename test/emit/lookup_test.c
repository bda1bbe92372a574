/* lookup_test.c - uses the header test/cli/emit.sh generates from a100.json, h100.json
 * and h200.json (in that order; prefix SCALE) and from scale.tune's default configuration
 * (prefix SCALE_DEF). Every expected value is worked out by hand from the fixtures and
 * the spec: grid = (cdiv(nx, block_x), max(1, ny // tile_y)), smem = 4 * (block_x + halo).
 * Compiled as C11, as C++ and by nvcc; exits non-zero naming the first wrong answer. */
#include <stdio.h>
#include <string.h>

#include "multi.h"
#include "default.h"

static int failures;

#define EXPECT(cond) \
    do { \
        if (!(cond)) { \
            printf("FAIL line %d: %s\n", __LINE__, #cond); \
            failures++; \
        } \
    } while (0)

int main(void)
{
    /* The macros: entry 0, the A100's winner #2 (32, 2, 0). */
    EXPECT(SCALE_TUNED == 1);
    EXPECT(SCALE_BLOCK_X == 32 && SCALE_TILE_Y == 2 && SCALE_MAXRREG == 0);
    EXPECT(SCALE_BLOCK_DIM_X == 32 && SCALE_BLOCK_DIM_Y == 1 && SCALE_BLOCK_DIM_Z == 1);
    EXPECT(SCALE_GRID_DIM_X == 128 && SCALE_GRID_DIM_Y == 512 && SCALE_GRID_DIM_Z == 1);
    EXPECT(SCALE_SMEM_BYTES == 136);
    EXPECT(SCALE_MAXRREGCOUNT == 0);
    EXPECT(strcmp(SCALE_COMPILE_OPTIONS, "") == 0);
    EXPECT(strcmp(SCALE_DEFINES, "-DTILE_Y=2") == 0);
    EXPECT(SCALE_COMPUTE_CAPABILITY == 80);

    /* Exact device: the H200 (cc 90) won with #16 (128, 4, 0). */
    const SCALE_config *h200 = SCALE_lookup("NVIDIA H200", 90);
    EXPECT(h200->params.block_x == 128 && h200->params.tile_y == 4 && h200->params.maxrreg == 0);
    EXPECT(h200->grid_dim[0] == 32 && h200->grid_dim[1] == 256 && h200->smem_bytes == 520);
    EXPECT(h200->maxrregcount == 0 && h200->tuned == 1);
    EXPECT(h200->time_ms == 0.4);
    /* Exact device: the H100 won with #11 (64, 4, 32). */
    const SCALE_config *h100 = SCALE_lookup("NVIDIA H100 80GB HBM3", 90);
    EXPECT(h100->params.block_x == 64 && h100->params.tile_y == 4 && h100->params.maxrreg == 32);
    EXPECT(h100->maxrregcount == 32);
    EXPECT(strcmp(h100->compile_options, "--maxrregcount=32") == 0);
    EXPECT(strcmp(h100->defines, "-DTILE_Y=4") == 0);
    /* Same compute capability, unknown name: the first cc-90 entry (the H100), not entry 0. */
    EXPECT(SCALE_lookup("NVIDIA H100 PCIe", 90) == h100);
    EXPECT(SCALE_lookup(NULL, 90) == h100);
    /* A name that matches but a different cc is not an exact match. */
    EXPECT(SCALE_lookup("NVIDIA H200", 80)->params.block_x == 32);
    /* Nothing alike: entry 0 (the A100). */
    const SCALE_config *other = SCALE_lookup("Tesla T4", 75);
    EXPECT(other->params.block_x == 32 && other->compute_capability == 80);
    EXPECT(SCALE_lookup(NULL, 80) == other);

    /* Functions of the problem size, entry 0's params (32, 2). */
    EXPECT(SCALE_grid_dim_x(4096) == 128);
    EXPECT(SCALE_grid_dim_x(100) == 4);    /* cdiv(100, 32) */
    EXPECT(SCALE_grid_dim_y(1024) == 512); /* 1024 // 2 */
    EXPECT(SCALE_grid_dim_y(1) == 1);      /* max(1, 0) */
    EXPECT(SCALE_smem_bytes(2) == 136);
    EXPECT(SCALE_smem_bytes(0) == 128);
    /* ... and of any entry. */
    EXPECT(SCALE_config_grid_dim_x(h200, 4096) == 32);
    EXPECT(SCALE_config_grid_dim_x(h100, 4097) == 65);
    EXPECT(SCALE_config_grid_dim_y(h100, 100) == 25);
    EXPECT(SCALE_config_smem_bytes(h200, 2) == 520);

    /* The default configuration: block_x's first value 32, tile_y's default 2, maxrreg 0. */
    EXPECT(SCALE_DEF_TUNED == 0);
    EXPECT(SCALE_DEF_BLOCK_X == 32 && SCALE_DEF_TILE_Y == 2 && SCALE_DEF_MAXRREG == 0);
    EXPECT(SCALE_DEF_GRID_DIM_X == 128 && SCALE_DEF_GRID_DIM_Y == 512 && SCALE_DEF_SMEM_BYTES == 136);
    EXPECT(strcmp(SCALE_DEF_COMPILE_OPTIONS, "") == 0);
    EXPECT(strcmp(SCALE_DEF_DEFINES, "-DTILE_Y=2") == 0);
    EXPECT(SCALE_DEF_lookup("NVIDIA H100 80GB HBM3", 90)->tuned == 0);
    EXPECT(SCALE_DEF_grid_dim_y(4096) == 2048);

    printf("%d failed\n", failures);
    return failures != 0;
}
