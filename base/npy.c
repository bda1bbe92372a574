/* npy.c - the .npy header (see npy.h). */
#include "npy.h"

#include "err.h"

#include <stdio.h>
#include <string.h>

/* A cursor over the header dict's text. */
typedef struct cur {
    const char *p, *end;
} cur;

static void skip_blanks(cur *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

static bool eat(cur *c, char ch)
{
    skip_blanks(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return true;
    }
    return false;
}

/* A Python string literal in ' or " quotes (no escapes: dtype names and keys have none)
 * into buf. */
static bool read_string(cur *c, char *buf, size_t size)
{
    skip_blanks(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
        return false;
    char q = *c->p++;
    size_t n = 0;
    while (c->p < c->end && *c->p != q) {
        if (*c->p == '\\' || *c->p == '\n' || n + 1 >= size)
            return false;
        buf[n++] = *c->p++;
    }
    if (c->p >= c->end)
        return false;
    c->p++;
    buf[n] = '\0';
    return true;
}

/* A non-negative integer (Python 2's 3L accepted) into *out; false on overflow. */
static bool read_uint(cur *c, uint64_t *out)
{
    skip_blanks(c);
    if (c->p >= c->end || *c->p < '0' || *c->p > '9')
        return false;
    uint64_t v = 0;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
        unsigned d = (unsigned)(*c->p - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
        c->p++;
    }
    if (c->p < c->end && *c->p == 'L')
        c->p++;
    *out = v;
    return true;
}

static bool read_word(cur *c, const char *w)
{
    skip_blanks(c);
    size_t n = strlen(w);
    if ((size_t)(c->end - c->p) >= n && memcmp(c->p, w, n) == 0) {
        c->p += n;
        return true;
    }
    return false;
}

/* The descr: byte order, kind, item size ("<f4"). */
static int parse_descr(npy_info *out)
{
    const char *d = out->descr;
    if (!*d || !strchr("<>|=", d[0]) || !d[1]) {
        err_set(-1, "dtype '%s' is not a simple type such as '<f4'", d);
        return -1;
    }
    out->byteorder = d[0];
    out->kind = d[1];
    int size = 0;
    for (const char *p = d + 2; *p; p++) {
        if (*p < '0' || *p > '9' || size > 1000) {
            err_set(-1, "dtype '%s' is not a simple type such as '<f4'", d);
            return -1;
        }
        size = size * 10 + (*p - '0');
    }
    if (size <= 0) {
        err_set(-1, "dtype '%s' has no element size", d);
        return -1;
    }
    out->itemsize = size;
    return 0;
}

int npy_parse(const unsigned char *buf, size_t len, npy_info *out)
{
    memset(out, 0, sizeof *out);
    if (len < 6 || memcmp(buf, "\x93NUMPY", 6) != 0) {
        err_set(-1, "not an .npy file (it does not start with \\x93NUMPY)");
        return -1;
    }
    if (len < 10) {
        err_set(-1, "truncated .npy header (%zu bytes)", len);
        return -1;
    }
    out->major = buf[6];
    out->minor = buf[7];
    size_t hlen, start;
    if (out->major == 1) {
        hlen = (size_t)buf[8] | (size_t)buf[9] << 8;
        start = 10;
    } else if (out->major == 2 || out->major == 3) {
        if (len < 12) {
            err_set(-1, "truncated .npy header (%zu bytes)", len);
            return -1;
        }
        hlen = (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 | (size_t)buf[11] << 24;
        start = 12;
    } else {
        err_set(-1, ".npy format version %d.%d is not known (1.0, 2.0 and 3.0 are)", out->major, out->minor);
        return -1;
    }
    if (hlen > len - start) {
        err_set(-1, "truncated .npy header: it announces %zu bytes, %zu follow", hlen, len - start);
        return -1;
    }
    out->data_offset = start + hlen;
    cur c = {(const char *)buf + start, (const char *)buf + start + hlen};
    bool have_descr = false, have_order = false, have_shape = false;
    if (!eat(&c, '{'))
        goto malformed;
    for (;;) {
        if (eat(&c, '}'))
            break;
        char key[32];
        if (!read_string(&c, key, sizeof key) || !eat(&c, ':'))
            goto malformed;
        /* NumPy writes each key once; a second one (a tampered header) would leave a
         * shape of both tuples' dimensions with the count of the last: refused. */
        if ((strcmp(key, "descr") == 0 && have_descr) || (strcmp(key, "fortran_order") == 0 && have_order) ||
            (strcmp(key, "shape") == 0 && have_shape)) {
            err_set(-1, "malformed .npy header: the key '%s' appears twice", key);
            return -1;
        }
        if (strcmp(key, "descr") == 0) {
            skip_blanks(&c);
            if (c.p < c.end && *c.p == '[') {
                err_set(-1, "a structured dtype (a list of fields) cannot be an argument's elements");
                return -1;
            }
            if (!read_string(&c, out->descr, sizeof out->descr))
                goto malformed;
            have_descr = true;
        } else if (strcmp(key, "fortran_order") == 0) {
            if (read_word(&c, "True"))
                out->fortran_order = true;
            else if (!read_word(&c, "False"))
                goto malformed;
            have_order = true;
        } else if (strcmp(key, "shape") == 0) {
            if (!eat(&c, '('))
                goto malformed;
            out->count = 1;
            while (!eat(&c, ')')) {
                uint64_t d;
                if (out->ndim == NPY_MAX_DIMS) {
                    err_set(-1, "the shape has more than %d dimensions", NPY_MAX_DIMS);
                    return -1;
                }
                if (!read_uint(&c, &d))
                    goto malformed;
                if (d && out->count > UINT64_MAX / d) {
                    err_set(-1, "the shape's element count overflows 64 bits");
                    return -1;
                }
                out->shape[out->ndim++] = d;
                out->count *= d;
                if (!eat(&c, ',')) {
                    if (!eat(&c, ')'))
                        goto malformed;
                    break;
                }
            }
            have_shape = true;
        } else {
            goto malformed;
        }
        if (!eat(&c, ',')) {
            if (!eat(&c, '}'))
                goto malformed;
            break;
        }
    }
    if (!have_descr || !have_order || !have_shape) {
        err_set(-1, "malformed .npy header: it lacks '%s'",
                !have_descr   ? "descr"
                : !have_order ? "fortran_order"
                              : "shape");
        return -1;
    }
    if (parse_descr(out) < 0)
        return -1;
    /* The data's size: a shape such as (2**62,) of 8-byte elements has a count that
     * fits 64 bits and bytes that do not, and a wrapped product would let a file of a
     * few bytes pass for one that holds them all. */
    if (__builtin_mul_overflow(out->count, (uint64_t)out->itemsize, &out->data_bytes) ||
        out->data_bytes > (uint64_t)INT64_MAX) {
        char shape[160];
        npy_shape_text(out, shape, sizeof shape);
        err_set(-1, "shape %s of %d-byte elements is more than %lld bytes of data", shape, out->itemsize,
                (long long)INT64_MAX);
        return -1;
    }
    return 0;
malformed:
    err_set(-1,
            "malformed .npy header (at byte %zu): want {'descr': ..., 'fortran_order': ..., "
            "'shape': (...)}",
            (size_t)(c.p - (const char *)buf));
    return -1;
}

void npy_shape_text(const npy_info *info, char *buf, size_t size)
{
    size_t n = 0;
    n += (size_t)snprintf(buf, size, "(");
    for (int i = 0; i < info->ndim && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%llu", i ? ", " : "", (unsigned long long)info->shape[i]);
    if (n < size)
        snprintf(buf + n, size - n, "%s)", info->ndim == 1 ? "," : "");
}

bool npy_layout_is_c(const npy_info *info)
{
    if (!info->fortran_order)
        return true;
    int big = 0;
    for (int i = 0; i < info->ndim; i++)
        big += info->shape[i] > 1;
    return big <= 1;
}
