/* infile.h - an input buffer's initial contents read from a file (raw
 * elements, or a NumPy .npy file) and uploaded to the device.
 *
 * The spec's checker already compared the file with the arg when it could (compiler/
 * sema_data.c); the file is read again here, in the GPU worker, and checked again (it
 * may have changed, and a count that depends on params is only known now). */
#ifndef CUTUNE_RUNTIME_INFILE_H
#define CUTUNE_RUNTIME_INFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "../base/npy.h"
#include "data.h"
#include "measure.h"

/* infile_matches: whether an .npy file described by `info` holds elements of type t in
 * C order, little-endian (bf16 never: NumPy has no such dtype). 0, or -1 with why. */
int infile_matches(data_type t, const npy_info *info, char *why, size_t size);

/* infile_load: `count` elements of type t from `path` (an .npy file when `npy`, else raw
 * elements, exactly count * size bytes) into the device buffer dst, in pieces of at
 * most 64 MiB through host memory. 0, or -1 with err_last set naming the file (missing, not a
 * regular file, short, of another type or count). */
int infile_load(meas_gpu *g, CUdeviceptr dst, data_type t, size_t count, const char *path, bool npy);

#endif
