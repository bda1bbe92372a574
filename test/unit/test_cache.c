/* test_cache.c - the compile cache's trust rules without compiling anything: an entry
 * read back equal; an entry with one byte edited (its JSON or its cubin), torn, of the
 * older format, under another key, or with a field out of range, is a miss; and the
 * key over what #include lines reach (read by runtime/includes): a header that
 * includes itself, two that include each other, a 10,000-deep chain (a clear error, no crash), one file reached through
 * different spellings of its path giving one key, and the bound on the files reached
 * (exactly INCL_MAX_FILES distinct files pass, one more is an error; a file
 * included again, under any spelling, is not counted twice). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "last_err.h"
#include "runtime/cache.h"
#include "runtime/includes.h"

static char dir[256];

static void write_at(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/cutune-test-cache-XXXXXX");
    assert_non_null(mkdtemp(dir));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

static unsigned char cubin_bytes[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x33, 0, 0, 0x10, 0x20, 0x30};

static compile_output sample(void)
{
    compile_output o;
    memset(&o, 0, sizeof o);
    o.ok = true;
    o.log = "ptxas info    : Used 40 registers";
    o.lowered_name = "_Z1kPf";
    o.cubin = cubin_bytes;
    o.cubin_size = sizeof cubin_bytes;
    o.has_resources = true;
    o.res = (kernel_resources){40, 1, 2048, 16, 0, 0};
    o.seconds = 0.25;
    return o;
}

static void entry_file(const cache_key *k, char *buf, size_t size)
{
    snprintf(buf, size, "%s/cache/%.2s/%s.entry", dir, k->hex, k->hex);
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = malloc(1 << 16);
    assert_non_null(buf);
    *len = fread(buf, 1, 1 << 16, f);
    fclose(f);
    return buf;
}

static void spit(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

/* Replaces the first `from` in the entry by `to` (same length or not). */
static void edit_entry(const char *path, const char *from, const char *to)
{
    size_t len;
    char *data = slurp(path, &len);
    char *at = NULL;
    for (size_t i = 0; !at && i + strlen(from) <= len; i++)
        if (memcmp(data + i, from, strlen(from)) == 0)
            at = data + i;
    assert_non_null(at);
    size_t head = (size_t)(at - data), tail = len - head - strlen(from);
    char *out = malloc(len + strlen(to) + 1);
    assert_non_null(out);
    memcpy(out, data, head);
    memcpy(out + head, to, strlen(to));
    memcpy(out + head + strlen(to), at + strlen(from), tail);
    spit(path, out, head + strlen(to) + tail);
    free(out);
    free(data);
}

static void test_entries_are_checked(void **state)
{
    (void)state;
    char cdir[512], path[700];
    snprintf(cdir, sizeof cdir, "%s/cache", dir);
    cache *c;
    assert_int_equal(cache_open(&c, cdir), 0);
    cache_key key = {"0123456789abcdef0123456789abcdef"};
    entry_file(&key, path, sizeof path);
    compile_output in = sample(), out;
    assert_int_equal(cache_put(c, &key, &in), 0);
    assert_int_equal(cache_get(c, &key, &out), 1);
    assert_true(out.cached && out.ok && out.has_resources);
    assert_int_equal(out.res.registers, 40);
    assert_int_equal(out.res.static_smem, 2048);
    assert_int_equal(out.cubin_size, sizeof cubin_bytes);
    assert_memory_equal(out.cubin, cubin_bytes, sizeof cubin_bytes);
    assert_string_equal(out.lowered_name, "_Z1kPf");
    compile_output_free(&out);

    /* One byte of the JSON edited (registers 40 -> 99, as a hand edit would): a miss. */
    edit_entry(path, "\"registers\":40", "\"registers\":99");
    assert_int_equal(cache_get(c, &key, &out), 0);
    assert_null(out.cubin);
    /* Rewritten, a hit again; then one byte of the cubin flipped: a miss. */
    assert_int_equal(cache_put(c, &key, &in), 0);
    assert_int_equal(cache_get(c, &key, &out), 1);
    compile_output_free(&out);
    size_t len;
    char *data = slurp(path, &len);
    data[len - 1] ^= 1;
    spit(path, data, len);
    assert_int_equal(cache_get(c, &key, &out), 0);
    /* Torn (a crash mid-write under an old writer, a full disk): a miss. */
    data[len - 1] ^= 1;
    spit(path, data, len - 3);
    assert_int_equal(cache_get(c, &key, &out), 0);
    spit(path, data, len);
    assert_int_equal(cache_get(c, &key, &out), 1);
    compile_output_free(&out);
    /* Copied under another key: its checksum binds it to its own. */
    cache_key other = {"fedcba9876543210fedcba9876543210"};
    char other_path[700], cmd[1600];
    entry_file(&other, other_path, sizeof other_path);
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\" && cp '%s' '%s'", other_path, path, other_path);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(cache_get(c, &other, &out), 0);
    /* An entry of the older format (CUTUNE-CACHE-1, no checksum): a miss. */
    static const char v1[] = "CUTUNE-CACHE-1\n{\"ok\":true,\"lowered_name\":\"k\",\"seconds\":0.1,\"log\":\"\","
                             "\"cubin_size\":4,\"resources\":{\"registers\":99}}\nELF!";
    spit(path, v1, sizeof v1 - 1);
    assert_int_equal(cache_get(c, &key, &out), 0);
    free(data);

    /* Fields out of range, even under a valid checksum (a writer's bug, a later cutune):
     * a miss. */
    compile_output bad = sample();
    bad.res.registers = 300;
    assert_int_equal(cache_put(c, &key, &bad), 0);
    assert_int_equal(cache_get(c, &key, &out), 0);
    bad = sample();
    bad.res.static_smem = -1;
    assert_int_equal(cache_put(c, &key, &bad), 0);
    assert_int_equal(cache_get(c, &key, &out), 0);
    bad = sample();
    bad.cubin_size = 0; /* ok without a cubin */
    assert_int_equal(cache_put(c, &key, &bad), 0);
    assert_int_equal(cache_get(c, &key, &out), 0);
    /* A failed compile with its log is a valid entry. */
    bad = sample();
    bad.ok = false;
    bad.lowered_name = NULL;
    bad.cubin = NULL;
    bad.cubin_size = 0;
    bad.has_resources = false;
    assert_int_equal(cache_put(c, &key, &bad), 0);
    assert_int_equal(cache_get(c, &key, &out), 1);
    assert_false(out.ok);
    assert_string_equal(out.log, bad.log);
    compile_output_free(&out);
    cache_close(c);
}

/* The key of `source` whose #include lines are read (as the pool reads them,
 * runtime/includes) through -I`include_dir` when not NULL; the option itself is left
 * out of the job, so that keys compare the files reached, not the option's spelling. */
static int key_of(const char *source_name, const char *source, const char *include_dir, cache_key *k)
{
    char opt[600];
    snprintf(opt, sizeof opt, "-I%s", include_dir ? include_dir : "");
    const char *opts[] = {opt};
    incl_set inc;
    int rc = incl_resolve(&inc, source_name, source, opts, include_dir ? 1 : 0);
    compile_job job = {source_name,
                       inc.source,
                       "k",
                       NULL,
                       0,
                       "sm_90",
                       (const char *const *)inc.names,
                       inc.nheaders,
                       (const char *const *)inc.texts,
                       inc.nheaders};
    if (rc == 0)
        rc = cache_key_for(&job, k);
    incl_set_free(&inc);
    return rc;
}

/* An on/off switch (a bool param `as option "--use_fast_math"`) and a let passed as
 * -DN reach NVRTC as options, so they are part of the key: the same source with and
 * without them are three binaries, and the same options give the same key. */
static void test_key_covers_switches_and_defines(void **state)
{
    (void)state;
    char src[512];
    snprintf(src, sizeof src, "%s/k.cu", dir);
    const char *fast[] = {"-DN=16777216", "--use_fast_math"};
    compile_job off = {.source_name = src,
                       .source = "int a;\n",
                       .name_expression = "k",
                       .options = fast,
                       .noptions = 1,
                       .arch = "sm_90"};
    compile_job on = off, bare = off;
    on.noptions = 2;
    bare.options = NULL;
    bare.noptions = 0;
    cache_key k_off, k_on, k_bare, again;
    assert_int_equal(cache_key_for(&off, &k_off), 0);
    assert_int_equal(cache_key_for(&on, &k_on), 0);
    assert_int_equal(cache_key_for(&bare, &k_bare), 0);
    assert_int_equal(cache_key_for(&on, &again), 0);
    assert_string_not_equal(k_off.hex, k_on.hex);
    assert_string_not_equal(k_off.hex, k_bare.hex);
    assert_string_equal(k_on.hex, again.hex);
}

static void test_include_walk(void **state)
{
    (void)state;
    char src[512], sub[512];
    cache_key k1, k2;
    snprintf(src, sizeof src, "%s/k.cu", dir);
    /* A header that includes itself (#pragma once): hashed once, no endless walk. */
    write_at("self.cuh", "#pragma once\n#include \"./self.cuh\"\n#include \"self.cuh\"\nint a;\n");
    if (key_of(src, "#include \"self.cuh\"\n", NULL, &k1) != 0)
        fail_msg("self include: %s", last_err());
    /* Two headers that include each other, through different spellings. */
    snprintf(sub, sizeof sub, "%s/sub", dir);
    assert_int_equal(mkdir(sub, 0777), 0);
    write_at("ping.cuh", "#pragma once\n#include \"sub/../sub/pong.cuh\"\n");
    write_at("sub/pong.cuh", "#pragma once\n#include \"../ping.cuh\"\n#include <ping.cuh>\n");
    if (key_of(src, "#include \"ping.cuh\"\n", dir, &k1) != 0)
        fail_msg("mutual include: %s", last_err());
    assert_int_equal(key_of(src, "#include \"ping.cuh\"\n", dir, &k2), 0);
    assert_string_equal(k1.hex, k2.hex);
    /* A changed header in the cycle changes the key. */
    write_at("sub/pong.cuh", "#pragma once\n#include \"../ping.cuh\"\nint changed;\n");
    assert_int_equal(key_of(src, "#include \"ping.cuh\"\n", dir, &k2), 0);
    assert_string_not_equal(k1.hex, k2.hex);
    /* The same header found through an include folder spelled three ways (plainly,
     * with ./ and .., through a symlinked folder): one key. */
    char link[512], dotted[600];
    snprintf(link, sizeof link, "%s/linked", dir);
    snprintf(dotted, sizeof dotted, "%s/./sub/../sub", dir);
    assert_int_equal(symlink(sub, link), 0);
    assert_int_equal(key_of(src, "#include <pong.cuh>\n", sub, &k1), 0);
    assert_int_equal(key_of(src, "#include <pong.cuh>\n", dotted, &k2), 0);
    assert_string_equal(k1.hex, k2.hex);
    assert_int_equal(key_of(src, "#include <pong.cuh>\n", link, &k2), 0);
    assert_string_equal(k1.hex, k2.hex);

    /* A chain 10,000 deep: a clear error naming its ends, not a crash. */
    enum { DEEP = 10000 };
    for (int i = 0; i < DEEP; i++) {
        char name[64], text[128];
        snprintf(name, sizeof name, "deep%d.cuh", i);
        if (i + 1 < DEEP)
            snprintf(text, sizeof text, "#include \"deep%d.cuh\"\n", i + 1);
        else
            snprintf(text, sizeof text, "int bottom;\n");
        write_at(name, text);
    }
    assert_int_equal(key_of(src, "#include \"deep0.cuh\"\n", NULL, &k1), -1);
    if (!strstr(last_err(), "includes nested more than 200 deep") || !strstr(last_err(), "k.cu -> ") ||
        !strstr(last_err(), "deep0.cuh -> ... -> ") || !strstr(last_err(), "deep200.cuh"))
        fail_msg("%s", last_err());
    /* 200 deep is within the bound. */
    assert_int_equal(key_of(src, "#include \"deep9800.cuh\"\n", NULL, &k1), 0);
}

/* The source `name` (not on disk) including headers wide0.cuh .. wide<n - 1>.cuh, the
 * first one also as "./wide0.cuh" and again as "wide0.cuh"; its key. */
static int key_of_wide(int n, cache_key *k)
{
    size_t size = (size_t)n * 32 + 64, len = 0;
    char *text = malloc(size);
    assert_non_null(text);
    len += (size_t)snprintf(text + len, size - len, "#include \"./wide0.cuh\"\n");
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(text + len, size - len, "#include \"wide%d.cuh\"\n", i);
    len += (size_t)snprintf(text + len, size - len, "#include \"wide0.cuh\"\n");
    char src[512];
    snprintf(src, sizeof src, "%s/wide.cu", dir);
    int rc = key_of(src, text, NULL, k);
    free(text);
    return rc;
}

static void test_include_files_bound(void **state)
{
    (void)state;
    enum { N = INCL_MAX_FILES };
    for (int i = 0; i <= N; i++) {
        char name[64];
        snprintf(name, sizeof name, "wide%d.cuh", i);
        write_at(name, "int wide;\n");
    }
    cache_key k1, k2;
    if (key_of_wide(N, &k1) != 0)
        fail_msg("%d files: %s", N, last_err());
    assert_int_equal(key_of_wide(N, &k2), 0);
    assert_string_equal(k1.hex, k2.hex);
    assert_int_equal(key_of_wide(N + 1, &k2), -1);
    if (!strstr(last_err(), "more than 16384 files reached by #include") || !strstr(last_err(), "wide16384.cuh"))
        fail_msg("%s", last_err());
}

/* A folder past the path limit, or with a name past NAME_MAX, is refused before any
 * folder is made (before: made at the path cut to 4095 bytes, or up to the long name). */
/* A cache folder that cannot be made (under a regular file): the error object says
 * which folder and why, as `cutune` prints it ("cache off: ..."). */
static void test_open_failure_names_the_folder(void **state)
{
    (void)state;
    write_at("plain", "not a folder\n");
    char sub[600];
    snprintf(sub, sizeof sub, "%s/plain/cache", dir);
    cache *c = NULL;
    err_clear();
    assert_int_equal(cache_open(&c, sub), -1);
    assert_null(c);
    assert_non_null(err_last());
    assert_int_equal(err_last()->code, -1);
    if (!strstr(last_err(), sub) || !strstr(last_err(), strerror(ENOTDIR)))
        fail_msg("%s", last_err());
}

static void test_folder_too_long(void **state)
{
    (void)state;
    char *long_dir = malloc(6000), top[300];
    assert_non_null(long_dir);
    snprintf(top, sizeof top, "%s/toolong", dir);
    size_t used = (size_t)snprintf(long_dir, 6000, "%s", top);
    while (used < 5000)
        used += (size_t)snprintf(long_dir + used, 6000 - used, "/%0200d", 7);
    cache *c = NULL;
    struct stat st;
    assert_int_equal(cache_open(&c, long_dir), -1);
    assert_null(c);
    if (!strstr(last_err(), "longer than the path limit"))
        fail_msg("%s", last_err());
    assert_int_not_equal(stat(top, &st), 0); /* nothing made */
    snprintf(long_dir, 6000, "%s/%0256d/leaf", top, 7);
    assert_int_equal(cache_open(&c, long_dir), -1);
    if (!strstr(last_err(), "a name of 256 bytes"))
        fail_msg("%s", last_err());
    assert_int_not_equal(stat(top, &st), 0);
    snprintf(long_dir, 6000, "%s/%0255d", top, 7); /* at the limits: made */
    assert_int_equal(cache_open(&c, long_dir), 0);
    assert_int_equal(stat(long_dir, &st), 0);
    cache_close(c);
    free(long_dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entries_are_checked), cmocka_unit_test(test_key_covers_switches_and_defines),
        cmocka_unit_test(test_include_walk),        cmocka_unit_test(test_include_files_bound),
        cmocka_unit_test(test_folder_too_long),     cmocka_unit_test(test_open_failure_names_the_folder),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
