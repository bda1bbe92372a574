/* test_trace_unopened.c - CUTUNE_TRACE naming a file that cannot be opened (a folder
 * that does not exist): nothing is written, every call returns, the reason is kept
 * (trace_open_error names the path and the system's reason) and a run's warnings say
 * it once (cutune_tune_warnings, what `cutune SPEC` prints even with -q). A process of
 * its own: the variable is read once per process (test_trace.c has the opened case). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "base/trace.h"
#include "cutune.h"

#define RECORDED CUTUNE_SOURCE_DIR "/test/data/report-sum_matrix-h100.json"
#define MISSING "/tmp/cutune-test-trace-no-such-folder/sub/trace.json"

static void test_unopened(void **state)
{
    (void)state;
    assert_false(trace_open_from_env());
    assert_false(trace_on());
    trace_begin("nothing");
    trace_instant("nothing", "at all");
    trace_event('E', TRACE_TRACK, NULL, "nothing %d", 1);
    trace_reopen();
    assert_int_equal(trace_failures(), 0); /* nothing was tried */
    struct stat st;
    assert_int_not_equal(stat(MISSING, &st), 0);
    char want[512];
    snprintf(want, sizeof want, "CUTUNE_TRACE: cannot open '%s': %s", MISSING, strerror(ENOENT));
    assert_string_equal(trace_open_error(), want);

    cutune_tune_result *r = NULL;
    assert_int_equal(cutune_results_load(&r, RECORDED), CUTUNE_OK);
    char *text = NULL;
    assert_int_equal(cutune_tune_warnings(&text, r), CUTUNE_OK);
    char line[600];
    snprintf(line, sizeof line, "%s: the run was not traced\n", want);
    const char *at = strstr(text, line);
    assert_non_null(at);
    assert_null(strstr(at + 1, "CUTUNE_TRACE")); /* once */
    cutune_free(text);
    cutune_tune_result_free(r);
}

static int setup(void **state)
{
    (void)state;
    return setenv("CUTUNE_TRACE", MISSING, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unopened),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
