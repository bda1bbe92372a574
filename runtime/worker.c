/* worker.c - the one codec of the workers' messages (worker.h): frames built and read,
 * and each message's fields listed once, in a table that encoding and decoding both
 * walk. Pure: no pipe, no process (runtime/worker_proc.c sends and receives the frames
 * and runs the workers). A frame owns its buffer; decoded strings live in the caller's
 * arena. */
#include "worker.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- frames ------------------------------------------------------------------------ */

void wk_frame_reset(wk_frame *f)
{
    sb_reset(&f->buf);
    f->at = 0;
    f->bad = false;
}

void wk_frame_free(wk_frame *f)
{
    sb_free(&f->buf);
    f->at = 0;
    f->bad = false;
}

static void put_u64(wk_frame *f, uint64_t v)
{
    sb_addn(&f->buf, (const char *)&v, 8);
}
static void put_f64(wk_frame *f, double v)
{
    sb_addn(&f->buf, (const char *)&v, 8);
}
static void put_bytes(wk_frame *f, const void *p, size_t n)
{
    put_u64(f, n);
    if (n)
        sb_addn(&f->buf, p, n);
}
static void put_str(wk_frame *f, const char *s)
{
    put_bytes(f, s ? s : "", s ? strlen(s) : 0);
}

static uint64_t get_u64(wk_frame *f)
{
    uint64_t v = 0;
    if (f->bad || f->buf.len < 8 || f->at > f->buf.len - 8) {
        f->bad = true;
        return 0;
    }
    memcpy(&v, f->buf.data + f->at, 8);
    f->at += 8;
    return v;
}
static double get_f64(wk_frame *f)
{
    uint64_t bits = get_u64(f);
    double v;
    memcpy(&v, &bits, 8);
    return v;
}
/* The next length-prefixed bytes, copied into `a` with a NUL after them; NULL (and
 * f->bad) when the frame is short or `a` is out of memory. */
static char *get_bytes(wk_frame *f, arena *a, size_t *size)
{
    uint64_t n = get_u64(f);
    if (f->bad || n > f->buf.len - f->at) {
        f->bad = true;
        return NULL;
    }
    char *s = arena_strndup(a, f->buf.data + f->at, (size_t)n);
    if (!s) {
        f->bad = true;
        return NULL;
    }
    f->at += n;
    if (size)
        *size = (size_t)n;
    return s;
}

/* ---- messages: one table of fields per message (worker.h: wk_field) ----------------- */

static const wk_field setup_fields[] = {
    WK_F(WK_BOOL, wk_setup, ok),       WK_F(WK_F64, wk_setup, ref_seconds), WK_F(WK_STR, wk_setup, message),
    WK_F(WK_STR, wk_setup, reference), WK_F(WK_INT, wk_setup, status),      WK_F(WK_F64, wk_setup, device_s),
    WK_F(WK_F64, wk_setup, compile_s), WK_F(WK_F64, wk_setup, inputs_s),    WK_F(WK_F64, wk_setup, reference_s),
};

static const wk_field request_fields[] = {
    WK_F(WK_U64, wk_request, ordinal),
    WK_F(WK_I64, wk_request, block[0]),
    WK_F(WK_I64, wk_request, block[1]),
    WK_F(WK_I64, wk_request, block[2]),
    WK_F(WK_I64, wk_request, grid[0]),
    WK_F(WK_I64, wk_request, grid[1]),
    WK_F(WK_I64, wk_request, grid[2]),
    WK_F(WK_I64, wk_request, smem_bytes),
    WK_FN(WK_VALUES, wk_request, values, nvalues),
    WK_F(WK_STR, wk_request, symbol),
    WK_FN(WK_BYTES, wk_request, cubin, cubin_size),
    WK_F(WK_BOOL, wk_request, have_best),
    WK_F(WK_F64, wk_request, best_objective),
    WK_F(WK_BOOL, wk_request, final),
    WK_F(WK_BOOL, wk_request, profile),
    WK_F(WK_INT, wk_request, samples),
    WK_F(WK_F64, wk_request, best_range),
};

/* compile_job and the compile worker's answer (runtime/pool's worker processes). */
static const wk_field compile_job_fields[] = {
    WK_F(WK_STR, compile_job, source_name),
    WK_F(WK_STR, compile_job, source),
    WK_F(WK_STR, compile_job, name_expression),
    WK_FN(WK_STRS, compile_job, options, noptions),
    WK_F(WK_STR, compile_job, arch),
    WK_FN(WK_STRS, compile_job, header_names, nheaders),
    WK_FN(WK_STRS, compile_job, header_texts, nheader_texts),
};

static const wk_field compiled_fields[] = {
    WK_F(WK_BOOL, wk_compiled, nvrtc_ran),
    WK_F(WK_STR, wk_compiled, error),
    WK_F(WK_BOOL, wk_compiled, out.ok),
    WK_F(WK_STR, wk_compiled, out.log),
    WK_F(WK_STR, wk_compiled, out.lowered_name),
    WK_FN(WK_BYTES, wk_compiled, out.cubin, out.cubin_size),
    WK_F(WK_BOOL, wk_compiled, out.has_resources),
    WK_F(WK_INT, wk_compiled, out.res.registers),
    WK_F(WK_INT, wk_compiled, out.res.barriers),
    WK_F(WK_I64, wk_compiled, out.res.static_smem),
    WK_F(WK_I64, wk_compiled, out.res.stack_frame),
    WK_F(WK_I64, wk_compiled, out.res.spill_stores),
    WK_F(WK_I64, wk_compiled, out.res.spill_loads),
    WK_F(WK_F64, wk_compiled, out.seconds),
};

#define AT(msg, off, type) (*(type *)((char *)(msg) + (off)))
#define CAT(msg, off, type) (*(const type *)((const char *)(msg) + (off)))

/* count typed values: each its type letter, then an integer, a double or a string. */
static void put_values(wk_frame *f, const wk_value *v, int count)
{
    put_u64(f, (uint64_t)(count > 0 ? count : 0));
    for (int j = 0; j < count; j++) {
        put_u64(f, (uint64_t)(unsigned char)v[j].type);
        if (v[j].type == 'f')
            put_f64(f, v[j].f);
        else if (v[j].type == 's')
            put_str(f, v[j].s);
        else
            put_u64(f, (uint64_t)v[j].i);
    }
}

void wk_encode(wk_frame *f, const wk_field *fs, size_t n, const void *msg)
{
    for (size_t i = 0; i < n; i++) {
        const wk_field *d = &fs[i];
        switch (d->k) {
        case WK_U64: put_u64(f, CAT(msg, d->off, uint64_t)); break;
        case WK_I64: put_u64(f, (uint64_t)CAT(msg, d->off, int64_t)); break;
        case WK_INT: put_u64(f, (uint64_t)(int64_t)CAT(msg, d->off, int)); break;
        case WK_BOOL: put_u64(f, CAT(msg, d->off, bool) ? 1 : 0); break;
        case WK_F64: put_f64(f, CAT(msg, d->off, double)); break;
        case WK_OUTCOME: put_u64(f, (uint64_t)CAT(msg, d->off, outcome)); break;
        case WK_STR: put_str(f, CAT(msg, d->off, const char *)); break;
        case WK_BYTES: put_bytes(f, CAT(msg, d->off, const unsigned char *), CAT(msg, d->n, size_t)); break;
        case WK_STRS: {
            int count = CAT(msg, d->n, int);
            const char *const *s = CAT(msg, d->off, const char *const *);
            put_u64(f, (uint64_t)(count > 0 ? count : 0));
            for (int j = 0; j < count; j++)
                put_str(f, s[j]);
            break;
        }
        case WK_F64S: {
            int count = CAT(msg, d->n, int);
            const double *v = CAT(msg, d->off, const double *);
            put_u64(f, (uint64_t)(count > 0 ? count : 0));
            for (int j = 0; j < count; j++)
                put_f64(f, v[j]);
            break;
        }
        case WK_VALUES: put_values(f, CAT(msg, d->off, const wk_value *), CAT(msg, d->n, int)); break;
        }
    }
}

/* The count of an array, checked against WK_MAX_ARRAY and what the frame can hold. */
static int get_count(wk_frame *f)
{
    uint64_t c = get_u64(f);
    if (f->bad || c > WK_MAX_ARRAY || c > (f->buf.len - f->at) / 8) {
        f->bad = true;
        return 0;
    }
    return (int)c;
}

/* put_values' values, in `a` (*count of them); NULL with f->bad set when the frame is
 * short, a type is not one of the four or a boolean is not 0 or 1. */
static const wk_value *get_values(wk_frame *f, arena *a, int *count)
{
    *count = get_count(f);
    wk_value *v = arena_alloc(a, sizeof(wk_value) * (size_t)(*count + 1));
    if (!v)
        f->bad = true;
    for (int j = 0; v && j < *count && !f->bad; j++) {
        uint64_t type = get_u64(f);
        v[j] = (wk_value){(char)type, 0, 0, NULL};
        if (type == 'f')
            v[j].f = get_f64(f);
        else if (type == 's')
            v[j].s = get_bytes(f, a, NULL);
        else if (type == 'i' || type == 'b')
            v[j].i = (int64_t)get_u64(f);
        if ((type != 'i' && type != 'f' && type != 'b' && type != 's') || (type == 'b' && (uint64_t)v[j].i > 1))
            f->bad = true;
    }
    return f->bad ? NULL : v;
}

int wk_decode(wk_frame *f, arena *a, const wk_field *fs, size_t n, void *msg)
{
    f->at = 0;
    f->bad = false;
    for (size_t i = 0; i < n && !f->bad; i++) {
        const wk_field *d = &fs[i];
        switch (d->k) {
        case WK_U64: AT(msg, d->off, uint64_t) = get_u64(f); break;
        case WK_I64: AT(msg, d->off, int64_t) = (int64_t)get_u64(f); break;
        case WK_INT: AT(msg, d->off, int) = (int)(int64_t)get_u64(f); break;
        case WK_BOOL: AT(msg, d->off, bool) = get_u64(f) != 0; break;
        case WK_F64: AT(msg, d->off, double) = get_f64(f); break;
        case WK_OUTCOME: {
            uint64_t o = get_u64(f);
            AT(msg, d->off, outcome) = o < OUTCOME_COUNT ? (outcome)o : OUTCOME_NOT_RUN;
            break;
        }
        case WK_STR: AT(msg, d->off, const char *) = get_bytes(f, a, NULL); break;
        case WK_BYTES: {
            size_t size = 0;
            AT(msg, d->off, const unsigned char *) = (const unsigned char *)get_bytes(f, a, &size);
            AT(msg, d->n, size_t) = size;
            break;
        }
        case WK_STRS: {
            int count = get_count(f);
            const char **s = arena_alloc(a, sizeof(char *) * (size_t)(count + 1));
            if (!s)
                f->bad = true;
            for (int j = 0; s && j < count && !f->bad; j++)
                s[j] = get_bytes(f, a, NULL);
            AT(msg, d->off, const char *const *) = s;
            AT(msg, d->n, int) = count;
            break;
        }
        case WK_F64S: {
            int count = get_count(f);
            double *v = arena_alloc(a, sizeof(double) * (size_t)(count + 1));
            if (!v)
                f->bad = true;
            for (int j = 0; v && j < count && !f->bad; j++)
                v[j] = get_f64(f);
            AT(msg, d->off, const double *) = v;
            AT(msg, d->n, int) = count;
            break;
        }
        case WK_VALUES: {
            int count;
            AT(msg, d->off, const wk_value *) = get_values(f, a, &count);
            AT(msg, d->n, int) = count;
            break;
        }
        }
    }
    return f->bad || f->at != f->buf.len ? -1 : 0;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

void wk_encode_setup(wk_frame *f, const wk_setup *m)
{
    wk_encode(f, setup_fields, COUNT(setup_fields), m);
}
int wk_decode_setup(wk_frame *f, arena *a, wk_setup *m)
{
    return wk_decode(f, a, setup_fields, COUNT(setup_fields), m);
}
void wk_encode_request(wk_frame *f, const wk_request *m)
{
    wk_encode(f, request_fields, COUNT(request_fields), m);
}
int wk_decode_request(wk_frame *f, arena *a, wk_request *m)
{
    return wk_decode(f, a, request_fields, COUNT(request_fields), m);
}

void wk_encode_compile_job(wk_frame *f, const compile_job *m)
{
    wk_encode(f, compile_job_fields, COUNT(compile_job_fields), m);
}
int wk_decode_compile_job(wk_frame *f, arena *a, compile_job *m)
{
    int rc = wk_decode(f, a, compile_job_fields, COUNT(compile_job_fields), m);
    return rc == 0 && m->nheaders != m->nheader_texts ? -1 : rc; /* a name for each text */
}
void wk_encode_compiled(wk_frame *f, const wk_compiled *m)
{
    wk_encode(f, compiled_fields, COUNT(compiled_fields), m);
}
int wk_decode_compiled(wk_frame *f, arena *a, wk_compiled *m)
{
    return wk_decode(f, a, compiled_fields, COUNT(compiled_fields), m);
}

void wk_encode_blob(wk_frame *f, const void *p, size_t size)
{
    put_bytes(f, p, size);
}

int wk_decode_blob(wk_frame *f, void *out, size_t size)
{
    f->at = 0;
    f->bad = false;
    uint64_t n = get_u64(f);
    if (f->bad || n != size || f->buf.len - f->at != size)
        return -1;
    memcpy(out, f->buf.data + f->at, size);
    f->at += size;
    return 0;
}
