/* test_typed_load.c - a record read from a results file carries its typed configuration
 * (record.vals), as one made in a run does, and nothing turns a value's text back into
 * a value: a result written and loaded back holds the same values, bit for bit, whose
 * text is the tuner's (value_format); a JSON type that disagrees with the param's is
 * refused with the JSON path by the loader and by the stream reader alike (the stream
 * once read "abc" for an int param as 0); a missing value is refused with its path; and
 * a prior (results/prior.h) matches a recorded configuration to the spec's domains by
 * typed value: outside the domain or of another type, the entry is left out (a string
 * "64" was once read as the int 64). The expected values are written out below, from
 * the spec's text, not by the code under test. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/internal.h"
#include "base/err.h"
#include "compiler/space.h"
#include "results/load.h"
#include "results/prior.h"
#include "results/record.h"
#include "results/scan.h"
#include "results/write.h"

static char dir[256];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/cutune-test-typed-XXXXXX");
    assert_non_null(mkdtemp(dir));
}

static void remove_dir(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* dir/name holding `text`; its path in path (512 bytes). */
static void write_file(const char *name, const char *text, char *path)
{
    snprintf(path, 512, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* x and y are one value: the same type and contents (floats bit for bit). */
static void assert_same_value(value x, value y)
{
    assert_int_equal(x.type, y.type);
    if (x.type == VT_FLOAT)
        assert_memory_equal(&x.u.f, &y.u.f, sizeof(double));
    else
        assert_true(value_equal(x, y));
}

/* ---- a result written and read back --------------------------------------------- */

static const char *names[] = {"BM", "VEC", "FAST", "ALGO"};
static const char *types[] = {"int", "float", "bool", "string"};

#define NCONFIGS 5

/* Configurations that a text round trip would lose or change: int64's ends, floats
 * without a short binary form, tiny, huge, whole, negative zero, and strings with
 * quotes, a line break, UTF-8 or nothing. */
static void configs(value out[NCONFIGS][4])
{
    static const int64_t ints[NCONFIGS] = {64, INT64_MAX, INT64_MIN, -1, 0};
    static const double floats[NCONFIGS] = {0.1, 1e-300, 2.0, -0.0, 1.7976931348623157e308};
    static const char *const strings[NCONFIGS] = {"a \"b\"", "line\nbreak", "\xc3\xa9t\xc3\xa9", "", "\\"};
    for (int i = 0; i < NCONFIGS; i++) {
        out[i][0] = value_int(ints[i]);
        out[i][1] = value_float(floats[i]);
        out[i][2] = value_bool(i % 2 == 0);
        out[i][3] = value_string(strings[i]);
    }
}

/* A result of NCONFIGS records (compile errors: no times), each holding the values of
 * configs() and the text the tuner writes for them. */
static cutune_tune_result *made(value vals[NCONFIGS][4])
{
    cutune_tune_result *r = result_create();
    assert_non_null(r);
    r->nparams = 4;
    r->param_names = names;
    r->param_types = types;
    r->kernel = "k";
    r->spec_path = "k.tune";
    r->kernel_file = "k.cu";
    r->date = "2026-11-27T00:00:00Z";
    r->strategy = "exhaustive";
    r->device.name = "a GPU";
    r->device.arch = "sm_90";
    r->summary.objective_name = "time_ms";
    for (int i = 0; i < NCONFIGS; i++) {
        record *rec = result_append(r);
        assert_non_null(rec);
        const char **text = arena_alloc(r->arena, sizeof(char *) * 4);
        rec->vals = arena_alloc(r->arena, sizeof(value) * 4);
        assert_non_null(text);
        assert_non_null(rec->vals);
        for (int p = 0; p < 4; p++) {
            rec->vals[p] = vals[i][p];
            strbuf sb = STRBUF_INIT;
            value_format(vals[i][p], &sb, false);
            text[p] = arena_strdup(r->arena, sb_cstr(&sb));
            sb_free(&sb);
        }
        cutune_variant *v = &rec->v;
        v->ordinal = (uint64_t)i;
        v->nparams = 4;
        v->values = text;
        v->types = "ifbs";
        v->block[0] = 64, v->block[1] = v->block[2] = 1;
        v->grid[0] = v->grid[1] = v->grid[2] = 1;
        v->block_dims = v->grid_dims = 1;
        v->name_expression = "k";
        result_set_outcome(r, rec, OUTCOME_COMPILE_ERROR, "no");
    }
    r->summary.variants = NCONFIGS;
    return r;
}

static void test_written_and_loaded_back(void **state)
{
    (void)state;
    make_dir();
    value want[NCONFIGS][4];
    configs(want);
    cutune_tune_result *r = made(want);
    char path[512];
    snprintf(path, sizeof path, "%s/r.json", dir);
    assert_int_equal(results_write(r, path, "test"), CUTUNE_OK);
    cutune_tune_result *back;
    if (results_load(&back, path) != CUTUNE_OK)
        fail_msg("%s", err_last()->message);
    assert_int_equal(back->n, NCONFIGS);
    for (uint64_t i = 0; i < back->n; i++) {
        const record *rec = back->records[i];
        assert_non_null(rec->vals); /* typed, as a record made in a run */
        for (int p = 0; p < 4; p++) {
            assert_same_value(rec->vals[p], want[i][p]);
            assert_string_equal(rec->v.values[p], r->records[i]->v.values[p]); /* the tuner's text */
        }
        assert_memory_equal(rec->v.types, "ifbs", 4);
    }
    /* written again from the loaded record: the same entry */
    json_t *a = record_to_json(r, r->records[1]), *b = record_to_json(back, back->records[1]);
    assert_true(json_equal(json_object_get(a, "params"), json_object_get(b, "params")));
    json_decref(a);
    json_decref(b);
    result_destroy(back);
    result_destroy(r);
    remove_dir();
}

/* ---- refusals --------------------------------------------------------------------- */

/* A results file of params BM (int) and VEC (float) whose entries' params are
 * `params1` and `params2` (JSON objects' members). */
static void two_entries(char *text, size_t size, const char *params1, const char *params2)
{
    snprintf(text, size,
             "{\"format\": \"cutune-results\", \"version\": 1,\n"
             " \"spec\": {\"kernel\": \"k\", \"params\": [{\"name\": \"BM\", \"type\": \"int\"},\n"
             "                                      {\"name\": \"VEC\", \"type\": \"float\"}]},\n"
             " \"results\": [\n"
             "  {\"index\": 0, \"params\": {%s}, \"block\": [64, 1, 1], \"grid\": [1, 1, 1], \"status\": "
             "\"compile error\"},\n"
             "  {\"index\": 1, \"params\": {%s}, \"block\": [64, 1, 1], \"grid\": [1, 1, 1], \"status\": "
             "\"compile error\"}]}\n",
             params1, params2);
}

static int count_entry(void *ctx, const cutune_tune_result *of, const record *rec, uint64_t index)
{
    (void)of;
    (void)index;
    assert_non_null(rec->vals);
    (*(int *)ctx)++;
    return 0;
}

/* `text` as a results file is refused by the loader and by the stream reader, each
 * naming the file and `where` (the JSON path and what is wrong). */
static void refused_by_both(const char *text, const char *where)
{
    char path[512];
    write_file("bad.json", text, path);
    cutune_tune_result *r;
    assert_int_equal(results_load(&r, path), CUTUNE_EIO);
    assert_null(r);
    if (!strstr(err_last()->message, where))
        fail_msg("load: '%s' lacks '%s'", err_last()->message, where);
    results_scan *s;
    assert_int_equal(results_scan_open(&s, path), CUTUNE_OK);
    int n = 0;
    assert_int_equal(results_scan_each(s, count_entry, &n), CUTUNE_EIO);
    if (!strstr(err_last()->message, where))
        fail_msg("scan: '%s' lacks '%s'", err_last()->message, where);
    assert_true(strstr(err_last()->message, "bad.json") != NULL);
    results_scan_close(s);
}

static void test_wrong_type_refused(void **state)
{
    (void)state;
    make_dir();
    char text[2048];
    two_entries(text, sizeof text, "\"BM\": 64, \"VEC\": 0.5", "\"BM\": \"abc\", \"VEC\": 0.5");
    refused_by_both(text, "results[1].params.BM: \"abc\" is not an integer");
    two_entries(text, sizeof text, "\"BM\": 64, \"VEC\": \"0.5\"", "\"BM\": 64, \"VEC\": 0.5");
    refused_by_both(text, "results[0].params.VEC: \"0.5\" is not a number a float param holds exactly");
    two_entries(text, sizeof text, "\"BM\": 64, \"VEC\": 0.5", "\"BM\": 2.0, \"VEC\": 0.5");
    refused_by_both(text, "results[1].params.BM: 2.0 is not an integer");
    /* the codec itself, given an entry nobody checked: refused, never read as 0 */
    cutune_tune_result *r = result_create();
    static const char *n2[] = {"BM", "VEC"}, *t2[] = {"int", "float"};
    r->nparams = 2, r->param_names = n2, r->param_types = t2;
    json_t *j = json_pack("{s:i, s:{s:s, s:f}, s:[iii], s:[iii], s:s}", "index", 0, "params", "BM", "abc", "VEC", 0.5,
                          "block", 64, 1, 1, "grid", 1, 1, 1, "status", "ok");
    record *rec = result_append(r);
    assert_int_equal(record_from_json(r, rec, j, RECORD_WHOLE), -1);
    assert_non_null(strstr(err_last()->message, "params.BM: \"abc\" is not an integer"));
    json_decref(j);
    result_destroy(r);
    remove_dir();
}

static void test_missing_value_refused(void **state)
{
    (void)state;
    make_dir();
    char text[2048];
    two_entries(text, sizeof text, "\"BM\": 64, \"VEC\": 0.5", "\"VEC\": 0.5");
    refused_by_both(text, "results[1].params.BM: missing");
    remove_dir();
}

/* ---- a prior: recorded configurations matched to the spec's domains ---------------- */

static const char spec_src[] = "kernel k from \"k.cu\" {\n"
                               "  param BM in [32, 64];\n"
                               "  param VEC in [0.5, 2.0] as none;\n"
                               "  param ALGO in [\"a\", \"64\"] as none;\n"
                               "  block BM; grid 1;\n"
                               "}\n";

/* A results file of kernel k whose params have the types `t_bm`, `t_vec`, `t_algo` and
 * whose entries (ok, objective = index + 1) have the params `entries[i]`. */
static void recording(char *path, const char *name, const char *t_bm, const char *t_vec, const char *t_algo,
                      const char *const *entries, int n)
{
    char text[4096];
    int used = snprintf(text, sizeof text,
                        "{\"format\": \"cutune-results\", \"version\": 1,\n"
                        " \"spec\": {\"kernel\": \"k\", \"params\": [{\"name\": \"BM\", \"type\": \"%s\"}, "
                        "{\"name\": \"VEC\", \"type\": \"%s\"}, {\"name\": \"ALGO\", \"type\": \"%s\"}]},\n"
                        " \"results\": [",
                        t_bm, t_vec, t_algo);
    for (int i = 0; i < n; i++)
        used += snprintf(text + used, sizeof text - (size_t)used,
                         "%s\n  {\"index\": %d, \"params\": {%s}, \"block\": [64, 1, 1], \"grid\": [1, 1, 1], "
                         "\"status\": \"ok\", \"time_ms\": {\"median\": %d.0}, \"objective\": %d.0}",
                         i ? "," : "", i, entries[i], i + 1, i + 1);
    snprintf(text + used, sizeof text - (size_t)used, "]}\n");
    write_file(name, text, path);
}

typedef struct loaded {
    cutune_spec *spec;
    sspace *sp;
} loaded;

static loaded load_spec(void)
{
    char path[512];
    write_file("k.cu", "__global__ void k(void) {}\n", path);
    cutune_load_options lo = CUTUNE_LOAD_OPTIONS_INIT;
    lo.base_dir = dir;
    loaded l;
    if (cutune_spec_load_string(&l.spec, "s.tune", spec_src, strlen(spec_src), &lo) != CUTUNE_OK)
        fail_msg("%s", cutune_spec_diagnostics(l.spec, 0, 0));
    assert_int_equal(sspace_new(&l.sp, l.spec->model, 0), 0);
    return l;
}

/* The prior of the recording at `path`: CUTUNE_OK with its count, or the status. */
static int prior_of(loaded *l, const char *path, uint64_t *count)
{
    search_prior *p = NULL;
    const char *paths[] = {path};
    int rc = prior_load(l->spec->model, l->sp, paths, 1, &p, count);
    free(p);
    return rc;
}

static void test_prior_matches_typed_values(void **state)
{
    (void)state;
    make_dir();
    loaded l = load_spec();
    const model *m = l.spec->model;
    char path[512];
    uint64_t count = 0;
    /* in the domain; outside it (BM 48, VEC 1.0, ALGO "c": left out, as the loader leaves
     * out keys it does not know); an int recorded for the float param counts as that float */
    const char *mixed[] = {"\"BM\": 64, \"VEC\": 2.0, \"ALGO\": \"64\"", "\"BM\": 48, \"VEC\": 2.0, \"ALGO\": \"a\"",
                           "\"BM\": 32, \"VEC\": 1.0, \"ALGO\": \"a\"", "\"BM\": 32, \"VEC\": 0.5, \"ALGO\": \"c\"",
                           "\"BM\": 32, \"VEC\": 0.5, \"ALGO\": \"a\""};
    recording(path, "mixed.json", "int", "float", "string", mixed, 5);
    assert_int_equal(prior_of(&l, path, &count), CUTUNE_OK);
    assert_int_equal(count, 2);
    const char *widened[] = {"\"BM\": 64, \"VEC\": 2, \"ALGO\": \"a\""};
    recording(path, "widened.json", "int", "int", "string", widened, 1);
    assert_int_equal(prior_of(&l, path, &count), CUTUNE_OK);
    assert_int_equal(count, 1);
    /* a string "64" is not the int 64, nor an int 64 the string "64": another spec's */
    const char *strings[] = {"\"BM\": \"64\", \"VEC\": 2.0, \"ALGO\": \"a\""};
    recording(path, "strings.json", "string", "float", "string", strings, 1);
    assert_int_equal(prior_of(&l, path, &count), CUTUNE_EIO);
    assert_non_null(strstr(err_last()->message, "none of its configurations is one of this spec's space"));
    const char *ints[] = {"\"BM\": 64, \"VEC\": 2.0, \"ALGO\": 64"};
    recording(path, "ints.json", "int", "float", "int", ints, 1);
    assert_int_equal(prior_of(&l, path, &count), CUTUNE_EIO);
    /* the indices into the domains, from the typed values */
    cutune_tune_result *r;
    recording(path, "mixed.json", "int", "float", "string", mixed, 5);
    assert_int_equal(results_load(&r, path), CUTUNE_OK);
    uint64_t vec[3];
    int column[3] = {0, 1, 2};
    assert_true(prior_config_of(m, r->records[0], column, vec));
    assert_true(vec[0] == 1 && vec[1] == 1 && vec[2] == 1);
    assert_true(prior_config_of(m, r->records[4], NULL, vec));
    assert_true(vec[0] == 0 && vec[1] == 0 && vec[2] == 0);
    for (int i = 1; i < 4; i++)
        assert_false(prior_config_of(m, r->records[i], NULL, vec));
    result_destroy(r);
    sspace_free(l.sp);
    cutune_spec_free(l.spec);
    remove_dir();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_written_and_loaded_back),
        cmocka_unit_test(test_wrong_type_refused),
        cmocka_unit_test(test_missing_value_refused),
        cmocka_unit_test(test_prior_matches_typed_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
