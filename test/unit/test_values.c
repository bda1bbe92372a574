/* test_values.c - a variant carries its typed values (session/session.h, results'
 * record, the worker's request): for every variant of a space whose params are of all
 * four types, the values the session delivers are the configuration the spec lists at
 * that ordinal (written out below from the spec's text, not by the code under test),
 * each of its param's type, and what the variant's text says; the variant is what the
 * spec's model plans from them; a record keeps a copy that agrees with its own text;
 * and they cross the pipe to the worker typed and come back equal, bit for bit. A
 * variant whose values disagreed with its text (or a text read back into values)
 * fails here. Needs NVRTC (the session compiles), not a GPU. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api/internal.h"
#include "compiler/plan.h"
#include "results/result.h"
#include "session/session.h"
#include "tuner/gw.h"
#include "tuner/tuner.h"

static char dir[256];

static const char kernel_src[] = "template <int BLOCK>\n"
                                 "__global__ void k(float *x) { x[blockIdx.x * BLOCK + threadIdx.x] = 1.0f; }\n";

/* 2 x 3 x 2 x 2 = 24 variants, 2 binaries (only BLOCK reaches the code). The floats
 * have no short binary form (0.1), are tiny (1e-7) or whole (2.0); the strings hold a
 * space and a quote. */
static const char spec_src[] = "kernel k<BLOCK> from \"k.cu\" {\n"
                               "  param BLOCK in [64, 128] as template;\n"
                               "  param scale in [0.1, 1e-7, 2.0] as none;\n"
                               "  param fast in [true, false] as none;\n"
                               "  param mode in [\"a b\", \"q\\\"z\"] as none;\n"
                               "  block BLOCK; grid 4;\n"
                               "}\n";

/* The configuration at ordinal `ord` as the spec lists it (the last param varies
 * fastest), from the spec's text above. */
static void listed(uint64_t ord, value *out)
{
    static const int64_t block[] = {64, 128};
    static const double scale[] = {0.1, 1e-7, 2.0};
    static const char *const mode[] = {"a b", "q\"z"};
    out[0] = value_int(block[ord / 12]);
    out[1] = value_float(scale[(ord / 4) % 3]);
    out[2] = value_bool((ord / 2) % 2 == 0);
    out[3] = value_string(mode[ord % 2]);
}

typedef struct check {
    cutune_spec *spec;
    cutune_tune_result *res;
    arena *a;
    int n;
    bool seen[24];
} check;

/* value_equal, floats bit for bit. */
static void assert_same_value(value x, value y)
{
    assert_int_equal(x.type, y.type);
    if (x.type == VT_FLOAT)
        assert_memory_equal(&x.u.f, &y.u.f, sizeof(double));
    else
        assert_true(value_equal(x, y));
}

/* Each of vals (n) is its param's type and writes as text[i]. */
static void assert_agree(const model *m, const value *vals, const char *const *text, int n)
{
    for (int i = 0; i < n; i++) {
        assert_int_equal(vals[i].type, m->params[i].dom.type);
        strbuf sb = STRBUF_INIT;
        value_format(vals[i], &sb, false);
        assert_true(sb_ok(&sb));
        assert_string_equal(text[i], sb_cstr(&sb));
        sb_free(&sb);
    }
}

static int each(void *user, const cutune_analysis *an, const value *vals, const session_binary *bin)
{
    (void)bin;
    check *c = user;
    const model *m = c->spec->model;
    const cutune_variant *v = an->variant;
    assert_true(v->ordinal < 24);
    assert_false(c->seen[v->ordinal]);
    c->seen[v->ordinal] = true;
    c->n++;
    /* the configuration listed at its ordinal, each value of its param's type and
     * writing as the variant's text */
    value want[4];
    listed(v->ordinal, want);
    assert_int_equal(v->nparams, 4);
    for (int i = 0; i < 4; i++)
        assert_same_value(vals[i], want[i]);
    assert_agree(m, vals, v->values, 4);
    /* the model plans the same variant from the carried values */
    variant pv;
    eval_error e;
    arena_reset(c->a);
    assert_int_equal(plan_variant(m, vals, c->a, &pv, &e), 0);
    assert_string_equal(pv.name_expression, v->name_expression);
    assert_int_equal(pv.block[0], v->block[0]);
    /* a record keeps its own copy (strings too), which agrees with its own text */
    record *rec = result_add(c->res, an, vals);
    assert_non_null(rec);
    assert_non_null(rec->vals);
    for (int i = 0; i < 4; i++)
        assert_same_value(rec->vals[i], want[i]);
    assert_ptr_not_equal(rec->vals[3].u.s, vals[3].u.s);
    assert_agree(m, rec->vals, rec->v.values, 4);
    /* to the worker and back: typed on the wire, equal at the other end */
    wk_value plain[4];
    gpu_plain_values(rec->vals, 4, plain);
    wk_request q = {.ordinal = v->ordinal, .nvalues = 4, .values = plain, .symbol = "k", .cubin = NULL};
    wk_frame f = WK_FRAME_INIT;
    wk_encode_request(&f, &q);
    wk_request d;
    assert_int_equal(wk_decode_request(&f, c->a, &d), 0);
    value back[4];
    assert_int_equal(gw_request_values(m, &d, back), 0);
    for (int i = 0; i < 4; i++)
        assert_same_value(back[i], want[i]);
    /* a request whose values are not this spec's is refused */
    plain[1].type = 'i';
    assert_int_equal(gw_request_values(m, &(wk_request){.nvalues = 4, .values = plain}, back), -1);
    assert_int_equal(gw_request_values(m, &(wk_request){.nvalues = 3, .values = d.values}, back), -1);
    wk_frame_free(&f);
    return 0;
}

static void test_every_variant_carries_its_values(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/cutune-test-values-XXXXXX");
    assert_non_null(mkdtemp(dir));
    char path[512];
    snprintf(path, sizeof path, "%s/k.cu", dir);
    FILE *fk = fopen(path, "w");
    assert_non_null(fk);
    fputs(kernel_src, fk);
    fclose(fk);
    cutune_load_options lo = CUTUNE_LOAD_OPTIONS_INIT;
    lo.base_dir = dir;
    cutune_spec *spec;
    int rc = cutune_spec_load_string(&spec, "s.tune", spec_src, strlen(spec_src), &lo);
    if (rc != CUTUNE_OK)
        fail_msg("load: %s\n%s", cutune_status_text(rc), cutune_spec_diagnostics(spec, 0, 0));
    cutune_analyze_options o = CUTUNE_ANALYZE_OPTIONS_INIT;
    o.jobs = 2;
    o.no_cache = 1;
    cutune_analyze_summary sum;
    session *s;
    assert_int_equal(session_open(&s, spec->model, &spec->diags, "sm_90", &o, false, &sum), CUTUNE_OK);
    check c = {spec, result_create(), arena_new(), 0, {false}};
    assert_non_null(c.res);
    assert_non_null(c.a);
    rc = session_run_space(s, each, &c);
    if (rc != CUTUNE_OK)
        fail_msg("%s\n%s", cutune_status_text(rc), cutune_spec_diagnostics(spec, 0, 0));
    assert_int_equal(c.n, 24);
    /* a batch (a search's proposals) carries the values it was given, not re-derived ones */
    value batch[8];
    listed(23, batch);
    listed(5, batch + 4);
    uint64_t ords[2] = {23, 5};
    memset(c.seen, 0, sizeof c.seen);
    c.n = 0;
    assert_int_equal(session_run(s, batch, ords, 2, each, &c), CUTUNE_OK);
    assert_int_equal(c.n, 2);
    session_close(s);
    result_destroy(c.res);
    arena_free(c.a);
    cutune_spec_free(spec);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_variant_carries_its_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
