/* test_measurement_fields.c - every field of the one list of a measurement's fields
 * (results/measurement_fields.h) through every codec: the GPU worker's reply on the
 * wire (tuner/reply.h) into a record, the record as a results entry (JSON text) and
 * read back whole, as a journal line read back for a resume, the CSV row, and the
 * public accessor. Each field gets a value of its own that is no codec's default, so
 * a field one codec drops, misplaces or reads with another kind fails here. The values
 * expected are those the test set, read back through jansson and a CSV split of its
 * own; nothing is copied from the codecs. */
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

#include "emit/emit_csv.h"
#include "results/record.h"
#include "tuner/reply.h"

static const char *metric_names[] = {"gflops", "bw"};
static const char *hw_names[] = {"sm__throughput.avg.pct_of_peak_sustained_elapsed", "dram__bytes.sum"};
static const char *param_names[] = {"BM"};
static const char *param_types[] = {"int"};
static const char *values[] = {"64"};

/* A result with one param, two metrics, two counters, run on two GPUs. */
static cutune_tune_result *new_result(void)
{
    cutune_tune_result *r = result_create();
    assert_non_null(r);
    r->nparams = 1;
    r->param_names = param_names;
    r->param_types = param_types;
    r->nmetrics = 2;
    r->metric_names = metric_names;
    r->kernel = "k";
    r->summary.ndevices = 2; /* "gpu" is written only then */
    assert_int_equal(result_set_profile(r, hw_names, 2, -1), 0);
    return r;
}

static value typed_values[1]; /* what values[] write: set_variant's */

static void set_variant(record *rec)
{
    cutune_variant *v = &rec->v;
    typed_values[0] = value_int(64);
    rec->vals = typed_values;
    v->ordinal = 7;
    v->nparams = 1;
    v->values = values;
    v->types = "i";
    v->block[0] = 64, v->block[1] = v->block[2] = 1;
    v->grid[0] = 8, v->grid[1] = v->grid[2] = 1;
    v->block_dims = v->grid_dims = 1;
    v->name_expression = "k";
}

static char strs[64][48];

/* Field i's own value in m: no default (INT 100 + i, I64 10^10 + i, NUM 0.5 + i, BOOL
 * 1, STR "s<i>"), metrics and counters their own too; `energy` as asked (its note is
 * written only when it is not measured). */
static void fill(cutune_measurement *m, double *metrics, double *hw, bool energy)
{
    for (int i = 0; i < mfield_count; i++) {
        const mfield *f = &mfields[i];
        char *at = (char *)m + f->off;
        switch (f->kind) {
        case MK_INT: *(int *)at = 100 + i; break;
        case MK_I64: *(int64_t *)at = 10000000000LL + i; break;
        case MK_NUM: *(double *)at = 0.5 + i; break;
        case MK_BOOL: *(int *)at = 1; break;
        case MK_STR:
            snprintf(strs[i], sizeof strs[i], "s%d", i);
            *(const char **)at = strs[i];
            break;
        default: break;
        }
    }
    m->energy = energy;
    metrics[0] = 1.25, metrics[1] = 2.5;
    hw[0] = 3.5, hw[1] = 4.5;
    m->nmetrics = 2, m->metrics = metrics, m->metric_names = metric_names;
    m->nhw = 2, m->hw = hw, m->hw_names = hw_names;
}

/* Whether field f of `want` came back in `got` (strings equal, numbers exactly). */
static bool same_field(const mfield *f, const record *want, const record *got)
{
    const char *a = (const char *)&want->m + f->off, *b = (const char *)&got->m + f->off;
    switch (f->kind) {
    case MK_INT:
    case MK_BOOL: return *(const int *)a == *(const int *)b;
    case MK_I64: return *(const int64_t *)a == *(const int64_t *)b;
    case MK_NUM: return *(const double *)a == *(const double *)b;
    case MK_STR: {
        const char *s = *(const char *const *)a, *t = *(const char *const *)b;
        return (!s && !t) || (s && t && strcmp(s, t) == 0);
    }
    case MK_METRICS: return got->metrics[0] == want->m.metrics[0] && got->metrics[1] == want->m.metrics[1];
    case MK_HW: return got->hw[0] == want->m.hw[0] && got->hw[1] == want->m.hw[1];
    case MK_VARIANT: return true;
    }
    return false;
}

/* Every field that is written for `want` (its `when` holds, or a flag) came back in
 * `got`; a field `leave` names is not checked. Returns how many were checked. */
static int expect_same(const cutune_tune_result *r, const record *want, const record *got, const char *how,
                       bool (*leave)(const mfield *f))
{
    int checked = 0;
    for (int i = 0; i < mfield_count; i++) {
        const mfield *f = &mfields[i];
        if (f->kind == MK_VARIANT || (leave && leave(f)) || (f->key && !record_field_shown(r, want, f)))
            continue;
        if (!same_field(f, want, got))
            fail_msg("%s: field '%s' did not come back", how, f->member);
        checked++;
    }
    return checked;
}

/* The worker's reply on the wire, taken into a record (as tuner/gpu.c does), with the
 * fields the worker does not measure set as the analysis and tuner set them. */
static record *through_wire(cutune_tune_result *r, const cutune_measurement *src)
{
    reply out;
    memset(&out, 0, sizeof out);
    out.status = OUTCOME_OK;
    out.m = *src;
    wk_frame fr = WK_FRAME_INIT;
    reply_encode(&fr, &out);
    arena *a = arena_new();
    reply in;
    assert_int_equal(reply_decode(&fr, a, &in), 0);
    record *rec = result_append(r);
    assert_non_null(rec);
    set_variant(rec);
    result_take_measured(r, rec, in.status, &in.m);
    arena_free(a);
    wk_frame_free(&fr);
    for (int i = 0; i < mfield_count; i++) { /* not the worker's: copied as the tuner would */
        const mfield *f = &mfields[i];
        if ((f->origin == MO_LOCAL || f->origin == MO_TAKEN) && f->kind != MK_VARIANT && f->kind != MK_HW)
            memcpy((char *)&rec->m + f->off, (const char *)src + f->off,
                   f->kind == MK_NUM   ? sizeof(double)
                   : f->kind == MK_I64 ? sizeof(int64_t)
                   : f->kind == MK_STR ? sizeof(char *)
                                       : sizeof(int));
    }
    rec->hw[0] = src->hw[0], rec->hw[1] = src->hw[1];
    return rec;
}

static json_t *through_text(json_t *j)
{
    char *text = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    assert_non_null(text);
    json_error_t e;
    json_t *back = json_loads(text, 0, &e);
    free(text);
    assert_non_null(back);
    return back;
}

static bool not_on_wire(const mfield *f)
{
    return f->origin == MO_LOCAL || f->origin == MO_TAKEN;
}
static bool not_resumed(const mfield *f)
{
    /* a resume keeps the analysis's, marks it resumed and starts its clock afresh */
    return f->read == MR_WHOLE || strcmp(f->member, "started_seconds") == 0 || strcmp(f->member, "resumed") == 0;
}

/* The CSV cell of column `name` in a two-line table (header, one row; no quoting in
 * what this test writes). NULL when there is no such column. */
static const char *cell(const char *csv, const char *name, char *buf, size_t size)
{
    const char *row = strstr(csv, "\r\n");
    assert_non_null(row);
    row += 2;
    const char *h = csv;
    for (;;) {
        size_t hl = strcspn(h, ",\r"), rl = strcspn(row, ",\r");
        if (hl == strlen(name) && strncmp(h, name, hl) == 0) {
            snprintf(buf, size, "%.*s", (int)rl, row);
            return buf;
        }
        if (h[hl] != ',' || row[rl] != ',')
            return NULL;
        h += hl + 1;
        row += rl + 1;
    }
}

/* Field f's CSV cell(s) hold want's value (empty when its `when` fails). */
static void expect_csv(const cutune_tune_result *r, const record *want, const mfield *f, const char *csv)
{
    char buf[256], name[256];
    const cutune_measurement *m = &want->m;
    bool shown = record_field_shown(r, want, f);
    if (f->kind == MK_METRICS || f->kind == MK_HW) {
        for (int k = 0; k < 2; k++) {
            snprintf(name, sizeof name, "%s%s", f->kind == MK_HW ? "hw:" : "",
                     f->kind == MK_HW ? hw_names[k] : metric_names[k]);
            const char *c = cell(csv, name, buf, sizeof buf);
            if (!c)
                fail_msg("CSV: no column '%s' (field '%s')", name, f->member);
            double v = f->kind == MK_HW ? m->hw[k] : m->metrics[k];
            if (shown ? strtod(c, NULL) != v || !*c : *c != '\0')
                fail_msg("CSV: column '%s' holds '%s'", name, c);
        }
        return;
    }
    const char *c = cell(csv, f->csv, buf, sizeof buf);
    if (!c)
        fail_msg("CSV: no column '%s' (field '%s')", f->csv, f->member);
    if (!shown) {
        if (*c)
            fail_msg("CSV: column '%s' should be empty, holds '%s'", f->csv, c);
        return;
    }
    const char *at = (const char *)m + f->off;
    char want_text[64] = "";
    switch (f->kind) {
    case MK_INT:
    case MK_BOOL: snprintf(want_text, sizeof want_text, "%d", *(const int *)at); break;
    case MK_I64: snprintf(want_text, sizeof want_text, "%lld", (long long)*(const int64_t *)at); break;
    case MK_STR: snprintf(want_text, sizeof want_text, "%s", *(const char *const *)at); break;
    case MK_NUM:
        if (strtod(c, NULL) != *(const double *)at || !*c)
            fail_msg("CSV: column '%s' holds '%s', not %.17g", f->csv, c, *(const double *)at);
        return;
    default: return;
    }
    if (strcmp(c, want_text) != 0)
        fail_msg("CSV: column '%s' holds '%s', not '%s'", f->csv, c, want_text);
}

static void one_pass(bool energy)
{
    cutune_tune_result *r = new_result();
    cutune_measurement src;
    memset(&src, 0, sizeof src);
    double metrics[2], hw[2];
    fill(&src, metrics, hw, energy);
    record want; /* what every codec must give back */
    memset(&want, 0, sizeof want);
    want.m = src;
    want.out = OUTCOME_OK;
    want.metrics = metrics;
    want.hw = hw;

    /* the wire, into a record */
    record *rec = through_wire(r, &src);
    assert_true(expect_same(r, &want, rec, "the worker's reply", not_on_wire) > 10);
    assert_true(expect_same(r, &want, rec, "the record", NULL) > 30);

    /* a results entry, as text, read back whole */
    json_t *j = through_text(record_to_json(r, rec));
    record *whole = result_append(r);
    assert_non_null(whole);
    assert_int_equal(record_from_json(r, whole, j, RECORD_WHOLE), 0);
    assert_int_equal(whole->out, OUTCOME_OK);
    expect_same(r, &want, whole, "a results entry", NULL);

    /* a journal line read back onto an analysed record */
    record *resumed = result_append(r);
    assert_non_null(resumed);
    set_variant(resumed);
    assert_int_equal(record_from_json(r, resumed, j, RECORD_RESUME), 0);
    expect_same(r, &want, resumed, "a journal line", not_resumed);
    json_decref(j);

    /* the CSV row of the record read back */
    cutune_tune_result *one = new_result();
    record *row = result_append(one); /* the record read back, in a result of its own */
    assert_non_null(row);
    double *row_metrics = row->metrics, *row_hw = row->hw;
    *row = *whole;
    memcpy(row_metrics, whole->metrics, 2 * sizeof(double));
    memcpy(row_hw, whole->hw, 2 * sizeof(double));
    row->metrics = row_metrics, row->m.metrics = row_metrics;
    row->hw = row_hw, row->m.hw = row_hw;
    row->m.variant = &row->v;
    char *csv = NULL;
    assert_int_equal(emit_csv(&csv, one), CUTUNE_OK);
    for (int i = 0; i < mfield_count; i++)
        if (mfields[i].csv)
            expect_csv(one, &want, &mfields[i], csv);
    free(csv);

    /* the public accessor: each value the list names, from the record read back */
    for (int i = 0; i < mfield_count; i++)
        if (mfields[i].api != NOVALUE && (!mfields[i].key || record_field_shown(r, &want, &mfields[i])))
            assert_true(cutune_measurement_value(&whole->m, (cutune_value)mfields[i].api) ==
                        mfield_number(&want.m, &mfields[i]));
    result_destroy(one);
    result_destroy(r);
}

static void test_every_field_with_energy(void **state)
{
    (void)state;
    one_pass(true);
}

static void test_every_field_without_energy(void **state)
{
    (void)state;
    one_pass(false); /* then its note is written, its figures not */
}

/* Every public number is one field's, and no two fields claim one. */
static void test_every_public_value_is_a_field(void **state)
{
    (void)state;
    for (int v = CUTUNE_VALUE_REGISTERS; v <= CUTUNE_VALUE_TIED; v++) {
        int n = 0;
        for (int i = 0; i < mfield_count; i++)
            n += mfields[i].api == v;
        if (n != 1)
            fail_msg("cutune_value %d is named by %d fields", v, n);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_field_with_energy),
        cmocka_unit_test(test_every_field_without_energy),
        cmocka_unit_test(test_every_public_value_is_a_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
