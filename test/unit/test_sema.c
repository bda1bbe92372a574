/* test_sema.c - what the checker puts in the model: resolved names, folded constants,
 * defaults, settings, paths. (Its error messages are covered by test/golden/.) */
#include "helpers.h"

static const m_param *param(const model *m, const char *name)
{
    for (int i = 0; i < m->nparams; i++)
        if (strcmp(m->params[i].name, name) == 0)
            return &m->params[i];
    fail_msg("no param %s", name);
    return NULL;
}

static const m_let *let_named(const model *m, const char *name)
{
    for (int i = 0; i < m->nlets; i++)
        if (strcmp(m->lets[i].name, name) == 0)
            return &m->lets[i];
    fail_msg("no let %s", name);
    return NULL;
}

static void test_lets_in_any_order_and_derived(void **state)
{
    (void)state;
    checked *c = check_with("let total = mid * 2;\nlet mid = base + 1;\nlet base = 7;\n"
                            "param bx in [32, 64];\nlet threads = bx * 2;\nrequire threads <= 128;");
    if (!c->m)
        fail_msg("%s", sb_cstr(&c->text));
    assert_int_equal(let_value(c->m, "total").u.i, 16);
    /* A let that reads a param is kept as an expression with that dependency. */
    const m_let *threads = let_named(c->m, "threads");
    assert_int_not_equal(threads->expr->kind, TX_CONST);
    assert_int_equal(threads->expr->deps, (param_set)1 << 0);
    assert_int_equal(c->m->requires[0].expr->deps, (param_set)1 << 0);
    checked_free(c);
}

/* What the checker records for compiler/cexpr.c: a folded constant keeps what it was
 * folded from (typed, the builtin resolved), a let's value read by name keeps the let,
 * and reads_let says whether a let is read, through derived lets too. */
static void test_folded_constants_remember_their_form(void **state)
{
    (void)state;
    checked *c = check_with("let nx = 100;\nlet k = max(nx, 2) / 4;\nlet six = 2 * 3;\nparam bx in [32, 64];\n"
                            "let d = bx + k;\nlet e = bx + six;");
    if (!c->m)
        fail_msg("%s", sb_cstr(&c->text));
    const texpr *k = let_named(c->m, "k")->expr;
    assert_int_equal(k->kind, TX_CONST);
    assert_true(k->reads_let);
    assert_true(k->u.k.type == VT_FLOAT && k->u.k.u.f == 25.0);
    const texpr *div = k->folded_from;
    assert_non_null(div);
    assert_int_equal(div->kind, TX_BINARY);
    assert_int_equal(div->u.op.op, OP_DIV);
    assert_int_equal(div->type, VT_FLOAT);
    const texpr *mx = div->u.op.a;
    assert_int_equal(mx->kind, TX_CONST);
    assert_non_null(mx->folded_from);
    assert_int_equal(mx->folded_from->kind, TX_CALL);
    assert_int_equal(mx->folded_from->u.call.fn, FN_MAX);
    assert_int_equal(mx->folded_from->type, VT_INT);
    const texpr *arg0 = mx->folded_from->u.call.args[0];
    assert_ptr_equal(arg0->from_let, let_named(c->m, "nx"));
    assert_null(arg0->folded_from);
    const texpr *arg1 = mx->folded_from->u.call.args[1];
    assert_null(arg1->from_let);
    assert_false(arg1->reads_let);
    /* Literals only: folded, but no let read. */
    const texpr *six = let_named(c->m, "six")->expr;
    assert_non_null(six->folded_from);
    assert_false(six->reads_let);
    /* Derived lets: d reads k (a let), e reads six by name too. */
    assert_true(let_named(c->m, "d")->expr->reads_let);
    assert_true(let_named(c->m, "e")->expr->reads_let);
    checked_free(c);
}

/* `in` means the comparisons it stands for: constant lists fold, a param's membership
 * becomes x == a || x == b ..., as a balanced tree (a long list stays shallow). */
static void test_membership(void **state)
{
    (void)state;
    checked *c = check_with("let a = 3 in [1, 2.0, 3];\nlet b = \"x\" not in [\"x\", \"y\"];\n"
                            "let t = true in [false];\nparam bx in [32, 64, 128];\nlet m = bx in [32, 128];\n"
                            "let long = bx in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];");
    if (!c->m)
        fail_msg("%s", sb_cstr(&c->text));
    assert_true(let_value(c->m, "a").u.b);
    assert_false(let_value(c->m, "b").u.b);
    assert_false(let_value(c->m, "t").u.b);
    const texpr *m = let_named(c->m, "m")->expr;
    assert_int_equal(m->type, VT_BOOL);
    assert_int_equal(m->kind, TX_BINARY);
    assert_int_equal(m->u.op.op, OP_OR);
    assert_int_equal(m->u.op.a->kind, TX_CHAIN);
    assert_int_equal(m->u.op.a->u.chain.ops[0], OP_EQ);
    assert_int_equal(m->u.op.a->u.chain.operands[0]->kind, TX_PARAM);
    assert_int_equal(m->deps, (param_set)1);
    /* 16 comparisons (each 2 levels: == over its leaves) under 4 levels of || */
    assert_int_equal(let_named(c->m, "long")->expr->depth, 6);
    checked_free(c);
    c = check_with("param bx in [32, 64];\nrequire bx in [32, \"64\"];");
    assert_null(c->m);
    assert_non_null(strstr(sb_cstr(&c->text), "and this one is a string"));
    checked_free(c);
}

/* compat kernel_tuner: the six macros, less those a param or let defines, and the
 * restriction on the block's threads as one more constraint over the block's params. */
static void test_compat_kernel_tuner(void **state)
{
    (void)state;
    checked *c = check_spec("kernel k from \"k.cu\" {\ncompat kernel_tuner;\nparam block_size_x in [256, 512, 1024];\n"
                            "param by in [1, 2];\nlet gy = 8 as define grid_size_y;\nblock (block_size_x, by);\n"
                            "grid (4, gy);\n}\n");
    if (!c->m)
        fail_msg("%s", sb_cstr(&c->text));
    assert_null(c->m->compat_macros[0]); /* the param defines block_size_x */
    assert_string_equal(c->m->compat_macros[1], "block_size_y");
    assert_string_equal(c->m->compat_macros[2], "block_size_z");
    assert_string_equal(c->m->compat_macros[3], "grid_size_x");
    assert_null(c->m->compat_macros[4]); /* the let does grid_size_y */
    assert_string_equal(c->m->compat_macros[5], "grid_size_z");
    assert_int_equal(c->m->nrequires, 1);
    assert_int_equal(c->m->requires[0].expr->deps, (param_set)3); /* both block params */
    checked_free(c);
    c = check_with("param bx in [256, 512];"); /* not asked for: nothing */
    if (!c->m)
        fail_msg("%s", sb_cstr(&c->text));
    for (int k = 0; k < 6; k++)
        assert_null(c->m->compat_macros[k]);
    assert_int_equal(c->m->nrequires, 0);
    checked_free(c);
}

static void test_cycle_is_an_error(void **state)
{
    (void)state;
    checked *c = check_with("let a = b + 1;\nlet b = a * 2;");
    assert_null(c->m);
    assert_non_null(strstr(sb_cstr(&c->text), "is defined in terms of itself"));
    checked_free(c);
}

static void test_domains(void **state)
{
    (void)state;
    checked *c = check_with("let top = 1024;\n"
                            "param a in 1 .. top step *2;\n"
                            "param b in 0 .. 100 step 25 default 50;\n"
                            "param f in [0.5, 1, 2];\n"
                            "param s in [\"x\", \"y\"] as none;\n"
                            "let u = a + b + f + (s == \"x\" ? 1 : 0);");
    if (!c->m)
        fail_msg("%s", sb_cstr(&c->text));
    const m_param *a = param(c->m, "a");
    assert_int_equal(a->dom.kind, DK_GEOM);
    assert_int_equal(a->dom.size, 11);
    assert_int_equal(model_domain_at(&a->dom, 10).u.i, 1024);
    const m_param *b = param(c->m, "b");
    assert_int_equal(b->dom.size, 5);
    assert_true(b->has_default);
    assert_int_equal(b->default_index, 2);
    assert_int_equal(model_domain_find(&b->dom, value_int(75)), 3);
    assert_int_equal(model_domain_find(&b->dom, value_int(10)), -1);
    const m_param *f = param(c->m, "f");
    assert_int_equal(f->dom.type, VT_FLOAT); /* ints promoted with the floats */
    assert_true(model_domain_at(&f->dom, 1).u.f == 1.0);
    assert_int_equal(param(c->m, "s")->route, ROUTE_NONE);
    checked_free(c);
}

static void test_settings_and_outputs(void **state)
{
    (void)state;
    checked *c = check_with("param x in [1, 2] default 2;\nparam y in [3, 4];\n"
                            "arg out_buf : out float[1024];\n"
                            "arg n : int = 1024;\n"
                            "arg in_buf : in half[x * 8] = random(seed = 7, min = -1, max = 1);\n"
                            "verify out_buf against config(y = 4) atol 1e-5 rtol 1e-3;\n"
                            "metric gbps = 8.0 * 1024 / time_s / 1e9;\n"
                            "objective maximise gbps;\n"
                            "search anneal(budget = 300, seed = 42, time = 10min, cooling = 0.9);\n"
                            "measure(warmup = 5, repeat = 20, max_repeat = 200, flush_l2 = false, "
                            "timeout = 500ms);\n"
                            "emit header \"out/k.h\";\nemit results \"r.json\";");
    if (!c->m)
        fail_msg("%s", sb_cstr(&c->text));
    const model *m = c->m;
    assert_int_equal(m->nargs, 3);
    assert_true(m->args[0].is_buffer);
    assert_int_equal(m->args[0].init, INIT_NONE);
    assert_int_equal(m->args[1].init, INIT_SCALAR);
    assert_int_equal(m->args[2].init, INIT_RANDOM);
    assert_int_equal(m->args[2].seed, 7);
    assert_true(m->args[2].lo == -1.0 && m->args[2].hi == 1.0);
    assert_true(m->verify.present);
    assert_false(m->verify.against_kernel);
    assert_int_equal(m->verify.noutputs, 1);
    assert_int_equal(m->verify.outputs[0], 0);
    assert_int_equal(m->verify.config[0], 1); /* x from its default, 2 */
    assert_int_equal(m->verify.config[1], 1); /* y = 4 */
    assert_true(m->verify.atol == 1e-5 && m->verify.rtol == 1e-3);
    assert_true(m->maximize);
    assert_string_equal(m->objective_name, "gbps");
    assert_true(m->objective->uses_time);
    assert_int_equal(m->search.strategy, STRAT_ANNEAL);
    assert_int_equal(m->search.budget, 300);
    assert_int_equal(m->search.seed, 42);
    assert_true(m->search.time_limit_s == 600.0);
    assert_true(m->search.cooling == 0.9);
    assert_int_equal(m->measure.warmup, 5);
    assert_int_equal(m->measure.repeat, 20);
    assert_int_equal(m->measure.max_repeat, 200);
    assert_false(m->measure.flush_l2);
    assert_true(m->measure.timeout_s == 0.5);
    assert_string_equal(m->emit.header_path, "./out/k.h");
    assert_string_equal(m->emit.header_prefix, "K"); /* default: the kernel's name */
    assert_string_equal(m->emit.results_path, "./r.json");
    checked_free(c);
}

static void test_defaults_when_unsaid(void **state)
{
    (void)state;
    checked *c = check_with("param x in [1, 2];");
    assert_non_null(c->m);
    assert_int_equal(c->m->search.strategy, STRAT_EXHAUSTIVE);
    assert_null(c->m->objective); /* minimise time */
    assert_false(c->m->maximize);
    assert_int_equal(c->m->measure.warmup, 3);
    assert_true(c->m->measure.flush_l2);
    assert_false(c->m->verify.present);
    checked_free(c);
}

/* A device described by hand: an H100 PCIe's figures (114 SMs, per its product page). */
static dev_values pcie_h100(void)
{
    dev_values d;
    memset(&d, 0, sizeof d);
    d.v[DA_SM_COUNT] = 114;
    d.v[DA_MAX_THREADS_PER_SM] = 2048;
    d.v[DA_MAX_THREADS_PER_BLOCK] = 1024;
    d.v[DA_WARP_SIZE] = 32;
    d.v[DA_CC_MAJOR] = 9;
    d.v[DA_CC_MINOR] = 0;
    d.v[DA_CC] = 90;
    d.v[DA_L2_BYTES] = 50 << 20;
    snprintf(d.source, sizeof d.source, "by hand");
    return d;
}

static void test_device_attributes_from_a_description(void **state)
{
    (void)state;
    dev_values d = pcie_h100();
    checked *c = check_spec_on("kernel k from \"k.cu\" {\n"
                               "    param bps in 1 .. sm_count // 38 as none;\n" /* a domain: 1, 2, 3 */
                               "    let blocks = sm_count * 2, hopper = cc == 90 && cc_major == 9;\n"
                               "    let warps = max_threads_per_sm // warp_size;\n"
                               "    block 32;\n    grid sm_count * bps;\n}\n",
                               &d);
    assert_non_null(c->m);
    assert_int_equal(let_value(c->m, "blocks").u.i, 228);
    assert_true(let_value(c->m, "hopper").u.b);
    assert_int_equal(let_value(c->m, "warps").u.i, 64);
    assert_int_equal(c->m->params[0].dom.size, 3);
    uint32_t want =
        1u << DA_SM_COUNT | 1u << DA_CC | 1u << DA_CC_MAJOR | 1u << DA_MAX_THREADS_PER_SM | 1u << DA_WARP_SIZE;
    assert_int_equal(c->m->device_used, want);
    assert_int_equal(c->m->device.v[DA_SM_COUNT], 114);
    checked_free(c);
    /* Without a description, reading one is an error that names it. */
    c = check_with("let g = sm_count;");
    assert_null(c->m);
    assert_non_null(strstr(sb_cstr(&c->text), "'sm_count' is a device attribute"));
    checked_free(c);
    /* A spec that reads none does not depend on the device. */
    c = check_spec_on("kernel k from \"k.cu\" {\n block 32;\n grid 1;\n}\n", &d);
    assert_non_null(c->m);
    assert_int_equal(c->m->device_used, 0);
    checked_free(c);
}

static void test_device_attribute_names_cannot_be_declared(void **state)
{
    (void)state;
    dev_values d = pcie_h100();
    checked *c = check_spec_on("kernel k from \"k.cu\" {\n let warp_size = 64;\n block 32;\n grid 1;\n}\n", &d);
    assert_null(c->m);
    assert_non_null(strstr(sb_cstr(&c->text), "'warp_size' is a built-in name (the device attribute"));
    checked_free(c);
}

static void test_let_as_define_and_option_switch(void **state)
{
    (void)state;
    checked *c = check_with("param bx in [64, 128];\n"
                            "param fast in [false, true] as option \"--use_fast_math\";\n"
                            "let n = 4096 as define N, per = bx * 2 as define, plain = 3;");
    assert_non_null(c->m);
    assert_string_equal(c->m->lets[0].macro, "N");
    assert_string_equal(c->m->lets[1].macro, "per"); /* the let's own name, case kept */
    assert_null(c->m->lets[2].macro);
    assert_true(c->m->params[1].option_switch);
    assert_false(c->m->params[0].option_switch);
    checked_free(c);
    c = check_with("param level in [1, 3] as option \"-O{}\";"); /* a format: not a switch */
    assert_non_null(c->m);
    assert_false(c->m->params[0].option_switch);
    checked_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_attributes_from_a_description),
        cmocka_unit_test(test_device_attribute_names_cannot_be_declared),
        cmocka_unit_test(test_let_as_define_and_option_switch),
        cmocka_unit_test(test_lets_in_any_order_and_derived),
        cmocka_unit_test(test_folded_constants_remember_their_form),
        cmocka_unit_test(test_cycle_is_an_error),
        cmocka_unit_test(test_domains),
        cmocka_unit_test(test_membership),
        cmocka_unit_test(test_compat_kernel_tuner),
        cmocka_unit_test(test_settings_and_outputs),
        cmocka_unit_test(test_defaults_when_unsaid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
