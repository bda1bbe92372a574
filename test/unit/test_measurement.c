/* test_measurement.c - a measurement through the public accessors (cutune/results.h):
 * outcomes are an enum whose names are the statuses docs/results-format.md documents,
 * and each accessor gives what the results file holds, read here with jansson on its
 * own (not through the library's loader). Only the public header and jansson. */
#include <jansson.h>
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

/* ---- outcomes ---------------------------------------------------------------------- */

/* The statuses the results format documents: the backquoted words of the `status` row
 * of docs/results-format.md's entry table. */
static int documented_statuses(char names[16][32])
{
    FILE *f = fopen(CUTUNE_SOURCE_DIR "/docs/results-format.md", "r");
    assert_non_null(f);
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "| `status` |", 12) == 0) {
            const char *p = line + 12;
            const char *open;
            while ((open = strchr(p, '`')) != NULL) {
                const char *close = strchr(open + 1, '`');
                assert_non_null(close);
                assert_true(n < 16 && close - open - 1 < 32);
                snprintf(names[n++], 32, "%.*s", (int)(close - open - 1), open + 1);
                p = close + 1;
            }
            break;
        }
    fclose(f);
    return n;
}

static void test_outcome_names_are_the_documented_statuses(void **state)
{
    (void)state;
    char doc[16][32];
    int n = documented_statuses(doc);
    assert_int_equal(n, 9);
    /* every outcome's name is documented, and no two share one: the enum covers them */
    for (int o = CUTUNE_OUTCOME_OK; o <= CUTUNE_OUTCOME_CRASHED; o++) {
        const char *name = cutune_outcome_name((cutune_outcome)o);
        assert_non_null(name);
        int found = 0;
        for (int k = 0; k < n; k++)
            found += strcmp(doc[k], name) == 0;
        if (found != 1)
            fail_msg("outcome %d's name '%s' is not a documented status", o, name);
        for (int p = CUTUNE_OUTCOME_OK; p < o; p++)
            assert_string_not_equal(cutune_outcome_name((cutune_outcome)p), name);
    }
    assert_null(cutune_outcome_name((cutune_outcome)(CUTUNE_OUTCOME_CRASHED + 1)));
    assert_null(cutune_outcome_name((cutune_outcome)-1));
    /* the enum's names say which status each is (the header's comments) */
    assert_string_equal(cutune_outcome_name(CUTUNE_OUTCOME_OK), "ok");
    assert_string_equal(cutune_outcome_name(CUTUNE_OUTCOME_COMPILE_ERROR), "compile error");
    assert_string_equal(cutune_outcome_name(CUTUNE_OUTCOME_CANNOT_LAUNCH), "cannot launch");
    assert_string_equal(cutune_outcome_name(CUTUNE_OUTCOME_NOT_RUN), "not run");
    assert_string_equal(cutune_outcome_name(CUTUNE_OUTCOME_CRASHED), "crashed");
}

/* ---- accessors against the file ------------------------------------------------------ */

/* num: the JSON number at `path` ("time_ms.median") under `o`; NaN when absent or null. */
static double num(json_t *o, const char *path)
{
    char key[64];
    const char *dot;
    while ((dot = strchr(path, '.')) != NULL) {
        snprintf(key, sizeof key, "%.*s", (int)(dot - path), path);
        o = json_object_get(o, key);
        path = dot + 1;
    }
    json_t *v = json_object_get(o, path);
    if (json_is_boolean(v))
        return json_is_true(v) ? 1 : 0;
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static void same(double want, double have, const char *file, int i, const char *what)
{
    if (isnan(want) ? !isnan(have) : want != have)
        fail_msg("%s entry %d: %s is %.17g in the file, %.17g through the accessor", file, i, what, want, have);
}

/* check_file: every entry of a results file, through the accessors and through jansson. */
static void check_file(const char *name, int *seen_wrong, int *seen_hw, int *seen_energy)
{
    char path[512];
    snprintf(path, sizeof path, "%s/test/data/%s", CUTUNE_SOURCE_DIR, name);
    cutune_tune_result *r = NULL;
    assert_int_equal(cutune_results_load(&r, path), CUTUNE_OK);
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    assert_non_null(root);
    json_t *entries = json_object_get(root, "results");
    assert_int_equal((uint64_t)json_array_size(entries), cutune_tune_count(r));
    for (int i = 0; i < (int)json_array_size(entries); i++) {
        json_t *e = json_array_get(entries, (size_t)i);
        const cutune_measurement *m = cutune_tune_at(r, (uint64_t)i);
        assert_non_null(m);
        const char *status = json_string_value(json_object_get(e, "status"));
        assert_string_equal(cutune_outcome_name(cutune_measurement_outcome(m)), status);
        *seen_wrong += cutune_measurement_outcome(m) == CUTUNE_OUTCOME_WRONG;
        const char *reason = json_string_value(json_object_get(e, "reason"));
        if (reason)
            assert_string_equal(cutune_measurement_reason(m), reason);
        else
            assert_null(cutune_measurement_reason(m));
        assert_int_equal(cutune_measurement_variant(m)->ordinal,
                         (uint64_t)json_integer_value(json_object_get(e, "index")));
        const char *limiter = json_string_value(json_object_get(json_object_get(e, "occupancy"), "limiter"));
        if (limiter)
            assert_string_equal(cutune_measurement_limiter(m), limiter);
        static const struct {
            const char *path;
            cutune_value v;
        } numbers[] = {
            {"resources.registers", CUTUNE_VALUE_REGISTERS},
            {"resources.static_smem", CUTUNE_VALUE_STATIC_SMEM},
            {"resources.spill_stores", CUTUNE_VALUE_SPILL_STORES},
            {"occupancy.theoretical", CUTUNE_VALUE_OCCUPANCY},
            {"occupancy.blocks_per_sm", CUTUNE_VALUE_BLOCKS_PER_SM},
            {"time_ms.median", CUTUNE_VALUE_MEDIAN_MS},
            {"time_ms.q1", CUTUNE_VALUE_Q1_MS},
            {"time_ms.max", CUTUNE_VALUE_MAX_MS},
            {"spread", CUTUNE_VALUE_SPREAD},
            {"reps", CUTUNE_VALUE_REPS},
            {"batch", CUTUNE_VALUE_BATCH},
            {"pruned", CUTUNE_VALUE_PRUNED},
            {"objective", CUTUNE_VALUE_OBJECTIVE},
            {"verified", CUTUNE_VALUE_VERIFIED},
            {"max_abs_error", CUTUNE_VALUE_MAX_ABS_ERROR},
            {"compile_seconds", CUTUNE_VALUE_COMPILE_SECONDS},
            {"cached", CUTUNE_VALUE_CACHED},
            {"duplicate", CUTUNE_VALUE_DUPLICATE},
            {"gpu_seconds", CUTUNE_VALUE_GPU_SECONDS},
            {"launches", CUTUNE_VALUE_LAUNCHES},
            {"energy.J_per_launch", CUTUNE_VALUE_ENERGY_J},
            {"energy.W", CUTUNE_VALUE_POWER_W},
        };
        for (size_t k = 0; k < sizeof numbers / sizeof numbers[0]; k++) {
            double want = num(e, numbers[k].path);
            if (!isnan(want)) /* absent or null: the loader's default, not checked here */
                same(want, cutune_measurement_value(m, numbers[k].v), name, i, numbers[k].path);
        }
        assert_int_equal(cutune_measurement_value(m, CUTUNE_VALUE_TIMED) != 0,
                         json_is_object(json_object_get(e, "time_ms")));
        if (json_is_object(json_object_get(e, "energy"))) {
            *seen_energy += 1;
            assert_true(cutune_measurement_value(m, CUTUNE_VALUE_ENERGY) == 1);
        }
        /* the metrics, by name (an entry without them: every one NaN) */
        json_t *metrics = json_object_get(e, "metrics");
        if (json_object_size(metrics) > 0)
            assert_int_equal(cutune_measurement_metric_count(m), (int)json_object_size(metrics));
        for (int k = 0; k < cutune_measurement_metric_count(m); k++) {
            const char *mname = cutune_measurement_metric_name(m, k);
            assert_non_null(mname);
            json_t *v = json_object_get(metrics, mname);
            same(json_is_number(v) ? json_number_value(v) : NAN, cutune_measurement_metric(m, k), name, i, mname);
        }
        /* hardware counters, by name: the entry's where read, NaN elsewhere */
        json_t *hw = json_object_get(json_object_get(e, "hw"), "metrics");
        if (hw) {
            *seen_hw += 1;
            assert_true(cutune_measurement_value(m, CUTUNE_VALUE_PROFILED) == 1);
            assert_int_equal(cutune_measurement_hw_count(m), cutune_tune_profile_count(r));
            for (int k = 0; k < cutune_measurement_hw_count(m); k++) {
                const char *hname = cutune_measurement_hw_name(m, k);
                assert_string_equal(hname, cutune_tune_profile_metric(r, k));
                json_t *v = json_object_get(hw, hname);
                same(json_is_number(v) ? json_number_value(v) : NAN, cutune_measurement_hw(m, k), name, i, hname);
            }
        }
        /* out of range */
        assert_null(cutune_measurement_metric_name(m, -1));
        assert_true(isnan(cutune_measurement_metric(m, cutune_measurement_metric_count(m))));
        assert_true(isnan(cutune_measurement_hw(m, cutune_measurement_hw_count(m))));
        assert_true(isnan(cutune_measurement_value(m, (cutune_value)(CUTUNE_VALUE_PROFILE_PASSES + 1))));
    }
    json_decref(root);
    cutune_tune_result_free(r);
}

static void test_accessors_give_what_the_file_holds(void **state)
{
    (void)state;
    int wrong = 0, hw = 0, energy = 0;
    check_file("report-sum_matrix-h100.json", &wrong, &hw, &energy);
    check_file("report-hw-tiny-h100.json", &wrong, &hw, &energy);
    check_file("report-sgemm-energy-h100.json", &wrong, &hw, &energy);
    check_file("report-sgemm-genetic-h100.json", &wrong, &hw, &energy);
    /* the files hold what the checks are about */
    assert_true(wrong > 0);
    assert_true(hw > 0);
    assert_true(energy > 0);
}

/* Every accessor takes NULL. */
static void test_accessors_take_null(void **state)
{
    (void)state;
    assert_null(cutune_measurement_variant(NULL));
    assert_int_equal(cutune_measurement_outcome(NULL), CUTUNE_OUTCOME_NOT_RUN);
    assert_null(cutune_measurement_reason(NULL));
    assert_null(cutune_measurement_limiter(NULL));
    assert_null(cutune_measurement_energy_note(NULL));
    assert_null(cutune_measurement_profile_note(NULL));
    assert_null(cutune_measurement_inputs_note(NULL));
    assert_true(isnan(cutune_measurement_value(NULL, CUTUNE_VALUE_MEDIAN_MS)));
    assert_int_equal(cutune_measurement_metric_count(NULL), 0);
    assert_null(cutune_measurement_metric_name(NULL, 0));
    assert_true(isnan(cutune_measurement_metric(NULL, 0)));
    assert_int_equal(cutune_measurement_hw_count(NULL), 0);
    assert_null(cutune_measurement_hw_name(NULL, 0));
    assert_true(isnan(cutune_measurement_hw(NULL, 0)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_outcome_names_are_the_documented_statuses),
        cmocka_unit_test(test_accessors_give_what_the_file_holds),
        cmocka_unit_test(test_accessors_take_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
