/* test_public.c - the public structs hold no fixed char arrays (the project's rule:
 * text is a const char * owned by the object, documented), and the strings that were
 * arrays are whole, never NULL where the header says so, and live as long as their
 * owner. Only the public header and jansson. */
#include <ctype.h>
#include <dirent.h>
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cutune.h"

/* How many module headers (`#include "cutune/...`) the umbrella cutune.h includes. */
static int umbrella_includes(void)
{
    FILE *f = fopen(CUTUNE_SOURCE_DIR "/include/cutune.h", "r");
    assert_non_null(f);
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, f))
        n += strncmp(line, "#include \"cutune/", 17) == 0;
    fclose(f);
    assert_true(n >= 9); /* common, spec, space, device, analyze, tune, results, emit, simulate */
    return n;
}

/* Every `char NAME[` in a public header: a fixed array of text in a struct (the
 * headers declare nothing else of that shape). */
static void test_no_fixed_char_arrays_in_public_headers(void **state)
{
    (void)state;
    const char *dir = CUTUNE_SOURCE_DIR "/include/cutune";
    DIR *d = opendir(dir);
    assert_non_null(d);
    int headers = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 3 || strcmp(e->d_name + len - 2, ".h") != 0)
            continue;
        headers++;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        char line[1024];
        int lineno = 0;
        while (fgets(line, sizeof line, f)) {
            lineno++;
            const char *comment = strstr(line, "/*"); /* prose may say "char x[...]" */
            for (const char *p = line; (p = strstr(p, "char")) != NULL; p += 4) {
                if (comment && p > comment)
                    break;
                if (p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
                    continue;
                const char *q = p + 4;
                if (!isspace((unsigned char)*q))
                    continue;
                while (isspace((unsigned char)*q))
                    q++;
                while (isalnum((unsigned char)*q) || *q == '_')
                    q++;
                while (isspace((unsigned char)*q))
                    q++;
                if (*q == '[')
                    fail_msg("%s:%d: a fixed char array in a public header: %s", path, lineno, line);
            }
        }
        fclose(f);
    }
    closedir(d);
    assert_int_equal(headers, umbrella_includes()); /* every module header read, none stray */
}

/* A loaded result: the device's and the summary's strings are the file's, whole. */
static void test_result_strings_are_the_files(void **state)
{
    (void)state;
    const char *path = CUTUNE_SOURCE_DIR "/test/data/report-sgemm-genetic-h100.json";
    cutune_tune_result *r = NULL;
    assert_int_equal(cutune_results_load(&r, path), CUTUNE_OK);
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    assert_non_null(root);
    json_t *dev = json_object_get(root, "device");
    const cutune_device *d = cutune_tune_device(r);
    assert_string_equal(d->name, json_string_value(json_object_get(dev, "name")));
    assert_string_equal(d->arch, json_string_value(json_object_get(dev, "arch")));
    const cutune_tune_summary *s = cutune_tune_summary_of(r);
    assert_string_equal(s->device_name, d->name);
    assert_string_equal(s->arch, d->arch);
    assert_string_equal(s->objective_name,
                        json_string_value(json_object_get(json_object_get(root, "objective"), "name")));
    assert_non_null(s->strategy); /* never NULL ("" when the file's summary does not say) */
    assert_null(s->profile_note); /* nothing to say: NULL */
    json_decref(root);
    cutune_tune_result_free(r);
}

/* A summary's note is kept whole: a results file whose summary holds one longer than
 * the 511 bytes the old array kept. */
static void test_profile_note_is_whole(void **state)
{
    (void)state;
    const char *path = CUTUNE_SOURCE_DIR "/test/data/report-hw-tiny-h100.json";
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    assert_non_null(root);
    char note[700];
    memset(note, 'n', sizeof note - 1);
    note[sizeof note - 1] = '\0';
    memcpy(note, "CUPTI: ", 7);
    json_object_set_new(json_object_get(root, "summary"), "profile_note", json_string(note));
    char tmp[] = "/tmp/cutune-public-XXXXXX";
    int fd = mkstemp(tmp);
    assert_true(fd >= 0);
    assert_int_equal(json_dumpfd(root, fd, 0), 0);
    json_decref(root);
    cutune_tune_result *r = NULL;
    int rc = cutune_results_load(&r, tmp);
    remove(tmp);
    if (rc != CUTUNE_OK)
        fail_msg("load: %s", cutune_last_error());
    assert_string_equal(cutune_tune_summary_of(r)->profile_note, note);
    cutune_tune_result_free(r);
}

static int each(void *user, const cutune_analysis *a)
{
    (void)user;
    (void)a;
    return 0;
}

/* The analysis summary's arch belongs to the spec: valid after the summary is gone and
 * the caller's text has changed. */
static void test_analysis_arch_is_the_specs(void **state)
{
    (void)state;
    cutune_load_options lo = CUTUNE_LOAD_OPTIONS_INIT;
    cutune_spec *spec = NULL;
    assert_int_equal(cutune_spec_load_file(&spec, CUTUNE_SOURCE_DIR "/examples/sweep.tune", &lo), CUTUNE_OK);
    cutune_analyze_options o = CUTUNE_ANALYZE_OPTIONS_INIT;
    char arch[16];
    snprintf(arch, sizeof arch, "sm_%d", 90);
    o.arch = arch;
    o.no_cache = 1;
    o.limit = 1;
    o.jobs = 1;
    cutune_analyze_summary sum;
    assert_int_equal(cutune_analyze(&sum, spec, &o, each, NULL), CUTUNE_OK);
    const char *kept = sum.arch;
    memset(arch, 0, sizeof arch); /* the caller's text changes; the summary's does not */
    memset(&sum, 0, sizeof sum);
    assert_string_equal(kept, "sm_90");
    cutune_spec_free(spec);
}

/* Occupancy's arch is static: valid after the struct is gone. */
static void test_occupancy_arch_is_static(void **state)
{
    (void)state;
    const char *kept;
    {
        cutune_occupancy occ;
        assert_int_equal(cutune_occupancy_for_arch(&occ, "9.0", 32, 256, 0), CUTUNE_OK);
        kept = occ.arch;
    }
    assert_string_equal(kept, "sm_90");
}

/* An application's device may leave its strings NULL. */
static void test_devices_with_null_strings(void **state)
{
    (void)state;
    cutune_device a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    assert_int_equal(cutune_device_same_model(&a, &b), 1);
    b.name = "";
    assert_int_equal(cutune_device_same_model(&a, &b), 1);
    b.name = "NVIDIA H100 80GB HBM3";
    assert_int_equal(cutune_device_same_model(&a, &b), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_fixed_char_arrays_in_public_headers),
        cmocka_unit_test(test_result_strings_are_the_files),
        cmocka_unit_test(test_profile_note_is_whole),
        cmocka_unit_test(test_analysis_arch_is_the_specs),
        cmocka_unit_test(test_occupancy_arch_is_static),
        cmocka_unit_test(test_devices_with_null_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
