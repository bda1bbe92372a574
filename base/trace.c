/* trace.c - a timeline of a run across its processes (trace.h).
 *
 * Writes its lines with open() and write() of its own, not through sys.h's writer: an
 * event must be one write() on an O_APPEND descriptor, from a stack buffer (no
 * allocation, so it is safe wherever a forked child is). Its JSON escaper is its own for
 * the same reason: a bounded buffer, cut between whole characters. */
#define _GNU_SOURCE /* syscall(SYS_gettid) */
#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sys.h"
#include "utf8.h"

/* The most bytes a name or a detail takes in a line, escaped. */
enum { NAME_MAX_OUT = 192, DETAIL_MAX_OUT = 640 };

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int trace_fd = -1;           /* set once (open_once), or again in a child (trace_reopen) */
static char trace_path[4096];       /* the file's name, for trace_reopen */
static char open_error[4096 + 128]; /* why it could not be opened */
static atomic_ulong failures;

/* Opens `path` for appending; the process that creates it (or finds it empty) writes
 * the array's "[" first. The descriptor, or -1 with errno set. */
static int open_file(const char *path)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    bool created = fd >= 0;
    if (fd < 0 && errno == EEXIST)
        fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if ((created || (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)) && write(fd, "[\n", 2) != 2)
        atomic_fetch_add(&failures, 1);
    return fd;
}

static void open_once(void)
{
    const char *path = getenv("CUTUNE_TRACE"); /* NOLINT(concurrency-mt-unsafe): read once, under pthread_once */
    if (!path || !*path)
        return;
    size_t len = strlen(path);
    if (len >= sizeof trace_path) {
        snprintf(open_error, sizeof open_error, "CUTUNE_TRACE: the path is too long (%zu bytes)", len);
        return;
    }
    memcpy(trace_path, path, len + 1);
    trace_fd = open_file(trace_path);
    if (trace_fd < 0)
        snprintf(open_error, sizeof open_error, "CUTUNE_TRACE: cannot open '%s': %s", trace_path, sys_strerror(errno));
}

bool trace_open_from_env(void)
{
    pthread_once(&once, open_once);
    return trace_fd >= 0;
}

bool trace_on(void)
{
    return trace_open_from_env();
}

void trace_reopen(void)
{
    if (!trace_open_from_env() || fcntl(trace_fd, F_GETFD) >= 0)
        return; /* off, or the inherited descriptor is still there */
    trace_fd = open_file(trace_path);
    if (trace_fd < 0)
        atomic_fetch_add(&failures, 1); /* this child's events are lost: each would count too */
}

unsigned long trace_failures(void)
{
    return atomic_load(&failures);
}

const char *trace_open_error(void)
{
    (void)trace_open_from_env();
    return open_error;
}

/* The length of the valid UTF-8 character at s (a byte >= 0x80), or 0 when it is not
 * one (a stray or broken sequence). */
static size_t utf8_char(const char *s)
{
    unsigned char c = (unsigned char)*s;
    size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
    if (n == 0 || strnlen(s, n) < n)
        return 0;
    return utf8_check(s, n) == n ? n : 0;
}

/* Appends s to out (at *at, room up to `end`) as the contents of a JSON string: quote,
 * backslash and control characters escaped, valid UTF-8 kept, any other byte as '?';
 * stops before a character that would not fit whole. */
static void json_text(char *out, size_t *at, size_t end, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    while (*s) {
        char esc[8];
        size_t n = 0, take = 1;
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            esc[n++] = '\\';
            esc[n++] = (char)c;
        } else if (c == '\n') {
            esc[n++] = '\\';
            esc[n++] = 'n';
        } else if (c == '\t') {
            esc[n++] = '\\';
            esc[n++] = 't';
        } else if (c < 0x20 || c == 0x7f) {
            esc[n++] = '\\';
            esc[n++] = 'u';
            esc[n++] = '0';
            esc[n++] = '0';
            esc[n++] = hex[c >> 4];
            esc[n++] = hex[c & 15];
        } else if (c < 0x80) {
            esc[n++] = (char)c;
        } else if ((take = utf8_char(s)) > 0) {
            memcpy(esc, s, take);
            n = take;
        } else {
            take = 1;
            esc[n++] = '?';
        }
        if (*at + n > end)
            return;
        memcpy(out + *at, esc, n);
        *at += n;
        s += take;
    }
}

/* Appends the formatted text to out, cut at `end` (snprintf's rule: never past it). */
static void append(char *out, size_t *at, size_t end, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void append(char *out, size_t *at, size_t end, const char *fmt, ...)
{
    if (*at >= end)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out + *at, end - *at, fmt, ap);
    va_end(ap);
    if (n > 0)
        *at += (size_t)n < end - *at ? (size_t)n : end - *at - 1;
}

/* One event's line (name already formatted) written in one write(). */
static void emit(char phase, int track, const char *detail, const char *name)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    long long us = (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
    long frac = ts.tv_nsec % 1000;
    long pid = (long)getpid(); /* per event: a forked child writes its own */
    long tid = track > 0 ? (long)track : (long)syscall(SYS_gettid);
    char line[TRACE_LINE_MAX];
    size_t at = 0;
    append(line, &at, sizeof line, "{\"name\":\"");
    json_text(line, &at, at + NAME_MAX_OUT, name);
    append(line, &at, sizeof line, "\",\"cat\":\"cutune\",\"ph\":\"%c\",\"ts\":%lld.%03ld,\"pid\":%ld,\"tid\":%ld",
           phase, us, frac, pid, tid);
    if (phase == 'i')
        append(line, &at, sizeof line, ",\"s\":\"t\"");
    if (detail) { /* metadata ('M': a process's or a track's name) says it as "name" */
        append(line, &at, sizeof line, ",\"args\":{\"%s\":\"", phase == 'M' ? "name" : "detail");
        json_text(line, &at, at + DETAIL_MAX_OUT, detail);
        append(line, &at, sizeof line, "\"}");
    }
    append(line, &at, sizeof line, "},\n");
    ssize_t put = write(trace_fd, line, at);
    if (put < 0 || (size_t)put != at)
        atomic_fetch_add(&failures, 1);
}

void trace_event(char phase, int track, const char *detail, const char *fmt, ...)
{
    if (!trace_on())
        return;
    char name[NAME_MAX_OUT];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    if (n < 0)
        name[0] = '\0';
    emit(phase, track, detail, name);
}

void trace_name_process(const char *name)
{
    if (trace_on())
        emit('M', 0, name, "process_name");
}

void trace_name_track(int track, const char *name)
{
    if (trace_on())
        emit('M', track, name, "thread_name");
}

void trace_begin(const char *name)
{
    if (trace_on())
        emit('B', 0, NULL, name);
}

void trace_end(const char *name)
{
    if (trace_on())
        emit('E', 0, NULL, name);
}

void trace_instant(const char *name, const char *detail)
{
    if (trace_on())
        emit('i', 0, detail, name);
}
