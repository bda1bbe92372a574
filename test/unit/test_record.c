/* test_record.c - the one record codec (results/record.c): a record written as JSON and
 * read back is the record it was, for every outcome, with non-finite numbers written as
 * null (NaN read back); a journal line read for a resume (unknown status: not run; a
 * non-ok run's times never count); a results entry with an unknown status refused; and
 * the one CSV field writer and number formatter (base/csv.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/csv.h"
#include "base/err.h"
#include "results/record.h"

static const char *names[] = {"BM", "VEC", "FAST", "ALGO"};
static const char *types[] = {"int", "float", "bool", "string"};
static const char *metric_names[] = {"gflops", "bw"};

/* A result with four params (one of each type) and two metrics, no records. */
static cutune_tune_result *empty_result(void)
{
    cutune_tune_result *r = result_create();
    assert_non_null(r);
    r->nparams = 4;
    r->param_names = names;
    r->param_types = types;
    r->nmetrics = 2;
    r->metric_names = metric_names;
    r->kernel = "k";
    return r;
}

static const char *values[] = {"64", "0.5", "true", "a,\"b\""};
static const char *defines[] = {"-DBM=64", "-DVEC=0.5"};
static const char *options[] = {"-O3", "--use_fast_math"};

/* A record with every field set, of outcome `o`; timed only when o is ok (as tuning). */
static record *full_record(cutune_tune_result *r, outcome o, double objective)
{
    record *rec = result_append(r);
    assert_non_null(rec);
    cutune_variant *v = &rec->v;
    v->ordinal = 12345678901ULL;
    v->nparams = 4;
    v->values = values;
    v->types = "ifbs";
    rec->vals = arena_alloc(r->arena, sizeof(value) * 4); /* the configuration, typed: what values[] write */
    assert_non_null(rec->vals);
    rec->vals[0] = value_int(64), rec->vals[1] = value_float(0.5), rec->vals[2] = value_bool(true);
    rec->vals[3] = value_string(values[3]);
    v->block[0] = 128, v->block[1] = 2, v->block[2] = 1;
    v->grid[0] = 7, v->grid[1] = 1, v->grid[2] = 3;
    v->block_dims = 2, v->grid_dims = 3;
    v->smem_bytes = 4096;
    v->defines = defines, v->ndefines = 2;
    v->options = options, v->noptions = 2;
    v->name_expression = "k<64>";
    result_set_outcome(r, rec, o, o == OUTCOME_OK ? NULL : "why it failed");
    cutune_measurement *m = &rec->m;
    m->registers = 40, m->static_smem = 1024, m->local_bytes = 8, m->spill_stores = 4, m->spill_loads = 12;
    m->occupancy = 0.625, m->limiter = "registers", m->blocks_per_sm = 5, m->driver_blocks_per_sm = 4;
    m->timed = o == OUTCOME_OK;
    if (m->timed) {
        m->median_ms = 0.1 + 0.2, m->min_ms = 1e-300, m->max_ms = 12345.678;
        m->q1_ms = 0.25, m->q3_ms = 1.0 / 3.0, m->spread = 0.015;
        m->reps = 200, m->batch = 8, m->pruned = 0;
        m->objective = objective;
        rec->metrics[0] = 987.5;
        rec->metrics[1] = NAN;
    }
    m->verified = 1, m->max_abs_error = 2.5e-7;
    m->compile_seconds = 1.75, m->cached = 1, m->duplicate = 0;
    m->gpu_seconds = 0.125, m->timing_seconds = 0.0625, m->resumed = 0;
    m->launches = o == OUTCOME_OK ? 13 : 1;
    return rec;
}

static void same_double(double a, double b)
{
    if (isnan(a))
        assert_true(isnan(b));
    else
        assert_true(a == b);
}

static void same_record(const record *a, const record *b)
{
    assert_int_equal(a->out, b->out);
    assert_string_equal(outcome_name(a->out), outcome_name(b->out));
    if (a->m.reason)
        assert_string_equal(a->m.reason, b->m.reason);
    else
        assert_null(b->m.reason);
    assert_true(a->v.ordinal == b->v.ordinal);
    for (int i = 0; i < 4; i++)
        assert_string_equal(a->v.values[i], b->v.values[i]);
    assert_memory_equal(a->v.types, b->v.types, 4);
    assert_memory_equal(a->v.block, b->v.block, sizeof a->v.block);
    assert_memory_equal(a->v.grid, b->v.grid, sizeof a->v.grid);
    assert_int_equal(a->v.block_dims, b->v.block_dims);
    assert_int_equal(a->v.grid_dims, b->v.grid_dims);
    assert_int_equal(a->v.smem_bytes, b->v.smem_bytes);
    assert_int_equal(a->v.ndefines, b->v.ndefines);
    assert_int_equal(a->v.noptions, b->v.noptions);
    for (int i = 0; i < a->v.noptions; i++)
        assert_string_equal(a->v.options[i], b->v.options[i]);
    assert_string_equal(a->v.name_expression, b->v.name_expression);
    const cutune_measurement *x = &a->m, *y = &b->m;
    assert_int_equal(x->registers, y->registers);
    assert_int_equal(x->static_smem, y->static_smem);
    assert_int_equal(x->local_bytes, y->local_bytes);
    assert_int_equal(x->spill_stores, y->spill_stores);
    assert_int_equal(x->spill_loads, y->spill_loads);
    same_double(x->occupancy, y->occupancy);
    assert_string_equal(x->limiter, y->limiter);
    assert_int_equal(x->blocks_per_sm, y->blocks_per_sm);
    assert_int_equal(x->driver_blocks_per_sm, y->driver_blocks_per_sm);
    assert_int_equal(x->timed, y->timed);
    if (x->timed) {
        same_double(x->median_ms, y->median_ms);
        same_double(x->min_ms, y->min_ms);
        same_double(x->max_ms, y->max_ms);
        same_double(x->q1_ms, y->q1_ms);
        same_double(x->q3_ms, y->q3_ms);
        same_double(x->spread, y->spread);
        assert_int_equal(x->reps, y->reps);
        assert_int_equal(x->batch, y->batch);
        assert_int_equal(x->pruned, y->pruned);
        for (int i = 0; i < 2; i++)
            same_double(x->metrics[i], y->metrics[i]);
    }
    same_double(x->objective, y->objective);
    assert_int_equal(x->verified, y->verified);
    same_double(x->max_abs_error, y->max_abs_error);
    same_double(x->compile_seconds, y->compile_seconds);
    assert_int_equal(x->cached, y->cached);
    assert_int_equal(x->duplicate, y->duplicate);
    same_double(x->gpu_seconds, y->gpu_seconds);
    same_double(x->timing_seconds, y->timing_seconds);
    assert_int_equal(x->launches, y->launches);
    assert_int_equal(x->provisional, y->provisional);
    assert_int_equal(x->resumed, y->resumed);
}

/* Through the text, as a results file holds it. */
static json_t *through_text(json_t *j)
{
    char *text = json_dumps(j, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    assert_non_null(text);
    json_decref(j);
    json_t *back = json_loads(text, 0, NULL);
    free(text);
    assert_non_null(back);
    return back;
}

static void test_round_trip_every_outcome(void **state)
{
    (void)state;
    cutune_tune_result *r = empty_result();
    for (int o = 0; o < OUTCOME_COUNT; o++) {
        const double objectives[] = {0.1 + 0.2, NAN};
        for (int k = 0; k < 2; k++) {
            record *rec = full_record(r, (outcome)o, objectives[k]);
            json_t *j = through_text(record_to_json(r, rec));
            assert_string_equal(json_string_value(json_object_get(j, "status")), outcome_name((outcome)o));
            record *back = result_append(r);
            assert_non_null(back);
            assert_int_equal(record_from_json(r, back, j, RECORD_WHOLE), 0);
            same_record(rec, back);
            if (o == OUTCOME_OK) { /* a NaN metric (and objective) is written as null, not left out */
                assert_true(json_is_null(json_object_get(json_object_get(j, "metrics"), "bw")));
                assert_true(json_is_null(json_object_get(j, "objective")) == (k == 1));
                assert_int_equal(record_can_win(back), k == 0);
            } else {
                assert_true(json_is_null(json_object_get(j, "time_ms")));
                assert_false(record_can_win(back));
            }
            json_decref(j);
        }
    }
    result_destroy(r);
}

/* A provisional contender (a few samples; the final race times it in full) round-trips,
 * never wins, and an entry without the key is not provisional. */
static void test_provisional(void **state)
{
    (void)state;
    cutune_tune_result *r = empty_result();
    record *rec = full_record(r, OUTCOME_OK, 2.0);
    assert_true(record_can_win(rec));
    rec->m.provisional = 1;
    assert_false(record_can_win(rec));
    json_t *j = through_text(record_to_json(r, rec));
    assert_true(json_is_true(json_object_get(j, "provisional")));
    record *back = result_append(r);
    assert_int_equal(record_from_json(r, back, j, RECORD_WHOLE), 0);
    same_record(rec, back);
    json_object_del(j, "provisional");
    record *plain = result_append(r);
    assert_int_equal(record_from_json(r, plain, j, RECORD_WHOLE), 0);
    assert_int_equal(plain->m.provisional, 0);
    assert_true(record_can_win(plain));
    /* The final race's figures replace the provisional ones; launches add up. */
    record *full = full_record(r, OUTCOME_OK, 3.0);
    full->m.launches = 20;
    int before = back->m.launches;
    result_take_run(r, back, full);
    assert_int_equal(back->m.provisional, 0);
    assert_int_equal(back->m.launches, before + 20);
    assert_true(back->m.objective == 3.0);
    assert_true(record_can_win(back));
    json_decref(j);
    result_destroy(r);
}

/* hardware counters in a record: written by name, read back into the
 * result's order (a name the reading result does not list is ignored, one the entry
 * lacks is NaN), NaN as null; a variant chosen but not profiled keeps its note; a twin
 * takes its run's counters. */
static void test_hw_counters(void **state)
{
    (void)state;
    cutune_tune_result *r = empty_result();
    const char *hw[] = {"sm__warps_active.avg.pct_of_peak_sustained_active", "gpu__time_duration.sum", "x.ratio"};
    assert_int_equal(result_set_profile(r, hw, 3, 5), 0);
    record *rec = full_record(r, OUTCOME_OK, 2.0);
    assert_int_equal(rec->m.nhw, 3);
    assert_true(isnan(rec->hw[0]) && isnan(rec->hw[2])); /* NaN until read */
    rec->hw[0] = 87.25, rec->hw[1] = 1234.5, rec->hw[2] = NAN;
    rec->m.profiled = 1, rec->m.profile_passes = 9;
    json_t *j = through_text(record_to_json(r, rec));
    json_t *vals = json_object_get(json_object_get(j, "hw"), "metrics");
    assert_true(json_real_value(json_object_get(vals, hw[0])) == 87.25);
    assert_true(json_is_null(json_object_get(vals, hw[2])));
    assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "hw"), "passes")), 9);
    /* read by a result that lists the counters in another order, and one more */
    cutune_tune_result *r2 = empty_result();
    const char *other[] = {"gpu__time_duration.sum", "not.in.the.file", hw[0]};
    assert_int_equal(result_set_profile(r2, other, 3, -1), 0);
    record *back = result_append(r2);
    assert_int_equal(record_from_json(r2, back, j, RECORD_WHOLE), 0);
    assert_int_equal(back->m.profiled, 1);
    assert_int_equal(back->m.profile_passes, 9);
    assert_true(back->hw[0] == 1234.5 && isnan(back->hw[1]) && back->hw[2] == 87.25);
    assert_null(back->m.profile_note);
    /* chosen, not read: the note, no counters */
    record *off = full_record(r, OUTCOME_OK, 3.0);
    result_set_profile_note(r, off, "CUPTI (libcupti) was not found");
    json_t *k = through_text(record_to_json(r, off));
    assert_null(json_object_get(json_object_get(k, "hw"), "metrics"));
    record *off_back = result_append(r2);
    assert_int_equal(record_from_json(r2, off_back, k, RECORD_RESUME), 0);
    assert_int_equal(off_back->m.profiled, 0);
    assert_string_equal(off_back->m.profile_note, "CUPTI (libcupti) was not found");
    /* not chosen: no "hw" at all */
    record *plain = full_record(r, OUTCOME_OK, 4.0);
    json_t *p = record_to_json(r, plain);
    assert_null(json_object_get(p, "hw"));
    /* a twin takes its run's counters */
    result_take_profile(r, plain, rec);
    assert_int_equal(plain->m.profiled, 1);
    assert_true(plain->hw[0] == 87.25 && plain->hw[1] == 1234.5);
    json_decref(p);
    json_decref(j);
    json_decref(k);
    result_destroy(r2);
    result_destroy(r);
}

/* An infinity cannot be JSON: it is written null and reads back as NaN. */
static void test_infinities_become_null(void **state)
{
    (void)state;
    cutune_tune_result *r = empty_result();
    record *rec = full_record(r, OUTCOME_OK, INFINITY);
    rec->m.median_ms = -INFINITY;
    rec->metrics[0] = INFINITY;
    json_t *j = through_text(record_to_json(r, rec));
    assert_true(json_is_null(json_object_get(j, "objective")));
    assert_true(json_is_null(json_object_get(json_object_get(j, "time_ms"), "median")));
    assert_true(json_is_null(json_object_get(json_object_get(j, "metrics"), "gflops")));
    record *back = result_append(r);
    assert_int_equal(record_from_json(r, back, j, RECORD_WHOLE), 0);
    assert_true(isnan(back->m.objective));
    assert_true(isnan(back->m.median_ms));
    assert_true(isnan(back->metrics[0]));
    assert_false(record_can_win(back));
    json_decref(j);
    result_destroy(r);
}

static void test_resume_and_refusals(void **state)
{
    (void)state;
    cutune_tune_result *r = empty_result();
    record *rec = full_record(r, OUTCOME_OK, 2.0);
    json_t *j = record_to_json(r, rec);
    /* A journal line with a status this cutune does not know: not run, never timed. */
    json_object_set_new(j, "status", json_string("fine"));
    record *resumed = full_record(r, OUTCOME_OK, 9.0);
    resumed->m.registers = 77;
    json_object_del(json_object_get(j, "resources"), "registers");
    record_from_json(r, resumed, j, RECORD_RESUME);
    assert_int_equal(resumed->out, OUTCOME_NOT_RUN);
    assert_string_equal(outcome_name(resumed->out), "not run");
    assert_false(resumed->m.timed);
    assert_true(isnan(resumed->m.objective));
    assert_int_equal(resumed->m.resumed, 1);
    assert_int_equal(resumed->m.registers, 77); /* kept from the analysis when the line lacks it */
    /* A "wrong" run's times do not count even when the line has them. */
    json_object_set_new(j, "status", json_string("wrong"));
    record_from_json(r, resumed, j, RECORD_RESUME);
    assert_int_equal(resumed->out, OUTCOME_WRONG);
    assert_false(resumed->m.timed);
    assert_int_equal(resumed->m.launches, 13);
    /* A journal written before launches were counted still resumes: 0, not known. */
    json_object_del(j, "launches");
    json_object_set_new(j, "status", json_string("ok"));
    assert_int_equal(record_from_json(r, resumed, j, RECORD_RESUME), 0);
    assert_int_equal(resumed->out, OUTCOME_OK);
    assert_true(resumed->m.timed);
    assert_int_equal(resumed->m.reps, 200);
    assert_int_equal(resumed->m.launches, 0);
    /* A results file's entry with an unknown status, or none, is refused with a reason. */
    record *whole = result_append(r);
    json_object_set_new(j, "status", json_string("fine"));
    assert_int_equal(record_from_json(r, whole, j, RECORD_WHOLE), -1);
    assert_non_null(strstr(err_last()->message, "\"status\" is not one cutune writes"));
    json_object_del(j, "status");
    assert_int_equal(record_from_json(r, whole, j, RECORD_WHOLE), -1);
    assert_non_null(strstr(err_last()->message, "has no \"status\""));
    json_decref(j);
    /* The public string follows the outcome; a value outside the enum is "not run". */
    result_set_outcome(r, whole, OUTCOME_CANNOT_LAUNCH, "too many threads");
    assert_int_equal(whole->out, OUTCOME_CANNOT_LAUNCH);
    assert_string_equal(outcome_name(whole->out), "cannot launch");
    assert_string_equal(whole->m.reason, "too many threads");
    result_set_outcome(r, whole, (outcome)99, NULL);
    assert_int_equal(whole->out, OUTCOME_NOT_RUN);
    assert_string_equal(outcome_name(whole->out), "not run");
    result_destroy(r);
}

static void test_csv(void **state)
{
    (void)state;
    strbuf o = STRBUF_INIT;
    csv_field(&o, "plain text");
    sb_addc(&o, '|');
    csv_field(&o, "a,b");
    sb_addc(&o, '|');
    csv_field(&o, "say \"hi\"");
    sb_addc(&o, '|');
    csv_field(&o, "two\r\nlines");
    sb_addc(&o, '|');
    csv_number(&o, 0.1 + 0.2);
    sb_addc(&o, '|');
    csv_number(&o, NAN);
    sb_addc(&o, '|');
    csv_number(&o, 2.0);
    sb_addc(&o, '|');
    const char *items[] = {"-DA=1", "-DB=\"x\""};
    csv_joined(&o, items, 2);
    assert_string_equal(sb_cstr(&o), "plain text|\"a,b\"|\"say \"\"hi\"\"\"|\"two\r\nlines\"|0.30000000000000004||2|"
                                     "\"-DA=1 -DB=\"\"x\"\"\"");
    sb_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_every_outcome),
        cmocka_unit_test(test_provisional),
        cmocka_unit_test(test_hw_counters),
        cmocka_unit_test(test_infinities_become_null),
        cmocka_unit_test(test_resume_and_refusals),
        cmocka_unit_test(test_csv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
