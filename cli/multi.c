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
