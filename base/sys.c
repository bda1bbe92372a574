/* sys.c - clock and file reading (see sys.h). */
#include "sys.h"

#include <errno.h>
#include <stdio.h>
#include <time.h>

#include "strbuf.h"

double sys_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

char *sys_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    strbuf sb = STRBUF_INIT;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sb_addn(&sb, buf, n);
    int failed = ferror(f);
    fclose(f);
    if (failed || !sb_ok(&sb)) {
        sb_free(&sb);
        errno = failed ? EIO : ENOMEM;
        return NULL;
    }
    if (len)
        *len = sb.len;
    return sb_steal(&sb);
}
