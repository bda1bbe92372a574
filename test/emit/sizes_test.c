/* sizes_test.c - the look-up by problem size of a multi-size header, checked against
 * answers worked out by hand from docs/header.md's rule ("nearest": the least product of
 * max/min ratios over the size variables, ties to the larger size) and the winners of
 * the hand-written fixture test/emit/sizes.json (a FIXTURE, not a measurement):
 *   n = 2^20: threads 128, items 1;  n = 2^22: threads 256, items 2;  n = 2^24: 256, 4.
 * Built against the header `cutune emit header test/emit/sizes.json` writes as
 * stencil_sizes.h (test/cli/emit_sizes.sh), with gcc -std=c11 and g++. */
#include <stdio.h>

#include "stencil_sizes.h"

static int failures;

/* Expects the entry picked for n on device (name, cc) to be the one tuned at `tuned`. */
static void expect(const char *what, const char *name, int cc, long long n, long long tuned, long long threads,
                   long long items)
{
    const STENCIL_config *c = STENCIL_lookup_size(name, cc, n);
    if (c->size.n != tuned || c->params.threads != threads || c->params.items != items) {
        printf("FAIL %s: n=%lld gave the entry of n=%lld (threads %lld, items %lld); want n=%lld (%lld, %lld)\n", what,
               n, c->size.n, c->params.threads, c->params.items, tuned, threads, items);
        failures++;
    }
}

/* The compiled variants: each entry names the variant of its items (the one
 * compile-time param: a template argument); every variant is listed once. */
static long long variant_items[STENCIL_VARIANT_COUNT];
#define RECORD(v, items) variant_items[v] = (items);

int main(void)
{
    const char *gpu = STENCIL_DEVICE_NAME;
    const long long M = 1LL << 20;
    /* equal to a tuned size */
    expect("equal 2^20", gpu, 90, M, M, 128, 1);
    expect("equal 2^22", gpu, 90, 4 * M, 4 * M, 256, 2);
    expect("equal 2^24", gpu, 90, 16 * M, 16 * M, 256, 4);
    /* between: 3 * 2^20 is 4/3 from 2^22 and 3 from 2^20 */
    expect("between, nearer the larger", gpu, 90, 3 * M, 4 * M, 256, 2);
    /* 2^21 is as far from 2^20 as from 2^22 (a factor of 2): the tie goes to the larger */
    expect("tie between 2^20 and 2^22", gpu, 90, 2 * M, 4 * M, 256, 2);
    expect("just below the tie", gpu, 90, 2 * M - 1, M, 128, 1);
    expect("between 2^22 and 2^24, nearer 2^22", gpu, 90, 5 * M, 4 * M, 256, 2);
    expect("tie between 2^22 and 2^24", gpu, 90, 8 * M, 16 * M, 256, 4);
    /* below the smallest and beyond the largest */
    expect("below", gpu, 90, 1000, M, 128, 1);
    expect("zero counts as 1", gpu, 90, 0, M, 128, 1);
    expect("negative counts as 1", gpu, 90, -7, M, 128, 1);
    expect("beyond", gpu, 90, 1LL << 30, 16 * M, 256, 4);
    /* another device of the same compute capability, and one of another: the only
     * device's entries still (the device rule of STENCIL_lookup) */
    expect("other device, same cc", "Some Other GPU", 90, 3 * M, 4 * M, 256, 2);
    expect("unknown cc", "Old GPU", 70, 1LL << 30, 16 * M, 256, 4);
    expect("no device name", NULL, 90, M, M, 128, 1);

    /* the plain macros hold entry 0 (the first size) */
    if (STENCIL_SIZE_N != M || STENCIL_THREADS != 128 || STENCIL_ITEMS != 1 || STENCIL_ENTRY_COUNT != 3) {
        printf("FAIL macros: entry 0 is not the first size\n");
        failures++;
    }
    /* variants: items 1, 2 and 4, once each, and each entry's variant builds its items */
    if (STENCIL_VARIANT_COUNT != 3) {
        printf("FAIL variants: %d, want 3\n", STENCIL_VARIANT_COUNT);
        failures++;
    }
    STENCIL_FOR_EACH_VARIANT(RECORD)
    long long sizes[3] = {M, 4 * M, 16 * M};
    for (int k = 0; k < 3; k++) {
        const STENCIL_config *c = STENCIL_lookup_size(gpu, 90, sizes[k]);
        if (c->variant < 0 || c->variant >= STENCIL_VARIANT_COUNT || variant_items[c->variant] != c->params.items) {
            printf("FAIL variant of n=%lld: %d\n", sizes[k], c->variant);
            failures++;
        }
        /* the launch at any size, from the entry's params: cdiv(n, threads * items) */
        long long want = (sizes[k] + c->params.threads * c->params.items - 1) / (c->params.threads * c->params.items);
        if (STENCIL_config_grid_dim_x(c, sizes[k]) != want || (long long)c->grid_dim[0] != want) {
            printf("FAIL grid of n=%lld: %lld, want %lld\n", sizes[k], STENCIL_config_grid_dim_x(c, sizes[k]), want);
            failures++;
        }
    }
    if (failures)
        return 1;
    printf("sizes_test: every size picked as expected\n");
    return 0;
}
