/* perdev.h - every configuration on each of several GPUs (prefix perdev_): the
 * processes of cutune_tune_per_device (api/cutune_tune.c), one per GPU.
 *
 * Processes rather than threads: a GPU worker is already a process of its own
 * (runtime/worker), and a GPU that fails leaves the others' results whole. Each child
 * runs the caller's function, whose return is its exit status; the caller reads each
 * child's results file afterwards. (Several GPUs of one model in one process, one
 * result: the tuner's fleet, tuner/fleet.c.) */
#ifndef CUTUNE_TUNER_PERDEV_H
#define CUTUNE_TUNER_PERDEV_H

/* The function each child runs: GPU `device`, `jobs` compile threads, its results file. */
typedef int (*perdev_fn)(void *user, int device, int jobs, const char *results_path);

/* perdev_path: a GPU's results path: "x.json" -> "x.gpu1.json", "x" -> "x.gpu1"
 * (malloc'd; NULL out of memory). */
char *perdev_path(const char *path, int device);

/* perdev_jobs: the compile threads of each of n processes: jobs when above 0, else the
 * machine's online cores / n (at least 1). */
int perdev_jobs(int jobs, int n);

/* perdev_run: a child process per GPU devices[0 .. n) running run(user, devices[i],
 * jobs, paths[i]) and exiting with its return (0 to 255); waits for every child started.
 * started[i]: 1 when child i was started; exit_code[i]: its exit status, -1 when it was
 * killed by a signal or not started. Stdio is flushed before each fork. CUTUNE_OK, or
 * CUTUNE_EIO when a child could not be started (the error object names the GPU; the
 * ones after it are not started). */
int perdev_run(const int *devices, int n, int jobs, const char *const *paths, perdev_fn run, void *user, int *started,
               int *exit_code);

#endif
