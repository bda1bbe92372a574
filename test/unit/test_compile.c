/* test_compile.c - the compile stage without a GPU: NVRTC variants, resources from the
 * ptxas report, a deliberate compile failure, and the cache (a second run compiles
 * nothing; a changed header is noticed; a damaged or edited entry is a miss). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cutune.h"
#include "runtime/compare.h"
#include "runtime/compile.h"

static char dir[256];

static void write_file(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A template kernel whose shared memory and register use follow its params, one that
 * fails to compile on purpose (FAIL_ON == 3), and a header it includes. */
static const char kernel_src[] = "#include \"tile.h\"\n"
                                 "template <int BLOCK>\n"
                                 "__global__ void scale(float *x, float s)\n"
                                 "{\n"
                                 "    __shared__ float tile[BLOCK * TILE_FACTOR];\n"
                                 "#if UNROLL == FAIL_ON\n"
                                 "#error deliberate failure for UNROLL == FAIL_ON\n"
                                 "#endif\n"
                                 "    int i = blockIdx.x * BLOCK + threadIdx.x;\n"
                                 "    tile[threadIdx.x] = x[i];\n"
                                 "    __syncthreads();\n"
                                 "    float acc = 0;\n"
                                 "#pragma unroll\n"
                                 "    for (int k = 0; k < UNROLL; k++)\n"
                                 "        acc += tile[(threadIdx.x + k) % BLOCK] * s;\n"
                                 "    x[i] = acc;\n"
                                 "}\n";

static const char spec_src[] = "kernel scale<BLOCK> from \"k.cu\" {\n"
                               "  param BLOCK in [128, 256] as template;\n"
                               "  param UNROLL in [1, 2, 3, 4];\n"
                               "  param spread in [1, 2] as none;\n"
                               "  options \"-DFAIL_ON=3\";\n"
                               "  block BLOCK; grid 1024 * spread;\n"
                               "}\n";

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/cutune-test-compile-XXXXXX");
    assert_non_null(mkdtemp(dir));
    write_file("k.cu", kernel_src);
    write_file("tile.h", "#define TILE_FACTOR 2\n");
    write_file("s.tune", spec_src);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

typedef struct seen {
    int n, compiled, failed, dup, cached;
    int has_resources[16], was_cached[16];
    int regs[16];
    long long smem[16];
    char first_error[256];
} seen;

static int record(void *user, const cutune_analysis *a)
{
    seen *s = user;
    assert_true(s->n < 16);
    s->regs[s->n] = a->registers;
    s->has_resources[s->n] = a->has_resources;
    s->was_cached[s->n] = a->cached;
    s->smem[s->n] = a->static_smem;
    s->compiled += a->compiled;
    s->dup += a->duplicate;
    s->cached += a->cached;
    if (!a->compiled) {
        s->failed++;
        if (!s->first_error[0])
            snprintf(s->first_error, sizeof s->first_error, "%s", a->log);
        assert_false(a->launchable);
    }
    s->n++;
    return 0;
}

static cutune_analyze_summary analyze(seen *s, const char *cache_dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/s.tune", dir);
    cutune_spec *spec;
    assert_int_equal(cutune_spec_load_file(&spec, path, NULL), CUTUNE_OK);
    cutune_analyze_options o = CUTUNE_ANALYZE_OPTIONS_INIT;
    o.arch = "sm_90";
    o.jobs = 2;
    o.cache_dir = cache_dir;
    o.no_cache = cache_dir == NULL;
    cutune_analyze_summary sum;
    memset(s, 0, sizeof *s);
    int rc = cutune_analyze(&sum, spec, &o, record, s);
    if (rc != CUTUNE_OK)
        fail_msg("analyze: %s\n%s", cutune_status_text(rc), cutune_spec_diagnostics(spec, 0, 0));
    cutune_spec_free(spec);
    return sum;
}

static void test_variants_resources_and_a_failure(void **state)
{
    (void)state;
    seen s;
    cutune_analyze_summary sum = analyze(&s, NULL);
    /* 2 BLOCK x 4 UNROLL x 2 spread = 16 variants in listing order; spread only changes
     * the grid, so every other variant is the same binary as the one before it. */
    assert_int_equal(s.n, 16);
    assert_int_equal(sum.variants, 16);
    assert_int_equal(sum.compiled, 8);
    assert_int_equal(s.dup, 8);
    /* UNROLL == 3 fails for both blocks, twice each (with its duplicate). */
    assert_int_equal(s.failed, 4);
    assert_int_equal(sum.failed, 4);
    assert_non_null(strstr(s.first_error, "deliberate failure"));
    /* Static shared memory is BLOCK * TILE_FACTOR floats, from the included header. */
    assert_int_equal(s.smem[0], 128 * 2 * 4);
    assert_int_equal(s.smem[8], 256 * 2 * 4);
    for (int i = 0; i < 16; i++)
        if (i % 8 != 4 && i % 8 != 5)
            assert_true(s.regs[i] > 0 && s.regs[i] <= 255);
}

static void test_cache(void **state)
{
    (void)state;
    char cache_dir[600];
    snprintf(cache_dir, sizeof cache_dir, "%s/cache", dir);
    seen s;
    cutune_analyze_summary first = analyze(&s, cache_dir);
    assert_int_equal(first.compiled, 8);
    assert_int_equal(first.cached, 0);
    /* A second run compiles nothing. */
    cutune_analyze_summary second = analyze(&s, cache_dir);
    assert_int_equal(second.compiled, 0);
    assert_int_equal(second.cached, 8);
    assert_int_equal(s.cached, 16); /* every variant's binary, duplicates included */
    assert_int_equal(s.failed, 4);  /* failures are cached too, with their logs */
    assert_non_null(strstr(s.first_error, "deliberate failure"));
    if (s.smem[8] != 256 * 2 * 4) {
        char detail[1024];
        int k = 0;
        for (int i = 0; i < s.n; i++)
            k += snprintf(detail + k, sizeof detail - (size_t)k, " [%d: smem %lld res %d cached %d]", i, s.smem[i],
                          s.has_resources[i], s.was_cached[i]);
        /* Show an entry as stored, to tell a bad write from a bad read. */
        char cmd[1400], entry[1024] = "";
        snprintf(cmd, sizeof cmd, "grep -l Used $(find '%s' -name '*.entry') | head -1 | xargs head -c 900", cache_dir);
        FILE *p = popen(cmd, "r");
        if (p) {
            size_t got = fread(entry, 1, sizeof entry - 1, p);
            entry[got] = '\0';
            pclose(p);
        }
        fail_msg("cached variant 8 has static smem %lld, not 2048:%s\nentry: %s", s.smem[8], detail, entry);
    }
    /* A changed header changes every key. */
    write_file("tile.h", "#define TILE_FACTOR 4\n");
    cutune_analyze_summary third = analyze(&s, cache_dir);
    assert_int_equal(third.compiled, 8);
    assert_int_equal(s.smem[8], 256 * 4 * 4);
    /* A damaged entry is a miss, recompiled and rewritten (in a cache holding only the
     * current entries). */
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache_dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(analyze(&s, cache_dir).compiled, 8);
    snprintf(cmd, sizeof cmd,
             "for f in $(find '%s' -name '*.entry' | head -3); do head -c 40 \"$f\" > \"$f.t\" && mv "
             "\"$f.t\" \"$f\"; done",
             cache_dir);
    assert_int_equal(system(cmd), 0);
    cutune_analyze_summary fourth = analyze(&s, cache_dir);
    assert_int_equal(fourth.compiled, 3);
    assert_int_equal(fourth.cached, 5);
    cutune_analyze_summary fifth = analyze(&s, cache_dir);
    assert_int_equal(fifth.compiled, 0);
    /* An entry edited by hand (its registers set to 99, one byte of another's cubin
     * changed) is a miss, recompiled and rewritten: never served. */
    snprintf(cmd, sizeof cmd,
             "f=$(grep -l '\"registers\":' $(find '%s' -name '*.entry') | head -1) && "
             "sed -i 's/\"registers\":[0-9]*/\"registers\":99/' \"$f\" && grep -q '\"registers\":99' \"$f\" && "
             "g=$(grep -L '\"registers\":99' $(grep -l '\"ok\":true' $(find '%s' -name '*.entry')) | head -1) && "
             "printf 'X' | dd of=\"$g\" bs=1 seek=$(( $(stat -c %%s \"$g\") - 20 )) conv=notrunc 2>/dev/null",
             cache_dir, cache_dir);
    assert_int_equal(system(cmd), 0);
    cutune_analyze_summary sixth = analyze(&s, cache_dir);
    assert_int_equal(sixth.compiled, 2);
    assert_int_equal(sixth.cached, 6);
    for (int i = 0; i < s.n; i++)
        assert_int_not_equal(s.regs[i], 99);
    assert_int_equal(analyze(&s, cache_dir).compiled, 0);
    /* No temporary files are left behind. */
    snprintf(cmd, sizeof cmd, "test -z \"$(find '%s' -name '*.tmp.*')\"", cache_dir);
    assert_int_equal(system(cmd), 0);
}

static void test_resources_from_a_ptxas_report(void **state)
{
    (void)state;
    const char *log = "ptxas info    : 0 bytes gmem\n"
                      "ptxas info    : Compiling entry function '_Z5scaleILi128EEvPff' for 'sm_90'\n"
                      "ptxas info    : Function properties for _Z5scaleILi128EEvPff\n"
                      "ptxas         .     48 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n"
                      "ptxas info    : Used 40 registers, used 1 barriers, 1024 bytes smem\n"
                      "ptxas info    : Compiling entry function 'other' for 'sm_90'\n"
                      "ptxas info    : Function properties for other\n"
                      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                      "ptxas info    : Used 7 registers, used 0 barriers\n";
    kernel_resources r;
    assert_true(compile_parse_resources(log, "_Z5scaleILi128EEvPff", &r));
    assert_int_equal(r.registers, 40);
    assert_int_equal(r.barriers, 1);
    assert_int_equal(r.static_smem, 1024);
    assert_int_equal(r.stack_frame, 48);
    assert_int_equal(r.spill_stores, 8);
    assert_int_equal(r.spill_loads, 12);
    assert_true(compile_parse_resources(log, "other", &r));
    assert_int_equal(r.registers, 7);
    assert_int_equal(r.static_smem, 0);
    assert_false(compile_parse_resources(log, "missing", &r));
    char *excerpt = compile_log_excerpt("ptxas info    : Used 7 registers\nptxas warning : something\n");
    assert_string_equal(excerpt, "ptxas warning : something\n");
    free(excerpt);
}

static void test_register_cap_reaches_ptxas(void **state)
{
    (void)state;
    /* A kernel that wants many registers, compiled with and without a cap. */
    const char *src = "extern \"C\" __global__ void k(float *x) {\n"
                      "  float a[24];\n"
                      "  for (int i = 0; i < 24; i++) a[i] = x[threadIdx.x * 24 + i];\n"
                      "  float s = 0;\n"
                      "  for (int i = 0; i < 24; i++) for (int j = 0; j < 24; j++) s += a[i] * a[j];\n"
                      "  x[threadIdx.x] = s; }\n";
    const char *capped[] = {"--maxrregcount=24"};
    compile_job job = {"cap.cu", src, "k", NULL, 0, "sm_90", NULL, 0, NULL, 0};
    compile_output free_run, capped_run;
    assert_int_equal(compile_run(&job, &free_run), 0);
    assert_true(free_run.ok);
    job.options = capped;
    job.noptions = 1;
    assert_int_equal(compile_run(&job, &capped_run), 0);
    assert_true(capped_run.ok);
    assert_true(capped_run.has_resources && free_run.has_resources);
    assert_true(capped_run.res.registers <= 24);
    assert_true(free_run.res.registers > 24);
    assert_string_equal(capped_run.lowered_name, "k");
    assert_true(capped_run.cubin_size > 0);
    compile_output_free(&free_run);
    compile_output_free(&capped_run);
    /* An architecture NVRTC does not know is reported as the kernel's failure. */
    job.arch = "sm_12";
    compile_output bad;
    assert_int_equal(compile_run(&job, &bad), 0);
    assert_false(bad.ok);
    assert_non_null(strstr(bad.log, "invalid"));
    compile_output_free(&bad);
}

/* A kernel whose static shared memory ptxas refuses (over 48 KiB, over 227 KiB) fails
 * with ptxas's own error in the excerpt a person reads: with -v, NVRTC's log holds
 * only the resource report, which the excerpt drops. */
static void test_too_much_shared_data_says_so(void **state)
{
    (void)state;
    const char *src = "extern \"C\" __global__ void big(float *x) {\n"
                      "  __shared__ float buf[SIZE];\n"
                      "  buf[threadIdx.x] = x[threadIdx.x];\n"
                      "  __syncthreads();\n"
                      "  x[threadIdx.x] = buf[(threadIdx.x + 1) % SIZE]; }\n";
    const char *sizes[] = {"-DSIZE=16384", "-DSIZE=65536"}; /* 64 KiB, 256 KiB */
    for (int i = 0; i < 2; i++) {
        compile_job job = {"big.cu", src, "big", &sizes[i], 1, "sm_90", NULL, 0, NULL, 0};
        compile_output out;
        assert_int_equal(compile_run(&job, &out), 0);
        assert_false(out.ok);
        char *excerpt = compile_log_excerpt(out.log);
        assert_non_null(excerpt);
        if (!strstr(excerpt, "uses too much shared data"))
            fail_msg("%s: the excerpt \"%s\" lacks ptxas's error (log \"%s\")", sizes[i], excerpt, out.log);
        free(excerpt);
        compile_output_free(&out);
    }
}

/* The on-device comparison kernel compiles for every element type. */
static void test_comparison_kernel_compiles(void **state)
{
    (void)state;
    for (int t = DT_HALF; t <= DT_UINT64; t++) {
        char source[4096];
        cmp_source((data_type)t, source, sizeof source);
        compile_job job = {"cutune_compare.cu", source, "cutune_compare", NULL, 0, "sm_90", NULL, 0, NULL, 0};
        compile_output out;
        assert_int_equal(compile_run(&job, &out), 0);
        if (!out.ok)
            fail_msg("type %d: %s", t, out.log);
        assert_string_equal(out.lowered_name, "cutune_compare");
        compile_output_free(&out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_comparison_kernel_compiles),       cmocka_unit_test(test_resources_from_a_ptxas_report),
        cmocka_unit_test(test_register_cap_reaches_ptxas),       cmocka_unit_test(test_too_much_shared_data_says_so),
        cmocka_unit_test(test_variants_resources_and_a_failure), cmocka_unit_test(test_cache),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
