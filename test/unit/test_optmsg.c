/* test_optmsg.c - base/optmsg.h: why getopt_long refused an option, in words. Each case
 * runs getopt_long itself over a command line (opterr 0, ':' first in shortopts, as the
 * CLI calls it) and checks the message for what it refused. */
#include <getopt.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "base/optmsg.h"

static const struct option longopts[] = {
    {"color", required_argument, NULL, 256},  {"config", required_argument, NULL, 257},
    {"quiet", no_argument, NULL, 'q'},        {"limit", required_argument, NULL, 258},
    {"output", required_argument, NULL, 'o'}, {NULL, 0, NULL, 0},
};

/* refused: getopt_long over `args` (a NULL-ended list after the program's name) until
 * it refuses one, and optmsg_explain's message for it into buf (size bytes); "" when it
 * refuses none. */
static void refused(char *buf, size_t size, const char *const *args)
{
    char *argv[16] = {"prog"};
    int argc = 1;
    while (args[argc - 1] && argc < 15) {
        argv[argc] = (char *)args[argc - 1];
        argc++;
    }
    argv[argc] = NULL;
    optind = 0; /* glibc: start afresh */
    opterr = 0;
    buf[0] = '\0';
    int ret;
    while ((ret = getopt_long(argc, argv, ":qo:", longopts, NULL)) != -1)
        if (ret == '?' || ret == ':') {
            optmsg_explain(buf, size, ret, argc, argv, optind, optopt, longopts);
            return;
        }
}

#define CHECK(expected, ...) \
    do { \
        const char *const args_[] = {__VA_ARGS__, NULL}; \
        refused(buf, sizeof buf, args_); \
        assert_string_equal(buf, expected); \
    } while (0)

static void test_long(void **state)
{
    (void)state;
    char buf[256];
    CHECK("unknown option '--limt'; did you mean '--limit'?", "--limt", "3");
    CHECK("unknown option '--zzz'", "-q", "--zzz");
    CHECK("option '--limit' needs a value", "--limit");
    CHECK("option '--limit' needs a value", "--lim"); /* an abbreviation: named in full */
    CHECK("option '--quiet' takes no value (given '--quiet=1')", "--quiet=1");
    CHECK("option '--co' is ambiguous: it could be --color, --config", "--co", "x");
    CHECK("option '--c' is ambiguous: it could be --color, --config", "--c=x");
    CHECK("", "--limit", "3", "--qu", "-o", "f"); /* nothing refused */
}

static void test_short(void **state)
{
    (void)state;
    char buf[256];
    CHECK("option '-o' needs a value", "-q", "-o");
    CHECK("option '-o' needs a value", "-qo");
    CHECK("unknown option '-Z'", "-qZ");
    CHECK("unknown option '-Z'", "--quiet", "-Z", "x");
    CHECK("unknown option '-\x01'", "-\x01"); /* not printable: the element as given */
}

static void test_cut(void **state)
{
    (void)state;
    char buf[12];
    CHECK("unknown opt", "--zzz"); /* cut to fit, NUL-terminated */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_long),
        cmocka_unit_test(test_short),
        cmocka_unit_test(test_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
