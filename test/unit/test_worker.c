/* test_worker.c - runtime/worker without a GPU: the codec's round trips, frames that are
 * short, long or oversized refused, and the process (start, exchange, deadline, death,
 * stop, release: its end not awaited, the caller's pipes let go) with a test body in
 * place of the CUDA worker; also the one outcome and strategy
 * name tables the pipe and the results rely on. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/sys.h"
#include "compiler/model.h"
#include "runtime/worker.h"

static void test_request_round_trip(void **state)
{
    (void)state;
    /* the configuration crosses typed: an integer past 2^53, a double with no short
     * decimal form, a boolean and a string, each back exactly (bit for bit) */
    const wk_value values[] = {{'i', INT64_MIN + 1, 0, NULL},
                               {'f', 0, 0.1 + 0.2, NULL},
                               {'b', 1, 0, NULL},
                               {'s', 0, 0, "\xc3\xa9t\xc3\xa9"}};
    const unsigned char cubin[] = {0x7f, 'E', 'L', 'F', 0, 1, 2, 0xff};
    wk_request q = {42,           {128, 2, 1}, {-1, 70000, 3}, 49152, 4,    values, "_Z3fooPf", cubin,
                    sizeof cubin, true,        0.25,           true,  true, 5,      0.125};
    wk_frame f = WK_FRAME_INIT;
    wk_encode_request(&f, &q);
    arena *a = arena_new();
    wk_request d;
    memset(&d, 0, sizeof d);
    assert_int_equal(wk_decode_request(&f, a, &d), 0);
    assert_int_equal(d.ordinal, 42);
    assert_true(d.block[0] == 128 && d.block[1] == 2 && d.block[2] == 1);
    assert_true(d.grid[0] == -1 && d.grid[1] == 70000 && d.grid[2] == 3);
    assert_int_equal(d.smem_bytes, 49152);
    assert_int_equal(d.nvalues, 4);
    for (int i = 0; i < 4; i++)
        assert_int_equal(d.values[i].type, values[i].type);
    assert_true(d.values[0].i == INT64_MIN + 1);
    assert_memory_equal(&d.values[1].f, &values[1].f, sizeof(double));
    assert_int_equal(d.values[2].i, 1);
    assert_string_equal(d.values[3].s, values[3].s);
    assert_string_equal(d.symbol, "_Z3fooPf");
    assert_int_equal(d.cubin_size, sizeof cubin);
    assert_memory_equal(d.cubin, cubin, sizeof cubin); /* NUL bytes inside survive */
    assert_true(d.have_best);
    assert_true(d.best_objective == 0.25);
    assert_true(d.final);
    assert_true(d.profile);
    assert_int_equal(d.samples, 5);
    assert_true(d.best_range == 0.125);
    wk_frame_free(&f);
    arena_free(a);
}

/* The reply's round trip is test_reply.c's (the reply is tuner/reply.h's now). */
static void test_setup_round_trip(void **state)
{
    (void)state;
    wk_frame f = WK_FRAME_INIT;
    arena *a = arena_new();
    wk_frame_reset(&f);
    wk_setup s = {true, 0.125, "", "kernel ref_kernel", -8, 0.5, 0.25, 0.0625, 0.03125}, ds;
    wk_encode_setup(&f, &s);
    assert_int_equal(wk_decode_setup(&f, a, &ds), 0);
    assert_true(ds.ok && ds.ref_seconds == 0.125);
    /* where the set-up's time went, each figure on its own field */
    assert_true(ds.device_s == 0.5 && ds.compile_s == 0.25 && ds.inputs_s == 0.0625 && ds.reference_s == 0.03125);
    assert_int_equal(ds.status, -8);
    assert_string_equal(ds.message, "");
    assert_string_equal(ds.reference, "kernel ref_kernel");
    wk_frame_free(&f);
    arena_free(a);
}

static void test_bad_frames_refused(void **state)
{
    (void)state;
    const wk_value values[] = {{'i', 1, 0, NULL}, {'i', 2, 0, NULL}};
    wk_request q = {7, {1, 1, 1}, {1, 1, 1}, 0,     2,     values, "k", (const unsigned char *)"abc",
                    3, false,     0,         false, false, 0,      0};
    wk_frame f = WK_FRAME_INIT;
    wk_encode_request(&f, &q);
    size_t whole = f.buf.len;
    arena *a = arena_new();
    wk_request d;
    /* Every truncation is refused, whichever field it cuts. */
    for (size_t len = 0; len < whole; len++) {
        f.buf.len = len;
        assert_int_equal(wk_decode_request(&f, a, &d), -1);
    }
    f.buf.len = whole;
    assert_int_equal(wk_decode_request(&f, a, &d), 0);
    /* Bytes left over: not this message. */
    sb_addn(&f.buf, "x", 1);
    assert_int_equal(wk_decode_request(&f, a, &d), -1);
    /* A string whose length runs past the end. */
    wk_frame_reset(&f);
    wk_setup s = {true, 1, "m", "r", 0, 0, 0, 0, 0};
    wk_encode_setup(&f, &s);
    uint64_t huge = UINT64_MAX - 3;
    memcpy(f.buf.data + 16, &huge, 8); /* message's length */
    wk_setup ds;
    assert_int_equal(wk_decode_setup(&f, a, &ds), -1);
    /* An array count larger than the frame could hold. */
    wk_frame_reset(&f);
    wk_encode_request(&f, &q);
    uint64_t many = 1000000;
    memcpy(f.buf.data + 8 * 8, &many, 8); /* nvalues, after ordinal, block, grid, smem */
    assert_int_equal(wk_decode_request(&f, a, &d), -1);
    /* A value whose type is none of the four, or a boolean that is neither 0 nor 1. */
    wk_value odd[2] = {{'i', 1, 0, NULL}, {'x', 2, 0, NULL}};
    q.values = odd;
    wk_frame_reset(&f);
    wk_encode_request(&f, &q);
    assert_int_equal(wk_decode_request(&f, a, &d), -1);
    odd[1] = (wk_value){'b', 2, 0, NULL};
    wk_frame_reset(&f);
    wk_encode_request(&f, &q);
    assert_int_equal(wk_decode_request(&f, a, &d), -1);
    odd[1].i = 0;
    wk_frame_reset(&f);
    wk_encode_request(&f, &q);
    assert_int_equal(wk_decode_request(&f, a, &d), 0);
    assert_int_equal(d.values[1].type, 'b');
    /* Blobs: exactly the size asked for. */
    wk_frame_reset(&f);
    int blob[4] = {1, 2, 3, 4}, back[4];
    wk_encode_blob(&f, blob, sizeof blob);
    assert_int_equal(wk_decode_blob(&f, back, sizeof back), 0);
    assert_memory_equal(blob, back, sizeof blob);
    assert_int_equal(wk_decode_blob(&f, back, sizeof back - 1), -1);
    wk_frame_free(&f);
    arena_free(a);
}

static void test_oversized_frame_refused(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    uint32_t len = WK_FRAME_MAX + 1u;
    assert_int_equal(write(p[1], &len, 4), 4);
    wk_frame f = WK_FRAME_INIT;
    assert_int_equal(wk_recv(p[0], &f, 0), -1);
    /* A frame announced but cut short by EOF. */
    len = 100;
    assert_int_equal(write(p[1], &len, 4), 4);
    assert_int_equal(write(p[1], "abc", 3), 3);
    close(p[1]);
    assert_int_equal(wk_recv(p[0], &f, sys_seconds() + 5), -1);
    close(p[0]);
    wk_frame_free(&f);
}

/* Test bodies: each serves frames the way the GPU worker does. */
static int echo_body(void *ctx, int in, int out)
{
    const char *mode = ctx;
    wk_frame f = WK_FRAME_INIT;
    for (;;) {
        if (wk_recv(in, &f, 0) < 0)
            return 0; /* EOF: the parent has gone */
        if (strcmp(mode, "hang") == 0)
            pause();
        if (strcmp(mode, "crash") == 0)
            raise(SIGUSR1); /* ends it; not SIGSEGV: a sanitizer would catch that and exit instead */
        if (strcmp(mode, "exit") == 0)
            return 3;
        if (wk_send(out, &f) < 0)
            return 1;
    }
}

static void test_process_exchange_and_stop(void **state)
{
    (void)state;
    wk_proc p = {0, -1, -1};
    assert_int_equal(wk_stop(&p, false), -1); /* none running */
    assert_int_equal(wk_start(&p, echo_body, "echo"), 0);
    assert_true(p.pid > 0);
    for (int i = 0; i < 3; i++) {
        wk_frame f = WK_FRAME_INIT;
        wk_setup s = {true, i, "hello", "ref", 0, 0, 0, 0, 0}, d;
        wk_encode_setup(&f, &s);
        assert_int_equal(wk_exchange(&p, &f, 5), 0);
        arena *a = arena_new();
        assert_int_equal(wk_decode_setup(&f, a, &d), 0);
        assert_true(d.ref_seconds == i);
        assert_string_equal(d.message, "hello");
        arena_free(a);
        wk_frame_free(&f);
    }
    int status = wk_stop(&p, false); /* an idle worker exits on EOF */
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_int_equal(p.pid, 0);
    char how[64];
    wk_describe(status, how, sizeof how);
    assert_string_equal(how, "exit status 0");
}

static void test_process_deadline_and_death(void **state)
{
    (void)state;
    wk_proc p = {0, -1, -1};
    char how[128];
    wk_frame f = WK_FRAME_INIT;

    assert_int_equal(wk_start(&p, echo_body, "hang"), 0);
    sb_add(&f.buf, "ping");
    double t0 = sys_seconds();
    assert_int_equal(wk_exchange(&p, &f, 0.3), -2); /* no reply in time */
    double waited = sys_seconds() - t0;
    assert_true(waited >= 0.25 && waited < 5);
    int status = wk_stop(&p, true);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    wk_describe(status, how, sizeof how);
    assert_non_null(strstr(how, "signal 9"));

    assert_int_equal(wk_start(&p, echo_body, "crash"), 0);
    wk_frame_reset(&f);
    sb_add(&f.buf, "ping");
    assert_int_equal(wk_exchange(&p, &f, 5), -1); /* died: its pipe closed */
    status = wk_stop(&p, true);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGUSR1);

    /* SIGTERM to the group (timeout, a scheduler's time limit) is the parent's: the
     * worker lives on and answers */
    assert_int_equal(wk_start(&p, echo_body, "echo"), 0);
    wk_frame_reset(&f);
    sb_add(&f.buf, "ping");
    assert_int_equal(wk_exchange(&p, &f, 5), 0); /* it has started */
    assert_int_equal(kill(p.pid, SIGTERM), 0);
    assert_int_equal(kill(p.pid, SIGINT), 0);
    wk_frame_reset(&f);
    sb_add(&f.buf, "ping");
    assert_int_equal(wk_exchange(&p, &f, 5), 0);
    status = wk_stop(&p, false);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);

    assert_int_equal(wk_start(&p, echo_body, "exit"), 0);
    wk_frame_reset(&f);
    sb_add(&f.buf, "ping");
    assert_int_equal(wk_exchange(&p, &f, 0), -1); /* no limit: EOF still ends the wait */
    status = wk_stop(&p, false);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 3);
    wk_frame_free(&f);
}

/* several workers at once. A worker forked after another must not hold the
 * other's pipe open (stopping the first without force would wait for ever: alarm makes
 * that a failure); wk_wait_any says which of several answered first, or the deadline; and
 * a reply that has arrived is read even when its deadline has just passed. */
static void test_several_workers(void **state)
{
    (void)state;
    wk_proc a = {0, -1, -1}, b = {0, -1, -1}, c = {0, -1, -1};
    alarm(20);
    assert_int_equal(wk_start(&a, echo_body, "echo"), 0);
    assert_int_equal(wk_start(&b, echo_body, "echo"), 0);
    assert_int_equal(wk_start(&c, echo_body, "hang"), 0);
    int status = wk_stop(&a, false); /* b and c were forked after a: a still sees EOF */
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);

    wk_frame f = WK_FRAME_INIT;
    sb_add(&f.buf, "ping");
    assert_int_equal(wk_send(c.to, &f), 0);
    assert_int_equal(wk_send(b.to, &f), 0);
    int fds[2] = {c.from, b.from};
    assert_int_equal(wk_wait_any(fds, 2, sys_seconds() + 5), 1); /* b answers, c hangs */
    assert_int_equal(wk_recv(b.from, &f, sys_seconds() - 1), 0); /* arrived whole (one write): read though late */
    assert_int_equal(wk_wait_any(fds, 1, sys_seconds() + 0.2), -2);
    kill(c.pid, SIGKILL);
    assert_int_equal(wk_wait_any(fds, 2, sys_seconds() + 5), 0); /* its end of the pipe closed */
    assert_int_equal(wk_wait_any(fds, 0, 0), -1);
    wk_stop(&c, true);
    status = wk_stop(&b, false);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    alarm(0);
    wk_frame_free(&f);
}

/* A body whose end is slow, as a GPU worker's is: at EOF it does what wk_end does
 * before the exit (its standard streams let go, its pipe to the caller closed), then
 * takes *ctx more milliseconds, as the driver's teardown of a context does in the exit. */
static int slow_end_body(void *ctx, int in, int out)
{
    long ms = *(const long *)ctx;
    wk_frame f = WK_FRAME_INIT;
    while (wk_recv(in, &f, 0) == 0)
        ;
    wk_drop_stdio();
    close(out);
    nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000}, NULL);
    return 0;
}

/* A released worker is not waited for: wk_release returns while it is still ending;
 * wk_wait_released waits for it, and then it is reaped (no zombie). One released with
 * force is killed; none running is a no-op. */
static void test_release_does_not_wait(void **state)
{
    (void)state;
    alarm(20);
    long ms = 1500;
    wk_proc p = {0, -1, -1};
    wk_release(&p, false); /* none running */
    assert_int_equal(wk_released_pending(), 0);
    assert_int_equal(wk_start(&p, slow_end_body, &ms), 0);
    pid_t pid = p.pid;
    double t0 = sys_seconds();
    wk_release(&p, false);
    assert_true(sys_seconds() - t0 < 0.75); /* its 1.5 s end is not awaited */
    assert_int_equal(p.pid, 0);
    assert_int_equal(p.to, -1);
    assert_int_equal(p.from, -1);
    assert_int_equal(wk_released_pending(), 1);
    assert_int_equal(kill(pid, 0), 0); /* still ending */
    wk_wait_released();
    assert_true(sys_seconds() - t0 >= 1.4); /* its end, waited for */
    assert_int_equal(wk_released_pending(), 0);
    errno = 0;
    assert_int_equal(waitpid(pid, NULL, WNOHANG), -1); /* reaped already: not a zombie, not ours */
    assert_int_equal(errno, ECHILD);

    assert_int_equal(wk_start(&p, echo_body, "hang"), 0);
    wk_frame f = WK_FRAME_INIT;
    sb_add(&f.buf, "ping");
    assert_int_equal(wk_send(p.to, &f), 0); /* stuck in pause(): EOF would not end it */
    t0 = sys_seconds();
    wk_release(&p, true);
    wk_wait_released();
    assert_true(sys_seconds() - t0 < 5);
    assert_int_equal(wk_released_pending(), 0);
    wk_frame_free(&f);
    alarm(0);
}

/* A body slow to reach its end, then slow in it: at EOF it takes 300 ms, lets its
 * standard streams go and closes its pipe to the caller (as wk_end does), then takes
 * 1.5 s more, as the driver's teardown does in the exit. */
static int late_end_body(void *ctx, int in, int out)
{
    (void)ctx;
    wk_frame f = WK_FRAME_INIT;
    while (wk_recv(in, &f, 0) == 0)
        ;
    nanosleep(&(struct timespec){0, 300000000}, NULL);
    wk_drop_stdio();
    close(out);
    nanosleep(&(struct timespec){1, 500000000}, NULL);
    return 0;
}

/* Where fd `fd` of process pid points ("" when it cannot be read). */
static void fd_target(pid_t pid, int fd, char *out, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)pid, fd);
    ssize_t n = readlink(path, out, size - 1);
    out[n > 0 ? n : 0] = '\0';
}

/* When wk_release returns, the worker has let go of its standard streams (the caller may
 * exit at once: nothing it shares with its own caller is held by the worker's end), even
 * one that took a while to see its end of file; and it returns long before the end. */
static void test_release_after_stdio_let_go(void **state)
{
    (void)state;
#ifdef __linux__
    alarm(20);
    wk_proc p = {0, -1, -1};
    int pp[2], saved = dup(STDOUT_FILENO); /* the worker's stdout: a pipe, as a ctest's */
    assert_true(saved >= 0);
    assert_int_equal(pipe(pp), 0);
    assert_true(dup2(pp[1], STDOUT_FILENO) >= 0);
    int started = wk_start(&p, late_end_body, NULL);
    assert_true(dup2(saved, STDOUT_FILENO) >= 0);
    close(saved);
    close(pp[1]);
    assert_int_equal(started, 0);
    pid_t pid = p.pid;
    char target[256];
    fd_target(pid, STDOUT_FILENO, target, sizeof target);
    assert_true(strncmp(target, "pipe:", 5) == 0); /* the caller's, before */
    double t0 = sys_seconds();
    wk_release(&p, false);
    double took = sys_seconds() - t0;
    assert_true(took >= 0.25 && took < 1.2); /* its streams awaited, not its end */
    fd_target(pid, STDOUT_FILENO, target, sizeof target);
    assert_string_equal(target, "/dev/null");
    fd_target(pid, STDERR_FILENO, target, sizeof target);
    assert_string_equal(target, "/dev/null");
    char c;
    assert_int_equal(read(pp[0], &c, 1), 0); /* no one holds it now */
    close(pp[0]);
    wk_wait_released();
    alarm(0);
#endif
}

/* A worker whose end is slow holds none of its caller's pipes while it ends: a reader of
 * the caller's output (a shell's $(...), ctest) sees its end of file at once, not after
 * the worker's. Here the caller (a child of the test, whose standard output and error
 * are a pipe the test reads) releases the worker, lets its own streams go and waits for
 * the worker; without wk_drop_stdio the worker would hold the pipe 2 s. */
static void test_ending_worker_lets_go_of_stdio(void **state)
{
    (void)state;
    alarm(20);
    int out[2];
    assert_int_equal(pipe(out), 0);
    pid_t middle = fork();
    assert_true(middle >= 0);
    if (middle == 0) {
        if (dup2(out[1], STDOUT_FILENO) < 0 || dup2(out[1], STDERR_FILENO) < 0)
            _exit(1);
        close(out[0]);
        close(out[1]);
        long ms = 2000;
        wk_proc p = {0, -1, -1};
        if (wk_start(&p, slow_end_body, &ms) < 0)
            _exit(1);
        wk_release(&p, false);
        wk_drop_stdio(); /* the caller's own streams: only the worker could hold the pipe now */
        wk_wait_released();
        _exit(0);
    }
    close(out[1]);
    double t0 = sys_seconds();
    char c;
    assert_int_equal(read(out[0], &c, 1), 0); /* end of file */
    assert_true(sys_seconds() - t0 < 1.0);    /* before the worker's 2 s end */
    close(out[0]);
    int status;
    assert_int_equal(waitpid(middle, &status, 0), middle);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_true(sys_seconds() - t0 >= 1.9); /* the caller did wait for it, after */
    alarm(0);
}

/* Whether process pid is gone or a zombie (its parent dead, not yet reaped). */
static bool gone(pid_t pid)
{
    char path[64], stat[256] = "";
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return true;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = '\0';
    const char *paren = strrchr(stat, ')');
    return paren && paren[1] == ' ' && paren[2] == 'Z';
}

/* A worker dies with the process that started it, even stuck (here: in pause()), so a
 * tuner killed with SIGKILL leaves no worker holding the GPU. */
static void test_worker_dies_with_its_parent(void **state)
{
    (void)state;
#ifdef __linux__
    int report[2];
    assert_int_equal(pipe(report), 0);
    pid_t middle = fork();
    assert_true(middle >= 0);
    if (middle == 0) { /* starts a worker that hangs, says its pid, and dies */
        wk_proc p = {0, -1, -1};
        wk_frame f = WK_FRAME_INIT;
        sb_add(&f.buf, "ping");
        if (wk_start(&p, echo_body, "hang") < 0 || wk_send(p.to, &f) < 0)
            _exit(1);
        ssize_t w = write(report[1], &p.pid, sizeof p.pid);
        _exit(w == (ssize_t)sizeof p.pid ? 0 : 1);
    }
    close(report[1]);
    pid_t worker = 0;
    assert_int_equal(read(report[0], &worker, sizeof worker), (ssize_t)sizeof worker);
    close(report[0]);
    int status;
    assert_int_equal(waitpid(middle, &status, 0), middle);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    double t0 = sys_seconds();
    while (!gone(worker) && sys_seconds() - t0 < 10)
        ;
    assert_true(gone(worker));
#endif
}

static void test_name_tables(void **state)
{
    (void)state;
    /* Outcomes: every name reads back as its own enum value, and names are distinct. */
    for (int o = 0; o < OUTCOME_COUNT; o++) {
        outcome back = OUTCOME_COUNT;
        assert_true(outcome_from_name(outcome_name((outcome)o), &back));
        assert_int_equal(back, o);
    }
    assert_string_equal(outcome_name(OUTCOME_NOT_RUN), "not run");
    assert_string_equal(outcome_name((outcome)99), "not run");
    outcome untouched = OUTCOME_OK;
    assert_false(outcome_from_name("nonsense", &untouched));
    assert_false(outcome_from_name(NULL, &untouched));
    assert_int_equal(untouched, OUTCOME_OK);
    /* Strategies: the list is in enum order and each name reads back. */
    const char *const *names = model_strategy_names();
    const char *want[] = {"exhaustive", "random", "anneal", "genetic", "local", "guided", "auto"};
    int n = 0;
    for (; names[n]; n++) {
        assert_true(n < 7);
        assert_string_equal(names[n], want[n]);
        assert_string_equal(model_strategy_name((strategy)n), names[n]);
        strategy s = STRAT_GUIDED;
        assert_true(model_strategy_from_name(names[n], &s));
        assert_int_equal(s, n);
    }
    assert_int_equal(n, 7);
    strategy s = STRAT_RANDOM;
    assert_false(model_strategy_from_name("bogus", &s));
    assert_int_equal(s, STRAT_RANDOM);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_request_round_trip),
        cmocka_unit_test(test_setup_round_trip),
        cmocka_unit_test(test_bad_frames_refused),
        cmocka_unit_test(test_oversized_frame_refused),
        cmocka_unit_test(test_process_exchange_and_stop),
        cmocka_unit_test(test_process_deadline_and_death),
        cmocka_unit_test(test_several_workers),
        cmocka_unit_test(test_worker_dies_with_its_parent),
        cmocka_unit_test(test_release_does_not_wait),
        cmocka_unit_test(test_ending_worker_lets_go_of_stdio),
        cmocka_unit_test(test_release_after_stdio_let_go),
        cmocka_unit_test(test_name_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
