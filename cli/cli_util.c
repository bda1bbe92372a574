/* cli_util.c - spec loading, diagnostics and option handling shared by subcommands. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "../base/suggest.h"

static volatile sig_atomic_t interrupted_flag;
static volatile int interrupted_int;

static void on_interrupt(int sig)
{
    if (interrupted_flag && sig == SIGINT) {
        signal(SIGINT, SIG_DFL); /* a second Ctrl-C: stop now */
        raise(SIGINT);
        return;
    }
    interrupted_flag = 1;
    interrupted_int = 1;
    static const char msg[] = "\ncutune: interrupted: finishing the variant in hand, then reporting "
                              "(Ctrl-C again to stop at once)\n";
    ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)ignored;
}

const volatile int *cli_catch_interrupts(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    return &interrupted_int;
}

void cli_init_common(cli_common *c)
{
    memset(c, 0, sizeof *c);
    const char *no_color = getenv("NO_COLOR");
    const char *term = getenv("TERM");
    c->color = isatty(STDERR_FILENO) && !(no_color && *no_color) && !(term && strcmp(term, "dumb") == 0);
}

void cli_free_common(cli_common *c)
{
    free(c->set);
    c->set = NULL;
    free(c->config);
    c->config = NULL;
}

/* Appends `arg` to the growing list *list of *n. False when out of memory (said). */
static bool append_arg(const char ***list, int *n, const char *arg)
{
    const char **grown = realloc(*list, sizeof(char *) * (size_t)(*n + 1));
    if (!grown) {
        fprintf(stderr, "cutune: out of memory\n");
        return false;
    }
    *list = grown;
    grown[(*n)++] = arg;
    return true;
}

int cli_common_option(cli_common *c, int opt, const char *arg)
{
    switch (opt) {
    case CLI_OPT_SET: return append_arg(&c->set, &c->nset, arg) ? 1 : -1;
    case CLI_OPT_CONFIG: return append_arg(&c->config, &c->nconfig, arg) ? 1 : -1;
    case CLI_OPT_COLOR:
        if (strcmp(arg, "always") == 0)
            c->color = 1;
        else if (strcmp(arg, "never") == 0)
            c->color = 0;
        else if (strcmp(arg, "auto") != 0) {
            fprintf(stderr, "cutune: --color takes auto, always or never, not '%s'\n", arg);
            return -1;
        }
        return 1;
    case CLI_OPT_QUIET: c->quiet = true; return 1;
    case CLI_OPT_KERNEL: c->kernel = arg; return 1;
    default: return 0;
    }
}

int cli_exit_for_status(int status)
{
    switch (status) {
    case CUTUNE_OK: return EXIT_OK;
    case CUTUNE_ESPEC:
    case CUTUNE_EEVAL: return EXIT_SPEC;
    case CUTUNE_EIO: return EXIT_IO;
    case CUTUNE_EINVAL: return EXIT_USAGE;
    default: return EXIT_INTERNAL;
    }
}

void cli_print_new_diagnostics(cutune_spec *spec, const cli_common *c, int *seen)
{
    int n = cutune_spec_diagnostic_count(spec);
    if (n > *seen) {
        const char *text = cutune_spec_diagnostics(spec, *seen, c->color);
        if (text)
            fputs(text, stderr);
        *seen = n;
    }
}

cutune_spec *cli_load(const char *path, const cli_common *c, int *exit_code)
{
    cutune_load_options opts = CUTUNE_LOAD_OPTIONS_INIT;
    opts.set = c->set;
    opts.nset = c->nset;
    opts.arch = c->arch;
    cutune_spec *spec = NULL;
    int rc = cutune_spec_load_file(&spec, path, &opts);
    if (!spec) {
        fprintf(stderr, "cutune: %s\n", cutune_status_text(rc));
        *exit_code = cli_exit_for_status(rc);
        return NULL;
    }
    int seen = 0;
    cli_print_new_diagnostics(spec, c, &seen);
    if (rc != CUTUNE_OK) {
        int errors = cutune_spec_error_count(spec);
        if (rc == CUTUNE_ESPEC && errors)
            fprintf(stderr, "%s: %d error%s\n", path, errors, errors == 1 ? "" : "s");
        *exit_code = cli_exit_for_status(rc);
        cutune_spec_free(spec);
        return NULL;
    }
    if (c->kernel) { /* --kernel NAME: the block of that name, else the first of that kernel */
        int n = cutune_spec_kernel_count(spec), found = -1;
        for (int pass = 0; pass < 2 && found < 0; pass++)
            for (int i = 0; i < n && found < 0; i++) {
                cutune_spec_select_kernel(spec, i);
                if (strcmp(pass ? cutune_spec_kernel(spec) : cutune_spec_block_name(spec), c->kernel) == 0)
                    found = i;
            }
        if (found < 0) {
            fprintf(stderr, "cutune: %s has no kernel block named '%s' (its blocks:", path, c->kernel);
            for (int i = 0; i < n; i++) {
                cutune_spec_select_kernel(spec, i);
                if (strcmp(cutune_spec_block_name(spec), cutune_spec_kernel(spec)) != 0)
                    fprintf(stderr, "%s %s (kernel %s)", i ? "," : "", cutune_spec_block_name(spec),
                            cutune_spec_kernel(spec));
                else
                    fprintf(stderr, "%s %s", i ? "," : "", cutune_spec_kernel(spec));
            }
            fprintf(stderr, ")\n");
            *exit_code = EXIT_USAGE;
            cutune_spec_free(spec);
            return NULL;
        }
        cutune_spec_select_kernel(spec, found);
    }
    if (c->nconfig > 0) { /* --config: the block's space restricted to those configurations */
        int n = cutune_spec_kernel_count(spec);
        int restricted = n > 1 && !c->kernel ? CUTUNE_EINVAL : cutune_spec_restrict(spec, c->config, c->nconfig);
        if (restricted != CUTUNE_OK) {
            if (n > 1 && !c->kernel)
                fprintf(stderr, "cutune: --config: %s has %d kernel blocks: name one with --kernel NAME\n", path, n);
            else
                fprintf(stderr, "cutune: %s\n", cutune_last_error());
            *exit_code = restricted == CUTUNE_EINVAL ? EXIT_USAGE : cli_exit_for_status(restricted);
            cutune_spec_free(spec);
            return NULL;
        }
    }
    *exit_code = EXIT_OK;
    return spec;
}

int cli_blocks(const cutune_spec *spec, const cli_common *c)
{
    return c->kernel ? 1 : cutune_spec_kernel_count(spec);
}

void cli_select_block(cutune_spec *spec, const cli_common *c, int i, FILE *out)
{
    if (c->kernel)
        return;
    cutune_spec_select_kernel(spec, i);
    int n = cutune_spec_kernel_count(spec);
    if (out && n > 1 && strcmp(cutune_spec_block_name(spec), cutune_spec_kernel(spec)) != 0)
        fprintf(out, "%skernel %s as %s (block %d of %d)\n", i ? "\n" : "", cutune_spec_kernel(spec),
                cutune_spec_block_name(spec), i + 1, n);
    else if (out && n > 1)
        fprintf(out, "%skernel %s (block %d of %d)\n", i ? "\n" : "", cutune_spec_kernel(spec), i + 1, n);
}

/* The errno of stdout's first failed write, as cli_stdout_failed saw it (ferror keeps
 * none). The CLI is one thread and one stdout: a file-scope variable is its own. */
static int stdout_errno;

bool cli_stdout_failed(void)
{
    if (!ferror(stdout))
        return false;
    if (!stdout_errno)
        stdout_errno = errno; /* right after the failed call, errno is still its own */
    return true;
}

int cli_finish_output(int code)
{
    int failed = cli_stdout_failed();
    int err = stdout_errno;
    if (fflush(stdout) != 0) {
        if (!failed)
            err = errno;
        failed = 1;
    }
    if (fclose(stdout) != 0 && !failed) {
        failed = 1;
        err = errno;
    }
    if (!failed)
        return code;
    fprintf(stderr, "cutune: cannot write to standard output: %s\n", err ? strerror(err) : "write error");
    return code == EXIT_OK ? EXIT_IO : code;
}

const char *cli_format_count(unsigned long long n, char *buf, size_t size)
{
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%llu", n);
    size_t k = 0;
    for (int i = 0; i < len && k + 2 < size; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            buf[k++] = ',';
        buf[k++] = digits[i];
    }
    buf[k] = '\0';
    return buf;
}

bool cli_parse_count(const char *sub, const char *option, const char *text, unsigned long long *out)
{
    uint64_t n;
    if (!cli_read_uint(text, CLI_MAX_COUNT, &n)) {
        cli_usage_error(sub, "%s takes a count from 0 to %llu (0 for all), not '%s'", option,
                        (unsigned long long)CLI_MAX_COUNT, text);
        return false;
    }
    *out = n;
    return true;
}

int cli_usage_error(const char *sub, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "cutune%s%s: ", sub ? " " : "", sub ? sub : "");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see: cutune%s%s --help)\n", sub ? " " : "", sub ? sub : "");
    return EXIT_USAGE;
}

/* long_option_named: the entry of `longopts` whose name is `name` (the first `len`
 * characters), else the only one it abbreviates; NULL when none. *ambiguous is set when
 * it abbreviates several (and none exactly). */
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

/* bad_long_option: the message for the long option `word` ("--name" or "--name=value")
 * that getopt_long refused with `ret` ('?' or ':'). */
static void bad_long_option(const char *sub, const char *word, int ret, const struct option *longopts)
{
    const char *name = word + 2;
    size_t len = strcspn(name, "=");
    bool ambiguous;
    const struct option *o = long_option_named(longopts, name, len, &ambiguous);
    if (o && ret == ':') {
        cli_usage_error(sub, "option '--%s' needs a value", o->name);
    } else if (o && name[len] == '=' && o->has_arg == no_argument) {
        cli_usage_error(sub, "option '--%s' takes no value (given '%s')", o->name, word);
    } else if (ambiguous) {
        char names[400];
        size_t used = 0;
        names[0] = '\0';
        for (const struct option *p = longopts; p->name && used + 1 < sizeof names; p++)
            if (strncmp(p->name, name, len) == 0)
                used += (size_t)snprintf(names + used, sizeof names - used, "%s--%s", used ? ", " : "", p->name);
        cli_usage_error(sub, "option '%.*s' is ambiguous: it could be %s", (int)len + 2, word, names);
    } else {
        const char *candidates[64];
        size_t n = 0;
        char typed[64];
        snprintf(typed, sizeof typed, "%.*s", (int)(len < sizeof typed ? len : sizeof typed - 1), name);
        for (const struct option *p = longopts; p->name && n < 64; p++)
            candidates[n++] = p->name;
        const char *best = suggest_best(typed, candidates, n);
        if (best)
            cli_usage_error(sub, "unknown option '--%s'; did you mean '--%s'?", typed, best);
        else
            cli_usage_error(sub, "unknown option '--%s'", typed);
    }
}

int cli_getopt(const char *sub, int argc, char **argv, const char *shortopts, const struct option *longopts)
{
    char spec[64];
    snprintf(spec, sizeof spec, ":%s", shortopts);
    opterr = 0;
    int ret = getopt_long(argc, argv, spec, longopts, NULL);
    if (ret != '?' && ret != ':')
        return ret;
    /* Which element failed: a long option is a whole element, always consumed (optind
     * is past it); a short one is optopt, inside an element that may not be. */
    const char *word = optind > 0 && optind <= argc ? argv[optind - 1] : "";
    bool is_long = strncmp(word, "--", 2) == 0 && word[2] != '\0';
    if (is_long && optopt != 0) { /* optopt is the long option's code, or a short letter */
        bool ambiguous;
        const struct option *o = long_option_named(longopts, word + 2, strcspn(word + 2, "="), &ambiguous);
        is_long = o && o->flag == NULL && o->val == optopt;
    }
    if (is_long)
        bad_long_option(sub, word, ret, longopts);
    else if (ret == ':')
        cli_usage_error(sub, "option '-%c' needs a value", optopt);
    else if (optopt > 32 && optopt < 127)
        cli_usage_error(sub, "unknown option '-%c'", optopt);
    else
        cli_usage_error(sub, "unknown option '%s'", word);
    return '?';
}

void cli_print_device_attrs(const cutune_spec *spec, FILE *f, const char *label)
{
    char *text = NULL;
    if (cutune_spec_device_text(&text, spec) == CUTUNE_OK && *text)
        fprintf(f, "%s%s\n", label, text);
    cutune_free(text);
}

bool cli_reads_device(const cutune_spec *spec)
{
    for (int i = 0; i < cutune_device_attr_count(); i++)
        if (cutune_spec_device_attr_used(spec, i))
            return true;
    return false;
}
