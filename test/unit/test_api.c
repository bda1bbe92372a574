/* test_api.c - the public API (include/cutune.h), as an application would use it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cutune.h"

/* A spec whose paths resolve against the test's source folder (kernels/ exists). */
static cutune_spec *load(const char *text, const char *const *set, int nset, int expect_rc)
{
    cutune_load_options opts = {CUTUNE_LOAD_OPTIONS_VERSION, set, nset, CUTUNE_SOURCE_DIR "/examples", 0, NULL, NULL};
    cutune_spec *spec = NULL;
    int rc = cutune_spec_load_string(&spec, "api.tune", text, strlen(text), &opts);
    if (rc != expect_rc)
        fail_msg("load returned %d (%s), expected %d:\n%s", rc, cutune_status_text(rc), expect_rc,
                 spec ? cutune_spec_diagnostics(spec, 0, 0) : "(no spec)");
    assert_non_null(spec);
    return spec;
}

static const char routes_spec[] = "kernel reduce<BLOCK, float, UNROLL> from \"../kernels/sum_matrix.cu\" {\n"
                                  "  param BLOCK in 64 .. 256 step *2 as template;\n"
                                  "  param UNROLL in [1, 4] as template;\n"
                                  "  param regs in [0, 32] as maxrregcount;\n"
                                  "  param fast in [\"\", \"--use_fast_math\"] as option;\n"
                                  "  param level in [3] as option \"-Xptxas=-O{}\";\n"
                                  "  param pad in [false, true] as define PADDED;\n"
                                  "  param smem_kb in [0, 2] as none;\n"
                                  "  let n = 1 << 20;\n"
                                  "  require BLOCK * UNROLL <= 512;\n"
                                  "  block BLOCK;\n"
                                  "  grid cdiv(n, BLOCK * UNROLL);\n"
                                  "  smem smem_kb * 1024;\n"
                                  "  options \"-std=c++17\";\n"
                                  "}\n";

static void test_variants_carry_every_route(void **state)
{
    (void)state;
    cutune_spec *spec = load(routes_spec, NULL, 0, CUTUNE_OK);
    assert_true(cutune_spec_ok(spec));
    assert_int_equal(cutune_spec_param_count(spec), 7);
    assert_string_equal(cutune_spec_param_route(spec, 0), "template");
    assert_string_equal(cutune_spec_param_type(spec, 5), "bool");
    assert_int_equal(cutune_spec_param_value_count(spec, 0), 3);
    char buf[32];
    assert_int_equal(cutune_spec_param_value(buf, sizeof buf, spec, 0, 2), 3);
    assert_string_equal(buf, "256");
    assert_int_equal(cutune_spec_param_value(buf, sizeof buf, spec, 0, 3), CUTUNE_EINVAL);

    cutune_space_size size;
    assert_int_equal(cutune_space_count(&size, spec), CUTUNE_OK);
    assert_int_equal(size.raw, 3 * 2 * 2 * 2 * 1 * 2 * 2);
    /* BLOCK*UNROLL <= 512 removes (256, 4): 5 of 6 pairs remain. */
    assert_int_equal(size.valid, 5 * 2 * 2 * 1 * 2 * 2);

    cutune_configs *it;
    assert_int_equal(cutune_configs_new(&it, spec), CUTUNE_OK);
    const cutune_variant *v;
    assert_int_equal(cutune_configs_next(&v, it), 1);
    /* The first configuration: every param at its first value. */
    assert_int_equal(v->ordinal, 0);
    assert_string_equal(v->name_expression, "reduce<64, float, 1>");
    assert_int_equal(v->block[0], 64);
    assert_int_equal(v->grid[0], (1 << 20) / 64);
    assert_int_equal(v->smem_bytes, 0);
    assert_int_equal(v->ndefines, 1);
    assert_string_equal(v->defines[0], "-DPADDED=0");
    assert_int_equal(v->ncommon_options, 1);
    assert_string_equal(v->options[0], "-std=c++17");
    assert_int_equal(v->noptions, 2); /* no register cap, no fast math: only the level */
    assert_string_equal(v->options[1], "-Xptxas=-O3");
    uint64_t seen = 1;
    bool saw_all_routes = false;
    while (cutune_configs_next(&v, it) == 1) {
        seen++;
        if (strcmp(v->values[2], "32") == 0 && strcmp(v->values[3], "--use_fast_math") == 0 &&
            strcmp(v->values[5], "true") == 0 && strcmp(v->values[6], "2") == 0) {
            assert_int_equal(v->noptions, 4);
            assert_string_equal(v->options[1], "--maxrregcount=32");
            assert_string_equal(v->options[2], "--use_fast_math");
            assert_string_equal(v->defines[0], "-DPADDED=1");
            assert_int_equal(v->smem_bytes, 2048);
            saw_all_routes = true;
        }
    }
    assert_true(saw_all_routes);
    assert_int_equal(seen, size.valid);
    cutune_configs_free(it);
    cutune_spec_free(spec);
}

static void test_overrides(void **state)
{
    (void)state;
    const char *set[] = {"n=4096"};
    cutune_spec *spec = load(routes_spec, set, 1, CUTUNE_OK);
    cutune_configs *it;
    const cutune_variant *v;
    assert_int_equal(cutune_configs_new(&it, spec), CUTUNE_OK);
    assert_int_equal(cutune_configs_next(&v, it), 1);
    assert_int_equal(v->grid[0], 4096 / 64);
    cutune_configs_free(it);
    cutune_spec_free(spec);

    const char *typo[] = {"nn=4096"};
    spec = load(routes_spec, typo, 1, CUTUNE_ESPEC);
    assert_non_null(strstr(cutune_spec_diagnostics(spec, 0, 0), "no let named 'nn'; did you mean 'n'?"));
    cutune_spec_free(spec);

    const char *wrong_type[] = {"n=big"};
    spec = load(routes_spec, wrong_type, 1, CUTUNE_ESPEC);
    assert_non_null(strstr(cutune_spec_diagnostics(spec, 0, 0), "gives a string, but 'n' is an int"));
    cutune_spec_free(spec);

    const char *malformed[] = {"n"};
    spec = load(routes_spec, malformed, 1, CUTUNE_ESPEC);
    assert_non_null(strstr(cutune_spec_diagnostics(spec, 0, 0), "expected NAME=VALUE"));
    cutune_spec_free(spec);
}

static void test_missing_file(void **state)
{
    (void)state;
    cutune_spec *spec = NULL;
    assert_int_equal(cutune_spec_load_file(&spec, "/nonexistent/x.tune", NULL), CUTUNE_EIO);
    assert_non_null(spec);
    assert_false(cutune_spec_ok(spec));
    assert_string_equal(cutune_spec_diagnostics(spec, 0, 0),
                        "cutune: error: cannot read spec '/nonexistent/x.tune': No such file or directory\n");
    cutune_spec_free(spec);
    cutune_spec_free(NULL);
    assert_int_equal(cutune_spec_load_file(NULL, "x", NULL), CUTUNE_EINVAL);
}

static void test_empty_space_is_explained(void **state)
{
    (void)state;
    cutune_spec *spec = load("kernel k from \"../kernels/sum_matrix.cu\" {\n"
                             "  param a in 1 .. 4;\n  param b in 1 .. 4;\n"
                             "  require a + b > 3;\n  require a * b < 2;\n"
                             "  block 32; grid a;\n}\n",
                             NULL, 0, CUTUNE_OK);
    int before = cutune_spec_diagnostic_count(spec);
    cutune_space_size size;
    assert_int_equal(cutune_space_count(&size, spec), CUTUNE_ESPEC);
    assert_int_equal(size.raw, 16);
    assert_int_equal(size.valid, 0);
    assert_string_equal(cutune_spec_diagnostics(spec, before, 0),
                        "api.tune:5:11: error: no configuration satisfies both this constraint and the one on "
                        "line 4\n"
                        "     5 |   require a * b < 2;\n"
                        "       |           ^~~~~~~~~\n"
                        "api.tune:4:11: note: the other constraint\n"
                        "     4 |   require a + b > 3;\n"
                        "       |           ^~~~~~~~~\n");
    cutune_spec_free(spec);
}

static void test_bad_geometry_for_one_configuration(void **state)
{
    (void)state;
    cutune_spec *spec = load("kernel k from \"../kernels/sum_matrix.cu\" {\n"
                             "  param a in [1, 0, 2] as none;\n"
                             "  block 32; grid a;\n}\n",
                             NULL, 0, CUTUNE_OK);
    cutune_configs *it;
    const cutune_variant *v;
    assert_int_equal(cutune_configs_new(&it, spec), CUTUNE_OK);
    assert_int_equal(cutune_configs_next(&v, it), 1);
    int before = cutune_spec_diagnostic_count(spec);
    assert_int_equal(cutune_configs_next(&v, it), CUTUNE_EEVAL);
    assert_non_null(strstr(cutune_spec_diagnostics(spec, before, 0),
                           "api.tune:3:18: error: grid dimension x is 0; it must be at least 1 (for a = 0)"));
    cutune_configs_free(it);
    cutune_spec_free(spec);
}

static void test_version_and_status_text(void **state)
{
    (void)state;
    char expect[32];
    snprintf(expect, sizeof expect, "%d.%d.%d", CUTUNE_VERSION_MAJOR, CUTUNE_VERSION_MINOR, CUTUNE_VERSION_PATCH);
    assert_string_equal(cutune_version(), expect);
    assert_string_equal(cutune_status_text(CUTUNE_ESPEC), "the spec has errors");
    assert_string_equal(cutune_status_text(12345), "unknown status");
}

static int ignore_analysis(void *user, const cutune_analysis *a)
{
    (void)user;
    (void)a;
    return 0;
}

/* Compile threads are bounded in the library too, not only on the command line (a
 * thread count feeds the pool's window and the search's batch sizes). */
static void test_jobs_are_bounded(void **state)
{
    (void)state;
    cutune_spec *spec = load(routes_spec, NULL, 0, CUTUNE_OK);
    cutune_analyze_summary summary;
    cutune_analyze_options opts = CUTUNE_ANALYZE_OPTIONS_INIT;
    opts.no_cache = 1;
    opts.limit = 1;
    opts.jobs = CUTUNE_MAX_JOBS + 1;
    assert_int_equal(cutune_analyze(&summary, spec, &opts, ignore_analysis, NULL), CUTUNE_EINVAL);
    assert_non_null(strstr(cutune_last_error(), "jobs must be 0 (one per core) to 256, not 257"));
    opts.jobs = -1;
    assert_int_equal(cutune_analyze(&summary, spec, &opts, ignore_analysis, NULL), CUTUNE_EINVAL);
    cutune_spec_free(spec);
}

/* ---- errors and long paths ---- */

/* A failing public call without a spec leaves its status and a message naming the
 * cause in the thread's error object. */
static void test_failed_calls_set_the_error(void **state)
{
    (void)state;
    cutune_occupancy occ;
    assert_int_equal(cutune_occupancy_for_arch(&occ, "sm_1", 32, 128, 0), CUTUNE_EINVAL);
    const cutune_error *e = cutune_error_last();
    assert_non_null(e);
    assert_int_equal(e->code, CUTUNE_EINVAL);
    assert_non_null(strstr(e->message, "unknown architecture 'sm_1'"));
    assert_string_equal(cutune_last_error(), e->message);

    cutune_tune_result *r = (cutune_tune_result *)&occ; /* must be reset to NULL */
    const char *missing = "/nonexistent-cutune-test/results.json";
    assert_int_equal(cutune_results_load(&r, missing), CUTUNE_EIO);
    assert_null(r);
    e = cutune_error_last();
    assert_non_null(e);
    assert_int_equal(e->code, CUTUNE_EIO);
    assert_non_null(strstr(e->message, "cannot read '/nonexistent-cutune-test/results.json'"));

    /* The same call with a known architecture succeeds. */
    assert_int_equal(cutune_occupancy_for_arch(&occ, "sm_90", 32, 128, 0), CUTUNE_OK);
    assert_true(occ.blocks_per_sm > 0);
}

/* the GPUs asked for are checked before any device is: more than
 * CUTUNE_MAX_DEVICES, or a count without the list, is refused with a message, and no
 * result is made. */
static void test_tune_devices_are_checked(void **state)
{
    (void)state;
    cutune_spec *spec = load(routes_spec, NULL, 0, CUTUNE_OK);
    int gpus[CUTUNE_MAX_DEVICES + 1] = {0};
    cutune_tune_options t = CUTUNE_TUNE_OPTIONS_INIT;
    t.devices = gpus;
    t.ndevices = CUTUNE_MAX_DEVICES + 1;
    cutune_tune_result *r = (cutune_tune_result *)spec; /* must be reset to NULL */
    assert_int_equal(cutune_tune(&r, spec, &t), CUTUNE_EINVAL);
    assert_null(r);
    assert_non_null(strstr(cutune_last_error(), "at most 16 GPUs"));
    t.devices = NULL;
    t.ndevices = 2;
    assert_int_equal(cutune_tune(&r, spec, &t), CUTUNE_EINVAL);
    assert_null(r);
    cutune_spec_free(spec);
}

/* A folder under /tmp nested until its path is longer than `min` bytes; its levels are
 * written to levels[0..*n) so that remove_deep can take them down. */
static void make_deep(char *path, size_t size, size_t min, char levels[][2048], int *n)
{
    snprintf(path, size, "/tmp/cutune-api-XXXXXX");
    assert_non_null(mkdtemp(path));
    *n = 0;
    snprintf(levels[(*n)++], 2048, "%s", path);
    while (strlen(path) <= min) {
        size_t len = strlen(path);
        char name[101];
        memset(name, 'a', sizeof name - 1); /* a 100-byte folder name */
        name[sizeof name - 1] = '\0';
        snprintf(path + len, size - len, "/%s", name);
        assert_int_equal(mkdir(path, 0700), 0);
        snprintf(levels[(*n)++], 2048, "%s", path);
    }
}

static void remove_deep(char levels[][2048], int n)
{
    while (n-- > 0)
        rmdir(levels[n]);
}

/* A results file in a folder whose path is over 1,024 bytes: the summary reports the
 * path in full, and a cache folder as deep is reported in full too. */
static void test_long_paths_are_reported_in_full(void **state)
{
    (void)state;
    char deep[2048], levels[16][2048];
    int nlevels;
    make_deep(deep, sizeof deep, 1100, levels, &nlevels);

    /* Copy a stored results file into the deep folder and load it from there. */
    FILE *in = fopen(CUTUNE_SOURCE_DIR "/test/emit/h100.json", "rb");
    assert_non_null(in);
    char path[2200];
    snprintf(path, sizeof path, "%s/results.json", deep);
    FILE *out = fopen(path, "wb");
    assert_non_null(out);
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, in)) > 0)
        assert_int_equal(fwrite(buf, 1, got, out), got);
    fclose(in);
    assert_int_equal(fclose(out), 0);
    cutune_tune_result *r = NULL;
    if (cutune_results_load(&r, path) != CUTUNE_OK)
        fail_msg("%s", cutune_last_error());
    const cutune_tune_summary *s = cutune_tune_summary_of(r);
    assert_true(strlen(path) > 1100);
    assert_non_null(s->results_path);
    assert_string_equal(s->results_path, path);
    assert_null(s->journal_path); /* a loaded file has no journal of its own */
    cutune_tune_result_free(r);
    unlink(path);

    /* The analysis's cache folder, as deep: its summary's string outlives the call (owned
     * by the spec). Needs NVRTC to compile one variant; skipped without it. */
    cutune_spec *spec = load(routes_spec, NULL, 0, CUTUNE_OK);
    char cache[2200];
    snprintf(cache, sizeof cache, "%s/cache", deep);
    cutune_analyze_options opts = CUTUNE_ANALYZE_OPTIONS_INIT;
    opts.arch = "sm_90";
    opts.jobs = 1;
    opts.limit = 1;
    opts.cache_dir = cache;
    cutune_analyze_summary summary;
    int rc = cutune_analyze(&summary, spec, &opts, ignore_analysis, NULL);
    if (rc == CUTUNE_OK) {
        assert_non_null(summary.cache_dir);
        assert_string_equal(summary.cache_dir, cache);
        if (summary.cache_warning)
            fail_msg("cache warning: %s", summary.cache_warning);
        /* The default folder from CUTUNE_CACHE_DIR, as deep: in full too (it was cut at
         * 1,024 bytes before). */
        const char *before = getenv("CUTUNE_CACHE_DIR");
        char *saved = before ? strdup(before) : NULL;
        char env_cache[2200];
        snprintf(env_cache, sizeof env_cache, "%s/env-cache", deep);
        assert_int_equal(setenv("CUTUNE_CACHE_DIR", env_cache, 1), 0);
        opts.cache_dir = NULL;
        assert_int_equal(cutune_analyze(&summary, spec, &opts, ignore_analysis, NULL), CUTUNE_OK);
        assert_non_null(summary.cache_dir);
        assert_string_equal(summary.cache_dir, env_cache);
        assert_true(strlen(summary.cache_dir) > 1100);
        if (saved)
            setenv("CUTUNE_CACHE_DIR", saved, 1);
        else
            unsetenv("CUTUNE_CACHE_DIR");
        free(saved);
    }
    cutune_spec_free(spec);
    char cmd[2400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", levels[0]);
    assert_int_equal(system(cmd), 0);
    remove_deep(levels, nlevels);
    if (rc != CUTUNE_OK)
        skip(); /* no NVRTC on this machine: the results path was checked */
}

/* ---- device attributes ---- */

/* The index of device attribute `name` (failing the test when there is none). */
static int attr_index(const char *name)
{
    for (int i = 0; i < cutune_device_attr_count(); i++)
        if (strcmp(cutune_device_attr_name(i), name) == 0)
            return i;
    fail_msg("no device attribute %s", name);
    return -1;
}

static const char persistent_spec[] = "kernel persistent_saxpy from \"../kernels/persistent_saxpy.cu\" {\n"
                                      "    param bps in [1, 2] as none;\n"
                                      "    block 256;\n"
                                      "    grid sm_count * bps;\n"
                                      "}\n";

/* Without a GPU the values are the --arch table's, marked assumed; with a device given,
 * that device's. Figures: the A100 SXM4 has 108 SMs and 2048 threads per SM, an
 * RTX 3090 82 SMs (the vendors' product pages). */
static void test_device_attributes_from_the_table_and_a_device(void **state)
{
    (void)state;
    int sm = attr_index("sm_count"), thr = attr_index("max_threads_per_sm"), warp = attr_index("warp_size");
    cutune_load_options opts = {CUTUNE_LOAD_OPTIONS_VERSION, NULL, 0, CUTUNE_SOURCE_DIR "/examples", 0, "sm_80", NULL};
    cutune_spec *spec = NULL;
    assert_int_equal(cutune_spec_load_string(&spec, "d.tune", persistent_spec, strlen(persistent_spec), &opts),
                     CUTUNE_OK);
    assert_int_equal(cutune_spec_device_attr_value(spec, sm), 108);
    assert_int_equal(cutune_spec_device_attr_value(spec, thr), 2048);
    assert_int_equal(cutune_spec_device_attr_used(spec, sm), 1);
    assert_int_equal(cutune_spec_device_attr_used(spec, thr), 0);
    assert_int_equal(cutune_spec_device_assumed(spec), 1);
    assert_non_null(strstr(cutune_spec_device_source(spec), "A100"));
    cutune_configs *it;
    const cutune_variant *v;
    assert_int_equal(cutune_configs_new(&it, spec), CUTUNE_OK);
    assert_int_equal(cutune_configs_next(&v, it), 1);
    assert_int_equal(v->grid[0], 108);
    cutune_configs_free(it);
    cutune_spec_free(spec);

    cutune_device dev;
    memset(&dev, 0, sizeof dev);
    dev.name = "Made-up GPU";
    dev.cc = 90;
    dev.sm_count = 114;
    dev.warp_size = 32;
    opts.arch = NULL;
    opts.device = &dev;
    assert_int_equal(cutune_spec_load_string(&spec, "d.tune", persistent_spec, strlen(persistent_spec), &opts),
                     CUTUNE_OK);
    assert_int_equal(cutune_spec_device_attr_value(spec, sm), 114);
    assert_int_equal(cutune_spec_device_attr_value(spec, warp), 32);
    assert_int_equal(cutune_spec_device_assumed(spec), 0);
    assert_non_null(strstr(cutune_spec_device_source(spec), "Made-up GPU"));
    cutune_spec_free(spec);

    opts.device = NULL;
    opts.arch = "sm_12";
    assert_int_equal(cutune_spec_load_string(&spec, "d.tune", persistent_spec, strlen(persistent_spec), &opts),
                     CUTUNE_EINVAL);
    assert_non_null(strstr(cutune_spec_diagnostics(spec, 0, 0), "unknown architecture 'sm_12'"));
    cutune_spec_free(spec);
}

/* cutune_spec_set_device: the spec checked again with a device's values; a constraint
 * that the new values make false is an error there, and the spec keeps the old model. */
static void test_set_device_checks_again(void **state)
{
    (void)state;
    static const char text[] = "kernel persistent_saxpy from \"../kernels/persistent_saxpy.cu\" {\n"
                               "    param bps in [1, 2] as none;\n"
                               "    require bps * 1024 <= max_threads_per_sm;\n"
                               "    require max_threads_per_sm >= 1024;\n" /* constant for a device */
                               "    block 1024;\n"
                               "    grid sm_count * bps;\n"
                               "}\n";
    cutune_spec *spec = load(text, NULL, 0, CUTUNE_OK);
    int sm = attr_index("sm_count");
    cutune_device dev;
    memset(&dev, 0, sizeof dev);
    dev.name = "Made-up GPU";
    dev.cc = 86;
    dev.sm_count = 10;
    dev.max_threads_per_sm = 1536; /* one block of 1024 fits, two do not */
    dev.warp_size = 32;
    assert_int_equal(cutune_spec_set_device(spec, &dev), CUTUNE_OK);
    assert_int_equal(cutune_spec_device_attr_value(spec, sm), 10);
    assert_int_equal(cutune_spec_device_assumed(spec), 0);
    cutune_space_size size;
    assert_int_equal(cutune_space_count(&size, spec), CUTUNE_OK);
    assert_int_equal(size.valid, 1);
    dev.max_threads_per_sm = 512; /* the constant constraint is false */
    assert_int_equal(cutune_spec_set_device(spec, &dev), CUTUNE_ESPEC);
    assert_non_null(strstr(cutune_spec_diagnostics(spec, 0, 0), "checked again with the device attributes of GPU 0: "
                                                                "Made-up GPU"));
    assert_int_equal(cutune_spec_device_attr_value(spec, sm), 10); /* the last good check stands */
    assert_int_equal(cutune_spec_set_device(NULL, &dev), CUTUNE_EINVAL);
    cutune_spec_free(spec);
}

/* read_all: the file at `path` into buf (at most size - 1 bytes), NUL-ended; buf. */
static const char *read_all(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    buf[fread(buf, 1, size - 1, f)] = '\0';
    fclose(f);
    return buf;
}

/* cutune_write_file: the whole text in the file, replacing what it held; a path that
 * cannot be written, named with why; a folder refused and left as it was. */
static void test_write_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/cutune-write-XXXXXX", path[128], bad[128], buf[64], want[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/out.txt", dir);
    assert_int_equal(cutune_write_file(path, "first line\nsecond line\n"), CUTUNE_OK);
    assert_string_equal(read_all(path, buf, sizeof buf), "first line\nsecond line\n");
    assert_int_equal(cutune_write_file(path, "shorter\n"), CUTUNE_OK);
    assert_string_equal(read_all(path, buf, sizeof buf), "shorter\n");
    snprintf(bad, sizeof bad, "%s/no/such/out.txt", dir);
    assert_int_equal(cutune_write_file(bad, "x"), CUTUNE_EIO);
    snprintf(want, sizeof want, "cannot write '%s': No such file or directory", bad);
    assert_string_equal(cutune_last_error(), want);
    assert_int_equal(cutune_write_file(dir, "x"), CUTUNE_EIO); /* a folder is not replaced */
    snprintf(want, sizeof want, "cannot write '%s': ", dir);
    assert_memory_equal(cutune_last_error(), want, strlen(want));
    struct stat st;
    assert_int_equal(stat(dir, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(cutune_write_file(NULL, "x"), CUTUNE_EINVAL);
    assert_int_equal(cutune_write_file(path, NULL), CUTUNE_EINVAL);
    assert_string_equal(read_all(path, buf, sizeof buf), "shorter\n");
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(dir), 0);
}

/* cutune_spec_use_gpu: the values of a GPU the driver sees; a GPU it does not see (or
 * a spec that reads no attribute) leaves the spec as it was loaded, without an error.
 * Holds with or without a GPU here: GPU 0's values are checked against its own. */
static void test_use_gpu(void **state)
{
    (void)state;
    static const char reads[] = "kernel persistent_saxpy from \"../kernels/persistent_saxpy.cu\" {\n"
                                "    param bps in [1, 2] as none;\n"
                                "    block 256;\n"
                                "    grid sm_count * bps;\n"
                                "}\n";
    cutune_spec *spec = load(reads, NULL, 0, CUTUNE_OK);
    int sm = attr_index("sm_count");
    long long table = cutune_spec_device_attr_value(spec, sm);
    assert_int_equal(cutune_spec_device_assumed(spec), 1);
    assert_int_equal(cutune_spec_use_gpu(spec, CUTUNE_MAX_GPU_NUMBER), CUTUNE_OK); /* no such GPU */
    assert_int_equal(cutune_spec_device_assumed(spec), 1);
    assert_int_equal(cutune_spec_device_attr_value(spec, sm), table);
    cutune_device dev;
    bool gpu = cutune_device_get(&dev, 0) == CUTUNE_OK;
    assert_int_equal(cutune_spec_use_gpu(spec, 0), CUTUNE_OK);
    assert_int_equal(cutune_spec_device_assumed(spec), !gpu);
    assert_int_equal(cutune_spec_device_attr_value(spec, sm), gpu ? dev.sm_count : table);
    cutune_spec_free(spec);
    spec = load("kernel persistent_saxpy from \"../kernels/persistent_saxpy.cu\" {\n"
                "    param bps in [1, 2] as none;\n    block 256;\n    grid 4 * bps;\n}\n",
                NULL, 0, CUTUNE_OK);
    assert_int_equal(cutune_spec_use_gpu(spec, 0), CUTUNE_OK); /* reads none: as loaded */
    assert_int_equal(cutune_spec_device_assumed(spec), 1);
    cutune_spec_free(spec);
    assert_int_equal(cutune_spec_use_gpu(NULL, 0), CUTUNE_EINVAL);
}

/* Analysing for another architecture checks the spec again with its values: loaded for
 * sm_90 (132 SMs), analysed for sm_86, the variants' grid has the RTX 3090's 82 SMs. */
static int first_grid(void *user, const cutune_analysis *a)
{
    *(int64_t *)user = a->variant->grid[0];
    return 1; /* one is enough */
}

static void test_analysis_rechecks_for_its_arch(void **state)
{
    (void)state;
    cutune_spec *spec = load(persistent_spec, NULL, 0, CUTUNE_OK);
    int sm = attr_index("sm_count");
    assert_int_equal(cutune_spec_device_attr_value(spec, sm), 132);
    cutune_analyze_options opts = CUTUNE_ANALYZE_OPTIONS_INIT;
    opts.arch = "sm_86";
    opts.no_cache = 1;
    opts.jobs = 1;
    opts.limit = 1;
    cutune_analyze_summary summary;
    int64_t grid = 0;
    int rc = cutune_analyze(&summary, spec, &opts, first_grid, &grid);
    assert_true(rc == CUTUNE_OK || rc == CUTUNE_ESTOPPED);
    assert_int_equal(grid, 82);
    assert_int_equal(cutune_spec_device_attr_value(spec, sm), 82);
    assert_int_equal(cutune_spec_device_assumed(spec), 1);
    cutune_spec_free(spec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_variants_carry_every_route),
        cmocka_unit_test(test_overrides),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_empty_space_is_explained),
        cmocka_unit_test(test_bad_geometry_for_one_configuration),
        cmocka_unit_test(test_version_and_status_text),
        cmocka_unit_test(test_jobs_are_bounded),
        cmocka_unit_test(test_failed_calls_set_the_error),
        cmocka_unit_test(test_long_paths_are_reported_in_full),
        cmocka_unit_test(test_device_attributes_from_the_table_and_a_device),
        cmocka_unit_test(test_analysis_rechecks_for_its_arch),
        cmocka_unit_test(test_set_device_checks_again),
        cmocka_unit_test(test_use_gpu),
        cmocka_unit_test(test_write_file),
        cmocka_unit_test(test_tune_devices_are_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
