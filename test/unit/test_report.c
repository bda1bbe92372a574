/* test_report.c - the report's analyses and primitives (emit/report.h) on hand-made
 * data whose answers follow from how the data was made or are worked out by hand here,
 * and cutune_emit_report on stored fixtures (test/emit/h100.json; for the hardware
 * counters, a real H100 run, test/data/report-hw-tiny-h100.json, whose numbers the test
 * reads from the JSON itself). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "cutune.h"
#include "emit/report.h"

/* near: got is want within eps (this cmocka has no assert_double_equal). */
#define near(got, want, eps) near_at((got), (want), (eps), __FILE__, __LINE__)
static void near_at(double got, double want, double eps, const char *file, int line)
{
    if (!(fabs(got - want) <= eps))
        fail_msg("%s:%d: got %.17g, want %.17g (within %g)", file, line, got, want, eps);
}

/* A full grid of 4 params of 3 levels each (81 entries, the last param fastest) whose
 * objective is made by params 1 and 3 together (their product, times 100), with a
 * small effect of param 0 and none of param 2. */
enum { NP = 4, NL = 3, NE = 81 };
static int grid_level[NE * NP];
static double grid_y[NE];
static const int grid_nlevels[NP] = {NL, NL, NL, NL};

static report_table grid_table(bool maximize)
{
    for (int i = 0; i < NE; i++) {
        int l[NP] = {i / 27, i / 9 % 3, i / 3 % 3, i % 3};
        for (int p = 0; p < NP; p++)
            grid_level[i * NP + p] = l[p];
        grid_y[i] = 100.0 * (l[1] + 1) * (l[3] + 1) + 0.5 * l[0];
    }
    report_table t = {NE, NP, grid_nlevels, grid_level, grid_y, maximize};
    return t;
}

static void test_pair_choice(void **state)
{
    (void)state;
    report_table t = grid_table(true);
    report_pair pairs[6];
    assert_int_equal(report_rank_pairs(pairs, &t), 6);
    assert_int_equal(pairs[0].a, 1); /* the pair that makes the objective comes first */
    assert_int_equal(pairs[0].b, 3);
    assert_true(pairs[0].explained > 0.99);
    for (int k = 1; k < 6; k++)
        assert_true(pairs[k].explained < pairs[0].explained);
    /* params 0 and 2 together explain almost nothing */
    double e02 = report_explained(&t, 0, 2);
    assert_true(e02 < 0.01);
    /* a param alone explains less than a pair that holds it */
    assert_true(report_explained(&t, 1, -1) < pairs[0].explained);
}

/* One param of two levels: y = 1, 3 (level 0) and 5, 7 (level 1). By hand: N = 4,
 * k = 2, mean 4, SST = 9 + 1 + 1 + 9 = 20, SSW = 4 * 1 = 4, so the adjusted share is
 * 1 - (4 / 2) / (20 / 3) = 0.7. */
static void test_explained_by_hand(void **state)
{
    (void)state;
    int level[] = {0, 0, 1, 1, 1};
    double y[] = {1, 3, 5, 7, NAN}; /* the NaN entry has no objective: left out */
    int nlevels[] = {2};
    report_table t = {5, 1, nlevels, level, y, true};
    near(report_explained(&t, 0, -1), 0.7, 1e-12);
    /* no variance at all, or one entry: not known */
    double flat[] = {2, 2, 2, 2, 2};
    t.y = flat;
    assert_true(isnan(report_explained(&t, 0, -1)));
    double one[] = {NAN, NAN, 4, NAN, NAN};
    t.y = one;
    assert_true(isnan(report_explained(&t, 0, -1)));
    /* every entry its own group (N == k): not known */
    int lv2[] = {0, 1};
    double y2[] = {1, 2};
    report_table t2 = {2, 1, nlevels, lv2, y2, true};
    assert_true(isnan(report_explained(&t2, 0, -1)));
}

static void test_cells_and_marginal(void **state)
{
    (void)state;
    report_table t = grid_table(true);
    double cell[NL * NL];
    report_cells(cell, &t, 1, 3);
    /* the best over param 0 (its largest level adds 0.5 * 2) and param 2 (no effect) */
    for (int a = 0; a < NL; a++)
        for (int b = 0; b < NL; b++)
            near(cell[a * NL + b], 100.0 * (a + 1) * (b + 1) + 1.0, 1e-9);
    t = grid_table(false); /* minimised: the best is param 0's smallest level */
    report_cells(cell, &t, 1, 3);
    near(cell[2 * NL + 2], 900.0, 1e-9);

    /* NaN entries: a cell whose entries all lack an objective is NaN. Entries (param 0,
     * param 1): (0,0) y 5, (0,1) no objective, (1,0) y 2, (0,0) y 7; none at (1,1). */
    int lv[] = {0, 0, /**/ 0, 1, /**/ 1, 0, /**/ 0, 0};
    double yy[] = {5, NAN, 2, 7};
    int nlevels[] = {2, 2};
    report_table s = {4, 2, nlevels, lv, yy, true};
    double c4[4];
    report_cells(c4, &s, 0, 1);
    near(c4[0], 7, 0);         /* (0,0): 5 and 7, maximised */
    assert_true(isnan(c4[1])); /* (0,1): its one entry has no objective */
    near(c4[2], 2, 0);
    assert_true(isnan(c4[3])); /* (1,1): no entry at all */

    double best[2], median[2];
    size_t count[2];
    report_marginal(best, median, count, &s, 0);
    assert_int_equal(count[0], 2); /* 5 and 7; the NaN entry does not count */
    near(best[0], 7, 0);
    near(median[0], 6, 0);
    assert_int_equal(count[1], 1);
    near(median[1], 2, 0);
}

/* Scale: 100,000 entries whose two params have 50,000 values each (a = i / 2, b a
 * permutation of a), y = a + 0.5 (i % 2). Grouping by value (the analyses of the
 * report) must be O(n log n): a table of every possible pair of values would be 2.5e9
 * cells, a pass over the entries per value 5e9 steps. The answers follow from how the
 * data is made: each (a, b) group and each value of a holds the two entries 2a and
 * 2a + 1, whose mean is a + 0.25; the best (least) is a, the median a + 0.25. */
enum { BIG = 100000, BIG_LEVELS = BIG / 2 };

static void test_many_levels(void **state)
{
    (void)state;
    int *level = malloc(sizeof *level * BIG * 2);
    double *y = malloc(sizeof *y * BIG), *best = malloc(sizeof *best * BIG_LEVELS);
    double *median = malloc(sizeof *median * BIG_LEVELS);
    size_t *count = malloc(sizeof *count * BIG_LEVELS);
    assert_non_null(level);
    assert_non_null(y);
    assert_non_null(best);
    assert_non_null(median);
    assert_non_null(count);
    double mean = 0;
    for (int i = 0; i < BIG; i++) {
        int a = i / 2;
        level[i * 2] = a;
        level[i * 2 + 1] = (int)((long long)a * 7919 % BIG_LEVELS);
        y[i] = a + 0.5 * (i % 2);
        mean += y[i] / BIG;
    }
    double sst = 0;
    for (int i = 0; i < BIG; i++)
        sst += (y[i] - mean) * (y[i] - mean);
    double ssw = BIG * 0.0625; /* every entry is 0.25 from its group's mean */
    double want = 1.0 - (ssw / (BIG - BIG_LEVELS)) / (sst / (BIG - 1));
    const int nlevels[2] = {BIG_LEVELS, BIG_LEVELS};
    report_table t = {BIG, 2, nlevels, level, y, false};
    near(report_explained(&t, 0, 1), want, 1e-9);
    near(report_explained(&t, 0, -1), want, 1e-9);
    report_marginal(best, median, count, &t, 0);
    for (int l = 0; l < BIG_LEVELS; l++) {
        assert_int_equal(count[l], 2);
        near(best[l], l, 0);
        near(median[l], l + 0.25, 0);
    }
    free(level);
    free(y);
    free(best);
    free(median);
    free(count);
}

/* Values at the ends of the doubles: the span from -1e308 to 1e308 is past the largest
 * double, so differences overflow; every answer here must still be a plain number. */
static void test_extremes(void **state)
{
    (void)state;
    double ends[2] = {-1e308, 1e308};
    near(report_quantile(ends, 2, 0.5), 0, 0); /* the midpoint of the two */
    near(report_quantile(ends, 2, 0.25), -5e307, 1e293);
    near(report_frac(0, -1e308, 1e308), 0.5, 1e-15);
    near(report_frac(1e308, -1e308, 1e308), 1, 1e-15);
    assert_true(isnan(report_frac(1, 2, 2))); /* no range */
    report_frame f = {0, 0, 100, 100, -1e308, 1e308, -1e308, 1e308};
    near(report_x(&f, 0), 50, 1e-9);
    near(report_y(&f, 1e308), 0, 1e-9); /* up is larger */
    assert_true(isfinite(report_x(&f, NAN)));
    double lo = -1.7976931348623157e308, hi = 1.7976931348623157e308;
    report_pad(&lo, &hi);
    assert_true(isfinite(lo) && isfinite(hi));
    double ticks[12];
    int n = report_ticks(ticks, 7, -1e308, 1e308);
    assert_true(n >= 2);
    for (int k = 0; k < n; k++)
        assert_true(isfinite(ticks[k]));
    /* 20 ordinary values and two extreme ones: the scale is the ordinary ones' */
    double v[22];
    v[0] = -1e308;
    for (int i = 1; i <= 20; i++)
        v[i] = i;
    v[21] = 1e308;
    report_range r = report_scale(v, 22);
    near(r.lo, 1, 0);
    near(r.hi, 20, 0);
    assert_false(report_in(r, 1e308));
    assert_false(report_in(r, NAN));
    /* 19 equal values and one far out: the IQR is 0, the median's size stands for it */
    double flat[20];
    for (int i = 0; i < 19; i++)
        flat[i] = 2;
    flat[19] = 1e308;
    r = report_scale(flat, 20);
    near(r.lo, 2, 0);
    near(r.hi, 2, 0);
    flat[19] = 3; /* near: on the scale */
    r = report_scale(flat, 20);
    near(r.hi, 3, 0);
    r = report_scale(ends, 2); /* two values, both extreme: both on it */
    near(r.lo, -1e308, 0);
    near(r.hi, 1e308, 0);
}

static void test_escape(void **state)
{
    (void)state;
    strbuf o = STRBUF_INIT;
    report_esc(&o, "</script><b>&\"'\x01x\ty\n");
    assert_string_equal(sb_cstr(&o), "&lt;/script&gt;&lt;b&gt;&amp;&quot;&#39;\xEF\xBF\xBDx\ty\n");
    sb_reset(&o);
    report_esc(&o, NULL);
    assert_string_equal(sb_cstr(&o), "");
    sb_free(&o);
}

static void test_numbers(void **state)
{
    (void)state;
    strbuf o = STRBUF_INIT;
    report_num(&o, NAN);
    sb_addc(&o, '|');
    report_num(&o, INFINITY);
    sb_addc(&o, '|');
    report_num(&o, 24001.74);
    sb_addc(&o, '|');
    report_num(&o, 0.7157760);
    sb_addc(&o, '|');
    report_num(&o, 0);
    sb_addc(&o, '|');
    report_num(&o, 1.5e-5);
    assert_string_equal(sb_cstr(&o), "n/a|n/a|24002|0.7158|0|1.500e-05");
    sb_free(&o);

    double ticks[10];
    int n = report_ticks(ticks, 7, 0, 1); /* 0.2 apart: 0 .. 1 */
    assert_int_equal(n, 6);
    near(ticks[0], 0, 1e-12);
    near(ticks[5], 1, 1e-12);
    n = report_ticks(ticks, 6, 2225, 45855); /* 10,000 apart: 10k .. 40k */
    assert_int_equal(n, 4);
    near(ticks[0], 10000, 1e-6);
    assert_int_equal(report_ticks(ticks, 6, NAN, 1), 0);

    char c[8];
    report_ramp(c, 0);
    assert_string_equal(c, "#440154");
    report_ramp(c, 1);
    assert_string_equal(c, "#fde725");
    report_ramp(c, NAN);
    assert_string_equal(c, "#d9d9d9");
}

static void test_order_statistics(void **state)
{
    (void)state;
    double v[] = {4, NAN, 1, 3, INFINITY, 2};
    double s[6];
    size_t m = report_sorted_finite(s, v, 6);
    assert_int_equal(m, 4);
    near(s[0], 1, 0);
    near(s[3], 4, 0);
    near(report_quantile(s, m, 0.5), 2.5, 1e-12);
    near(report_quantile(s, m, 0.25), 1.75, 1e-12);
    assert_true(isnan(report_quantile(s, 0, 0.5)));

    size_t counts[3];
    double h[] = {0, 0.1, 0.5, 0.9, 1.0, NAN};
    report_histogram(counts, 3, 0, 1, h, 6); /* [0,1/3) [1/3,2/3) [2/3,1] */
    assert_int_equal(counts[0], 2);
    assert_int_equal(counts[1], 1);
    assert_int_equal(counts[2], 2);
    assert_int_equal(report_bin_count(1), 5);
    assert_int_equal(report_bin_count(400), 20);
    assert_int_equal(report_bin_count(1000000), 40);

    double y[] = {NAN, 3, 1, 4, NAN, 5};
    double out[6];
    report_best_so_far(out, y, 6, true);
    assert_true(isnan(out[0]));
    near(out[1], 3, 0);
    near(out[2], 3, 0);
    near(out[4], 4, 0);
    near(out[5], 5, 0);
    report_best_so_far(out, y, 6, false);
    near(out[5], 1, 0);

    double x[] = {1, 2, 3, 4, NAN};
    double up[] = {10, 20, 30, 40, 50}, down[] = {9, 7, 5, 1, 0};
    near(report_spearman(x, up, 5), 1, 1e-12);
    near(report_spearman(x, down, 5), -1, 1e-12);
    assert_true(isnan(report_spearman(x, up, 2)));
}

static void test_page_of_fixture(void **state)
{
    (void)state;
    cutune_tune_result *r = NULL;
    assert_int_equal(cutune_results_load(&r, CUTUNE_SOURCE_DIR "/test/emit/h100.json"), CUTUNE_OK);
    char *page = NULL;
    const cutune_tune_result *list[] = {r};
    assert_int_equal(cutune_emit_report(&page, NULL, 1, NULL), CUTUNE_EINVAL);
    assert_int_equal(cutune_emit_report(&page, list, 0, NULL), CUTUNE_EINVAL);
    const char *names[] = {"a<b>.json"};
    cutune_report_options opts = {CUTUNE_REPORT_OPTIONS_VERSION, names, "T & <i>"};
    assert_int_equal(cutune_emit_report(&page, list, 1, &opts), CUTUNE_OK);
    assert_non_null(strstr(page, "<title>T &amp; &lt;i&gt;</title>"));
    assert_non_null(strstr(page, "a&lt;b&gt;.json"));
    assert_null(strstr(page, "<script"));
    /* the fixture's compile error, its message escaped; its wrong variant */
    assert_non_null(strstr(page, "<b>compile error</b>: 1 variant"));
    assert_non_null(strstr(page, "expected a &quot;;&quot;"));
    assert_non_null(strstr(page, "<b>wrong</b>: 1 variant"));
    assert_non_null(strstr(page, "C[7]: got 1.5, want 2.5"));
    /* the same results give the same bytes */
    char *again = NULL;
    assert_int_equal(cutune_emit_report(&again, list, 1, &opts), CUTUNE_OK);
    assert_string_equal(page, again);
    cutune_free(again);
    cutune_free(page);
    cutune_tune_result_free(r);
}

/* a run on two GPUs says so in its header line, with the spread between them;
 * a one-GPU run does not. */
static void test_page_of_two_gpus(void **state)
{
    (void)state;
    json_t *root = json_load_file(CUTUNE_SOURCE_DIR "/test/emit/h100.json", 0, NULL);
    assert_non_null(root);
    json_object_set_new(json_object_get(root, "settings"), "devices", json_pack("[i, i]", 0, 1));
    json_object_set_new(json_object_get(root, "summary"), "device_spread",
                        json_pack("[{s:i, s:i, s:f, s:f, s:f}]", "gpu", 1, "variants", 8, "median", 1.002, "min", 0.995,
                                  "max", 1.01));
    char path[] = "/tmp/cutune_report_gpus_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(json_dump_file(root, path, 0), 0);
    json_decref(root);
    cutune_tune_result *r = NULL, *one = NULL;
    assert_int_equal(cutune_results_load(&r, path), CUTUNE_OK);
    unlink(path);
    assert_int_equal(cutune_results_load(&one, CUTUNE_SOURCE_DIR "/test/emit/h100.json"), CUTUNE_OK);
    char *page = NULL, *plain = NULL;
    const cutune_tune_result *list[] = {r}, *list1[] = {one};
    assert_int_equal(cutune_emit_report(&page, list, 1, NULL), CUTUNE_OK);
    assert_int_equal(cutune_emit_report(&plain, list1, 1, NULL), CUTUNE_OK);
    assert_non_null(strstr(page, ", 2 GPUs at once (0, 1; GPU 0 chose the winner; GPU 1's times over GPU 0's: "
                                 "median 1.0020, 0.9950 to 1.0100 over 8 variants)"));
    assert_null(strstr(plain, "GPUs at once"));
    cutune_free(page);
    cutune_free(plain);
    cutune_tune_result_free(r);
    cutune_tune_result_free(one);
}

/* The counters' units and the derived ratio. */
static void test_hw_units(void **state)
{
    (void)state;
    report_hw_unit u = report_hw_unit_of("smsp__thread_inst_executed_per_inst_executed.ratio");
    near(16 * u.scale, 50, 1e-12); /* half the threads of a warp: 50 % efficiency */
    assert_string_equal(u.unit, "%");
    u = report_hw_unit_of("gpu__time_duration.sum");
    near(4832 * u.scale, 4.832, 1e-12); /* ns to us */
    assert_string_equal(u.unit, "us");
    u = report_hw_unit_of("l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum.per_second");
    near(2.5e12 * u.scale, 2500, 1e-9); /* bytes/s to GB/s */
    assert_string_equal(u.unit, "GB/s");
    assert_string_equal(report_hw_unit_of("sm__inst_executed.sum.per_second").unit, "/s");
    assert_string_equal(report_hw_unit_of("dram__throughput.avg.pct_of_peak_sustained_elapsed").unit, "%");
    u = report_hw_unit_of("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
    near(u.scale, 1, 0);
    assert_string_equal(u.unit, "");
    near(report_hw_ratio(262144, 65536), 4, 0);
    assert_true(isnan(report_hw_ratio(0, 0))); /* no loads: no ratio */
    assert_true(isnan(report_hw_ratio(NAN, 65536)));
}

/* How many times needle occurs in hay. */
static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* The report of a run with counters: the section, one row per variant the JSON has
 * counters for, sectors per request as the JSON's numbers give it; a run without
 * counters has no such section. */
static void test_page_with_counters(void **state)
{
    (void)state;
    const char *path = CUTUNE_SOURCE_DIR "/test/data/report-hw-tiny-h100.json";
    json_error_t err;
    json_t *root = json_load_file(path, 0, &err);
    assert_non_null(root);
    json_t *entries = json_object_get(root, "results");
    int profiled = 0;
    double best_ratio = NAN, worst_ratio = NAN; /* the best and the worst GBps's sectors/request */
    double best_y = -INFINITY, worst_y = INFINITY;
    size_t k;
    json_t *e;
    json_array_foreach(entries, k, e)
    {
        json_t *m = json_object_get(json_object_get(e, "hw"), "metrics");
        if (!json_is_object(m))
            continue;
        profiled++;
        double y = json_number_value(json_object_get(e, "objective"));
        double ratio = json_number_value(json_object_get(m, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")) /
                       json_number_value(json_object_get(m, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"));
        if (y > best_y)
            best_y = y, best_ratio = ratio;
        if (y < worst_y)
            worst_y = y, worst_ratio = ratio;
    }
    json_decref(root);
    assert_int_equal(profiled, 8);

    cutune_tune_result *r = NULL;
    assert_int_equal(cutune_results_load(&r, path), CUTUNE_OK);
    const cutune_tune_result *list[] = {r};
    char *page = NULL;
    assert_int_equal(cutune_emit_report(&page, list, 1, NULL), CUTUNE_OK);
    const char *sec = strstr(page, "<h3>Hardware counters</h3>");
    assert_non_null(sec);
    assert_int_equal(count_of(page, "<tr class=\"hwrow\">"), profiled);
    assert_non_null(strstr(sec, "never part of the times"));
    assert_non_null(strstr(sec, ">achieved_occupancy (%)</th>"));
    assert_non_null(strstr(sec, ">warp_execution_efficiency (%)</th>"));
    assert_non_null(strstr(sec, ">gpu_time (us)</th>"));
    assert_non_null(strstr(sec, "achieved occupancy against theoretical occupancy"));
    assert_non_null(strstr(sec, "<line class=\"diag\""));
    /* best first: the first row is the winner's (highlighted), the last the worst's; the
     * last cell of each is its sectors per request */
    char cell[64];
    snprintf(cell, sizeof cell, "<td>%.3f</td></tr>", worst_ratio);
    const char *rows_end = strstr(sec, "</table>");
    const char *last = strstr(sec, cell);
    assert_non_null(last);
    assert_true(last < rows_end && strstr(last + 1, "<tr class=\"hwrow\">") == NULL);
    snprintf(cell, sizeof cell, "<td>%.3f</td></tr>", best_ratio);
    const char *first = strstr(sec, "<tr class=\"hwrow\">");
    assert_non_null(strstr(first, cell));
    assert_true(strstr(first, cell) < strstr(first + 1, "<tr class=\"hwrow\">"));
    assert_true(strncmp(first, "<tr class=\"hwrow\"><td class=\"hl\">", 33) == 0);
    assert_null(strstr(page, "<script"));
    cutune_free(page);
    cutune_tune_result_free(r);

    assert_int_equal(cutune_results_load(&r, CUTUNE_SOURCE_DIR "/test/emit/h100.json"), CUTUNE_OK);
    list[0] = r;
    assert_int_equal(cutune_emit_report(&page, list, 1, NULL), CUTUNE_OK);
    assert_null(strstr(page, "Hardware counters"));
    assert_null(strstr(page, "hwrow"));
    cutune_free(page);
    cutune_tune_result_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pair_choice),
        cmocka_unit_test(test_many_levels),
        cmocka_unit_test(test_extremes),
        cmocka_unit_test(test_explained_by_hand),
        cmocka_unit_test(test_cells_and_marginal),
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_order_statistics),
        cmocka_unit_test(test_page_of_fixture),
        cmocka_unit_test(test_page_of_two_gpus),
        cmocka_unit_test(test_hw_units),
        cmocka_unit_test(test_page_with_counters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
