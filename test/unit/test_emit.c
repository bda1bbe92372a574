/* test_emit.c - the C-expression printer (compiler/cexpr.c) and the emitters over
 * stored results (api/cutune_results.c, emit/header*.c, emit_csv.c, t4.c). Every expected text
 * is written by hand from the language's rules (docs/language.md) and the fixtures in
 * test/emit/. */
#include "helpers.h"

#include <math.h>
#include <unistd.h>

#include "results/result.h"
#include "compiler/cexpr.h"
#include "cutune.h"
#include "emit_results.h"

static const char spec_text[] = "kernel k from \"k.cu\" {\n"
                                "    param bx in [32, 64, 128] as none;\n"
                                "    param ty in [1, 2, 4];\n"
                                "    param f in [0.5, 2.0];\n"
                                "    param name in [\"a\", \"b\"];\n"
                                "    let nx = 4096, ny = 1024, r = 0.25, s = \"x\";\n"
                                "    let per = bx * ty;\n"
                                "    let e_cdiv = cdiv(nx, bx);\n"
                                "    let e_floordiv = ny // ty;\n"
                                "    let e_mod = nx % bx;\n"
                                "    let e_div = nx / bx;\n"
                                "    let e_pow = nx ** 2;\n"
                                "    let e_min = min(nx, bx, ny);\n"
                                "    let e_chain = 1 <= bx <= nx;\n"
                                "    let e_cond = name == \"a\" ? nx : ny;\n"
                                "    let e_str = s == \"x\";\n"
                                "    let e_float = f * r * nx;\n"
                                "    let e_ceil = ceil(r * nx);\n"
                                "    let e_derived = per * nx;\n"
                                "    let e_neg = -nx + bx;\n"
                                "    let e_abs = abs(nx - 5000);\n"
                                "    let e_noparam = bx * ty;\n"
                                "    block bx;\n"
                                "    grid (cdiv(nx, bx), max(1, ny // ty));\n"
                                "}\n";

static int let_of(const model *m, const char *name)
{
    for (int i = 0; i < m->nlets; i++)
        if (strcmp(m->lets[i].name, name) == 0)
            return i;
    fail_msg("no let %s", name);
    return -1;
}

/* Prints let `name`'s expression with the params bx = 64, ty = 2, f = 0.5, name = "a"
 * (literal) or as fields of `c` (struct), and compares with `want`. */
static void expect_print(checked *c, const char *name, bool literal, const char *want, bool math, bool str)
{
    const model *m = c->m;
    value vals[4] = {value_int(64), value_int(2), value_float(0.5), value_string("a")};
    const char *texts[4] = {"c.bx", "c.ty", "c.f", "c.name"};
    bool used[64] = {false};
    cexpr_ctx ctx = {m, c->ast, literal ? vals : NULL, texts, used, false, false, NULL, 0};
    strbuf out = STRBUF_INIT;
    eval_error err;
    int rc = cexpr_print(&ctx, m->lets[let_of(m, name)].expr, &out, &err);
    if (rc != 0)
        fail_msg("%s: %s", name, err.message);
    if (strcmp(sb_cstr(&out), want) != 0)
        fail_msg("%s (%s): got\n  %s\nwant\n  %s", name, literal ? "literal" : "struct", sb_cstr(&out), want);
    assert_int_equal(ctx.needs_math, math);
    assert_int_equal(ctx.needs_string, str);
    sb_free(&out);
}

static void test_cexpr_literal(void **state)
{
    (void)state;
    checked *c = check_spec(spec_text);
    if (!c->m)
        fail_msg("%s", sb_cstr(&c->text));
    expect_print(c, "e_cdiv", true, "cdiv(nx, 64)", false, false);
    expect_print(c, "e_floordiv", true, "floordiv(ny, 2)", false, false);
    expect_print(c, "e_mod", true, "mod(nx, 64)", false, false);
    expect_print(c, "e_div", true, "((double)nx) / 64", false, false);
    expect_print(c, "e_pow", true, "nx * nx", false, false);
    expect_print(c, "e_min", true, "ny < (64 < nx ? 64 : nx) ? ny : (64 < nx ? 64 : nx)", false, false);
    expect_print(c, "e_chain", true, "(1 <= 64) && (64 <= nx)", false, false);
    expect_print(c, "e_cond", true, "1 ? nx : ny", false, false);
    expect_print(c, "e_str", true, "strcmp(s, \"x\") == 0", false, true);
    expect_print(c, "e_float", true, "(0.5 * r) * nx", false, false);
    expect_print(c, "e_ceil", true, "(long long)ceil((r * nx))", true, false);
    expect_print(c, "e_derived", true, "128 * nx", false, false);
    expect_print(c, "e_neg", true, "(-nx) + 64", false, false);
    expect_print(c, "e_abs", true, "(nx - 5000) < 0 ? -(nx - 5000) : (nx - 5000)", false, false);
    expect_print(c, "e_noparam", true, "128", false, false); /* reads no let: folded */
    checked_free(c);
}

static void test_cexpr_struct(void **state)
{
    (void)state;
    checked *c = check_spec(spec_text);
    assert_non_null(c->m);
    expect_print(c, "e_cdiv", false, "cdiv(nx, c.bx)", false, false);
    expect_print(c, "e_floordiv", false, "floordiv(ny, c.ty)", false, false);
    expect_print(c, "e_cond", false, "(strcmp(c.name, \"a\") == 0) ? nx : ny", false, true);
    expect_print(c, "e_derived", false, "(c.bx * c.ty) * nx", false, false);
    expect_print(c, "e_noparam", false, "c.bx * c.ty", false, false);
    checked_free(c);
}

static void test_cexpr_lets_used(void **state)
{
    (void)state;
    checked *c = check_spec(spec_text);
    assert_non_null(c->m);
    const model *m = c->m;
    value vals[4] = {value_int(64), value_int(2), value_float(0.5), value_string("a")};
    bool used[64] = {false};
    cexpr_ctx ctx = {m, c->ast, vals, NULL, used, false, false, NULL, 0};
    assert_true(cexpr_reads_lets(&ctx, m->grid[0]));
    assert_false(cexpr_reads_lets(&ctx, m->block[0]));
    strbuf out = STRBUF_INIT;
    eval_error err;
    assert_int_equal(cexpr_print(&ctx, m->grid[1], &out, &err), 0);
    assert_string_equal(sb_cstr(&out), "floordiv(ny, 2) > 1 ? floordiv(ny, 2) : 1");
    assert_true(used[let_of(m, "ny")]);
    assert_false(used[let_of(m, "nx")]);
    /* Without the syntax tree, constants are values: nothing reads a let. */
    cexpr_ctx bare = {m, NULL, vals, NULL, NULL, false, false, NULL, 0};
    assert_false(cexpr_reads_lets(&bare, m->grid[0]));
    sb_reset(&out);
    assert_int_equal(cexpr_print(&bare, m->grid[0], &out, &err), 0);
    assert_string_equal(sb_cstr(&out), "64");
    sb_free(&out);
    checked_free(c);
}

/* More than 8 comparisons in a chain cannot be written as C: the printer refuses them
 * with a message (a call of more than 8 arguments too, but the checker refuses those
 * first: min() takes 1 to 8 arguments). */
static void test_cexpr_too_many(void **state)
{
    (void)state;
    checked *c = check_spec("kernel k from \"k.cu\" {\n"
                            "    param bx in [32, 64];\n"
                            "    let n = 4096;\n"
                            "    let e_chain = 1 <= bx <= n <= n <= n <= n <= n <= n <= n;\n"
                            "    let e_eight = 1 <= bx <= n <= n <= n <= n <= n <= n;\n"
                            "    block bx;\n"
                            "    grid n;\n"
                            "}\n");
    if (!c->m)
        fail_msg("%s", sb_cstr(&c->text));
    const model *m = c->m;
    value vals[1] = {value_int(64)};
    cexpr_ctx ctx = {m, c->ast, vals, NULL, NULL, false, false, NULL, 0};
    strbuf out = STRBUF_INIT;
    eval_error err;
    assert_int_equal(cexpr_print(&ctx, m->lets[let_of(m, "e_chain")].expr, &out, &err), -1);
    assert_string_equal(err.message, "too many comparisons to write as C");
    sb_reset(&out);
    assert_int_equal(cexpr_print(&ctx, m->lets[let_of(m, "e_eight")].expr, &out, &err), 0);
    assert_string_equal(sb_cstr(&out), "(1 <= 64) && (64 <= n) && (n <= n) && (n <= n) && (n <= n) && (n <= n) && "
                                       "(n <= n)");
    sb_free(&out);
    checked_free(c);
}

static void test_cexpr_literals(void **state)
{
    (void)state;
    strbuf s = STRBUF_INIT;
    cexpr_string("a\"b\\c?\?=d\n\x01", &s);
    assert_string_equal(sb_cstr(&s), "\"a\\\"b\\\\c\\?\\?=d\\n\\001\"");
    sb_reset(&s);
    cexpr_value(value_int(3000000000LL), &s);
    sb_add(&s, " ");
    cexpr_value(value_int(-5), &s);
    sb_add(&s, " ");
    cexpr_value(value_float(2.0), &s);
    sb_add(&s, " ");
    cexpr_value(value_float(0.1), &s);
    sb_add(&s, " ");
    cexpr_value(value_bool(true), &s);
    assert_string_equal(sb_cstr(&s), "3000000000LL (-5) 2.0 0.1 1");
    sb_reset(&s);
    cexpr_ident("register", &s);
    sb_add(&s, " ");
    cexpr_ident("block_x", &s);
    assert_string_equal(sb_cstr(&s), "register_ block_x");
    sb_free(&s);
}

/* ---- stored results ---- */

static void test_results_load(void **state)
{
    (void)state;
    cutune_tune_result *r = load("h100.json");
    assert_int_equal(cutune_tune_count(r), 4);
    const cutune_measurement *b = cutune_tune_best(r);
    assert_non_null(b);
    assert_ptr_equal(b, cutune_tune_at(r, 2));
    assert_int_equal(b->variant->ordinal, 11);
    assert_string_equal(b->variant->values[0], "64");
    assert_string_equal(b->variant->values[2], "32");
    assert_int_equal(b->variant->ncommon_options, 1); /* "-std=c++17", shared by all four */
    assert_int_equal(b->variant->block_dims, 1);
    assert_int_equal(b->variant->grid_dims, 2);
    assert_true(b->timed && b->median_ms == 0.5 && b->objective == 0.5);
    assert_string_equal(cutune_tune_kernel(r), "sum_matrix");
    assert_string_equal(cutune_tune_param_name(r, 1), "tile_y");
    assert_null(cutune_tune_param_name(r, 3));
    assert_int_equal(cutune_tune_device(r)->cc, 90);
    const cutune_tune_summary *s = cutune_tune_summary_of(r);
    assert_int_equal(s->wrong, 1);
    assert_int_equal(s->failed, 1);
    assert_false(s->maximize);
    assert_string_equal(s->objective_name, "time_ms");
    const cutune_measurement *ce = cutune_tune_at(r, 3);
    assert_string_equal(cutune_outcome_name(cutune_measurement_outcome(ce)), "compile error");
    assert_non_null(strchr(ce->reason, '\n'));
    assert_int_equal(ce->driver_blocks_per_sm, -1);
    assert_false(cutune_tune_at(r, 0)->timed);
    cutune_tune_result_free(r);

    r = load("nowinner.json");
    assert_null(cutune_tune_best(r));
    char *text = NULL;
    const cutune_tune_result *rs[1] = {r};
    assert_int_equal(cutune_emit_header(&text, NULL, rs, 1, NULL), CUTUNE_EINVAL);
    assert_null(text);
    assert_non_null(strstr(cutune_last_error(), "no variant ran correctly"));
    cutune_tune_result_free(r);

    assert_int_equal(cutune_results_load(&r, "/nonexistent/x.json"), CUTUNE_EIO);
    assert_null(r);
    assert_non_null(strstr(cutune_last_error(), "cannot read"));
}

static void test_header_without_spec(void **state)
{
    (void)state;
    cutune_tune_result *r = load("h100.json");
    const cutune_tune_result *rs[1] = {r};
    char *text = NULL;
    assert_int_equal(cutune_emit_header(&text, NULL, rs, 1, NULL), CUTUNE_OK);
    assert_non_null(strstr(text, "\n#define SUM_MATRIX_TUNED 1\n"));
    assert_non_null(strstr(text, "\n#define SUM_MATRIX_BLOCK_X 64\n#define SUM_MATRIX_TILE_Y 4\n"
                                 "#define SUM_MATRIX_MAXRREG 32\n"));
    assert_non_null(strstr(text, "\n#define SUM_MATRIX_GRID_DIM_X 64\n#define SUM_MATRIX_GRID_DIM_Y 256\n"));
    assert_non_null(strstr(text, "\n#define SUM_MATRIX_SMEM_BYTES 264\n"));
    assert_non_null(strstr(text, "\n#define SUM_MATRIX_MAXRREGCOUNT 32\n"
                                 "#define SUM_MATRIX_COMPILE_OPTIONS \"--maxrregcount=32\"\n"
                                 "#define SUM_MATRIX_DEFINES \"-DTILE_Y=4\"\n"));
    assert_non_null(strstr(text, "runner-up #10 block_x=64 tile_y=4 maxrreg=0"));
    assert_null(strstr(text, "grid_dim_x("));
    cutune_free(text);
    cutune_header_options opts = {CUTUNE_HEADER_OPTIONS_VERSION, "x y", NULL, NULL};
    assert_int_equal(cutune_emit_header(&text, NULL, rs, 1, &opts), CUTUNE_EINVAL);
    cutune_tune_result_free(r);
}

/* The winner's energy, when it was measured, goes into the header (its comment and
 * the config's energy_j), from the results file's own figure; a run without energy
 * gives 0 there. */
static void test_header_energy(void **state)
{
    (void)state;
    const char *path = CUTUNE_SOURCE_DIR "/test/data/report-sgemm-energy-h100.json";
    json_t *root = json_load_file(path, 0, NULL);
    assert_non_null(root);
    json_t *best =
        json_array_get(json_object_get(root, "results"),
                       (size_t)json_integer_value(json_object_get(json_object_get(root, "summary"), "best")));
    double j = json_number_value(json_object_get(json_object_get(best, "energy"), "J_per_launch"));
    double w = json_number_value(json_object_get(json_object_get(best, "energy"), "W"));
    json_decref(root);
    assert_true(j > 0 && w > 0);
    cutune_tune_result *r = NULL;
    assert_int_equal(cutune_results_load(&r, path), CUTUNE_OK);
    const cutune_tune_result *rs[1] = {r};
    char *text = NULL, want[128];
    assert_int_equal(cutune_emit_header(&text, NULL, rs, 1, NULL), CUTUNE_OK);
    snprintf(want, sizeof want, "energy %.6g J per launch at %.4g W", j, w);
    assert_non_null(strstr(text, want));
    assert_non_null(strstr(text, "double energy_j;"));
    /* the table's initializer ends with median, objective, energy: the last is the figure */
    const char *table = strstr(text, "_config table[");
    assert_non_null(table);
    const char *row = strstr(table, "\"-DBM=");
    assert_non_null(row);
    const char *end = strchr(row, '}');
    assert_non_null(end);
    const char *last = end;
    while (last > row && last[-1] != ' ')
        last--;
    assert_true(fabs(strtod(last, NULL) - j) <= 1e-12 * j);
    cutune_free(text);
    cutune_tune_result_free(r);

    cutune_tune_result *plain = load("h100.json"); /* no energy */
    rs[0] = plain;
    assert_int_equal(cutune_emit_header(&text, NULL, rs, 1, NULL), CUTUNE_OK);
    assert_null(strstr(text, "J per launch"));
    cutune_free(text);
    cutune_tune_result_free(plain);
}

static void test_csv(void **state)
{
    (void)state;
    cutune_tune_result *r = load("a100.json");
    char *text = NULL;
    assert_int_equal(cutune_emit_csv(&text, r), CUTUNE_OK);
    /* The params come right after index and best; a param named like a fixed column
     * (block_x) gets the prefix param_. */
    assert_non_null(strstr(text, "index,best,param_block_x,tile_y,maxrreg,status,reason,kernel,block_x,"));
    assert_non_null(strstr(text, "\r\n2,1,32,2,0,ok,,sum_matrix,32,1,1,128,512,1,136,14,0,0,0,0,0.5,blocks,32,"
                                 "32,0.9,0.89,0.92,0.895,0.905,0.011,10,1,0,0.9,1,0,0.2,0,0,0.1,0.05,0,0,,,-DTILE_Y=2,"
                                 "-std=c++17\r\n"));
    assert_non_null(strstr(text, "\r\n3,0,32,2,32,ok,"));
    /* launches: a file written before they were counted reads as 0 (above) */
    /* energy_J and power_W: empty in a file that measured no energy (above); no hw:
     * columns in a file without hardware counters: the header ends as it always did */
    assert_non_null(strstr(text, ",gpu_seconds,timing_seconds,launches,resumed,energy_J,power_W,defines,options\r\n"));
    cutune_free(text);
    cutune_tune_result_free(r);
}

/* The last n comma-separated fields of line [p, end) into f (each at most 63 bytes). */
static void last_fields(char f[][64], int n, const char *p, const char *end)
{
    for (int k = n - 1; k >= 0; k--) {
        const char *comma = end;
        while (comma > p && comma[-1] != ',')
            comma--;
        assert_true(comma > p);
        snprintf(f[k], 64, "%.*s", (int)(end - comma), comma);
        end = comma - 1;
    }
}

/* A results file with hardware counters (a real H100 run): one hw:NAME column per
 * counter after the others, in settings.profile's order, each cell the value the JSON
 * holds (read here from the JSON), empty for a variant without counters. */
static void test_csv_counters(void **state)
{
    (void)state;
    const char *path = CUTUNE_SOURCE_DIR "/test/data/report-hw-tiny-h100.json";
    cutune_tune_result *r = NULL;
    assert_int_equal(cutune_results_load(&r, path), CUTUNE_OK);
    char *text = NULL;
    assert_int_equal(cutune_emit_csv(&text, r), CUTUNE_OK);
    cutune_tune_result_free(r);
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    assert_non_null(root);
    json_t *names = json_object_get(json_object_get(json_object_get(root, "settings"), "profile"), "metrics");
    int n = (int)json_array_size(names);
    assert_int_equal(n, 9);
    char(*f)[64] = calloc((size_t)n, sizeof *f);
    assert_non_null(f);
    /* the header: the fixed columns end as before, then the counters */
    const char *line = text, *end = strstr(line, "\r\n");
    assert_non_null(strstr(text, ",energy_J,power_W,defines,options,hw:"));
    last_fields(f, n, line, end);
    for (int k = 0; k < n; k++) {
        char want[64];
        snprintf(want, sizeof want, "hw:%s", json_string_value(json_array_get(names, (size_t)k)));
        assert_string_equal(f[k], want);
    }
    size_t i;
    json_t *e;
    int profiled = 0, unprofiled = 0;
    json_array_foreach(json_object_get(root, "results"), i, e)
    {
        line = end + 2;
        end = strstr(line, "\r\n");
        assert_non_null(end);
        last_fields(f, n, line, end);
        json_t *vals = json_object_get(json_object_get(e, "hw"), "metrics");
        profiled += json_is_object(vals);
        unprofiled += !json_is_object(vals);
        for (int k = 0; k < n; k++) {
            if (!json_is_object(vals)) {
                assert_string_equal(f[k], "");
                continue;
            }
            json_t *v = json_object_get(vals, json_string_value(json_array_get(names, (size_t)k)));
            char *stop;
            double got = strtod(f[k], &stop);
            if (*stop || stop == f[k] || got != json_number_value(v))
                fail_msg("entry %zu, %s: '%s' is not %.17g", i, json_string_value(json_array_get(names, (size_t)k)),
                         f[k], json_number_value(v));
        }
    }
    assert_string_equal(end, "\r\n"); /* one row per entry, no more */
    assert_int_equal(profiled, 8);    /* the 8 that ran correctly; the 7 others have none */
    assert_int_equal(unprofiled, 7);
    free(f);
    json_decref(root);
    cutune_free(text);
}

/* Writes h100.json with `from` replaced by `to` (once) to a temporary file; returns
 * its path (static storage). */
static const char *crafted(const char *from, const char *to)
{
    static char out[256];
    char in[512];
    snprintf(in, sizeof in, "%s/test/emit/h100.json", CUTUNE_SOURCE_DIR);
    FILE *f = fopen(in, "r");
    assert_non_null(f);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    char *at = strstr(text, from);
    assert_non_null(at);
    snprintf(out, sizeof out, "/tmp/cutune-test-emit-%d.json", (int)getpid());
    f = fopen(out, "w");
    assert_non_null(f);
    fprintf(f, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    fclose(f);
    return out;
}

/* A results file whose summary.best names an entry that did not run correctly (wrong,
 * failed, pruned, untimed) is refused: such an entry never becomes a header's winner. */
static void test_best_must_have_run_correctly(void **state)
{
    (void)state;
    cutune_tune_result *r = NULL;
    static const char *const cases[][3] = {
        {"\"best\": 2", "\"best\": 0", "did not run correctly"}, /* entry 0 is wrong */
        {"\"best\": 2", "\"best\": 3", "did not run correctly"}, /* entry 3 a compile error */
        {"\"reps\": 10, \"batch\": 1, \"pruned\": false", "\"reps\": 3, \"batch\": 1, \"pruned\": true",
         NULL}, /* entry 1 pruned: not the best */
        {"\"best\": 2", "\"best\": \"2\"", "neither an index"},
        {"\"best\": 2", "\"best\": 1.0", "neither an index"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        const char *path = crafted(cases[k][0], cases[k][1]);
        int rc = cutune_results_load(&r, path);
        if (!cases[k][2]) { /* a pruned entry that is not the best loads */
            assert_int_equal(rc, CUTUNE_OK);
            cutune_tune_result_free(r);
            continue;
        }
        assert_int_equal(rc, CUTUNE_EIO);
        assert_null(r);
        if (!strstr(cutune_last_error(), cases[k][2]) || !strstr(cutune_last_error(), path))
            fail_msg("case %zu: %s", k, cutune_last_error());
    }
    /* The pruned entry named best: refused. */
    char both[2][128];
    const char *path = crafted("\"best\": 2", "\"best\": 1");
    assert_int_equal(cutune_results_load(&r, path), CUTUNE_OK); /* entry 1 is ok and timed: a valid pick */
    cutune_tune_result_free(r);
    snprintf(both[0], sizeof both[0], "%s", "\"reps\": 10, \"batch\": 1, \"pruned\": false");
    snprintf(both[1], sizeof both[1], "%s", "\"reps\": 3, \"batch\": 1, \"pruned\": true");
    FILE *f = fopen(path, "r");
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    char *at = strstr(text, both[0]);
    assert_non_null(at);
    f = fopen(path, "w");
    fprintf(f, "%.*s%s%s", (int)(at - text), text, both[1], at + strlen(both[0]));
    fclose(f);
    assert_int_equal(cutune_results_load(&r, path), CUTUNE_EIO);
    assert_non_null(strstr(cutune_last_error(), "was not timed in full"));
    /* A negative or fractional index is not trusted either. */
    path = crafted("\"index\": 10,", "\"index\": -10,");
    assert_int_equal(cutune_results_load(&r, path), CUTUNE_EIO);
    assert_non_null(strstr(cutune_last_error(), "\"index\" is not a non-negative integer"));
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cexpr_literal),
        cmocka_unit_test(test_cexpr_struct),
        cmocka_unit_test(test_cexpr_lets_used),
        cmocka_unit_test(test_cexpr_literals),
        cmocka_unit_test(test_cexpr_too_many),
        cmocka_unit_test(test_results_load),
        cmocka_unit_test(test_header_without_spec),
        cmocka_unit_test(test_csv),
        cmocka_unit_test(test_best_must_have_run_correctly),
        cmocka_unit_test(test_csv_counters),
        cmocka_unit_test(test_header_energy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
