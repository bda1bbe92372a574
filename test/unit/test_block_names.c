/* test_block_names.c - results of two blocks of one kernel (`kernel reduce as step1`,
 * `kernel reduce as step2`): each results file records its block's name beside the
 * kernel's (spec.block, docs/results-format.md), read back by the loader; a file without
 * it (written before blocks had names) still loads, as of the kernel's first block; the
 * block a file records is the one `emit header --spec` selects, its name the header's
 * prefix and provenance, and the two blocks' results are two sections of one header; a
 * report names the block; shards of the two blocks are not merged (cutune_results_merge
 * names both files and both blocks), those of one block are. The results come from a
 * Kernel Tuner cache imported into each block (cutune_import_results), so no GPU is
 * needed; the block an import goes into is picked by name (cutune_import_block). The
 * headings the commands print before each block and size (cutune_spec_block_heading,
 * cutune_spec_size_heading). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "cutune.h"

/* Two blocks of one kernel, the same params, different grids. */
static const char spec_text[] = "kernel reduce as step1 from \"reduce.cu\" {\n"
                                "    param bx in [16, 32];\n"
                                "    block bx; grid 64;\n"
                                "}\n"
                                "kernel reduce as step2 from \"reduce.cu\" {\n"
                                "    param bx in [16, 32];\n"
                                "    block bx; grid 1;\n"
                                "}\n";

static const char cache[] = "{\"device_name\": \"GPU X\", \"kernel_name\": \"reduce\", \"tune_params_keys\": [\"bx\"], "
                            "\"tune_params\": {\"bx\": [16, 32]}, \"objective\": \"time\", \"cache\": {"
                            "\"16\": {\"bx\": 16, \"time\": 2.0, \"times\": [2.0]},"
                            "\"32\": {\"bx\": 32, \"time\": 1.0, \"times\": [1.0]}}}";

#include "scratch.h"

/* path_of: the file `name` in the temporary folder (one of 4 static buffers). */
static const char *path_of(const char *name)
{
    static char paths[4][256];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, 256, "%s/%s", tmpdir, name);
    return p;
}

static cutune_spec *load_spec(void)
{
    cutune_load_options lo = CUTUNE_LOAD_OPTIONS_INIT;
    lo.skip_file_checks = 1;
    cutune_spec *s = NULL;
    assert_int_equal(cutune_spec_load_string(&s, "blocks.tune", spec_text, strlen(spec_text), &lo), CUTUNE_OK);
    return s;
}

/* block_results: the cache imported as the results of block `i`, written to `name` and
 * loaded back from it. */
static cutune_tune_result *block_results(int i, const char *name)
{
    FILE *f = fopen(path_of("cache.json"), "w");
    assert_non_null(f);
    fputs(cache, f);
    fclose(f);
    cutune_spec *s = load_spec();
    assert_int_equal(cutune_spec_select_kernel(s, i), CUTUNE_OK);
    cutune_tune_result *r = NULL;
    assert_int_equal(cutune_import_results(&r, s, path_of("cache.json"), NULL), CUTUNE_OK);
    cutune_spec_free(s);
    assert_int_equal(cutune_tune_write_results(r, path_of(name)), CUTUNE_OK);
    cutune_tune_result_free(r);
    r = NULL;
    assert_int_equal(cutune_results_load(&r, path_of(name)), CUTUNE_OK);
    return r;
}

/* Each file records its block, and the block it records is the one selected. */
static void test_recorded_and_selected(void **state)
{
    (void)state;
    cutune_tune_result *r1 = block_results(0, "step1.json"), *r2 = block_results(1, "step2.json");
    assert_string_equal(cutune_tune_kernel(r1), "reduce");
    assert_string_equal(cutune_tune_kernel(r2), "reduce");
    assert_string_equal(cutune_tune_block(r1), "step1");
    assert_string_equal(cutune_tune_block(r2), "step2");
    json_t *root = json_load_file(path_of("step2.json"), 0, NULL);
    assert_non_null(root);
    assert_string_equal(json_string_value(json_object_get(json_object_get(root, "spec"), "block")), "step2");
    json_decref(root);
    cutune_spec *s = load_spec();
    assert_int_equal(cutune_spec_select_kernel_of(s, r2), CUTUNE_OK);
    assert_int_equal(cutune_spec_kernel_selected(s), 1); /* not step1, the first block of reduce */
    assert_int_equal(cutune_spec_select_kernel_of(s, r1), CUTUNE_OK);
    assert_int_equal(cutune_spec_kernel_selected(s), 0);
    cutune_spec_free(s);
    cutune_tune_result_free(r1);
    cutune_tune_result_free(r2);
}

/* cutune_import_block: the block a recording goes into, by the block's name, else the
 * kernel's first block; none named in a spec of two blocks, or a name neither has, is
 * refused naming the blocks, and the block held stays held. */
static void test_import_block(void **state)
{
    (void)state;
    cutune_spec *s = load_spec();
    assert_int_equal(cutune_import_block(s, "step2"), CUTUNE_OK);
    assert_int_equal(cutune_spec_kernel_selected(s), 1);
    assert_int_equal(cutune_import_block(s, "reduce"), CUTUNE_OK); /* the kernel: its first block */
    assert_int_equal(cutune_spec_kernel_selected(s), 0);
    assert_int_equal(cutune_import_block(s, "step2"), CUTUNE_OK);
    assert_int_equal(cutune_import_block(s, NULL), CUTUNE_EINVAL);
    assert_string_equal(cutune_last_error(), "blocks.tune has 2 kernel blocks (step1 (kernel reduce), step2 (kernel "
                                             "reduce)): a recording is of one; name it with --kernel NAME");
    assert_int_equal(cutune_spec_kernel_selected(s), 1);
    assert_int_equal(cutune_import_block(s, "step3"), CUTUNE_EINVAL);
    assert_string_equal(cutune_last_error(), "blocks.tune has no kernel block named 'step3' (its blocks: step1 "
                                             "(kernel reduce), step2 (kernel reduce))");
    assert_int_equal(cutune_spec_kernel_selected(s), 1);
    /* the block held is the one the import reads: the results record step2 */
    FILE *f = fopen(path_of("cache.json"), "w");
    assert_non_null(f);
    fputs(cache, f);
    fclose(f);
    cutune_tune_result *r = NULL;
    assert_int_equal(cutune_import_results(&r, s, path_of("cache.json"), NULL), CUTUNE_OK);
    assert_string_equal(cutune_tune_block(r), "step2");
    cutune_tune_result_free(r);
    cutune_spec_free(s);
    /* a spec of one block needs no name */
    const char one[] = "kernel reduce from \"reduce.cu\" {\n    param bx in [16, 32];\n    block bx; grid 1;\n}\n";
    cutune_load_options lo = CUTUNE_LOAD_OPTIONS_INIT;
    lo.skip_file_checks = 1;
    assert_int_equal(cutune_spec_load_string(&s, "one.tune", one, strlen(one), &lo), CUTUNE_OK);
    assert_int_equal(cutune_import_block(s, NULL), CUTUNE_OK);
    assert_int_equal(cutune_import_block(s, "other"), CUTUNE_EINVAL);
    cutune_spec_free(s);
    assert_int_equal(cutune_import_block(NULL, NULL), CUTUNE_EINVAL);
}

/* A file written before blocks had names: loaded, its block the kernel's name, and of
 * the kernel's first block; a block name that is no C name is refused. */
static void test_old_file(void **state)
{
    (void)state;
    cutune_tune_result *r = block_results(1, "step2.json");
    cutune_tune_result_free(r);
    json_t *root = json_load_file(path_of("step2.json"), 0, NULL);
    assert_non_null(root);
    json_t *spec = json_object_get(root, "spec");
    json_object_del(spec, "block");
    assert_int_equal(json_dump_file(root, path_of("old.json"), 0), 0);
    r = NULL;
    assert_int_equal(cutune_results_load(&r, path_of("old.json")), CUTUNE_OK);
    assert_string_equal(cutune_tune_block(r), "reduce");
    cutune_spec *s = load_spec();
    assert_int_equal(cutune_spec_select_kernel_of(s, r), CUTUNE_OK);
    assert_int_equal(cutune_spec_kernel_selected(s), 0);
    cutune_spec_free(s);
    cutune_tune_result_free(r);
    json_object_set_new(spec, "block", json_string("step 2"));
    assert_int_equal(json_dump_file(root, path_of("bad.json"), 0), 0);
    r = NULL;
    assert_int_not_equal(cutune_results_load(&r, path_of("bad.json")), CUTUNE_OK);
    assert_null(r);
    assert_non_null(strstr(cutune_last_error(), "spec.block"));
    json_decref(root);
}

/* The headers: a section per block, each of its block's prefix; alone, without a spec,
 * the block's name makes the prefix and is named in the first line. */
static void test_headers(void **state)
{
    (void)state;
    cutune_tune_result *r1 = block_results(0, "step1.json"), *r2 = block_results(1, "step2.json");
    const cutune_tune_result *both[] = {r1, r2};
    cutune_spec *s = load_spec();
    char *out = NULL;
    assert_int_equal(cutune_emit_headers(&out, s, both, 2, NULL), CUTUNE_OK);
    assert_non_null(strstr(out, "STEP1_"));
    assert_non_null(strstr(out, "STEP2_"));
    cutune_free(out);
    cutune_spec_free(s);
    out = NULL;
    assert_int_equal(cutune_emit_header(&out, NULL, &both[1], 1, NULL), CUTUNE_OK);
    assert_non_null(strstr(out, "the tuned configuration of kernel reduce as step2,"));
    assert_non_null(strstr(out, "STEP2_"));
    assert_null(strstr(out, "REDUCE_"));
    cutune_free(out);
    out = NULL; /* one header of both blocks' results: refused, naming both */
    assert_int_not_equal(cutune_emit_header(&out, NULL, both, 2, NULL), CUTUNE_OK);
    assert_non_null(strstr(cutune_last_error(), "'step1' and 'step2'"));
    assert_int_equal(cutune_emit_report(&out, &both[1], 1, NULL), CUTUNE_OK);
    assert_non_null(strstr(out, "<b>reduce</b> as <b>step2</b>"));
    cutune_free(out);
    cutune_tune_result_free(r1);
    cutune_tune_result_free(r2);
}

/* shard_of: the file `from` (written by block_results) made shard `index` of 2 at `to`:
 * settings.shard set and only the entry of that shard's configuration (index % 2)
 * kept, the winner, as `cutune SPEC --kernel B --shard I/2` would write it. */
static void shard_of(const char *from, int index, const char *to)
{
    json_t *root = json_load_file(from, 0, NULL);
    assert_non_null(root);
    json_object_set_new(json_object_get(root, "settings"), "shard",
                        json_pack("{s:i, s:i}", "index", index, "count", 2));
    json_t *kept = json_array(), *e;
    size_t i;
    json_array_foreach(json_object_get(root, "results"), i,
                       e) if (json_integer_value(json_object_get(e, "index")) % 2 == index) json_array_append(kept, e);
    assert_int_equal(json_array_size(kept), 1);
    json_object_set_new(root, "results", kept);
    json_object_set_new(json_object_get(root, "summary"), "best", json_integer(0)); /* the one entry */
    assert_int_equal(json_dump_file(root, to, 0), 0);
    json_decref(root);
}

/* Shards of two blocks of one kernel (the same kernel, params and space): refused, both
 * files and both blocks named, nothing made; the shards of one block: merged, of it. */
static void test_merge_two_blocks(void **state)
{
    (void)state;
    cutune_tune_result_free(block_results(0, "step1.json"));
    cutune_tune_result_free(block_results(1, "step2.json"));
    char a0[256], a1[256], b1[256];
    snprintf(a0, sizeof a0, "%s", path_of("step1-0.json"));
    snprintf(a1, sizeof a1, "%s", path_of("step1-1.json"));
    snprintf(b1, sizeof b1, "%s", path_of("step2-1.json"));
    shard_of(path_of("step1.json"), 0, a0);
    shard_of(path_of("step1.json"), 1, a1);
    shard_of(path_of("step2.json"), 1, b1);
    cutune_tune_result *r = NULL;
    const char *mixed[] = {a0, b1}, *one[] = {a0, a1};
    if (cutune_results_merge(&r, mixed, 2, 0) != CUTUNE_EINVAL)
        fail_msg("%s", cutune_last_error());
    assert_null(r);
    char want[700];
    snprintf(want, sizeof want,
             "'%s' and '%s' do not go together: they are of different kernel blocks of the spec "
             "(spec.block: \"step1\" against \"step2\")",
             a0, b1);
    if (!strstr(cutune_last_error(), want))
        fail_msg("%s", cutune_last_error());
    assert_int_equal(cutune_results_merge(&r, mixed, 2, 1), CUTUNE_EINVAL); /* --partial: the same */
    assert_null(r);
    assert_int_equal(cutune_results_merge(&r, one, 2, 0), CUTUNE_OK);
    assert_string_equal(cutune_tune_block(r), "step1");
    assert_int_equal(cutune_tune_shard_count(r), 0);
    cutune_tune_result_free(r);
}

/* The line before each block: the kernel and the block's own name, counted; an empty
 * line before the second; none for a spec of one block. */
static void test_heading(void **state)
{
    (void)state;
    cutune_spec *s = load_spec();
    char *text = NULL;
    assert_int_equal(cutune_spec_block_heading(&text, s), CUTUNE_OK);
    assert_string_equal(text, "kernel reduce as step1 (block 1 of 2)\n");
    cutune_free(text);
    assert_int_equal(cutune_spec_select_kernel(s, 1), CUTUNE_OK);
    assert_int_equal(cutune_spec_block_heading(&text, s), CUTUNE_OK);
    assert_string_equal(text, "\nkernel reduce as step2 (block 2 of 2)\n");
    cutune_free(text);
    cutune_spec_free(s);
    cutune_load_options lo = CUTUNE_LOAD_OPTIONS_INIT;
    lo.skip_file_checks = 1;
    static const char one[] = "kernel reduce from \"reduce.cu\" {\n    param bx in [16];\n    block bx; grid 1;\n}\n";
    static const char two[] = "kernel reduce from \"reduce.cu\" {\n    param bx in [16];\n    block bx; grid 1;\n}\n"
                              "kernel scan from \"scan.cu\" {\n    param bx in [16];\n    block bx; grid 1;\n}\n";
    assert_int_equal(cutune_spec_load_string(&s, "two.tune", two, strlen(two), &lo), CUTUNE_OK);
    assert_int_equal(cutune_spec_select_kernel(s, 1), CUTUNE_OK);
    assert_int_equal(cutune_spec_block_heading(&text, s), CUTUNE_OK);
    assert_string_equal(text, "\nkernel scan (block 2 of 2)\n"); /* a block named after its kernel: no "as" */
    cutune_free(text);
    cutune_spec_free(s);
    assert_int_equal(cutune_spec_load_string(&s, "one.tune", one, strlen(one), &lo), CUTUNE_OK);
    assert_int_equal(cutune_spec_block_heading(&text, s), CUTUNE_OK);
    assert_string_equal(text, "");
    cutune_free(text);
    cutune_spec_free(s);
    assert_int_equal(cutune_spec_block_heading(&text, NULL), CUTUNE_EINVAL);
    /* and the line before each problem size, when there are several */
    static const char sized[] = "kernel k from \"k.cu\" {\n    param bx in [16];\n    size (n, m) in [(1024, 8), "
                                "(4096, 2)];\n    block bx; grid 1;\n}\n";
    assert_int_equal(cutune_spec_load_string(&s, "sized.tune", sized, strlen(sized), &lo), CUTUNE_OK);
    assert_int_equal(cutune_spec_size_heading(&text, s, 1), CUTUNE_OK);
    assert_string_equal(text, "\nsize n=4096 m=2:\n");
    cutune_free(text);
    assert_int_equal(cutune_spec_size_heading(&text, s, 2), CUTUNE_EINVAL);
    cutune_spec_free(s);
    assert_int_equal(cutune_spec_load_string(&s, "one.tune", one, strlen(one), &lo), CUTUNE_OK);
    assert_int_equal(cutune_spec_size_heading(&text, s, 0), CUTUNE_OK);
    assert_string_equal(text, ""); /* one size: no heading */
    cutune_free(text);
    cutune_spec_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_heading),
        cmocka_unit_test_setup_teardown(test_recorded_and_selected, setup, teardown),
        cmocka_unit_test_setup_teardown(test_old_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_import_block, setup, teardown),
        cmocka_unit_test_setup_teardown(test_headers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_merge_two_blocks, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
