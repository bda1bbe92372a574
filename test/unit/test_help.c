/* test_help.c - the `cutune` command's help texts in the library (cutune/help.h): every
 * command the CLI dispatches has them, each names its command, and they are shaped as
 * the CLI prints them (usage, then the option list, then the exit codes). The CLI's
 * commands are read from its own dispatch table (cli/main.c), not from the library. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cutune.h"

enum { MAX_COMMANDS = 64, NAME_SIZE = 32 };

/* cli_commands: the names in cli/main.c's table, the entries written {"NAME", cmd_...},
 * into names; how many. */
static int cli_commands(char names[MAX_COMMANDS][NAME_SIZE])
{
    FILE *f = fopen(CUTUNE_SOURCE_DIR "/cli/main.c", "r");
    assert_non_null(f);
    static char text[1 << 16];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';
    int n = 0;
    for (const char *p = text; (p = strstr(p, "{\"")) != NULL && n < MAX_COMMANDS; p++) {
        const char *end = strchr(p + 2, '"');
        if (!end || strncmp(end, "\", cmd_", 7) != 0 || end - p - 2 >= NAME_SIZE)
            continue;
        snprintf(names[n++], NAME_SIZE, "%.*s", (int)(end - p - 2), p + 2);
    }
    return n;
}

/* names_command: whether a usage line "cutune NAME ..." or "cutune [NAME] ..." (from the
 * word "cutune") names `command`. */
static int names_command(const char *line, const char *command)
{
    size_t n = strlen(command);
    const char *word = line + strlen("cutune ");
    if (*word == '[')
        word++;
    return strncmp(word, command, n) == 0 && (word[n] == ' ' || word[n] == ']' || word[n] == '\n');
}

static void test_every_cli_command_has_help(void **state)
{
    (void)state;
    static char names[MAX_COMMANDS][NAME_SIZE];
    int n = cli_commands(names);
    assert_true(n >= 12); /* tune check list analyze simulate emit report merge import occupancy metrics devices */
    for (int i = 0; i < n; i++) {
        const char *usage = cutune_help_text(names[i]), *summary = cutune_help_summary(names[i]);
        if (!usage || !summary) {
            fail_msg("the CLI dispatches '%s', which has no help in the library", names[i]);
            return;
        }
        assert_true(summary[0] != '\0' && strchr(summary, '\n') == NULL);
        /* Every usage line names the command: the first, and each "       cutune ..." after it. */
        assert_true(strncmp(usage, "usage: cutune ", 14) == 0);
        if (!names_command(usage + strlen("usage: "), names[i]))
            fail_msg("the help of '%s' begins '%.40s'", names[i], usage);
        for (const char *p = strchr(usage, '\n'); p && strncmp(p + 1, "       cutune ", 14) == 0;
             p = strchr(p + 1, '\n'))
            if (!names_command(p + 8, names[i]))
                fail_msg("a usage line of '%s' names another command: '%.40s'", names[i], p + 1);
        /* The option list follows an empty line. */
        size_t len = strlen(usage);
        assert_true(len > 2 && strcmp(usage + len - 2, "\n\n") == 0);
        const char *after = cutune_help_after(names[i]);
        if (after) {
            assert_true(strncmp(after, "exit codes: ", 12) == 0);
            assert_int_equal(after[strlen(after) - 1], '\n');
        }
    }
    /* ...and the library has no command the CLI lacks. */
    int library = 0;
    for (const char *name; (name = cutune_help_command(library)) != NULL; library++) {
        int found = 0;
        for (int i = 0; i < n; i++)
            found |= strcmp(names[i], name) == 0;
        if (!found)
            fail_msg("the library has help for '%s', which the CLI does not dispatch", name);
    }
    assert_int_equal(library, n);
}

static void test_unknown_commands(void **state)
{
    (void)state;
    const char *none[] = {"nosuch", "help", "version", "", "Tune", "tune "};
    for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
        assert_null(cutune_help_text(none[i]));
        assert_null(cutune_help_summary(none[i]));
        assert_null(cutune_help_after(none[i]));
    }
    assert_null(cutune_help_summary(NULL));
    assert_null(cutune_help_command(-1));
    assert_null(cutune_help_command(1 << 20));
}

static void test_overview(void **state)
{
    (void)state;
    const char *head = cutune_help_text(NULL), *after = cutune_help_after(NULL);
    assert_true(strncmp(head, "usage: cutune SPEC", 18) == 0);
    size_t len = strlen(head);
    assert_true(len > 10 && strcmp(head + len - 10, "commands:\n") == 0);
    /* Every exit code the CLI uses (cli/cli.h) is named. */
    const char *codes[] = {"0 ok",        "1 spec error",     "2 usage error",       "3 file error",
                           "4 not tuned", "5 internal error", "6 nothing could run", "130 interrupted"};
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
        if (!strstr(after, codes[i]))
            fail_msg("the overview does not name exit code '%s'", codes[i]);
    assert_int_equal(after[strlen(after) - 1], '\n');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_cli_command_has_help),
        cmocka_unit_test(test_unknown_commands),
        cmocka_unit_test(test_overview),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
