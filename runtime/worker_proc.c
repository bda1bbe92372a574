/* worker_proc.c - the worker process and its pipes (worker.h; runtime/worker.c holds the
 * frames' and messages' codec): a frame sent and received with a deadline, a worker
 * forked, asked, stopped or released (its end not waited for, reaped by a thread of its
 * own), and a worker's own end (wk_end). Who owns what: a wk_proc owns the caller's ends
 * of its worker's pipes; this file's lists (the live pipes, the released workers not yet
 * reaped) are the process's, under their locks. */
#include "worker.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "../base/err.h"
#include "../base/sys.h"

/* ---- frames over a pipe ----------------------------------------------------------------- */
static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

int wk_send(int fd, const wk_frame *f)
{
    if (!sb_ok(&f->buf) || f->buf.len > WK_FRAME_MAX)
        return -1;
    uint32_t len = (uint32_t)f->buf.len;
    /* Length and body in one write: a frame up to PIPE_BUF (every reply, in practice)
     * then arrives whole, so a reader that polled once finds all of it. */
    struct iovec v[2] = {{&len, 4}, {f->buf.data, f->buf.len}};
    ssize_t w;
    while ((w = writev(fd, v, len ? 2 : 1)) < 0 && errno == EINTR)
        ;
    if (w < 0)
        return -1;
    size_t done = (size_t)w;
    if (done < 4) /* a short write (a signal, a full pipe): the rest as it goes */
        return write_all(fd, (const char *)&len + done, 4 - done) < 0 ||
                       (len && write_all(fd, f->buf.data, f->buf.len) < 0)
                   ? -1
                   : 0;
    done -= 4;
    return done < f->buf.len && write_all(fd, f->buf.data + done, f->buf.len - done) < 0 ? -1 : 0;
}

/* The milliseconds poll waits for `left` seconds (> 0), rounded up; a wait past
 * INT_MAX ms (24 days: a deadline from a huge limit) is cut there, never an int overflow:
 * the caller then sees a timeout early or asks again. */
static int wk_poll_ms(double left)
{
    return left < (INT_MAX - 1) / 1000.0 ? (int)(left * 1000) + 1 : INT_MAX;
}

/* Reads n bytes by `deadline` (sys_seconds; 0: wait forever). 0, -1 on EOF or error,
 * -2 on timeout. */
static int read_all(int fd, void *p, size_t n, double deadline)
{
    char *c = p;
    while (n) {
        if (deadline > 0) {
            /* Past the deadline, what has already arrived is still read (a reply
             * that came just as the time ran out is not a hang). */
            double left = deadline - sys_seconds();
            struct pollfd pfd = {fd, POLLIN, 0};
            int pr = poll(&pfd, 1, left > 0 ? wk_poll_ms(left) : 0);
            if (pr < 0 && errno == EINTR)
                continue;
            if (pr == 0)
                return -2;
            if (pr < 0)
                return -1;
        }
        ssize_t r = read(fd, c, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        c += r;
        n -= (size_t)r;
    }
    return 0;
}

int wk_recv(int fd, wk_frame *f, double deadline)
{
    uint32_t len;
    wk_frame_reset(f);
    int rc = read_all(fd, &len, 4, deadline);
    if (rc < 0)
        return rc;
    if (len > WK_FRAME_MAX)
        return -1;
    char *data = malloc(len ? len : 1);
    if (!data)
        return -1;
    rc = read_all(fd, data, len, deadline);
    if (rc == 0) {
        sb_addn(&f->buf, data, len);
        if (!sb_ok(&f->buf))
            rc = -1;
    }
    free(data);
    return rc;
}

/* ---- the process ---------------------------------------------------------------------- */

/* The parent's ends of every worker's pipes, so that a worker forked later closes
 * them: a sibling holding a worker's write end open would keep it from seeing EOF
 * (wk_stop without force would wait for ever), and a GPU worker forked while the
 * compile pool runs would hold the compile workers' pipes. Pipes are made and
 * processes forked under the lock, so a fork on another thread never catches a pipe
 * that is not yet listed. */
enum { LIVE_MAX = 4096 };
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static int live_fds[LIVE_MAX];
static int nlive;

static void live_add(int fd)
{
    if (nlive < LIVE_MAX) /* beyond: not closed in later children, as before the list */
        live_fds[nlive++] = fd;
}

static void live_remove(int fd)
{
    pthread_mutex_lock(&live_lock);
    for (int i = 0; i < nlive; i++)
        if (live_fds[i] == fd) {
            live_fds[i] = live_fds[--nlive];
            break;
        }
    pthread_mutex_unlock(&live_lock);
}

int wk_start(wk_proc *p, wk_body body, void *ctx)
{
    int to[2], from[2];
    pthread_mutex_lock(&live_lock);
    if (pipe(to) != 0) {
        pthread_mutex_unlock(&live_lock);
        err_set(-1, "cannot create pipes: %s", strerror(errno));
        return -1;
    }
    if (pipe(from) != 0) {
        pthread_mutex_unlock(&live_lock);
        err_set(-1, "cannot create pipes: %s", strerror(errno));
        close(to[0]);
        close(to[1]);
        return -1;
    }
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        pthread_mutex_unlock(&live_lock);
        err_set(-1, "cannot start a worker process: %s", strerror(errno));
        close(to[0]);
        close(to[1]);
        close(from[0]);
        close(from[1]);
        return -1;
    }
    if (pid == 0) {
        signal(SIGINT, SIG_IGN);  /* Ctrl-C is the parent's to handle, */
        signal(SIGTERM, SIG_IGN); /* and so is a SIGTERM to the process group (timeout, a scheduler) */
#ifdef __linux__
        /* A worker dies with the thread that started it: one stuck in a kernel that
         * hangs would otherwise outlive a tuner killed with SIGKILL and hold the GPU
         * while the run is resumed. (Checked after: the parent may already be gone.) */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
            _exit(1);
#else
        (void)parent;
#endif
        for (int i = 0; i < nlive; i++) /* the siblings' pipes are not this worker's */
            close(live_fds[i]);
        nlive = 0;
        pthread_mutex_unlock(&live_lock); /* the copy this thread holds */
        close(to[1]);
        close(from[0]);
        signal(SIGPIPE, SIG_DFL);
        wk_end(from[1], body(ctx, to[0], from[1]));
    }
    close(to[0]);
    close(from[1]);
    live_add(to[1]);
    live_add(from[0]);
    pthread_mutex_unlock(&live_lock);
    p->pid = pid;
    p->to = to[1];
    p->from = from[0];
    return 0;
}

int wk_exchange(wk_proc *p, wk_frame *f, double limit_s)
{
    if (!p->pid || wk_send(p->to, f) < 0)
        return -1;
    return wk_recv(p->from, f, limit_s > 0 ? sys_seconds() + limit_s : 0);
}

void wk_ask_stop(wk_proc *p, bool force)
{
    if (!p->pid)
        return;
    if (p->to >= 0) {
        live_remove(p->to);
        close(p->to); /* an idle worker exits on EOF */
        p->to = -1;
    }
    if (force)
        kill(p->pid, SIGKILL);
}

int wk_stop(wk_proc *p, bool force)
{
    if (!p->pid)
        return -1;
    wk_ask_stop(p, force);
    live_remove(p->from);
    int status = 0;
    while (waitpid(p->pid, &status, 0) < 0 && errno == EINTR)
        ;
    close(p->from);
    p->pid = 0;
    p->to = p->from = -1;
    return status;
}

/* ---- released workers: reaped by a thread each, waited for by wk_wait_released ---------- */

/* Like the list above, a fact of the process (its children), not of a run: how many
 * released workers are not yet reaped, under ending_lock; ending_done is signalled as
 * each is. */
static pthread_mutex_t ending_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ending_done = PTHREAD_COND_INITIALIZER;
static int nending;

/* The reaper of one released worker (arg: its pid): waits for its end, then counts it
 * out. */
static void *reap_released(void *arg)
{
    pid_t pid = (pid_t)(intptr_t)arg;
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
    pthread_mutex_lock(&ending_lock);
    nending--;
    pthread_cond_broadcast(&ending_done);
    pthread_mutex_unlock(&ending_lock);
    return NULL;
}

enum { RELEASE_WAIT_MS = 1000 }; /* the most wk_release waits for a worker's wk_end */

/* Reads fd (a worker's pipe to us, every answer already read) until its end of file,
 * for at most RELEASE_WAIT_MS: the worker has then let go of its standard streams
 * (wk_end). Anything still in the pipe is dropped. */
static void await_hangup(int fd)
{
    double deadline = sys_seconds() + RELEASE_WAIT_MS / 1000.0;
    char sink[256];
    for (;;) {
        double left = deadline - sys_seconds();
        struct pollfd pfd = {fd, POLLIN, 0};
        int pr = poll(&pfd, 1, left > 0 ? wk_poll_ms(left) : 0);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr <= 0)
            return; /* the deadline, or an error: not awaited further */
        ssize_t r = read(fd, sink, sizeof sink);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return; /* its end of file (or an error) */
    }
}

void wk_release(wk_proc *p, bool force)
{
    if (!p->pid)
        return;
    wk_ask_stop(p, force);
    if (!force) /* a killed one lets go of everything as it dies */
        await_hangup(p->from);
    pthread_mutex_lock(&ending_lock);
    nending++;
    pthread_mutex_unlock(&ending_lock);
    /* The reaper takes no signal: the caller's threads keep them all. */
    sigset_t all, was;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &was);
    pthread_attr_t attr;
    pthread_t reaper;
    bool started = pthread_attr_init(&attr) == 0;
    if (started) {
        started = pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0 &&
                  pthread_create(&reaper, &attr, reap_released, (void *)(intptr_t)p->pid) == 0;
        pthread_attr_destroy(&attr);
    }
    pthread_sigmask(SIG_SETMASK, &was, NULL);
    live_remove(p->from);
    close(p->from);
    if (!started) /* no thread: reaped here, as before */
        reap_released((void *)(intptr_t)p->pid);
    p->pid = 0;
    p->to = p->from = -1;
}

void wk_wait_released(void)
{
    pthread_mutex_lock(&ending_lock);
    while (nending > 0)
        pthread_cond_wait(&ending_done, &ending_lock);
    pthread_mutex_unlock(&ending_lock);
}

int wk_released_pending(void)
{
    pthread_mutex_lock(&ending_lock);
    int n = nending;
    pthread_mutex_unlock(&ending_lock);
    return n;
}

void wk_drop_stdio(void)
{
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null < 0) { /* closed, then: what matters is that the caller's are let go */
        close(STDIN_FILENO);
        close(STDOUT_FILENO);
        close(STDERR_FILENO);
        return;
    }
    for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++)
        if (fd != null)
            dup2(null, fd);
    if (null > STDERR_FILENO)
        close(null);
}

void wk_end(int out, int status)
{
    wk_drop_stdio();
    close(out); /* wk_release waits for this: the caller's streams are let go */
    _exit(status);
}

int wk_wait_any(const int *fds, int n, double deadline)
{
    struct pollfd pfd[64];
    if (n <= 0 || n > 64)
        return -1;
    for (int i = 0; i < n; i++)
        pfd[i] = (struct pollfd){fds[i], POLLIN, 0};
    for (;;) {
        double left = deadline > 0 ? deadline - sys_seconds() : -1;
        int ms = deadline <= 0 ? -1 : left > 0 ? wk_poll_ms(left) : 0;
        int pr = poll(pfd, (nfds_t)n, ms);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr < 0)
            return -1;
        if (pr == 0)
            return -2;
        for (int i = 0; i < n; i++)
            if (pfd[i].revents) /* a reply, or the end of the pipe (a worker that died) */
                return i;
    }
}

void wk_describe(int status, char *buf, size_t size)
{
    if (WIFSIGNALED(status))
        snprintf(buf, size, "signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(buf, size, "exit status %d", WEXITSTATUS(status));
}
