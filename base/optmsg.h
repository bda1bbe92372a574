/* optmsg.h - why getopt_long refused an option of a command line, in words: an
 * unknown option (with "did you mean" among the long ones, base/suggest.h), one missing
 * its value, one given a value it does not take, an ambiguous abbreviation. For a
 * program that calls getopt_long with opterr 0 and a shortopts that begins with ':' (so
 * that a missing value is ':', not '?'), and prints the message itself, once. Knows
 * nothing of cutune; prints nothing. */
#ifndef CUTUNE_BASE_OPTMSG_H
#define CUTUNE_BASE_OPTMSG_H

#include <getopt.h>
#include <stddef.h>

/* optmsg_explain: the message for getopt_long's `ret` ('?' or ':') on argv[0 .. argc),
 * given what getopt_long left in optind (`next`) and optopt (`opt`) and its `longopts`
 * (ended by an entry whose name is NULL), into buf: `size` bytes, cut to fit, always
 * NUL-terminated (size > 0). The element it refused is argv[next - 1]: a long option
 * ("--name" or "--name=value") is a whole element; a short one is `opt`, inside it.
 * The messages: "option '--NAME' needs a value", "option '--NAME' takes no value (given
 * 'WORD')", "option '--AB' is ambiguous: it could be --ABC, --ABD" (in longopts' order),
 * "unknown option '--NAME'; did you mean '--NAME2'?" (without the question when none is
 * close), "option '-X' needs a value", "unknown option '-X'", else "unknown option
 * 'WORD'". */
void optmsg_explain(char *buf, size_t size, int ret, int argc, char *const argv[], int next, int opt,
                    const struct option *longopts);

#endif
