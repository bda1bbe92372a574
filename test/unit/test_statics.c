/* test_statics.c - what a compile says of a variant, told to the search driver
 * (search_tell_static): kept per key and read back by strategies (strat_static_known)
 * through the table's growth, replaced when told again, never fetched again through the
 * hook, refused for keys outside the space and for facts out of range, freed with the
 * search (the sanitizer build and valgrind see leaks); and what a record holds of them
 * (replay_static_of), the rule the tuner and simulate share. Expected values are written
 * here from the spec, not taken from the code under test. */
#include "helpers.h"

#include <math.h>

#include "results/replay.h"
#include "search/strategy.h"

/* a in 0..99, b in 0..99, valid when a + b < 150: 10,000 raw keys (key = a * 100 + b),
 * 8,775 of them valid (counted by hand below): enough to grow the driver's table. */
static const char *spec_text = "param a in 0 .. 99; param b in 0 .. 99;\nrequire a + b < 150;";

static bool valid_by_hand(uint64_t key)
{
    return key < 10000 && key / 100 + key % 100 < 150;
}

/* The facts the test tells of key k: each field a different function of k. */
static search_static facts_of(uint64_t k)
{
    search_static st;
    memset(&st, 0, sizeof st);
    st.compiled = true;
    st.launchable = k % 7 != 0;
    st.registers = (int)(k % 200) + 16;
    st.spill_bytes = (int64_t)(k % 5) * 8;
    st.occupancy = (double)(k % 9) / 8.0; /* 0 .. 1 */
    st.static_smem = (int64_t)k * 4;
    st.threads = (int64_t)(k % 32 + 1) * 32;
    return st;
}

static bool same(const search_static *x, const search_static *y)
{
    return x->compiled == y->compiled && x->launchable == y->launchable && x->registers == y->registers &&
           x->spill_bytes == y->spill_bytes && x->occupancy == y->occupancy && x->static_smem == y->static_smem &&
           x->threads == y->threads;
}

static int hook_calls;

/* A hook that must not be asked of keys whose facts were told. */
static int counting_hook(void *user, const uint64_t *keys, int n, search_static *out)
{
    (void)user;
    for (int i = 0; i < n; i++) {
        out[i] = facts_of(keys[i] + 1); /* different from what is told */
        hook_calls++;
    }
    return 0;
}

typedef struct fixture {
    checked *c;
    sspace *sp;
    search *se;
} fixture;

static void open_search(fixture *f, strategy st, const search_hooks *h)
{
    f->c = check_with("%s", spec_text);
    assert_non_null(f->c->m);
    assert_int_equal(sspace_new(&f->sp, f->c->m, 0), 0);
    search_settings set;
    memset(&set, 0, sizeof set);
    set.strategy = st;
    set.budget = 20;
    assert_int_equal(search_new(&f->se, f->sp, &set, h), 0);
}

static void close_search(fixture *f)
{
    search_free(f->se);
    sspace_free(f->sp);
    checked_free(f->c);
}

/* Told for every valid key (the table grows several times over), read back after, not
 * known as outcomes, not counted as evaluations; told again: replaced. */
static void test_told_kept_read_back(void **state)
{
    (void)state;
    fixture f;
    open_search(&f, STRAT_RANDOM, NULL);
    strat_ctx ctx; /* a strategy's view: the accessor needs only the search */
    memset(&ctx, 0, sizeof ctx);
    ctx.s = f.se;
    ctx.sp = f.sp;
    uint64_t valid = 0;
    for (uint64_t k = 0; k < 10000; k++) {
        search_static st = facts_of(k);
        bool kept = search_tell_static(f.se, k, &st);
        assert_int_equal(kept, valid_by_hand(k));
        valid += kept;
    }
    /* by hand: for a = 51..99, b >= 150 - a leaves 150 - a values of b; the sum of
     * 99 .. 51 = 49 * 75 = 3675 valid pairs; a = 0..50: 100 each, 5100 */
    assert_int_equal(valid, 5100 + 3675);
    assert_int_equal(search_statics_told(f.se), valid);
    assert_int_equal(strat_static_count(&ctx), valid);
    for (uint64_t k = 0; k < 10000; k++) {
        search_static got;
        memset(&got, 0xff, sizeof got);
        bool have = strat_static_known(&ctx, k, &got);
        assert_int_equal(have, valid_by_hand(k));
        if (have) {
            search_static want = facts_of(k);
            assert_true(same(&got, &want));
            assert_false(strat_known(&ctx, k, NULL)); /* facts are not an outcome */
        }
    }
    assert_int_equal(search_evaluations(f.se), 0);
    assert_int_equal(search_known_count(f.se), 0);
    search_static again = facts_of(5);
    again.registers = 255;
    assert_true(search_tell_static(f.se, 5, &again));
    search_static got;
    assert_true(strat_static_known(&ctx, 5, &got));
    assert_int_equal(got.registers, 255);
    assert_int_equal(search_statics_told(f.se), valid); /* replaced, not added */
    /* the search goes on as before: it asks and is told */
    uint64_t keys[8];
    int n;
    assert_int_equal(search_ask(f.se, keys, 8, &n), 0);
    assert_true(n > 0);
    close_search(&f);
}

/* Keys outside the space and facts out of range: refused, nothing kept. */
static void test_refused(void **state)
{
    (void)state;
    fixture f;
    open_search(&f, STRAT_AUTO, NULL);
    strat_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.s = f.se;
    search_static st = facts_of(3);
    assert_false(search_tell_static(f.se, 99 * 100 + 99, &st)); /* a + b = 198: violates the constraint */
    assert_false(search_tell_static(f.se, 10000, &st));         /* beyond the raw space */
    assert_false(search_tell_static(f.se, UINT64_MAX, &st));
    assert_false(search_tell_static(f.se, 3, NULL));
    struct {
        const char *what;
        search_static st;
    } bad[8];
    for (int i = 0; i < 8; i++)
        bad[i].st = facts_of(3);
    bad[0].st.registers = -1;
    bad[1].st.registers = SEARCH_STATIC_MAX_REGISTERS + 1;
    bad[2].st.spill_bytes = -8;
    bad[3].st.occupancy = NAN;
    bad[4].st.occupancy = 1.5;
    bad[5].st.static_smem = SEARCH_STATIC_MAX_BYTES + 1;
    bad[6].st.threads = -32;
    bad[7].st.threads = SEARCH_STATIC_MAX_THREADS + 1;
    for (int i = 0; i < 8; i++)
        assert_false(search_tell_static(f.se, 3, &bad[i].st));
    assert_int_equal(search_statics_told(f.se), 0);
    assert_false(strat_static_known(&ctx, 3, NULL));
    assert_false(strat_static_known(&ctx, 10000, NULL));
    /* the limits themselves are in range */
    st.registers = SEARCH_STATIC_MAX_REGISTERS;
    st.occupancy = 1.0;
    st.threads = SEARCH_STATIC_MAX_THREADS;
    assert_true(search_tell_static(f.se, 3, &st));
    close_search(&f);
}

/* Facts told are what strat_static (guided's screening) returns: the hook is asked only
 * of the others. */
static void test_told_not_fetched(void **state)
{
    (void)state;
    fixture f;
    search_hooks h = {NULL, NULL, counting_hook, NULL};
    open_search(&f, STRAT_GUIDED, &h);
    strat_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.s = f.se;
    search_static st = facts_of(10);
    assert_true(search_tell_static(f.se, 10, &st));
    uint64_t keys[2] = {10, 11};
    search_static out[2];
    bool have;
    hook_calls = 0;
    assert_int_equal(strat_static(&ctx, keys, 2, out, &have), 0);
    assert_true(have);
    assert_int_equal(hook_calls, 1); /* key 11 only */
    search_static want10 = facts_of(10), want11 = facts_of(12);
    assert_true(same(&out[0], &want10));
    assert_true(same(&out[1], &want11));
    assert_int_equal(search_statics_told(f.se), 2); /* fetched facts are kept too */
    close_search(&f);
}

/* Threads per block of a launch: the product, 0 when a dimension is not positive or the
 * product is beyond the range. */
static void test_threads(void **state)
{
    (void)state;
    const int64_t b1[3] = {32, 4, 2}, b2[3] = {256, 1, 1}, b3[3] = {0, 1, 1}, b4[3] = {-32, 1, 1},
                  b5[3] = {1 << 11, 1 << 10, 1}, b6[3] = {INT64_MAX, INT64_MAX, 2}, b7[3] = {1024, 1024, 1};
    assert_int_equal(search_static_threads(b1), 256);
    assert_int_equal(search_static_threads(b2), 256);
    assert_int_equal(search_static_threads(b3), 0);
    assert_int_equal(search_static_threads(b4), 0);
    assert_int_equal(search_static_threads(b5), 0); /* 2^21 */
    assert_int_equal(search_static_threads(b6), 0);
    assert_int_equal(search_static_threads(b7), 1 << 20);
}

/* What a record says: nothing for a compile error or a record without registers (the
 * hub's conversions); launchable false for cannot-launch; the spills summed. */
static void test_record_facts(void **state)
{
    (void)state;
    record rec;
    memset(&rec, 0, sizeof rec);
    rec.out = OUTCOME_OK;
    rec.v.block[0] = 16;
    rec.v.block[1] = 8;
    rec.v.block[2] = 1;
    rec.m.registers = 40;
    rec.m.spill_stores = 12;
    rec.m.spill_loads = 20;
    rec.m.static_smem = 4224;
    rec.m.occupancy = 0.75;
    search_static st;
    assert_true(replay_static_of(&rec, &st));
    assert_true(st.compiled && st.launchable);
    assert_int_equal(st.registers, 40);
    assert_int_equal(st.spill_bytes, 32);
    assert_int_equal(st.static_smem, 4224);
    assert_int_equal(st.threads, 128);
    assert_true(st.occupancy == 0.75);
    rec.out = OUTCOME_WRONG; /* ran and failed: its compile's facts hold all the same */
    assert_true(replay_static_of(&rec, &st));
    rec.out = OUTCOME_CANNOT_LAUNCH;
    assert_true(replay_static_of(&rec, &st));
    assert_true(st.compiled && !st.launchable);
    rec.out = OUTCOME_COMPILE_ERROR;
    assert_false(replay_static_of(&rec, &st));
    rec.out = OUTCOME_OK;
    rec.m.registers = 0; /* not recorded */
    assert_false(replay_static_of(&rec, &st));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_told_kept_read_back), cmocka_unit_test(test_refused),
        cmocka_unit_test(test_told_not_fetched),    cmocka_unit_test(test_threads),
        cmocka_unit_test(test_record_facts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
