/* cutune/help.h - a part of cutune's public C API (cutune.h includes every part; its
 * opening comment gives the conventions, docs/api.md the guide).
 *
 * The `cutune` command's help texts, kept in the library (api/cutune_help.c) so that an
 * application's own front end, a man-page generator or a completion script reads the
 * same words the command prints. A command's help is, in this order: its usage and what
 * it does (cutune_help_text), the list of its options (cutune_help_options_text, composed
 * of the words cutune_help_option gives each), then what follows (cutune_help_after: its
 * own exit codes, when it has any). Every string is static (never freed), but the texts
 * cutune_help_overview and cutune_help_options_text compose, which the caller owns. */
#ifndef CUTUNE_HELP_H
#define CUTUNE_HELP_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cutune_help_command: the name of the `cutune` command number `i`, in the order
 * `cutune --help` lists them ("tune", "check", ...); NULL for i < 0 or past the last, so
 * a loop from 0 to the first NULL visits every command. `help` and `version` are not
 * among them: they have no help of their own. */
const char *cutune_help_command(int i);

/* cutune_help_summary: what `command` does, in one line without a newline (the line
 * `cutune --help` gives it); NULL when there is no such command. */
const char *cutune_help_summary(const char *command);

/* cutune_help_text: `command`'s usage lines ("usage: cutune COMMAND ...") and what it
 * does, every line ended by '\n' and the whole by an empty line; NULL when there is no
 * such command. With `command` NULL: the head of the overview (`cutune --help`), the
 * usage lines up to "commands:\n", after which the overview lists each command with its
 * summary. */
const char *cutune_help_text(const char *command);

/* cutune_help_after: what follows `command`'s option list: its own exit codes, every
 * line ended by '\n'; NULL when it has none of its own (those of every command are the
 * overview's) or there is no such command. With `command` NULL: the overview's closing
 * lines (every exit code, how a spec is told from a command, where the manual is). */
const char *cutune_help_after(const char *command);

/* cutune_help_nearest: the command name (or "help", "version") `word` is most likely a
 * typo of, by edit distance ("lsit" -> "list"), or NULL when none is close (or word is
 * NULL). A static string. */
const char *cutune_help_nearest(const char *word);

/* cutune_help_names_spec: 1 when `word`, the first word of a `cutune` command line, is
 * the spec of `cutune SPEC` rather than a mistyped command, else 0. A command's name
 * (and help, version) always means the command: a spec file named `check` is `./check`.
 * Else it is a spec when it names an existing file (of any kind: reading it says what
 * is wrong with it), holds a '/', or ends in ".tune"; a word that is none of these is a
 * typo when a command is near it (cutune_help_nearest), and otherwise still a spec when
 * it holds a '.' (`cutune sweep.tun` then says it cannot read it). */
int cutune_help_names_spec(const char *word);

/* cutune_help_unknown: CUTUNE_EINVAL, cutune_last_error saying that `word` names no
 * command, and the command it is likely a typo of (cutune_help_nearest: "no command
 * named 'lsit'; did you mean 'list'?"), else that a spec to tune is a file: how `cutune`
 * refuses a first word that is neither a command nor a spec. */
int cutune_help_unknown(const char *word);

/* cutune_help_overview: the whole of `cutune --help` in *out, NUL-terminated (free with
 * cutune_free): the "cutune VERSION - ..." line, the head (cutune_help_text(NULL)), a
 * line per command with its summary (in cutune_help_command's order), the lines of help
 * and version, then the closing lines (cutune_help_after(NULL)). CUTUNE_OK, CUTUNE_EINVAL
 * (out NULL) or CUTUNE_ENOMEM. */
int cutune_help_overview(char **out);

/* The help of one option of one command. */
typedef struct cutune_help_opt {
    const char *command;     /* "tune", "check", ... (as cutune_help_command names them) */
    const char *option;      /* the long name, without "--" ("limit") */
    const char *metavar;     /* the value's name ("N", "text|json"); NULL: it takes no value */
    const char *description; /* what it does, lines split by '\n' (none ending it); "": it is
                              * named on the line of the option before it and shares its words
                              * (--no-flush-l2 after --flush-l2) */
} cutune_help_opt;

/* cutune_help_option: the help of `command`'s option `option` (its long name, without
 * "--"); NULL when the command has no such option (or either name is NULL). The same
 * option may be worded differently for two commands (tune's --quiet keeps the ranking). */
const cutune_help_opt *cutune_help_option(const char *command, const char *option);

/* cutune_help_option_at: option help number `i`, every command's options in the order of
 * their commands' help (each command's options in the order its help lists them); NULL
 * for i < 0 or past the last, so a loop from 0 to the first NULL visits every one. */
const cutune_help_opt *cutune_help_option_at(int i);

/* cutune_help_options_text: the option list of `command`'s help, as `cutune help
 * COMMAND` prints it between cutune_help_text and cutune_help_after: a line per option in
 * the order cutune_help_option_at gives them, "  --NAME METAVAR" (--quiet and --output
 * with their short forms: "  -q, --quiet", "  -o, --output FILE"), its
 * description from column 23 and the description's further lines under it, each in
 * column 23; an option whose description is "" is named on the line of the one before it
 * ("  --flush-l2, --no-flush-l2"); a name column wider than 18 puts the description on
 * the next line unless the whole line fits in 80 columns. In *out, NUL-terminated (the
 * caller owns it: free with cutune_free). CUTUNE_OK; CUTUNE_EINVAL (out NULL, or no
 * command of that name: *out NULL); CUTUNE_ENOMEM. */
int cutune_help_options_text(char **out, const char *command);

#ifdef __cplusplus
}
#endif

#endif
