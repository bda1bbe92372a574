/* nvrtc_phases.c - what NVRTC's compile of a spec's variants costs in CPU-seconds under
 * several option sets, measured interleaved, and whether each set's binaries are the
 * same as the first set's. A benchmark, not a test: it prints figures.
 *
 *   nvrtc_phases [-r ROUNDS] [-l] FILE NAME JOBS SET...
 *
 * JOBS is a file of one variant a line: that variant's own options (its -D macros and
 * -maxrregcount), separated by blanks, as `cutune list` gives them, after the variant's
 * name expression and a tab where it has one of its own (a template's instantiation,
 * "reduce<64, 0, 1>"); NAME is the name expression of a line without a tab. SET is LABEL=OPTIONS:
 * the options (blank-separated) every variant gets before its own under that set, the
 * architecture among them. Each variant is compiled under every set in turn, the set
 * that goes first rotating from variant to variant and round to round, so that the load
 * of a shared machine falls on every set alike; ROUNDS (default 3) passes over the jobs.
 * -l prints every compile's log to stderr (--pch-verbose's messages, say).
 *
 * The cost of a compile is the CPU time of the thread that runs nvrtcCreateProgram to
 * nvrtcDestroyProgram (user + system, getrusage RUSAGE_THREAD): on a machine shared with
 * other work, wall time measures the neighbours as much as NVRTC. Wall time is printed
 * too. Per set: the mean CPU-seconds per variant (over all rounds), the lowest and
 * highest round's mean, the same relative to the first set, the mean wall time, and how
 * many variants' cubins are byte-identical to the first set's, and how many have the
 * same code digest (runtime/cubin: the bytes less the note that records the command line
 * and the register cap asked for). A set whose output is PTX (compute_XX) or that stops
 * early (--fdevice-syntax-only) has no cubin to compare: "-".
 *
 * The phase split is read from sets that stop early: the front end alone
 * (--fdevice-syntax-only), front end and NVVM (--gpu-architecture=compute_90: PTX),
 * everything (sm_90: ptxas too); bench/compile-phases.sh runs them on a spec. */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <nvrtc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "../runtime/cubin.h"

enum { MAX_SETS = 16, MAX_OPTS = 64 };

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* This thread's user + system CPU seconds. */
static bool print_logs;

static double cpu_now(void)
{
    struct rusage r;
    getrusage(RUSAGE_THREAD, &r);
    return (double)(r.ru_utime.tv_sec + r.ru_stime.tv_sec) + (double)(r.ru_utime.tv_usec + r.ru_stime.tv_usec) * 1e-6;
}

/* Splits `text` (modified) at blanks into out[*n..], at most `max` in all. */
static void split(char *text, const char **out, int *n, int max)
{
    for (char *t = strtok(text, " \t\n"); t && *n < max; t = strtok(NULL, " \t\n"))
        out[(*n)++] = t;
}

typedef struct set {
    const char *label;
    const char *opts[MAX_OPTS];
    int nopts;
    double cpu, wall;  /* sums over every compile */
    double *round_cpu; /* per round, summed over the variants */
    int same_bytes, same_code, compared, failed;
} set;

typedef struct result {
    bool has_cubin, has_code;
    XXH128_hash_t bytes;
    cubin_digest code;
} result;

/* Compiles `source` with `opts` (NAME's name expression added); *cpu and *wall get its
 * cost, *res what it produced. False on failure (printed: a benchmark's failure must be
 * seen). */
static bool compile_one(const char *source, const char *file, const char *name, const char *const *opts, int nopts,
                        double *cpu, double *wall, result *res)
{
    memset(res, 0, sizeof *res);
    double c0 = cpu_now(), w0 = wall_now();
    nvrtcProgram p;
    if (nvrtcCreateProgram(&p, source, file, 0, NULL, NULL) != NVRTC_SUCCESS)
        return false;
    nvrtcResult r = nvrtcAddNameExpression(p, name);
    if (r == NVRTC_SUCCESS)
        r = nvrtcCompileProgram(p, nopts, opts);
    bool ok = r == NVRTC_SUCCESS;
    size_t size = 0;
    if (ok && nvrtcGetCUBINSize(p, &size) == NVRTC_SUCCESS && size > 0) {
        unsigned char *cubin = malloc(size);
        if (cubin && nvrtcGetCUBIN(p, (char *)cubin) == NVRTC_SUCCESS) {
            res->has_cubin = true;
            res->bytes = XXH3_128bits(cubin, size);
            res->has_code = cubin_code_digest(cubin, size, &res->code) == 0;
        }
        free(cubin);
    }
    if (!ok || print_logs) {
        size_t ls = 0;
        char *log = nvrtcGetProgramLogSize(p, &ls) == NVRTC_SUCCESS ? malloc(ls + 1) : NULL;
        if (log && nvrtcGetProgramLog(p, log) == NVRTC_SUCCESS)
            fprintf(stderr, "%s\n%s\n", nvrtcGetErrorString(r), log);
        free(log);
    }
    nvrtcDestroyProgram(&p);
    *cpu = cpu_now() - c0;
    *wall = wall_now() - w0;
    return ok;
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0) {
        perror(path);
        if (f)
            fclose(f);
        return NULL;
    }
    long len = ftell(f);
    rewind(f);
    char *text = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (!text || fread(text, 1, (size_t)len, f) != (size_t)len) {
        perror(path);
        fclose(f);
        free(text);
        return NULL;
    }
    text[len] = '\0';
    fclose(f);
    return text;
}

int main(int argc, char **argv)
{
    int rounds = 3, c;
    while ((c = getopt(argc, argv, "r:l")) != -1)
        if (c == 'r')
            rounds = atoi(optarg);
        else if (c == 'l')
            print_logs = true;
    if (argc - optind < 4 || rounds < 1 || argc - optind - 3 > MAX_SETS) {
        fprintf(stderr, "usage: nvrtc_phases [-r ROUNDS] [-l] FILE NAME JOBS LABEL=OPTIONS... (at most %d sets)\n",
                MAX_SETS);
        return 2;
    }
    const char *file = argv[optind], *name = argv[optind + 1];
    char *source = read_all(file), *jobs_text = read_all(argv[optind + 2]);
    if (!source || !jobs_text)
        return 1;
    /* The jobs: one a line. */
    int njobs = 0, cap = 0;
    char **lines = NULL;
    for (char *l = strtok(jobs_text, "\n"); l; l = strtok(NULL, "\n")) {
        if (njobs == cap && !(lines = realloc(lines, sizeof(char *) * (size_t)(cap = cap ? 2 * cap : 64))))
            return 1;
        lines[njobs++] = l;
    }
    const char ***job_opts = calloc((size_t)njobs, sizeof *job_opts);
    int *job_nopts = calloc((size_t)njobs, sizeof(int));
    const char **job_names = calloc((size_t)njobs, sizeof(char *));
    for (int j = 0; job_opts && job_nopts && job_names && j < njobs; j++) {
        job_opts[j] = calloc(MAX_OPTS, sizeof(char *));
        if (!job_opts[j])
            return 1;
        char *tab = strchr(lines[j], '\t');
        job_names[j] = tab ? lines[j] : name;
        if (tab)
            *tab = '\0';
        split(tab ? tab + 1 : lines[j], job_opts[j], &job_nopts[j], MAX_OPTS);
    }
    if (!job_opts || !job_nopts || !job_names)
        return 1;
    if (njobs == 0) {
        fprintf(stderr, "%s holds no variant\n", argv[optind + 2]);
        return 2;
    }
    int nsets = argc - optind - 3;
    set sets[MAX_SETS];
    memset(sets, 0, sizeof sets);
    for (int s = 0; s < nsets; s++) {
        char *arg = argv[optind + 3 + s], *eq = strchr(arg, '=');
        if (!eq) {
            fprintf(stderr, "'%s' is not LABEL=OPTIONS\n", arg);
            return 2;
        }
        *eq = '\0';
        sets[s].label = arg;
        split(eq + 1, sets[s].opts, &sets[s].nopts, MAX_OPTS);
        if (!(sets[s].round_cpu = calloc((size_t)rounds, sizeof(double))))
            return 1;
    }
    printf("%s %s: %d variants x %d sets x %d rounds, %ld cores\n", file, name, njobs, nsets, rounds,
           sysconf(_SC_NPROCESSORS_ONLN));
    /* What each set produced for each variant in the first round. */
    result *first = calloc((size_t)njobs * (size_t)nsets, sizeof *first);
    if (!first)
        return 1;
    /* One compile untimed first: NVRTC's first compile in a process pays for its start
     * (about 0.1 s), which would fall on whichever set came first. */
    {
        const char *opts[2 * MAX_OPTS];
        int n = 0;
        for (int i = 0; i < sets[0].nopts; i++)
            opts[n++] = sets[0].opts[i];
        for (int i = 0; i < job_nopts[0]; i++)
            opts[n++] = job_opts[0][i];
        double cpu, wall;
        result res;
        (void)compile_one(source, file, job_names[0], opts, n, &cpu, &wall, &res);
    }
    for (int r = 0; r < rounds; r++)
        for (int j = 0; j < njobs; j++)
            for (int k = 0; k < nsets; k++) {
                int s = (j + r + k) % nsets;
                const char *opts[2 * MAX_OPTS];
                int n = 0;
                for (int i = 0; i < sets[s].nopts; i++)
                    opts[n++] = sets[s].opts[i];
                for (int i = 0; i < job_nopts[j]; i++)
                    opts[n++] = job_opts[j][i];
                double cpu, wall;
                result res;
                if (!compile_one(source, file, job_names[j], opts, n, &cpu, &wall, &res)) {
                    fprintf(stderr, "set %s, variant %d (%s) failed\n", sets[s].label, j, job_names[j]);
                    sets[s].failed++;
                    continue;
                }
                sets[s].cpu += cpu;
                sets[s].wall += wall;
                sets[s].round_cpu[r] += cpu;
                if (r == 0)
                    first[(size_t)j * (size_t)nsets + (size_t)s] = res;
            }
    for (int j = 0; j < njobs; j++)
        for (int s = 1; s < nsets; s++) {
            const result *ref = &first[(size_t)j * (size_t)nsets], *res = ref + s;
            if (!res->has_cubin || !ref->has_cubin)
                continue;
            sets[s].compared++;
            sets[s].same_bytes += XXH128_isEqual(res->bytes, ref->bytes);
            sets[s].same_code +=
                res->has_code && ref->has_code && res->code.lo == ref->code.lo && res->code.hi == ref->code.hi;
        }
    printf("%-24s %9s %9s %9s %8s %9s %11s %10s %6s\n", "set", "cpu_s/var", "round_min", "round_max", "vs_first",
           "wall_s/var", "same_bytes", "same_code", "failed");
    double base = sets[0].cpu;
    for (int s = 0; s < nsets; s++) {
        double lo = 1e300, hi = 0;
        for (int r = 0; r < rounds; r++) {
            lo = sets[s].round_cpu[r] < lo ? sets[s].round_cpu[r] : lo;
            hi = sets[s].round_cpu[r] > hi ? sets[s].round_cpu[r] : hi;
        }
        double per = (double)njobs * rounds;
        char bytes[32] = "-", code[32] = "-";
        if (s > 0 && sets[s].compared) {
            snprintf(bytes, sizeof bytes, "%d/%d", sets[s].same_bytes, sets[s].compared);
            snprintf(code, sizeof code, "%d/%d", sets[s].same_code, sets[s].compared);
        } else if (s == 0) {
            snprintf(bytes, sizeof bytes, "(ref)");
            snprintf(code, sizeof code, "(ref)");
        }
        printf("%-24s %9.4f %9.4f %9.4f %8.3f %10.4f %11s %10s %6d\n", sets[s].label, sets[s].cpu / per, lo / njobs,
               hi / njobs, base > 0 ? sets[s].cpu / base : 0, sets[s].wall / per, bytes, code, sets[s].failed);
    }
    for (int s = 0; s < nsets; s++)
        free(sets[s].round_cpu);
    for (int j = 0; j < njobs; j++)
        free(job_opts[j]);
    free(job_opts);
    free(job_nopts);
    free(job_names);
    free(lines);
    free(first);
    free(jobs_text);
    free(source);
    return 0;
}
