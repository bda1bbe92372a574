/* test_options.c - the options structs' versions and defaults (cutune/common.h,
 * "Options"): the initialisers set the defaults docs/api.md documents (read from its
 * tables, not copied from the headers), the _init functions agree with them, and a
 * struct of another version (a zero-filled one included) is refused by every call
 * that takes it, with a message naming the struct. Only the public header is used. */
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

/* ---- the fields, as the test knows them (names and types: no values) ----------- */

typedef enum kind { K_UINT, K_INT, K_U64, K_DOUBLE, K_PTR, K_SEARCH } kind;

typedef struct field {
    const char *name;
    size_t offset;
    kind kind;
} field;

#define F(type, name, kind) \
    { \
#name, offsetof(type, name), kind \
    }

static const field load_fields[] = {
    F(cutune_load_options, version, K_UINT),
    F(cutune_load_options, set, K_PTR),
    F(cutune_load_options, nset, K_INT),
    F(cutune_load_options, base_dir, K_PTR),
    F(cutune_load_options, skip_file_checks, K_INT),
    F(cutune_load_options, arch, K_PTR),
    F(cutune_load_options, device, K_PTR),
};
static const field analyze_fields[] = {
    F(cutune_analyze_options, version, K_UINT),      F(cutune_analyze_options, arch, K_PTR),
    F(cutune_analyze_options, jobs, K_INT),          F(cutune_analyze_options, cache_dir, K_PTR),
    F(cutune_analyze_options, no_cache, K_INT),      F(cutune_analyze_options, limit, K_U64),
    F(cutune_analyze_options, cancel, K_PTR),        F(cutune_analyze_options, progress, K_PTR),
    F(cutune_analyze_options, progress_user, K_PTR), F(cutune_analyze_options, shard_index, K_INT),
    F(cutune_analyze_options, shard_count, K_INT),
};
static const field search_fields[] = {
    F(cutune_search_options, version, K_UINT),  F(cutune_search_options, strategy, K_PTR),
    F(cutune_search_options, budget, K_U64),    F(cutune_search_options, budget_percent, K_DOUBLE),
    F(cutune_search_options, time_s, K_DOUBLE), F(cutune_search_options, patience, K_U64),
    F(cutune_search_options, has_seed, K_INT),  F(cutune_search_options, seed, K_U64),
    F(cutune_search_options, priors, K_PTR),    F(cutune_search_options, npriors, K_INT),
};
static const field tune_fields[] = {
    F(cutune_tune_options, version, K_UINT),
    F(cutune_tune_options, device, K_INT),
    F(cutune_tune_options, jobs, K_INT),
    F(cutune_tune_options, cache_dir, K_PTR),
    F(cutune_tune_options, no_cache, K_INT),
    F(cutune_tune_options, limit, K_U64),
    F(cutune_tune_options, flush_l2, K_INT),
    F(cutune_tune_options, prune, K_DOUBLE),
    F(cutune_tune_options, results_path, K_PTR),
    F(cutune_tune_options, cancel, K_PTR),
    F(cutune_tune_options, journal_path, K_PTR),
    F(cutune_tune_options, fresh, K_INT),
    F(cutune_tune_options, timeout_s, K_DOUBLE),
    F(cutune_tune_options, progress, K_PTR),
    F(cutune_tune_options, progress_user, K_PTR),
    F(cutune_tune_options, search, K_SEARCH),
    F(cutune_tune_options, energy, K_INT),
    F(cutune_tune_options, run_twins, K_INT),
    F(cutune_tune_options, one_size, K_INT),
    F(cutune_tune_options, profile_top, K_INT),
    F(cutune_tune_options, profile_metrics, K_PTR),
    F(cutune_tune_options, nprofile_metrics, K_INT),
    F(cutune_tune_options, shard_index, K_INT),
    F(cutune_tune_options, shard_count, K_INT),
    F(cutune_tune_options, devices, K_PTR),
    F(cutune_tune_options, ndevices, K_INT),
};
static const field header_fields[] = {
    F(cutune_header_options, version, K_UINT),
    F(cutune_header_options, prefix, K_PTR),
    F(cutune_header_options, sources, K_PTR),
    F(cutune_header_options, file_name, K_PTR),
};
static const field headers_fields[] = {
    F(cutune_headers_options, version, K_UINT),      F(cutune_headers_options, prefix, K_PTR),
    F(cutune_headers_options, sources, K_PTR),       F(cutune_headers_options, file_name, K_PTR),
    F(cutune_headers_options, selected_only, K_INT), F(cutune_headers_options, spec_of, K_PTR),
    F(cutune_headers_options, user, K_PTR),
};
static const field report_fields[] = {
    F(cutune_report_options, version, K_UINT),
    F(cutune_report_options, names, K_PTR),
    F(cutune_report_options, title, K_PTR),
};
static const field simulate_fields[] = {
    F(cutune_simulate_options, version, K_UINT),
    F(cutune_simulate_options, search, K_SEARCH),
    F(cutune_simulate_options, repeat, K_INT),
    F(cutune_simulate_options, threads, K_INT),
};
static const field blocks_fields[] = {
    F(cutune_blocks_options, version, K_UINT),
    F(cutune_blocks_options, selected_only, K_INT),
    F(cutune_blocks_options, header_path, K_PTR),
};
static const field per_device_fields[] = {
    F(cutune_per_device_options, version, K_UINT), F(cutune_per_device_options, devices, K_PTR),
    F(cutune_per_device_options, ndevices, K_INT), F(cutune_per_device_options, jobs, K_INT),
    F(cutune_per_device_options, run, K_PTR),      F(cutune_per_device_options, user, K_PTR),
};
static const field import_fields[] = {
    F(cutune_import_options, version, K_UINT),
    F(cutune_import_options, device_name, K_PTR),
    F(cutune_import_options, complete, K_INT),
};

typedef struct options_type {
    const char *name; /* "cutune_tune_options" */
    const field *fields;
    int nfields;
    size_t size;
    unsigned int version; /* the header's CUTUNE_*_OPTIONS_VERSION */
    const void *init;     /* a struct from the CUTUNE_*_OPTIONS_INIT initialiser */
    int (*init_fn)(void *opts, unsigned int version);
} options_type;

static const cutune_load_options load_init = CUTUNE_LOAD_OPTIONS_INIT;
static const cutune_analyze_options analyze_init = CUTUNE_ANALYZE_OPTIONS_INIT;
static const cutune_search_options search_init = CUTUNE_SEARCH_OPTIONS_INIT;
static const cutune_tune_options tune_init = CUTUNE_TUNE_OPTIONS_INIT;
static const cutune_header_options header_init = CUTUNE_HEADER_OPTIONS_INIT;
static const cutune_headers_options headers_init = CUTUNE_HEADERS_OPTIONS_INIT;
static const cutune_report_options report_init = CUTUNE_REPORT_OPTIONS_INIT;
static const cutune_simulate_options simulate_init = CUTUNE_SIMULATE_OPTIONS_INIT;
static const cutune_blocks_options blocks_init = CUTUNE_BLOCKS_OPTIONS_INIT;
static const cutune_per_device_options per_device_init = CUTUNE_PER_DEVICE_OPTIONS_INIT;
static const cutune_import_options import_init = CUTUNE_IMPORT_OPTIONS_INIT;

/* The _init functions, through one signature. */
#define INIT_FN(type) \
    static int type##_fn(void *opts, unsigned int version) \
    { \
        return type##_init(opts, version); \
    }
INIT_FN(cutune_load_options)
INIT_FN(cutune_analyze_options)
INIT_FN(cutune_search_options)
INIT_FN(cutune_tune_options)
INIT_FN(cutune_header_options)
INIT_FN(cutune_headers_options)
INIT_FN(cutune_report_options)
INIT_FN(cutune_simulate_options)
INIT_FN(cutune_blocks_options)
INIT_FN(cutune_per_device_options)
INIT_FN(cutune_import_options)

#define TYPE(tname, fields, VERSION, init) \
    { \
#tname, fields, (int)(sizeof fields / sizeof fields[0]), sizeof(tname), VERSION, &init, tname##_fn \
    }

static const options_type types[] = {
    TYPE(cutune_load_options, load_fields, CUTUNE_LOAD_OPTIONS_VERSION, load_init),
    TYPE(cutune_analyze_options, analyze_fields, CUTUNE_ANALYZE_OPTIONS_VERSION, analyze_init),
    TYPE(cutune_search_options, search_fields, CUTUNE_SEARCH_OPTIONS_VERSION, search_init),
    TYPE(cutune_tune_options, tune_fields, CUTUNE_TUNE_OPTIONS_VERSION, tune_init),
    TYPE(cutune_header_options, header_fields, CUTUNE_HEADER_OPTIONS_VERSION, header_init),
    TYPE(cutune_headers_options, headers_fields, CUTUNE_HEADERS_OPTIONS_VERSION, headers_init),
    TYPE(cutune_report_options, report_fields, CUTUNE_REPORT_OPTIONS_VERSION, report_init),
    TYPE(cutune_simulate_options, simulate_fields, CUTUNE_SIMULATE_OPTIONS_VERSION, simulate_init),
    TYPE(cutune_blocks_options, blocks_fields, CUTUNE_BLOCKS_OPTIONS_VERSION, blocks_init),
    TYPE(cutune_per_device_options, per_device_fields, CUTUNE_PER_DEVICE_OPTIONS_VERSION, per_device_init),
    TYPE(cutune_import_options, import_fields, CUTUNE_IMPORT_OPTIONS_VERSION, import_init),
};
#define NTYPES ((int)(sizeof types / sizeof types[0]))

static const options_type *type_named(const char *name, size_t len)
{
    for (int i = 0; i < NTYPES; i++)
        if (strlen(types[i].name) == len && strncmp(types[i].name, name, len) == 0)
            return &types[i];
    return NULL;
}

/* ---- the documented defaults: docs/api.md, "Options and their defaults" ----------- */

/* A row: | `cutune_X_options.FIELD` | `VALUE` | meaning | */
typedef struct doc_row {
    const options_type *type;
    const field *field;
    char value[64];
    int line;
} doc_row;

static doc_row rows[200];
static int nrows;

/* Reads every default row of docs/api.md into rows[]; fails on a row naming an unknown
 * struct or field. */
static void read_docs(void)
{
    if (nrows)
        return;
    FILE *f = fopen(CUTUNE_SOURCE_DIR "/docs/api.md", "r");
    assert_non_null(f);
    char line[1024];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (strncmp(line, "| `cutune_", 10) != 0)
            continue;
        const char *name = line + 3;
        const char *dot = strchr(name, '.');
        const char *tick = strchr(name, '`');
        if (!dot || !tick || dot > tick || !strstr(line, "_options."))
            continue; /* another table's row */
        const options_type *t = type_named(name, (size_t)(dot - name));
        if (!t)
            fail_msg("docs/api.md:%d: an options struct the test does not know", lineno);
        const field *fl = NULL;
        for (int k = 0; k < t->nfields; k++)
            if (strlen(t->fields[k].name) == (size_t)(tick - dot - 1) &&
                strncmp(t->fields[k].name, dot + 1, (size_t)(tick - dot - 1)) == 0)
                fl = &t->fields[k];
        if (!fl)
            fail_msg("docs/api.md:%d: %s has no such field (or the test does not know it)", lineno, t->name);
        const char *v = strstr(tick, "| `");
        const char *end = v ? strchr(v + 3, '`') : NULL;
        if (!end || end - v - 3 >= 64)
            fail_msg("docs/api.md:%d: no `default` in the second column", lineno);
        assert_true(nrows < (int)(sizeof rows / sizeof rows[0]));
        doc_row *r = &rows[nrows++];
        r->type = t;
        r->field = fl;
        snprintf(r->value, sizeof r->value, "%.*s", (int)(end - v - 3), v + 3);
        r->line = lineno;
    }
    fclose(f);
    assert_true(nrows > 0);
}

/* check_value: the field of struct `s` holds the documented `value`. */
static void check_value(const void *s, const options_type *t, const field *fl, const char *value, int line)
{
    const char *p = (const char *)s + fl->offset;
    switch (fl->kind) {
    case K_PTR: {
        const void *ptr;
        memcpy(&ptr, p, sizeof ptr);
        if (strcmp(value, "NULL") != 0 || ptr != NULL)
            fail_msg("docs/api.md:%d: %s.%s is documented `%s`", line, t->name, fl->name, value);
        return;
    }
    case K_SEARCH: { /* the nested struct: as the search table documents it */
        if (strcmp(value, "CUTUNE_SEARCH_OPTIONS_INIT") != 0)
            fail_msg("docs/api.md:%d: %s.%s: a nested search is documented as its initialiser", line, t->name,
                     fl->name);
        int seen = 0;
        for (int i = 0; i < nrows; i++)
            if (strcmp(rows[i].type->name, "cutune_search_options") == 0) {
                check_value(p, rows[i].type, rows[i].field, rows[i].value, rows[i].line);
                seen++;
            }
        assert_int_equal(seen, (int)(sizeof search_fields / sizeof search_fields[0]));
        return;
    }
    case K_UINT: { /* the version: the header's macro, named in the docs */
        unsigned int u;
        memcpy(&u, p, sizeof u);
        char macro[80];
        snprintf(macro, sizeof macro, "%s_VERSION", t->name);
        for (char *c = macro; *c; c++)
            *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
        if (strcmp(value, macro) != 0 || u != t->version || u == 0)
            fail_msg("docs/api.md:%d: %s.version: documented `%s`, holds %u", line, t->name, value, u);
        return;
    }
    default: break;
    }
    char *end;
    double want = strtod(value, &end);
    if (*end || end == value)
        fail_msg("docs/api.md:%d: %s.%s: `%s` is not a number", line, t->name, fl->name, value);
    double have;
    if (fl->kind == K_INT) {
        int i;
        memcpy(&i, p, sizeof i);
        have = i;
    } else if (fl->kind == K_U64) {
        uint64_t u;
        memcpy(&u, p, sizeof u);
        have = (double)u;
    } else {
        memcpy(&have, p, sizeof have);
    }
    if (have != want)
        fail_msg("docs/api.md:%d: %s.%s is documented %s, the initialiser gives %g", line, t->name, fl->name, value,
                 have);
}

/* Every field of every options struct has one documented default. */
static void test_every_field_is_documented(void **state)
{
    (void)state;
    read_docs();
    for (int i = 0; i < NTYPES; i++)
        for (int k = 0; k < types[i].nfields; k++) {
            int n = 0;
            for (int j = 0; j < nrows; j++)
                n += rows[j].type == &types[i] && rows[j].field == &types[i].fields[k];
            if (n != 1)
                fail_msg("docs/api.md documents %s.%s %d times, not once", types[i].name, types[i].fields[k].name, n);
        }
    /* The test's field lists are whole: the last field ends where the struct does
     * (up to padding), so a field added to a header must be added here, and then to
     * the docs. */
    for (int i = 0; i < NTYPES; i++) {
        const field *last = &types[i].fields[types[i].nfields - 1];
        assert_true(last->offset < types[i].size);
        assert_true(types[i].size - last->offset <= (last->kind == K_SEARCH ? sizeof(cutune_search_options) : 8));
    }
}

/* The initialisers hold the documented defaults, and the _init functions give the
 * same bytes' worth of values (over a struct filled with garbage first). */
static void test_initialisers_hold_the_documented_defaults(void **state)
{
    (void)state;
    read_docs();
    for (int j = 0; j < nrows; j++)
        check_value(rows[j].type->init, rows[j].type, rows[j].field, rows[j].value, rows[j].line);
    for (int i = 0; i < NTYPES; i++) {
        unsigned char buf[512];
        assert_true(types[i].size <= sizeof buf);
        memset(buf, 0xA5, sizeof buf);
        assert_int_equal(types[i].init_fn(buf, types[i].version), CUTUNE_OK);
        for (int j = 0; j < nrows; j++)
            if (rows[j].type == &types[i])
                check_value(buf, rows[j].type, rows[j].field, rows[j].value, rows[j].line);
    }
}

/* The one default the issue names: L2 flushing as the spec says, not off. */
static void test_tune_defaults_keep_l2_flushing(void **state)
{
    (void)state;
    cutune_tune_options t;
    assert_int_equal(cutune_tune_options_init(&t, CUTUNE_TUNE_OPTIONS_VERSION), CUTUNE_OK);
    assert_int_equal(t.flush_l2, -1);
    assert_int_equal(t.search.version, CUTUNE_SEARCH_OPTIONS_VERSION);
}

/* An _init of another version (or of NULL) is refused and leaves the struct alone. */
static void test_init_refuses_another_version(void **state)
{
    (void)state;
    for (int i = 0; i < NTYPES; i++) {
        unsigned char buf[512];
        memset(buf, 0x5A, sizeof buf);
        for (int d = -1; d <= 1; d += 2) {
            unsigned int v = types[i].version + (unsigned int)d;
            assert_int_equal(types[i].init_fn(buf, v), CUTUNE_EINVAL);
            const cutune_error *e = cutune_error_last();
            assert_non_null(e);
            assert_int_equal(e->code, CUTUNE_EINVAL);
            if (!strstr(e->message, types[i].name))
                fail_msg("%s_init(%u): '%s' does not name the struct", types[i].name, v, e->message);
        }
        for (size_t k = 0; k < types[i].size; k++)
            assert_int_equal(buf[k], 0x5A);
        assert_int_equal(types[i].init_fn(NULL, types[i].version), CUTUNE_EINVAL);
    }
}

/* ---- every call that takes options refuses another version ----------------------- */

static const char spec_text[] = "kernel k from \"k.cu\" {\n"
                                "    param T in [32, 64];\n"
                                "    block T;\n"
                                "    grid 1;\n"
                                "}\n";

static cutune_spec *load_spec(void)
{
    cutune_load_options lo = CUTUNE_LOAD_OPTIONS_INIT;
    lo.skip_file_checks = 1;
    cutune_spec *spec = NULL;
    int rc = cutune_spec_load_string(&spec, "k.tune", spec_text, strlen(spec_text), &lo);
    if (rc != CUTUNE_OK)
        fail_msg("load: %s", spec ? cutune_spec_diagnostics(spec, 0, 0) : cutune_last_error());
    return spec;
}

/* expect_refused: rc is CUTUNE_EINVAL and the error names `type` and version 0. */
static void expect_refused(int rc, const char *type, const char *call)
{
    if (rc != CUTUNE_EINVAL)
        fail_msg("%s with a zero-filled %s returned %d, not CUTUNE_EINVAL", call, type, rc);
    const cutune_error *e = cutune_error_last();
    assert_non_null(e);
    assert_int_equal(e->code, CUTUNE_EINVAL);
    if (!strstr(e->message, type) || !strstr(e->message, "version 0"))
        fail_msg("%s: '%s' names neither %s nor version 0", call, e->message, type);
}

static int each_analysis(void *user, const cutune_analysis *a)
{
    (void)user;
    (void)a;
    return 0;
}

static void test_calls_refuse_a_zero_filled_struct(void **state)
{
    (void)state;
    cutune_load_options lo;
    memset(&lo, 0, sizeof lo);
    lo.skip_file_checks = 1;
    cutune_spec *spec = (cutune_spec *)&lo; /* set to NULL by a refusal */
    expect_refused(cutune_spec_load_string(&spec, "k.tune", spec_text, strlen(spec_text), &lo), "cutune_load_options",
                   "cutune_spec_load_string");
    assert_null(spec);
    spec = (cutune_spec *)&lo;
    expect_refused(cutune_spec_load_file(&spec, CUTUNE_SOURCE_DIR "/examples/sweep.tune", &lo), "cutune_load_options",
                   "cutune_spec_load_file");
    assert_null(spec);

    spec = load_spec();
    cutune_analyze_options ao;
    memset(&ao, 0, sizeof ao);
    cutune_analyze_summary sum;
    expect_refused(cutune_analyze(&sum, spec, &ao, each_analysis, NULL), "cutune_analyze_options", "cutune_analyze");

    /* Refused before any GPU is asked for: the same answer on a machine without one. */
    cutune_tune_options to;
    memset(&to, 0, sizeof to);
    to.flush_l2 = -1;
    cutune_tune_result *r = NULL;
    expect_refused(cutune_tune(&r, spec, &to), "cutune_tune_options", "cutune_tune");
    assert_null(r);
    cutune_tune_options t2 = CUTUNE_TUNE_OPTIONS_INIT;
    memset(&t2.search, 0, sizeof t2.search);
    expect_refused(cutune_tune(&r, spec, &t2), "cutune_search_options", "cutune_tune (its search)");
    assert_null(r);

    cutune_header_options ho;
    memset(&ho, 0, sizeof ho);
    char *text = NULL;
    expect_refused(cutune_emit_header(&text, spec, NULL, 0, &ho), "cutune_header_options", "cutune_emit_header");
    assert_null(text);
    cutune_header_names *names = NULL;
    assert_int_equal(cutune_header_names_new(&names), CUTUNE_OK);
    expect_refused(cutune_header_names_claim(names, spec, NULL, 0, &ho), "cutune_header_options",
                   "cutune_header_names_claim");
    cutune_header_names_free(names);
    /* The same calls with the initialiser's options go on (the default header). */
    cutune_header_options good = CUTUNE_HEADER_OPTIONS_INIT;
    assert_int_equal(cutune_emit_header(&text, spec, NULL, 0, &good), CUTUNE_OK);
    assert_non_null(text);
    cutune_free(text);

    cutune_tune_result *loaded = NULL;
    assert_int_equal(cutune_results_load(&loaded, CUTUNE_SOURCE_DIR "/test/data/report-sum_matrix-h100.json"),
                     CUTUNE_OK);
    cutune_report_options rpo;
    memset(&rpo, 0, sizeof rpo);
    const cutune_tune_result *runs[] = {loaded};
    char *page = NULL;
    expect_refused(cutune_emit_report(&page, runs, 1, &rpo), "cutune_report_options", "cutune_emit_report");
    assert_null(page);
    cutune_tune_result_free(loaded);

    cutune_simulate_options so;
    memset(&so, 0, sizeof so);
    cutune_sim_report *rep = NULL;
    expect_refused(cutune_simulate(&rep, spec, CUTUNE_SOURCE_DIR "/test/data/report-sum_matrix-h100.json", &so),
                   "cutune_simulate_options", "cutune_simulate");
    cutune_simulate_options s2 = CUTUNE_SIMULATE_OPTIONS_INIT;
    s2.search.version = 0;
    expect_refused(cutune_simulate(&rep, spec, CUTUNE_SOURCE_DIR "/test/data/report-sum_matrix-h100.json", &s2),
                   "cutune_search_options", "cutune_simulate (its search)");
    assert_null(rep);
    cutune_spec_free(spec);
}

/* cutune_simulate_check: the runs' seeds (seed, seed + 1, ...) stay within what a
 * results file holds (INT64_MAX); no seed given, any count of runs; repeat 0 is one. */
static void test_simulate_check(void **state)
{
    (void)state;
    cutune_simulate_options so = CUTUNE_SIMULATE_OPTIONS_INIT;
    assert_int_equal(cutune_simulate_check(&so), CUTUNE_OK);
    so.repeat = 100000;
    assert_int_equal(cutune_simulate_check(&so), CUTUNE_OK);
    so.search.has_seed = 1;
    so.search.seed = 9223372036854675808u; /* its last run's seed is INT64_MAX */
    assert_int_equal(cutune_simulate_check(&so), CUTUNE_OK);
    so.search.seed = 9223372036854675809u;
    assert_int_equal(cutune_simulate_check(&so), CUTUNE_EINVAL);
    assert_string_equal(cutune_last_error(), "--seed 9223372036854675809 with --repeat 100000 takes seeds past "
                                             "9223372036854775807 (the largest a results file holds)");
    so.repeat = 0;
    so.search.seed = 9223372036854775807u;
    assert_int_equal(cutune_simulate_check(&so), CUTUNE_OK);
    so.search.seed = 9223372036854775808u;
    assert_int_equal(cutune_simulate_check(&so), CUTUNE_EINVAL);
    assert_non_null(strstr(cutune_last_error(), "with --repeat 1 takes"));
    assert_int_equal(cutune_simulate_check(NULL), CUTUNE_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_field_is_documented),
        cmocka_unit_test(test_initialisers_hold_the_documented_defaults),
        cmocka_unit_test(test_tune_defaults_keep_l2_flushing),
        cmocka_unit_test(test_init_refuses_another_version),
        cmocka_unit_test(test_calls_refuse_a_zero_filled_struct),
        cmocka_unit_test(test_simulate_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
