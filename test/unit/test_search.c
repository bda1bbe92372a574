/* test_search.c - the search stage: the space's key/ordinal map and neighbourhoods
 * against brute force, and every strategy under the driver's rules (reproducible by
 * seed, budgets, patience and time honoured, never an invalid or repeated
 * configuration, known outcomes free, guided's screening). The objective is a function
 * of the params written here, not taken from the code under test. */
#include "helpers.h"

#include <math.h>

#include "search/search.h"

/* Params a (0..9), b (0..9), c (1, 2, 4, 8); valid when a + b <= 12. */
static const char *spec_text = "param a in 0 .. 9; param b in 0 .. 9; param c in [1, 2, 4, 8];\n"
                               "require a + b <= 12;";

static checked *load(void)
{
    checked *c = check_with("%s", spec_text);
    assert_non_null(c->m);
    return c;
}

/* The test's own reading of a key: a, b, c values (key = (a * 10 + b) * 4 + ci). */
static void abc(uint64_t key, int *a, int *b, int *c)
{
    *a = (int)(key / 40);
    *b = (int)(key / 4 % 10);
    *c = 1 << (int)(key % 4);
}

static bool valid_by_hand(uint64_t key)
{
    int a, b, c;
    abc(key, &a, &b, &c);
    return key < 400 && a + b <= 12;
}

/* An objective with one optimum at a = 7, b = 3, c = 4 (maximised) and failures where
 * a == 0 && b == 0. */
static double objective(uint64_t key, bool *ok)
{
    int a, b, c;
    abc(key, &a, &b, &c);
    *ok = !(a == 0 && b == 0);
    return 100.0 - (a - 7) * (a - 7) - (b - 3) * (b - 3) - 3.0 * fabs(log2(c) - 2);
}

typedef struct trace {
    uint64_t asked[1000];
    int n;
    bool dup, invalid;
    double clock; /* advanced by 1 per evaluation */
} trace;

static double fake_clock(void *user)
{
    return ((trace *)user)->clock;
}

static int run(const sspace *sp, search_settings *set, search_hooks *h, trace *tr, uint64_t *evals, const char **why)
{
    search *s;
    if (h->user == NULL)
        h->user = tr;
    assert_int_equal(search_new(&s, sp, set, h), 0);
    uint64_t keys[64];
    int n;
    while (search_ask(s, keys, 64, &n) == 0 && n > 0) {
        for (int i = 0; i < n && !search_stopped(s); i++) {
            for (int j = 0; j < tr->n; j++)
                if (tr->asked[j] == keys[i])
                    tr->dup = true;
            if (!valid_by_hand(keys[i]))
                tr->invalid = true;
            if (tr->n < 1000)
                tr->asked[tr->n++] = keys[i];
            bool ok;
            double v = objective(keys[i], &ok);
            tr->clock += 1;
            search_tell(s, keys[i], ok, v);
        }
    }
    *evals = search_evaluations(s);
    static char reason[32];
    snprintf(reason, sizeof reason, "%s", search_stop_reason(s));
    *why = reason;
    uint64_t k;
    double best;
    int found = search_best(s, &k, &best);
    search_free(s);
    return found;
}

static const strategy all[] = {STRAT_EXHAUSTIVE, STRAT_RANDOM, STRAT_ANNEAL, STRAT_GENETIC,
                               STRAT_LOCAL,      STRAT_GUIDED, STRAT_AUTO};

static search_settings settings(strategy st, uint64_t seed, uint64_t budget)
{
    search_settings s;
    memset(&s, 0, sizeof s);
    s.strategy = st;
    s.seed = seed;
    s.budget = budget;
    s.maximize = true;
    return s;
}

/* The valid count by hand: pairs with a + b <= 12, times 4 values of c. */
static uint64_t count_by_hand(void)
{
    uint64_t n = 0;
    for (int a = 0; a < 10; a++)
        for (int b = 0; b < 10; b++)
            n += a + b <= 12 ? 4 : 0;
    return n;
}

static void test_space_map(void **state)
{
    (void)state;
    checked *c = load();
    sspace *sp;
    assert_int_equal(sspace_new(&sp, c->m, 0), 0);
    assert_true(sspace_listed(sp));
    assert_int_equal(sspace_count(sp), count_by_hand());
    uint64_t ord = 0;
    for (uint64_t key = 0; key < 400; key++) {
        assert_int_equal(sspace_valid(sp, key), valid_by_hand(key));
        if (valid_by_hand(key)) {
            assert_int_equal(sspace_ordinal(sp, key), ord);
            assert_int_equal(sspace_at(sp, ord), key);
            ord++;
        }
    }
    assert_false(sspace_valid(sp, 400));
    /* Unlisted (a listing limit of 10): validity by evaluation, ordinal = key. */
    sspace *big;
    assert_int_equal(sspace_new(&big, c->m, 10), 0);
    assert_false(sspace_listed(big));
    assert_int_equal(sspace_count(big), count_by_hand());
    for (uint64_t key = 0; key < 400; key++)
        assert_int_equal(sspace_valid(big, key), valid_by_hand(key));
    rng r;
    rng_seed(&r, 5);
    for (int i = 0; i < 200; i++) {
        uint64_t k;
        assert_true(sspace_random(big, &r, &k));
        assert_true(valid_by_hand(k));
        assert_int_equal(sspace_ordinal(big, k), k);
    }
    sspace_free(big);
    sspace_free(sp);
    checked_free(c);
}

static void test_neighbours(void **state)
{
    (void)state;
    checked *c = load();
    sspace *sp;
    assert_int_equal(sspace_new(&sp, c->m, 0), 0);
    uint64_t nb[6];
    for (uint64_t key = 0; key < 400; key++) {
        if (!valid_by_hand(key))
            continue;
        int n = sspace_neighbours(sp, key, nb);
        int a, b, cc;
        abc(key, &a, &b, &cc);
        int ci = (int)(key % 4), want = 0;
        /* By hand: each param one step down or up, inside its domain and valid. */
        int steps[6][3] = {{a - 1, b, ci}, {a + 1, b, ci}, {a, b - 1, ci},
                           {a, b + 1, ci}, {a, b, ci - 1}, {a, b, ci + 1}};
        for (int s = 0; s < 6; s++) {
            int x = steps[s][0], y = steps[s][1], z = steps[s][2];
            if (x < 0 || x > 9 || y < 0 || y > 9 || z < 0 || z > 3 || x + y > 12)
                continue;
            uint64_t k = (uint64_t)((x * 10 + y) * 4 + z);
            bool found = false;
            for (int i = 0; i < n; i++)
                found |= nb[i] == k;
            assert_true(found);
            want++;
        }
        assert_int_equal(n, want);
    }
    sspace_free(sp);
    checked_free(c);
}

static void test_reproducible(void **state)
{
    (void)state;
    checked *c = load();
    sspace *sp;
    assert_int_equal(sspace_new(&sp, c->m, 0), 0);
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        trace t1, t2, t3;
        memset(&t1, 0, sizeof t1);
        memset(&t2, 0, sizeof t2);
        memset(&t3, 0, sizeof t3);
        search_settings s = settings(all[i], 42, 60);
        search_hooks h = {0};
        uint64_t e;
        const char *why;
        run(sp, &s, &h, &t1, &e, &why);
        memset(&h, 0, sizeof h);
        run(sp, &s, &h, &t2, &e, &why);
        assert_int_equal(t1.n, t2.n);
        assert_memory_equal(t1.asked, t2.asked, sizeof(uint64_t) * (size_t)t1.n);
        if (all[i] != STRAT_EXHAUSTIVE) { /* another seed, another sequence */
            s.seed = 43;
            memset(&h, 0, sizeof h);
            run(sp, &s, &h, &t3, &e, &why);
            assert_true(t3.n != t1.n || memcmp(t1.asked, t3.asked, sizeof(uint64_t) * (size_t)t1.n) != 0);
        }
    }
    sspace_free(sp);
    checked_free(c);
}

static void test_budget_valid_unique(void **state)
{
    (void)state;
    checked *c = load();
    sspace *sp;
    assert_int_equal(sspace_new(&sp, c->m, 0), 0);
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        for (uint64_t seed = 0; seed < 5; seed++) {
            trace t;
            memset(&t, 0, sizeof t);
            search_settings s = settings(all[i], seed, 37);
            search_hooks h = {0};
            uint64_t e;
            const char *why;
            assert_true(run(sp, &s, &h, &t, &e, &why));
            assert_int_equal(e, 37);
            assert_int_equal(t.n, 37);
            assert_string_equal(why, "budget");
            assert_false(t.dup);
            assert_false(t.invalid);
        }
    sspace_free(sp);
    checked_free(c);
}

/* Every strategy asked as the tuner asks (tuner/run.c): whenever fewer than `window`
 * are in flight, outcomes told one at a time, first in first out. No strategy may spin
 * on what is in flight (a strategy that proposes only pending keys waits), the budget
 * holds, nothing is asked twice, and genetic keeps at most its population in flight. */
static void test_streamed(void **state)
{
    (void)state;
    checked *c = load();
    sspace *sp;
    assert_int_equal(sspace_new(&sp, c->m, 0), 0);
    enum { WINDOW = 48 };
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        for (uint64_t seed = 0; seed < 3; seed++) {
            search_settings set = settings(all[i], seed, 120);
            search *s;
            assert_int_equal(search_new(&s, sp, &set, NULL), 0);
            uint64_t queue[WINDOW], asked[WINDOW], seen[400] = {0};
            int head = 0, queued = 0, most = 0, n, told = 0;
            for (int guard = 0; guard < 100000; guard++) {
                if (queued < WINDOW && !search_stopped(s)) {
                    assert_int_equal(search_ask(s, asked, WINDOW - queued, &n), 0);
                    for (int k = 0; k < n; k++) {
                        assert_true(valid_by_hand(asked[k]));
                        assert_int_equal(seen[asked[k]]++, 0); /* never asked twice */
                        queue[(head + queued++) % WINDOW] = asked[k];
                    }
                }
                most = queued > most ? queued : most;
                if (queued == 0 || search_stopped(s))
                    break;
                uint64_t key = queue[head];
                head = (head + 1) % WINDOW;
                queued--;
                bool ok;
                double v = objective(key, &ok);
                search_tell(s, key, ok, v);
                told++;
            }
            assert_true(told <= 120);
            assert_int_equal(search_evaluations(s), (uint64_t)told);
            if (all[i] == STRAT_GENETIC)
                assert_true(most <= search_default_population(&set, sspace_count(sp)));
            else if (all[i] == STRAT_EXHAUSTIVE || all[i] == STRAT_RANDOM)
                assert_int_equal(told, 120); /* never waits: the budget is spent */
            uint64_t k;
            double best;
            assert_true(search_best(s, &k, &best));
            search_free(s);
        }
    sspace_free(sp);
    checked_free(c);
}

/* genetic keeps its population in flight, or the pipeline's depth when that is more
 * (strat_in_flight): 16 compile threads and balanced stages (1.6 s compiles, 0.1 s on
 * the GPU) need 1.7 / 0.1 x 1.5 = 26 in flight to keep both busy, more than its 20. */
static void test_genetic_fills_the_pipeline(void **state)
{
    (void)state;
    checked *c = load();
    sspace *sp;
    assert_int_equal(sspace_new(&sp, c->m, 0), 0);
    search_settings set = settings(STRAT_GENETIC, 1, 0);
    set.parallel = 16;
    search *s;
    assert_int_equal(search_new(&s, sp, &set, NULL), 0);
    uint64_t keys[64];
    int n;
    assert_int_equal(search_ask(s, keys, 64, &n), 0);
    assert_int_equal(n, search_default_population(&set, sspace_count(sp))); /* no costs yet: 20 */
    bool ok;
    for (int i = 0; i < n; i++) {
        search_tell_seconds(s, 1.6, 0.1);
        double v = objective(keys[i], &ok);
        search_tell(s, keys[i], ok, v);
    }
    assert_int_equal(search_ask(s, keys, 64, &n), 0);
    assert_int_equal(n, 26);
    search_free(s);
    sspace_free(sp);
    checked_free(c);
}

static void test_exhaustive_all(void **state)
{
    (void)state;
    checked *c = load();
    sspace *sp;
    assert_int_equal(sspace_new(&sp, c->m, 0), 0);
    trace t;
    memset(&t, 0, sizeof t);
    search_settings s = settings(STRAT_EXHAUSTIVE, 0, 0);
    search_hooks h = {0};
    uint64_t e;
    const char *why;
    run(sp, &s, &h, &t, &e, &why);
    assert_int_equal(e, count_by_hand());
    assert_false(t.dup);
    for (int i = 1; i < t.n; i++)
        assert_true(t.asked[i] > t.asked[i - 1]); /* listing order */
    /* Every strategy ends when the whole space is known, without a budget. */
    for (size_t i = 1; i < sizeof all / sizeof *all; i++) {
        memset(&t, 0, sizeof t);
        s = settings(all[i], 1, 0);
        memset(&h, 0, sizeof h);
        run(sp, &s, &h, &t, &e, &why);
        assert_true(e <= count_by_hand());
        assert_false(t.dup);
    }
    sspace_free(sp);
    checked_free(c);
}

/* shards of a listed space partition it by ordinal (runs of 4, the last
 * param c's 4 values, dealt out in turn: ordinal / 4 % N == i, the ordinals the whole
 * space's, worked out here by counting valid keys by hand); exhaustive
 * over each shard asks exactly its configurations; every strategy stays inside its
 * shard; the unlisted space shards by key. */
static void test_shards(void **state)
{
    (void)state;
    checked *c = load();
    for (uint64_t n = 2; n <= 5; n++) {
        bool seen[400] = {false};
        uint64_t total = 0;
        for (uint64_t i = 0; i < n; i++) {
            sspace *sp;
            assert_int_equal(sspace_new(&sp, c->m, 0), 0);
            assert_int_equal(sspace_shard(sp, i, n), 0);
            uint64_t ord = 0, mine = 0;
            for (uint64_t key = 0; key < 400; key++) {
                if (!valid_by_hand(key))
                    continue;
                bool in = ord / 4 % n == i;
                assert_int_equal(sspace_valid(sp, key), in);
                assert_int_equal(sspace_key_of(sp, ord), in ? key : UINT64_MAX);
                if (in) {
                    assert_int_equal(sspace_ordinal(sp, key), ord);
                    assert_int_equal(sspace_at(sp, mine), key);
                    mine++;
                }
                ord++;
            }
            assert_int_equal(sspace_count(sp), mine);
            trace t;
            memset(&t, 0, sizeof t);
            search_settings s = settings(STRAT_EXHAUSTIVE, 0, 0);
            search_hooks h = {0};
            uint64_t e;
            const char *why;
            run(sp, &s, &h, &t, &e, &why);
            assert_int_equal(e, mine);
            for (int k = 0; k < t.n; k++) {
                assert_false(seen[t.asked[k]]); /* no two shards ask the same configuration */
                seen[t.asked[k]] = true;
            }
            total += (uint64_t)t.n;
            for (size_t st = 1; st < sizeof all / sizeof *all; st++) { /* the others stay inside */
                memset(&t, 0, sizeof t);
                s = settings(all[st], 3, 20);
                memset(&h, 0, sizeof h);
                run(sp, &s, &h, &t, &e, &why);
                for (int k = 0; k < t.n; k++)
                    assert_true(sspace_valid(sp, t.asked[k]));
            }
            sspace_free(sp);
        }
        assert_int_equal(total, count_by_hand()); /* together, the whole space */
    }
    sspace *sp;
    assert_int_equal(sspace_new(&sp, c->m, 0), 0);
    assert_int_equal(sspace_shard(sp, 3, 3), -1);
    assert_int_equal(sspace_shard(sp, 0, 0), -1);
    sspace_free(sp);
    sspace *big; /* unlisted: by key */
    assert_int_equal(sspace_new(&big, c->m, 10), 0);
    assert_int_equal(sspace_shard(big, 1, 2), 0);
    for (uint64_t key = 0; key < 400; key++)
        assert_int_equal(sspace_valid(big, key), valid_by_hand(key) && key / 4 % 2 == 1);
    sspace_free(big);
    checked_free(c);
}

static void test_patience_and_time(void **state)
{
    (void)state;
    checked *c = load();
    sspace *sp;
    assert_int_equal(sspace_new(&sp, c->m, 0), 0);
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        trace t;
        memset(&t, 0, sizeof t);
        search_settings s = settings(all[i], 3, 0);
        s.patience = 5;
        search_hooks h = {0};
        uint64_t e;
        const char *why;
        run(sp, &s, &h, &t, &e, &why);
        /* By hand: the evaluations after the last improvement, from the trace. */
        double best = -INFINITY;
        int last = -1;
        for (int k = 0; k < t.n; k++) {
            bool ok;
            double v = objective(t.asked[k], &ok);
            if (ok && v > best) {
                best = v;
                last = k;
            }
        }
        if (strcmp(why, "patience") == 0)
            assert_int_equal(t.n - 1 - last, 5);
        else
            assert_string_equal(why, "space exhausted"); /* found the optimum before patience ran out? */
        memset(&t, 0, sizeof t);
        s = settings(all[i], 3, 0);
        s.time_limit_s = 10;
        search_hooks ht = {&t, fake_clock, NULL, NULL};
        run(sp, &s, &ht, &t, &e, &why);
        assert_string_equal(why, "time");
        assert_int_equal(e, 10);
    }
    sspace_free(sp);
    checked_free(c);
}

/* Outcomes known beforehand (a journal): keys whose a is odd. */
static bool known_odd(void *user, uint64_t key, bool *ok, double *v)
{
    (void)user;
    int a, b, c;
    abc(key, &a, &b, &c);
    if (a % 2 == 0)
        return false;
    *v = objective(key, ok);
    return true;
}

static void test_known_is_free(void **state)
{
    (void)state;
    checked *c = load();
    sspace *sp;
    assert_int_equal(sspace_new(&sp, c->m, 0), 0);
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        trace t;
        memset(&t, 0, sizeof t);
        search_settings s = settings(all[i], 9, 20);
        search_hooks h = {&t, NULL, NULL, known_odd};
        uint64_t e;
        const char *why;
        run(sp, &s, &h, &t, &e, &why);
        assert_int_equal(e, 20); /* the budget counts only what was asked */
        for (int k = 0; k < t.n; k++) {
            int a, b, cc;
            abc(t.asked[k], &a, &b, &cc);
            assert_int_equal(a % 2, 0); /* a known configuration is never asked */
        }
    }
    sspace_free(sp);
    checked_free(c);
}

/* The number of params in which two keys differ, and by how many steps in all. */
static void distance(uint64_t x, uint64_t y, int *params, int *steps)
{
    int xa, xb, xc, ya, yb, yc;
    abc(x, &xa, &xb, &xc);
    abc(y, &ya, &yb, &yc);
    int dc = abs((int)log2(xc) - (int)log2(yc));
    *params = (xa != ya) + (xb != yb) + (dc != 0);
    *steps = abs(xa - ya) + abs(xb - yb) + dc;
}

/* Outcomes told before the search starts (search_know: every journal entry of an
 * earlier run): known, free, never asked, the best may be one of them, and the
 * strategy starts from them. */
static void test_know_beforehand(void **state)
{
    (void)state;
    checked *c = load();
    sspace *sp;
    assert_int_equal(sspace_new(&sp, c->m, 0), 0);
    const uint64_t optimum = (7 * 10 + 3) * 4 + 2; /* a = 7, b = 3, c = 4: 100 */
    for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
        search_settings s = settings(all[i], 11, 15);
        search_hooks h = {0};
        search *se;
        assert_int_equal(search_new(&se, sp, &s, &h), 0);
        /* Every valid key with a odd (the optimum among them), one failure, an invalid
         * key and a repeat, which are ignored. */
        uint64_t told = 0;
        for (uint64_t k = 0; k < 400; k++) {
            int a, b, cc;
            abc(k, &a, &b, &cc);
            if (a % 2 == 1 && valid_by_hand(k)) {
                bool ok;
                double v = objective(k, &ok);
                assert_int_equal(search_know(se, k, ok, v), 0);
                told++;
            }
        }
        assert_int_equal(search_know(se, 0, false, NAN), 0); /* a = 0, b = 0: a failure */
        told++;
        assert_int_equal(search_know(se, (9 * 10 + 9) * 4, true, 1e9), 0); /* a + b > 12: invalid */
        assert_int_equal(search_know(se, optimum, true, -1.0), 0);         /* known already */
        assert_int_equal(search_known_count(se), told);
        uint64_t best;
        double bv;
        assert_true(search_best(se, &best, &bv)); /* the best, before anything is asked */
        assert_int_equal(best, optimum);
        assert_true(bv == 100.0);
        uint64_t keys[64];
        int n;
        while (search_ask(se, keys, 64, &n) == 0 && n > 0)
            for (int k = 0; k < n && !search_stopped(se); k++) {
                int a, b, cc;
                abc(keys[k], &a, &b, &cc);
                assert_true(a % 2 == 0 && keys[k] != 0); /* nothing known is asked */
                assert_true(valid_by_hand(keys[k]));
                bool ok;
                double v = objective(keys[k], &ok);
                search_tell(se, keys[k], ok, v);
            }
        assert_int_equal(search_evaluations(se), 15); /* the budget counts only what was asked */
        assert_string_equal(search_stop_reason(se), "budget");
        assert_int_equal(search_known_count(se), told + 15);
        assert_true(search_best(se, &best, &bv) && best == optimum);
        search_free(se);
    }
    /* Told only the optimum, the strategy starts from it: local and guided descend from
     * it (their first batch: its neighbours), anneal moves from it (one param). */
    const strategy from_best[] = {STRAT_LOCAL, STRAT_GUIDED, STRAT_ANNEAL};
    for (size_t i = 0; i < sizeof from_best / sizeof *from_best; i++)
        for (uint64_t seed = 0; seed < 5; seed++) {
            search_settings s = settings(from_best[i], seed, 10);
            search *se;
            assert_int_equal(search_new(&se, sp, &s, NULL), 0);
            assert_int_equal(search_know(se, optimum, true, 100.0), 0);
            uint64_t keys[64];
            int n, params, steps;
            assert_int_equal(search_ask(se, keys, 64, &n), 0);
            assert_true(n > 0);
            for (int k = 0; k < n; k++) {
                distance(keys[k], optimum, &params, &steps);
                if (from_best[i] == STRAT_ANNEAL)
                    assert_int_equal(params, 1);
                else
                    assert_int_equal(steps, 1);
            }
            if (from_best[i] != STRAT_ANNEAL)
                assert_int_equal(n, 6); /* a, b, c one step either way: all valid */
            search_free(se);
        }
    /* The whole space told beforehand: nothing is asked. */
    search_settings s = settings(STRAT_RANDOM, 1, 10);
    search *se;
    assert_int_equal(search_new(&se, sp, &s, NULL), 0);
    for (uint64_t k = 0; k < 400; k++)
        if (valid_by_hand(k)) {
            bool ok;
            double v = objective(k, &ok);
            assert_int_equal(search_know(se, k, ok, v), 0);
        }
    uint64_t keys[8];
    int n;
    assert_int_equal(search_ask(se, keys, 8, &n), 0);
    assert_int_equal(n, 0);
    assert_int_equal(search_evaluations(se), 0);
    assert_string_equal(search_stop_reason(se), "space exhausted");
    search_free(se);
    sspace_free(sp);
    checked_free(c);
}

/* Static information: c == 8 does not compile, a == 9 cannot launch. */
static int statics(void *user, const uint64_t *keys, int n, search_static *out)
{
    (void)user;
    for (int i = 0; i < n; i++) {
        int a, b, c;
        abc(keys[i], &a, &b, &c);
        out[i].compiled = c != 8;
        out[i].launchable = a != 9;
        out[i].registers = 32;
        out[i].spill_bytes = 0;
        out[i].occupancy = a / 10.0;
    }
    return 0;
}

static void test_guided_screens(void **state)
{
    (void)state;
    checked *c = load();
    sspace *sp;
    assert_int_equal(sspace_new(&sp, c->m, 0), 0);
    for (uint64_t seed = 0; seed < 5; seed++) {
        trace t;
        memset(&t, 0, sizeof t);
        search_settings s = settings(STRAT_GUIDED, seed, 0);
        search_hooks h = {&t, NULL, statics, NULL};
        uint64_t e;
        const char *why;
        search *se;
        assert_int_equal(search_new(&se, sp, &s, &h), 0);
        uint64_t keys[64];
        int n;
        while (search_ask(se, keys, 64, &n) == 0 && n > 0)
            for (int i = 0; i < n; i++) {
                int a, b, cc;
                abc(keys[i], &a, &b, &cc);
                assert_true(cc != 8 && a != 9);
                bool ok;
                double v = objective(keys[i], &ok);
                search_tell(se, keys[i], ok, v);
                t.n++;
            }
        e = search_evaluations(se);
        why = search_stop_reason(se);
        assert_true(search_screened(se) > 0);
        assert_int_equal(e, (uint64_t)t.n);
        (void)why;
        search_free(se);
    }
    sspace_free(sp);
    checked_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_space_map),         cmocka_unit_test(test_neighbours),
        cmocka_unit_test(test_reproducible),      cmocka_unit_test(test_budget_valid_unique),
        cmocka_unit_test(test_exhaustive_all),    cmocka_unit_test(test_shards),
        cmocka_unit_test(test_patience_and_time), cmocka_unit_test(test_known_is_free),
        cmocka_unit_test(test_guided_screens),    cmocka_unit_test(test_know_beforehand),
        cmocka_unit_test(test_streamed),          cmocka_unit_test(test_genetic_fills_the_pipeline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
