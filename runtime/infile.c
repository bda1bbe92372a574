/* infile.c - initial contents from files (see infile.h). */
#include "infile.h"
#include "../base/err.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/sys.h"

enum { PIECE = 64 << 20 };

int infile_matches(data_type t, const npy_info *info, char *why, size_t size)
{
    static const char kinds[] =
        {[DT_HALF] = 'f',  [DT_BF16] = 0,     [DT_FLOAT] = 'f', [DT_DOUBLE] = 'f', [DT_INT8] = 'i',  [DT_UINT8] = 'u',
         [DT_INT16] = 'i', [DT_UINT16] = 'u', [DT_INT32] = 'i', [DT_UINT32] = 'u', [DT_INT64] = 'i', [DT_UINT64] = 'u'};
    char kind = kinds[t];
    int bytes = (int)data_size(t);
    if (!kind) {
        snprintf(why, size, "bf16 has no NumPy dtype; give a raw file");
        return -1;
    }
    if (!(info->kind == kind || (t == DT_UINT8 && info->kind == 'b')) || info->itemsize != bytes) {
        snprintf(why, size, "its elements are '%s', not '%c%d'", info->descr, kind, bytes);
        return -1;
    }
    if (info->byteorder == '>' && bytes > 1) {
        snprintf(why, size, "its elements are big-endian ('%s')", info->descr);
        return -1;
    }
    if (!npy_layout_is_c(info)) {
        snprintf(why, size, "it is in Fortran order");
        return -1;
    }
    return 0;
}

int infile_load(meas_gpu *g, CUdeviceptr dst, data_type t, size_t count, const char *path, bool npy)
{
    size_t elem = data_size(t), need, offset = 0, got, file_size;
    if (!data_bytes(t, count, &need)) {
        err_set(-1, "input file '%s': %zu elements of %zu bytes are more bytes than a buffer may have", path, count,
                elem);
        return -1;
    }
    unsigned char head[4096];
    if (sys_read_part(path, 0, head, sizeof head, &got, &file_size) < 0) {
        err_set(-1, "cannot read input file '%s': %s", path, sys_strerror(errno));
        return -1;
    }
    if (npy) {
        npy_info info;
        if (npy_parse(head, got, &info) < 0)
            return err_wrap(-1, "input file '%s'", path);
        char why[256];
        if (infile_matches(t, &info, why, sizeof why) < 0)
            return err_set(-1, "input file '%s': %s", path, why);
        if (info.count != count) {
            err_set(-1, "input file '%s' holds %llu elements; the buffer has %zu", path, (unsigned long long)info.count,
                    count);
            return -1;
        }
        offset = info.data_offset;
    } else if (file_size != need) {
        err_set(-1,
                "raw input file '%s' holds %zu bytes; the buffer needs %zu (%zu elements of %zu "
                "bytes)",
                path, file_size, need, count, elem);
        return -1;
    }
    if (file_size < offset || file_size - offset < need) {
        err_set(-1, "input file '%s' is truncated: %zu bytes of data, %zu needed", path,
                file_size > offset ? file_size - offset : 0, need);
        return -1;
    }
    size_t piece = need < PIECE ? need : PIECE;
    unsigned char *buf = malloc(piece ? piece : 1);
    if (!buf) {
        err_set(-1, "out of memory reading '%s'", path);
        return -1;
    }
    int rc = 0;
    for (size_t done = 0; done < need && rc == 0; done += piece) {
        size_t n = need - done < piece ? need - done : piece;
        int r = sys_read_part(path, offset + done, buf, n, &got, &file_size);
        if (r < 0 || got != n) {
            err_set(-1, "reading input file '%s': %s", path, r < 0 ? sys_strerror(errno) : "it became shorter");
            rc = -1;
        } else {
            rc = meas_upload(g, dst + done, buf, n);
        }
    }
    free(buf);
    return rc;
}
