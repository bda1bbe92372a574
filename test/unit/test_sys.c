/* test_sys.c - the one reader and the one writer (base/sys.h): regular files only, a
 * size limit, the real errno; atomic replacement that never follows a planted link,
 * never replaces a device or a folder, and leaves the old file whole on failure. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/sys.h"

typedef struct fixture {
    char dir[64];
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "/tmp/cutune-sys-XXXXXX");
    if (!mkdtemp(f->dir))
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    int rc = system(cmd);
    free(f);
    return rc == 0 ? 0 : -1;
}

static void path_in(const fixture *f, const char *name, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", f->dir, name);
}

static void put(const char *path, const char *text)
{
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    fputs(text, out);
    assert_int_equal(fclose(out), 0);
}

static char *slurp(const char *path)
{
    char *text = sys_read_file(path, 1 << 20, NULL);
    assert_non_null(text);
    return text;
}

/* How many names in the fixture's folder start with `prefix` (leftover temporaries). */
static int count_prefixed(const fixture *f, const char *prefix)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "ls -a '%s' | grep -c '^%s' || true", f->dir, prefix);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    int n = -1;
    assert_int_equal(fscanf(p, "%d", &n), 1);
    pclose(p);
    return n;
}

static void test_read_regular(void **state)
{
    fixture *f = *state;
    char path[128];
    path_in(f, "a.txt", path, sizeof path);
    put(path, "hello\n");
    size_t len = 0;
    char *text = sys_read_file(path, 100, &len);
    assert_non_null(text);
    assert_int_equal(len, 6);
    assert_string_equal(text, "hello\n");
    free(text);
}

static void test_read_refuses_what_is_not_a_file(void **state)
{
    fixture *f = *state;
    errno = 0;
    assert_null(sys_read_file(f->dir, 100, NULL));
    assert_int_equal(errno, EISDIR);
    assert_null(sys_read_file("/dev/zero", 100, NULL)); /* today's endless read */
    assert_int_equal(errno, SYS_ENOTREG);
    assert_string_equal(sys_strerror(SYS_ENOTREG), "not a regular file");
    char fifo[128];
    path_in(f, "fifo", fifo, sizeof fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_null(sys_read_file(fifo, 100, NULL)); /* returns at once: no writer is awaited */
    assert_int_equal(errno, SYS_ENOTREG);
    char missing[128];
    path_in(f, "missing", missing, sizeof missing);
    assert_null(sys_read_file(missing, 100, NULL));
    assert_int_equal(errno, ENOENT);
}

static void test_read_limit(void **state)
{
    fixture *f = *state;
    char path[128];
    path_in(f, "big", path, sizeof path);
    put(path, "0123456789");
    assert_null(sys_read_file(path, 9, NULL));
    assert_int_equal(errno, SYS_ETOOBIG);
    char *text = sys_read_file(path, 10, NULL); /* exactly the limit is accepted */
    assert_non_null(text);
    free(text);
    path_in(f, "empty", path, sizeof path);
    put(path, "");
    size_t len = 99;
    text = sys_read_file(path, 0, &len);
    assert_non_null(text);
    assert_int_equal(len, 0);
    free(text);
}

static void test_write_replaces_and_keeps_mode(void **state)
{
    fixture *f = *state;
    char path[128];
    path_in(f, "out.json", path, sizeof path);
    assert_int_equal(sys_write_text(path, "one"), 0);
    char *text = slurp(path);
    assert_string_equal(text, "one");
    free(text);
    assert_int_equal(chmod(path, 0640), 0);
    sys_piece pieces[] = {{"tw", 2}, {"o", 1}};
    assert_int_equal(sys_write_file(path, pieces, 2, 0), 0);
    text = slurp(path);
    assert_string_equal(text, "two");
    free(text);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);
    assert_int_equal(count_prefixed(f, "out.json.tmp"), 0);
}

static void test_write_never_follows_a_planted_link(void **state)
{
    fixture *f = *state;
    char victim[128], path[128], planted[160];
    path_in(f, "victim", victim, sizeof victim);
    path_in(f, "out.h", path, sizeof path);
    put(victim, "precious");
    /* The old writer wrote through OUT.tmp: a link planted there hit its target. */
    snprintf(planted, sizeof planted, "%s.tmp", path);
    assert_int_equal(symlink(victim, planted), 0);
    assert_int_equal(sys_write_text(path, "header"), 0);
    char *text = slurp(victim);
    assert_string_equal(text, "precious");
    free(text);
    text = slurp(path);
    assert_string_equal(text, "header");
    free(text);
    /* A link at the target itself is not replaced or written through. */
    char link[128];
    path_in(f, "link.h", link, sizeof link);
    assert_int_equal(symlink(victim, link), 0);
    assert_int_equal(sys_write_text(link, "x"), -1);
    assert_int_equal(errno, SYS_ENOTREG);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    text = slurp(victim);
    assert_string_equal(text, "precious");
    free(text);
}

static void test_write_refuses_devices_and_folders(void **state)
{
    fixture *f = *state;
    assert_int_equal(sys_write_text("/dev/null", "x"), -1);
    assert_int_equal(errno, SYS_ENOTREG);
    struct stat st;
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode)); /* still the device */
    assert_int_equal(sys_write_text(f->dir, "x"), -1);
    assert_int_equal(errno, EISDIR);
    assert_int_equal(sys_write_text("", "x"), -1);
    char nodir[160];
    path_in(f, "no/such/folder/out", nodir, sizeof nodir);
    assert_int_equal(sys_write_text(nodir, "x"), -1);
    assert_int_equal(errno, ENOENT);
}

/* A write that fails half-way (the file-size limit stands in for a full disk) leaves
 * the old file whole and no temporary behind. */
static void test_failed_write_keeps_the_old_file(void **state)
{
    fixture *f = *state;
    char path[128];
    path_in(f, "results.json", path, sizeof path);
    put(path, "measured");
    struct rlimit old;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = {4, old.rlim_max};
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    int rc = sys_write_text(path, "a much longer replacement");
    int err = errno;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, prev);
    assert_int_equal(rc, -1);
    assert_int_equal(err, EFBIG);
    char *text = slurp(path);
    assert_string_equal(text, "measured");
    free(text);
    assert_int_equal(count_prefixed(f, "results.json.tmp"), 0);
}

static void test_canonical_path(void **state)
{
    fixture *f = *state;
    char path[128], dotted[192];
    path_in(f, "a.tune", path, sizeof path);
    put(path, "");
    snprintf(dotted, sizeof dotted, "%s/./../%s/a.tune", f->dir, strrchr(f->dir, '/') + 1);
    char *one = sys_canonical_path(path), *two = sys_canonical_path(dotted);
    assert_non_null(one);
    assert_non_null(two);
    assert_string_equal(one, two);
    free(one);
    free(two);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_read_regular, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_refuses_what_is_not_a_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_replaces_and_keeps_mode, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_never_follows_a_planted_link, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_refuses_devices_and_folders, setup, teardown),
        cmocka_unit_test_setup_teardown(test_failed_write_keeps_the_old_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_canonical_path, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
