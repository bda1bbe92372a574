/* test_pool.c - runtime/pool without a GPU: compile worker processes give the same
 * results (cubin bytes, resources, logs) as NVRTC in this process; a worker that dies
 * mid-job or hangs past its deadline fails that variant with the reason while the other
 * jobs complete; no child process is left (running or zombie) after a run; with
 * POOL_ANY_ORDER a slow job holds up none behind it, and a skip job still comes after
 * every job produced before it. */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/sys.h"
#include "runtime/pool.h"

#define NJOBS 6

static const char kernel[] = "extern \"C\" __global__ void k(float *x) {\n"
                             "    __shared__ float s[N * 32];\n"
                             "    s[threadIdx.x] = x[threadIdx.x] * N;\n"
                             "    __syncthreads();\n"
                             "    x[threadIdx.x] = s[(threadIdx.x + 1) % (N * 32)];\n"
                             "}\n"
                             "MARKER\n";

typedef struct run {
    char sources[NJOBS][1024];
    char defines[NJOBS][32];
    const char *options[NJOBS][1];
    int produced;
    compile_output outs[NJOBS];
    bool nvrtc_failed[NJOBS];
    int delivered;
} run;

/* Job i: N = i + 1; job `bad` does not compile; job `marked` carries `marker`. */
static void setup_run(run *r, int bad, int marked, const char *marker)
{
    memset(r, 0, sizeof *r);
    for (int i = 0; i < NJOBS; i++) {
        snprintf(r->sources[i], sizeof r->sources[i], "%s%s", kernel, i == bad ? "this is not C++;\n" : "");
        char *m = strstr(r->sources[i], "MARKER");
        const char *with = i == marked ? marker : "";
        memmove(m + strlen(with), m + 6, strlen(m + 6) + 1);
        memcpy(m, with, strlen(with));
        snprintf(r->defines[i], sizeof r->defines[i], "-DN=%d", i + 1);
        r->options[i][0] = r->defines[i];
    }
}

static int next(void *ud, pool_job *job)
{
    run *r = ud;
    if (r->produced == NJOBS)
        return 0;
    int i = r->produced++;
    job->job = (compile_job){"k.cu", r->sources[i], "k", r->options[i], 1, "sm_90", NULL, 0, NULL, 0};
    job->tag = (void *)(intptr_t)i;
    return 1;
}

static int done(void *ud, pool_job *job, compile_output *out, const char *error)
{
    run *r = ud;
    int i = (int)(intptr_t)job->tag;
    assert_int_equal(i, r->delivered); /* in production order */
    r->delivered++;
    r->outs[i] = *out;
    r->nvrtc_failed[i] = error != NULL;
    return 0;
}

static void free_run(run *r)
{
    for (int i = 0; i < NJOBS; i++)
        compile_output_free(&r->outs[i]);
}

/* No child of this process is left: not running, not a zombie. */
static void assert_no_children(void)
{
    int status;
    assert_int_equal(waitpid(-1, &status, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
}

static void run_pool(run *r, const char *mode, int threads, pool_stats *stats)
{
    setenv("CUTUNE_COMPILE_WORKERS", mode, 1);
    pool_hooks hooks = {next, done, NULL};
    assert_int_equal(pool_run(threads, 0, 0, NULL, &hooks, r, stats), 0);
    assert_int_equal(r->delivered, NJOBS);
    assert_no_children();
}

/* The compile worker sleeps before a job whose source is marked SLOW. */
static void slow_hook(const compile_job *job)
{
    if (strstr(job->source, "SLOW"))
        nanosleep(&(struct timespec){1, 500000000}, NULL);
}

static int order[NJOBS], norder;

static int next_any(void *ud, pool_job *job)
{
    int rc = next(ud, job);
    job->skip = rc == 1 && (intptr_t)job->tag == NJOBS - 1; /* the last: delivered without compiling */
    return rc;
}

static int done_any(void *ud, pool_job *job, compile_output *out, const char *error)
{
    run *r = ud;
    int i = (int)(intptr_t)job->tag;
    order[norder++] = i;
    r->delivered++;
    r->outs[i] = *out;
    r->nvrtc_failed[i] = error != NULL;
    return 0;
}

static void test_any_order(void **state)
{
    (void)state;
    static run r;
    setup_run(&r, -1, 0, "// SLOW");
    norder = 0;
    setenv("CUTUNE_COMPILE_WORKERS", "processes", 1);
    pool_set_child_hook(slow_hook);
    pool_hooks hooks = {next_any, done_any, NULL};
    pool_stats st;
    assert_int_equal(pool_run(3, 0, POOL_ANY_ORDER, NULL, &hooks, &r, &st), 0);
    pool_set_child_hook(NULL);
    assert_int_equal(norder, NJOBS);
    /* the slow first job did not hold up the fast ones behind it */
    assert_int_not_equal(order[0], 0);
    /* the skip job came last of all: after every job produced before it */
    assert_int_equal(order[NJOBS - 1], NJOBS - 1);
    for (int i = 0; i < NJOBS - 1; i++)
        assert_true(r.outs[i].ok);
    assert_int_equal(st.skipped, 1);
    free_run(&r);
    assert_no_children();
}

static void test_processes_match_threads(void **state)
{
    (void)state;
    static run a, b;
    setup_run(&a, 3, -1, "");
    setup_run(&b, 3, -1, "");
    pool_stats sa, sb;
    run_pool(&a, "threads", 2, &sa);
    run_pool(&b, "processes", 2, &sb);
    assert_false(sa.processes);
    assert_true(sb.processes);
    assert_string_equal(sb.warning, "");
    assert_int_equal(sb.compiled, NJOBS);
    assert_int_equal(sb.failed, 1);
    assert_int_equal(sb.worker_losses, 0);
    for (int i = 0; i < NJOBS; i++) {
        assert_false(a.nvrtc_failed[i]);
        assert_false(b.nvrtc_failed[i]);
        assert_int_equal(a.outs[i].ok, i != 3);
        assert_int_equal(b.outs[i].ok, a.outs[i].ok);
        /* The same log but for ptxas's compile times: the errors and warnings. */
        char *la = compile_log_excerpt(a.outs[i].log), *lb = compile_log_excerpt(b.outs[i].log);
        assert_string_equal(lb, la);
        free(la);
        free(lb);
        assert_true(strstr(b.outs[i].log, "ptxas") != NULL || !a.outs[i].ok);
        assert_false(b.outs[i].cached);
        assert_true(b.outs[i].seconds > 0);
        if (!a.outs[i].ok) {
            assert_null(b.outs[i].lowered_name);
            assert_null(b.outs[i].cubin);
            assert_true(strstr(b.outs[i].log, "error") != NULL);
            continue;
        }
        assert_string_equal(b.outs[i].lowered_name, a.outs[i].lowered_name);
        assert_int_equal(b.outs[i].cubin_size, a.outs[i].cubin_size);
        assert_true(a.outs[i].cubin_size > 0);
        assert_memory_equal(b.outs[i].cubin, a.outs[i].cubin, a.outs[i].cubin_size);
        assert_true(b.outs[i].has_resources);
        assert_memory_equal(&b.outs[i].res, &a.outs[i].res, sizeof a.outs[i].res);
        assert_int_equal(b.outs[i].res.static_smem, (i + 1) * 32 * 4); /* N * 32 floats */
    }
    free_run(&a);
    free_run(&b);
}

/* In the compile worker: die, or hang, on a marker in the source. */
static void child_hook(const compile_job *job)
{
    if (strstr(job->source, "// KILL_ME"))
        raise(SIGKILL);
    if (strstr(job->source, "// EXIT_ME"))
        _exit(3);
    if (strstr(job->source, "// HANG_ME"))
        sleep(60);
}

static void check_lost(const char *marker, const char *reason, int threads)
{
    static run r;
    setup_run(&r, -1, 2, marker);
    pool_set_child_hook(child_hook);
    pool_stats st;
    run_pool(&r, "processes", threads, &st);
    pool_set_child_hook(NULL);
    assert_true(st.processes);
    assert_int_equal(st.worker_losses, 1);
    assert_int_equal(st.failed, 1);
    for (int i = 0; i < NJOBS; i++) {
        assert_false(r.nvrtc_failed[i]);
        assert_int_equal(r.outs[i].ok, i != 2);
        if (i == 2) {
            assert_non_null(r.outs[i].log);
            if (!strstr(r.outs[i].log, reason))
                fail_msg("log \"%s\" lacks \"%s\"", r.outs[i].log, reason);
        } else
            assert_true(r.outs[i].cubin_size > 0);
    }
    free_run(&r);
}

static void test_worker_killed(void **state)
{
    (void)state;
    check_lost("// KILL_ME", "died while compiling this variant (signal 9", 2);
    check_lost("// KILL_ME", "died while compiling this variant (signal 9", 1); /* replaced: jobs 3.. still done */
}

static void test_worker_exits(void **state)
{
    (void)state;
    check_lost("// EXIT_ME", "died while compiling this variant (exit status 3)", 2);
}

static void test_worker_deadline(void **state)
{
    (void)state;
    /* 8 s: long enough that the honest compiles beside the hanging one finish in time
     * on a loaded 2-core machine (with 1 s, 2 of them overran it there), short enough
     * that the hang (60 s) is plainly killed, not waited for. */
    setenv("CUTUNE_COMPILE_TIMEOUT", "8", 1);
    double t0 = sys_seconds();
    check_lost("// HANG_ME", "compile deadline of 8 s", 2);
    assert_true(sys_seconds() - t0 < 30); /* killed, not waited for */
    unsetenv("CUTUNE_COMPILE_TIMEOUT");
}

/* No descriptors left for the workers' pipes: the pool compiles in its threads and
 * says why in the warning. */
static void test_fallback_to_threads(void **state)
{
    (void)state;
    static run r;
    setup_run(&r, -1, -1, "");
    int lowest = dup(0);
    assert_true(lowest >= 0);
    close(lowest);
    struct rlimit old, low;
    assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
    low = old;
    low.rlim_cur = (rlim_t)lowest + 2; /* one pipe, not the second */
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
    pool_stats st;
    setenv("CUTUNE_COMPILE_WORKERS", "processes", 1);
    pool_hooks hooks = {next, done, NULL};
    int rc = pool_run(1, 0, 0, NULL, &hooks, &r, &st);
    assert_int_equal(setrlimit(RLIMIT_NOFILE, &old), 0);
    assert_int_equal(rc, 0);
    assert_false(st.processes);
    if (!strstr(st.warning, "could not be started") || !strstr(st.warning, "compiling in 1 thread(s)"))
        fail_msg("warning: \"%s\"", st.warning);
    assert_int_equal(r.delivered, NJOBS);
    for (int i = 0; i < NJOBS; i++)
        assert_true(r.outs[i].ok && r.outs[i].cubin_size > 0);
    assert_no_children();
    free_run(&r);
}

int main(void)
{
    /* Without NVRTC support for sm_90 there is nothing to compile. */
    if (!compile_supported_arch("sm_90"))
        return 77;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_processes_match_threads), cmocka_unit_test(test_any_order),
        cmocka_unit_test(test_worker_killed),           cmocka_unit_test(test_worker_exits),
        cmocka_unit_test(test_worker_deadline),         cmocka_unit_test(test_fallback_to_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
