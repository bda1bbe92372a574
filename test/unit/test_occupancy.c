/* test_occupancy.c - the occupancy model against the driver: every row of
 * test/data/occupancy_h100.csv (cuOccupancyMaxActiveBlocksPerMultiprocessor on an H100,
 * 79,808 combinations; test/data/README.md), and the seed's worked example for CC 6.1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runtime/occupancy.h"

/* The driver's answers, measured on an H100: the project's ground truth, in the repository. */
#define H100_CSV CUTUNE_SOURCE_DIR "/test/data/occupancy_h100.csv"

/* Splits a CSV line in place (fields may be double-quoted, without embedded quotes). */
static int split_csv(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        if (*p == '"') {
            fields[n++] = ++p;
            p = strchr(p, '"');
            if (!p)
                return -1;
            *p++ = '\0';
        } else {
            fields[n++] = p;
            p += strcspn(p, ",\n\r");
        }
        if (*p != ',')
            break;
        *p++ = '\0';
    }
    p[strcspn(p, "\n\r")] = '\0';
    return n;
}

static void test_h100_matches_the_driver(void **state)
{
    (void)state;
    FILE *f = fopen(H100_CSV, "r");
    if (!f)
        print_error("cannot read %s, the driver's answers (part of the repository)\n", H100_CSV);
    assert_non_null(f);
    char line[512];
    char *fields[16];
    assert_non_null(fgets(line, sizeof line, f));
    assert_int_equal(split_csv(line, fields, 16), 10);
    assert_string_equal(fields[4], "regs");
    assert_string_equal(fields[9], "max_active_blocks");
    const occ_arch *h100 = occ_arch_find("sm_90");
    assert_non_null(h100);
    long rows = 0, mismatches = 0;
    int limiters[6] = {0};
    while (fgets(line, sizeof line, f)) {
        assert_int_equal(split_csv(line, fields, 16), 10);
        assert_string_equal(fields[1], "90");
        occ_usage u = {atoi(fields[7]), atoi(fields[4]), atoll(fields[5]), atoll(fields[8]), 0, 1};
        occ_result r;
        assert_int_equal(occ_compute(h100, &u, &r), 0);
        int want = atoi(fields[9]);
        if (r.blocks_per_sm != want && mismatches++ < 10)
            print_error("regs %s static %s block %s dyn %s: model %d, driver %d\n", fields[4], fields[5], fields[7],
                        fields[8], r.blocks_per_sm, want);
        limiters[r.limiter]++;
        rows++;
    }
    fclose(f);
    assert_int_equal(rows, 79808);
    assert_int_equal(mismatches, 0);
    /* The data exercises every limit the H100 can hit. */
    assert_true(limiters[OCC_LIMIT_WARPS] > 0);
    assert_true(limiters[OCC_LIMIT_BLOCKS] > 0);
    assert_true(limiters[OCC_LIMIT_REGISTERS] > 0);
    assert_true(limiters[OCC_LIMIT_SHARED_MEMORY] > 0);
}

/* Seed 001: a GTX 1080 (CC 6.1) kernel with 39 registers per thread. */
static void test_seed_table_cc61(void **state)
{
    (void)state;
    const occ_arch *a = occ_arch_find("6.1");
    assert_non_null(a);
    const struct {
        int threads;
        double occupancy;
    } rows[] = {{1024, 0.50}, {512, 0.75}, {768, 0.75}};
    for (size_t i = 0; i < 3; i++) {
        occ_usage u = {rows[i].threads, 39, 0, 0, 1, 0};
        occ_result r;
        assert_int_equal(occ_compute(a, &u, &r), 0);
        assert_true(r.occupancy == rows[i].occupancy);
        assert_int_equal(r.limiter, OCC_LIMIT_REGISTERS);
        assert_int_equal(r.max_warps, 64);
    }
}

static void test_limits_by_hand(void **state)
{
    (void)state;
    const occ_arch *h100 = occ_arch_find("sm_90");
    occ_result r;
    /* 256 threads, 32 registers: 8 warps; registers allow 65536/(32*32*8) = 8 blocks,
     * warps allow 64/8 = 8: 64 warps, full occupancy. */
    occ_usage u = {256, 32, 0, 0, 1, 0};
    assert_int_equal(occ_compute(h100, &u, &r), 0);
    assert_int_equal(r.blocks_per_sm, 8);
    assert_true(r.occupancy == 1.0);
    /* 48 KB of static shared memory: (48K + 1K reserved) per block, 233472 / 50176 = 4. */
    u.static_smem = 48 * 1024;
    assert_int_equal(occ_compute(h100, &u, &r), 0);
    assert_int_equal(r.blocks_per_sm, 4);
    assert_int_equal(r.limiter, OCC_LIMIT_SHARED_MEMORY);
    /* 64 threads, few registers: 32 block slots bind (64 warps would allow 32 too; 32
     * threads would allow 64 by warps). */
    occ_usage tiny = {32, 16, 0, 0, 1, 0};
    assert_int_equal(occ_compute(h100, &tiny, &r), 0);
    assert_int_equal(r.blocks_per_sm, 32);
    assert_int_equal(r.limiter, OCC_LIMIT_BLOCKS);
    assert_true(r.occupancy == 0.5);
    /* Cannot launch: 1025 threads; 1024 threads x 255 registers; 100 KB without opt-in. */
    occ_usage too_many = {1025, 16, 0, 0, 1, 0};
    assert_int_equal(occ_compute(h100, &too_many, &r), 0);
    assert_int_equal(r.blocks_per_sm, 0);
    assert_non_null(r.unlaunchable);
    occ_usage too_big = {1024, 255, 0, 0, 1, 0};
    assert_int_equal(occ_compute(h100, &too_big, &r), 0);
    assert_int_equal(r.blocks_per_sm, 0);
    assert_string_equal(r.unlaunchable, "more registers per block than the hardware allows");
    occ_usage smem = {128, 32, 0, 100 * 1024, 1, 0};
    assert_int_equal(occ_compute(h100, &smem, &r), 0);
    assert_int_equal(r.blocks_per_sm, 0);
    assert_string_equal(r.unlaunchable, "more shared memory per block than allowed without opting in");
    smem.opted_in = 1;
    assert_int_equal(occ_compute(h100, &smem, &r), 0);
    assert_int_equal(r.blocks_per_sm, 2); /* 233472 / (102400 + 1024) */
    /* Bad input. */
    occ_usage none = {0, 16, 0, 0, 0, 0};
    assert_int_equal(occ_compute(h100, &none, &r), -1);
}

static void test_arch_names(void **state)
{
    (void)state;
    assert_int_equal(occ_arch_find("sm_90")->cc, 90);
    assert_int_equal(occ_arch_find("90")->cc, 90);
    assert_int_equal(occ_arch_find("9.0")->cc, 90);
    assert_int_equal(occ_arch_find("compute_86")->cc, 86);
    assert_int_equal(occ_arch_find("sm_90a")->cc, 90);
    assert_int_equal(occ_arch_find("sm_120")->lim.max_threads_per_sm, 1536);
    assert_null(occ_arch_find("sm_91"));
    assert_null(occ_arch_find("banana"));
    assert_null(occ_arch_find("sm_90x"));
    int n;
    const occ_arch *all = occ_arch_list(&n);
    assert_true(n >= 10);
    for (int i = 1; i < n; i++)
        assert_true(all[i].cc > all[i - 1].cc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_h100_matches_the_driver),
        cmocka_unit_test(test_seed_table_cc61),
        cmocka_unit_test(test_limits_by_hand),
        cmocka_unit_test(test_arch_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
