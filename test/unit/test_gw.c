/* test_gw.c - the tuner's side of a GPU worker and the worker's set-up (tuner/gpu.c,
 * tuner/gw_main.c) without a GPU: the worker is forked with the plan the tuner made,
 * fails to open the device, and says why in its set-up reply; the tuner passes the
 * worker's status and message up (not "it died": the reply decoded), in the error object,
 * and the time it spent on the driver into the run's phases. On a machine with
 * a GPU the device would open, so the test is skipped there (the GPU suite covers it).
 * The worker's set-up kernels are being compiled ahead (a scratch cache) when the
 * driver refuses: the worker answers without waiting for them and exits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/internal.h"
#include "base/sys.h"
#include "last_err.h"
#include "tuner/tuner.h"

static const char spec_src[] = "kernel k from \"poly.cu\" {\n"
                               "    param threads in [64, 128];\n"
                               "    block threads;\n"
                               "    grid 1;\n"
                               "    arg x : inout float[4096] = random(seed = 1);\n"
                               "    arg n : int = 4096;\n"
                               "}\n";

static void test_setup_reply_without_device(void **state)
{
    (void)state;
    int count = 0;
    if (cutune_device_count(&count) == CUTUNE_OK && count > 0)
        skip(); /* a GPU here: the worker's set-up would succeed */
    cutune_load_options lo = CUTUNE_LOAD_OPTIONS_INIT;
    lo.base_dir = CUTUNE_SOURCE_DIR "/kernels"; /* the kernel is never compiled: only found */
    cutune_spec *spec;
    int rc = cutune_spec_load_string(&spec, "s.tune", spec_src, strlen(spec_src), &lo);
    if (rc != CUTUNE_OK)
        fail_msg("load: %s\n%s", cutune_status_text(rc), cutune_spec_diagnostics(spec, 0, 0));
    cutune_device dev;
    memset(&dev, 0, sizeof dev);
    dev.name = "test";
    dev.arch = "sm_90";
    dev.l2_bytes = 1 << 20;
    cutune_tune_result *res = result_new_for(spec->model, "s.tune", &dev);
    assert_non_null(res);
    cutune_tune_options opts = CUTUNE_TUNE_OPTIONS_INIT;
    char cache[64] = "/tmp/cutune-gw-XXXXXX"; /* the worker starts compiling its kernels ahead into it */
    assert_non_null(mkdtemp(cache));
    opts.cache_dir = cache;
    gpu_handle g;
    memset(&g, 0, sizeof g);
    assert_int_equal(gpu_init(&g, spec, &opts, 0, &dev, true, res), CUTUNE_OK);
    /* the plan the worker inherits: the model's arguments made plain */
    assert_string_equal(g.plan.args[0].name, "x");
    assert_true(g.plan.args[0].is_buffer);
    assert_false(g.plan.args[1].is_buffer);
    assert_int_equal(g.plan.flush_bytes, 2u << 20); /* twice the L2 */
    double t0 = sys_seconds();
    phases clock; /* the run's account: the worker's own time for the driver crosses the pipe */
    phases_init(&clock, CUTUNE_PHASE_COUNT, CUTUNE_PHASE_OTHER, NULL, NULL);
    res->clock = &clock;
    assert_int_equal(gpu_start(&g), CUTUNE_ENODEV);
    phases_tick(&clock);
    double waited = sys_seconds() - t0; /* after the tick: the account cannot exceed it */
    res->clock = NULL;
    assert_true(clock.seconds[CUTUNE_PHASE_DEVICE] > 0); /* the worker timed its driver's refusal */
    assert_true(clock.seconds[CUTUNE_PHASE_DEVICE] + clock.seconds[CUTUNE_PHASE_OTHER] == phases_total(&clock));
    assert_true(phases_total(&clock) <= waited + 1e-9 && phases_total(&clock) > 0);
    const char *prefix = "the GPU worker (GPU 0) could not start: ";
    if (strncmp(last_err(), prefix, strlen(prefix)) != 0 || strcmp(last_err() + strlen(prefix), "it died") == 0)
        fail_msg("the worker's reason was lost: \"%s\"", last_err());
    assert_int_equal(err_last()->code, CUTUNE_ENODEV); /* the status the call returned */
    assert_int_equal(g.proc.pid, 0);                   /* reaped */
    gpu_free(&g);
    cutune_tune_result_free(res);
    cutune_spec_free(spec);
    char rm[96];
    snprintf(rm, sizeof rm, "rm -rf '%s'", cache);
    assert_int_equal(system(rm), 0);
}

/* The entry that makes a worker's GPU its only one: the ordinal, or the list's entry of
 * that place when the tuner itself sees a list (ordinals number the list's GPUs). */
static void test_visible_device(void **state)
{
    (void)state;
    char out[64];
    assert_int_equal(gw_visible_device(NULL, 3, out, sizeof out), 0);
    assert_string_equal(out, "3");
    assert_int_equal(gw_visible_device("2,3", 0, out, sizeof out), 0);
    assert_string_equal(out, "2");
    assert_int_equal(gw_visible_device("2,3", 1, out, sizeof out), 0);
    assert_string_equal(out, "3");
    assert_int_equal(gw_visible_device("GPU-8a1b,GPU-77ce,MIG-1", 2, out, sizeof out), 0);
    assert_string_equal(out, "MIG-1");
    assert_int_equal(gw_visible_device("-1", 0, out, sizeof out), 0); /* none: still none */
    assert_string_equal(out, "-1");
    assert_int_equal(gw_visible_device("2,3", 2, out, sizeof out), -1); /* not in the list */
    assert_int_equal(gw_visible_device("2,,3", 1, out, sizeof out), -1);
    assert_int_equal(gw_visible_device("", 0, out, sizeof out), -1);
    assert_int_equal(gw_visible_device(NULL, -1, out, sizeof out), -1);
    assert_int_equal(gw_visible_device("GPU-0123456789", 0, out, 8), -1); /* too long: left as it is */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setup_reply_without_device),
        cmocka_unit_test(test_visible_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
