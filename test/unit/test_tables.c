/* test_tables.c - the tables the CLI prints through the public header only, as an
 * application calls them: cutune_table_* (`list`'s and `analyze`'s lines and the
 * analysis's summary), cutune_tune_profile_text and _note (the hardware counters after a
 * run), cutune_profile_defaults_text and _list_text (what `cutune metrics` lists),
 * cutune_spec_select_block (--kernel NAME) and cutune_results_spec (the spec results
 * record). The expected text comes from the spec and
 * the analyses written here and from docs/cli.md's columns, not from the writers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "cutune.h"

/* has_line: whether `text` holds `line` as a whole line. */
static int has_line(const char *text, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = text; (p = strstr(p, line)) != NULL; p++)
        if ((p == text || p[-1] == '\n') && p[n] == '\n')
            return 1;
    return 0;
}

static cutune_spec *load(const char *text)
{
    cutune_load_options opts = CUTUNE_LOAD_OPTIONS_INIT;
    opts.skip_file_checks = 1;
    cutune_spec *spec = NULL;
    assert_int_equal(cutune_spec_load_string(&spec, "t.tune", text, strlen(text), &opts), CUTUNE_OK);
    return spec;
}

/* A block of two params, the second's longest value wider than its name. */
static const char one_block[] = "kernel k from \"k.cu\" {\n"
                                "    param bx in [32, 64];\n"
                                "    param mode in [\"a\", \"wide_value\"];\n"
                                "    block bx;\n"
                                "    grid (4, 2);\n"
                                "}\n";

static void list_lines(void **state)
{
    (void)state;
    cutune_spec *spec = load(one_block);
    cutune_table *t = NULL;
    assert_int_equal(cutune_table_new(&t, spec), CUTUNE_OK);
    cutune_configs *it = NULL;
    const cutune_variant *v = NULL;
    assert_int_equal(cutune_configs_new(&it, spec), CUTUNE_OK);
    assert_int_equal(cutune_configs_next(&v, it), 1);
    char *text = NULL;
    assert_int_equal(cutune_table_variant(&text, t, v), CUTUNE_OK);
    /* The heading first: '#' in 6 columns, each param as wide as its widest value
     * ("wide_value": 10), block 10, grid 16, smem 7; then the row. */
    assert_true(has_line(text, "     #  bx  mode        block      grid                smem  defines and per-variant "
                               "options"));
    assert_true(has_line(text, "     0  32  a           32         4x2                    0  -Dbx=32 -Dmode=a"));
    cutune_free(text);
    assert_int_equal(cutune_configs_next(&v, it), 1);
    assert_int_equal(cutune_table_variant(&text, t, v), CUTUNE_OK);
    assert_string_equal(text,
                        "     1  32  wide_value  32         4x2                    0  -Dbx=32 -Dmode=wide_value\n");
    cutune_free(text);
    assert_int_equal(cutune_table_variant(NULL, t, v), CUTUNE_EINVAL);
    assert_int_equal(cutune_table_variant(&text, NULL, v), CUTUNE_EINVAL);
    assert_int_equal(cutune_table_new(NULL, spec), CUTUNE_EINVAL);
    cutune_configs_free(it);
    cutune_table_free(t);
    cutune_table_free(NULL);
    cutune_spec_free(spec);
}

static void analysis_lines_and_summary(void **state)
{
    (void)state;
    cutune_spec *spec = load(one_block);
    cutune_table *t = NULL;
    assert_int_equal(cutune_table_new(&t, spec), CUTUNE_OK);
    cutune_configs *it = NULL;
    const cutune_variant *v = NULL;
    assert_int_equal(cutune_configs_new(&it, spec), CUTUNE_OK);
    assert_int_equal(cutune_configs_next(&v, it), 1);
    cutune_analysis a;
    memset(&a, 0, sizeof a);
    a.variant = v;
    a.compiled = 1;
    a.log = "";
    a.has_resources = 1;
    a.registers = 40;
    a.spill_stores = 8;
    a.spill_loads = 4;
    a.compile_seconds = 0.25;
    a.launchable = 1;
    a.occupancy.occupancy = 0.5;
    a.occupancy.limiter = "registers";
    char *text = NULL;
    assert_int_equal(cutune_table_analysis(&text, t, &a), CUTUNE_OK);
    assert_non_null(strstr(text, "  regs   smem  local     spill    occ limiter        compile  status\n"));
    assert_non_null(strstr(text,
                           "     0  32  a           32         4x2                    0    40      0      0       "
                           "8/4    50% registers       250 ms  ok\n"));
    cutune_free(text);
    /* The second: a compile failure, counted only (no line asked for). */
    assert_int_equal(cutune_configs_next(&v, it), 1);
    a.variant = v;
    a.compiled = 0;
    a.has_resources = 0;
    a.launchable = 0;
    a.log = "\nk.cu(3): error: expected a ';'\nmore\n";
    a.occupancy.limiter = NULL;
    assert_int_equal(cutune_table_analysis(NULL, t, &a), CUTUNE_OK);
    assert_int_equal(cutune_table_analysis(&text, t, &a), CUTUNE_OK); /* its line: the log's first line */
    assert_non_null(strstr(text, "     -      -      -         -      - -               250 ms  COMPILE ERROR: "
                                 "k.cu(3): error: expected a ';'\n"));
    cutune_free(text);
    cutune_analyze_summary sum;
    memset(&sum, 0, sizeof sum);
    sum.arch = "sm_90";
    sum.variants = 3;
    sum.failed = 2;
    sum.threads = 1;
    sum.cache_dir = "/c";
    assert_int_equal(cutune_table_summary(&text, t, &sum), CUTUNE_OK);
    assert_int_equal(text[0], '\n');
    assert_non_null(strstr(text, "\n3 variants for sm_90: 1 compiled ("));
    assert_non_null(strstr(text, "wall on 1 thread), 0 from the cache, 0 the same binary as an earlier variant\n"));
    assert_true(has_line(text, "2 failed to compile, 0 cannot launch; best theoretical occupancy 50% (1 variant)"));
    assert_true(has_line(text, "cache: /c"));
    assert_non_null(strstr(text, "\n\nthe compiler's log for variant 1:\n\nk.cu(3): error: expected a ';'\nmore\n\n"));
    cutune_free(text);
    assert_int_equal(cutune_table_summary(&text, t, NULL), CUTUNE_EINVAL);
    assert_int_equal(cutune_table_analysis(&text, t, NULL), CUTUNE_EINVAL);
    cutune_configs_free(it);
    cutune_table_free(t);
    cutune_spec_free(spec);
}

/* The results of a run that read counters (test/data), with `profiled` variants said in
 * its summary, its profile note `note` (NULL: as recorded, none) and the spec recorded
 * at `spec` (NULL: as recorded), written to a temporary file and loaded. */
static cutune_tune_result *hw_results_noted(int profiled, const char *spec, const char *note)
{
    json_error_t e;
    json_t *d = json_load_file(CUTUNE_SOURCE_DIR "/test/data/report-hw-tiny-h100.json", 0, &e);
    assert_non_null(d);
    json_object_set_new(json_object_get(d, "summary"), "profiled", json_integer(profiled));
    if (note)
        json_object_set_new(json_object_get(d, "summary"), "profile_note", json_string(note));
    if (spec)
        json_object_set_new(json_object_get(d, "spec"), "path", json_string(spec));
    char path[] = "/tmp/test_tables_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(json_dumpfd(d, fd, 0), 0);
    close(fd);
    json_decref(d);
    cutune_tune_result *r = NULL;
    assert_int_equal(cutune_results_load(&r, path), CUTUNE_OK);
    remove(path);
    return r;
}

/* hw_results: hw_results_noted without a note. */
static cutune_tune_result *hw_results(int profiled, const char *spec)
{
    return hw_results_noted(profiled, spec, NULL);
}

static void profile_text(void **state)
{
    (void)state;
    cutune_spec *spec = load("kernel scale from \"k.cu\" {\n"
                             "    param threads in [128, 256, 1024] as none;\n"
                             "    param ITEMS in [1, 4];\n"
                             "    param BUG in [0, 1];\n"
                             "    param HEAVY in [0, 1];\n"
                             "    block threads;\n"
                             "    grid 1;\n"
                             "}\n");
    cutune_tune_result *r = hw_results(0, NULL);
    char *text = NULL;
    assert_int_equal(cutune_tune_profile_text(&text, spec, r), CUTUNE_OK);
    assert_string_equal(text, ""); /* no variant's counters were read */
    cutune_free(text);
    cutune_tune_result_free(r);
    r = hw_results(8, NULL);
    assert_int_equal(cutune_tune_profile_text(&text, spec, r), CUTUNE_OK);
    assert_non_null(strstr(text, "\nhardware counters (one profiled launch each"));
    assert_true(has_line(text, "  [a] achieved_occupancy %")); /* a default counter: nvprof's name, its unit */
    assert_true(has_line(text, "  [c] gld_throughput GB/s"));  /* bytes per second as GB/s */
    assert_true(has_line(text, "  [i] gpu_time us"));          /* nanoseconds as microseconds */
    assert_true(has_line(text, "  [e] global_load_requests")); /* a count, no unit */
    /* Best objective (GB/s, maximised) first: the file's best, #11 (1024 threads x 4 items). */
    const char *first = strstr(text, "params\n  #");
    assert_non_null(first);
    assert_int_equal(strncmp(first + 9, "#11 ", 4), 0);
    assert_non_null(strstr(first, "  threads=1024 ITEMS=4 BUG=0 HEAVY=0\n"));
    cutune_free(text);
    assert_int_equal(cutune_tune_profile_text(&text, NULL, r), CUTUNE_EINVAL);
    cutune_tune_result_free(r);
    cutune_spec_free(spec);
}

static void select_block(void **state)
{
    (void)state;
    cutune_spec *spec = load("kernel k from \"k.cu\" { param a in [1]; block 32; grid 1; }\n"
                             "kernel r<B> as step2 from \"r.cu\" { param B in [64]; block B; grid 1; }\n"
                             "kernel r<B> from \"r.cu\" { param B in [32]; block B; grid 1; }\n");
    assert_int_equal(cutune_spec_select_block(spec, "step2"), CUTUNE_OK); /* a block's own name */
    assert_int_equal(cutune_spec_kernel_selected(spec), 1);
    assert_int_equal(cutune_spec_select_block(spec, "r"), CUTUNE_OK); /* the block named after kernel r */
    assert_int_equal(cutune_spec_kernel_selected(spec), 2);
    assert_int_equal(cutune_spec_select_block(spec, "k"), CUTUNE_OK);
    assert_int_equal(cutune_spec_kernel_selected(spec), 0);
    assert_int_equal(cutune_spec_select_block(spec, "step2"), CUTUNE_OK);
    assert_int_equal(cutune_spec_select_block(spec, "nosuch"), CUTUNE_EINVAL);
    assert_string_equal(cutune_last_error(),
                        "t.tune has no kernel block named 'nosuch' (its blocks: k, step2 (kernel r), r)");
    assert_int_equal(cutune_spec_kernel_selected(spec), 1); /* the one held stays held */
    assert_int_equal(cutune_spec_select_block(spec, NULL), CUTUNE_EINVAL);
    cutune_spec_free(spec);
}

static void results_spec(void **state)
{
    (void)state;
    cutune_load_options opts = CUTUNE_LOAD_OPTIONS_INIT;
    opts.skip_file_checks = 1;
    cutune_spec *spec = NULL;
    cutune_tune_result *r = hw_results(0, CUTUNE_SOURCE_DIR "/test/gpu/tiny.tune"); /* the spec it was run from */
    assert_int_equal(cutune_results_spec(&spec, r, &opts), CUTUNE_OK);
    assert_string_equal(cutune_spec_kernel(spec), "scale");
    cutune_spec_free(spec);
    cutune_tune_result_free(r);
    r = hw_results(0, "");
    assert_int_equal(cutune_results_spec(&spec, r, &opts), CUTUNE_EINVAL);
    assert_null(spec);
    assert_string_equal(cutune_last_error(), "names no spec");
    cutune_tune_result_free(r);
    r = hw_results(0, "/nonexistent/tiny.tune");
    assert_int_equal(cutune_results_spec(&spec, r, &opts), CUTUNE_EINVAL);
    assert_string_equal(cutune_last_error(), "records a spec that cannot be loaded now: /nonexistent/tiny.tune");
    cutune_tune_result_free(r);
    r = hw_results(0, CUTUNE_SOURCE_DIR "/examples/sweep.tune"); /* another kernel */
    assert_int_equal(cutune_results_spec(&spec, r, &opts), CUTUNE_EINVAL);
    assert_null(spec);
    assert_non_null(strstr(cutune_last_error(), "records a spec whose kernel or params have changed since: "));
    assert_int_equal(cutune_results_spec(NULL, r, &opts), CUTUNE_EINVAL);
    cutune_tune_result_free(r);
}

static void profile_note(void **state)
{
    (void)state;
    char *text = NULL;
    cutune_tune_result *r = hw_results(0, NULL); /* counters asked for, none read, no reason recorded */
    assert_int_equal(cutune_tune_profile_note(&text, r), CUTUNE_OK);
    assert_string_equal(text, "no hardware counters were read; the times above stand\n");
    cutune_free(text);
    cutune_tune_result_free(r);
    r = hw_results_noted(0, NULL, "CUPTI: permission denied");
    assert_int_equal(cutune_tune_profile_note(&text, r), CUTUNE_OK);
    assert_string_equal(text, "no hardware counters were read: CUPTI: permission denied; the times above stand\n");
    cutune_free(text);
    cutune_tune_result_free(r);
    r = hw_results_noted(8, NULL, "variant #3: replay failed");
    assert_int_equal(cutune_tune_profile_note(&text, r), CUTUNE_OK);
    assert_string_equal(text, "some counters were not read: variant #3: replay failed\n");
    cutune_free(text);
    cutune_tune_result_free(r);
    r = hw_results(8, NULL); /* all read */
    assert_int_equal(cutune_tune_profile_note(&text, r), CUTUNE_OK);
    assert_string_equal(text, "");
    cutune_free(text);
    assert_int_equal(cutune_tune_profile_note(NULL, r), CUTUNE_EINVAL);
    cutune_tune_result_free(r);
    assert_int_equal(cutune_tune_profile_note(&text, NULL), CUTUNE_EINVAL);
    /* A run that asked for no counters has nothing to say about them. */
    assert_int_equal(cutune_results_load(&r, CUTUNE_SOURCE_DIR "/test/data/report-sum_matrix-h100.json"), CUTUNE_OK);
    assert_int_equal(cutune_tune_profile_count(r), 0);
    assert_int_equal(cutune_tune_profile_note(&text, r), CUTUNE_OK);
    assert_string_equal(text, "");
    cutune_free(text);
    cutune_tune_result_free(r);
}

static void profile_defaults_text(void **state)
{
    (void)state;
    char *text = NULL;
    assert_int_equal(cutune_profile_defaults_text(&text, "sm_90", 1), CUTUNE_OK);
    /* brief: only the table, the nvprof name in 26 columns */
    const char *first = "achieved_occupancy         sm__warps_active.avg.pct_of_peak_sustained_active\n";
    assert_int_equal(strncmp(text, first, strlen(first)), 0);
    assert_true(has_line(text, "dram_utilization           dram__throughput.avg.pct_of_peak_sustained_elapsed"));
    const char *last = "gpu_time                   gpu__time_duration.sum\n";
    assert_string_equal(text + strlen(text) - strlen(last), last);
    int lines = 0;
    for (const char *p = text; (p = strchr(p, '\n')) != NULL; p++)
        lines++;
    assert_int_equal(lines, 8);
    cutune_free(text);
    assert_int_equal(cutune_profile_defaults_text(&text, NULL, 0), CUTUNE_OK); /* NULL: sm_90 */
    assert_int_equal(strncmp(text, "The default counters (cutune SPEC --metrics N)", 46), 0);
    assert_non_null(strstr(text, "searches GH100's list for sm_90; a\n"));
    assert_true(has_line(text, "gpu_time                   gpu__time_duration.sum"));
    cutune_free(text);
    assert_int_equal(cutune_profile_defaults_text(&text, "sm_80", 0), CUTUNE_OK);
    assert_non_null(strstr(text, "searches GA100's list for sm_80;"));
    cutune_free(text);
    assert_int_equal(cutune_profile_defaults_text(&text, "sm_99", 0), CUTUNE_EINVAL);
    assert_int_equal(cutune_profile_defaults_text(NULL, "sm_90", 0), CUTUNE_EINVAL);
}

static void profile_list_text(void **state)
{
    (void)state;
    char *text = NULL, *note = NULL;
    int shown = -1;
    assert_int_equal(cutune_profile_list_text(&text, &note, &shown, "sm_99", NULL), CUTUNE_EINVAL);
    assert_null(text);
    assert_int_equal(cutune_profile_list_text(NULL, &note, &shown, "sm_90", NULL), CUTUNE_EINVAL);
    int rc = cutune_profile_list_text(&text, &note, &shown, "sm_90", "dram__bytes");
    if (rc == CUTUNE_ENODEV) { /* no CUPTI here: nothing more to check */
        assert_null(text);
        return;
    }
    assert_int_equal(rc, CUTUNE_OK);
    assert_true(has_line(text, "counter     dram__bytes")); /* the kind in 11 columns, then the name */
    int lines = 0;
    for (const char *p = text; *p; p = strchr(p, '\n') + 1, lines++) {
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)(strchr(p, '\n') - p), p);
        assert_non_null(strstr(line, "dram__bytes"));
        assert_int_equal(p[11], ' ');
    }
    assert_int_equal(shown, lines);
    char expect[128];
    snprintf(expect, sizeof expect, "%d base metrics of GH100 (sm_90) containing 'dram__bytes'\n", lines);
    assert_string_equal(note, expect);
    cutune_free(text);
    cutune_free(note);
    assert_int_equal(cutune_profile_list_text(&text, &note, NULL, NULL, "no such metric"), CUTUNE_OK);
    assert_string_equal(text, "");
    assert_string_equal(note, "0 base metrics of GH100 (sm_90) containing 'no such metric'\n");
    cutune_free(text);
    cutune_free(note);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(list_lines),
        cmocka_unit_test(analysis_lines_and_summary),
        cmocka_unit_test(profile_text),
        cmocka_unit_test(select_block),
        cmocka_unit_test(results_spec),
        cmocka_unit_test(profile_note),
        cmocka_unit_test(profile_defaults_text),
        cmocka_unit_test(profile_list_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
