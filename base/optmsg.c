/* optmsg.c - why getopt_long refused an option, in words (optmsg.h). */
#include "optmsg.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "suggest.h"

/* long_option_named: the entry of `longopts` whose name is `name` (its first `len`
 * characters), else the only one it abbreviates; NULL when none. *ambiguous is set when
 * it abbreviates several (and names none exactly). */
static const struct option *long_option_named(const struct option *longopts, const char *name, size_t len,
                                              bool *ambiguous)
{
    const struct option *found = NULL;
    int prefixes = 0;
    *ambiguous = false;
    for (const struct option *o = longopts; o->name; o++) {
        if (strncmp(o->name, name, len) != 0)
            continue;
        if (strlen(o->name) == len)
            return o;
        if (!found)
            found = o;
        prefixes++;
    }
    *ambiguous = prefixes > 1;
    return prefixes == 1 ? found : NULL;
}

/* explain_long: the message for the long option `word` ("--name" or "--name=value")
 * that getopt_long refused with `ret`, into buf (optmsg_explain's). */
static void explain_long(char *buf, size_t size, const char *word, int ret, const struct option *longopts)
{
    const char *name = word + 2;
    size_t len = strcspn(name, "=");
    bool ambiguous;
    const struct option *o = long_option_named(longopts, name, len, &ambiguous);
    if (o && ret == ':') {
        snprintf(buf, size, "option '--%s' needs a value", o->name);
    } else if (o && name[len] == '=' && o->has_arg == no_argument) {
        snprintf(buf, size, "option '--%s' takes no value (given '%s')", o->name, word);
    } else if (ambiguous) {
        char names[400];
        size_t used = 0;
        names[0] = '\0';
        for (const struct option *p = longopts; p->name && used + 1 < sizeof names; p++)
            if (strncmp(p->name, name, len) == 0)
                used += (size_t)snprintf(names + used, sizeof names - used, "%s--%s", used ? ", " : "", p->name);
        snprintf(buf, size, "option '%.*s' is ambiguous: it could be %s", (int)len + 2, word, names);
    } else {
        const char *candidates[64];
        size_t n = 0;
        char typed[64];
        snprintf(typed, sizeof typed, "%.*s", (int)(len < sizeof typed ? len : sizeof typed - 1), name);
        for (const struct option *p = longopts; p->name && n < 64; p++)
            candidates[n++] = p->name;
        const char *best = suggest_best(typed, candidates, n);
        if (best)
            snprintf(buf, size, "unknown option '--%s'; did you mean '--%s'?", typed, best);
        else
            snprintf(buf, size, "unknown option '--%s'", typed);
    }
}

void optmsg_explain(char *buf, size_t size, int ret, int argc, char *const argv[], int next, int opt,
                    const struct option *longopts)
{
    const char *word = next > 0 && next <= argc ? argv[next - 1] : "";
    bool is_long = strncmp(word, "--", 2) == 0 && word[2] != '\0';
    if (is_long && opt != 0) { /* opt is the long option's code, or a short letter */
        bool ambiguous;
        const struct option *o = long_option_named(longopts, word + 2, strcspn(word + 2, "="), &ambiguous);
        is_long = o && o->flag == NULL && o->val == opt;
    }
    if (is_long)
        explain_long(buf, size, word, ret, longopts);
    else if (ret == ':')
        snprintf(buf, size, "option '-%c' needs a value", opt);
    else if (opt > 32 && opt < 127)
        snprintf(buf, size, "unknown option '-%c'", opt);
    else
        snprintf(buf, size, "unknown option '%s'", word);
}
