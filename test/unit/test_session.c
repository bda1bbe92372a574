/* test_session.c - the compile session (session/session.h) without a GPU: a configuration
 * planned as a variant, and a failed plan as a diagnostic; the whole space compiled in
 * listing order with identical binaries compiled once (and their one cubin shared), a
 * compile failure, the limit and a callback that stops, a second listing reusing every
 * binary; batches that reuse binaries
 * compiled by an earlier batch; the set-up's errors (an architecture NVRTC lacks, a
 * kernel file that cannot be read). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/internal.h"
#include "session/session.h"

static char dir[256];

static void write_file(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static const char kernel_src[] = "template <int BLOCK>\n"
                                 "__global__ void k(float *x)\n"
                                 "{\n"
                                 "#if UNROLL == 3\n"
                                 "#error deliberate failure for UNROLL == 3\n"
                                 "#endif\n"
                                 "    x[blockIdx.x * BLOCK + threadIdx.x] *= UNROLL;\n"
                                 "}\n";

/* 2 BLOCK x 2 UNROLL x 2 spread = 8 variants; spread is `as none`, so 4 binaries. */
static const char spec_src[] = "kernel k<BLOCK> from \"k.cu\" {\n"
                               "  param BLOCK in [64, 128] as template;\n"
                               "  param UNROLL in [1, 3];\n"
                               "  param spread in [1, 2] as none;\n"
                               "  block BLOCK; grid %s;\n"
                               "}\n";

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/cutune-test-session-XXXXXX");
    assert_non_null(mkdtemp(dir));
    write_file("k.cu", kernel_src);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

/* The spec above with `grid` as given, loaded from text (kernel file beside it). */
static cutune_spec *load(const char *grid, const char *kernel_file)
{
    char text[1024];
    snprintf(text, sizeof text, spec_src, grid);
    if (kernel_file) {
        char *k = strstr(text, "\"k.cu\"");
        assert_non_null(k);
        char rest[1024];
        snprintf(rest, sizeof rest, "\"%s\"%s", kernel_file, k + strlen("\"k.cu\""));
        snprintf(k, sizeof text - (size_t)(k - text), "%s", rest);
    }
    cutune_load_options lo = CUTUNE_LOAD_OPTIONS_INIT;
    lo.base_dir = dir;
    lo.skip_file_checks = kernel_file != NULL;
    cutune_spec *spec;
    int rc = cutune_spec_load_string(&spec, "s.tune", text, strlen(text), &lo);
    if (rc != CUTUNE_OK)
        fail_msg("load: %s\n%s", cutune_status_text(rc), cutune_spec_diagnostics(spec, 0, 0));
    return spec;
}

static cutune_analyze_options options(void)
{
    cutune_analyze_options o = CUTUNE_ANALYZE_OPTIONS_INIT;
    o.jobs = 2;
    o.no_cache = 1;
    return o;
}

typedef struct seen {
    int n, stop_at;
    uint64_t ordinal[8];
    int compiled[8], duplicate[8], launchable[8];
    const unsigned char *cubin[8];
    size_t cubin_size[8];
} seen;

static int record(void *user, const cutune_analysis *a, const value *vals, const session_binary *bin);

static void test_variant_of(void **state)
{
    (void)state;
    cutune_spec *spec = load("1024 * spread", NULL);
    arena *a = arena_new();
    assert_non_null(a);
    const char *values[3];
    value vals[3] = {value_int(128), value_int(3), value_int(2)};
    cutune_variant v;
    assert_int_equal(session_variant_of(spec->model, &spec->diags, vals, a, values, "iii", 7, &v), 0);
    assert_int_equal(v.ordinal, 7);
    assert_int_equal(v.nparams, 3);
    assert_string_equal(v.values[0], "128");
    assert_string_equal(v.values[1], "3");
    assert_string_equal(v.values[2], "2");
    assert_string_equal(v.name_expression, "k<128>");
    assert_int_equal(v.ndefines, 1);
    assert_string_equal(v.defines[0], "-DUNROLL=3");
    assert_int_equal(v.block[0], 128);
    assert_int_equal(v.grid[0], 2048);
    arena_free(a);
    cutune_spec_free(spec);

    /* A grid that is not positive: a diagnostic on the spec, CUTUNE_EEVAL. */
    spec = load("1024 * (spread - 2)", NULL);
    a = arena_new();
    int errors = cutune_spec_error_count(spec);
    vals[2] = value_int(1);
    assert_int_equal(session_variant_of(spec->model, &spec->diags, vals, a, values, "iii", 0, &v), CUTUNE_EEVAL);
    assert_int_equal(cutune_spec_error_count(spec), errors + 1);
    /* ... and the space's first configuration fails the same way: nothing compiled. */
    cutune_analyze_options o = options();
    cutune_analyze_summary sum;
    session *s;
    assert_int_equal(session_open(&s, spec->model, &spec->diags, "sm_90", &o, false, &sum), CUTUNE_OK);
    seen r = {0};
    assert_int_equal(session_run_space(s, record, &r), CUTUNE_EEVAL);
    assert_int_equal(r.n, 0);
    assert_int_equal(sum.variants, 0);
    assert_int_equal(cutune_spec_error_count(spec), errors + 2);
    session_close(s);
    arena_free(a);
    cutune_spec_free(spec);
}

/* Records variant `a` (and its binary) in the seen (user); stops at stop_at. Every
 * variant's typed values are those it was planned from: the spec above makes BLOCK the
 * template argument and the block, UNROLL a define; each value's text is its number. */
static int record(void *user, const cutune_analysis *a, const value *vals, const session_binary *bin)
{
    seen *s = user;
    assert_true(s->n < 8);
    const cutune_variant *v = a->variant;
    assert_non_null(vals);
    for (int i = 0; i < 3; i++)
        assert_int_equal(vals[i].type, VT_INT);
    char want[64];
    snprintf(want, sizeof want, "k<%lld>", (long long)vals[0].u.i);
    assert_string_equal(v->name_expression, want);
    assert_int_equal(v->block[0], vals[0].u.i);
    snprintf(want, sizeof want, "-DUNROLL=%lld", (long long)vals[1].u.i);
    assert_string_equal(v->defines[0], want);
    for (int i = 0; i < 3; i++) {
        snprintf(want, sizeof want, "%lld", (long long)vals[i].u.i);
        assert_string_equal(v->values[i], want);
    }
    s->ordinal[s->n] = a->variant->ordinal;
    s->compiled[s->n] = a->compiled;
    s->duplicate[s->n] = a->duplicate;
    s->launchable[s->n] = a->launchable;
    s->cubin[s->n] = bin ? bin->cubin : NULL;
    s->cubin_size[s->n] = bin ? bin->cubin_size : 0;
    if (bin) {
        assert_true(a->compiled);
        assert_true(bin->cubin_size > 4 && memcmp(bin->cubin, "\177ELF", 4) == 0);
        assert_non_null(strstr(bin->symbol, "k"));
    }
    s->n++;
    return s->stop_at && s->n == s->stop_at;
}

static void test_space(void **state)
{
    (void)state;
    cutune_spec *spec = load("1024 * spread", NULL);
    cutune_analyze_options o = options();
    cutune_analyze_summary sum;
    session *s;
    assert_int_equal(session_open(&s, spec->model, &spec->diags, "sm_90", &o, true, &sum), CUTUNE_OK);
    assert_string_equal(sum.arch, "sm_90");
    assert_int_equal(sum.threads, 2);
    seen r = {0};
    int rc = session_run_space(s, record, &r);
    if (rc != CUTUNE_OK)
        fail_msg("%s\n%s", cutune_status_text(rc), cutune_spec_diagnostics(spec, 0, 0));
    /* Listing order: BLOCK, then UNROLL, then spread; UNROLL 3 does not compile. */
    assert_int_equal(r.n, 8);
    for (int i = 0; i < 8; i++) {
        assert_int_equal(r.ordinal[i], i);
        assert_int_equal(r.duplicate[i], i % 2);
        assert_int_equal(r.compiled[i], (i / 2) % 2 == 0);
        assert_int_equal(r.launchable[i], (i / 2) % 2 == 0);
        assert_int_equal(r.cubin[i] != NULL, (i / 2) % 2 == 0);
        if (i % 2) /* a duplicate shares its first variant's cubin */
            assert_ptr_equal(r.cubin[i], r.cubin[i - 1]);
    }
    assert_ptr_not_equal(r.cubin[0], r.cubin[4]);
    assert_int_equal(sum.variants, 8);
    assert_int_equal(sum.duplicates, 4);
    assert_int_equal(sum.compiled, 4);
    assert_int_equal(sum.failed, 4);
    assert_int_equal(sum.cached, 0);
    /* Listed again: the same ordinals, every variant now reuses a binary. */
    const unsigned char *first = r.cubin[0];
    memset(&r, 0, sizeof r);
    assert_int_equal(session_run_space(s, record, &r), CUTUNE_OK);
    assert_int_equal(r.n, 8);
    for (int i = 0; i < 8; i++) {
        assert_int_equal(r.ordinal[i], i);
        assert_true(r.duplicate[i]);
    }
    assert_ptr_equal(r.cubin[0], first);
    assert_int_equal(sum.variants, 16);
    assert_int_equal(sum.compiled, 4);
    session_close(s);

    /* A limit; a callback that stops. */
    o.limit = 3;
    assert_int_equal(session_open(&s, spec->model, &spec->diags, "sm_90", &o, false, &sum), CUTUNE_OK);
    memset(&r, 0, sizeof r);
    assert_int_equal(session_run_space(s, record, &r), CUTUNE_OK);
    assert_int_equal(r.n, 3);
    assert_null(r.cubin[0]); /* binaries not kept */
    session_close(s);
    o.limit = 0;
    assert_int_equal(session_open(&s, spec->model, &spec->diags, "sm_90", &o, false, &sum), CUTUNE_OK);
    memset(&r, 0, sizeof r);
    r.stop_at = 2;
    assert_int_equal(session_run_space(s, record, &r), CUTUNE_ESTOPPED);
    assert_int_equal(r.n, 2);
    session_close(s);
    cutune_spec_free(spec);
}

static void test_batches(void **state)
{
    (void)state;
    cutune_spec *spec = load("1024 * spread", NULL);
    cutune_analyze_options o = options();
    cutune_analyze_summary sum;
    session *s;
    assert_int_equal(session_open(&s, spec->model, &spec->diags, "sm_90", &o, true, &sum), CUTUNE_OK);
    value first[6] = {value_int(64), value_int(1), value_int(1), value_int(64), value_int(3), value_int(1)};
    uint64_t first_ords[2] = {10, 11};
    seen r = {0};
    assert_int_equal(session_run(s, first, first_ords, 2, record, &r), CUTUNE_OK);
    assert_int_equal(r.n, 2);
    assert_int_equal(r.ordinal[0], 10);
    assert_int_equal(r.ordinal[1], 11);
    assert_true(r.compiled[0]);
    assert_false(r.compiled[1]);
    const unsigned char *cubin = r.cubin[0];
    assert_non_null(cubin);
    /* The second batch: (64, 1, 2) compiles to the first batch's binary. */
    value second[6] = {value_int(64), value_int(1), value_int(2), value_int(128), value_int(1), value_int(1)};
    uint64_t second_ords[2] = {20, 21};
    memset(&r, 0, sizeof r);
    assert_int_equal(session_run(s, second, second_ords, 2, record, &r), CUTUNE_OK);
    assert_int_equal(r.n, 2);
    assert_int_equal(r.ordinal[0], 20);
    assert_true(r.duplicate[0]);
    assert_ptr_equal(r.cubin[0], cubin);
    assert_false(r.duplicate[1]);
    assert_non_null(r.cubin[1]);
    assert_int_equal(sum.variants, 4);
    assert_int_equal(sum.compiled, 3);
    assert_int_equal(sum.duplicates, 1);
    assert_int_equal(sum.failed, 1);
    session_close(s);
    cutune_spec_free(spec);
}

/* A stream that, like a genetic generation, gives 3 configurations and then waits until
 * they are delivered; it checks that it is asked again only after a delivery. */
typedef struct stream {
    value all[8][3];
    int fed, waits, asked_while_waiting;
    int delivered_at_wait;
    seen *r;
    bool never; /* always SESSION_WAIT */
    session *s;
    int in_flight_wrong; /* asks where session_in_flight was not fed - delivered */
} stream;

static int stream_feed(void *user, const value **vals, uint64_t *ordinal)
{
    stream *st = user;
    if (st->never)
        return SESSION_WAIT;
    if (st->s && session_in_flight(st->s) != (uint64_t)(st->fed - st->r->n))
        st->in_flight_wrong++;
    if (st->fed == 8)
        return 0;
    if (st->fed % 3 == 0 && st->fed > 0 && st->r->n < st->fed) {
        if (st->delivered_at_wait == st->r->n)
            st->asked_while_waiting++; /* asked again with no delivery since the last wait */
        st->delivered_at_wait = st->r->n;
        st->waits++;
        return SESSION_WAIT;
    }
    *vals = st->all[st->fed];
    *ordinal = 100 + (uint64_t)st->fed;
    st->fed++;
    return 1;
}

static void test_stream(void **state)
{
    (void)state;
    cutune_spec *spec = load("1024 * spread", NULL);
    cutune_analyze_options o = options();
    cutune_analyze_summary sum;
    session *s;
    assert_int_equal(session_open(&s, spec->model, &spec->diags, "sm_90", &o, true, &sum), CUTUNE_OK);
    seen r = {0};
    stream st = {.r = &r, .delivered_at_wait = -1, .s = s};
    for (int i = 0; i < 8; i++) { /* BLOCK, UNROLL, spread as listed */
        st.all[i][0] = value_int(i / 4 ? 128 : 64);
        st.all[i][1] = value_int((i / 2) % 2 ? 3 : 1);
        st.all[i][2] = value_int(i % 2 + 1);
    }
    assert_int_equal(session_stream(s, stream_feed, &st, record, &r), CUTUNE_OK);
    /* every configuration fed is delivered once: as it is compiled, so not necessarily
     * in the order fed, but a duplicate never before the binary it shares */
    assert_int_equal(r.n, 8);
    int at[8];
    for (int i = 0; i < 8; i++)
        at[i] = -1;
    for (int j = 0; j < 8; j++) {
        int i = (int)r.ordinal[j] - 100;
        assert_true(i >= 0 && i < 8);
        assert_int_equal(at[i], -1);
        at[i] = j;
        assert_int_equal(r.compiled[j], (i / 2) % 2 == 0);
        if (r.duplicate[j]) /* spread 2 shares spread 1's binary, fed just before it */
            assert_true(at[i - 1] >= 0 && at[i - 1] < j);
    }
    assert_true(st.waits >= 2); /* after the 3rd and the 6th */
    assert_int_equal(st.asked_while_waiting, 0);
    assert_int_equal(st.in_flight_wrong, 0);
    assert_int_equal(session_in_flight(s), 0); /* all delivered at the end */
    /* A stream that only ever waits, with nothing in flight: the end, not a hang. */
    memset(&r, 0, sizeof r);
    stream never = {.r = &r, .never = true};
    assert_int_equal(session_stream(s, stream_feed, &never, record, &r), CUTUNE_OK);
    assert_int_equal(r.n, 0);
    session_close(s);
    cutune_spec_free(spec);
}

static void test_open_errors(void **state)
{
    (void)state;
    cutune_spec *spec = load("1024", NULL);
    cutune_analyze_options o = options();
    cutune_analyze_summary sum;
    session *s = (session *)&sum; /* set to NULL on failure */
    int errors = cutune_spec_error_count(spec);
    assert_int_equal(session_open(&s, spec->model, &spec->diags, "sm_10", &o, false, &sum), CUTUNE_EINVAL);
    assert_null(s);
    assert_int_equal(cutune_spec_error_count(spec), errors + 1);
    assert_non_null(strstr(cutune_spec_diagnostics(spec, errors, 0), "cannot compile for 'sm_10'"));
    cutune_spec_free(spec);

    spec = load("1024", "missing.cu");
    errors = cutune_spec_error_count(spec);
    assert_int_equal(session_open(&s, spec->model, &spec->diags, "sm_90", &o, false, &sum), CUTUNE_EIO);
    assert_null(s);
    assert_non_null(strstr(cutune_spec_diagnostics(spec, errors, 0), "cannot read kernel file"));
    session_close(NULL);
    cutune_spec_free(spec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_variant_of), cmocka_unit_test(test_space),       cmocka_unit_test(test_batches),
        cmocka_unit_test(test_stream),     cmocka_unit_test(test_open_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
