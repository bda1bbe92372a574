/* test_journal.c - the tuning journal: outcomes read back after a reopen, a torn last
 * line tolerated and cut off, another run's journal refused, --fresh starting over. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "api/journal.h"

static char path[256];

static json_t *identity(const char *spec)
{
    return json_pack("{s:s, s:s}", "spec", spec, "device", "test GPU");
}

static void append(journal *j, int index, const char *status)
{
    json_t *rec = json_pack("{s:i, s:s}", "index", index, "status", status);
    char err[256];
    assert_int_equal(journal_append(j, rec, err, sizeof err), 0);
    json_decref(rec);
}

static void test_journal(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "/tmp/cutune-journal-test-%d", (int)getpid());
    unlink(path);
    json_t *id = identity("abc"), *other = identity("xyz");
    char err[512];
    journal *j;
    assert_int_equal(journal_open(&j, path, id, false, err, sizeof err), 0);
    assert_int_equal(journal_count(j), 0);
    append(j, 0, "ok");
    append(j, 2, "wrong");
    journal_close(j);

    /* Read back after a reopen. */
    assert_int_equal(journal_open(&j, path, id, false, err, sizeof err), 0);
    assert_int_equal(journal_count(j), 2);
    assert_string_equal(json_string_value(json_object_get(journal_find(j, 2), "status")), "wrong");
    assert_null(journal_find(j, 1));
    assert_null(journal_find(j, 1000));
    journal_close(j);

    /* A crash in the middle of a line: the torn line is ignored and cut off, and the
     * next outcome lands on a line of its own. */
    FILE *f = fopen(path, "a");
    fputs("{\"index\": 5, \"stat", f);
    fclose(f);
    assert_int_equal(journal_open(&j, path, id, false, err, sizeof err), 0);
    assert_int_equal(journal_count(j), 2);
    append(j, 7, "ok");
    journal_close(j);
    assert_int_equal(journal_open(&j, path, id, false, err, sizeof err), 0);
    assert_int_equal(journal_count(j), 3);
    assert_non_null(journal_find(j, 7));
    assert_null(journal_find(j, 5));
    journal_close(j);

    /* Another spec's journal is not mixed in. */
    assert_int_equal(journal_open(&j, path, other, false, err, sizeof err), -1);
    assert_non_null(strstr(err, "belongs to another run"));

    /* --fresh starts over. */
    assert_int_equal(journal_open(&j, path, other, true, err, sizeof err), 0);
    assert_int_equal(journal_count(j), 0);
    journal_close(j);
    assert_int_equal(journal_open(&j, path, other, false, err, sizeof err), 0);
    assert_int_equal(journal_count(j), 0);
    journal_close(j);
    json_decref(id);
    json_decref(other);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_journal)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
