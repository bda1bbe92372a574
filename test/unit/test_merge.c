/* test_merge.c - shards gathered into one result (results/merge.c): entries in
 * ordinal order, counts recounted, seconds added up (wall time: the longest), the winner
 * picked again among the entries that can win (a pruned, provisional or failed better
 * objective never wins; equals: the lowest ordinal), a twin of a run in another shard
 * kept; a partial merge records what it holds and names what is missing; settings.shard
 * read back and written unchanged; files that do not go together refused. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "last_err.h"
#include "results/load.h"
#include "results/merge.h"
#include "results/write.h"

static char dir[] = "/tmp/cutune_merge_XXXXXX";

/* An entry: configuration `index` (param x = index), its status and objective (time_ms
 * present only for ok), pruned/provisional marks, and same_code_as (-1: none). */
static json_t *entry(int index, const char *status, double objective, int pruned, int provisional, int twin)
{
    json_t *e = json_pack("{s:i, s:{s:i}, s:s, s:[i,i,i], s:[i,i,i], s:f, s:f, s:f}", "index", index, "params", "x",
                          index, "status", status, "block", 32, 1, 1, "grid", 8, 1, 1, "compile_seconds", 0.5,
                          "gpu_seconds", 0.25, "timing_seconds", 0.125);
    if (strcmp(status, "ok") == 0) {
        json_object_set_new(e, "time_ms",
                            json_pack("{s:f, s:f, s:f, s:f, s:f}", "median", objective, "min", objective, "max",
                                      objective, "q1", objective, "q3", objective));
        json_object_set_new(e, "objective", json_real(objective));
        json_object_set_new(e, "pruned", json_boolean(pruned));
        if (provisional)
            json_object_set_new(e, "provisional", json_true());
    }
    if (twin >= 0)
        json_object_set_new(e, "same_code_as", json_integer(twin));
    return e;
}

/* Writes shard `index` of `count` (index -1: no settings.shard) holding `entries` (stolen)
 * to dir/name, whose path goes to `path`. */
static void shard_file(char *path, size_t size, const char *name, int index, int count, json_t *entries, double wall)
{
    json_t *root =
        json_pack("{s:s, s:i, s:{s:s, s:[{s:s, s:s}]}, s:{s:s, s:s}, s:{s:i, s:i, s:i, s:f, s:b}, "
                  "s:{s:s, s:s}, s:{s:f, s:f, s:f, s:f, s:f, s:i}, s:o}",
                  "format", "cutune-results", "version", 1, "spec", "kernel", "k", "params", "name", "x", "type", "int",
                  "device", "name", "GPU", "arch", "sm_90", "settings", "warmup", 1, "repeat", 3, "max_repeat", 9,
                  "spread", 0.02, "flush_l2", 1, "objective", "name", "time_ms", "direction", "minimize", "summary",
                  "wall_seconds", wall, "compile_seconds", 1.0, "compile_wall_seconds", wall / 2, "gpu_seconds", 2.0,
                  "timing_seconds", 3.0, "threads", 4, "results", entries);
    assert_non_null(root);
    if (index >= 0)
        json_object_set_new(json_object_get(root, "settings"), "shard",
                            json_pack("{s:i, s:i}", "index", index, "count", count));
    snprintf(path, size, "%s/%s", dir, name);
    assert_int_equal(json_dump_file(root, path, 0), 0);
    json_decref(root);
}

static char s0[300], s1[300], s2[300];

/* Shards 0, 1 and 2 of 3 of configurations 0..8: 3 is the fastest but pruned, 5 faster
 * still but provisional, 7 wrong with the best time; 1 and 4 tie (1 wins: lower
 * ordinal); 8 failed; 6 a twin of 1 (in another shard). */
static void make_shards(void)
{
    shard_file(s0, sizeof s0, "s0.json", 0, 3,
               json_pack("[o, o, o]", entry(6, "ok", 2.0, 0, 0, 1), entry(3, "ok", 0.5, 1, 0, -1),
                         entry(0, "ok", 4.0, 0, 0, -1)),
               10.0);
    shard_file(s1, sizeof s1, "s1.json", 1, 3,
               json_pack("[o, o, o]", entry(1, "ok", 2.0, 0, 0, -1), entry(4, "ok", 2.0, 0, 0, -1),
                         entry(7, "wrong", 0.1, 0, 0, -1)),
               30.0);
    shard_file(s2, sizeof s2, "s2.json", 2, 3,
               json_pack("[o, o, o]", entry(8, "compile error", 0, 0, 0, -1), entry(2, "ok", 3.0, 0, 0, -1),
                         entry(5, "ok", 1.0, 0, 1, -1)),
               20.0);
}

static void test_complete(void **state)
{
    (void)state;
    make_shards();
    const char *paths[] = {s2, s0, s1};
    cutune_tune_result *r = NULL;
    char note[100];
    assert_int_equal(results_merge(&r, paths, 3, false, note, sizeof note), CUTUNE_OK);
    assert_string_equal(note, "");
    assert_int_equal(r->n, 9);
    for (uint64_t i = 0; i < r->n; i++)
        assert_int_equal(r->records[i]->v.ordinal, i);
    const cutune_tune_summary *s = &r->summary;
    assert_int_equal(s->variants, 9);
    assert_int_equal(s->timed, 7);
    assert_int_equal(s->wrong, 1);
    assert_int_equal(s->failed, 1);
    assert_int_equal(s->pruned, 1);
    assert_int_equal(s->twins, 1);
    assert_int_equal(s->best, 1); /* 1 and 4 tie at 2.0; 3, 5, 7 cannot win */
    assert_int_equal(r->records[6]->m.same_code_as, 1);
    assert_true(fabs(s->wall_seconds - 30.0) < 1e-12);
    assert_true(fabs(s->compile_wall_seconds - 15.0) < 1e-12);
    assert_true(fabs(s->compile_seconds - 3.0) < 1e-12);
    assert_true(fabs(s->gpu_seconds - 6.0) < 1e-12);
    assert_true(fabs(s->timing_seconds - 9.0) < 1e-12);
    assert_int_equal(r->shard_count, 0);
    assert_int_equal(r->nmerged_from, 3);
    assert_string_equal(r->merged_from[0], s2);
    result_destroy(r);
}

/* Adds the several-GPU fields to the file at `path`: settings.devices `devices` and
 * summary.device_spread `spread` (both stolen), and "gpu" g on every entry. */
static void with_devices(const char *path, json_t *devices, json_t *spread, int g)
{
    json_t *root = json_load_file(path, 0, NULL);
    assert_non_null(root);
    json_object_set_new(json_object_get(root, "settings"), "devices", devices);
    json_object_set_new(json_object_get(root, "summary"), "device_spread", spread);
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(root, "results"), i, e) json_object_set_new(e, "gpu", json_integer(g));
    assert_int_equal(json_dump_file(root, path, 0), 0);
    json_decref(root);
}

/* a shard run on several GPUs (--shard with --devices). Loaded alone, its
 * GPUs, spread and each entry's GPU read back; merged, each entry keeps its GPU, the
 * list stays when every shard has the same one, and the spreads (each shard's own) go;
 * a shard on other GPUs makes the merged run name none. */
static void test_devices(void **state)
{
    (void)state;
    make_shards();
    const char *sp = "[{\"gpu\": 1, \"variants\": 8, \"median\": 1.01, \"min\": 0.99, \"max\": 1.03}]";
    with_devices(s0, json_pack("[i, i]", 0, 1), json_loads(sp, 0, NULL), 0);
    with_devices(s1, json_pack("[i, i]", 0, 1), json_loads(sp, 0, NULL), 1);
    with_devices(s2, json_pack("[i, i]", 0, 1), json_loads(sp, 0, NULL), 1);
    cutune_tune_result *r = NULL;
    char note[100];
    assert_int_equal(results_load(&r, s0), CUTUNE_OK);
    assert_int_equal(r->summary.ndevices, 2);
    assert_int_equal(r->summary.devices[1], 1);
    assert_int_equal(r->summary.spread[1].device, 1);
    assert_int_equal(r->summary.spread[1].variants, 8);
    assert_true(fabs(r->summary.spread[1].median - 1.01) < 1e-12 && fabs(r->summary.spread[1].hi - 1.03) < 1e-12);
    assert_int_equal(r->records[0]->m.device, 0);
    result_destroy(r);

    const char *paths[] = {s0, s1, s2};
    assert_int_equal(results_merge(&r, paths, 3, false, note, sizeof note), CUTUNE_OK);
    assert_int_equal(r->summary.ndevices, 2);
    assert_int_equal(r->summary.spread[1].variants, 0);
    assert_int_equal(r->records[0]->m.device, 0); /* ordinal 0: shard 0's */
    assert_int_equal(r->records[1]->m.device, 1); /* ordinal 1: shard 1's */
    result_destroy(r);

    with_devices(s2, json_pack("[i, i]", 2, 3), json_array(), 2);
    assert_int_equal(results_merge(&r, paths, 3, false, note, sizeof note), CUTUNE_OK);
    assert_int_equal(r->summary.ndevices, 0);
    result_destroy(r);

    with_devices(s2, json_pack("[i]", 2), json_array(), 2); /* one GPU is not a list of several */
    assert_int_equal(results_load(&r, s2), CUTUNE_EIO);     /* not a results file: as any flaw */
    assert_non_null(strstr(err_last()->message, "\"devices\""));
}

static void test_partial(void **state)
{
    (void)state;
    make_shards();
    const char *paths[] = {s0, s2};
    cutune_tune_result *r = NULL;
    char note[100];
    assert_int_equal(results_merge(&r, paths, 2, false, note, sizeof note), CUTUNE_EINVAL);
    assert_null(r);
    assert_non_null(strstr(last_err(), "shard 1 of 3 is missing"));
    assert_int_equal(results_merge(&r, paths, 2, true, note, sizeof note), CUTUNE_OK);
    assert_string_equal(note, "1");
    assert_int_equal(r->n, 6);
    assert_int_equal(r->shard_count, 3);
    assert_int_equal(r->shard_index, -1);
    assert_int_equal(r->nshard_merged, 2);
    assert_int_equal(r->shard_merged[0], 0);
    assert_int_equal(r->shard_merged[1], 2);
    assert_int_equal(r->records[r->summary.best]->v.ordinal, 6); /* 2.0 (a twin); 3 pruned, 5 provisional */
    /* written and read back, it merges with the missing shard into the whole */
    char out[300];
    snprintf(out, sizeof out, "%s/partial.json", dir);
    assert_int_equal(results_write(r, out, "test"), CUTUNE_OK);
    result_destroy(r);
    const char *again[] = {out, s1};
    if (results_merge(&r, again, 2, false, note, sizeof note) != CUTUNE_OK)
        fail_msg("%s", last_err());
    assert_int_equal(r->n, 9);
    assert_int_equal(r->summary.best, 1);
    result_destroy(r);
}

static void test_shard_round_trip(void **state)
{
    (void)state;
    make_shards();
    cutune_tune_result *r = NULL, *back = NULL;
    char out[300];
    assert_int_equal(results_load(&r, s1), CUTUNE_OK);
    assert_int_equal(r->shard_index, 1);
    assert_int_equal(r->shard_count, 3);
    snprintf(out, sizeof out, "%s/again.json", dir);
    assert_int_equal(results_write(r, out, "test"), CUTUNE_OK);
    assert_int_equal(results_load(&back, out), CUTUNE_OK);
    assert_int_equal(back->shard_index, 1);
    assert_int_equal(back->shard_count, 3);
    assert_int_equal(back->nmerged_from, 0);
    result_destroy(back);
    result_destroy(r);
}

static void test_refused(void **state)
{
    (void)state;
    make_shards();
    cutune_tune_result *r = NULL;
    char note[100], other[300], plain[300], missing[300];
    shard_file(other, sizeof other, "other.json", 1, 4, json_pack("[o]", entry(1, "ok", 1.0, 0, 0, -1)), 1.0);
    shard_file(plain, sizeof plain, "plain.json", -1, 0, json_pack("[o]", entry(1, "ok", 1.0, 0, 0, -1)), 1.0);
    snprintf(missing, sizeof missing, "%s/missing.json", dir);
    const char *splits[] = {s0, other}, *twice[] = {s0, s0, s1, s2}, *plains[] = {plain}, *gone[] = {s0, missing};
    assert_int_equal(results_merge(&r, splits, 2, true, note, sizeof note), CUTUNE_EINVAL);
    assert_non_null(strstr(last_err(), "different splits"));
    assert_int_equal(results_merge(&r, twice, 4, false, note, sizeof note), CUTUNE_EINVAL);
    assert_non_null(strstr(last_err(), "both hold shard 0 of 3"));
    assert_int_equal(results_merge(&r, plains, 1, true, note, sizeof note), CUTUNE_EINVAL);
    assert_non_null(strstr(last_err(), "is not a shard"));
    assert_int_equal(results_merge(&r, gone, 2, false, note, sizeof note), CUTUNE_EIO);
    assert_non_null(strstr(last_err(), "cannot read"));
    assert_int_equal(results_merge(&r, gone, 0, false, note, sizeof note), CUTUNE_EINVAL);
    assert_null(r);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_complete), cmocka_unit_test(test_partial), cmocka_unit_test(test_shard_round_trip),
        cmocka_unit_test(test_refused),  cmocka_unit_test(test_devices),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        failed++;
    return failed;
}
