/* test_sys.c - the one reader and the one writer (base/sys.h): regular files only, a
 * size limit, the real errno; atomic replacement that never follows a planted link,
 * never replaces a device or a folder, and leaves the old file whole on failure; the
 * same for a file written as a stream (sys_stream). */
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

/* A stream: written in pieces (one larger than its buffer), the file appears whole at
 * commit and not before; the old file stays until then; nothing is left behind. */
static void test_stream_commit(void **state)
{
    fixture *f = *state;
    char path[128];
    path_in(f, "big.json", path, sizeof path);
    put(path, "old");
    sys_stream *s = NULL;
    assert_int_equal(sys_stream_open(&s, path, 0), 0);
    size_t big = 200000;
    char *chunk = malloc(big);
    assert_non_null(chunk);
    memset(chunk, 'x', big);
    assert_int_equal(sys_stream_write(s, "{", 1), 0);
    assert_int_equal(sys_stream_write(s, chunk, big), 0);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(sys_stream_write(s, "ab", 2), 0);
    char *before = slurp(path);
    assert_string_equal(before, "old"); /* not replaced until committed */
    free(before);
    assert_int_equal(count_prefixed(f, "big.json.tmp"), 1);
    assert_int_equal(sys_stream_commit(s), 0);
    size_t len = 0;
    char *text = sys_read_file(path, 1 << 20, &len);
    assert_non_null(text);
    assert_int_equal(len, 1 + big + 2000);
    assert_int_equal(text[0], '{');
    assert_int_equal(text[big], 'x');
    assert_int_equal(text[big + 1], 'a');
    assert_int_equal(text[len - 1], 'b');
    free(text);
    free(chunk);
    assert_int_equal(count_prefixed(f, "big.json.tmp"), 0);
}

/* Aborted: the old file as it was, no temporary. Refused targets: nothing created. */
static void test_stream_abort_and_refusals(void **state)
{
    fixture *f = *state;
    char path[128], link[128];
    path_in(f, "out.json", path, sizeof path);
    put(path, "kept");
    sys_stream *s = NULL;
    assert_int_equal(sys_stream_open(&s, path, SYS_WRITE_NOSYNC), 0);
    assert_int_equal(sys_stream_write(s, "half", 4), 0);
    sys_stream_abort(s);
    char *text = slurp(path);
    assert_string_equal(text, "kept");
    free(text);
    assert_int_equal(count_prefixed(f, "out.json.tmp"), 0);
    sys_stream_abort(NULL);
    assert_int_equal(sys_stream_open(&s, f->dir, 0), -1);
    assert_int_equal(errno, EISDIR);
    assert_null(s);
    path_in(f, "link.json", link, sizeof link);
    assert_int_equal(symlink(path, link), 0);
    assert_int_equal(sys_stream_open(&s, link, 0), -1);
    assert_int_equal(errno, SYS_ENOTREG);
    assert_int_equal(sys_stream_open(&s, "/dev/null", 0), -1);
    assert_int_equal(errno, SYS_ENOTREG);
    assert_int_equal(sys_stream_open(&s, "", 0), -1);
    assert_int_equal(errno, ENOENT);
    char missing[160];
    snprintf(missing, sizeof missing, "%s/no/such/folder.json", f->dir);
    assert_int_equal(sys_stream_open(&s, missing, 0), -1);
    assert_int_equal(errno, ENOENT);
}

/* A descriptor's stream onto /dev/full: the failure is kept and told at commit (and by
 * every write after it). */
static void test_stream_full_device(void **state)
{
    (void)state;
    int fd = open("/dev/full", O_WRONLY);
    if (fd < 0)
        skip();
    sys_stream *s = NULL;
    assert_int_equal(sys_stream_fd(&s, fd), 0);
    assert_int_equal(sys_stream_write(s, "small", 5), 0); /* buffered */
    char *chunk = calloc(1, 100000);
    assert_non_null(chunk);
    assert_int_equal(sys_stream_write(s, chunk, 100000), -1); /* straight through: fails */
    assert_int_equal(errno, ENOSPC);
    assert_int_equal(sys_stream_write(s, "more", 4), -1);
    assert_int_equal(sys_stream_commit(s), -1);
    assert_int_equal(errno, ENOSPC);
    free(chunk);
    assert_int_equal(sys_stream_fd(&s, fd), 0);
    assert_int_equal(sys_stream_write(s, "x", 1), 0);
    assert_int_equal(sys_stream_commit(s), -1); /* the flush at commit fails */
    assert_int_equal(errno, ENOSPC);
    close(fd);
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
        cmocka_unit_test_setup_teardown(test_stream_commit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stream_abort_and_refusals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stream_full_device, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
