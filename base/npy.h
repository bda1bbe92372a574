/* npy.h - the header of a NumPy .npy file (format versions 1.0, 2.0 and 3.0), and the
 * element types of data files.
 *
 * An .npy file is the magic "\x93NUMPY", a major and a minor version byte, the header's
 * length (2 bytes little-endian in version 1, 4 bytes in versions 2 and 3), and the
 * header: a Python dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (4,),}
 * (ASCII in versions 1 and 2, UTF-8 in 3) padded with spaces and ended by '\n'. The data
 * follows it. Only simple dtypes are read (a descr string, not a list of fields). Knows
 * nothing of cutune: callers compare what it finds with what they need. */
#ifndef CUTUNE_BASE_NPY_H
#define CUTUNE_BASE_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { NPY_MAX_DIMS = 32 };

typedef struct npy_info {
    int major, minor; /* format version */
    char descr[16];   /* as written: "<f4", "|u1", ... */
    char byteorder;   /* '<' little, '>' big, '|' not applicable, '=' native */
    char kind;        /* 'f' float, 'i' signed, 'u' unsigned, 'b' bool, ... */
    int itemsize;     /* bytes per element */
    bool fortran_order;
    int ndim;
    uint64_t shape[NPY_MAX_DIMS];
    uint64_t count;      /* elements: the product of the shape (1 for a 0-d array) */
    uint64_t data_bytes; /* count * itemsize: at most INT64_MAX (else npy_parse fails) */
    size_t data_offset;  /* where the data starts: magic, lengths and header */
} npy_info;

/* npy_parse: reads the header at the start of buf[0..len) (len may be the whole file or
 * just its beginning: the header must fit) into *out. Returns 0, or -1 with a message in
 * err_last saying what is wrong (not an .npy file, an unknown version, a truncated or
 * malformed header (a key given twice among them), a structured dtype, an element count
 * that overflows 64 bits, data bytes (count times itemsize) over INT64_MAX). */
int npy_parse(const unsigned char *buf, size_t len, npy_info *out);

/* npy_shape_text: the shape as Python writes it ("(3, 4)", "(5,)", "()") into buf. */
void npy_shape_text(const npy_info *info, char *buf, size_t size);

/* npy_layout_is_c: whether the data is laid out as in C order: not fortran_order, or
 * fortran_order with at most one dimension above 1 (then both orders agree). */
bool npy_layout_is_c(const npy_info *info);

#endif
