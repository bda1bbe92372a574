/* test_pin.c - a space restricted to given configurations (cutune_spec_restrict, what
 * `--config` does): whole and partial configurations, a union of several, and each
 * mistake an error naming the configuration; the restriction holds at another size and
 * in the block it was made for only; with --kernel, the block named first (cutune_spec_pick). Expected spaces are worked out by hand from the
 * specs below. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cutune.h"

/* 3 x 4 x 2 = 24 combinations; SIZE * U <= 16384 leaves SIZE 1024: U 1..8 (4), 2048: U
 * 1..8 (4), 4096: U 1, 2, 4 (3), each with two names: 22 valid. */
static const char spec_text[] = "kernel k from \"../kernels/sum_matrix.cu\" {\n"
                                "    param SIZE in [1024, 2048, 4096];\n"
                                "    param U in [1, 2, 4, 8];\n"
                                "    param name in [\"a\", \"b\"];\n"
                                "    require SIZE * U <= 16384;\n"
                                "    let n = 128;\n"
                                "    block 128;\n"
                                "    grid n // 128;\n"
                                "}\n";

static cutune_spec *load(const char *text)
{
    cutune_load_options opts = CUTUNE_LOAD_OPTIONS_INIT;
    opts.base_dir = CUTUNE_SOURCE_DIR "/examples";
    cutune_spec *spec = NULL;
    int rc = cutune_spec_load_string(&spec, "p.tune", text, strlen(text), &opts);
    if (rc != CUTUNE_OK)
        fail_msg("load: %s", spec ? cutune_spec_diagnostics(spec, 0, 0) : cutune_status_text(rc));
    return spec;
}

static uint64_t valid(cutune_spec *spec)
{
    cutune_space_size size;
    assert_int_equal(cutune_space_count(&size, spec), CUTUNE_OK);
    assert_false(size.valid_estimated);
    return size.valid;
}

/* The listed configurations as "SIZE/U/name;..." */
static void listing(cutune_spec *spec, char *out, size_t size)
{
    cutune_configs *it;
    const cutune_variant *v;
    assert_int_equal(cutune_configs_new(&it, spec), CUTUNE_OK);
    out[0] = '\0';
    int rc;
    while ((rc = cutune_configs_next(&v, it)) == 1) {
        size_t n = strlen(out);
        snprintf(out + n, size - n, "%s", n ? ";" : "");
        for (int i = 0; i < v->nparams; i++) {
            n = strlen(out);
            snprintf(out + n, size - n, "%s%s", i ? "/" : "", v->values[i]);
        }
    }
    assert_int_equal(rc, 0);
    cutune_configs_free(it);
}

static void test_whole_partial_and_several(void **state)
{
    (void)state;
    char got[1024];
    cutune_spec *spec = load(spec_text);
    assert_int_equal(valid(spec), 22);
    const char *one[] = {"SIZE=2048,U=4,name=b"};
    assert_int_equal(cutune_spec_restrict(spec, one, 1), CUTUNE_OK);
    assert_int_equal(valid(spec), 1);
    listing(spec, got, sizeof got);
    assert_string_equal(got, "2048/4/b");
    cutune_spec_free(spec);

    spec = load(spec_text); /* partial: SIZE 4096 leaves U 1, 2, 4 with both names */
    const char *partial[] = {" SIZE = 4096 "};
    assert_int_equal(cutune_spec_restrict(spec, partial, 1), CUTUNE_OK);
    assert_int_equal(valid(spec), 6);
    listing(spec, got, sizeof got);
    assert_string_equal(got, "4096/1/a;4096/1/b;4096/2/a;4096/2/b;4096/4/a;4096/4/b");
    /* once per block: a second restriction would silently intersect */
    assert_int_equal(cutune_spec_restrict(spec, one, 1), CUTUNE_EINVAL);
    assert_non_null(strstr(cutune_last_error(), "restricted already"));
    cutune_spec_free(spec);

    /* Several: their union, not the product of their values (not 1024/8 nor 2048/1). */
    spec = load(spec_text);
    const char *two[] = {"SIZE=1024,U=1,name=a", "SIZE=2048,U=8", "U=0x8,SIZE=1_024,name=b"};
    assert_int_equal(cutune_spec_restrict(spec, two, 3), CUTUNE_OK);
    assert_int_equal(valid(spec), 4);
    listing(spec, got, sizeof got);
    assert_string_equal(got, "1024/1/a;1024/8/b;2048/8/a;2048/8/b");
    cutune_spec_free(spec);
}

/* Each mistake: CUTUNE_EINVAL, a message naming the configuration and the problem, and
 * the spec as it was. */
static void expect_refused(const char *config, const char *says)
{
    cutune_spec *spec = load(spec_text);
    const char *configs[] = {"SIZE=1024", config};
    assert_int_equal(cutune_spec_restrict(spec, configs, 2), CUTUNE_EINVAL);
    char want[256];
    snprintf(want, sizeof want, "--config %s: ", config);
    if (strncmp(cutune_last_error(), want, strlen(want)) != 0 || !strstr(cutune_last_error(), says))
        fail_msg("'%s': the message \"%s\" lacks \"%s%s\"", config, cutune_last_error(), want, says);
    assert_int_equal(valid(spec), 22);
    cutune_spec_free(spec);
}

static void test_mistakes_name_the_configuration(void **state)
{
    (void)state;
    expect_refused("SIZ=2048", "no param 'SIZ'; did you mean 'SIZE'?");
    expect_refused("SIZE=2047", "'2047' is not a value of param 'SIZE' (its values: 1024, 2048, 4096)");
    expect_refused("name=c", "\"c\" is not a value of param 'name'");
    expect_refused("U=1.5", "not a value of param 'U'");
    expect_refused("n=3", "'n' is a let, not a param");
    expect_refused("U=1,U=2", "param 'U' is given twice");
    expect_refused("U", "'U' is not NAME=VALUE");
    expect_refused("", "not NAME=VALUE");
    /* excluded by the constraints: a whole configuration names the require it breaks
     * (line 5, column 13: the expression after `require`), a partial one says that none
     * with its values is valid */
    expect_refused("SIZE=4096,U=8,name=a", "it breaks the require at p.tune:5:13");
    expect_refused("SIZE=4096,U=8", "exclude every configuration with these values");
    cutune_spec *spec = load(spec_text);
    assert_int_equal(cutune_spec_restrict(spec, NULL, 0), CUTUNE_EINVAL);
    cutune_spec_free(spec);
}

/* Floats: an int names the float value; the restriction holds at every size of a
 * `size` statement (each size's model is checked anew) and in its own block only. */
static const char sized_text[] = "kernel k from \"../kernels/sum_matrix.cu\" {\n"
                                 "    param B in [32, 64, 128];\n"
                                 "    param f in [1.0, 2.5];\n"
                                 "    size n in [1024, 4096];\n"
                                 "    require B * 8 <= n;\n"
                                 "    block B;\n"
                                 "    grid n // B;\n"
                                 "}\n"
                                 "kernel k from \"../kernels/sum_matrix.cu\" {\n"
                                 "    param B in [32, 64];\n"
                                 "    block B;\n"
                                 "    grid 1;\n"
                                 "    emit header \"other.h\" prefix OTHER;\n"
                                 "}\n";

static void test_every_size_and_its_block_only(void **state)
{
    (void)state;
    cutune_spec *spec = load(sized_text);
    assert_int_equal(cutune_spec_kernel_count(spec), 2);
    /* n = 1024: B 32, 64, 128 all fit (B * 8 <= 1024) */
    const char *configs[] = {"B=64,f=1", "B=128,f=2.5"};
    assert_int_equal(cutune_spec_restrict(spec, configs, 2), CUTUNE_OK);
    char got[256];
    listing(spec, got, sizeof got);
    assert_string_equal(got, "64/1.0;128/2.5");
    assert_int_equal(cutune_spec_select_size(spec, 1), CUTUNE_OK);
    listing(spec, got, sizeof got);
    assert_string_equal(got, "64/1.0;128/2.5");
    assert_int_equal(cutune_spec_select_kernel(spec, 1), CUTUNE_OK);
    assert_int_equal(valid(spec), 2); /* the second block: untouched */
    assert_int_equal(cutune_spec_select_kernel(spec, 0), CUTUNE_OK);
    assert_int_equal(valid(spec), 2);
    cutune_spec_free(spec);
}

/* cutune_spec_pick, what --kernel and --config make: configurations need a block named
 * in a spec of several; the block named is selected, then restricted. */
static void test_pick(void **state)
{
    (void)state;
    static const char two[] = "kernel k as one from \"../kernels/sum_matrix.cu\" {\n"
                              "    param B in [32, 64, 128];\n    block B;\n    grid 1;\n}\n"
                              "kernel k as two from \"../kernels/sum_matrix.cu\" {\n"
                              "    param B in [32, 64];\n    block B;\n    grid 1;\n}\n";
    cutune_spec *spec = load(two);
    const char *configs[] = {"B=64"};
    assert_int_equal(cutune_spec_pick(spec, NULL, configs, 1), CUTUNE_EINVAL);
    assert_string_equal(cutune_last_error(), "--config: p.tune has 2 kernel blocks: name one with --kernel NAME");
    assert_int_equal(valid(spec), 3); /* unchanged */
    assert_int_equal(cutune_spec_pick(spec, "nope", NULL, 0), CUTUNE_EINVAL);
    assert_int_equal(cutune_spec_pick(spec, "two", NULL, 0), CUTUNE_OK); /* selected, not restricted */
    assert_int_equal(cutune_spec_kernel_selected(spec), 1);
    assert_int_equal(valid(spec), 2);
    assert_int_equal(cutune_spec_pick(spec, "one", configs, 1), CUTUNE_OK);
    assert_int_equal(cutune_spec_kernel_selected(spec), 0);
    assert_int_equal(valid(spec), 1);
    assert_int_equal(cutune_spec_pick(spec, NULL, NULL, 0), CUTUNE_OK); /* nothing asked: as it was */
    assert_int_equal(cutune_spec_kernel_selected(spec), 0);
    cutune_spec_free(spec);
    assert_int_equal(cutune_spec_pick(NULL, "one", NULL, 0), CUTUNE_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_partial_and_several),
        cmocka_unit_test(test_mistakes_name_the_configuration),
        cmocka_unit_test(test_every_size_and_its_block_only),
        cmocka_unit_test(test_pick),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
