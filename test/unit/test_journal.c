/* test_journal.c - the tuning journal: outcomes read back after a reopen, a torn last
 * line tolerated and cut off (and nothing else: damage in the middle, a NUL byte
 * included, is one ignored line, named with its reason), another run's journal
 * refused, --fresh starting over; and
 * what is not trusted: indices out of the space (2^62, the space's size, negative, not
 * integers), records that are not objects or lack fields, a file of another format or
 * a later version (refused, never mixed in or truncated). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/err.h"
#include "results/journal.h"

static char path[256];

/* The space of the tests: ordinals 0 .. BOUND - 1. */
enum { BOUND = 100 };

static json_t *identity(const char *spec)
{
    return json_pack("{s:s, s:s}", "spec", spec, "device", "test GPU");
}

static void append(journal *j, int index, const char *status)
{
    json_t *rec = json_pack("{s:i, s:s, s:{s:i}}", "index", index, "status", status, "params", "x", index);
    assert_int_equal(journal_append(j, rec), 0);
    json_decref(rec);
}

static void test_journal(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "/tmp/cutune-journal-test-%d", (int)getpid());
    unlink(path);
    json_t *id = identity("abc"), *other = identity("xyz");
    journal *j;
    assert_int_equal(journal_open(&j, path, id, BOUND, false), 0);
    assert_int_equal(journal_count(j), 0);
    append(j, 0, "ok");
    append(j, 2, "wrong");
    journal_close(j);

    /* Read back after a reopen. */
    assert_int_equal(journal_open(&j, path, id, BOUND, false), 0);
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
    assert_int_equal(journal_open(&j, path, id, BOUND, false), 0);
    assert_int_equal(journal_count(j), 2);
    append(j, 7, "ok");
    journal_close(j);
    assert_int_equal(journal_open(&j, path, id, BOUND, false), 0);
    assert_int_equal(journal_count(j), 3);
    assert_non_null(journal_find(j, 7));
    assert_null(journal_find(j, 5));
    journal_close(j);

    /* Another spec's journal is not mixed in. */
    assert_int_equal(journal_open(&j, path, other, BOUND, false), -1);
    assert_non_null(strstr(err_last()->message, "belongs to another run"));

    /* --fresh starts over. */
    assert_int_equal(journal_open(&j, path, other, BOUND, true), 0);
    assert_int_equal(journal_count(j), 0);
    journal_close(j);
    assert_int_equal(journal_open(&j, path, other, BOUND, false), 0);
    assert_int_equal(journal_count(j), 0);
    journal_close(j);
    json_decref(id);
    json_decref(other);
    unlink(path);
}

/* Writes `text` as the whole file at `path`. */
static void write_raw(const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char *read_raw(void)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

#define HEADER "{\"format\":\"cutune-journal\",\"version\":1,\"identity\":{\"spec\":\"abc\",\"device\":\"test GPU\"}}\n"
#define REC(index, status) "{\"index\":" index ",\"status\":\"" status "\",\"params\":{\"x\":1}}\n"

/* Records a resume must not trust are ignored: their variants are measured again. */
static void test_untrusted_records(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "/tmp/cutune-journal-test-u-%d", (int)getpid());
    json_t *id = identity("abc");
    journal *j;
    write_raw(HEADER REC("4611686018427387904", "ok")                           /* 2^62: a heap overflow before */
              REC("100", "ok")                                                  /* the space's size: one past the end */
              REC("-1", "ok") REC("1.5", "ok") REC("\"3\"", "ok") "[1, 2, 3]\n" /* not an object */
                                                                  "{\"index\": 4, \"params\": {}}\n"     /* no status */
                                                                  "{\"index\": 5, \"status\": \"ok\"}\n" /* no params */
                                                                  "not json at all\n" REC("99", "ok") REC("7", "wrong")
                                                                      REC("7", "ok"));
    assert_int_equal(journal_open(&j, path, id, BOUND, false), 0);
    assert_int_equal(journal_count(j), 2);
    assert_int_equal(journal_ignored(j), 9);
    assert_non_null(journal_find(j, 99));
    assert_null(journal_find(j, 100));
    assert_null(journal_find(j, (uint64_t)1 << 62));
    assert_null(journal_find(j, 4));
    assert_null(journal_find(j, 5));
    /* The later line of an ordinal wins; journal_at walks in ordinal order. */
    assert_string_equal(json_string_value(json_object_get(journal_find(j, 7), "status")), "ok");
    uint64_t ord = 0;
    assert_non_null(journal_at(j, 0, &ord));
    assert_int_equal(ord, 7);
    assert_non_null(journal_at(j, 1, &ord));
    assert_int_equal(ord, 99);
    assert_null(journal_at(j, 2, &ord));
    journal_close(j);
    /* In a larger space, 2^62 is an ordinal like any other: kept, not tabled. */
    assert_int_equal(journal_open(&j, path, id, (uint64_t)1 << 63, false), 0);
    assert_non_null(journal_find(j, (uint64_t)1 << 62));
    assert_int_equal(journal_count(j), 4);
    journal_close(j);
    json_decref(id);
    unlink(path);
}

/* A file of another format, or a later version, is refused with the path named, and
 * left as it was (never truncated, never appended to). */
static void test_other_formats_refused(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "/tmp/cutune-journal-test-f-%d", (int)getpid());
    json_t *id = identity("abc");
    journal *j = NULL;
    static const char *const refused[] = {
        "{\"format\":\"kernel_tuner\",\"version\":1,\"identity\":{\"spec\":\"abc\",\"device\":\"test GPU\"}}\n",
        "{\"format\":\"cutune-journal\",\"version\":2,\"identity\":{\"spec\":\"abc\",\"device\":\"test GPU\"}}\n",
        "{\"format\":\"cutune-journal\",\"version\":\"1\",\"identity\":{\"spec\":\"abc\",\"device\":\"test GPU\"}}\n",
        "[\"format\", \"cutune-journal\"]\n",
        "an important file without a newline", /* not a torn header: not truncated */
    };
    static const char *const said[] = {"is not a cutune journal", "is of version 2; this cutune reads version 1",
                                       "has no valid \"version\"", "is not a cutune journal",
                                       "is not a cutune journal"};
    for (size_t k = 0; k < sizeof refused / sizeof *refused; k++) {
        char text[512];
        snprintf(text, sizeof text, "%s%s", refused[k], strchr(refused[k], '\n') ? REC("1", "ok") : "");
        write_raw(text);
        assert_int_equal(journal_open(&j, path, id, BOUND, false), -1);
        assert_null(j);
        if (!strstr(err_last()->message, said[k]) || !strstr(err_last()->message, path))
            fail_msg("case %zu: %s", k, err_last()->message);
        assert_string_equal(read_raw(), text);
    }
    /* A torn header (a crash while writing it) starts afresh. */
    write_raw("{\"format\":\"cutune-jou");
    assert_int_equal(journal_open(&j, path, id, BOUND, false), 0);
    journal_close(j);
    assert_string_equal(read_raw(), HEADER);
    /* --fresh replaces even a file of another format. */
    write_raw(refused[0]);
    assert_int_equal(journal_open(&j, path, id, BOUND, true), 0);
    journal_close(j);
    assert_string_equal(read_raw(), HEADER);
    json_decref(id);
    unlink(path);
}

/* Writes the `size` bytes at `bytes` (NULs included) as the whole file at `path`. */
static void write_bytes(const char *bytes, size_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, size, f), size);
    fclose(f);
}

/* The file at `path`, whole, in *size bytes (malloc'd). */
static char *read_bytes(size_t *size)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *buf = malloc(8192);
    assert_non_null(buf);
    *size = fread(buf, 1, 8192, f);
    fclose(f);
    return buf;
}

/* A NUL byte inside one record in the middle is that record's damage, not a torn tail:
 * the records after it are read, the line is ignored with its line number and reason,
 * and the file is cut only at its torn last line (before: the reader stopped at the
 * NUL, cut the file there, lost every later record and counted nothing ignored). */
static void test_damage_in_the_middle(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "/tmp/cutune-journal-test-n-%d", (int)getpid());
    json_t *id = identity("abc");
    journal *j = NULL;
    /* Line 1 the header; lines 2-5 records 1-4, record 2 (line 3) with a NUL byte in its
     * status; then record 5, torn (no newline). */
    static const char good[] =
        HEADER REC("1", "ok") "{\"index\":2,\"status\":\"o\0k\",\"params\":{\"x\":1}}\n" REC("3", "wrong")
            REC("4", "ok");
    static const char torn[] = "{\"index\":5,\"sta";
    char text[sizeof good + sizeof torn];
    memcpy(text, good, sizeof good - 1);
    memcpy(text + sizeof good - 1, torn, sizeof torn - 1);
    size_t whole = sizeof good - 1, all = whole + sizeof torn - 1;
    write_bytes(text, all);
    assert_int_equal(journal_open(&j, path, id, BOUND, false), 0);
    assert_int_equal(journal_count(j), 3); /* records 1, 3, 4 */
    assert_non_null(journal_find(j, 1));
    assert_null(journal_find(j, 2));
    assert_string_equal(json_string_value(json_object_get(journal_find(j, 3), "status")), "wrong");
    assert_non_null(journal_find(j, 4));
    assert_null(journal_find(j, 5));
    assert_int_equal(journal_ignored(j), 1);
    const char *why = journal_ignored_why(j);
    if (!strstr(why, "line 3: a NUL byte at column 23"))
        fail_msg("why: %s", why);
    journal_close(j);
    /* Cut only at the torn tail: the damaged line and every record after it stay. */
    size_t size;
    char *after = read_bytes(&size);
    assert_int_equal(size, whole);
    assert_memory_equal(after, good, whole);
    free(after);
    /* An unknown status, not JSON, and no newline at all in the middle: each ignored
     * with its own reason, the rest kept. */
    write_raw(HEADER REC("1", "ok") REC("2", "exploded") "{\"index\": 3,\n" REC("4", "crashed"));
    assert_int_equal(journal_open(&j, path, id, BOUND, false), 0);
    assert_int_equal(journal_count(j), 2);
    assert_null(journal_find(j, 2));
    assert_non_null(journal_find(j, 4));
    assert_int_equal(journal_ignored(j), 2);
    why = journal_ignored_why(j);
    if (!strstr(why, "line 3: a \"status\" this cutune does not write; line 4: not JSON"))
        fail_msg("why: %s", why);
    journal_close(j);
    /* Past five, the rest are counted. */
    write_raw(HEADER "a\nb\nc\nd\ne\nf\ng\n" REC("1", "ok"));
    assert_int_equal(journal_open(&j, path, id, BOUND, false), 0);
    assert_int_equal(journal_ignored(j), 7);
    why = journal_ignored_why(j);
    if (!strstr(why, "line 6: not JSON") || !strstr(why, "; and 2 more") || strstr(why, "line 7"))
        fail_msg("why: %s", why);
    assert_int_equal(journal_count(j), 1);
    journal_close(j);
    json_decref(id);
    unlink(path);
}

/* Lines appended while the journal is held are written at once (a process killed
 * before the release loses none of them) and synced together at the release; holds
 * nest, and a journal closed while held keeps what was written. */
static void test_hold(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "/tmp/cutune-journal-hold-%d", (int)getpid());
    unlink(path);
    json_t *id = identity("abc");
    journal *j;
    assert_int_equal(journal_open(&j, path, id, BOUND, false), 0);
    journal_hold(j);
    journal_hold(j);
    append(j, 0, "ok");
    append(j, 1, "wrong");
    assert_int_equal(journal_release(j), 0); /* still held once */
    journal *reader;                         /* what another process would read now */
    assert_int_equal(journal_open(&reader, path, id, BOUND, false), 0);
    assert_int_equal(journal_count(reader), 2);
    journal_close(reader);
    assert_int_equal(journal_release(j), 0);
    assert_int_equal(journal_release(j), 0); /* not held: nothing to do */
    journal_hold(j);
    append(j, 3, "ok");
    journal_close(j); /* held at a failure */
    assert_int_equal(journal_open(&j, path, id, BOUND, false), 0);
    assert_int_equal(journal_count(j), 3);
    journal_close(j);
    journal_hold(NULL); /* no journal: nothing to do */
    assert_int_equal(journal_release(NULL), 0);
    json_decref(id);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_journal), cmocka_unit_test(test_untrusted_records),
                                       cmocka_unit_test(test_other_formats_refused),
                                       cmocka_unit_test(test_damage_in_the_middle), cmocka_unit_test(test_hold)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
