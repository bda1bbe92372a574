/* sys.h - the few operating-system services the stages share: a monotonic clock and
 * reading a whole file. */
#ifndef CUTUNE_BASE_SYS_H
#define CUTUNE_BASE_SYS_H

#include <stddef.h>

/* sys_seconds: seconds on a monotonic clock (for durations, not dates). */
double sys_seconds(void);

/* sys_read_file: the whole file as a NUL-terminated heap string (caller frees), its
 * length in *len when len is not NULL; NULL with errno set when it cannot be read. */
char *sys_read_file(const char *path, size_t *len);

#endif
