/* test_reply.c - the GPU worker's reply (tuner/reply.h) on the wire: every field back
 * as it was sent, a status outside the enum read as "not run", and a frame that is not
 * a reply refused. (Moved here from test_worker.c with the reply.) */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tuner/reply.h"

static void test_reply_round_trip(void **state)
{
    (void)state;
    double metrics[] = {1.5, NAN, -3e300};
    double hw[] = {87.5, NAN, 4.0, 1e12};
    reply r;
    memset(&r, 0, sizeof r);
    r.status = OUTCOME_WRONG;
    r.sticky = true;
    cutune_measurement *m = &r.m;
    m->reason = "'y': 1 of 4 elements differ";
    m->registers = 40;
    m->driver_blocks_per_sm = -1;
    m->timed = 1;
    m->median_ms = 0.5, m->min_ms = 0.4, m->max_ms = 0.9, m->q1_ms = 0.45, m->q3_ms = 0.55;
    m->spread = 0.2, m->reps = 17, m->batch = 8, m->pruned = 1, m->objective = 123.0;
    m->nmetrics = 3, m->metrics = metrics;
    m->verified = 0, m->max_abs_error = 1e-3, m->gpu_seconds = 0.75, m->timing_seconds = 0.5;
    m->launches = 29, m->provisional = 1;
    m->energy = 1, m->energy_j = 2.5e-4, m->power_w = 612.5, m->energy_seconds = 0.21, m->energy_launches = 840;
    m->energy_note = "the counter did not move";
    m->nhw = 4, m->hw = hw, m->profile_passes = 7, m->profile_note = "no permission";
    r.profiler_off = true;
    for (int k = 0; k < CUTUNE_WORK_COUNT; k++) /* each kind of GPU work a figure of its own */
        r.work[k] = 0.001 * (k + 1) + k * k;
    wk_frame f = WK_FRAME_INIT;
    reply_encode(&f, &r);
    arena *a = arena_new();
    reply d;
    assert_int_equal(reply_decode(&f, a, &d), 0);
    assert_int_equal(d.status, OUTCOME_WRONG);
    assert_true(d.sticky);
    assert_string_equal(d.m.reason, m->reason);
    assert_int_equal(d.m.registers, 40);
    assert_int_equal(d.m.driver_blocks_per_sm, -1);
    assert_true(d.m.timed && d.m.pruned && !d.m.verified);
    assert_true(d.m.median_ms == 0.5 && d.m.min_ms == 0.4 && d.m.max_ms == 0.9 && d.m.q1_ms == 0.45 &&
                d.m.q3_ms == 0.55);
    assert_true(d.m.spread == 0.2 && d.m.objective == 123.0 && d.m.max_abs_error == 1e-3);
    assert_true(d.m.gpu_seconds == 0.75 && d.m.timing_seconds == 0.5);
    assert_int_equal(d.m.reps, 17);
    assert_int_equal(d.m.batch, 8);
    assert_int_equal(d.m.nhw, 4); /* the counters, NaN kept */
    assert_true(d.m.hw[0] == 87.5 && isnan(d.m.hw[1]) && d.m.hw[2] == 4.0 && d.m.hw[3] == 1e12);
    assert_int_equal(d.m.profile_passes, 7);
    assert_string_equal(d.m.profile_note, "no permission");
    assert_true(d.profiler_off);
    assert_int_equal(d.m.launches, 29);
    assert_true(d.m.provisional);
    assert_true(d.m.energy && d.m.energy_j == 2.5e-4 && d.m.power_w == 612.5 && d.m.energy_seconds == 0.21);
    assert_int_equal(d.m.energy_launches, 840);
    assert_string_equal(d.m.energy_note, "the counter did not move");
    assert_int_equal(d.m.nmetrics, 3);
    assert_true(d.m.metrics[0] == 1.5 && isnan(d.m.metrics[1]) && d.m.metrics[2] == -3e300);
    for (int k = 0; k < CUTUNE_WORK_COUNT; k++) /* each back in its own place */
        assert_true(d.work[k] == 0.001 * (k + 1) + k * k);

    /* A status number outside the enum reads as "not run", as before the codec. */
    wk_frame_reset(&f);
    r.status = (outcome)77;
    m->reason = NULL; /* sent as "" */
    reply_encode(&f, &r);
    assert_int_equal(reply_decode(&f, a, &d), 0);
    assert_int_equal(d.status, OUTCOME_NOT_RUN);
    assert_string_equal(d.m.reason, "");

    /* A request decoded as a reply is refused. */
    const wk_value values[] = {{'i', 1, 0, NULL}, {'i', 2, 0, NULL}};
    wk_request q = {7, {1, 1, 1}, {1, 1, 1}, 0,     2,     values, "k", (const unsigned char *)"abc",
                    3, false,     0,         false, false, 0,      0};
    wk_frame_reset(&f);
    wk_encode_request(&f, &q);
    assert_int_equal(reply_decode(&f, a, &d), -1);
    wk_frame_free(&f);
    arena_free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reply_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
