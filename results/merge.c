/* merge.c - the shards of a split run gathered into one result (see merge.h). Each file
 * is read by the one loader (so it is checked as any results file is), the files are
 * compared, and their entries, as they stand in the files, are put in ordinal order into
 * one version-1 object that the loader reads again: the merged result is made by the one
 * record codec, and the caller writes it with the one writer. */
#include "merge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../search/space.h"
#include "load.h"

/* One input: its JSON, the result loaded from it, its path. */
typedef struct input {
    json_t *root;
    cutune_tune_result *r;
    const char *path;
} input;

/* One entry: its configuration's ordinal, the input holding it and its place there. */
typedef struct entry {
    uint64_t ordinal;
    int file;
    size_t at;
} entry;

static int refuse(char *err, size_t errsize, const char *a, const char *b, const char *why)
{
    snprintf(err, errsize, "'%s' and '%s' do not go together: %s", a, b, why);
    return CUTUNE_EINVAL;
}

/* same_run: CUTUNE_OK when b is of a's spec (kernel, params' names and types, objective),
 * measured on a's device model (name, arch) with a's settings (warm-ups, repetitions,
 * spread, L2 flush, hardware counters); else CUTUNE_EINVAL with what differs. */
static int same_run(const input *a, const input *b, char *err, size_t errsize)
{
    const cutune_tune_result *x = a->r, *y = b->r;
    bool params = x->nparams == y->nparams;
    for (int i = 0; params && i < x->nparams; i++)
        params = strcmp(x->param_names[i], y->param_names[i]) == 0 && strcmp(x->param_types[i], y->param_types[i]) == 0;
    bool hw = x->nhw == y->nhw && x->profile_top == y->profile_top;
    for (int i = 0; hw && i < x->nhw; i++)
        hw = strcmp(x->hw_names[i], y->hw_names[i]) == 0;
    char why[600];
    if (strcmp(x->kernel, y->kernel) != 0 || !params) {
        snprintf(why, sizeof why, "they are not of the same spec (kernel '%s' with %d params against '%s' with %d, "
                 "or params of other names or types)", x->kernel, x->nparams, y->kernel, y->nparams);
    } else if (strcmp(x->summary.objective_name, y->summary.objective_name) != 0 ||
               x->summary.maximize != y->summary.maximize) {
        snprintf(why, sizeof why, "their objectives differ (%s %s against %s %s)", x->summary.objective_name,
                 x->summary.maximize ? "maximized" : "minimized", y->summary.objective_name,
                 y->summary.maximize ? "maximized" : "minimized");
    } else if (strcmp(x->device.name, y->device.name) != 0 || strcmp(x->device.arch, y->device.arch) != 0) {
        snprintf(why, sizeof why, "they were measured on different devices (%s, %s against %s, %s)", x->device.name,
                 x->device.arch, y->device.name, y->device.arch);
    } else if (x->warmup != y->warmup || x->repeat != y->repeat || x->max_repeat != y->max_repeat ||
               x->spread != y->spread || x->flush_l2 != y->flush_l2) {
        snprintf(why, sizeof why, "they were measured with different settings (warmup, repeat, max_repeat, spread "
                 "or flush_l2)");
    } else if (!hw) {
        snprintf(why, sizeof why, "they read different hardware counters (settings.profile)");
    } else {
        return CUTUNE_OK;
    }
    return refuse(err, errsize, a->path, b->path, why);
}

/* The shard indices input `in` holds (its index, or a partial merge's list): n of them
 * in `out` (room for its shard_count). */
static int shards_of(const cutune_tune_result *r, int *out)
{
    if (r->nshard_merged > 0) {
        memcpy(out, r->shard_merged, sizeof(int) * (size_t)r->nshard_merged);
        return r->nshard_merged;
    }
    out[0] = r->shard_index;
    return 1;
}

/* Appends ", K" (or "K" first) to the list in buf. */
static void list_add(char *buf, size_t size, int k)
{
    size_t len = strlen(buf);
    if (len + 16 < size)
        snprintf(buf + len, size - len, "%s%d", len ? ", " : "", k);
}

/* coverage: owner[i] = 1 + the input holding shard i (0: missing), for i < count, the
 * split's shard count. Every input must be a shard of a split of the same count, no
 * shard given twice, and none missing unless `partial` (then the missing are listed in
 * `missing`, empty when none is). CUTUNE_OK or CUTUNE_EINVAL (ENOMEM) with why in err. */
static int coverage(const input *in, int n, bool partial, int **owner, int *count, char *missing, size_t msize,
                    char *err, size_t errsize)
{
    *owner = NULL;
    missing[0] = '\0';
    for (int k = 0; k < n; k++)
        if (in[k].r->shard_count == 0) {
            snprintf(err, errsize, "'%s' is not a shard (it has no settings.shard): merge gathers the shards of one "
                     "`cutune SPEC --shard i/N` split", in[k].path);
            return CUTUNE_EINVAL;
        }
    int N = in[0].r->shard_count;
    for (int k = 1; k < n; k++)
        if (in[k].r->shard_block != in[0].r->shard_block) {
            char why[200];
            snprintf(why, sizeof why, "their shards take ordinals in runs of %d and of %d", in[0].r->shard_block,
                     in[k].r->shard_block);
            return refuse(err, errsize, in[0].path, in[k].path, why);
        }
    for (int k = 1; k < n; k++)
        if (in[k].r->shard_count != N) {
            char why[200];
            snprintf(why, sizeof why, "they are shards of different splits (into %d and into %d)", N,
                     in[k].r->shard_count);
            return refuse(err, errsize, in[0].path, in[k].path, why);
        }
    int *own = calloc((size_t)N, sizeof *own), *held = malloc(sizeof *held * (size_t)N);
    if (!own || !held) {
        free(own);
        free(held);
        snprintf(err, errsize, "out of memory");
        return CUTUNE_ENOMEM;
    }
    for (int k = 0; k < n; k++) {
        int h = shards_of(in[k].r, held);
        for (int j = 0; j < h; j++) {
            if (own[held[j]]) {
                char why[200];
                snprintf(why, sizeof why, "both hold shard %d of %d (overlapping shards)", held[j], N);
                int rc = refuse(err, errsize, in[own[held[j]] - 1].path, in[k].path, why);
                free(own);
                free(held);
                return rc;
            }
            own[held[j]] = k + 1;
        }
    }
    free(held);
    for (int i = 0; i < N; i++)
        if (!own[i])
            list_add(missing, msize, i);
    if (missing[0] && !partial) {
        char given[600] = "";
        for (int k = 0; k < n && strlen(given) + 40 < sizeof given; k++) {
            size_t len = strlen(given);
            snprintf(given + len, sizeof given - len, "%s'%s'", k ? ", " : "", in[k].path);
        }
        bool several = strchr(missing, ',') != NULL;
        snprintf(err, errsize, "shard%s %s of %d %s missing from the files given (%s): merge every shard, or pass "
                 "--partial", several ? "s" : "", missing, N, several ? "are" : "is", given);
        free(own);
        return CUTUNE_EINVAL;
    }
    *owner = own;
    *count = N;
    return CUTUNE_OK;
}

static int by_ordinal(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    return x->ordinal < y->ordinal ? -1 : x->ordinal > y->ordinal ? 1 : x->file - y->file;
}

/* entries_of: every input's entries, sorted by ordinal, into *out (n_out of them), each
 * checked to be of its file's shards (owner, from coverage) and held once. CUTUNE_OK,
 * CUTUNE_EINVAL or CUTUNE_ENOMEM with why in err. */
static int entries_of(const input *in, int n, const int *owner, int N, entry **out, size_t *n_out, char *err,
                      size_t errsize)
{
    size_t total = 0;
    uint64_t B = in[0].r->shard_block > 1 ? (uint64_t)in[0].r->shard_block : 1; /* coverage: the same in all */
    for (int k = 0; k < n; k++)
        total += in[k].r->n;
    entry *e = malloc(sizeof *e * (total + 1));
    if (!e) {
        snprintf(err, errsize, "out of memory");
        return CUTUNE_ENOMEM;
    }
    size_t m = 0;
    for (int k = 0; k < n; k++)
        for (uint64_t i = 0; i < in[k].r->n; i++) {
            uint64_t ord = in[k].r->records[i]->v.ordinal;
            if (owner[sspace_shard_of(ord, (uint64_t)N, B)] != k + 1) {
                snprintf(err, errsize, "'%s' holds configuration %llu, which is not of its shard%s of %d (ordinal / "
                         "%llu %% %d == shard): the file was edited, or the shards are of different numberings",
                         in[k].path, (unsigned long long)ord, in[k].r->nshard_merged > 0 ? "s" : "", N,
                         (unsigned long long)B, N);
                free(e);
                return CUTUNE_EINVAL;
            }
            e[m++] = (entry){ord, k, (size_t)i};
        }
    qsort(e, m, sizeof *e, by_ordinal);
    for (size_t i = 1; i < m; i++)
        if (e[i].ordinal == e[i - 1].ordinal) {
            char why[200];
            snprintf(why, sizeof why, "both hold configuration %llu (overlapping shards)",
                     (unsigned long long)e[i].ordinal);
            int rc = refuse(err, errsize, in[e[i - 1].file].path, in[e[i].file].path, why);
            free(e);
            return rc;
        }
    *out = e;
    *n_out = m;
    return CUTUNE_OK;
}

/* The merged object: the first input's header; settings without its shard (the held
 * shards' list when some are missing) and with merged_from and the search's counts
 * added up; the summary's seconds combined (its counts and winner are recounted on the
 * loaded result); the entries in ordinal order, as they stand in the files. */
static json_t *merged_root(const input *in, int n, const entry *e, size_t m, const int *owner, int N, bool complete)
{
    json_t *root = json_copy(in[0].root);
    json_t *set = json_deep_copy(json_object_get(in[0].root, "settings"));
    json_t *sum = json_deep_copy(json_object_get(in[0].root, "summary"));
    json_t *results = json_array(), *from = json_array();
    if (!root || !json_is_object(set) || !json_is_object(sum) || !results || !from) {
        json_decref(root);
        json_decref(set);
        json_decref(sum);
        json_decref(results);
        json_decref(from);
        return NULL;
    }
    json_object_del(set, "shard");
    /* issue 19: each shard's spread is between its own GPUs: not the merged run's; the
     * GPUs stay named only when every shard ran on the same list (one host's) */
    json_object_del(sum, "device_spread");
    for (int k = 1; k < n; k++)
        if (!json_equal(json_object_get(json_object_get(in[k].root, "settings"), "devices"),
                        json_object_get(set, "devices")))
            json_object_del(set, "devices");
    if (!complete) {
        json_t *held = json_array();
        for (int i = 0; i < N; i++)
            if (owner[i])
                json_array_append_new(held, json_integer(i));
        json_object_set_new(set, "shard", json_pack("{s:o, s:i, s:i}", "merged", held, "count", N, "block",
                                                    in[0].r->shard_block > 1 ? in[0].r->shard_block : 1));
    }
    for (int k = 0; k < n; k++)
        json_array_append_new(from, json_string(in[k].path));
    json_object_set_new(set, "merged_from", from);
    double wall = 0, compile = 0, compile_wall = 0, gpu = 0, timing = 0, profile = 0, first = 0;
    json_int_t evaluations = 0, screened = 0, profiled = 0, threads = 0;
    bool interrupted = false;
    for (int k = 0; k < n; k++) {
        const cutune_tune_summary *s = &in[k].r->summary;
        wall = fmax(wall, s->wall_seconds);
        compile_wall = fmax(compile_wall, s->compile_wall_seconds);
        compile += s->compile_seconds;
        gpu += s->gpu_seconds;
        timing += s->timing_seconds;
        profile += s->profile_seconds;
        profiled += (json_int_t)s->profiled;
        threads = threads > s->threads ? threads : s->threads;
        interrupted = interrupted || s->interrupted;
        if (s->first_variant_seconds > 0 && (first == 0 || s->first_variant_seconds < first))
            first = s->first_variant_seconds;
        json_t *search = json_object_get(json_object_get(in[k].root, "settings"), "search");
        evaluations += json_integer_value(json_object_get(search, "evaluations"));
        screened += json_integer_value(json_object_get(search, "screened"));
    }
    json_t *search = json_object_get(set, "search");
    if (json_is_object(search)) {
        json_object_set_new(search, "evaluations", json_integer(evaluations));
        json_object_set_new(search, "screened", json_integer(screened));
    }
    json_object_set_new(root, "settings", set);
    json_object_set_new(sum, "best", json_null()); /* picked again (recount) */
    json_object_set_new(sum, "wall_seconds", json_real(wall));
    json_object_set_new(sum, "compile_seconds", json_real(compile));
    json_object_set_new(sum, "compile_wall_seconds", json_real(compile_wall));
    json_object_set_new(sum, "gpu_seconds", json_real(gpu));
    json_object_set_new(sum, "timing_seconds", json_real(timing));
    json_object_set_new(sum, "threads", json_integer(threads));
    json_object_set_new(sum, "interrupted", json_boolean(interrupted));
    json_object_set_new(sum, "profiled", json_integer(profiled));
    json_object_set_new(sum, "profile_seconds", json_real(profile));
    json_object_set_new(sum, "first_variant_seconds", first > 0 ? json_real(first) : json_null());
    json_object_set_new(root, "summary", sum);
    for (size_t i = 0; i < m; i++)
        json_array_append(results, json_array_get(json_object_get(in[e[i].file].root, "results"), e[i].at));
    json_object_set_new(root, "results", results);
    return root;
}

/* recount: the summary's counts over every record, and the winner: the best record
 * that can win by the objective's direction (the lowest ordinal among equals). */
static void recount(cutune_tune_result *r)
{
    cutune_tune_summary *s = &r->summary;
    result_count(r);
    s->best = -1;
    for (uint64_t i = 0; i < r->n; i++) {
        const record *rec = r->records[i];
        const cutune_measurement *m = &rec->m;
        if (!record_can_win(rec))
            continue;
        double best = s->best >= 0 ? r->records[s->best]->m.objective : NAN;
        if (s->best < 0 || (s->maximize ? m->objective > best : m->objective < best))
            s->best = (int64_t)i;
    }
}

int results_merge(cutune_tune_result **out, const char *const *paths, int n, bool partial, char *note,
                  size_t notesize, char *err, size_t errsize)
{
    *out = NULL;
    note[0] = '\0';
    input *in = calloc((size_t)(n > 0 ? n : 1), sizeof *in);
    if (!in) {
        snprintf(err, errsize, "out of memory");
        return CUTUNE_ENOMEM;
    }
    int rc = n > 0 ? CUTUNE_OK : CUTUNE_EINVAL;
    if (n <= 0)
        snprintf(err, errsize, "no results files to merge");
    for (int k = 0; k < n && rc == CUTUNE_OK; k++) {
        in[k].path = paths[k];
        rc = results_read_json(&in[k].root, paths[k], err, errsize);
        if (rc == CUTUNE_OK)
            rc = results_load_json(&in[k].r, in[k].root, paths[k], err, errsize);
        if (rc == CUTUNE_OK && in[k].r->nsizes > 0) {
            snprintf(err, errsize, "'%s' is a run over problem sizes (version 2): merge does not take those; "
                     "merge one size at a time", paths[k]);
            rc = CUTUNE_EINVAL;
        }
    }
    for (int k = 1; k < n && rc == CUTUNE_OK; k++)
        rc = same_run(&in[0], &in[k], err, errsize);
    int *owner = NULL, N = 0;
    entry *e = NULL;
    size_t m = 0;
    if (rc == CUTUNE_OK)
        rc = coverage(in, n, partial, &owner, &N, note, notesize, err, errsize);
    if (rc == CUTUNE_OK)
        rc = entries_of(in, n, owner, N, &e, &m, err, errsize);
    if (rc == CUTUNE_OK) {
        json_t *root = merged_root(in, n, e, m, owner, N, note[0] == '\0');
        rc = root ? results_load_json(out, root, paths[0], err, errsize) : CUTUNE_ENOMEM;
        if (!root)
            snprintf(err, errsize, "out of memory");
        json_decref(root);
    }
    if (rc == CUTUNE_OK) {
        recount(*out);
        (*out)->summary.results_path = NULL; /* not read from a file: the caller writes it */
    }
    free(e);
    free(owner);
    for (int k = 0; k < n; k++) {
        json_decref(in[k].root);
        result_destroy(in[k].r);
    }
    free(in);
    return rc;
}
