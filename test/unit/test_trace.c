/* test_trace.c - the timeline writer (base/trace.h): CUTUNE_TRACE read once, the file
 * begun with "[", each event one line that JSON reads back (names and details escaped,
 * cut to the line's bound), several processes appending at once (forked, as the GPU and
 * compile workers are) without a line mixed, a child that closed the descriptor
 * reopening it, and the whole file an array once its last comma is dropped and "]"
 * added. Expected values are the ones the test writes, read back through jansson. */
#include <fcntl.h>
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/sys.h"
#include "base/trace.h"

static char path[256];

/* The file's text (malloc'd). */
static char *file_text(size_t *len)
{
    char *t = sys_read_file(path, SYS_LIMIT_STORED, len);
    assert_non_null(t);
    return t;
}

/* Every line after the "[" as a JSON object, in order (a new array); each must end in
 * ",". */
static json_t *events(void)
{
    size_t len;
    char *t = file_text(&len);
    assert_true(len >= 2);
    assert_memory_equal(t, "[\n", 2);
    json_t *all = json_array();
    char *line = t + 2;
    while (*line) {
        char *nl = strchr(line, '\n');
        assert_non_null(nl); /* every line whole */
        assert_true(nl > line && nl[-1] == ',');
        assert_true((size_t)(nl - line) + 1 <= TRACE_LINE_MAX);
        json_error_t e;
        json_t *ev = json_loadb(line, (size_t)(nl - line - 1), 0, &e);
        if (!ev)
            fail_msg("line does not parse: %.*s (%s)", (int)(nl - line), line, e.text);
        json_array_append_new(all, ev);
        line = nl + 1;
    }
    free(t);
    return all;
}

static const char *str(const json_t *ev, const char *key)
{
    const char *s = json_string_value(json_object_get(ev, key));
    assert_non_null(s);
    return s;
}

static const char *detail(const json_t *ev)
{
    return json_string_value(json_object_get(json_object_get(ev, "args"), "detail"));
}

static long long num(const json_t *ev, const char *key)
{
    const json_t *v = json_object_get(ev, key);
    assert_true(json_is_integer(v));
    return json_integer_value(v);
}

/* The events written since `from` (an index into events()). */
static size_t count_from(json_t *all, size_t from)
{
    return json_array_size(all) - from;
}

static void test_spans_and_instants(void **state)
{
    (void)state;
    assert_true(trace_open_from_env());
    assert_true(trace_on());
    assert_string_equal(trace_open_error(), "");
    json_t *before = events();
    size_t from = json_array_size(before);
    json_decref(before);
    trace_begin("outer");
    trace_instant("a moment", "what it was");
    trace_event('B', TRACE_TRACK + 3, NULL, "variant %d", 17);
    trace_event('E', TRACE_TRACK + 3, NULL, "variant %d", 17);
    trace_end("outer");
    trace_name_track(TRACE_TRACK + 3, "GPU 3");
    json_t *all = events();
    assert_int_equal(count_from(all, from), 6);
    const json_t *m = json_array_get(all, from + 5); /* metadata: the name in args.name */
    assert_string_equal(str(m, "ph"), "M");
    assert_string_equal(str(m, "name"), "thread_name");
    assert_int_equal(num(m, "tid"), TRACE_TRACK + 3);
    assert_string_equal(json_string_value(json_object_get(json_object_get(m, "args"), "name")), "GPU 3");
    const json_t *b = json_array_get(all, from), *i = json_array_get(all, from + 1);
    const json_t *g = json_array_get(all, from + 2), *e = json_array_get(all, from + 4);
    assert_string_equal(str(b, "name"), "outer");
    assert_string_equal(str(b, "ph"), "B");
    assert_string_equal(str(b, "cat"), "cutune");
    assert_int_equal(num(b, "pid"), getpid());
    assert_string_equal(str(i, "ph"), "i");
    assert_string_equal(detail(i), "what it was");
    assert_null(detail(b)); /* no args without a detail */
    assert_string_equal(str(g, "name"), "variant 17");
    assert_int_equal(num(g, "tid"), TRACE_TRACK + 3);
    assert_int_equal(num(g, "pid"), getpid());
    assert_true(num(b, "tid") != TRACE_TRACK + 3);
    assert_string_equal(str(e, "ph"), "E");
    /* microseconds on the monotonic clock, in the order written */
    double tb = json_number_value(json_object_get(b, "ts")), te = json_number_value(json_object_get(e, "ts"));
    double now_us = sys_seconds() * 1e6;
    assert_true(tb > 0 && tb <= te && te <= now_us + 1);
    assert_true(now_us - tb < 60e6);
    json_decref(all);
}

static void test_escaped_and_bounded(void **state)
{
    (void)state;
    json_t *before = events();
    size_t from = json_array_size(before);
    json_decref(before);
    trace_instant("quote \" backslash \\ newline \n tab \t bell \x07 caf\xc3\xa9 bad \xff end",
                  "</script> \x01 \xe2\x82\xac");
    char long_text[5000];
    memset(long_text, 'x', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    long_text[100] = '"'; /* escaped in the middle of what is kept */
    trace_instant(long_text, long_text);
    char quotes[3000]; /* each quote takes two bytes: the cut falls between escapes */
    memset(quotes, '"', sizeof quotes - 1);
    quotes[sizeof quotes - 1] = '\0';
    trace_instant("quotes", quotes);
    json_t *all = events();
    assert_int_equal(count_from(all, from), 3);
    const json_t *a = json_array_get(all, from);
    assert_string_equal(str(a, "name"), "quote \" backslash \\ newline \n tab \t bell \x07 caf\xc3\xa9 bad ? end");
    assert_string_equal(detail(a), "</script> \x01 \xe2\x82\xac");
    const json_t *l = json_array_get(all, from + 1);
    size_t name_len = strlen(str(l, "name")), detail_len = strlen(detail(l));
    assert_true(name_len > 100 && name_len < 1000);
    assert_true(detail_len > name_len && detail_len < 1000);
    assert_int_equal(str(l, "name")[100], '"');
    const char *q = detail(json_array_get(all, from + 2));
    assert_true(strlen(q) > 100);
    assert_int_equal(strspn(q, "\""), strlen(q));
    json_decref(all);
}

/* A child's events: n spans, each with its number. */
static void child_events(int child, int n)
{
    for (int k = 0; k < n; k++) {
        trace_event('B', 0, "some detail to make the line longer than a few bytes", "child %d span %d", child, k);
        trace_event('E', 0, NULL, "child %d span %d", child, k);
    }
}

static void test_processes_append(void **state)
{
    (void)state;
    enum { CHILDREN = 4, SPANS = 300 };
    json_t *before = events();
    size_t from = json_array_size(before);
    json_decref(before);
    pid_t pids[CHILDREN + 1];
    for (int c = 0; c < CHILDREN; c++) {
        pid_t pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            child_events(c, SPANS);
            _exit(trace_failures() == 0 ? 0 : 1);
        }
        pids[c] = pid;
    }
    /* one more that closes every descriptor it inherited, as a compile worker does, and
     * writes after trace_reopen */
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        for (int fd = 3; fd < 1024; fd++)
            close(fd);
        trace_reopen();
        child_events(CHILDREN, SPANS);
        _exit(trace_failures() == 0 ? 0 : 1);
    }
    pids[CHILDREN] = pid;
    child_events(-1, SPANS); /* the parent writes meanwhile */
    for (int c = 0; c <= CHILDREN; c++) {
        int status;
        assert_int_equal(waitpid(pids[c], &status, 0), pids[c]);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    json_t *all = events(); /* every line parses: none was mixed with another */
    assert_int_equal(count_from(all, from), (CHILDREN + 2) * SPANS * 2);
    int seen[CHILDREN + 2] = {0};
    for (size_t i = from; i < json_array_size(all); i++) {
        const json_t *ev = json_array_get(all, i);
        int child, span;
        assert_int_equal(sscanf(str(ev, "name"), "child %d span %d", &child, &span), 2);
        assert_true(child >= -1 && child <= CHILDREN);
        long long want = child < 0 ? getpid() : pids[child];
        assert_int_equal(num(ev, "pid"), want); /* each process writes its own pid */
        seen[child + 1]++;
    }
    for (int c = 0; c < CHILDREN + 2; c++)
        assert_int_equal(seen[c], SPANS * 2);
    json_decref(all);
    assert_int_equal(trace_failures(), 0);
    /* the whole file, its last comma dropped and "]" added, is one JSON array */
    size_t len;
    char *t = file_text(&len);
    assert_true(len > 2 && t[len - 1] == '\n' && t[len - 2] == ',');
    t[len - 2] = ']';
    json_error_t e;
    json_t *whole = json_loadb(t, len - 1, 0, &e);
    if (!whole)
        fail_msg("the file is not an array: %s", e.text);
    assert_true(json_is_array(whole));
    json_decref(whole);
    free(t);
}

static int setup(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "/tmp/cutune-test-trace-%ld.json", (long)getpid());
    unlink(path);
    return setenv("CUTUNE_TRACE", path, 1);
}

static int teardown(void **state)
{
    (void)state;
    unlink(path);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spans_and_instants),
        cmocka_unit_test(test_escaped_and_bounded),
        cmocka_unit_test(test_processes_append),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
