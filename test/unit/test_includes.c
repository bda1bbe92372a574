/* test_includes.c - the files a kernel's #include lines reach, read by cutune and
 * handed to NVRTC in memory (runtime/includes): a FIFO named by an #include (beside
 * the source, through an -I folder by <x>, nested in a header, by absolute path) is
 * refused at once with its name, never opened for reading; two headers of one name in
 * two folders stay two files; NVRTC compiles from memory (the files may be gone by
 * then), and toolkit headers (cuda_fp16.h) are still NVRTC's to find. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "last_err.h"
#include "base/sys.h"
#include "runtime/includes.h"

static char dir[256];

/* `name` under the scratch folder, into path (512 bytes). */
static char *at(const char *name, char *path)
{
    snprintf(path, 512, "%s/%s", dir, name);
    return path;
}

static void write_at(const char *name, const char *text)
{
    char path[512];
    FILE *f = fopen(at(name, path), "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/cutune-test-includes-XXXXXX");
    assert_non_null(mkdtemp(dir));
    char path[512];
    assert_int_equal(mkdir(at("a", path), 0777), 0);
    assert_int_equal(mkdir(at("b", path), 0777), 0);
    assert_int_equal(mkdir(at("inc", path), 0777), 0);
    assert_int_equal(mkfifo(at("inc/pipe.h", path), 0666), 0);
    alarm(60); /* a walk that opens the FIFO blocks: fail the test, do not hang it */
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

/* incl_resolve of `source` (as the file k.cu in the scratch folder) with -I<dir>/inc;
 * its return, the set kept in *inc (caller frees). */
static int resolve(const char *source, incl_set *inc)
{
    char src[512], opt[600];
    snprintf(opt, sizeof opt, "-I%s/inc", dir);
    const char *opts[] = {"-DX=1", opt};
    return incl_resolve(inc, at("k.cu", src), source, opts, 2);
}

/* A FIFO reached any way is an error naming it, and the walk does not wait on it. */
static void test_fifo_is_refused(void **state)
{
    (void)state;
    char path[512], text[700];
    write_at("via_header.h", "#pragma once\n#include <pipe.h>\n");
    snprintf(text, sizeof text, "#include \"%s\"\n", at("inc/pipe.h", path));
    const char *sources[] = {
        "#include <pipe.h>\n",         /* through the -I folder */
        "#include \"inc/pipe.h\"\n",   /* beside the source */
        "#include \"via_header.h\"\n", /* nested in a header */
        text,                          /* by absolute path */
    };
    for (size_t i = 0; i < sizeof sources / sizeof *sources; i++) {
        incl_set inc;
        err_clear();
        assert_int_equal(resolve(sources[i], &inc), -1);
        if (!strstr(last_err(), "pipe.h") || !strstr(last_err(), "not a regular file"))
            fail_msg("source %zu: %s", i, last_err());
        incl_set_free(&inc);
    }
}

/* "common.h" beside a/x.h and beside b/y.h are two files: each #include is renamed to
 * its own file, and NVRTC compiles each where it belongs. */
static void test_same_name_two_folders(void **state)
{
    (void)state;
    write_at("a/x.h", "#include \"common.h\"\nconstexpr int from_a = COMMON;\n");
    write_at("a/common.h", "#define COMMON 1\n");
    write_at("b/y.h", "#undef COMMON\n#include \"common.h\"\nconstexpr int from_b = COMMON;\n");
    write_at("b/common.h", "#undef COMMON\n#define COMMON 2\n");
    const char *source = "#include \"a/x.h\"\n#include \"b/y.h\"\n"
                         "static_assert(from_a == 1 && from_b == 2, \"each common.h in its folder\");\n"
                         "extern \"C\" __global__ void k(int *p) { *p = from_a + from_b; }\n";
    incl_set inc;
    char a_common[512], b_common[512];
    if (resolve(source, &inc) != 0)
        fail_msg("%s", last_err());
    assert_int_equal(inc.nheaders, 4);
    char *ra = sys_canonical_path(at("a/common.h", a_common)), *rb = sys_canonical_path(at("b/common.h", b_common));
    bool seen_a = false, seen_b = false;
    for (int i = 0; i < inc.nheaders; i++) {
        seen_a |= strcmp(inc.names[i], ra) == 0;
        seen_b |= strcmp(inc.names[i], rb) == 0;
    }
    assert_true(seen_a && seen_b);
    incl_set_free(&inc);
    free(ra);
    free(rb);

    /* Compiled from memory: the files are gone from the disk by the time NVRTC runs. */
    char src[512], opt[600];
    snprintf(opt, sizeof opt, "-I%s/inc", dir);
    const char *opts[] = {opt};
    assert_int_equal(incl_resolve(&inc, at("k.cu", src), source, opts, 1), 0);
    char path[512];
    unlink(at("a/x.h", path));
    unlink(at("a/common.h", path));
    unlink(at("b/y.h", path));
    unlink(at("b/common.h", path));
    compile_job job = {src,
                       inc.source,
                       "k",
                       opts,
                       1,
                       "sm_90",
                       (const char *const *)inc.names,
                       inc.nheaders,
                       (const char *const *)inc.texts,
                       inc.nheaders};
    compile_output out;
    assert_int_equal(compile_run(&job, &out), 0);
    if (!out.ok)
        fail_msg("%s", out.log);
    compile_output_free(&out);
    incl_set_free(&inc);
}

/* The toolkit's headers are not the user's: left to NVRTC, and they still compile. */
static void test_toolkit_headers(void **state)
{
    (void)state;
    write_at("half.h", "#pragma once\n#include <cuda_fp16.h>\n#include \"empty.h\"\n");
    write_at("empty.h", ""); /* an empty header is a header */
    char src[512];
    const char *source = "#include \"half.h\"\n"
                         "extern \"C\" __global__ void k(float *p) { *p = __half2float(__float2half(*p)); }\n";
    compile_job job = {at("k.cu", src), source, "k", NULL, 0, "sm_90", NULL, 0, NULL, 0};
    compile_output out;
    assert_int_equal(incl_compile(&job, &out), 0);
    if (!out.ok)
        fail_msg("%s", out.log);
    compile_output_free(&out);
    /* And a FIFO through incl_compile is a failed compile naming it, not an error. */
    job.source = "#include \"inc/pipe.h\"\n";
    assert_int_equal(incl_compile(&job, &out), 0);
    assert_false(out.ok);
    assert_non_null(strstr(out.log, "pipe.h"));
    compile_output_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fifo_is_refused),
        cmocka_unit_test(test_same_name_two_folders),
        cmocka_unit_test(test_toolkit_headers),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
