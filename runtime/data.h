/* data.h - the host side of kernel arguments: typed element buffers, their initial
 * contents, and comparing an output with a reference.
 *
 * Initial contents are a pure function of (seed, index), so every variant sees the
 * same input whatever order it runs in and whatever size the buffer has. */
#ifndef CUTUNE_RUNTIME_DATA_H
#define CUTUNE_RUNTIME_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum data_type {
    DT_HALF,
    DT_BF16,
    DT_FLOAT,
    DT_DOUBLE,
    DT_INT8,
    DT_UINT8,
    DT_INT16,
    DT_UINT16,
    DT_INT32,
    DT_UINT32,
    DT_INT64,
    DT_UINT64
} data_type;

/* data_size: bytes per element. data_is_float: a floating-point type. */
size_t data_size(data_type t);

/* data_bytes: the bytes of `count` elements of type t into *bytes; false when the
 * product does not fit a size_t (it would wrap to a small buffer). Every buffer size
 * on the device side is computed here. */
bool data_bytes(data_type t, size_t count, size_t *bytes);
bool data_is_float(data_type t);

typedef enum data_fill_kind {
    FILL_ZEROS,
    FILL_CONSTANT,
    FILL_RANDOM,
    FILL_RAMP,
    FILL_FILE, /* read from a file by runtime/infile.c (bench_arg.file) */
    FILL_NORMAL
} data_fill_kind;

typedef struct data_fill_spec {
    data_fill_kind kind;
    uint64_t seed; /* FILL_RANDOM */
    double a, b;   /* FILL_RANDOM: min, max; FILL_RAMP: start, step; FILL_CONSTANT: a;
                      FILL_NORMAL: mean, stddev */
} data_fill_spec;

/* data_normal: element i of normal(seed, mean, stddev) before rounding to its type:
 * mean + stddev * z, z from the Box-Muller transform of the uniforms of elements 2i and
 * 2i + 1 of stream `seed`, z = sqrt(-2 log(1 - u1)) cos(2 pi u2), with log and cos made
 * of + - * / alone (so the fill kernel computes the same bits: runtime/fill.c). */
double data_normal(uint64_t seed, uint64_t i, double mean, double stddev);

/* data_fill: writes `count` elements of type t into dst. Random floats are uniform in
 * [min, max) computed in double, then rounded to nearest (even) into the element type,
 * so a float or half element may equal max; random integers are uniform over the whole
 * numbers from ceil(min) to floor(max), both included (docs/language.md, section 13).
 * FILL_FILE is not made here (runtime/infile.c reads it): dst is left as it is. */
void data_fill(void *dst, data_type t, size_t count, const data_fill_spec *f);

/* data_get / data_set: element i as a double (integers beyond 2^53 lose precision;
 * data_set truncates a double towards zero into an integer type through 64 bits, so an
 * out-of-range value wraps modulo 2^bits, NaN is 0, beyond 64 bits saturates;
 * which verification tolerates only with an atol). */
double data_get(const void *buf, data_type t, size_t i);
void data_set(void *buf, data_type t, size_t i, double v);

typedef struct data_mismatch {
    size_t count;         /* elements outside the tolerance (NaN counts) */
    size_t first;         /* the first such element's index */
    double got, want;     /* its values */
    double max_abs_error; /* over all elements */
} data_mismatch;

/* data_compare: compares `got` with `want` element by element: an element passes when
 * |got - want| <= atol + rtol * |want|; a NaN never passes (nor does an infinity that
 * differs). Fills *m; returns true when every element passes. */
bool data_compare(const void *got, const void *want, data_type t, size_t count, double atol, double rtol,
                  data_mismatch *m);

#endif
