/* test_plain.c - the text forms the CLI prints for `occupancy`, `devices`, `simulate`
 * and `check` (cutune_occupancy_text, cutune_devices_text, cutune_sim_report_text,
 * cutune_space_summary_text, cutune_spec_device_text),
 * through the public header only, as an application calls them: the figures of the
 * struct given appear where the lines say, and bad arguments are refused. The expected
 * figures come from the CUDA occupancy rules (sm_90: 64 warps and 32 blocks per SM,
 * 64K registers), not from the writers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cutune.h"

/* has_line: whether `text` holds `line` as a whole line. */
static int has_line(const char *text, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = text; (p = strstr(p, line)) != NULL; p++)
        if ((p == text || p[-1] == '\n') && p[n] == '\n')
            return 1;
    return 0;
}

static void occupancy_text(void **state)
{
    (void)state;
    cutune_occupancy occ;
    /* 256 threads of 32 registers: 8 warps a block, 8 blocks fill 64 warps. */
    assert_int_equal(cutune_occupancy_for_arch(&occ, "sm_90", 32, 256, 0), CUTUNE_OK);
    char *text = NULL;
    assert_int_equal(cutune_occupancy_text(&text, &occ, 32, 256, 0), CUTUNE_OK);
    assert_true(has_line(text, "sm_90: 256 threads x 32 registers, 0 bytes of shared memory per block"));
    assert_true(has_line(text, "active warps    64 of 64"));
    assert_true(has_line(text, "occupancy       100.0%"));
    assert_non_null(strstr(text, "\nblocks per SM   8  (allowed by warps 8, blocks 32, registers "));
    assert_null(strstr(text, "cannot launch"));
    assert_int_equal(text[strlen(text) - 1], '\n');
    cutune_free(text);
    occ.by_registers = INT32_MAX; /* a limit that does not bind at all */
    assert_int_equal(cutune_occupancy_text(&text, &occ, 0, 256, 0), CUTUNE_OK);
    assert_non_null(strstr(text, ", registers no limit, "));
    cutune_free(text);
    /* 1024 threads of 255 registers need 261,120 registers: more than an SM has. */
    assert_int_equal(cutune_occupancy_for_arch(&occ, "sm_90", 255, 1024, 0), CUTUNE_OK);
    assert_int_equal(cutune_occupancy_text(&text, &occ, 255, 1024, 0), CUTUNE_OK);
    assert_true(has_line(text, "limiter         none: cannot launch"));
    assert_non_null(strstr(text, "\ncannot launch   "));
    cutune_free(text);
    assert_int_equal(cutune_occupancy_text(&text, NULL, 1, 1, 0), CUTUNE_EINVAL);
    assert_int_equal(cutune_occupancy_text(NULL, &occ, 1, 1, 0), CUTUNE_EINVAL);
}

static void devices_text(void **state)
{
    (void)state;
    cutune_device d[2];
    memset(d, 0, sizeof d);
    d[0].name = "NVIDIA H100";
    d[0].arch = "sm_90";
    d[0].sm_count = 132;
    d[0].l2_bytes = 50 << 20;
    d[0].driver_version = 12040; /* CUDA's encoding: 1000 * major + 10 * minor */
    d[1] = d[0];
    d[1].ordinal = 1;
    char *text = NULL;
    assert_int_equal(cutune_devices_text(&text, d, 2), CUTUNE_OK);
    assert_string_equal(text, "0  NVIDIA H100  sm_90  132 SMs  L2 50 MiB  driver 12.4\n"
                              "1  NVIDIA H100  sm_90  132 SMs  L2 50 MiB  driver 12.4\n");
    cutune_free(text);
    assert_int_equal(cutune_devices_text(&text, NULL, 0), CUTUNE_OK); /* none: nothing */
    assert_string_equal(text, "");
    cutune_free(text);
    assert_int_equal(cutune_devices_text(&text, NULL, 1), CUTUNE_EINVAL);
    assert_int_equal(cutune_devices_text(&text, d, -1), CUTUNE_EINVAL);
}

static void sim_report_text(void **state)
{
    (void)state;
    cutune_sim_run runs[2] = {{.seed = 7,
                               .evaluations = 10,
                               .found = 1,
                               .best = 2.5,
                               .ratio = 1.0,
                               .best_at = 4,
                               .seconds = 1.5,
                               .bound_seconds = 1.0,
                               .stop_reason = "budget"},
                              {.seed = 8, .evaluations = 10, .found = 0, .ratio = 0.5, .stop_reason = "budget"}};
    cutune_sim_report r = {.strategy = "random",
                           .space = 100,
                           .recorded_ok = 90,
                           .objective_name = "time_ms",
                           .true_best = 2.5,
                           .true_best_index = 3,
                           .budget = 10,
                           .seed = 7,
                           .nruns = 2,
                           .runs = runs,
                           .median = 0.75,
                           .q1 = 0.5,
                           .q3 = 1.0,
                           .min = 0.5,
                           .max = 1.0,
                           .median_evaluations = 10};
    char *text = NULL;
    assert_int_equal(cutune_sim_report_text(&text, &r, "full.json", 0), CUTUNE_OK);
    assert_true(has_line(text, "simulate     random over full.json, 16 compile threads and one GPU")); /* 0: 16 */
    assert_true(has_line(text, "space        100 valid configurations, 90 ran correctly in the recording"));
    assert_true(has_line(text, "true best    time_ms 2.5 (#3)"));
    assert_true(has_line(text, "budget       10 evaluations (10.0% of the space); seeds 7..8"));
    assert_non_null(strstr(text, "\n   2        8 ")); /* the second run, seed 8 */
    assert_non_null(strstr(text, " nan "));            /* it found nothing */
    assert_non_null(strstr(text, "median 0.7500, quartiles 0.5000 .. 1.0000, range 0.5000 .. 1.0000 (2 runs"));
    cutune_free(text);
    assert_int_equal(cutune_sim_report_text(&text, NULL, "x", 1), CUTUNE_EINVAL);
    assert_int_equal(cutune_sim_report_text(&text, &r, NULL, 1), CUTUNE_EINVAL);
}

static void space_summary_text(void **state)
{
    (void)state;
    static const char text[] = "kernel k from \"k.cu\" {\n"
                               "    param bx in [32, 64, 128];\n"
                               "    param mode in [\"a\", \"b\"];\n"
                               "    require bx < 100;\n"
                               "    block bx;\n"
                               "    grid sm_count;\n"
                               "}\n";
    cutune_load_options opts = CUTUNE_LOAD_OPTIONS_INIT;
    opts.skip_file_checks = 1;
    cutune_spec *spec = NULL;
    assert_int_equal(cutune_spec_load_string(&spec, "sum.tune", text, strlen(text), &opts), CUTUNE_OK);
    cutune_space_size size;
    assert_int_equal(cutune_space_count(&size, spec), CUTUNE_OK);
    char *out = NULL;
    assert_int_equal(cutune_space_summary_text(&out, spec, &size, 0.25, NULL), CUTUNE_OK);
    assert_true(has_line(out, "spec         sum.tune"));
    assert_true(has_line(out, "params       2"));
    assert_true(has_line(out, "  bx        3 values  as define       32, 64, 128"));
    assert_true(has_line(out, "  mode      2 values  as define       \"a\", \"b\"")); /* strings quoted */
    assert_true(has_line(out, "constraints  1"));
    assert_non_null(strstr(out, "\ndevice       sm_count ")); /* the grid reads it */
    assert_non_null(strstr(out, "(assumed, no GPU read: "));
    /* 3 x 2 raw, bx 32 and 64 valid: 4 of 6 */
    assert_true(has_line(out, "space        6 raw, 4 valid (66.7%), counted in 0.250 s"));
    assert_true(has_line(out, "search       exhaustive"));
    assert_null(strstr(out, "sizes"));
    cutune_free(out);
    assert_int_equal(cutune_space_summary_text(&out, spec, &size, 0.25, "random"), CUTUNE_OK);
    assert_true(has_line(out, "search       random"));
    cutune_free(out);
    assert_int_equal(cutune_spec_device_text(&out, spec), CUTUNE_OK);
    assert_int_equal(strncmp(out, "sm_count ", 9), 0);
    assert_null(strchr(out, '\n'));
    cutune_free(out);
    assert_int_equal(cutune_space_summary_text(&out, spec, NULL, 0, NULL), CUTUNE_EINVAL);
    assert_int_equal(cutune_spec_device_text(NULL, spec), CUTUNE_EINVAL);
    cutune_spec_free(spec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(occupancy_text),
        cmocka_unit_test(devices_text),
        cmocka_unit_test(sim_report_text),
        cmocka_unit_test(space_summary_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
