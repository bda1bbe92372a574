/* cli_util.c - spec loading, diagnostics and option handling shared by subcommands;
 * the texts come from the library, the caller owns the spec. */
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
    free(c->config);
    c->config = NULL;
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

int cli_print_load(cutune_spec *spec, int rc, const char *path, const cli_common *c, int *seen)
{
    if (!spec) {
        fprintf(stderr, "cutune: %s\n", cutune_status_text(rc));
        return cli_exit_for_status(rc);
    }
    int errors = cutune_spec_error_count(spec);
    *seen = 0;
    cli_print_new_diagnostics(spec, c, seen);
    if (rc == CUTUNE_ESPEC && errors)
        fprintf(stderr, "%s: %d error%s\n", path, errors, errors == 1 ? "" : "s");
    return cli_exit_for_status(rc);
}

cutune_spec *cli_load(const char *path, const cli_common *c, int *exit_code)
{
    cutune_load_options opts = CUTUNE_LOAD_OPTIONS_INIT;
    opts.set = c->set;
    opts.nset = c->nset;
    opts.arch = c->arch;
    cutune_spec *spec = NULL;
    int rc = cutune_spec_load_file(&spec, path, &opts), seen = 0;
    *exit_code = cli_print_load(spec, rc, path, c, &seen);
    if (!spec)
        return NULL;
    if (rc == CUTUNE_OK && (rc = cutune_spec_pick(spec, c->kernel, c->config, c->nconfig)) != CUTUNE_OK)
        fprintf(stderr, "cutune: %s\n", cutune_last_error()); /* --kernel NAME, --config */
    *exit_code = cli_exit_for_status(rc);
    if (rc != CUTUNE_OK)
        cutune_spec_free(spec);
    return rc == CUTUNE_OK ? spec : NULL;
}

int cli_blocks(const cutune_spec *spec, const cli_common *c)
{
    return c->kernel ? 1 : cutune_spec_kernel_count(spec);
}

/* print_to: cli_print's and cli_say's work, on `f`. */
static int print_to(FILE *f, int rc, char **text, const char *end)
{
    if (rc == CUTUNE_OK && *text)
        fprintf(f, "%s%s", *text, end);
    cutune_free(*text);
    *text = NULL;
    return rc == CUTUNE_OK ? 0 : -1;
}

void cli_select_block(cutune_spec *spec, const cli_common *c, int i, FILE *out)
{
    if (c->kernel)
        return;
    cutune_spec_select_kernel(spec, i);
    char *text = NULL;
    if (out)
        print_to(out, cutune_spec_block_heading(&text, spec), &text, "");
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

bool cli_parse_count(const char *sub, const char *option, const char *text, unsigned long long *out)
{
    uint64_t n;
    if (!num_read_uint(text, CUTUNE_MAX_COUNT, &n)) {
        cli_usage_error(sub, "%s takes a count from 0 to %llu (0 for all), not '%s'", option,
                        (unsigned long long)CUTUNE_MAX_COUNT, text);
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

void cli_print_device_attrs(const cutune_spec *spec, FILE *f, const char *label)
{
    char *text = NULL;
    if (cutune_spec_device_text(&text, spec) == CUTUNE_OK && *text)
        fprintf(f, "%s%s\n", label, text);
    cutune_free(text);
}

int cli_print(int rc, char **text, const char *end)
{
    return print_to(stdout, rc, text, end);
}

int cli_say(int rc, char **text)
{
    return print_to(stderr, rc, text, "");
}

int cli_write(const char *who, const char *path, const char *text)
{
    if (cutune_write_file(path, text) == CUTUNE_OK)
        return EXIT_OK;
    fprintf(stderr, "%s: %s\n", who, cutune_last_error());
    return EXIT_IO;
}
