/* test_owncache.c - cutune's own kernels through the compile cache (runtime/cached.c,
 * runtime/bench_helpers.c) without a GPU: the kernels a bench will need are listed from
 * its arguments, compiled ahead on threads, and then served from the cache; a damaged
 * entry is compiled again, never trusted; another source, type or option is another key;
 * one key compiled by two threads at once is compiled once. NVRTC compiles here (not in
 * the quick tier). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runtime/bench.h"
#include "runtime/cache.h"
#include "runtime/cached.h"
#include "scratch.h"

static const char *arch = "sm_90";

/* A fresh cache folder under tmpdir, named `name`, into buf. */
static const char *cache_at(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", tmpdir, name);
    return buf;
}

/* A float input made on the device, an int input made on the device, a float input read
 * from a file, and a float output verified with the relative-L2 checker. */
static void four_args(bench_arg *args, bench_verify *vf, int *outputs)
{
    memset(args, 0, 4 * sizeof *args);
    args[0] = (bench_arg){.name = "a", .type = DT_FLOAT, .is_buffer = true, .has_init = true};
    args[0].fill.kind = FILL_RANDOM;
    args[1] = (bench_arg){.name = "b", .type = DT_INT32, .is_buffer = true, .has_init = true};
    args[1].fill.kind = FILL_CONSTANT;
    args[2] = (bench_arg){.name = "f", .type = DT_FLOAT, .is_buffer = true, .has_init = true, .file = "x.bin"};
    args[2].fill.kind = FILL_FILE;
    args[3] = (bench_arg){.name = "c", .type = DT_FLOAT, .is_buffer = true, .out_only = true};
    outputs[0] = 3;
    memset(vf, 0, sizeof *vf);
    vf->present = true;
    vf->outputs = outputs;
    vf->noutputs = 1;
    vf->check = CHK_L2 + 1;
}

/* The kernels a bench needs are listed once each (a file's input needs none), compiled
 * ahead, and then read from the cache; a second run ahead compiles nothing. */
static void test_helpers_served_from_cache(void **state)
{
    (void)state;
    if (!compile_supported_arch(arch))
        skip();
    bench_arg args[4];
    bench_verify vf;
    int outputs[1];
    four_args(args, &vf, outputs);
    bench_helpers h;
    assert_int_equal(bench_helper_jobs(&h, arch, args, 4, &vf), 0);
    assert_int_equal(h.n, 4); /* fill float, fill int, compare float, check float */
    const char *want[] = {"cutune_fill", "cutune_fill", "cutune_compare", "cutune_check_l2"};
    for (int i = 0; i < 4; i++)
        assert_string_equal(h.jobs[i].name_expression, want[i]);
    assert_ptr_not_equal(strstr(h.jobs[0].source, "#define ELEM float"), NULL);
    assert_ptr_not_equal(strstr(h.jobs[1].source, "#define ELEM int"), NULL);
    char dir[128];
    cache_at(dir, sizeof dir, "helpers");
    cache_ahead *a;
    assert_int_equal(cache_ahead_start(&a, dir, h.jobs, h.n), 0);
    assert_non_null(a);
    assert_int_equal(cache_ahead_wait(a), 4); /* a cold cache: every one compiled */
    for (int i = 0; i < h.n; i++) {
        compile_output out;
        assert_int_equal(cache_compile(dir, &h.jobs[i], &out), 0);
        assert_true(out.ok);
        assert_true(out.cached); /* read, not compiled */
        assert_string_equal(out.lowered_name, want[i]);
        compile_output_free(&out);
    }
    assert_int_equal(cache_ahead_start(&a, dir, h.jobs, h.n), 0);
    assert_int_equal(cache_ahead_wait(a), 0);
    assert_int_equal(cache_ahead_start(&a, NULL, h.jobs, h.n), 0); /* no cache: nothing ahead */
    assert_null(a);
    bench_helpers_free(&h);
    assert_int_equal(h.n, 0);
}

/* An entry whose cubin was changed on disk is compiled again and rewritten. */
static void test_damaged_entry_compiled_again(void **state)
{
    (void)state;
    if (!compile_supported_arch(arch))
        skip();
    compile_job job;
    char *source = cmp_job(DT_DOUBLE, arch, &job);
    assert_non_null(source);
    char dir[128], cmd[512];
    cache_at(dir, sizeof dir, "damaged");
    compile_output out;
    assert_int_equal(cache_compile(dir, &job, &out), 0);
    assert_true(out.ok && !out.cached);
    compile_output_free(&out);
    /* the entry's last byte (the cubin's) flipped */
    snprintf(cmd, sizeof cmd,
             "f=$(find '%s' -name '*.entry') && [ $(echo \"$f\" | wc -l) = 1 ] && "
             "python3 -c 'import sys; p=sys.argv[1]; b=bytearray(open(p,\"rb\").read()); b[-1]^=0xFF; "
             "open(p,\"wb\").write(b)' \"$f\"",
             dir);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(cache_compile(dir, &job, &out), 0);
    assert_true(out.ok);
    assert_false(out.cached); /* refused and compiled */
    compile_output_free(&out);
    assert_int_equal(cache_compile(dir, &job, &out), 0);
    assert_true(out.ok && out.cached); /* and written again whole */
    compile_output_free(&out);
    free(source);
}

/* The key covers the source (the element type is in it), the kernel and the options. */
static void test_keys_differ(void **state)
{
    (void)state;
    compile_job f32, f64, fill, check;
    char *s1 = cmp_job(DT_FLOAT, arch, &f32), *s2 = cmp_job(DT_DOUBLE, arch, &f64);
    char *s3 = fill_job(DT_FLOAT, arch, &fill), *s4 = chk_job(CHK_ULP, DT_FLOAT, arch, &check);
    assert_true(s1 && s2 && s3 && s4);
    cache_key k1, k2, k3, k4, k5;
    if (cache_key_for(&f32, &k1) < 0)
        skip(); /* no NVRTC to ask its version */
    assert_int_equal(cache_key_for(&f64, &k2), 0);
    assert_int_equal(cache_key_for(&fill, &k3), 0);
    assert_int_equal(cache_key_for(&check, &k4), 0);
    compile_job fmad = fill;
    fmad.noptions = 0; /* the fill kernel without --fmad=false */
    assert_int_equal(cache_key_for(&fmad, &k5), 0);
    const cache_key *all[] = {&k1, &k2, &k3, &k4, &k5};
    for (int i = 0; i < 5; i++)
        for (int j = i + 1; j < 5; j++)
            if (strcmp(all[i]->hex, all[j]->hex) == 0)
                fail_msg("keys %d and %d are the same: %s", i, j, all[i]->hex);
    cache_key again;
    assert_int_equal(cache_key_for(&f32, &again), 0);
    assert_string_equal(again.hex, k1.hex); /* and the same job the same key */
    free(s1);
    free(s2);
    free(s3);
    free(s4);
}

/* One key asked by two threads at once on a cold cache: compiled once, the other read
 * (the entry's lock: as several GPU workers of one run starting together). */
static void test_one_key_compiled_once(void **state)
{
    (void)state;
    if (!compile_supported_arch(arch))
        skip();
    compile_job jobs[2];
    char *source = cmp_job(DT_INT64, arch, &jobs[0]);
    assert_non_null(source);
    jobs[1] = jobs[0];
    char dir[128];
    cache_at(dir, sizeof dir, "once");
    cache_ahead *a;
    assert_int_equal(cache_ahead_start(&a, dir, jobs, 2), 0);
    assert_non_null(a);
    assert_int_equal(cache_ahead_wait(a), 1);
    free(source);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_helpers_served_from_cache),
        cmocka_unit_test(test_damaged_entry_compiled_again),
        cmocka_unit_test(test_keys_differ),
        cmocka_unit_test(test_one_key_compiled_once),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
