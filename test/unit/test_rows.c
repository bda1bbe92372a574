/* test_rows.c - the CSV and JSON writers behind `cutune list`, `analyze` and
 * `simulate` (cutune_variant_csv/_json, cutune_analysis_csv/_json,
 * cutune_sim_report_json), through the public header only, as an application calls
 * them. The JSON parses with jansson and carries the fields docs/cli.md promises (read
 * from its text, not copied from the writers); the CSV follows the one quoting rule
 * of base/csv (RFC 4180, formula-safe), checked by hand-written rows. */
#include <jansson.h>
#include <math.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cutune.h"

/* Two params of every kind a variant's JSON types: int, float, bool, string (a string
 * with a comma and one a spreadsheet would run as a formula). */
static const char spec_text[] = "kernel k from \"k.cu\" {\n"
                                "    param bx in [32, 64];\n"
                                "    param f in [0.5];\n"
                                "    param on in [true];\n"
                                "    param tag in [\"a,b\", \"=1+2\"] as define TAG;\n"
                                "    block bx;\n"
                                "    grid 4;\n"
                                "}\n";

static cutune_spec *load(void)
{
    cutune_load_options opts = CUTUNE_LOAD_OPTIONS_INIT;
    opts.skip_file_checks = 1;
    cutune_spec *spec = NULL;
    int rc = cutune_spec_load_string(&spec, "rows.tune", spec_text, strlen(spec_text), &opts);
    if (rc != CUTUNE_OK)
        fail_msg("load: %s", spec ? cutune_spec_diagnostics(spec, 0, 0) : "(no spec)");
    return spec;
}

/* The variants of the spec, in listing order, each as `fn` writes it, into rows[]. */
static int each_row(cutune_spec *spec, int (*fn)(char **, const cutune_spec *, const cutune_variant *), char **rows,
                    int max)
{
    cutune_configs *it;
    assert_int_equal(cutune_configs_new(&it, spec), CUTUNE_OK);
    const cutune_variant *v;
    int n = 0;
    while (n < max && cutune_configs_next(&v, it) == 1)
        assert_int_equal(fn(&rows[n++], spec, v), CUTUNE_OK);
    cutune_configs_free(it);
    return n;
}

/* ---- docs/cli.md: what it promises ----------------------------------------------- */

static char *read_doc(void)
{
    FILE *f = fopen(CUTUNE_SOURCE_DIR "/docs/cli.md", "r");
    assert_non_null(f);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

/* The text of docs/cli.md from `start` up to `stop` (the next bullet, or the paragraph's end). */
static char *doc_part(const char *start, const char *stop)
{
    const char *doc = read_doc(), *p = strstr(doc, start);
    if (!p) {
        fail_msg("docs/cli.md has no '%s'", start);
        return NULL; /* fail_msg does not return; the compiler cannot know */
    }
    const char *end = strstr(p + 1, stop);
    size_t n = end ? (size_t)(end - p) : strlen(p);
    char *s = malloc(n + 1);
    memcpy(s, p, n);
    s[n] = '\0';
    return s;
}

static char *bullet(const char *start)
{
    return doc_part(start, "\n- ");
}

/* A member of o, or of one of its members named in `nested` (NULL-terminated; an
 * array's first element). */
static bool has_key(const json_t *o, const char *key, const char *const *nested)
{
    if (json_object_get(o, key))
        return true;
    for (; nested && *nested; nested++) {
        const json_t *in = json_object_get(o, *nested);
        if (json_is_array(in))
            in = json_array_get(in, 0);
        if (in && json_object_get(in, key))
            return true;
    }
    return false;
}

/* Every `name` in backquotes of `text` (lower-case words and underscores) is a key of
 * `o` or of its members named in `nested`. Returns how many were checked. */
static int keys_promised(const json_t *o, const char *text, const char *const *nested)
{
    regex_t re;
    assert_int_equal(regcomp(&re, "`([a-z_.]+)`", REG_EXTENDED), 0);
    regmatch_t m[2];
    int checked = 0;
    for (const char *p = text; regexec(&re, p, 2, m, 0) == 0; p += m[0].rm_eo) {
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(m[1].rm_eo - m[1].rm_so), p + m[1].rm_so);
        if (strcmp(key, "list") == 0 || strcmp(key, "null") == 0 || strchr(key, '.') || strncmp(key, "cutune_", 7) == 0)
            continue; /* "`list`'s", a value and the library's functions: not keys */
        if (!has_key(o, key, nested))
            fail_msg("docs/cli.md promises '%s', the JSON has none", key);
        checked++;
    }
    regfree(&re);
    return checked;
}

/* text parsed as JSON (a test failure when it is not). */
static json_t *parsed(const char *text)
{
    json_error_t e;
    json_t *o = json_loads(text, 0, &e);
    if (!o)
        fail_msg("not JSON (%s): %s", e.text, text);
    return o;
}

/* ---- list ----------------------------------------------------------------------- */

static void variant_json_typed(void **state)
{
    (void)state;
    cutune_spec *spec = load();
    char *rows[8];
    int n = each_row(spec, cutune_variant_json, rows, 8);
    assert_int_equal(n, 4); /* bx x tag */
    json_error_t e;
    json_t *o = json_loads(rows[1], 0, &e);
    assert_non_null(o);
    assert_int_equal(json_integer_value(json_object_get(o, "index")), 1);
    json_t *params = json_object_get(o, "params");
    assert_true(json_is_integer(json_object_get(params, "bx")));
    assert_int_equal(json_integer_value(json_object_get(params, "bx")), 32);
    assert_true(json_is_real(json_object_get(params, "f")));
    assert_true(json_real_value(json_object_get(params, "f")) == 0.5);
    assert_true(json_is_true(json_object_get(params, "on")));
    assert_string_equal(json_string_value(json_object_get(params, "tag")), "=1+2");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(o, "block"), 0)), 32);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(o, "grid"), 0)), 4);
    assert_string_equal(json_string_value(json_array_get(json_object_get(o, "defines"), 2)), "-Don=1");
    assert_string_equal(json_string_value(json_array_get(json_object_get(o, "defines"), 3)), "-DTAG==1+2");
    /* the keys of docs/cli.md's example object */
    char *doc = bullet("- `--format json`: an array with one object per configuration");
    for (const char *k = "index\0params\0block\0grid\0smem_bytes\0kernel\0defines\0options\0"; *k; k += strlen(k) + 1) {
        char quoted[32];
        snprintf(quoted, sizeof quoted, "\"%s\"", k);
        assert_non_null(strstr(doc, quoted));
        assert_non_null(json_object_get(o, k));
    }
    free(doc);
    json_decref(o);
    for (int i = 0; i < n; i++)
        cutune_free(rows[i]);
    cutune_spec_free(spec);
}

static void variant_csv_one_rule(void **state)
{
    (void)state;
    cutune_spec *spec = load();
    char *head = NULL, *rows[8];
    assert_int_equal(cutune_variant_csv(&head, spec, NULL), CUTUNE_OK);
    assert_string_equal(head, "index,bx,f,on,tag,block.x,block.y,block.z,grid.x,grid.y,grid.z,smem_bytes,kernel,"
                              "defines,options");
    int n = each_row(spec, cutune_variant_csv, rows, 8);
    assert_int_equal(n, 4);
    /* A comma quotes the field (docs/language.md: a macro takes the param's name, a
     * bool as 1); spaces alone do not: the defines, joined by spaces. */
    assert_string_equal(rows[0], "0,32,0.5,true,\"a,b\",32,1,1,4,1,1,0,k,\"-Dbx=32 -Df=0.5 -Don=1 -DTAG=a,b\",");
    /* A formula gets an apostrophe; a compiler option starting with '-' does not. */
    assert_string_equal(rows[1], "1,32,0.5,true,'=1+2,32,1,1,4,1,1,0,k,-Dbx=32 -Df=0.5 -Don=1 -DTAG==1+2,");
    for (int i = 0; i < n; i++)
        cutune_free(rows[i]);
    cutune_free(head);
    assert_int_equal(cutune_variant_csv(NULL, spec, NULL), CUTUNE_EINVAL);
    assert_int_equal(cutune_variant_json(&head, spec, NULL), CUTUNE_EINVAL);
    cutune_spec_free(spec);
}

/* ---- analyze -------------------------------------------------------------------- */

/* An analysis as cutune_analyze hands it (made here: no compiler needed). */
static cutune_analysis analysis_of(const cutune_variant *v, bool compiled)
{
    cutune_analysis a;
    memset(&a, 0, sizeof a);
    a.variant = v;
    a.compiled = compiled;
    a.log = compiled ? "" : "k.cu(3): error: \"x\", undefined";
    if (compiled) {
        a.has_resources = 1;
        a.registers = 40;
        a.spill_stores = 8;
        assert_int_equal(cutune_occupancy_for_arch(&a.occupancy, "sm_90", 40, 32, 0), CUTUNE_OK);
        a.launchable = 1;
    } else {
        a.why = "no \"x\", see the log";
    }
    a.compile_seconds = 0.25;
    return a;
}

static void analysis_json_promised(void **state)
{
    (void)state;
    cutune_spec *spec = load();
    cutune_configs *it;
    const cutune_variant *v;
    assert_int_equal(cutune_configs_new(&it, spec), CUTUNE_OK);
    assert_int_equal(cutune_configs_next(&v, it), 1);
    cutune_analysis a = analysis_of(v, true);
    char *text = NULL;
    assert_int_equal(cutune_analysis_json(&text, spec, &a), CUTUNE_OK);
    json_error_t e;
    json_t *o = json_loads(text, 0, &e);
    assert_non_null(o);
    char *doc = bullet("- `--format json`: an array; each object is `list`'s, plus");
    static const char *const nested[] = {"occupancy", NULL};
    assert_true(keys_promised(o, doc, nested) >= 20);
    free(doc);
    assert_int_equal(json_integer_value(json_object_get(o, "registers")), 40);
    assert_int_equal(json_integer_value(json_object_get(o, "spill_stores")), 8);
    assert_string_equal(json_string_value(json_object_get(json_object_get(o, "occupancy"), "arch")), "sm_90");
    assert_true(json_is_null(json_object_get(o, "why")));
    assert_true(json_real_value(json_object_get(o, "compile_seconds")) == 0.25);
    json_decref(o);
    cutune_free(text);
    /* a failed compile: no resources, no occupancy, the log and why */
    a = analysis_of(v, false);
    assert_int_equal(cutune_analysis_json(&text, spec, &a), CUTUNE_OK);
    o = json_loads(text, 0, &e);
    assert_non_null(o);
    assert_null(json_object_get(o, "registers"));
    assert_null(json_object_get(o, "occupancy"));
    assert_true(json_is_false(json_object_get(o, "compiled")));
    assert_string_equal(json_string_value(json_object_get(o, "log")), a.log);
    json_decref(o);
    cutune_free(text);
    /* its CSV row: a quote inside a field doubled, the field quoted */
    assert_int_equal(cutune_analysis_csv(&text, spec, &a), CUTUNE_OK);
    assert_non_null(strstr(text, ",0,0,0,0,0,0,0,0.0000,,0,\"no \"\"x\"\", see the log\",0.250000,0,0"));
    cutune_free(text);
    assert_int_equal(cutune_analysis_json(&text, spec, NULL), CUTUNE_EINVAL);
    cutune_configs_free(it);
    cutune_spec_free(spec);
}

static void analysis_csv_header_documented(void **state)
{
    (void)state;
    cutune_spec *spec = load();
    char *head = NULL;
    assert_int_equal(cutune_analysis_csv(&head, spec, NULL), CUTUNE_OK);
    /* list's columns (params after index), then the ones the analyze bullet names */
    char *list = bullet("- `--format csv`: columns `index`, one per param"),
         *analyze = bullet("- `--format csv`: `list`'s columns");
    char expect[1024] = "";
    regex_t re;
    assert_int_equal(regcomp(&re, "`([a-z_.]+)`", REG_EXTENDED), 0);
    regmatch_t m[2];
    for (int pass = 0; pass < 2; pass++)
        for (const char *p = pass ? analyze : list; regexec(&re, p, 2, m, 0) == 0; p += m[0].rm_eo) {
            char key[64];
            snprintf(key, sizeof key, "%.*s", (int)(m[1].rm_eo - m[1].rm_so), p + m[1].rm_so);
            if (strcmp(key, "list") == 0 || strncmp(key, "cutune_", 7) == 0)
                continue; /* references, not columns */
            if (expect[0])
                strcat(expect, ",");
            strcat(expect, key);
            if (strcmp(key, "index") == 0)
                strcat(expect, ",bx,f,on,tag");
        }
    regfree(&re);
    assert_string_equal(head, expect);
    free(list);
    free(analyze);
    cutune_free(head);
    cutune_spec_free(spec);
}

/* ---- simulate ------------------------------------------------------------------- */

static void sim_json_nulls(void **state)
{
    (void)state;
    cutune_sim_run runs[2] = {
        {.seed = 7,
         .evaluations = 10,
         .found = 1,
         .best = 2.5,
         .best_index = 3,
         .best_at = 4,
         .ratio = 0.5,
         .seconds = 1.5,
         .stop_reason = "budget",
         .bound_seconds = 1},
        {.seed = 8, .evaluations = 10, .found = 0, .ratio = 0, .seconds = 2, .stop_reason = "budget"},
    };
    cutune_sim_report r = {.strategy = "random",
                           .seed = 7,
                           .budget = 10,
                           .space = 100,
                           .recorded_ok = 90,
                           .true_best = 5,
                           .maximize = 1,
                           .objective_name = "score",
                           .nruns = 2,
                           .runs = runs,
                           .median = NAN,
                           .q1 = 0,
                           .q3 = 0.5,
                           .min = 0,
                           .max = 0.5,
                           .median_evaluations = 10};
    char *text = NULL;
    assert_int_equal(cutune_sim_report_json(&text, &r, "full.json", 0), CUTUNE_OK);
    json_error_t e;
    json_t *o = json_loads(text, 0, &e);
    assert_non_null(o);
    assert_string_equal(json_string_value(json_object_get(o, "results")), "full.json");
    assert_int_equal(json_integer_value(json_object_get(o, "threads")), 16); /* the documented default */
    assert_true(json_is_null(json_object_get(o, "patience")));               /* no limit */
    assert_string_equal(json_string_value(json_object_get(o, "direction")), "maximize");
    json_t *jr = json_object_get(o, "runs");
    assert_int_equal(json_array_size(jr), 2);
    assert_true(json_real_value(json_object_get(json_array_get(jr, 0), "simulated_seconds")) == 1.5);
    assert_true(json_is_real(json_object_get(json_array_get(jr, 0), "bound_seconds")));
    assert_true(json_is_null(json_object_get(json_array_get(jr, 1), "best")));         /* nothing found */
    assert_true(json_is_null(json_object_get(json_object_get(o, "ratio"), "median"))); /* NaN */
    json_decref(o);
    cutune_free(text);
    assert_int_equal(cutune_sim_report_json(&text, NULL, "x", 1), CUTUNE_EINVAL);
}

/* ---- check, occupancy, devices ----------------------------------------------------- */

static void space_summary_json_promised(void **state)
{
    (void)state;
    static const char text[] = "kernel k from \"k.cu\" {\n"
                               "    param bx in [32, 64, 128];\n"
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
    assert_int_equal(cutune_space_summary_json(&out, spec, &size, 0.5), CUTUNE_OK);
    json_t *o = parsed(out);
    char *doc = doc_part("`--format json` prints one object: `spec`", "\n\n");
    static const char *const nested[] = {"params", "device", NULL};
    assert_true(keys_promised(o, doc, nested) >= 15);
    free(doc);
    assert_int_equal(json_integer_value(json_object_get(o, "raw")), 3);
    assert_int_equal(json_integer_value(json_object_get(o, "valid")), 2); /* 32 and 64 */
    assert_int_equal(json_integer_value(json_object_get(o, "constraints")), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(o, "params"), 0), "route")),
                        "define");
    assert_true(json_is_true(json_object_get(json_object_get(o, "device"), "assumed"))); /* no GPU read */
    assert_non_null(json_object_get(json_object_get(json_object_get(o, "device"), "attributes"), "sm_count"));
    json_decref(o);
    cutune_free(out);
    cutune_spec_free(spec);
}

static void occupancy_json_promised(void **state)
{
    (void)state;
    cutune_occupancy occ;
    assert_int_equal(cutune_occupancy_for_arch(&occ, "sm_90", 40, 256, 0), CUTUNE_OK);
    char *out = NULL;
    assert_int_equal(cutune_occupancy_json(&out, &occ, -1, 40, 256, 0), CUTUNE_OK);
    json_t *o = parsed(out);
    char *doc = doc_part("`--format json` prints one\nobject with `arch`", "\n\n");
    static const char *const nested[] = {"blocks_allowed_by", NULL};
    assert_true(keys_promised(o, doc, nested) >= 15);
    free(doc);
    assert_null(json_object_get(o, "device")); /* an architecture was asked */
    assert_int_equal(json_integer_value(json_object_get(o, "threads")), 256);
    assert_true(json_is_null(json_object_get(o, "unlaunchable")));
    json_decref(o);
    cutune_free(out);
}

static void devices_json_promised(void **state)
{
    (void)state;
    cutune_device d[2];
    memset(d, 0, sizeof d);
    d[0].name = "GPU \"A\"";
    d[0].arch = "sm_90";
    d[0].sm_count = 132;
    d[1].ordinal = 1;
    d[1].name = "B";
    d[1].arch = "sm_80";
    char *out = NULL;
    assert_int_equal(cutune_devices_json(&out, d, 2), CUTUNE_OK);
    json_t *a = parsed(out);
    assert_int_equal(json_array_size(a), 2);
    char *doc = doc_part("(`--format json`: an array of objects with `ordinal`", ")");
    assert_true(keys_promised(json_array_get(a, 0), doc, NULL) >= 9);
    free(doc);
    assert_string_equal(json_string_value(json_object_get(json_array_get(a, 0), "name")), "GPU \"A\"");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(a, 1), "ordinal")), 1);
    json_decref(a);
    cutune_free(out);
    assert_int_equal(cutune_devices_json(&out, NULL, 0), CUTUNE_OK); /* none: an empty array */
    assert_string_equal(out, "[]");
    cutune_free(out);
}

/* ---- emit header --spec: the block of a results file's kernel --------------------- */

static void select_kernel_of_results(void **state)
{
    (void)state;
    /* test/emit/h100.json records sum_matrix with the int params block_x, tile_y, maxrreg */
    static const char two[] = "kernel other from \"k.cu\" { param block_x in [32]; block 32; grid 1; }\n"
                              "kernel sum_matrix from \"k.cu\" { param block_x in [32]; param tile_y in [1];\n"
                              "    param maxrreg in [0] as none; block block_x; grid 1; }\n";
    static const char renamed[] = "kernel sum_matrix from \"k.cu\" { param block_x in [32]; param tile in [1];\n"
                                  "    param maxrreg in [0] as none; block block_x; grid 1; }\n";
    cutune_load_options opts = CUTUNE_LOAD_OPTIONS_INIT;
    opts.skip_file_checks = 1;
    cutune_tune_result *r = NULL;
    assert_int_equal(cutune_results_load(&r, CUTUNE_SOURCE_DIR "/test/emit/h100.json"), CUTUNE_OK);
    cutune_spec *spec = NULL;
    assert_int_equal(cutune_spec_load_string(&spec, "two.tune", two, strlen(two), &opts), CUTUNE_OK);
    assert_int_equal(cutune_spec_select_kernel_of(spec, r), CUTUNE_OK);
    assert_int_equal(cutune_spec_kernel_selected(spec), 1);
    cutune_spec_free(spec);
    assert_int_equal(cutune_spec_load_string(&spec, "renamed.tune", renamed, strlen(renamed), &opts), CUTUNE_OK);
    assert_int_equal(cutune_spec_select_kernel_of(spec, r), CUTUNE_EINVAL); /* a param renamed */
    assert_non_null(strstr(cutune_last_error(), "sum_matrix"));
    cutune_spec_free(spec);
    cutune_tune_result_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(variant_json_typed),       cmocka_unit_test(variant_csv_one_rule),
        cmocka_unit_test(analysis_json_promised),   cmocka_unit_test(analysis_csv_header_documented),
        cmocka_unit_test(sim_json_nulls),           cmocka_unit_test(space_summary_json_promised),
        cmocka_unit_test(occupancy_json_promised),  cmocka_unit_test(devices_json_promised),
        cmocka_unit_test(select_kernel_of_results),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
