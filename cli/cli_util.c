/* cli_util.c - spec loading, diagnostics and option handling shared by subcommands. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

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
}

int cli_common_option(cli_common *c, int opt, const char *arg)
{
    switch (opt) {
    case CLI_OPT_SET: {
        const char **grown = realloc(c->set, sizeof(char *) * (size_t)(c->nset + 1));
        if (!grown) {
            fprintf(stderr, "cutune: out of memory\n");
            return -1;
        }
        c->set = grown;
        c->set[c->nset++] = arg;
        return 1;
    }
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
    case CLI_OPT_QUIET:
        c->quiet = true;
        return 1;
    default:
        return 0;
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
    cutune_load_options opts;
    memset(&opts, 0, sizeof opts);
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
    *exit_code = EXIT_OK;
    return spec;
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
    char *end;
    *out = strtoull(text, &end, 10);
    if (*end || text[0] == '-' || !text[0]) {
        cli_usage_error(sub, "%s takes a count (0 for all), not '%s'", option, text);
        return false;
    }
    return true;
}

int cli_usage_error(const char *sub, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "cutune%s%s: ", sub ? " " : "", sub ? sub : "");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see: cutune help%s%s)\n", sub ? " " : "", sub ? sub : "");
    return EXIT_USAGE;
}

void cli_print_device_attrs(const cutune_spec *spec, FILE *f, const char *label)
{
    int any = 0;
    for (int i = 0; i < cutune_device_attr_count(); i++) {
        if (!cutune_spec_device_attr_used(spec, i))
            continue;
        fprintf(f, "%s%s %lld", any ? ", " : label, cutune_device_attr_name(i), cutune_spec_device_attr_value(spec, i));
        any = 1;
    }
    if (!any)
        return;
    if (cutune_spec_device_assumed(spec))
        fprintf(f, "  (assumed, no GPU read: %s; --arch picks another)\n", cutune_spec_device_source(spec));
    else
        fprintf(f, "  (read from %s)\n", cutune_spec_device_source(spec));
}

bool cli_reads_device(const cutune_spec *spec)
{
    for (int i = 0; i < cutune_device_attr_count(); i++)
        if (cutune_spec_device_attr_used(spec, i))
            return true;
    return false;
}
