/* test_pristine.c - `in` buffers kept between variants under a verification, without a
 * GPU: the bookkeeping that decides which are copied again (runtime/pristine.h), how
 * their bytes are compared exactly, the note that names those found changed, and that
 * note's way through a record: a rerun keeps it, a twin has none, a results entry and a
 * journal line carry it (an older line without it loads), the public accessor reads it,
 * and the run's warnings count it (emit/account.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "emit/account.h"
#include "results/record.h"
#include "runtime/pristine.h"

/* ---- the bookkeeping ---------------------------------------------------------------- */

/* A fresh buffer is copied; once restored at a count it is kept at that count only, and
 * only when lazy (a verification follows). */
static void test_kept_once_restored(void **state)
{
    (void)state;
    pristine_state s;
    pristine_init(&s);
    assert_false(pristine_skip(&s, true, 1000)); /* never restored: copied */
    assert_false(s.skipped);
    pristine_restored(&s, 1000);
    assert_true(pristine_skip(&s, true, 1000)); /* restored, not suspected: kept */
    assert_true(s.skipped);
    assert_true(pristine_skip(&s, true, 1000));   /* and again: keeping it restores nothing */
    assert_false(pristine_skip(&s, false, 1000)); /* no verification: copied as always */
    assert_false(s.skipped);
    pristine_restored(&s, 1000);
    assert_false(pristine_skip(&s, true, 2000)); /* another size: copied */
    pristine_restored(&s, 2000);
    assert_false(pristine_skip(&s, true, 1000)); /* back to the first: its restore is gone */
    pristine_restored(&s, 1000);
    assert_true(pristine_skip(&s, true, 1000));
}

/* A buffer moved (a larger allocation) is copied; one found changed is copied before
 * every variant from then on, even after it was restored again. */
static void test_forgotten_and_suspected(void **state)
{
    (void)state;
    pristine_state s;
    pristine_init(&s);
    pristine_restored(&s, 64);
    pristine_forget(&s);
    assert_false(pristine_skip(&s, true, 64));
    pristine_restored(&s, 64);
    assert_true(pristine_skip(&s, true, 64));
    pristine_changed(&s);
    assert_true(s.suspect);
    assert_false(pristine_skip(&s, true, 64));
    pristine_restored(&s, 64);
    for (int k = 0; k < 3; k++)
        assert_false(pristine_skip(&s, true, 64));
    pristine_forget(&s); /* forgetting keeps the suspicion */
    pristine_restored(&s, 64);
    assert_false(pristine_skip(&s, true, 64));
}

/* The words a buffer is compared in: the widest of 4, 2, 1 bytes dividing its size, as
 * many as cover it exactly (an 8-byte element is two 4-byte words: a double converted
 * whole would round, and NaN would not equal itself). */
static void test_words(void **state)
{
    (void)state;
    size_t n = 0;
    assert_int_equal(pristine_words(1u << 30, &n), DT_UINT32);
    assert_int_equal(n, 1u << 28);
    assert_int_equal(pristine_words(8 * 3, &n), DT_UINT32); /* three doubles */
    assert_int_equal(n, 6);
    assert_int_equal(pristine_words(2 * 5, &n), DT_UINT16); /* five halves */
    assert_int_equal(n, 5);
    assert_int_equal(pristine_words(7, &n), DT_UINT8); /* seven bytes */
    assert_int_equal(n, 7);
    assert_int_equal(pristine_words(6, &n), DT_UINT16);
    assert_int_equal(n, 3);
}

/* The note names each buffer once, in order, says what to do, and fits any buffer. */
static void test_note(void **state)
{
    (void)state;
    char buf[512];
    const char *one[] = {"A"};
    pristine_note(buf, sizeof buf, one, 1);
    assert_non_null(strstr(buf, "'A' had changed since it was restored"));
    assert_non_null(strstr(buf, "this one or one before it on this GPU"));
    assert_non_null(strstr(buf, "declare it inout"));
    const char *three[] = {"A", "B", "weights"};
    pristine_note(buf, sizeof buf, three, 3);
    assert_int_equal(strncmp(buf, "'A', 'B' and 'weights' had changed since they were restored", 59), 0);
    assert_non_null(strstr(buf, "declare them inout"));
    char small[16];
    memset(small, 'x', sizeof small);
    pristine_note(small, sizeof small, three, 3);
    assert_int_equal(strlen(small), sizeof small - 1); /* truncated, terminated */
    assert_int_equal(strncmp(small, "'A', 'B' and 'w", sizeof small - 1), 0);
    char none[1] = {'x'};
    pristine_note(none, 1, one, 1);
    assert_int_equal(none[0], '\0');
}

/* ---- the note in results ------------------------------------------------------------ */

static const char *param_names[] = {"BM"};
static const char *param_types[] = {"int"};
static const char *values[] = {"64"};
static value typed[1];

static cutune_tune_result *new_result(void)
{
    cutune_tune_result *r = result_create();
    assert_non_null(r);
    r->nparams = 1;
    r->param_names = param_names;
    r->param_types = param_types;
    r->kernel = "k";
    return r;
}

/* A variant that ran ok (ordinal `ordinal`), with `note` as its inputs_note (NULL: none). */
static record *ran(cutune_tune_result *r, uint64_t ordinal, const char *note)
{
    record *rec = result_append(r);
    assert_non_null(rec);
    typed[0] = value_int(64);
    rec->vals = typed;
    rec->v.ordinal = ordinal;
    rec->v.nparams = 1;
    rec->v.values = values;
    rec->v.types = "i";
    rec->v.block[0] = 64, rec->v.block[1] = rec->v.block[2] = 1;
    rec->v.grid[0] = 8, rec->v.grid[1] = rec->v.grid[2] = 1;
    rec->v.block_dims = rec->v.grid_dims = 1;
    rec->v.name_expression = "k";
    cutune_measurement m;
    memset(&m, 0, sizeof m);
    m.verified = 1;
    m.launches = 3;
    m.inputs_note = note ? note : "";
    m.reason = m.energy_note = "";
    m.energy_j = m.power_w = NAN;
    m.driver_blocks_per_sm = -1;
    result_take_measured(r, rec, OUTCOME_OK, &m);
    return rec;
}

/* A rerun without a note keeps the first's; a rerun's note is taken when the first had
 * none; a twin of a noted variant has none (it was not run: nothing was found there). */
static void test_note_through_rerun_and_twin(void **state)
{
    (void)state;
    cutune_tune_result *r = new_result();
    record *first = ran(r, 1, "'A' had changed");
    record *again = ran(r, 1, NULL);
    result_take_run(r, first, again);
    assert_string_equal(first->m.inputs_note, "'A' had changed");
    assert_int_equal(first->m.launches, 6); /* the numbers still add up */
    record *plain = ran(r, 2, NULL);
    record *noted = ran(r, 2, "'B' had changed");
    result_take_run(r, plain, noted);
    assert_non_null(plain->m.inputs_note);
    assert_string_equal(plain->m.inputs_note, "'B' had changed");
    record *twin = result_append(r);
    assert_non_null(twin);
    result_take_twin(r, twin, first);
    assert_null(twin->m.inputs_note);
    result_destroy(r);
}

/* Written as "inputs_changed" only when there is a note; read back from a results entry
 * and a journal line; an entry without the key (an older journal) has none. */
static void test_note_in_entries(void **state)
{
    (void)state;
    cutune_tune_result *r = new_result();
    record *noted = ran(r, 1, "'A' had changed since it was restored");
    record *plain = ran(r, 2, NULL);
    json_t *j = record_to_json(r, noted), *k = record_to_json(r, plain);
    assert_string_equal(json_string_value(json_object_get(j, "inputs_changed")),
                        "'A' had changed since it was restored");
    assert_null(json_object_get(k, "inputs_changed"));
    record *whole = result_append(r), *resumed = result_append(r), *old = result_append(r);
    assert_non_null(whole);
    assert_non_null(resumed);
    assert_non_null(old);
    assert_int_equal(record_from_json(r, whole, j, RECORD_WHOLE), 0);
    assert_string_equal(cutune_measurement_inputs_note(&whole->m), "'A' had changed since it was restored");
    resumed->vals = typed;
    resumed->v = noted->v;
    assert_int_equal(record_from_json(r, resumed, j, RECORD_RESUME), 0);
    assert_string_equal(resumed->m.inputs_note, "'A' had changed since it was restored");
    assert_int_equal(record_from_json(r, old, k, RECORD_WHOLE), 0);
    assert_int_equal(old->out, OUTCOME_OK);
    assert_null(cutune_measurement_inputs_note(&old->m));
    json_decref(j);
    json_decref(k);
    result_destroy(r);
}

/* The run's warnings: nothing without notes; with them, one line counting the variants
 * and quoting the first's note, which names the argument. */
static void test_warning(void **state)
{
    (void)state;
    cutune_tune_result *r = new_result();
    (void)ran(r, 4, NULL);
    char *text = account_warnings(r);
    assert_non_null(text);
    assert_null(strstr(text, "`in` argument"));
    free(text);
    (void)ran(r, 9, "'A' had changed since it was restored: declare it inout");
    (void)ran(r, 5, NULL);
    (void)ran(r, 11, "'B' had changed since it was restored: declare it inout");
    text = account_warnings(r);
    assert_non_null(text);
    const char *w = strstr(text, "warning: 2 variants found an `in` argument changed since it was restored");
    assert_non_null(w);
    assert_non_null(strstr(w, "#9: 'A' had changed"));
    assert_null(strstr(text, "'B'")); /* one line: the first's note */
    int lines = 0;
    for (const char *p = text; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 1);
    free(text);
    result_destroy(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kept_once_restored),
        cmocka_unit_test(test_forgotten_and_suspected),
        cmocka_unit_test(test_words),
        cmocka_unit_test(test_note),
        cmocka_unit_test(test_note_through_rerun_and_twin),
        cmocka_unit_test(test_note_in_entries),
        cmocka_unit_test(test_warning),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
