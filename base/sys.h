/* sys.h - the few operating-system services the stages share: a monotonic clock, the
 * one reader and the one writer of files.
 *
 * Every file cutune reads (specs, kernel sources and headers, results, journals, cache
 * entries) goes through sys_read_file, and every file it writes whole (results, headers,
 * CSV, T4, cache entries) through sys_write_file. Both keep the real errno on failure;
 * sys_strerror turns it into a message, including the two conditions POSIX has no errno
 * for (SYS_ENOTREG, SYS_ETOOBIG). */
#ifndef CUTUNE_BASE_SYS_H
#define CUTUNE_BASE_SYS_H

#include <stddef.h>

/* Errors beyond errno's own: a path that is not a regular file (a folder, a device, a
 * FIFO, a socket; or a symbolic link where a file is to be replaced), and a file over
 * the reader's size limit. Kept in errno like any other; sys_strerror knows them. */
enum { SYS_ENOTREG = 0x5e01, SYS_ETOOBIG = 0x5e02 };

/* Size limits, by what is read. A spec, a kernel source or one of its headers: 16 MiB
 * (the largest real kernel sources are a few hundred KiB). Results and journals: 1 GiB
 * (about a million variants). A compile-cache entry (metadata + cubin): 256 MiB. */
#define SYS_LIMIT_SOURCE ((size_t)16 << 20)
#define SYS_LIMIT_STORED ((size_t)1 << 30)
#define SYS_LIMIT_CACHE ((size_t)256 << 20)

/* sys_seconds: seconds on a monotonic clock (for durations, not dates). */
double sys_seconds(void);

/* sys_process_age: seconds since this process started (the kernel's start time, to its
 * clock tick, against the boot-time clock); -1 where that is not known. */
double sys_process_age(void);

/* sys_read_file: the whole of the regular file `path` as a NUL-terminated heap string
 * (caller frees), its length in *len when len is not NULL. At most `limit` bytes are
 * accepted. Returns NULL with errno set: the open's or read's own errno (ENOENT,
 * EACCES, EISDIR for a folder...), SYS_ENOTREG for any other non-regular file (it is
 * never read: /dev/zero, a FIFO), SYS_ETOOBIG past `limit`, ENOMEM when the buffer
 * cannot be had. Never blocks on a FIFO. */
char *sys_read_file(const char *path, size_t limit, size_t *len);

/* sys_read_part (data files): up to `size` bytes of the regular file `path`
 * from byte `offset` into dst; *got is how many were read (fewer at the end of the
 * file), *file_size the file's size. The same refusals as sys_read_file (a folder, a
 * FIFO, /dev/zero: never opened for reading), with no size limit. Returns 0, or -1
 * with errno. */
int sys_read_part(const char *path, size_t offset, void *dst, size_t size, size_t *got, size_t *file_size);

/* sys_piece: one run of bytes for sys_write_file (borrowed). */
typedef struct sys_piece {
    const void *data;
    size_t len;
} sys_piece;

/* Flags of sys_write_file. SYS_WRITE_NOSYNC: skip the fsyncs, for a cache whose entries
 * are checked when read (a lost or torn entry is a miss, not a wrong answer). */
enum { SYS_WRITE_NOSYNC = 1 };

/* sys_write_file: replaces `path` with the concatenation of the `n` pieces, atomically:
 * the bytes go to a new, unique temporary file in the target's folder (O_EXCL, so a
 * file or link planted there is never followed), are fsync'ed (file and folder, unless
 * SYS_WRITE_NOSYNC is in `flags`), and the
 * temporary is renamed over `path`; a reader sees the old file or the whole new one,
 * never half. An existing `path` that is not a regular file (a folder, a device node,
 * a symbolic link) is refused with SYS_ENOTREG and left alone. New files get mode 0666
 * less the umask (an existing file's mode is kept). Returns 0, or -1 with errno (ENOSPC
 * for a full disk...) and nothing changed at `path`. */
int sys_write_file(const char *path, const sys_piece *pieces, int n, unsigned flags);

/* sys_make_dirs: `path` and every folder above it made where missing (mkdir -p, mode
 * 0777 less the umask). A path of PATH_MAX or more is refused (ENAMETOOLONG), never
 * cut. Returns 0, or -1 with errno. */
int sys_make_dirs(const char *path);

/* sys_write_text: sys_write_file of one NUL-terminated string, synced. */
int sys_write_text(const char *path, const char *text);

/* sys_strerror: the message for an errno value, SYS_ENOTREG and SYS_ETOOBIG included
 * (static storage; never NULL). */
const char *sys_strerror(int err);

/* sys_canonical_path: `path` made absolute with every '.', '..' and symbolic link
 * resolved (realpath), as a heap string the caller frees; NULL with errno when the
 * path does not exist or cannot be resolved. Two spellings of one file give one
 * string. */
char *sys_canonical_path(const char *path);

/* ---- A file written as it is made (sys_stream) -------------------------------------
 * For outputs too large to hold whole (the T4 form of a million-variant run): the same
 * promise as sys_write_file, that `path` holds the old file or the whole new one, never
 * half, with the bytes written as they come. Each stream owns its temporary file
 * (beside `path`, O_EXCL) and a buffer; one thread uses it. */
typedef struct sys_stream sys_stream;

/* sys_stream_open: a stream that will replace `path` when committed. The same refusals
 * as sys_write_file (a folder: EISDIR; a device, FIFO or symbolic link at `path`:
 * SYS_ENOTREG; an empty path: ENOENT), checked before anything is created; `flags` as
 * sys_write_file's. 0 with *out, or -1 with errno and *out NULL. */
int sys_stream_open(sys_stream **out, const char *path, unsigned flags);

/* sys_stream_fd: a stream over the open descriptor `fd` (standard output: 1), written
 * as it goes; nothing is renamed, and a failure cannot take back what was written. The
 * descriptor is not closed. 0 with *out, or -1 (ENOMEM). */
int sys_stream_fd(sys_stream **out, int fd);

/* sys_stream_write: appends `len` bytes. 0, or -1 with errno (ENOSPC: a full disk or
 * /dev/full; EPIPE...); after a failure every later write fails again with that errno,
 * so a writer may check only at the end (at commit). */
int sys_stream_write(sys_stream *s, const void *data, size_t len);

/* sys_stream_commit: flushes the stream and, for one that replaces a path, syncs it
 * (unless SYS_WRITE_NOSYNC), closes it and renames it over the path; frees s. 0, or -1
 * with errno (the first failure of any write, or of this step): the temporary removed,
 * `path` as it was. */
int sys_stream_commit(sys_stream *s);

/* sys_stream_abort: drops the stream: its temporary removed, `path` as it was; frees
 * s. NULL is a no-op. */
void sys_stream_abort(sys_stream *s);

#endif
