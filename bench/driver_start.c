/* driver_start.c - what N processes starting the CUDA driver at once cost each other.
 *
 * A benchmark, not a test. cutune starts one GPU worker process per GPU, each of which
 * loads libcuda, calls cuInit and retains its device's primary context; on four H100s
 * the first variant started 1.9 s after the run's start against 0.6 s on one. This
 * forks N children at the same instant (a pipe is the starting gun) and prints, per
 * child, when each step of the driver's start ended, in seconds since the gun:
 *
 *   dlopen   libcuda.so.1 loaded
 *   init     cuInit(0) returned
 *   ctx      the device's primary context retained and made current
 *   alloc    a first 1 MiB allocation and a synchronize (the context really usable)
 *   end      the context released (what a worker's exit costs)
 *
 *   driver_start [-n N] [-d DEVICES] [-v] [-q] [-s init|ctx|alloc] [-t] [-k]
 *
 * -n: the number of children (default 1); child i uses device i mod DEVICES (default N).
 * -v: each child sees only its own device (CUDA_VISIBLE_DEVICES=i, set before cuInit, as
 *     cutune's worker does); without it every child sees every device.
 * -q: also time cuDeviceGetCount and every device's name in one process before the
 *     children (what cutune's device query does in its own child process).
 * -s: the children take turns, a token in a pipe (as cutune's GPU workers do): child i
 *     takes it before loading libcuda and passes it on once its step `init` (cuInit),
 *     `ctx` (the context: what cutune does) or `alloc` has ended. Which step the driver
 *     serialises decides how soon the next one can start.
 * -t: one child process instead of N: it loads libcuda and calls cuInit once, then N
 *     threads start at the gun, thread i retaining device i mod DEVICES's context (what a
 *     worker process serving several GPUs would pay; -v and -s do not apply).
 * -k: a holder process retains every device's primary context before the gun and keeps
 *     it until the children have ended (what the start costs when the GPUs are already
 *     open, as under persistence mode or beside another CUDA process).
 * Exit 1 when a child's driver call failed (its line says which). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef int (*fn_init)(unsigned);
typedef int (*fn_count)(int *);
typedef int (*fn_get)(int *, int);
typedef int (*fn_name)(char *, int, int);
typedef int (*fn_retain)(void **, int);
typedef int (*fn_release)(int);
typedef int (*fn_set)(void *);
typedef int (*fn_alloc)(unsigned long long *, size_t);
typedef int (*fn_free)(unsigned long long);
typedef int (*fn_sync)(void);

/* Seconds on the system-wide monotonic clock (the same in every process). */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* dlsym or NULL; the caller checks. */
static void *sym(void *h, const char *name)
{
    return h ? dlsym(h, name) : NULL;
}

/* Passes the token on (-s) once step `done` (1 init, 2 ctx, 3 alloc) is the one it
 * waited for; nothing without a token. */
static void pass(const int token[2], int pass_after, int done)
{
    if (token[1] >= 0 && done == pass_after && write(token[1], "t", 1) != 1)
        perror("driver_start: the token");
}

/* The steps after cuInit on device `dev` of the library `h`: its primary context
 * retained and made current, a first allocation, the context let go; each step's end
 * since `gun` into t[0..2], the token passed on (-s) after step 2 or 3 as pass_after
 * says (token[1] < 0: none). Returns 0, or a driver error code (or -1 for a missing
 * symbol) with the failing step named after `who` in line. */
static int ctx_steps(void *h, const char *who, int dev, double gun, const int token[2], int pass_after, double t[3],
                     char *line, size_t size)
{
    fn_get get = (fn_get)sym(h, "cuDeviceGet");
    fn_retain retain = (fn_retain)sym(h, "cuDevicePrimaryCtxRetain");
    fn_release release = (fn_release)sym(h, "cuDevicePrimaryCtxRelease_v2");
    fn_set set = (fn_set)sym(h, "cuCtxSetCurrent");
    fn_alloc alloc = (fn_alloc)sym(h, "cuMemAlloc_v2");
    fn_free mfree = (fn_free)sym(h, "cuMemFree_v2");
    fn_sync sync = (fn_sync)sym(h, "cuCtxSynchronize");
    int rc, d = 0;
    void *ctx = NULL;
    unsigned long long p = 0;
    if (!get || !retain || !release || !set || !alloc || !mfree || !sync) {
        snprintf(line, size, "%s: a symbol missing", who);
        return -1;
    }
    if ((rc = get(&d, dev)) != 0 || (rc = retain(&ctx, d)) != 0 || (rc = set(ctx)) != 0) {
        snprintf(line, size, "%s: device %d's context: %d", who, dev, rc);
        return rc;
    }
    t[0] = now() - gun;
    pass(token, pass_after, 2);
    if ((rc = alloc(&p, 1 << 20)) != 0 || (rc = sync()) != 0 || (rc = mfree(p)) != 0) {
        snprintf(line, size, "%s: a first allocation: %d", who, rc);
        return rc;
    }
    t[1] = now() - gun;
    pass(token, pass_after, 3);
    if ((rc = release(d)) != 0) {
        snprintf(line, size, "%s: cuDevicePrimaryCtxRelease: %d", who, rc);
        return rc;
    }
    t[2] = now() - gun;
    return 0;
}

/* One child's driver start on device `dev`, times since `gun` written to `line` (with
 * -s: the token taken first, passed on after step pass_after).
 * Returns 0, or 1 with the failing step named in the line. */
static int child(int i, int dev, double gun, const int token[2], int pass_after, char *line, size_t size)
{
    double t[5] = {0};
    char tok, who[32];
    snprintf(who, sizeof who, "child %d", i);
    if (token[0] >= 0 && read(token[0], &tok, 1) != 1) {
        snprintf(line, size, "%s: no token", who);
        return 1;
    }
    double took = now() - gun;
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    t[0] = now() - gun;
    fn_init init = (fn_init)sym(h, "cuInit");
    if (!init) {
        snprintf(line, size, "%s: libcuda.so.1 or cuInit missing: %s", who, dlerror());
        return 1;
    }
    int rc = init(0);
    if (rc != 0) {
        snprintf(line, size, "%s: cuInit: %d", who, rc);
        return 1;
    }
    t[1] = now() - gun;
    pass(token, pass_after, 1);
    if (ctx_steps(h, who, dev, gun, token, pass_after, t + 2, line, size) != 0)
        return 1;
    snprintf(line, size, "%s device %d: token %.3f dlopen %.3f init %.3f ctx %.3f alloc %.3f end %.3f", who, dev, took,
             t[0], t[1], t[2], t[3], t[4]);
    return 0;
}

/* -t: one thread's context start in a process whose cuInit is done. */
typedef struct thread_job {
    void *h;
    int i, dev;
    double gun, init_end;
    char line[256];
    int rc;
} thread_job;

/* Thread body: waits for nothing (the threads start at the gun), times the context and a
 * first allocation on job->dev (ctx_steps, no token); the outcome in job->line and
 * job->rc (0, or 1). */
static void *thread_start(void *arg)
{
    thread_job *j = arg;
    double t[3];
    char who[32];
    snprintf(who, sizeof who, "thread %d", j->i);
    j->rc = ctx_steps(j->h, who, j->dev, j->gun, (const int[2]){-1, -1}, 0, t, j->line, sizeof j->line) != 0;
    if (j->rc == 0)
        snprintf(j->line, sizeof j->line, "%s device %d: init %.3f ctx %.3f alloc %.3f end %.3f", who, j->dev,
                 j->init_end, t[0], t[1], t[2]);
    return NULL;
}

/* -t: in this (child) process, dlopen and cuInit once from the gun, then n threads, one
 * per context; their lines to `out`. Returns 0, or 1 when a step failed. */
static int threaded(int n, int ndev, double gun, int out)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    fn_init init = (fn_init)sym(h, "cuInit");
    if (!init || init(0) != 0) {
        dprintf(out, "threads: libcuda.so.1 or cuInit failed\n");
        return 1;
    }
    double ie = now() - gun;
    thread_job jobs[64];
    pthread_t tid[64];
    int bad = 0;
    for (int i = 0; i < n; i++) {
        jobs[i] = (thread_job){.h = h, .i = i, .dev = i % ndev, .gun = gun, .init_end = ie, .rc = 1};
        snprintf(jobs[i].line, sizeof jobs[i].line, "thread %d: not started", i);
        if (pthread_create(&tid[i], NULL, thread_start, &jobs[i]) != 0) {
            n = i;
            bad = 1;
            break;
        }
    }
    for (int i = 0; i < n; i++) {
        pthread_join(tid[i], NULL);
        dprintf(out, "%s\n", jobs[i].line);
        bad |= jobs[i].rc;
    }
    return bad;
}

/* -k: retains every device's primary context, then waits for `hold` to close; exits. */
static void holder(int hold, int ready)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    fn_init init = (fn_init)sym(h, "cuInit");
    fn_count count = (fn_count)sym(h, "cuDeviceGetCount");
    fn_get get = (fn_get)sym(h, "cuDeviceGet");
    fn_retain retain = (fn_retain)sym(h, "cuDevicePrimaryCtxRetain");
    int n = 0, d;
    void *ctx;
    if (!init || !count || !get || !retain || init(0) != 0 || count(&n) != 0)
        _exit(1);
    for (int i = 0; i < n; i++)
        if (get(&d, i) != 0 || retain(&ctx, d) != 0)
            _exit(1);
    char c;
    if (write(ready, "r", 1) != 1 || read(hold, &c, 1) < 0)
        _exit(1);
    _exit(0);
}

/* The device query as cutune's does it, in this process: count and names. Returns the
 * count, or -1 with a message printed. (This process then holds the driver: children
 * forked after it start their own, as cutune's workers are exec'd or forked before.) */
static int query(void)
{
    double t0 = now();
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    fn_init init = (fn_init)sym(h, "cuInit");
    fn_count count = (fn_count)sym(h, "cuDeviceGetCount");
    fn_name name = (fn_name)sym(h, "cuDeviceGetName");
    int n = 0;
    if (!init || !count || !name || init(0) != 0 || count(&n) != 0) {
        fprintf(stderr, "driver_start: the query failed\n");
        return -1;
    }
    double t1 = now();
    char buf[128];
    for (int i = 0; i < n; i++)
        if (name(buf, (int)sizeof buf, i) != 0)
            return -1;
    printf("query: dlopen+cuInit+count %.3f s, %d names %.3f s\n", t1 - t0, n, now() - t1);
    return n;
}

int main(int argc, char **argv)
{
    int n = 1, visible = 0, ask = 0, ndev = 0, pass_after = 0, threads = 0, keep = 0, o;
    while ((o = getopt(argc, argv, "n:d:vqs:tk")) != -1) {
        if (o == 'n')
            n = atoi(optarg);
        else if (o == 'd')
            ndev = atoi(optarg);
        else if (o == 'v')
            visible = 1;
        else if (o == 'q')
            ask = 1;
        else if (o == 't')
            threads = 1;
        else if (o == 'k')
            keep = 1;
        else if (o == 's')
            pass_after = strcmp(optarg, "init") == 0    ? 1
                         : strcmp(optarg, "ctx") == 0   ? 2
                         : strcmp(optarg, "alloc") == 0 ? 3
                                                        : -1;
        else
            return 2;
    }
    if (n < 1 || n > 64 || pass_after < 0)
        return 2;
    int token[2] = {-1, -1};
    if (pass_after && (pipe(token) < 0 || write(token[1], "t", 1) != 1))
        return 1;
    if (ask) { /* in a child of its own, so that this process stays without a driver */
        pid_t q = fork();
        if (q == 0)
            _exit(query() < 0);
        int st;
        if (q < 0 || waitpid(q, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            return 1;
    }
    if (ndev < 1)
        ndev = n;
    int hold[2] = {-1, -1}, ready[2];
    if (keep) { /* the holder keeps every context open until hold[1] closes */
        if (pipe(hold) < 0 || pipe(ready) < 0)
            return 1;
        pid_t k = fork();
        if (k == 0) {
            close(hold[1]);
            close(ready[0]);
            holder(hold[0], ready[1]);
        }
        char c;
        close(hold[0]);
        close(ready[1]);
        if (k < 0 || read(ready[0], &c, 1) != 1) {
            fprintf(stderr, "driver_start: the holder did not start\n");
            return 1;
        }
    }
    int gun[2], out[2];
    if (pipe(gun) < 0 || pipe(out) < 0)
        return 1;
    int children = threads ? 1 : n;
    for (int i = 0; i < children && threads; i++) {
        pid_t p = fork();
        if (p < 0)
            return 1;
        if (p == 0) {
            close(gun[1]);
            double g;
            if (read(gun[0], &g, sizeof g) != (ssize_t)sizeof g)
                _exit(1);
            _exit(threaded(n, ndev, g, out[1]));
        }
    }
    for (int i = 0; i < n && !threads; i++) {
        pid_t p = fork();
        if (p < 0)
            return 1;
        if (p == 0) {
            close(gun[1]);
            int dev = i % ndev;
            if (visible) {
                char one[16];
                snprintf(one, sizeof one, "%d", dev);
                setenv("CUDA_VISIBLE_DEVICES", one, 1);
                dev = 0;
            }
            double g;
            if (read(gun[0], &g, sizeof g) != (ssize_t)sizeof g)
                _exit(1);
            char line[256];
            int rc = child(i, dev, g, token, pass_after, line, sizeof line); /* dev: the ordinal this child sees */
            if (rc != 0 && token[1] >= 0 && write(token[1], "t", 1) != 1)    /* the others must not wait for it */
                perror("driver_start: the token");
            dprintf(out[1], "%s\n", line);
            _exit(rc);
        }
    }
    close(gun[0]);
    close(out[1]);
    usleep(200000); /* every child forked and waiting */
    double g = now();
    for (int i = 0; i < children; i++)
        if (write(gun[1], &g, sizeof g) != (ssize_t)sizeof g)
            return 1;
    int bad = 0;
    for (int i = 0; i < children; i++) {
        int st;
        if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            bad = 1;
    }
    double end = now() - g;
    if (keep) { /* the holder lets go and is reaped */
        int st;
        close(hold[1]);
        if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            bad = 1;
    }
    printf("n %d visible %d%s%s token after %s: all ended %.3f s after the gun\n", n, visible,
           threads ? " threads" : "", keep ? " held" : "",
           pass_after == 1   ? "init"
           : pass_after == 2 ? "ctx"
           : pass_after == 3 ? "alloc"
                             : "none",
           end);
    char buf[4096];
    ssize_t k;
    while ((k = read(out[0], buf, sizeof buf)) > 0)
        fwrite(buf, 1, (size_t)k, stdout);
    return bad;
}
