/* multi.c - issue 19: `cutune SPEC --devices 0,1|all`: every GPU of the host at once.
 *
 * One cutune process per GPU, each this same command as a shard (`--shard i/N --device
 * d`): each compiles and measures its own configurations on its own GPU, through the
 * one compile cache on disk, with its own journal; when all have finished, their results
 * files are joined (cutune_results_merge) into the run's results file, from which the
 * ranking, the header, the CSV and the report are made as for a one-GPU run. Processes
 * rather than threads: a GPU worker is already a process of its own (runtime/worker),
 * and a shard that fails leaves the others' results whole.
 *
 * The compile threads are shared out: each shard gets cores / N unless --jobs says. */
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
        char *end;
        long d = strtol(p, &end, 10);
        if (end == p || d < 0 || d > 4096 || *n == max || (*end && *end != ','))
            return -1;
        out[(*n)++] = (int)d;
        p = *end ? end + 1 : end;
        if (*end && !*p)
            return -1;
    }
    return *n > 0 ? 0 : -1;
}

/* argv without `--devices X` / `--devices=X` and `--per-device`, plus the process's own
 * options (`own`, and the two strings of `more` when given: they come last, so that a
 * --results of their own wins over the command's); NULL-ended, malloc'd (the strings are
 * argv's, `own`'s or `more`'s). */
static char **shard_argv(int argc, char **argv, char own[][32], int nown, char **more)
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

int cli_tune_devices(int argc, char **argv, const int *devices, int n, int jobs, const char *results,
                     const char *const *shard_paths, bool per_device)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int per = jobs > 0 ? jobs : (int)(cores > n ? cores / n : 1);
    pid_t *pids = calloc((size_t)n, sizeof(pid_t));
    if (!pids)
        return EXIT_INTERNAL;
    fprintf(stderr, "%d GPUs (", n);
    for (int i = 0; i < n; i++)
        fprintf(stderr, "%s%d", i ? ", " : "", devices[i]);
    if (per_device)
        fprintf(stderr, "): a cutune process per GPU, each tuning every configuration with %d compile threads\n", per);
    else
        fprintf(stderr, "): a cutune process per GPU, each tuning a shard with %d compile threads; then merged into "
                        "%s\n", per, results);
    int started = 0, rc = EXIT_OK;
    for (int i = 0; i < n; i++) {
        char own[6][32];
        char *more[2] = {"--results", (char *)shard_paths[i]}; /* per device: its own results file */
        snprintf(own[0], sizeof own[0], "--device");
        snprintf(own[1], sizeof own[1], "%d", devices[i]);
        snprintf(own[2], sizeof own[2], "--jobs");
        snprintf(own[3], sizeof own[3], "%d", per);
        snprintf(own[4], sizeof own[4], "--shard");
        snprintf(own[5], sizeof own[5], "%d/%d", i, n);
        char **args = shard_argv(argc, argv, own, per_device ? 4 : 6, per_device ? more : NULL);
        if (!args) {
            rc = EXIT_INTERNAL;
            break;
        }
        fflush(NULL);
        pid_t pid = fork();
        if (pid == 0) {
            int null = open("/dev/null", O_WRONLY); /* the shards' rankings: the merged one is printed */
            if (null >= 0)
                dup2(null, STDOUT_FILENO);
            execv("/proc/self/exe", args);
            fprintf(stderr, "cutune: could not start the shard for GPU %d: %s\n", devices[i], strerror(errno));
            _exit(EXIT_INTERNAL);
        }
        free(args);
        if (pid < 0) {
            fprintf(stderr, "cutune: could not start the shard for GPU %d: %s\n", devices[i], strerror(errno));
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
            fprintf(stderr, "cutune: the run on GPU %d (%s) ended with exit code %d\n", devices[i], shard_paths[i],
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

/* The spread of the same variants' median times on two devices: b's over a's, for the
 * variants both ran ok with times, as the median ratio and the 5th and 95th percentiles. */
static void print_spread(const cutune_tune_result *a, const cutune_tune_result *b, int da, int db)
{
    uint64_t na = cutune_tune_count(a), nb = cutune_tune_count(b), k = 0;
    double *r = calloc((size_t)na + 1, sizeof(double));
    for (uint64_t i = 0; r && i < na; i++) {
        const cutune_measurement *x = cutune_tune_at(a, i);
        if (!x->timed || strcmp(x->status, "ok") != 0 || !(x->median_ms > 0))
            continue;
        for (uint64_t j = 0; j < nb; j++) { /* the same ordinal on the other device */
            const cutune_measurement *y = cutune_tune_at(b, j);
            if (y->variant->ordinal == x->variant->ordinal) {
                if (y->timed && strcmp(y->status, "ok") == 0 && y->median_ms > 0)
                    r[k++] = y->median_ms / x->median_ms;
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

/* issue 19, `--devices ... --per-device`: every configuration on every GPU, a process
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
        code = cli_tune_devices(argc, argv, devs, n, o->jobs, base, (const char *const *)paths, true);
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
            printf("best #%llu", (unsigned long long)b->variant->ordinal);
            for (int p = 0; p < b->variant->nparams; p++)
                printf(" %s=%s", cutune_spec_param_name(spec, p), b->variant->values[p]);
            printf("  median %.4f ms; results: %s\n", b->median_ms, paths[i]);
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

/* issue 19, `--devices`: checks (one kernel block, a results file, no --shard or
 * --journal), runs a shard per GPU (cli_tune_devices), merges the shards'
 * files into the results file and reports the merged run as a one-GPU run is reported:
 * ranking, best, header, CSV, report. The exit code. */
int cli_tune_on_devices(cutune_spec *spec, int argc, char **argv, const int *devs, int n, int nblocks,
                           const cutune_tune_options *t, const cutune_analyze_options *o, const cli_common *c, int top,
                           const char *header_path, const char *csv_path, const char *report_path, int sharded,
                           bool per_device)
{
    const char *base = t->results_path ? t->results_path : cutune_spec_emit_path(spec, "results");
    if (nblocks > 1 || !base || sharded || t->journal_path)
        return cli_usage_error("tune", nblocks > 1 ? "--devices tunes one kernel block: name it with --kernel NAME"
                                       : sharded   ? "--devices runs a shard per GPU itself: leave --shard out"
                                       : t->journal_path ? "with --devices each GPU's shard keeps its own journal: "
                                                           "leave --journal out"
                                                         : "--devices needs a results file to merge into (--results FILE)");
    if (per_device)
        return tune_per_device(spec, argc, argv, devs, n, base, o, c, header_path);
    /* No device is asked for here: each query starts the driver in a probe process
     * (about as long as a shard's own start), and the shards ask anyway. GPUs of
     * different models give shards that cutune_results_merge refuses to join. */
    for (int i = 1; i < n; i++)
        for (int j = 0; j < i; j++)
            if (devs[j] == devs[i] && !c->quiet) /* allowed: a check of the machinery on one GPU */
                fprintf(stderr, "note: --devices names GPU %d twice: its shards share it, and their times "
                                "disturb each other\n", devs[i]);
    char *paths[64] = {NULL};
    int code = EXIT_OK;
    for (int i = 0; i < n && code == EXIT_OK; i++)
        if (!(paths[i] = cli_shard_path(base, &(cli_shard){i, n, -1, NULL})))
            code = EXIT_INTERNAL;
    if (code == EXIT_OK)
        code = cli_tune_devices(argc, argv, devs, n, o->jobs, base, (const char *const *)paths, false);
    cutune_tune_result *r = NULL;
    int mrc = code == EXIT_INTERNAL ? CUTUNE_ENOMEM
                                    : cutune_results_merge(&r, (const char *const *)paths, n, code != EXIT_OK);
    if (mrc != CUTUNE_OK) {
        fprintf(stderr, "cutune: the GPUs' shards could not be merged: %s\n", cutune_last_error());
        code = code != EXIT_OK ? code : mrc == CUTUNE_EIO ? EXIT_IO : EXIT_USAGE;
    } else if (cutune_tune_write_results(r, base) != CUTUNE_OK) {
        fprintf(stderr, "cutune: %s\n", cutune_last_error());
        code = code != EXIT_OK ? code : EXIT_IO;
    } else {
        if (top > 0)
            cli_print_ranking(spec, r, top);
        const cutune_tune_summary *s = cutune_tune_summary_of(r);
        const cutune_measurement *b = cutune_tune_best(r);
        fprintf(stderr, "\n%d GPUs: %llu variants, %llu timed; wall %.2f s (the slowest shard's); results: %s\n", n,
                (unsigned long long)s->variants, (unsigned long long)s->timed, s->wall_seconds, base);
        if (b) {
            printf("\nbest: #%llu", (unsigned long long)b->variant->ordinal);
            for (int p = 0; p < b->variant->nparams; p++)
                printf(" %s=%s", cutune_spec_param_name(spec, p), b->variant->values[p]);
            printf("  median %.4f ms, %s %.6g\n", b->median_ms, s->objective_name, b->objective);
            if (code == EXIT_OK && cli_emit_after_tune(spec, r, header_path, csv_path, c, false) != EXIT_OK)
                code = EXIT_IO;
            if (code == EXIT_OK && report_path && cli_report_after_tune(r, base, report_path, c->quiet) != EXIT_OK)
                code = EXIT_IO;
        } else if (code == EXIT_OK) {
            fprintf(stderr, "cutune: no variant ran correctly, so none was chosen\n");
            code = EXIT_NOTHING;
        }
    }
    cutune_tune_result_free(r);
    for (int i = 0; i < n; i++)
        free(paths[i]);
    return code;
}
