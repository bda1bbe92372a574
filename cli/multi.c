/* multi.c - `cutune SPEC --devices 0,1 --per-device`: every configuration on
 * every GPU, a cutune process per GPU.
 *
 * Each process is this same command with `--device d` and a results file of its own
 * (RESULTS.gpuD.json), so each GPU has its own winner, journal and resume; when all have
 * finished, the same variants' times are compared between GPUs and one header gets an
 * entry per device. Processes rather than threads: a GPU worker is already a process of
 * its own (runtime/worker), and a GPU that fails leaves the others' results whole.
 * (`--devices` alone, GPUs of one model, is one process: the tuner's fleet, tuner/fleet.c.)
 *
 * The compile threads are shared out: each process gets cores / N unless --jobs says. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

int cli_parse_devices(const char *text, int *out, int max, int *n)
{
    *n = 0;
    if (strcmp(text, "all") == 0) {
        int count = 0;
        if (cutune_device_count(&count) != CUTUNE_OK || count <= 0)
            return -1;
        for (int i = 0; i < count && i < max; i++)
            out[(*n)++] = i;
        return 0;
    }
    const char *p = text;
    while (*p) {
        size_t len = strcspn(p, ",");
        char one[24];
        long long d;
        if (len == 0 || len >= sizeof one || *n == max)
            return -1;
        memcpy(one, p, len);
        one[len] = '\0';
        if (!cli_read_int(one, 0, CLI_MAX_GPU, &d))
            return -1;
        out[(*n)++] = (int)d;
        p += len;
        if (*p == ',' && !*++p)
            return -1; /* "0,": a list does not end in a comma */
    }
    return *n > 0 ? 0 : -1;
}

/* argv without `--devices X` / `--devices=X` and `--per-device`, plus the process's own
 * options (`own`, and the two strings of `more` when given: they come last, so that a
 * --results of their own wins over the command's); NULL-ended, malloc'd (the strings are
 * argv's, `own`'s or `more`'s). */
static char **device_argv(int argc, char **argv, char own[][32], int nown, char **more)
{
    char **out = calloc((size_t)argc + (size_t)nown + 3, sizeof(char *));
    int k = 0;
    for (int i = 0; out && i < argc; i++) {
        if (strcmp(argv[i], "--devices") == 0) {
            i++;
            continue;
        }
        if (strncmp(argv[i], "--devices=", 10) == 0 || strcmp(argv[i], "--per-device") == 0)
            continue;
        out[k++] = argv[i];
    }
    for (int j = 0; out && j < nown; j++)
        out[k++] = own[j];
    for (int j = 0; out && more && j < 2; j++)
        out[k++] = more[j];
    return out;
}

/* Runs this command (argv, less --devices) once per GPU of `devices` (n) on devices[i]
 * with `jobs` compile threads each (0: the cores shared out), each writing paths[i],
 * and waits for all: EXIT_OK, or the first failing process's exit code (after a
 * message naming it). */
static int run_per_device(int argc, char **argv, const int *devices, int n, int jobs, const char *const *paths)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int per = jobs > 0 ? jobs : (int)(cores > n ? cores / n : 1);
    pid_t *pids = calloc((size_t)n, sizeof(pid_t));
    if (!pids)
        return EXIT_INTERNAL;
    fprintf(stderr, "%d GPUs (", n);
    for (int i = 0; i < n; i++)
        fprintf(stderr, "%s%d", i ? ", " : "", devices[i]);
    fprintf(stderr, "): a cutune process per GPU, each tuning every configuration with %d compile threads\n", per);
    int started = 0, rc = EXIT_OK;
    for (int i = 0; i < n; i++) {
        char own[4][32];
        char *more[2] = {"--results", (char *)paths[i]}; /* its own results file */
        snprintf(own[0], sizeof own[0], "--device");
        snprintf(own[1], sizeof own[1], "%d", devices[i]);
        snprintf(own[2], sizeof own[2], "--jobs");
        snprintf(own[3], sizeof own[3], "%d", per);
        char **args = device_argv(argc, argv, own, 4, more);
        if (!args) {
            rc = EXIT_INTERNAL;
            break;
        }
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            int null = open("/dev/null", O_WRONLY); /* their rankings: each GPU's winner is printed */
            if (null >= 0)
                dup2(null, STDOUT_FILENO);
            execv("/proc/self/exe", args);
            fprintf(stderr, "cutune: could not start the run on GPU %d: %s\n", devices[i], strerror(errno));
            _exit(EXIT_INTERNAL);
        }
        free(args);
        if (pid < 0) {
            fprintf(stderr, "cutune: could not start the run on GPU %d: %s\n", devices[i], strerror(errno));
            rc = EXIT_INTERNAL;
            break;
        }
        pids[started++] = pid;
    }
    int worst = rc;
    for (int i = 0; i < started; i++) {
        int status = 0;
        while (waitpid(pids[i], &status, 0) < 0 && errno == EINTR)
            ;
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_INTERNAL;
        if (code != EXIT_OK) {
            fprintf(stderr, "cutune: the run on GPU %d (%s) ended with exit code %d\n", devices[i], paths[i],
                    code);
            if (worst == EXIT_OK)
                worst = code;
        }
    }
    free(pids);
    return worst;
}

/* A device's results path: "x.json" -> "x.gpu1.json" (malloc'd; NULL out of memory). */
static char *device_path(const char *path, int device)
{
    size_t n = strlen(path);
    const char *dot = n > 5 && strcmp(path + n - 5, ".json") == 0 ? path + n - 5 : path + n;
    size_t size = n + 32;
    char *out = malloc(size);
    if (out)
        snprintf(out, size, "%.*s.gpu%d%s", (int)(dot - path), path, device, dot);
    return out;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* timed_ok_ms: the median time of a variant timed that ran ok, else 0. */
static double timed_ok_ms(const cutune_measurement *m)
{
    double ms = cutune_measurement_value(m, CUTUNE_VALUE_MEDIAN_MS);
    return cutune_measurement_value(m, CUTUNE_VALUE_TIMED) != 0 && cutune_measurement_outcome(m) == CUTUNE_OUTCOME_OK &&
                   ms > 0
               ? ms
               : 0;
}

/* The spread of the same variants' median times on two devices: b's over a's, for the
 * variants both ran ok with times, as the median ratio and the 5th and 95th percentiles. */
static void print_spread(const cutune_tune_result *a, const cutune_tune_result *b, int da, int db)
{
    uint64_t na = cutune_tune_count(a), nb = cutune_tune_count(b), k = 0;
    double *r = calloc((size_t)na + 1, sizeof(double));
    for (uint64_t i = 0; r && i < na; i++) {
        const cutune_measurement *x = cutune_tune_at(a, i);
        double tx = timed_ok_ms(x);
        if (!(tx > 0))
            continue;
        for (uint64_t j = 0; j < nb; j++) { /* the same ordinal on the other device */
            const cutune_measurement *y = cutune_tune_at(b, j);
            if (cutune_measurement_variant(y)->ordinal == cutune_measurement_variant(x)->ordinal) {
                double ty = timed_ok_ms(y);
                if (ty > 0)
                    r[k++] = ty / tx;
                break;
            }
        }
    }
    if (k > 0) {
        qsort(r, (size_t)k, sizeof *r, by_value);
        fprintf(stderr, "spread: GPU %d's median time over GPU %d's, same variants (%llu): median %.4f, 90 %% within "
                        "%.4f..%.4f\n", db, da, (unsigned long long)k, r[k / 2], r[(size_t)((double)(k - 1) * 0.05)],
                r[(size_t)((double)(k - 1) * 0.95)]);
    }
    free(r);
}

/* `--devices ... --per-device`: every configuration on every GPU, a process
 * per GPU writing RESULTS.gpuD.json; then each GPU's winner, the spread of the same
 * variants' times against the first GPU's, and one header with an entry per device. */
static int tune_per_device(cutune_spec *spec, int argc, char **argv, const int *devs, int n, const char *base,
                           const cutune_analyze_options *o, const cli_common *c, const char *header_path)
{
    char *paths[64] = {NULL};
    const cutune_tune_result *results[64] = {NULL};
    int code = EXIT_OK;
    for (int i = 0; i < n && code == EXIT_OK; i++) {
        for (int j = 0; j < i; j++)
            if (devs[j] == devs[i])
                return cli_usage_error("tune", "--per-device names GPU %d twice", devs[i]);
        if (!(paths[i] = device_path(base, devs[i])))
            code = EXIT_INTERNAL;
    }
    if (code == EXIT_OK)
        code = run_per_device(argc, argv, devs, n, o->jobs, (const char *const *)paths);
    int loaded = 0;
    for (int i = 0; i < n; i++) {
        cutune_tune_result *r = NULL;
        if (!paths[i] || cutune_results_load(&r, paths[i]) != CUTUNE_OK) {
            fprintf(stderr, "cutune: GPU %d: no results: %s\n", devs[i], paths[i] ? cutune_last_error() : "");
            continue;
        }
        results[loaded++] = r;
        const cutune_measurement *b = cutune_tune_best(r);
        printf("GPU %d (%s): ", devs[i], cutune_tune_device(r)->name);
        if (b) {
            const cutune_variant *v = cutune_measurement_variant(b);
            printf("best #%llu", (unsigned long long)v->ordinal);
            for (int p = 0; p < v->nparams; p++)
                printf(" %s=%s", cutune_spec_param_name(spec, p), v->values[p]);
            printf("  median %.4f ms; results: %s\n", cutune_measurement_value(b, CUTUNE_VALUE_MEDIAN_MS), paths[i]);
        } else {
            printf("no winner; results: %s\n", paths[i]);
        }
        if (loaded > 1)
            print_spread(results[0], r, devs[0], devs[i]);
    }
    if (!header_path)
        header_path = cutune_spec_emit_path(spec, "header");
    if (header_path && loaded > 0) {
        int hc = cli_emit_header_many(spec, results, loaded, header_path, c->quiet);
        if (code == EXIT_OK && hc != EXIT_OK)
            code = hc;
    }
    if (code == EXIT_OK && loaded < n)
        code = EXIT_IO;
    for (int i = 0; i < n; i++) {
        cutune_tune_result_free((cutune_tune_result *)results[i]);
        free(paths[i]);
    }
    return code;
}

bool cli_same_model(const int *devs, int n)
{
    cutune_device first, other;
    if (cutune_device_get(&first, devs[0]) != CUTUNE_OK)
        return true; /* the run itself says what is wrong with the GPU */
    for (int i = 1; i < n; i++)
        if (cutune_device_get(&other, devs[i]) == CUTUNE_OK && !cutune_device_same_model(&other, &first))
            return false;
    return true;
}

/* `--devices ... --per-device`: checks (one kernel block, a results file, no
 * --shard or --journal), then tune_per_device. The exit code. */
int cli_tune_per_device(cutune_spec *spec, int argc, char **argv, const int *devs, int n, int nblocks,
                        const cutune_tune_options *t, const cutune_analyze_options *o, const cli_common *c,
                        const char *header_path, int sharded)
{
    const char *base = t->results_path ? t->results_path : cutune_spec_emit_path(spec, "results");
    if (nblocks > 1 || !base || sharded || t->journal_path)
        return cli_usage_error("tune", nblocks > 1 ? "--per-device tunes one kernel block: name it with --kernel NAME"
                                       : sharded   ? "--per-device tunes every configuration on each GPU: leave "
                                                     "--shard out"
                                       : t->journal_path ? "with --per-device each GPU keeps its own journal: "
                                                           "leave --journal out"
                                                         : "--per-device needs a results file to name each GPU's "
                                                           "after (--results FILE)");
    return tune_per_device(spec, argc, argv, devs, n, base, o, c, header_path);
}
