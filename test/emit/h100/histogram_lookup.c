/* histogram_lookup.c - an application's side of a multi-size header made by a real run:
 * histogram_tuned.h is the header `cutune examples/histogram.tune` wrote on the H100 on
 * 2026-11-23 (docs/results/issue16-h100.md), kept here as it came. For sizes equal to,
 * between, below and beyond the three tuned ones (2^20, 2^23, 2^26 bytes) the look-up
 * must pick the entry nearest in log space (docs/header.md); the expected entries below
 * are worked out by hand from that rule, not read from the header's code. */
#include <stdio.h>

#include "histogram_tuned.h"

static int failures;

/* Checks that `n` picks the entry tuned at `tuned_n`. */
static void expect(long long n, long long tuned_n, const char *why)
{
    const HISTOGRAM_config *c = HISTOGRAM_lookup_size("NVIDIA H100 80GB HBM3", 90, n);
    if (c->size.n != tuned_n || !c->tuned) {
        printf("FAIL: n = %lld (%s): entry tuned at %lld, expected %lld\n", n, why, c->size.n, tuned_n);
        failures++;
    } else {
        printf("ok   n = %lld (%s): entry tuned at %lld: %lld threads, %lld items, grid %lld\n", n, why, c->size.n,
               c->params.threads, c->params.items, HISTOGRAM_config_grid_dim_x(c, n));
    }
}

int main(void)
{
    const long long MiB = 1LL << 20;
    expect(MiB, MiB, "tuned");
    expect(8 * MiB, 8 * MiB, "tuned");
    expect(64 * MiB, 64 * MiB, "tuned");
    expect(2 * MiB, MiB, "between: 2x from 1 MiB, 4x from 8 MiB");
    expect(3 * MiB, 8 * MiB, "between: 3x from 1 MiB, 2.67x from 8 MiB");
    expect(20 * MiB, 8 * MiB, "between: 2.5x from 8 MiB, 3.2x from 64 MiB");
    expect(30 * MiB, 64 * MiB, "between: 3.75x from 8 MiB, 2.13x from 64 MiB");
    expect(1000, MiB, "below every tuned size");
    expect(0, MiB, "zero counts as 1");
    expect(1LL << 40, 64 * MiB, "beyond every tuned size");
    /* another device of the same compute capability: the H100's entries */
    const HISTOGRAM_config *other = HISTOGRAM_lookup_size("NVIDIA H100 PCIe", 90, 64 * MiB);
    if (other->size.n != 64 * MiB) {
        printf("FAIL: another sm_90 device did not get the H100's 64 MiB entry\n");
        failures++;
    }
    printf("%d failures\n", failures);
    return failures != 0;
}
