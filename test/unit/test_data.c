/* test_data.c - argument contents: deterministic fills, half/bf16 conversion, and the
 * comparison rule (|got - want| <= atol + rtol * |want|, NaN never passes). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runtime/data.h"

static void test_fill_is_a_function_of_seed_and_index(void **state)
{
    (void)state;
    float a[1000], b[10];
    data_fill_spec f = {FILL_RANDOM, 42, -1.0, 1.0};
    data_fill(a, DT_FLOAT, 1000, &f);
    data_fill(b, DT_FLOAT, 10, &f);
    assert_memory_equal(a, b, sizeof b); /* a prefix does not depend on the size */
    double sum = 0;
    for (int i = 0; i < 1000; i++) {
        assert_true(a[i] >= -1.0f && a[i] < 1.0f);
        sum += a[i];
    }
    assert_true(fabs(sum / 1000) < 0.1); /* centred */
    f.seed = 43;
    data_fill(b, DT_FLOAT, 10, &f);
    assert_memory_not_equal(a, b, sizeof b);
    int v[2000];
    data_fill_spec ints = {FILL_RANDOM, 7, 0, 3};
    data_fill(v, DT_INT32, 2000, &ints);
    int seen[4] = {0};
    for (int i = 0; i < 2000; i++) {
        assert_true(v[i] >= 0 && v[i] <= 3);
        seen[v[i]]++;
    }
    for (int k = 0; k < 4; k++)
        assert_true(seen[k] > 350); /* both ends reachable, roughly uniform */
    double r[4];
    data_fill_spec ramp = {FILL_RAMP, 0, 1.0, 0.5};
    data_fill(r, DT_DOUBLE, 4, &ramp);
    assert_true(r[0] == 1.0 && r[3] == 2.5);
}

/* normal(seed, mean, stddev): Box-Muller over the uniforms of elements 2i and 2i + 1 of
 * the stream (random(seed) of doubles gives them exactly), its own log and cos within
 * 1e-13 of libm's; a prefix does not depend on the size; the sample's moments are a
 * normal's. */
static void test_normal(void **state)
{
    (void)state;
    enum { N = 100000 };
    double *z = malloc(sizeof *z * N), *u = malloc(sizeof *u * 2 * N);
    assert_non_null(z);
    assert_non_null(u);
    data_fill_spec normal = {FILL_NORMAL, 11, 0.0, 1.0}, uniform = {FILL_RANDOM, 11, 0.0, 1.0};
    data_fill(z, DT_DOUBLE, N, &normal);
    data_fill(u, DT_DOUBLE, 2 * N, &uniform);
    double sum = 0, sq = 0, worst = 0;
    int beyond3 = 0;
    for (int i = 0; i < N; i++) {
        double want = sqrt(-2.0 * log(1.0 - u[2 * i])) * cos(6.283185307179586477 * u[2 * i + 1]);
        double err = fabs(z[i] - want);
        worst = err > worst ? err : worst;
        sum += z[i];
        sq += z[i] * z[i];
        beyond3 += fabs(z[i]) > 3.0;
    }
    assert_true(worst < 1e-13);
    double mean = sum / N, var = sq / N - mean * mean;
    assert_true(fabs(mean) < 0.02);              /* 0 +- 6 standard errors (1 / sqrt(N) = 0.003) */
    assert_true(fabs(var - 1.0) < 0.03);         /* 1 +- ~7 standard errors (sqrt(2 / N) = 0.0045) */
    assert_true(beyond3 > 200 && beyond3 < 340); /* P(|z| > 3) = 0.0027: 270 expected */
    float f[8], prefix[3];
    data_fill_spec shifted = {FILL_NORMAL, 4, 10.0, 0.5};
    data_fill(f, DT_FLOAT, 8, &shifted);
    data_fill(prefix, DT_FLOAT, 3, &shifted);
    assert_memory_equal(f, prefix, sizeof prefix);
    for (int i = 0; i < 8; i++) {
        double want = 10.0 + 0.5 * data_normal(4, (uint64_t)i, 0.0, 1.0);
        assert_true(f[i] == (float)want);
    }
    free(z);
    free(u);
}

static void test_half_and_bf16(void **state)
{
    (void)state;
    unsigned short h;
    const double exact[] = {0.0,
                            1.0,
                            -2.5,
                            65504.0,
                            0.000060975551605224609375 /* smallest normal */,
                            5.9604644775390625e-08 /* smallest subnormal */};
    for (size_t i = 0; i < sizeof exact / sizeof *exact; i++) {
        data_set(&h, DT_HALF, 0, exact[i]);
        assert_true(data_get(&h, DT_HALF, 0) == exact[i]);
    }
    data_set(&h, DT_HALF, 0, 1.0 + 1.0 / 4096); /* halfway between 1 and 1+2^-10: to even */
    assert_true(data_get(&h, DT_HALF, 0) == 1.0);
    data_set(&h, DT_HALF, 0, 1e6);
    assert_true(isinf(data_get(&h, DT_HALF, 0)));
    data_set(&h, DT_BF16, 0, 3.0);
    assert_true(data_get(&h, DT_BF16, 0) == 3.0);
    data_set(&h, DT_BF16, 0, 1.0 + 1.0 / 256); /* halfway: to even */
    assert_true(data_get(&h, DT_BF16, 0) == 1.0);
}

/* Out-of-range integers wrap modulo 2^bits through 64 bits (as the fill kernel does),
 * instead of C's undefined conversion; expected bit patterns worked out by hand. */
static void test_integers_wrap(void **state)
{
    (void)state;
    unsigned char b[8];
    data_set(b, DT_UINT16, 0, -1.0);
    assert_int_equal(b[0] | b[1] << 8, 0xFFFF);
    data_set(b, DT_UINT8, 0, -52.9); /* truncated to -52, then 256 - 52 */
    assert_int_equal(b[0], 204);
    data_set(b, DT_INT8, 0, 200.0); /* 200 - 256 */
    assert_int_equal((int8_t)b[0], -56);
    data_set(b, DT_UINT32, 0, 4294967296.0 + 5.0);
    assert_int_equal(data_get(b, DT_UINT32, 0), 5.0);
    data_set(b, DT_UINT64, 0, 1e30); /* beyond 64 bits: saturates */
    assert_true(data_get(b, DT_UINT64, 0) == 18446744073709551615.0);
    data_set(b, DT_INT32, 0, NAN);
    assert_int_equal(data_get(b, DT_INT32, 0), 0.0);
    data_set(b, DT_INT64, 0, -7.0);
    assert_true(data_get(b, DT_INT64, 0) == -7.0);
}

static void test_compare(void **state)
{
    (void)state;
    float want[4] = {1.0f, 2.0f, 100.0f, -3.0f}, got[4];
    data_mismatch m;
    memcpy(got, want, sizeof got);
    assert_true(data_compare(got, want, DT_FLOAT, 4, 0, 0, &m));
    got[2] = 100.5f;
    assert_false(data_compare(got, want, DT_FLOAT, 4, 0, 0, &m));
    assert_int_equal(m.count, 1);
    assert_int_equal(m.first, 2);
    assert_true(m.got == 100.5 && m.want == 100.0);
    assert_true(data_compare(got, want, DT_FLOAT, 4, 0, 0.01, &m)); /* 0.5 <= 0.01 * 100 */
    assert_false(data_compare(got, want, DT_FLOAT, 4, 0.1, 0, &m)); /* 0.5 > 0.1 */
    got[0] = NAN;
    assert_false(data_compare(got, want, DT_FLOAT, 4, 1e9, 1e9, &m)); /* NaN never passes */
    assert_int_equal(m.first, 0);
    memset(got, 0xFF, sizeof got); /* the poison: NaN for floats */
    assert_false(data_compare(got, want, DT_FLOAT, 4, 1, 1, &m));
    assert_int_equal(m.count, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fill_is_a_function_of_seed_and_index),
        cmocka_unit_test(test_normal),
        cmocka_unit_test(test_half_and_bf16),
        cmocka_unit_test(test_integers_wrap),
        cmocka_unit_test(test_compare),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
