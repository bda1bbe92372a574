/* nvrtc_scaling.c - how NVRTC's throughput scales with threads in one process versus
 * processes, and what each compile option costs (the compile-throughput and
 * compile-cost levers). A benchmark, not a test: it prints figures.
 *
 *   nvrtc_scaling FILE NAME JOBS MACRO=V1,V2,... [MACRO=...]
 *
 * Compiles JOBS variants of kernel NAME in FILE (each with a different -D combination
 * drawn from the macro lists, round-robin, so NVRTC cannot reuse anything), for sm_90,
 * under each layout of P processes x T threads in LAYOUTS below, and prints the wall
 * time, NVRTC time summed over the compiles and compiles per second. Then, on one
 * thread, each option set's mean time per compile. */
#define _GNU_SOURCE
#include <nvrtc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *source;
static const char *file_name, *kernel_name;
static int nmacros;
static char *macro_names[8];
static char *macro_values[8][32];
static int macro_counts[8];

/* The -D options of variant j (mixed radix over the lists), into opts[first..]. */
static int defines_of(int j, char buf[8][96], const char **opts, int first)
{
    for (int m = 0; m < nmacros; m++) {
        snprintf(buf[m], sizeof buf[m], "-D%s=%s", macro_names[m], macro_values[m][j % macro_counts[m]]);
        j /= macro_counts[m];
        opts[first + m] = buf[m];
    }
    return first + nmacros;
}

/* One compile of variant j with extra options; returns its seconds, or -1 on failure
 * (printed: a benchmark's failure must be seen). */
static double compile_one(int j, const char *const *extra, int nextra)
{
    char defs[8][96];
    const char *opts[32];
    int n = 0;
    for (int i = 0; i < nextra; i++)
        opts[n++] = extra[i];
    opts[n++] = "-I/usr/local/cuda/include";
    n = defines_of(j, defs, opts, n);
    double t0 = now();
    nvrtcProgram p;
    nvrtcResult r = nvrtcCreateProgram(&p, source, file_name, 0, NULL, NULL);
    if (r != NVRTC_SUCCESS) {
        fprintf(stderr, "nvrtcCreateProgram: %s\n", nvrtcGetErrorString(r));
        return -1;
    }
    if ((r = nvrtcAddNameExpression(p, kernel_name)) != NVRTC_SUCCESS) {
        fprintf(stderr, "nvrtcAddNameExpression: %s\n", nvrtcGetErrorString(r));
        nvrtcDestroyProgram(&p);
        return -1;
    }
    r = nvrtcCompileProgram(p, n, opts);
    if (r != NVRTC_SUCCESS) {
        size_t ls = 0;
        nvrtcGetProgramLogSize(p, &ls);
        char *log = malloc(ls + 1);
        if (log && nvrtcGetProgramLog(p, log) == NVRTC_SUCCESS)
            fprintf(stderr, "compile of variant %d failed: %s\n%s\n", j, nvrtcGetErrorString(r), log);
        free(log);
        nvrtcDestroyProgram(&p);
        return -1;
    }
    size_t size = 0;
    if (nvrtcGetCUBINSize(p, &size) != NVRTC_SUCCESS || size == 0)
        nvrtcGetPTXSize(p, &size); /* a PTX-only option set */
    nvrtcDestroyProgram(&p);
    return now() - t0;
}

static const char *const base_opts[] = {"--gpu-architecture=sm_90", "--ptxas-options=-v", "--no-cache"};

typedef struct share {
    int first, step, jobs;
    double sum;
    int failed;
} share;

static void *thread_main(void *arg)
{
    share *s = arg;
    for (int j = s->first; j < s->jobs; j += s->step) {
        double t = compile_one(j, base_opts, 3);
        if (t < 0)
            s->failed++;
        else
            s->sum += t;
    }
    return NULL;
}

/* Runs the jobs over P processes of T threads; prints one line. */
static int layout(int P, int T, int jobs)
{
    int fds[64][2];
    double t0 = now();
    for (int p = 0; p < P; p++) {
        if (pipe(fds[p]) < 0)
            return -1;
        pid_t pid = fork();
        if (pid < 0)
            return -1;
        if (pid == 0) {
            close(fds[p][0]);
            share sh[64];
            pthread_t th[64];
            for (int t = 0; t < T; t++) {
                sh[t] = (share){p * T + t, P * T, jobs, 0, 0};
                if (pthread_create(&th[t], NULL, thread_main, &sh[t]) != 0)
                    _exit(1);
            }
            double sum = 0;
            int failed = 0;
            for (int t = 0; t < T; t++) {
                pthread_join(th[t], NULL);
                sum += sh[t].sum;
                failed += sh[t].failed;
            }
            double msg[2] = {sum, failed};
            ssize_t w = write(fds[p][1], msg, sizeof msg);
            _exit(w == (ssize_t)sizeof msg ? 0 : 1);
        }
        close(fds[p][1]);
    }
    double sum = 0;
    int failed = 0, bad = 0;
    for (int p = 0; p < P; p++) {
        double msg[2];
        if (read(fds[p][0], msg, sizeof msg) != (ssize_t)sizeof msg)
            bad++;
        else {
            sum += msg[0];
            failed += (int)msg[1];
        }
        close(fds[p][0]);
    }
    int status;
    while (wait(&status) > 0)
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            bad++;
    double wall = now() - t0;
    printf("%9d %7d %7d %8.2f %9.2f %10.1f %6d\n", P, T, P * T, wall, sum, jobs / wall, failed + bad);
    fflush(stdout);
    return failed + bad ? -1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: nvrtc_scaling FILE NAME JOBS MACRO=V1,V2,... [MACRO=...]\n");
        return 2;
    }
    file_name = argv[1];
    kernel_name = argv[2];
    int jobs = atoi(argv[3]);
    FILE *f = fopen(file_name, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0) {
        perror(file_name);
        return 1;
    }
    long len = ftell(f);
    rewind(f);
    source = malloc((size_t)len + 1);
    if (!source || fread(source, 1, (size_t)len, f) != (size_t)len) {
        perror(file_name);
        return 1;
    }
    source[len] = '\0';
    fclose(f);
    for (int a = 4; a < argc && nmacros < 8; a++, nmacros++) {
        char *eq = strchr(argv[a], '=');
        if (!eq) {
            fprintf(stderr, "'%s' is not MACRO=V1,V2,...\n", argv[a]);
            return 2;
        }
        *eq = '\0';
        macro_names[nmacros] = argv[a];
        for (char *v = strtok(eq + 1, ","); v && macro_counts[nmacros] < 32; v = strtok(NULL, ","))
            macro_values[nmacros][macro_counts[nmacros]++] = v;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    printf("%s %s: %d compiles, %ld cores\n", file_name, kernel_name, jobs, cores);
    printf("processes threads   total   wall_s  nvrtc_s  compiles/s failed\n");
    static const int layouts[][2] = {{1, 1}, {1, 4}, {1, 8}, {1, 16}, {2, 8}, {4, 4}, {8, 2}, {16, 1}};
    int rc = 0;
    for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++) {
        if (layouts[i][0] * layouts[i][1] > cores)
            continue;
        int n = layouts[i][0] * layouts[i][1] == 1 ? (jobs < 16 ? jobs : 16) : jobs; /* 1x1: a sample */
        if (layout(layouts[i][0], layouts[i][1], n) < 0)
            rc = 1;
    }
    /* What each option costs, one thread, the first 12 variants. */
    static const char *const sets[][4] = {
        {"--gpu-architecture=sm_90", "--no-cache", NULL},
        {"--gpu-architecture=sm_90", "--no-cache", "--ptxas-options=-v", NULL},
        {"--gpu-architecture=sm_90", "--no-cache", "--ptxas-options=-v", "-lineinfo"},
        {"--gpu-architecture=compute_90", "--no-cache", NULL},
    };
    static const char *const names[] = {"cubin", "cubin + ptxas -v (cutune)", "cubin + -v + lineinfo",
                                        "PTX only (driver JIT later)"};
    printf("option set                        s/compile (1 thread, 12 compiles)\n");
    for (size_t s = 0; s < 4; s++) {
        int n = 0;
        while (n < 4 && sets[s][n])
            n++;
        double sum = 0;
        for (int j = 0; j < 12; j++) {
            double t = compile_one(j, sets[s], n);
            if (t < 0)
                rc = 1;
            sum += t;
        }
        printf("%-33s %.3f\n", names[s], sum / 12);
    }
    return rc;
}
