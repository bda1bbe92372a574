/* merge_check.c - the shape and identity checks of shards before a merge (see
 * merge_check.h). A results file may come from anyone: each count and index merge uses
 * is bounded here, before merge.c indexes or adds with it. */
#include "merge_check.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/err.h"

/* A JSON value for a message: compact, cut at `size` - 1 bytes; "absent" for NULL. */
static const char *shown(json_t *v, char *buf, size_t size)
{
    if (!v) {
        snprintf(buf, size, "absent");
        return buf;
    }
    char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS);
    snprintf(buf, size, "%s", text ? text : "?");
    if (text && strlen(text) >= size && size > 4)
        memcpy(buf + size - 4, "...", 4);
    free(text);
    return buf;
}

/* A count merge adds up: absent, null, or an integer from 0 to 2^63 - 1. */
static bool count_ok(json_t *v)
{
    return !v || json_is_null(v) || (json_is_integer(v) && json_integer_value(v) >= 0);
}

int merge_check_shape(json_t *root, const cutune_tune_result *r, const char *path)
{
    json_t *set = json_object_get(root, "settings"), *sum = json_object_get(root, "summary");
    const char *top = !json_is_object(set) ? "settings" : !json_is_object(sum) ? "summary" : NULL;
    if (top) {
        return err_set(CUTUNE_EIO, "'%s': \"%s\" is missing or not an object: the file is not a whole results file",
                       path, top);
    }
    json_t *search = json_object_get(set, "search");
    static const char *const counts[][2] = {{"evaluations", "settings.search.evaluations"},
                                            {"screened", "settings.search.screened"}};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (!count_ok(json_object_get(search, counts[i][0]))) {
            return err_set(CUTUNE_EIO, "'%s': %s is not a count (an integer from 0)", path, counts[i][1]);
        }
    if (!count_ok(json_object_get(sum, "profiled"))) {
        return err_set(CUTUNE_EIO, "'%s': summary.profiled is not a count (an integer from 0)", path);
    }
    /* The loader checked each listed index against the count, not the list's length. */
    if (r->nshard_merged > r->shard_count) {
        return err_set(CUTUNE_EIO, "'%s': settings.shard.merged lists %d shards, more than its count (%d)", path,
                       r->nshard_merged, r->shard_count);
    }
    bool *seen = calloc((size_t)(r->shard_count > 0 ? r->shard_count : 1), sizeof *seen);
    if (!seen) {
        return err_set(CUTUNE_ENOMEM, "out of memory");
    }
    int twice = -1;
    for (int i = 0; i < r->nshard_merged && twice < 0; i++) {
        int k = r->shard_merged[i];
        if (k < 0 || k >= r->shard_count || seen[k])
            twice = k;
        else
            seen[k] = true;
    }
    free(seen);
    if (twice >= 0) {
        return err_set(CUTUNE_EIO, "'%s': settings.shard.merged lists shard %d twice (or one outside its count, %d)",
                       path, twice, r->shard_count);
    }
    return CUTUNE_OK;
}

/* The settings a shard's run may differ in from another's: its place in the split, its
 * GPUs, what it was merged from, and the search's use of its part. */
static bool own_setting(const char *path)
{
    static const char *const own[] = {"settings.shard",           "settings.devices",
                                      "settings.merged_from",     "settings.search.evaluations",
                                      "settings.search.screened", "settings.search.stopped_by"};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (strcmp(path, own[i]) == 0)
            return true;
    return false;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* What the loader reads for a field absent from a file, as JSON text ("null" for the
 * fields it does not default), which is what the writer writes back: a file merged
 * before and a shard compare equal. */
static const char *absent_reads_as(const char *path)
{
    static const char *const as[][2] = {
        {"spec.path", "\"\""},
        {"spec.kernel", "\"\""},
        {"device.name", "\"\""},
        {"device.arch", "\"\""},
        {"device.compute_capability", "0"},
        {"device.sm_count", "0"},
        {"objective.name", "\"time_ms\""},
        {"objective.direction", "\"minimize\""},
        {"settings.strategy", "\"exhaustive\""},
        {"settings.warmup", "0"},
        {"settings.repeat", "0"},
        {"settings.max_repeat", "0"},
        {"settings.spread", "0.0"},
        {"settings.flush_l2", "false"},
    };
    for (size_t i = 0; i < sizeof as / sizeof as[0]; i++)
        if (strcmp(path, as[i][0]) == 0)
            return as[i][1];
    return "null";
}

/* Whether a and b (NULL: absent, read as absent_reads_as(path)) are the same value. */
static bool same_value(json_t *a, json_t *b, const char *path)
{
    if (a && b)
        return json_equal(a, b);
    if (!a && !b)
        return true;
    json_t *as = json_loads(absent_reads_as(path), JSON_DECODE_ANY, NULL);
    bool same = as && json_equal(as, a ? a : b);
    json_decref(as);
    return same;
}

/* first_difference: whether a and b (either may be NULL: absent) differ at `path` or,
 * when both are objects less than MAX_DEPTH levels down, under it (fields in name order,
 * own_setting's skipped); the first differing field's path into where (room: wsize) and
 * its two values, shown, into x and y. -1 out of memory. */
enum { MAX_DEPTH = 4 }; /* deeper objects are compared whole: no recursion a file can drive */
static int first_difference(json_t *a, json_t *b, const char *path, int depth, char *where, size_t wsize, char *x,
                            size_t xsize, char *y, size_t ysize)
{
    if (own_setting(path) || ((!a || !b) && strcmp(path, "settings.search") == 0))
        return 0; /* settings.search: absent from files written before it was */
    if (!json_is_object(a) || !json_is_object(b) || depth >= MAX_DEPTH) {
        if (same_value(a, b, path))
            return 0;
        snprintf(where, wsize, "%s", path);
        for (char *c = where; *c; c++) /* a key from the file: nothing a terminal acts on */
            if ((unsigned char)*c < 0x20 || *c == 0x7f)
                *c = '?';
        shown(a, x, xsize);
        shown(b, y, ysize);
        return 1;
    }
    size_t n = json_object_size(a) + json_object_size(b), k = 0;
    const char **keys = malloc(sizeof *keys * (n ? n : 1));
    if (!keys)
        return -1;
    const char *key;
    json_t *v;
    json_object_foreach(a, key, v) keys[k++] = key;
    json_object_foreach(b, key, v) if (!json_object_get(a, key)) keys[k++] = key;
    qsort(keys, k, sizeof *keys, by_name);
    int found = 0;
    for (size_t i = 0; i < k && !found; i++) {
        char sub[512];
        snprintf(sub, sizeof sub, "%s.%s", path, keys[i]);
        found = first_difference(json_object_get(a, keys[i]), json_object_get(b, keys[i]), sub, depth + 1, where, wsize,
                                 x, xsize, y, ysize);
    }
    free(keys);
    return found;
}

/* A field of the identity: its path from the root, and what a difference means. */
typedef struct identity_field {
    const char *path;
    const char *means;
} identity_field;

static const char NOT_SAME_SPEC[] = "they are not of the same spec";
static const char OTHER_KERNEL[] = "they are of different kernels";
static const char OTHER_SIZE[] = "they are of different problem sizes";
static const char OTHER_DEVICE[] = "they were measured on different devices";
static const char OTHER_OBJECTIVE[] = "their objectives differ";
static const char OTHER_SETTINGS[] = "they were measured with different settings";

/* Which kernel a file is of, compared first: a difference here is the one to name
 * (two blocks' shards differ in their params and settings too, as their consequence). */
static const identity_field whose[] = {{"spec.path", NOT_SAME_SPEC}, {"spec.kernel", OTHER_KERNEL}};

/* The rest of the identity, compared after the block and the params. */
static const identity_field identity[] = {
    {"spec.set", NOT_SAME_SPEC},
    {"spec.hash", NOT_SAME_SPEC},
    {"spec.size", OTHER_SIZE},
    {"size", OTHER_SIZE},
    {"device.name", OTHER_DEVICE},
    {"device.arch", OTHER_DEVICE},
    {"device.compute_capability", OTHER_DEVICE},
    {"device.sm_count", OTHER_DEVICE},
    {"objective.name", OTHER_OBJECTIVE},
    {"objective.direction", OTHER_OBJECTIVE},
    {"settings", OTHER_SETTINGS},
};

/* The value at a dotted path of at most two names (NULL: absent). */
static json_t *at(json_t *root, const char *path)
{
    const char *dot = strchr(path, '.');
    if (!dot)
        return json_object_get(root, path);
    char head[64];
    snprintf(head, sizeof head, "%.*s", (int)(dot - path), path);
    return json_object_get(json_object_get(root, head), dot + 1);
}

/* block_of: the kernel block r is of: spec.block, or, in a file written before blocks
 * had names, the kernel's name (as the loader and cutune_tune_block read it). */
static const char *block_of(const cutune_tune_result *r)
{
    return r->block ? r->block : r->kernel ? r->kernel : "";
}

/* A text from a file for a message: at most 60 bytes, control bytes shown as '?'. */
static const char *clean(const char *s, char *buf, size_t size)
{
    snprintf(buf, size, "%s", s);
    for (char *c = buf; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    return buf;
}

/* param_text: param i of r as "NAME TYPE" into buf, "absent" past its last. */
static const char *param_text(const cutune_tune_result *r, int i, char *buf, size_t size)
{
    char name[61], type[61];
    if (i >= r->nparams)
        snprintf(buf, size, "absent");
    else
        snprintf(buf, size, "%s %s", clean(r->param_names[i], name, sizeof name),
                 clean(r->param_types[i], type, sizeof type));
    return buf;
}

/* first_other_param: the first place where the params of ra and rb (names and types, in
 * order) differ, -1 when they do not. */
static int first_other_param(const cutune_tune_result *ra, const cutune_tune_result *rb)
{
    int n = ra->nparams > rb->nparams ? ra->nparams : rb->nparams;
    for (int i = 0; i < n; i++)
        if (i >= ra->nparams || i >= rb->nparams || strcmp(ra->param_names[i], rb->param_names[i]) != 0 ||
            strcmp(ra->param_types[i], rb->param_types[i]) != 0)
            return i;
    return -1;
}

/* compare_fields: merge_check_identity over the n fields of `fields`. */
static int compare_fields(const identity_field *fields, size_t n, json_t *a, const char *pa, json_t *b, const char *pb)
{
    char where[512], x[120], y[120];
    for (size_t i = 0; i < n; i++) {
        int d = first_difference(at(a, fields[i].path), at(b, fields[i].path), fields[i].path, 0, where, sizeof where,
                                 x, sizeof x, y, sizeof y);
        if (d < 0)
            return err_set(CUTUNE_ENOMEM, "out of memory");
        if (d > 0)
            return err_set(CUTUNE_EINVAL, "'%s' and '%s' do not go together: %s (%s: %s against %s)", pa, pb,
                           fields[i].means, where, x, y);
    }
    return CUTUNE_OK;
}

int merge_check_identity(json_t *a, const cutune_tune_result *ra, const char *pa, json_t *b,
                         const cutune_tune_result *rb, const char *pb)
{
    int rc = compare_fields(whose, sizeof whose / sizeof whose[0], a, pa, b, pb);
    if (rc != CUTUNE_OK)
        return rc;
    char x[130], y[130];
    if (strcmp(block_of(ra), block_of(rb)) != 0) {
        return err_set(CUTUNE_EINVAL,
                       "'%s' and '%s' do not go together: they are of different kernel blocks of the spec "
                       "(spec.block: \"%s\" against \"%s\"); merge each block's shards on their own",
                       pa, pb, clean(block_of(ra), x, 61), clean(block_of(rb), y, 61));
    }
    int i = first_other_param(ra, rb);
    if (i >= 0) {
        return err_set(CUTUNE_EINVAL, "'%s' and '%s' do not go together: %s (spec.params[%d]: %s against %s)", pa, pb,
                       NOT_SAME_SPEC, i, param_text(ra, i, x, sizeof x), param_text(rb, i, y, sizeof y));
    }
    return compare_fields(identity, sizeof identity / sizeof identity[0], a, pa, b, pb);
}

int merge_check_sum(json_int_t *total, json_t *count, const char *path, const char *what)
{
    json_int_t v = json_is_integer(count) ? json_integer_value(count) : 0;
    if (__builtin_add_overflow(*total, v, total)) {
        return err_set(CUTUNE_EINVAL,
                       "'%s': %s (%lld) added to the other shards' passes 2^63 - 1: the files were edited", path, what,
                       (long long)v);
    }
    return CUTUNE_OK;
}
