/* multi.c - `cutune SPEC --devices 0,1 --per-device`: every configuration on
 * every GPU, a cutune process per GPU (the library's cutune_tune_per_device).
 *
 * Each process is this same command, run again with `--device d`, its share of the
 * compile threads (cores / N unless --jobs says) and a results file of its own
 * (RESULTS.gpuD.json), so each GPU has its own winner, journal and resume; when all have
 * finished, the same variants' times are compared between GPUs (cutune_tune_spread) and
 * one header gets an entry per device. (`--devices` alone, GPUs of one model, is one
 * process: the tuner's fleet.) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* The command a child runs again (cutune_tune_per_device's `user`). */
typedef struct device_command {
    int argc;
    char **argv;
} device_command;

/* run_on_device: cutune_tune_per_device's function, in the child process for GPU
 * `device`: this command again (cutune_per_device_args) on that GPU with `jobs`
 * compile threads and its own results file, its ranking to /dev/null (each GPU's
 * winner is printed here). Returns only when it could not be started (EXIT_INTERNAL). */
static int run_on_device(void *user, int device, int jobs, const char *results_path)
{
    const device_command *dc = user;
    char **args = NULL;
    int rc = cutune_per_device_args(&args, dc->argc, dc->argv, device, jobs, results_path);
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0)
        dup2(null, STDOUT_FILENO);
    if (rc == CUTUNE_OK)
        execv("/proc/self/exe", args);
    fprintf(stderr, "cutune: could not start the run on GPU %d: %s\n", device,
            rc == CUTUNE_OK ? strerror(errno) : "out of memory");
    return EXIT_INTERNAL;
}

/* report_runs: each GPU's process that failed, then each GPU's winner and the spread of
 * its times over the first's, or why it has no results (cutune_device_run_text). The
 * first failing process's exit code (EXIT_OK: none). */
static int report_runs(const cutune_device_run *runs, int n, int code)
{
    for (int i = 0; i < n; i++) {
        int exit_code = runs[i].exit_code < 0 ? EXIT_INTERNAL : runs[i].exit_code;
        if (runs[i].started && exit_code != EXIT_OK) {
            fprintf(stderr, "cutune: the run on GPU %d (%s) ended with exit code %d\n", runs[i].device,
                    runs[i].results_path, exit_code);
            if (code == EXIT_OK)
                code = exit_code;
        }
    }
    for (int i = 0; i < n; i++) {
        char *line = NULL, *spread = NULL;
        if (cutune_device_run_text(&line, &spread, runs, n, i) == CUTUNE_OK) {
            fputs(line, stdout);
            fputs(spread, stderr);
        }
        cutune_free(line);
        cutune_free(spread);
    }
    return code;
}

/* write_header: one header of the runs read back, an entry per GPU model
 * (cutune_device_runs_header), to `path`; unless quiet, which GPUs share an entry and
 * where it went. The exit code (EXIT_OK when no run was read back: no header). */
static int write_header(cutune_spec *spec, const cutune_device_run *runs, int n, const char *path, bool quiet)
{
    char *text = NULL, *notes = NULL;
    int rc = cutune_device_runs_header(&text, quiet ? NULL : &notes, spec, runs, n, path);
    cli_say(CUTUNE_OK, &notes); /* NULL: nothing */
    int code = rc != CUTUNE_OK ? cli_exit_for_status(rc) : text ? cli_write("cutune", path, text) : EXIT_OK;
    if (rc != CUTUNE_OK)
        fprintf(stderr, "cutune: %s\n", cutune_last_error());
    else if (text && code == EXIT_OK && !quiet)
        fprintf(stderr, "header: %s (an entry per device)\n", path);
    cutune_free(text);
    return code;
}

int cli_tune_per_device(cutune_spec *spec, int argc, char **argv, const int *devs, int n, int nblocks,
                        const cutune_tune_options *t, const cutune_analyze_options *o, const cli_common *c,
                        const char *header_path, int sharded)
{
    const char *base = t->results_path ? t->results_path : cutune_spec_emit_path(spec, "results");
    if (cutune_per_device_check(devs, n, nblocks, base, sharded, t->journal_path) != CUTUNE_OK)
        return cli_usage_error("tune", "%s", cutune_last_error());
    device_command dc = {argc, argv};
    cutune_per_device_options po = CUTUNE_PER_DEVICE_OPTIONS_INIT;
    po.devices = devs;
    po.ndevices = n;
    po.jobs = o->jobs;
    po.run = run_on_device;
    po.user = &dc;
    char *start = NULL;
    cli_say(cutune_per_device_text(&start, devs, n, o->jobs), &start);
    cutune_device_run *runs = NULL;
    int rc = cutune_tune_per_device(&runs, spec, t, &po);
    if (rc < 0)
        fprintf(stderr, "cutune: %s\n", cutune_last_error());
    if (!runs)
        return EXIT_INTERNAL;
    int code = report_runs(runs, n, rc < 0 ? EXIT_INTERNAL : EXIT_OK);
    if (!header_path)
        header_path = cutune_spec_emit_path(spec, "header");
    int hc = header_path ? write_header(spec, runs, n, header_path, c->quiet) : EXIT_OK;
    if (code == EXIT_OK)
        code = hc;
    for (int i = 0; i < n && code == EXIT_OK; i++)
        if (!runs[i].result)
            code = EXIT_IO; /* its results not read back */
    cutune_device_runs_free(runs, n);
    return code;
}
