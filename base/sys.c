/* sys.c - clock, the one file reader and the one file writer (see sys.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

double sys_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#if defined(__linux__) && !defined(CLOCK_BOOTTIME)
#define CLOCK_BOOTTIME 7 /* Linux's, hidden by _XOPEN_SOURCE in some C libraries */
#endif

double sys_process_age(void)
{
#ifdef __linux__
    /* /proc/self/stat: "pid (comm) state ..." with the start time, in clock ticks after
     * boot, the 22nd field; comm may hold spaces and parentheses: fields are counted
     * after its last ')'. */
    char buf[1024];
    FILE *f = fopen("/proc/self/stat", "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    long ticks = sysconf(_SC_CLK_TCK);
    struct timespec ts;
    if (!p || ticks <= 0 || clock_gettime(CLOCK_BOOTTIME, &ts) != 0)
        return -1;
    unsigned long long start = 0;
    int field = 2; /* comm's; state is the 3rd */
    for (p++; *p && field < 22; p++)
        if (*p == ' ' && p[1] && p[1] != ' ' && ++field == 22)
            start = strtoull(p + 1, NULL, 10);
    if (field != 22)
        return -1;
    double age = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 - (double)start / (double)ticks;
    return age >= 0 ? age : -1;
#else
    return -1;
#endif
}

/* Reads fd (a regular file of `hint` bytes when it was opened) to its end into a heap
 * buffer, refusing more than `limit` bytes. NULL with errno on failure. */
static char *read_all(int fd, size_t hint, size_t limit, size_t *len)
{
    size_t cap = (hint < limit ? hint : limit) + 1, used = 0;
    char *buf = malloc(cap);
    if (!buf) {
        errno = ENOMEM;
        return NULL;
    }
    for (;;) {
        if (used + 1 == cap) { /* full: the file grew since fstat, or hint was 0 */
            if (used >= limit) {
                char probe;
                ssize_t more = read(fd, &probe, 1);
                if (more == 0)
                    break;
                free(buf);
                errno = more < 0 ? errno : SYS_ETOOBIG;
                return NULL;
            }
            size_t grown_cap = cap < limit / 2 ? cap * 2 : limit + 1;
            char *grown = realloc(buf, grown_cap);
            if (!grown) {
                free(buf);
                errno = ENOMEM;
                return NULL;
            }
            buf = grown;
            cap = grown_cap;
        }
        ssize_t n = read(fd, buf + used, cap - 1 - used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int saved = errno;
            free(buf);
            errno = saved;
            return NULL;
        }
        if (n == 0)
            break;
        used += (size_t)n;
    }
    buf[used] = '\0';
    if (len)
        *len = used;
    return buf;
}

char *sys_read_file(const char *path, size_t limit, size_t *len)
{
    /* O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below). */
    int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *text = NULL;
    if (fstat(fd, &st) != 0) {
        /* errno from fstat */
    } else if (S_ISDIR(st.st_mode)) {
        errno = EISDIR;
    } else if (!S_ISREG(st.st_mode)) {
        errno = SYS_ENOTREG;
    } else if (st.st_size < 0 || (uintmax_t)st.st_size > limit) {
        errno = SYS_ETOOBIG;
    } else {
        int flags = fcntl(fd, F_GETFL);
        if (flags >= 0)
            fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
        text = read_all(fd, (size_t)st.st_size, limit, len);
    }
    int saved = errno;
    close(fd);
    errno = saved;
    return text;
}

/* Writes all of `len` bytes to fd, retrying short writes. 0, or -1 with errno. */
static int write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0) {
            errno = EIO;
            return -1;
        }
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Creates a new temporary file beside `path` (same folder, so the rename is atomic):
 * O_EXCL|O_NOFOLLOW, so nothing already at the name (a planted file or link) is ever
 * opened. Fills `tmp` (heap, caller frees) and returns the fd, or -1 with errno. */
static int create_beside(const char *path, mode_t mode, char **tmp)
{
    static atomic_uint counter;
    size_t size = strlen(path) + 48;
    char *name = malloc(size);
    if (!name) {
        errno = ENOMEM;
        return -1;
    }
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned serial = atomic_fetch_add(&counter, 1);
        snprintf(name, size, "%s.tmp.%ld.%u.%ld", path, (long)getpid(), serial, (long)(time(NULL) & 0xffff));
        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (fd >= 0) {
            *tmp = name;
            return fd;
        }
        if (errno != EEXIST)
            break;
    }
    int saved = errno;
    free(name);
    errno = saved;
    return -1;
}

/* fsyncs the folder holding `path`, so the rename itself survives a power loss. File
 * systems that cannot sync a folder (EINVAL) are not an error. */
static int sync_folder(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    if (!dir) {
        errno = ENOMEM;
        return -1;
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (fd < 0)
        return 0; /* the rename happened; an unreadable folder only loses durability */
    int rc = fsync(fd) != 0 && errno != EINVAL && errno != EROFS ? -1 : 0;
    int saved = errno;
    close(fd);
    errno = saved;
    return rc;
}

/* replace_mode: whether `path` may be replaced by a file written beside it, and the mode
 * that file gets (the old file's, else 0666 less the umask). 0 with *mode, or -1 with
 * errno: ENOENT for an empty path, EISDIR for a folder, SYS_ENOTREG for anything else
 * that is not a regular file, or lstat's error. The one rule for sys_write_file and
 * sys_stream_open. */
static int replace_mode(const char *path, mode_t *mode)
{
    if (!path || !*path) {
        errno = ENOENT;
        return -1;
    }
    struct stat st;
    *mode = 0666; /* less the umask, by open() */
    if (lstat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            errno = EISDIR;
            return -1;
        }
        if (!S_ISREG(st.st_mode)) {
            errno = SYS_ENOTREG;
            return -1;
        }
        *mode = st.st_mode & 07777;
    } else if (errno != ENOENT) {
        return -1;
    }
    return 0;
}

int sys_write_file(const char *path, const sys_piece *pieces, int n, unsigned flags)
{
    mode_t mode;
    if (replace_mode(path, &mode) < 0)
        return -1;
    char *tmp = NULL;
    int fd = create_beside(path, mode, &tmp);
    if (fd < 0)
        return -1;
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++)
        rc = write_all(fd, pieces[i].data, pieces[i].len);
    if (rc == 0 && !(flags & SYS_WRITE_NOSYNC) && fsync(fd) != 0)
        rc = -1;
    int saved = errno;
    if (close(fd) != 0 && rc == 0) {
        rc = -1;
        saved = errno;
    }
    if (rc == 0 && rename(tmp, path) != 0) {
        rc = -1;
        saved = errno;
    }
    if (rc != 0)
        unlink(tmp);
    free(tmp);
    if (rc == 0 && !(flags & SYS_WRITE_NOSYNC) && sync_folder(path) != 0)
        return -1;
    errno = saved;
    return rc;
}

int sys_make_dirs(const char *path)
{
    char tmp[PATH_MAX];
    if (strlen(path) >= sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

int sys_write_text(const char *path, const char *text)
{
    sys_piece piece = {text, strlen(text)};
    return sys_write_file(path, &piece, 1, 0);
}

const char *sys_strerror(int err)
{
    switch (err) {
    case SYS_ENOTREG: return "not a regular file";
    case SYS_ETOOBIG: return "larger than cutune reads for this kind of file";
    default: return strerror(err);
    }
}

char *sys_canonical_path(const char *path)
{
    return realpath(path, NULL);
}

int sys_read_part(const char *path, size_t offset, void *dst, size_t size, size_t *got, size_t *file_size)
{
    *got = 0;
    *file_size = 0;
    int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    int rc = -1;
    if (fstat(fd, &st) != 0) {
        /* errno from fstat */
    } else if (S_ISDIR(st.st_mode)) {
        errno = EISDIR;
    } else if (!S_ISREG(st.st_mode)) {
        errno = SYS_ENOTREG;
    } else {
        *file_size = (size_t)st.st_size;
        int flags = fcntl(fd, F_GETFL);
        if (flags >= 0)
            fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
        rc = 0;
        while (*got < size && offset + *got < *file_size) {
            ssize_t n = pread(fd, (char *)dst + *got, size - *got, (off_t)(offset + *got));
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                rc = -1;
                break;
            }
            if (n == 0)
                break;
            *got += (size_t)n;
        }
    }
    int saved = errno;
    close(fd);
    errno = saved;
    return rc;
}

/* ---- sys_stream ----------------------------------------------------------------- */

/* The buffer's size: few write calls, little memory. */
#define STREAM_BUFFER ((size_t)1 << 16)

struct sys_stream {
    int fd;
    char *path, *tmp; /* path NULL: a descriptor's stream (nothing to rename) */
    unsigned flags;
    int err; /* the first failure's errno; 0: none */
    size_t used;
    char buf[STREAM_BUFFER];
};

/* Writes out what the buffer holds; keeps the first failure. */
static void stream_flush(sys_stream *s)
{
    if (s->err == 0 && s->used > 0 && write_all(s->fd, s->buf, s->used) != 0)
        s->err = errno ? errno : EIO;
    s->used = 0;
}

int sys_stream_open(sys_stream **out, const char *path, unsigned flags)
{
    *out = NULL;
    mode_t mode;
    if (replace_mode(path, &mode) < 0)
        return -1;
    sys_stream *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        free(s);
        errno = ENOMEM;
        return -1;
    }
    s->fd = create_beside(path, mode, &s->tmp);
    if (s->fd < 0) {
        int saved = errno;
        free(s->path);
        free(s);
        errno = saved;
        return -1;
    }
    s->flags = flags;
    *out = s;
    return 0;
}

int sys_stream_fd(sys_stream **out, int fd)
{
    *out = calloc(1, sizeof **out);
    if (!*out) {
        errno = ENOMEM;
        return -1;
    }
    (*out)->fd = fd;
    return 0;
}

int sys_stream_write(sys_stream *s, const void *data, size_t len)
{
    if (s->err == 0 && len >= STREAM_BUFFER) { /* large: straight through */
        stream_flush(s);
        if (s->err == 0 && write_all(s->fd, data, len) != 0)
            s->err = errno ? errno : EIO;
    } else if (s->err == 0) {
        if (s->used + len > STREAM_BUFFER)
            stream_flush(s);
        memcpy(s->buf + s->used, data, len);
        s->used += len;
    }
    if (s->err != 0) {
        errno = s->err;
        return -1;
    }
    return 0;
}

/* Frees the stream, removing its temporary when it has one. */
static void stream_free(sys_stream *s)
{
    if (s->path) {
        if (s->fd >= 0)
            close(s->fd);
        if (s->tmp)
            unlink(s->tmp);
    }
    free(s->tmp);
    free(s->path);
    free(s);
}

int sys_stream_commit(sys_stream *s)
{
    stream_flush(s);
    int err = s->err;
    if (!s->path) { /* a descriptor's stream: flushed is all */
        free(s);
        errno = err;
        return err ? -1 : 0;
    }
    if (err == 0 && !(s->flags & SYS_WRITE_NOSYNC) && fsync(s->fd) != 0)
        err = errno;
    if (close(s->fd) != 0 && err == 0)
        err = errno;
    s->fd = -1;
    if (err == 0 && rename(s->tmp, s->path) != 0)
        err = errno;
    if (err == 0) {
        free(s->tmp); /* renamed: nothing to remove */
        s->tmp = NULL;
        if (!(s->flags & SYS_WRITE_NOSYNC) && sync_folder(s->path) != 0)
            err = errno;
    }
    stream_free(s);
    errno = err;
    return err ? -1 : 0;
}

void sys_stream_abort(sys_stream *s)
{
    if (!s)
        return;
    int saved = errno;
    stream_free(s);
    errno = saved;
}
