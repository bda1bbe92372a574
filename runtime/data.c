/* data.c - element buffers, initial contents and comparison (see data.h). */
#include "data.h"

#include <math.h>
#include <string.h>

size_t data_size(data_type t)
{
    static const size_t sizes[] = {2, 2, 4, 8, 1, 1, 2, 2, 4, 4, 8, 8};
    return sizes[t];
}

bool data_is_float(data_type t)
{
    return t <= DT_DOUBLE;
}

bool data_bytes(data_type t, size_t count, size_t *bytes)
{
    return !__builtin_mul_overflow(count, data_size(t), bytes);
}

/* A counter-based generator: element i of stream `seed` is a function of both alone. */
static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static double uniform(uint64_t seed, size_t i)
{
    return (double)(mix(mix(seed) ^ (uint64_t)i) >> 11) * 0x1.0p-53; /* [0, 1) */
}

/* The natural log of x in (0, 1], of + - * / alone: x = m 2^e with m in [sqrt(1/2),
 * sqrt(2)), log m = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172, its series to s^25
 * (the next term is below 1e-20). runtime/fill.c's kernel has the same lines. */
static double plain_log(double x)
{
    int e = 0;
    double m = frexp(x, &e);
    if (m < 0.70710678118654752440) {
        m *= 2.0;
        e--;
    }
    double s = (m - 1.0) / (m + 1.0), s2 = s * s, sum = 0.0;
    for (int k = 12; k >= 0; k--)
        sum = sum * s2 + 1.0 / (double)(2 * k + 1);
    return 2.0 * s * sum + (double)e * 0.69314718055994530942;
}

/* cos(2 pi u) for u in [0, 1), of + - * / alone: the quadrant from 4u, then the Taylor
 * series of cos or sin of the rest (under pi/2) to the 22nd power (the next term is
 * below 1e-19). runtime/fill.c's kernel has the same lines. */
static double plain_cos_2pi(double u)
{
    double w = 4.0 * u;
    int q = (int)w;
    double a = (w - (double)q) * 1.57079632679489661923, a2 = a * a, c = 1.0, sn = 1.0;
    for (int n = 11; n >= 1; n--) {
        c = 1.0 - a2 / (double)((2 * n - 1) * (2 * n)) * c;
        sn = 1.0 - a2 / (double)((2 * n) * (2 * n + 1)) * sn;
    }
    sn *= a;
    return q == 0 ? c : q == 1 ? -sn : q == 2 ? -c : sn;
}

double data_normal(uint64_t seed, uint64_t i, double mean, double stddev)
{
    double u1 = 1.0 - uniform(seed, (size_t)(2 * i)), u2 = uniform(seed, (size_t)(2 * i + 1));
    return mean + stddev * (sqrt(-2.0 * plain_log(u1)) * plain_cos_2pi(u2));
}

static uint16_t float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    int32_t exp = (int32_t)((x >> 23) & 0xFF) - 127 + 15;
    uint32_t mant = x & 0x7FFFFFu;
    if (((x >> 23) & 0xFF) == 0xFF) /* inf or NaN */
        return (uint16_t)(sign | 0x7C00u | (mant ? 0x200u : 0));
    if (exp >= 31)
        return (uint16_t)(sign | 0x7C00u);
    if (exp <= 0) { /* subnormal or zero */
        if (exp < -10)
            return (uint16_t)sign;
        mant |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - exp);
        uint32_t half = mant >> shift;
        uint32_t rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
        if (rem > mid || (rem == mid && (half & 1)))
            half++;
        return (uint16_t)(sign | half);
    }
    uint32_t half = sign | ((uint32_t)exp << 10) | (mant >> 13);
    uint32_t rem = mant & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (half & 1)))
        half++; /* may carry into the exponent: still correct */
    return (uint16_t)half;
}

static float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1F, mant = h & 0x3FFu, x;
    if (exp == 0x1F) {
        x = sign | 0x7F800000u | (mant << 13);
    } else if (exp == 0) {
        if (!mant) {
            x = sign;
        } else { /* normalise a subnormal */
            int e = -1;
            do {
                mant <<= 1;
                e++;
            } while (!(mant & 0x400u));
            x = sign | ((uint32_t)(127 - 15 - e) << 23) | ((mant & 0x3FFu) << 13);
        }
    } else {
        x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}

static uint16_t float_to_bf16(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7F800000u) == 0x7F800000u && (x & 0x7FFFFFu))
        return (uint16_t)((x >> 16) | 0x40u); /* keep NaN a NaN */
    x += 0x7FFFu + ((x >> 16) & 1);           /* round to nearest even */
    return (uint16_t)(x >> 16);
}

static float bf16_to_float(uint16_t b)
{
    uint32_t x = (uint32_t)b << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
}

/* One element of type T at p, as a double (memcpy: p need not be aligned). */
#define DATA_LOAD(T) \
    do { \
        T v_; \
        memcpy(&v_, p, sizeof v_); \
        return (double)v_; \
    } while (0)

double data_get(const void *buf, data_type t, size_t i)
{
    const unsigned char *p = (const unsigned char *)buf + i * data_size(t);
    uint16_t h;
    switch (t) {
    case DT_HALF: memcpy(&h, p, 2); return half_to_float(h);
    case DT_BF16: memcpy(&h, p, 2); return bf16_to_float(h);
    case DT_FLOAT: DATA_LOAD(float);
    case DT_DOUBLE: DATA_LOAD(double);
    case DT_INT8: DATA_LOAD(int8_t);
    case DT_UINT8: DATA_LOAD(uint8_t);
    case DT_INT16: DATA_LOAD(int16_t);
    case DT_UINT16: DATA_LOAD(uint16_t);
    case DT_INT32: DATA_LOAD(int32_t);
    case DT_UINT32: DATA_LOAD(uint32_t);
    case DT_INT64: DATA_LOAD(int64_t);
    case DT_UINT64: DATA_LOAD(uint64_t);
    }
    return 0;
}
#undef DATA_LOAD

/* An integer's bits from a double: truncated towards zero through 64 bits, so that a
 * value outside the element type's range wraps modulo 2^bits (a negative value into an
 * unsigned type, say), the same on the host and in runtime/fill.c's kernel. C leaves a
 * direct out-of-range conversion undefined: x86 and the GPU disagree on it. NaN is 0;
 * beyond 64 bits saturates. */
static uint64_t int_bits(double v)
{
    if (!(v == v))
        return 0;
    if (v >= 18446744073709551615.0)
        return UINT64_MAX;
    if (v >= 9223372036854775808.0)
        return (uint64_t)v;
    if (v <= -9223372036854775808.0)
        return (uint64_t)1 << 63;
    return (uint64_t)(int64_t)v;
}

void data_set(void *buf, data_type t, size_t i, double v)
{
    unsigned char *p = (unsigned char *)buf + i * data_size(t);
    if (!data_is_float(t)) { /* the low bytes of the 64-bit pattern (little-endian, as CUDA) */
        uint64_t bits = int_bits(v);
        unsigned char le[8];
        for (int k = 0; k < 8; k++)
            le[k] = (unsigned char)(bits >> (8 * k));
        memcpy(p, le, data_size(t));
        return;
    }
    switch (t) {
    case DT_HALF: {
        uint16_t h = float_to_half((float)v);
        memcpy(p, &h, 2);
        break;
    }
    case DT_BF16: {
        uint16_t h = float_to_bf16((float)v);
        memcpy(p, &h, 2);
        break;
    }
    case DT_FLOAT: {
        float x = (float)v;
        memcpy(p, &x, 4);
        break;
    }
    case DT_DOUBLE: memcpy(p, &v, 8); break;
    default: break; /* the integers, above */
    }
}

/* Integers: floor(ceil(min) + u * (floor(max) - ceil(min) + 1)), clamped: the whole
 * numbers from ceil(min) to floor(max), both reachable and equally likely (the
 * base was min, which for a fractional min made ceil(min) twice as likely);
 * floats: min + u * (max - min). */
void data_fill(void *dst, data_type t, size_t count, const data_fill_spec *f)
{
    if (f->kind == FILL_ZEROS) {
        memset(dst, 0, count * data_size(t));
        return;
    }
    if (f->kind == FILL_FILE)
        return;
    bool is_float = data_is_float(t);
    for (size_t i = 0; i < count; i++) {
        double v;
        switch (f->kind) {
        case FILL_CONSTANT: v = f->a; break;
        case FILL_RAMP: v = f->a + (double)i * f->b; break;
        case FILL_NORMAL: v = data_normal(f->seed, i, f->a, f->b); break;
        default: {
            double u = uniform(f->seed, i);
            if (is_float) {
                v = f->a + u * (f->b - f->a);
            } else {
                v = floor(ceil(f->a) + u * (floor(f->b) - ceil(f->a) + 1.0)); /* uniform from ceil(min) */
                if (v > floor(f->b))
                    v = floor(f->b);
                if (v < ceil(f->a))
                    v = ceil(f->a);
            }
        }
        }
        data_set(dst, t, i, v);
    }
}

bool data_compare(const void *got, const void *want, data_type t, size_t count, double atol, double rtol,
                  data_mismatch *m)
{
    memset(m, 0, sizeof *m);
    bool exact = atol == 0 && rtol == 0;
    size_t bytes = data_size(t);
    for (size_t i = 0; i < count; i++) {
        /* Fast path: identical bits pass (unless a NaN). */
        if (memcmp((const unsigned char *)got + i * bytes, (const unsigned char *)want + i * bytes, bytes) == 0 &&
            !(data_is_float(t) && isnan(data_get(got, t, i))))
            continue;
        double g = data_get(got, t, i), w = data_get(want, t, i);
        double diff = fabs(g - w);
        bool ok = !isnan(g) && !isnan(w) && (g == w || (!exact && diff <= atol + rtol * fabs(w)));
        if (!isnan(diff) && diff > m->max_abs_error)
            m->max_abs_error = diff;
        if (!ok) {
            if (m->count == 0) {
                m->first = i;
                m->got = g;
                m->want = w;
            }
            m->count++;
            if (isnan(diff))
                m->max_abs_error = NAN;
        }
    }
    return m->count == 0;
}
