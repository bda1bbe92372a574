/* test_help.c - the `cutune` command's help texts in the library (cutune/help.h): every
 * command the CLI dispatches has them, each names its command, and they are shaped as
 * the CLI prints them (usage, then the option list, then the exit codes); every option
 * the CLI's tables take has its words in the library, in the table's order and with its
 * short form, and the library has none the CLI lacks; the option list's layout. The CLI's commands are read from its own dispatch table (cli/main.c) and each
 * command's options from its option table (cli/cmd_NAME.c, with the shared entries'
 * macros of cli/options.h), not from the library. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cutune.h"

enum { MAX_COMMANDS = 64, NAME_SIZE = 32, MAX_OPTIONS = 64, TEXT_SIZE = 1 << 16 };

/* read_source: the file `path` (under the source tree) into text[TEXT_SIZE]; text. */
static char *read_source(const char *path, char *text)
{
    char full[512];
    snprintf(full, sizeof full, "%s/%s", CUTUNE_SOURCE_DIR, path);
    FILE *f = fopen(full, "r");
    if (!f) {
        fail_msg("cannot read %s", full);
        return text;
    }
    size_t len = fread(text, 1, TEXT_SIZE - 1, f);
    fclose(f);
    text[len] = '\0';
    return text;
}

/* cli_commands: the names in cli/main.c's table, the entries written {"NAME", cmd_...},
 * into names; how many. */
static int cli_commands(char names[MAX_COMMANDS][NAME_SIZE])
{
    static char text[TEXT_SIZE];
    read_source("cli/main.c", text);
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

/* The composed overview: the version line, then the head, a line per command (name in
 * 10 columns), help and version, and the closing lines. */
static void test_overview_composed(void **state)
{
    (void)state;
    assert_int_equal(cutune_help_overview(NULL), CUTUNE_EINVAL);
    char *text = NULL;
    assert_int_equal(cutune_help_overview(&text), CUTUNE_OK);
    char first[128];
    snprintf(first, sizeof first, "cutune %s - a CUDA kernel autotuner\n\nusage: cutune SPEC [options]",
             cutune_version());
    assert_true(strncmp(text, first, strlen(first)) == 0);
    const char *lines[] = {"\ncommands:\n  tune       tune a spec (the default: cutune SPEC)\n  check      ",
                           "\n  devices    the GPUs the CUDA driver sees (exit 4 when none)\n"
                           "  help       help on a command: cutune help list\n"
                           "  version    print the version\n\nexit codes: 0 ok"};
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        if (!strstr(text, lines[i]))
            fail_msg("the overview lacks '%s'", lines[i]);
    const char *tail = "man cutune (every command, option, exit status, environment variable and file)\n";
    assert_string_equal(text + strlen(text) - strlen(tail), tail);
    cutune_free(text);
}

/* A typo of a command, of help or version, is named; a word far from all is not. */
static void test_nearest(void **state)
{
    (void)state;
    assert_string_equal(cutune_help_nearest("lsit"), "list");
    assert_string_equal(cutune_help_nearest("emitt"), "emit");
    assert_string_equal(cutune_help_nearest("reprt"), "report");
    assert_string_equal(cutune_help_nearest("hlep"), "help");
    assert_string_equal(cutune_help_nearest("versoin"), "version");
    assert_null(cutune_help_nearest("sweep.tune"));
    assert_null(cutune_help_nearest(NULL));
    /* A spec: a path, a .tune name, an existing file, a dotted word near no command. */
    assert_int_equal(cutune_help_names_spec("sweep.tune"), 1);
    assert_int_equal(cutune_help_names_spec("dir/sweep"), 1);
    assert_int_equal(cutune_help_names_spec("/"), 1);
    assert_int_equal(cutune_help_names_spec("sweep.tun"), 1);
    assert_int_equal(cutune_help_names_spec("list"), 0);
    assert_int_equal(cutune_help_names_spec("help"), 0);
    assert_int_equal(cutune_help_names_spec("lsit"), 0);
    assert_int_equal(cutune_help_names_spec("sweep"), 0);
    assert_int_equal(cutune_help_names_spec(NULL), 0);
    assert_int_equal(cutune_help_unknown("lsit"), CUTUNE_EINVAL);
    assert_string_equal(cutune_last_error(), "no command named 'lsit'; did you mean 'list'?");
    assert_int_equal(cutune_help_unknown("sweep"), CUTUNE_EINVAL);
    assert_string_equal(cutune_last_error(), "no command named 'sweep', and no file of that name to tune (a spec is "
                                             "a file, usually ending in .tune)");
}

/* An option as a CLI table names it: its long name, its short letter (0: none), and
 * whether it takes a value (-1: not said where the name is, as in a macro's argument). */
typedef struct table_option {
    char name[NAME_SIZE];
    char letter;
    int value;
} table_option;

static void scan_entries(const char *from, const char *to, table_option *out, int *n);

/* expand_macro: the options of the entry macro `macro` (a name of `len` bytes), from its
 * #define in cli/options.h (the lines continued by '\\'), appended to out[*n]. */
static void expand_macro(const char *macro, size_t len, table_option *out, int *n)
{
    static char header[TEXT_SIZE]; /* read once: a macro's expansion scans it while it names another */
    if (!header[0])
        read_source("cli/options.h", header);
    char define[80];
    snprintf(define, sizeof define, "#define %.*s(", (int)len, macro);
    const char *body = strstr(header, define);
    if (!body) {
        fail_msg("cli/options.h does not define the entry macro %.*s", (int)len, macro);
        return;
    }
    const char *end = body;
    while ((end = strchr(end, '\n')) != NULL && end[-1] == '\\')
        end++;
    scan_entries(body + strlen(define), end ? end : body + strlen(body), out, n);
}

/* scan_entries: the options of the table text [from, to): each entry {"NAME", L, V, ...}
 * with V true or false, each search entry CLI_SEARCH_ENTRY("NAME", ...), and each other
 * CLI_..._ENTRY/ENTRIES(...) macro's, appended to out[*n]. */
static void scan_entries(const char *from, const char *to, table_option *out, int *n)
{
    for (const char *p = from; p < to && *n < MAX_OPTIONS; p++) {
        const char *name = NULL;
        int value = -1;
        char letter = 0;
        if (strncmp(p, "{\"", 2) == 0) {
            name = p + 2;
            const char *comma = strchr(strchr(name, '"'), ',');
            letter = comma && strncmp(comma, ", '", 3) == 0 ? comma[3] : 0;
            comma = comma ? strchr(comma + 1, ',') : NULL; /* past the short letter */
            value = comma && strncmp(comma + 1, " true", 5) == 0    ? 1
                    : comma && strncmp(comma + 1, " false", 6) == 0 ? 0
                                                                    : -1;
        } else if (strncmp(p, "CLI_SEARCH_ENTRY(\"", 18) == 0) {
            name = p + 18;
            value = 1;
        } else if (strncmp(p, "CLI_", 4) == 0 && (p == from || !(p[-1] == '_' || (p[-1] >= 'A' && p[-1] <= 'Z')))) {
            size_t len = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_");
            bool entry = len > 6 && p[len] == '(' &&
                         (strncmp(p + len - 6, "_ENTRY", 6) == 0 || strncmp(p + len - 8, "_ENTRIES", 8) == 0);
            if (entry && strncmp(p, "CLI_SEARCH_ENTRY", len) != 0)
                expand_macro(p, len, out, n);
            p += len - 1;
            continue;
        } else {
            continue;
        }
        size_t len = strcspn(name, "\"");
        assert_true(len > 0 && len < NAME_SIZE);
        snprintf(out[*n].name, NAME_SIZE, "%.*s", (int)len, name);
        out[*n].letter = letter;
        out[(*n)++].value = value;
        p = name + len;
    }
}

/* cli_options: the options of `command`'s table (in cli/cmd_COMMAND.c, the one array
 * `const cli_opt table[] = {...};`) into out; how many. */
static int cli_options(const char *command, table_option out[MAX_OPTIONS])
{
    static char text[TEXT_SIZE];
    char path[64];
    snprintf(path, sizeof path, "cli/cmd_%s.c", command);
    read_source(path, text);
    const char *table = strstr(text, "const cli_opt table[] = {");
    if (!table) {
        fail_msg("%s has no option table", path);
        return 0;
    }
    const char *end = strstr(table, "\n    };");
    assert_non_null(end);
    int n = 0;
    scan_entries(table + strlen("const cli_opt table[] = {"), end, out, &n);
    return n;
}

/* library_option: the library's option number i of `command` (cutune_help_option_at's
 * order, the command's alone); NULL past its last. */
static const cutune_help_opt *library_option(const char *command, int i)
{
    const cutune_help_opt *h;
    for (int k = 0; (h = cutune_help_option_at(k)) != NULL; k++)
        if (strcmp(h->command, command) == 0 && i-- == 0)
            return h;
    return NULL;
}

/* short_form_listed: whether `command`'s option list (cutune_help_options_text) names
 * --`name` with the short form -`letter` ("-q, --quiet"). */
static bool short_form_listed(const char *command, char letter, const char *name)
{
    char *text = NULL, needle[NAME_SIZE + 8];
    assert_int_equal(cutune_help_options_text(&text, command), CUTUNE_OK);
    snprintf(needle, sizeof needle, "-%c, --%s", letter, name);
    bool listed = strstr(text, needle) != NULL;
    cutune_free(text);
    return listed;
}

static void test_every_cli_option_has_help(void **state)
{
    (void)state;
    static char names[MAX_COMMANDS][NAME_SIZE];
    int ncommands = cli_commands(names), total = 0;
    for (int c = 0; c < ncommands; c++) {
        table_option opts[MAX_OPTIONS];
        int n = cli_options(names[c], opts);
        if (n == 0)
            fail_msg("found no options in the table of '%s'", names[c]);
        total += n;
        for (int i = 0; i < n; i++) {
            const cutune_help_opt *h = cutune_help_option(names[c], opts[i].name);
            if (!h) {
                fail_msg("cutune %s takes --%s, which has no help in the library", names[c], opts[i].name);
                return;
            }
            /* The help lists the options in the table's order (getopt's "did you mean"
             * names them in it), each short form as the table takes it. */
            if (library_option(names[c], i) != h)
                fail_msg("cutune %s --%s is option %d of its table, not of its help", names[c], opts[i].name, i + 1);
            char letter = opts[i].letter ? opts[i].letter : opts[i].name[0];
            if (short_form_listed(names[c], letter, opts[i].name) != (opts[i].letter != 0))
                fail_msg("cutune %s --%s: the table %s -%c, the help %s", names[c], opts[i].name,
                         opts[i].letter ? "takes" : "does not take", letter, opts[i].letter ? "lacks it" : "names it");
            assert_string_equal(h->command, names[c]);
            assert_string_equal(h->option, opts[i].name);
            assert_non_null(h->description);
            /* A value name exactly for the options that take a value. */
            if (opts[i].value >= 0 && (h->metavar != NULL) != (opts[i].value == 1))
                fail_msg("cutune %s --%s %s, but its help %s", names[c], opts[i].name,
                         opts[i].value ? "takes a value" : "takes none", h->metavar ? "names one" : "names none");
            /* "" (named on the line before) only after an option of its own words. */
            if (h->description[0] == '\0' && i == 0)
                fail_msg("cutune %s --%s is the first option, with no words of its own", names[c], opts[i].name);
            assert_true(h->option[0] != '-'); /* the name without "--" */
        }
    }
    /* ...and every option the library has help for is in its command's table. */
    int library = 0;
    for (const cutune_help_opt *h; (h = cutune_help_option_at(library)) != NULL; library++) {
        table_option opts[MAX_OPTIONS];
        int n = cutune_help_text(h->command) ? cli_options(h->command, opts) : 0, found = 0;
        for (int i = 0; i < n; i++)
            found |= strcmp(opts[i].name, h->option) == 0;
        if (!found)
            fail_msg("the library has help for cutune %s --%s, which the CLI does not take", h->command, h->option);
    }
    assert_int_equal(library, total);
}

static void test_option_lookup(void **state)
{
    (void)state;
    /* The same option worded for each command: tune's -q keeps the ranking, check's does not. */
    const cutune_help_opt *tune_q = cutune_help_option("tune", "quiet"),
                          *check_q = cutune_help_option("check", "quiet");
    assert_non_null(tune_q);
    assert_non_null(check_q);
    assert_true(strstr(tune_q->description, "ranking") != NULL);
    assert_null(strstr(check_q->description, "ranking"));
    assert_null(tune_q->metavar);
    assert_string_equal(cutune_help_option("list", "limit")->metavar, "N");
    /* --no-flush-l2 shares --flush-l2's line. */
    assert_string_equal(cutune_help_option("tune", "no-flush-l2")->description, "");
    assert_true(cutune_help_option("tune", "flush-l2")->description[0] != '\0');
    const char *none[][2] = {{"tune", "nosuch"}, {"tune", "--limit"}, {"check", "limit"}, {"nosuch", "limit"},
                             {"tune", NULL},     {NULL, "limit"},     {"Tune", "limit"},  {"tune", "limi"}};
    for (size_t i = 0; i < sizeof none / sizeof *none; i++)
        assert_null(cutune_help_option(none[i][0], none[i][1]));
    assert_null(cutune_help_option_at(-1));
    assert_null(cutune_help_option_at(1 << 20));
    assert_non_null(cutune_help_option_at(0));
}

/* The option list's layout: the name column (18 wide, then two spaces), the short
 * forms, a description's further lines under it, options named on one line, and a name
 * too wide for the column: on the line when the whole fits in 80, else the words on the
 * next. Expected texts written by hand from that rule. */
static void test_options_text(void **state)
{
    (void)state;
    char *text = NULL;
    const char *pad = "                      "; /* 22 spaces: the description's column */
    assert_int_equal(cutune_help_options_text(&text, "devices"), CUTUNE_OK);
    assert_string_equal(text, "  --format FORMAT     text (default) or json\n"
                              "  -q, --quiet         print nothing on success (the exit status is the answer)\n");
    cutune_free(text);
    assert_int_equal(cutune_help_options_text(&text, "merge"), CUTUNE_OK);
    char merge[1024];
    snprintf(merge, sizeof merge,
             "  -o, --output FILE   write the merged results here (required; - for stdout)\n"
             "  --partial           merge the shards given even when some are missing: the file\n"
             "%srecords which it holds (settings.shard.merged), and the\n"
             "%smissing ones are named on stderr\n"
             "  -q, --quiet         print only errors, warnings and the result\n",
             pad, pad);
    assert_string_equal(text, merge);
    cutune_free(text);
    /* 19 wide and the line 61 long: on its line; 35 wide and 98 long: the words below. */
    assert_int_equal(cutune_help_options_text(&text, "simulate"), CUTUNE_OK);
    const char *results = "  --results FULL.json  the recorded exhaustive run (required)\n"; /* the first */
    assert_true(strncmp(text, results, strlen(results)) == 0);
    cutune_free(text);
    assert_int_equal(cutune_help_options_text(&text, "tune"), CUTUNE_OK);
    char config[256];
    snprintf(config, sizeof config,
             "\n  --config NAME=VALUE[,NAME=VALUE...]\n%sonly this configuration (repeatable: these); one that "
             "names\n%ssome params pins those and leaves the others free\n",
             pad, pad);
    assert_non_null(strstr(text, config));
    assert_non_null(strstr(text, "\n  --flush-l2, --no-flush-l2  override the spec's measure(flush_l2 = ...)\n"));
    assert_null(strstr(text, "\n  --no-flush-l2"));
    const char *device = "  --device N          the GPU to tune on (default 0)\n";
    assert_true(strncmp(text, device, strlen(device)) == 0);
    cutune_free(text);
    /* No output, no such command (nor help and version, which have no option list). */
    assert_int_equal(cutune_help_options_text(NULL, "tune"), CUTUNE_EINVAL);
    const char *none[] = {"nosuch", "help", "version", NULL};
    for (int i = 0; i < 4; i++) {
        text = (char *)"x";
        assert_int_equal(cutune_help_options_text(&text, none[i]), CUTUNE_EINVAL);
        assert_null(text);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_cli_command_has_help),
        cmocka_unit_test(test_unknown_commands),
        cmocka_unit_test(test_overview),
        cmocka_unit_test(test_overview_composed),
        cmocka_unit_test(test_nearest),
        cmocka_unit_test(test_every_cli_option_has_help),
        cmocka_unit_test(test_option_lookup),
        cmocka_unit_test(test_options_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
