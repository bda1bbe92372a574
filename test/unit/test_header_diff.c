/* test_header_diff.c - the header's C and cutune's evaluator agree (docs/header.md,
 * "Arithmetic"). Random integer expressions over three lets (negative operands, shifts of
 * negative values, shift counts past 63, divisors of both signs and zero) go into a
 * spec's grid; cutune evaluates each (compiler/eval.c), and emits the header whose
 * P_grid_dim_x(x, y, z) computes it in C. Every header is compiled into one program with
 * UBSan fatal (cc -fsanitize=undefined -fno-sanitize-recover=all) that calls each
 * function with the lets' values and compares with cutune's value. A second part calls
 * the header's helpers (P_floordiv, P_mod, P_cdiv, P_shl, P_shr) on every pair of edge
 * values (LLONG_MIN, -1, 0, 63, 64, LLONG_MAX, ...): cutune's value where it has one, 0
 * where it refuses, and never undefined behaviour. Skipped (77) without a C compiler;
 * CUTUNE_KEEP=1 keeps the generated program (in /tmp/cutune-diff-*). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "compiler/eval.h"
#include "compiler/spec.h"
#include "cutune.h"

/* The results the headers are of: kernel sum_matrix, int params block_x, tile_y,
 * maxrreg; the winner's are 64, 4, 32. */
static cutune_tune_result *fixture;
static char dir[64];

static const char spec_head[] = "kernel sum_matrix from \"k.cu\" {\n"
                                "    param block_x in [32, 64, 128];\n"
                                "    param tile_y in [1, 2, 4];\n"
                                "    param maxrreg in [0, 32];\n"
                                "    block (block_x, tile_y);\n";

/* A small deterministic generator (the same expressions on every machine). */
static uint64_t seed = 0x9e3779b97f4a7c15u;
static int rnd(int n)
{
    seed = seed * 6364136223846793005u + 1442695040888963407u;
    return (int)((seed >> 33) % (uint64_t)n);
}

/* Appends a random expression of depth <= depth over x, y, z to out. */
static void gen(strbuf *out, int depth)
{
    if (depth == 0 || rnd(4) == 0) {
        int k = rnd(5);
        if (k < 3)
            sb_add(out, k == 0 ? "x" : k == 1 ? "y" : "z");
        else
            sb_printf(out, "(%d)", rnd(141) - 70);
        return;
    }
    static const char *const ops[] = {"+", "-", "*", "//", "%", "<<", ">>", "cdiv", "neg"};
    const char *op = ops[rnd(9)];
    if (strcmp(op, "neg") == 0) {
        sb_add(out, "(-");
        gen(out, depth - 1);
        sb_add(out, ")");
    } else if (strcmp(op, "cdiv") == 0) {
        sb_add(out, "cdiv(");
        gen(out, depth - 1);
        sb_add(out, ", ");
        gen(out, depth - 1);
        sb_add(out, ")");
    } else if (op[0] == '<' || op[0] == '>') { /* a shift count: z, or a literal from -1 to 70 */
        sb_add(out, "(");
        gen(out, depth - 1);
        if (rnd(2))
            sb_printf(out, " %s z)", op);
        else
            sb_printf(out, " %s %d)", op, rnd(72) - 1);
    } else {
        sb_add(out, "(");
        gen(out, depth - 1);
        sb_printf(out, " %s ", op);
        gen(out, depth - 1);
        sb_add(out, ")");
    }
}

/* Loads spec `text`; NULL when cutune refuses it. */
static cutune_spec *load(const char *text)
{
    cutune_load_options opts = CUTUNE_LOAD_OPTIONS_INIT;
    opts.skip_file_checks = 1;
    cutune_spec *spec = NULL;
    if (cutune_spec_load_string(&spec, "diff.tune", text, strlen(text), &opts) != CUTUNE_OK) {
        cutune_spec_free(spec);
        return NULL;
    }
    return spec;
}

/* cutune's value of the spec's grid x with the fixture's winner's params; false when the
 * evaluator refuses it. */
static bool evaluate(const cutune_spec *spec, int64_t *out)
{
    value params[3] = {value_int(64), value_int(4), value_int(32)};
    eval_env env = {spec->model, params, false, 0.0, NULL, false, 0.0, 0.0};
    eval_error err;
    return eval_int(spec->model->grid[0], &env, out, &err) == 0;
}

/* Writes the header of `spec` with prefix P into dir/P.h. */
static void write_header(cutune_spec *spec, const char *P)
{
    const cutune_tune_result *rs[1] = {fixture};
    cutune_header_options opts = {CUTUNE_HEADER_OPTIONS_VERSION, P, NULL, NULL};
    char *text = NULL;
    if (cutune_emit_header(&text, spec, rs, 1, &opts) != CUTUNE_OK)
        fail_msg("header %s: %s", P, cutune_last_error());
    char path[128];
    snprintf(path, sizeof path, "%s/%s.h", dir, P);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    cutune_free(text);
}

static const int64_t edges[] = {INT64_MIN,
                                INT64_MIN + 1,
                                -4611686018427387904LL,
                                -65,
                                -64,
                                -63,
                                -7,
                                -2,
                                -1,
                                0,
                                1,
                                2,
                                3,
                                7,
                                62,
                                63,
                                64,
                                4611686018427387904LL,
                                INT64_MAX};
#define NEDGES (sizeof edges / sizeof *edges)

/* An int64 as spec text (the language has no literal for INT64_MIN). */
static void spec_int(strbuf *out, int64_t v)
{
    if (v == INT64_MIN)
        sb_add(out, "(-9223372036854775807 - 1)");
    else
        sb_printf(out, "(%lld)", (long long)v);
}

/* An int64 as C text. */
static void c_int(strbuf *out, int64_t v)
{
    if (v == INT64_MIN)
        sb_add(out, "(-9223372036854775807LL - 1)");
    else
        sb_printf(out, "%lldLL", (long long)v);
}

static void test_differential(void **state)
{
    (void)state;
    strbuf prog = STRBUF_INIT;
    sb_add(&prog, "#include <stdio.h>\n");
    strbuf body = STRBUF_INIT;
    int accepted = 0, refused = 0, attempts = 0, with_op[8] = {0};
    static const char *const op_text[] = {" // ", " % ", " << ", " >> ", "cdiv(", " * ", "(-", " - "};
    while (accepted < 150 && attempts < 2000) {
        attempts++;
        int64_t x = rnd(201) - 100, y = rnd(21) - 10, z = rnd(69) - 2;
        strbuf e = STRBUF_INIT, text = STRBUF_INIT;
        gen(&e, 1 + rnd(3));
        sb_printf(&text, "%s    let x = %lld, y = %lld, z = %lld;\n    grid (%s) + (x + y + z) * 0 + maxrreg * 0;\n}\n",
                  spec_head, (long long)x, (long long)y, (long long)z, sb_cstr(&e));
        cutune_spec *spec = load(sb_cstr(&text));
        int64_t want;
        if (!spec || !evaluate(spec, &want)) {
            refused++;
        } else {
            char P[16];
            snprintf(P, sizeof P, "T%d", accepted);
            write_header(spec, P);
            sb_printf(&prog, "#include \"%s.h\"\n", P);
            sb_printf(&body, "    if (%s_grid_dim_x(%lldLL, %lldLL, %lldLL) != ", P, (long long)x, (long long)y,
                      (long long)z);
            c_int(&body, want);
            sb_printf(&body, ") {\n        printf(\"%s: %%lld, cutune %%lld: ", P);
            for (const char *p = sb_cstr(&e); *p; p++) { /* the expression, as printf's format text */
                if (*p == '%')
                    sb_addc(&body, '%');
                sb_addc(&body, *p);
            }
            sb_printf(&body, "\\n\", %s_grid_dim_x(%lldLL, %lldLL, %lldLL), (long long)", P, (long long)x, (long long)y,
                      (long long)z);
            c_int(&body, want);
            sb_add(&body, ");\n        bad++;\n    }\n");
            for (int k = 0; k < 8; k++)
                with_op[k] += strstr(sb_cstr(&e), op_text[k]) != NULL;
            accepted++;
        }
        cutune_spec_free(spec);
        sb_free(&e);
        sb_free(&text);
    }
    assert_int_equal(accepted, 150);
    assert_true(refused > 0); /* zero divisors, shift counts past 63, overflows */
    for (int k = 0; k < 8; k++)
        if (with_op[k] < 10)
            fail_msg("only %d accepted expressions with '%s'", with_op[k], op_text[k]);

    /* The helpers on every pair of edge values. */
    static const char *const ops[] = {"//", "%", "cdiv", "<<", ">>"};
    static const char *const helpers[] = {"floordiv", "mod", "cdiv", "shl", "shr"};
    strbuf text = STRBUF_INIT;
    sb_printf(&text,
              "%s    let a = 1, b = 1;\n    grid (a // b) + (a %% b) + cdiv(a, b) + (a << b) + (a >> b) + "
              "maxrreg * 0;\n}\n",
              spec_head);
    cutune_spec *spec = load(sb_cstr(&text));
    assert_non_null(spec);
    write_header(spec, "EDGE");
    cutune_spec_free(spec);
    sb_add(&prog, "#include \"EDGE.h\"\n");
    int pairs = 0, edge_refused = 0;
    for (int o = 0; o < 5; o++)
        for (size_t i = 0; i < NEDGES; i++)
            for (size_t j = 0; j < NEDGES; j++) {
                sb_reset(&text);
                sb_printf(&text, "%s    let a = ", spec_head);
                spec_int(&text, edges[i]);
                sb_add(&text, ", b = ");
                spec_int(&text, edges[j]);
                sb_printf(&text, ";\n    grid %s%s%s%s + maxrreg * 0;\n}\n", o == 2 ? "cdiv(a, b)" : "(a ",
                          o == 2 ? "" : ops[o], o == 2 ? "" : " b", o == 2 ? "" : ")");
                spec = load(sb_cstr(&text));
                int64_t want = 0; /* refused: the helper gives 0 */
                if (!spec || !evaluate(spec, &want)) {
                    want = 0;
                    edge_refused++;
                }
                cutune_spec_free(spec);
                sb_printf(&body, "    if (EDGE_%s(", helpers[o]);
                c_int(&body, edges[i]);
                sb_add(&body, ", ");
                c_int(&body, edges[j]);
                sb_add(&body, ") != ");
                c_int(&body, want);
                sb_printf(&body, ") {\n        printf(\"EDGE_%s(%lld, %lld) is %%lld, want %lld\\n\", EDGE_%s(",
                          helpers[o], (long long)edges[i], (long long)edges[j], (long long)want, helpers[o]);
                c_int(&body, edges[i]);
                sb_add(&body, ", ");
                c_int(&body, edges[j]);
                sb_add(&body, "));\n        bad++;\n    }\n");
                pairs++;
            }
    sb_free(&text);
    assert_true(edge_refused > 0 && edge_refused < pairs);

    sb_printf(&prog,
              "\nint main(void)\n{\n    int bad = 0;\n%s    printf(\"%%d wrong\\n\", bad);\n    return bad != 0;\n}\n",
              sb_cstr(&body));
    char path[128], cmd[512];
    snprintf(path, sizeof path, "%s/diff.c", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(sb_cstr(&prog), f);
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "cd %s && cc -std=c11 -Wall -Wextra -pedantic -Werror -fsanitize=undefined -fno-sanitize-recover=all "
             "-o diff diff.c 2>&1 && ./diff",
             dir);
    int rc = system(cmd);
    print_message("%d expressions compared (%d refused by cutune, not compared), %d helper calls on edge values "
                  "(%d refused: 0 expected)\n",
                  accepted, refused, pairs, edge_refused);
    assert_int_equal(rc, 0);
    sb_free(&prog);
    sb_free(&body);
}

static int setup(void **state)
{
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/test/emit/h100.json", CUTUNE_SOURCE_DIR);
    if (cutune_results_load(&fixture, path) != CUTUNE_OK)
        return -1;
    snprintf(dir, sizeof dir, "/tmp/cutune-diff-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    cutune_tune_result_free(fixture);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return getenv("CUTUNE_KEEP") ? 0 : system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    if (system("cc --version >/dev/null 2>&1") != 0) {
        printf("no C compiler (cc): skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_differential)};
    return cmocka_run_group_tests(tests, setup, teardown);
}
