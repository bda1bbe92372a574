/* perdev.c - every configuration on each of several GPUs: a process per GPU (perdev.h).
 * Runs in the caller's process; each child runs the caller's function and exits. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cutune.h"
#include "perdev.h"
#include "../base/err.h"
#include "../base/sys.h"

char *perdev_path(const char *path, int device)
{
    size_t n = strlen(path);
    const char *dot = n > 5 && strcmp(path + n - 5, ".json") == 0 ? path + n - 5 : path + n;
    size_t size = n + 32;
    char *out = malloc(size);
    if (out)
        snprintf(out, size, "%.*s.gpu%d%s", (int)(dot - path), path, device, dot);
    return out;
}

int perdev_jobs(int jobs, int n)
{
    if (jobs > 0)
        return jobs;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return (int)(n > 0 && cores > n ? cores / n : 1);
}

int perdev_run(const int *devices, int n, int jobs, const char *const *paths, perdev_fn run, void *user, int *started,
               int *exit_code)
{
    pid_t *pids = calloc((size_t)n + 1, sizeof(pid_t));
    if (!pids)
        return CUTUNE_ENOMEM;
    int rc = CUTUNE_OK;
    for (int i = 0; i < n; i++) {
        started[i] = 0;
        exit_code[i] = -1;
    }
    for (int i = 0; i < n; i++) {
        fflush(NULL); /* what stdio holds is written once, not once more by each child */
        pid_t pid = fork();
        if (pid == 0)
            _exit(run(user, devices[i], jobs, paths[i]) & 0xff);
        if (pid < 0) {
            rc = err_set(CUTUNE_EIO, "could not start the run on GPU %d: %s", devices[i], sys_strerror(errno));
            break;
        }
        pids[i] = pid;
        started[i] = 1;
    }
    for (int i = 0; i < n; i++) {
        if (!started[i])
            continue;
        int status = 0;
        while (waitpid(pids[i], &status, 0) < 0 && errno == EINTR)
            ;
        exit_code[i] = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    free(pids);
    return rc;
}
