/* test_pnpoly.c - why bench/speed/pnpoly.tune may verify every variant exactly: the
 * precomputed slopes (pnpoly_slopes.bin) are bit for bit the float division a variant
 * does on the GPU, and the four between_methods, which disagree only for a point whose y
 * equals a vertex's y, give every such point of the spec's input the same parity. The
 * input is cutune's normal(seed = 1) over float2[20,000,000] (runtime/data: the values
 * the device makes); the parity is the kernel's crossing test (pnpoly.cu) in the host's
 * IEEE float arithmetic, its crossing's x through fmaf as the kernel computes it. Not
 * quick: it draws 20 million normal values (a few seconds). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "runtime/data.h"

#define VERTICES 600
#define POINTS 20000000 /* pnpoly.tune's n */
#define SEED 1          /* its points' normal(seed = 1) */

typedef struct polygon {
    float x[VERTICES], y[VERTICES], slope[VERTICES];
} polygon;

/* read_floats: count little-endian float32 values of the file under bench/speed/. */
static void read_floats(const char *name, float *out, size_t count)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/bench/speed/%s", CUTUNE_SOURCE_DIR, name);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(out, sizeof *out, count, f), count);
    assert_int_equal(fgetc(f), EOF); /* no more than that */
    fclose(f);
}

static void load(polygon *p)
{
    float xy[2 * VERTICES];
    read_floats("pnpoly_vertices.bin", xy, 2 * VERTICES);
    for (int j = 0; j < VERTICES; j++) {
        p->x[j] = xy[2 * j];
        p->y[j] = xy[2 * j + 1];
    }
    read_floats("pnpoly_slopes.bin", p->slope, VERTICES);
}

/* The kernel's y_between, method m. */
static int between(int m, float y, float ya, float yb)
{
    switch (m) {
    case 0: return (ya > y) != (yb > y);
    case 1: return (ya <= y && yb > y) || (ya > y && yb <= y);
    case 2: return y - ya == 0.0f || (y - ya) * (y - yb) < 0.0f;
    default: return (y - ya) * (y - yb) < 0.0f || y - ya == 0.0f;
    }
}

/* The edge from vertex j to vertex j - 1: its slope divided here or read from the file. */
static float slope_of(const polygon *p, int j, int precomputed)
{
    int k = j == 0 ? VERTICES - 1 : j - 1;
    return precomputed ? p->slope[j] : (p->x[k] - p->x[j]) / (p->y[k] - p->y[j]);
}

/* The kernel's parity of crossings for point (px, py) under method m. */
static int inside(const polygon *p, int m, int precomputed, float px, float py)
{
    int c = 0;
    for (int j = 0; j < VERTICES; j++) {
        int k = j == 0 ? VERTICES - 1 : j - 1;
        if (between(m, py, p->y[j], p->y[k]) && px < fmaf(slope_of(p, j, precomputed), py - p->y[j], p->x[j]))
            c = !c;
    }
    return c;
}

static void test_slopes_are_the_float_division(void **state)
{
    (void)state;
    static polygon p;
    load(&p);
    for (int j = 0; j < VERTICES; j++) {
        float divided = slope_of(&p, j, 0);
        assert_memory_equal(&divided, &p.slope[j], sizeof divided);
        assert_true(isfinite(divided)); /* no horizontal edge */
    }
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* point i's lane (0: x, 1: y) as the device makes it */
static float lane(size_t i, int l)
{
    float v;
    data_set(&v, DT_FLOAT, 0, data_normal(SEED, 2 * i + (size_t)l, 0.0, 1.0));
    return v;
}

static void test_methods_agree_on_the_input(void **state)
{
    (void)state;
    static polygon p;
    load(&p);
    float heights[VERTICES];
    memcpy(heights, p.y, sizeof heights);
    qsort(heights, VERTICES, sizeof *heights, cmp_float);

    /* The test can tell the methods apart: a point left of the top vertex, at its height,
     * is outside by comparisons (no edge's y range holds it) and inside by products
     * (the equality counts one edge). */
    int top = 0;
    for (int j = 1; j < VERTICES; j++)
        if (p.y[j] > p.y[top])
            top = j;
    float px = p.x[top] - 0.5f, py = p.y[top];
    assert_int_equal(inside(&p, 0, 0, px, py), 0);
    assert_int_equal(inside(&p, 2, 0, px, py), 1);

    size_t level = 0;
    for (size_t i = 0; i < POINTS; i++) {
        float y = lane(i, 1);
        if (!bsearch(&y, heights, VERTICES, sizeof *heights, cmp_float))
            continue;
        level++;
        float x = lane(i, 0);
        int want = inside(&p, 0, 0, x, y);
        for (int m = 0; m < 4; m++)
            for (int pre = 0; pre < 2; pre++)
                if (inside(&p, m, pre, x, y) != want)
                    fail_msg("point %zu (%.9g, %.9g): between_method %d, use_precomputed_slopes %d says %d, "
                             "the reference %d",
                             i, (double)x, (double)y, m, pre, !want, want);
    }
    assert_true(level > 0); /* the case the methods differ in occurs, and was checked */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slopes_are_the_float_division),
        cmocka_unit_test(test_methods_agree_on_the_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
