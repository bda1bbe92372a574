/* test_hooks.c - launch hooks and checkers in the model and the runtime's pure parts: which checker a
 * verify statement selects and its bound, what each reset becomes, file() inputs checked
 * against real files (raw and .npy: type, count, fortran order, short and special
 * files), an integer random()'s range; the built-in checker kernels compile for every
 * type they serve, and the ULP distance's rule. */
#include "helpers.h"

#include <sys/stat.h>
#include <unistd.h>

#include "runtime/check.h"
#include "runtime/compile.h"
#include "runtime/hook.h"
#include "runtime/infile.h"
#include "tuner/tuner.h"

static const char *outputs = "arg y : out float[64];\narg z : out float[64];\narg c : inout int[8] = zeros;\n";

static void test_checker_selection(void **state)
{
    (void)state;
    checked *c = check_with("%sverify y against config() rtol 1e-5;", outputs);
    assert_non_null(c->m);
    assert_int_equal(c->m->verify.check, CHECK_ELEMENTWISE);
    assert_true(c->m->verify.rtol == 1e-5);
    checked_free(c);
    c = check_with("%sverify y, z against config() l2 1e-6;", outputs);
    assert_non_null(c->m);
    assert_int_equal(c->m->verify.check, CHECK_L2);
    assert_true(c->m->verify.check_tol == 1e-6);
    checked_free(c);
    c = check_with("%sverify y against config() ulp 4;", outputs);
    assert_non_null(c->m);
    assert_int_equal(c->m->verify.check, CHECK_ULP);
    assert_true(c->m->verify.check_tol == 4.0);
    checked_free(c);
    c = check_with("%sverify y against config() check kernel close<float> from \"k.cu\" tol 0.5;", outputs);
    assert_non_null(c->m);
    assert_int_equal(c->m->verify.check, CHECK_KERNEL);
    assert_string_equal(c->m->verify.checker.name, "close");
    assert_true(c->m->verify.checker.has_targs && c->m->verify.checker.ntargs == 1);
    assert_true(c->m->verify.check_tol == 0.5);
    checked_free(c);
    c = check_with("%sverify y against config() check kernel close;", outputs);
    assert_non_null(c->m);
    assert_true(c->m->verify.check_tol == 0.0); /* a kernel's score must be 0 unless tol says */
    checked_free(c);
    /* Refused: two checkers, ulp on ints, tol without a kernel, a kernel over two types. */
    static const char *const bad[] = {
        "verify y against config() l2 1e-6 atol 1;", "verify c against config() ulp 2;",
        "verify y against config() tol 1;",          "verify y, c against config() check kernel close;",
        "verify y against config() l2 -1;",          "verify y against config() ulps 2;",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        c = check_with("%s%s", outputs, bad[i]);
        if (c->m)
            fail_msg("accepted: %s", bad[i]);
        checked_free(c);
    }
}

static void test_resets(void **state)
{
    (void)state;
    checked *c = check_with("arg a : inout int[8] = ramp();\narg b : out uint8[8];\narg d : out double[4];\n"
                            "reset b = 0;\nreset d = constant(2.5);\nreset a;\nreset b, a = zeros;\n"
                            "reset kernel clear from \"k.cu\" block 32 grid (2, 3);\nreset a = input;");
    if (!c->m)
        fail_msg("%s", sb_cstr(&c->text));
    const model *m = c->m;
    assert_int_equal(m->nresets, 7);                  /* in the order written, one per buffer named */
    assert_int_equal(m->resets[0].kind, RESET_ZEROS); /* = 0 is zeros: a memset */
    assert_int_equal(m->resets[0].arg, 1);
    assert_int_equal(m->resets[1].kind, RESET_CONSTANT);
    assert_true(m->resets[1].constant == 2.5);
    assert_int_equal(m->resets[2].kind, RESET_INPUT);
    assert_int_equal(m->resets[3].kind, RESET_ZEROS);
    assert_int_equal(m->resets[4].arg, 0);
    assert_int_equal(m->resets[4].kind, RESET_ZEROS);
    assert_int_equal(m->resets[5].kind, RESET_KERNEL);
    assert_string_equal(m->resets[5].kernel.name, "clear");
    assert_int_equal(m->resets[6].kind, RESET_INPUT);
    assert_int_equal(m->resets[5].kernel.grid_dims, 2);
    checked_free(c);
    static const char *const bad[] = {
        "arg b : out int[8];\nreset b;",                                               /* nothing to restore */
        "arg b : out int[8];\nreset b = 1.5;",                                         /* a float for an int buffer */
        "arg b : out uint8[8];\nreset b = 256;",                                       /* does not fit */
        "arg b : out int[8];\nreset q = zeros;",                                       /* no such arg */
        "arg s : int = 1;\nreset s = zeros;",                                          /* a scalar */
        "arg b : out int[8];\nreset b = zeroes;",                                      /* misspelt */
        "param p in [1, 2];\narg b : out int[8];\nreset kernel clear block p grid 1;", /* geometry reads a param */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        c = check_with("%s", bad[i]);
        if (c->m)
            fail_msg("accepted: %s", bad[i]);
        checked_free(c);
    }
}

/* A spec checked with its files (the folder `dir`), unlike check_spec. */
static checked *check_files(const char *dir, const char *body)
{
    checked *c = calloc(1, sizeof *c);
    char text[2048];
    snprintf(text, sizeof text, "kernel k from \"k.cu\" {\n block 32; grid 1;\n%s\n}\n", body);
    c->arena = arena_new();
    c->src = src_new(c->arena, "t.tune", dir, text, strlen(text));
    diag_init(&c->dl, c->arena, c->src);
    sema_options opts = {NULL, 0, false, NULL, 0, NULL};
    if (lang_parse(&c->ast, c->arena, c->src, &c->dl) == 0)
        sema_check(&c->m, c->arena, c->ast, &opts, &c->dl);
    diag_render(&c->dl, &c->text, false);
    return c;
}

static void write_file(const char *dir, const char *name, const void *data, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

/* An .npy file: header for `dict` then `data_bytes` zero bytes. */
static void write_npy(const char *dir, const char *name, const char *dict, size_t data_bytes)
{
    unsigned char buf[8192] = {0};
    size_t n = strlen(dict), total = (10 + n + 1 + 63) / 64 * 64, hlen = total - 10;
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)hlen;
    buf[9] = (unsigned char)(hlen >> 8);
    memcpy(buf + 10, dict, n);
    memset(buf + 10 + n, ' ', hlen - n - 1);
    buf[total - 1] = '\n';
    assert_true(total + data_bytes <= sizeof buf);
    write_file(dir, name, buf, total + data_bytes);
}

static void expect(const char *dir, const char *body, const char *says)
{
    checked *c = check_files(dir, body);
    const char *text = sb_cstr(&c->text);
    if (says == NULL && c->m == NULL)
        fail_msg("refused %s: %s", body, text);
    if (says && (c->m || !strstr(text, says)))
        fail_msg("%s: said '%s', want '%s'", body, text, says);
    checked_free(c);
}

static void test_file_inputs(void **state)
{
    (void)state;
    char dir[] = "/tmp/cutune_hooks_XXXXXX";
    assert_non_null(mkdtemp(dir));
    write_file(dir, "k.cu", "", 0);
    char raw[4096] = {0};
    write_file(dir, "a.bin", raw, 256 * 4);
    write_npy(dir, "f4.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (16, 16), }", 1024);
    write_npy(dir, "f8.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (256,), }", 2048);
    write_npy(dir, "fo.npy", "{'descr': '<f4', 'fortran_order': True, 'shape': (16, 16), }", 1024);
    write_npy(dir, "be.npy", "{'descr': '>f4', 'fortran_order': False, 'shape': (256,), }", 1024);
    write_npy(dir, "short.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (256,), }", 1000);
    write_file(dir, "bad.npy", "\x93NUMPY\x01\x00\x40\x00{'descr'", 19);
    char sub[600];
    snprintf(sub, sizeof sub, "%s/folder", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(sub, sizeof sub, "%s/fifo", dir);
    assert_int_equal(mkfifo(sub, 0600), 0);

    expect(dir, "arg a : in float[256] = file(\"a.bin\");", NULL);
    expect(dir, "arg a : in int[256] = file(\"a.bin\");", NULL); /* raw: only the size is known */
    expect(dir, "arg a : in float[255] = file(\"a.bin\");", "holds 1024 bytes; arg 'a' needs 1020");
    expect(dir, "arg a : in double[200] = file(\"a.bin\");", "needs 1600");
    expect(dir, "arg a : in float[256] = file(\"f4.npy\");", NULL); /* (16, 16): 256 elements, C order */
    expect(dir, "arg a : in float[100] = file(\"f4.npy\");", "has shape (16, 16): 256 elements; arg 'a' has 100");
    expect(dir, "arg a : in float[256] = file(\"f8.npy\");", "elements are '<f8', and float needs '<f4'");
    expect(dir, "arg a : in double[256] = file(\"f8.npy\");", NULL);
    expect(dir, "arg a : in float[256] = file(\"fo.npy\");", "Fortran order");
    expect(dir, "arg a : in float[256] = file(\"be.npy\");", "big-endian");
    expect(dir, "arg a : in float[256] = file(\"short.npy\");", "truncated");
    expect(dir, "arg a : in float[256] = file(\"bad.npy\");", "truncated .npy header");
    expect(dir, "arg a : in bf16[256] = file(\"f4.npy\");", "no NumPy dtype");
    expect(dir, "arg a : in float[256] = file(\"missing.npy\");", "No such file or directory");
    expect(dir, "arg a : in float[256] = file(\"folder\");", "Is a directory");
    expect(dir, "arg a : in float[256] = file(\"fifo\");", "not a regular file"); /* and no hang */
    expect(dir, "arg a : in float[256] = file(\"/dev/zero\");", "not a regular file");
    expect(dir, "arg a : in float[256] = file(1);", "file() takes one path");
    /* A count that depends on a param is compared in the worker; the type is still checked. */
    expect(dir, "param p in [1, 2];\narg a : in float[p * 128] = file(\"f4.npy\");", NULL);
    expect(dir, "param p in [1, 2];\narg a : in int[p * 128] = file(\"f4.npy\");", "and int needs '<i4'");
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_integer_random_range(void **state)
{
    (void)state;
    checked *c = check_with("arg a : in uint8[8] = random(min = 0, max = 255);\n"
                            "arg b : in int[8] = random(min = -0.5, max = 2.5);"); /* 0, 1, 2 */
    assert_non_null(c->m);
    checked_free(c);
    static const char *const bad[] = {
        "arg a : in uint8[8] = random(min = 0, max = 256);",
        "arg a : in uint[8] = random(min = -1, max = 3);",
        "arg a : in int[8] = random(min = 0.2, max = 0.8);",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        c = check_with("%s", bad[i]);
        if (c->m)
            fail_msg("accepted: %s", bad[i]);
        checked_free(c);
    }
}

static void test_check_kernels_compile(void **state)
{
    (void)state;
    static const data_type floats[] = {DT_HALF, DT_BF16, DT_FLOAT, DT_DOUBLE};
    static const data_type ints[] = {DT_INT8, DT_UINT32, DT_INT64};
    for (int mode = CHK_L2; mode <= CHK_ULP; mode++)
        for (size_t i = 0; i < 4 + (mode == CHK_L2 ? 3 : 0); i++) {
            data_type t = i < 4 ? floats[i] : ints[i - 4];
            char source[8192];
            chk_source((chk_mode)mode, t, source, sizeof source);
            compile_job job = {"cutune_check.cu",
                               source,
                               mode == CHK_L2 ? "cutune_check_l2" : "cutune_check_ulp",
                               NULL,
                               0,
                               "sm_90",
                               NULL,
                               0,
                               NULL,
                               0};
            compile_output co;
            assert_int_equal(compile_run(&job, &co), 0);
            if (!co.ok)
                fail_msg("mode %d type %d: %s", mode, (int)t, co.log);
            compile_output_free(&co);
        }
}

static void test_ulp_distance(void **state)
{
    (void)state;
    /* float: 1.0f is 0x3f800000, the next float up 0x3f800001; -0 and +0 are equal. */
    assert_int_equal(chk_ulp_distance(DT_FLOAT, 0x3f800000, 0x3f800001), 1);
    assert_int_equal(chk_ulp_distance(DT_FLOAT, 0x3f800000, 0x3f800000), 0);
    assert_int_equal(chk_ulp_distance(DT_FLOAT, 0x80000000, 0x00000000), 0);
    /* the smallest subnormals either side of zero are 2 ULP apart */
    assert_int_equal(chk_ulp_distance(DT_FLOAT, 0x80000001, 0x00000001), 2);
    assert_int_equal(chk_ulp_distance(DT_FLOAT, 0x7fc00000, 0x3f800000), ~0ull); /* NaN */
    assert_int_equal(chk_ulp_distance(DT_FLOAT, 0x7f800000, 0x7f7fffff), 1);     /* inf and FLT_MAX */
    /* half: 1.0 is 0x3c00; double: 1.0 is 0x3ff0000000000000 */
    assert_int_equal(chk_ulp_distance(DT_HALF, 0x3c00, 0x3c03), 3);
    assert_int_equal(chk_ulp_distance(DT_DOUBLE, 0x3ff0000000000000ull, 0x3ff0000000000010ull), 16);
    assert_int_equal(chk_ulp_distance(DT_BF16, 0x3f80, 0xbf80), 2 * 0x3f80);
}

static void test_infile_types(void **state)
{
    (void)state;
    npy_info info;
    memset(&info, 0, sizeof info);
    info.kind = 'u';
    info.itemsize = 1;
    info.byteorder = '|';
    snprintf(info.descr, sizeof info.descr, "|u1");
    char why[256];
    assert_int_equal(infile_matches(DT_UINT8, &info, why, sizeof why), 0);
    assert_int_equal(infile_matches(DT_INT8, &info, why, sizeof why), -1);
    info.kind = 'b';
    assert_int_equal(infile_matches(DT_UINT8, &info, why, sizeof why), 0); /* NumPy's bool is a byte */
    info.kind = 'f';
    info.itemsize = 4;
    info.byteorder = '<';
    assert_int_equal(infile_matches(DT_FLOAT, &info, why, sizeof why), 0);
    assert_int_equal(infile_matches(DT_BF16, &info, why, sizeof why), -1);
    info.byteorder = '>';
    assert_int_equal(infile_matches(DT_FLOAT, &info, why, sizeof why), -1);
    assert_non_null(strstr(why, "big-endian"));
}

/* The journal's identity holds the input files as they are: a changed file changes it,
 * a spec without file inputs adds nothing. */
static void test_inputs_identity(void **state)
{
    (void)state;
    char dir[] = "/tmp/cutune_ident_XXXXXX";
    assert_non_null(mkdtemp(dir));
    write_file(dir, "k.cu", "", 0);
    char raw[4096] = {0};
    write_file(dir, "a.bin", raw, 1024);
    checked *c = check_files(dir, "arg a : in float[256] = file(\"a.bin\");");
    assert_non_null(c->m);
    char one[32], again[32], other[32];
    tuner_inputs_identity(c->m, one, sizeof one);
    tuner_inputs_identity(c->m, again, sizeof again);
    assert_int_equal(strlen(one), 16);
    assert_string_equal(one, again);
    write_file(dir, "a.bin", raw, 2048); /* the data changed (here, its size) */
    tuner_inputs_identity(c->m, other, sizeof other);
    assert_string_not_equal(one, other);
    checked_free(c);
    c = check_files(dir, "arg a : in float[256] = random();");
    assert_non_null(c->m);
    tuner_inputs_identity(c->m, one, sizeof one);
    assert_string_equal(one, "");
    checked_free(c);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

/* random() as docs/language.md states it (data_fill, bit for bit the device's fill): an
 * integer range includes both whole bounds and rounds fractional ones inward; floats
 * are drawn in [min, max) in double and rounded to the element type, so a half can
 * equal max. */
static void test_random_as_documented(void **state)
{
    (void)state;
    enum { N = 100000 };
    static unsigned char bytes[N];
    data_fill_spec all = {FILL_RANDOM, 3, 0.0, 255.0};
    data_fill(bytes, DT_UINT8, N, &all);
    int seen[256] = {0};
    for (int i = 0; i < N; i++)
        seen[bytes[i]]++;
    for (int v = 0; v < 256; v++)
        if (!seen[v])
            fail_msg("uint8 random(0, 255) never gave %d", v); /* 0 and 255 both included */
    static int32_t ints[N];
    data_fill_spec frac = {FILL_RANDOM, 4, -0.5, 2.5};
    data_fill(ints, DT_INT32, N, &frac);
    int counts[3] = {0, 0, 0};
    for (int i = 0; i < N; i++) {
        if (ints[i] < 0 || ints[i] > 2)
            fail_msg("random(-0.5, 2.5) gave %d", ints[i]);
        counts[ints[i]]++;
    }
    for (int v = 0; v < 3; v++) /* each about a third */
        assert_true(counts[v] > N / 3 - N / 30 && counts[v] < N / 3 + N / 30);
    static uint16_t halves[N];
    data_fill_spec unit = {FILL_RANDOM, 5, 0.0, 1.0};
    data_fill(halves, DT_HALF, N, &unit);
    int ones = 0;
    for (int i = 0; i < N; i++) {
        double v = data_get(halves, DT_HALF, (size_t)i);
        assert_true(v >= 0.0 && v <= 1.0);
        ones += v == 1.0;
    }
    assert_true(ones > 0); /* u > 1 - 2^-12 rounds to 1.0 in half: about 24 of 100,000 */
}

/* Which outputs a variant's last launch is checked for: those the resets cover (every
 * buffer when there is a reset kernel). No kernel hook: nothing is loaded, no GPU. */
static void test_which_buffers_are_reset(void **state)
{
    (void)state;
    hook_spec specs[] = {{HOOK_ZEROS, 2, 0, NULL, NULL, {1, 1, 1}, {1, 1, 1}},
                         {HOOK_INPUT, 0, 0, NULL, NULL, {1, 1, 1}, {1, 1, 1}}};
    hook_set *h;
    assert_int_equal(hook_prepare(&h, NULL, specs, 2), 0);
    assert_true(hook_resets(h, 2));
    assert_true(hook_resets(h, 0));
    assert_false(hook_resets(h, 1));
    assert_false(hook_resets(NULL, 0));
    hook_free(h, NULL);
    assert_int_equal(hook_prepare(&h, NULL, specs, 0), 0);
    assert_null(h); /* no resets: no set */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_checker_selection),     cmocka_unit_test(test_resets),
        cmocka_unit_test(test_file_inputs),           cmocka_unit_test(test_integer_random_range),
        cmocka_unit_test(test_check_kernels_compile), cmocka_unit_test(test_ulp_distance),
        cmocka_unit_test(test_infile_types),          cmocka_unit_test(test_random_as_documented),
        cmocka_unit_test(test_inputs_identity),       cmocka_unit_test(test_which_buffers_are_reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
