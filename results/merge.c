/* merge.c - the shards of a split run gathered into one result (see merge.h). Each file
 * is read by the one loader (so it is checked as any results file is), the files are
 * compared, and their entries, as they stand in the files, are put in ordinal order into
 * one version-1 object that the loader reads again: the merged result is made by the one
 * record codec, and the caller writes it with the one writer.
 *
 * Reading the files is most of a merge's work (parsing their JSON: about 2 CPU-seconds
 * for 26,000 entries), and the files are independent: they are read, loaded and checked
 * side by side, a thread per core (each_input), and freed the same way. Each input is
 * touched by one thread at a time; a thread's failure is kept with its input and raised
 * again in the caller's thread (the error object is per thread), the first file's first,
 * so the message does not depend on which thread finished first. */
#include "merge.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/err.h"
#include "../compiler/space.h"
#include "load.h"
#include "merge_check.h"
#include "record.h"

/* One input: its JSON, the result loaded from it, its path; when reading it failed,
 * the status and the message (malloc'd; NULL: none, or no memory for it). */
typedef struct input {
    json_t *root;
    cutune_tune_result *r;
    const char *path;
    int rc;
    char *why;
} input;

/* The most threads a merge reads with (files beyond them wait for a free thread). */
enum { MERGE_THREADS_MAX = 32 };

/* The inputs a crew of threads works through, each taking the next not yet taken. */
typedef struct crew {
    input *in;
    int n;
    void (*step)(input *);
    atomic_int next;
} crew;

static void *crew_work(void *arg)
{
    crew *c = arg;
    for (int k; (k = atomic_fetch_add(&c->next, 1)) < c->n;)
        c->step(&c->in[k]);
    return NULL;
}

/* each_input: step(&in[k]) for every k < n, on up to a thread per online core (the
 * caller's thread one of them; fewer when a thread cannot be started). Returns when
 * every step has. */
static void each_input(input *in, int n, void (*step)(input *))
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int threads = cores < 1 ? 1 : cores > MERGE_THREADS_MAX ? MERGE_THREADS_MAX : (int)cores;
    threads = threads < n ? threads : n;
    crew c = {in, n, step, 0};
    pthread_t helper[MERGE_THREADS_MAX];
    int started = 0;
    for (int t = 1; t < threads; t++)
        if (pthread_create(&helper[started], NULL, crew_work, &c) == 0)
            started++;
    crew_work(&c);
    for (int t = 0; t < started; t++)
        pthread_join(helper[t], NULL);
}

/* Keeps the calling thread's error with input `in` when rc is a failure. */
static void keep_error(input *in, int rc)
{
    in->rc = rc;
    if (rc != CUTUNE_OK) {
        const err_info *e = err_last();
        in->why = strdup(e ? e->message : "error");
    }
}

/* read_input: the file of `in` read, loaded and checked as merge reads it (one thread's
 * step: the outcome kept in `in`). */
static void read_input(input *in)
{
    int rc = results_read_json(&in->root, in->path);
    if (rc == CUTUNE_OK)
        rc = results_load_json(&in->r, in->root, in->path);
    if (rc == CUTUNE_OK && in->r->nsizes > 0) {
        rc = err_set(CUTUNE_EINVAL,
                     "'%s' is a run over problem sizes (version 2): merge does not take those; "
                     "merge one size at a time",
                     in->path);
    }
    if (rc == CUTUNE_OK)
        rc = merge_check_shape(in->root, in->r, in->path);
    keep_error(in, rc);
}

/* free_input: what `in` holds, freed (one thread's step). */
static void free_input(input *in)
{
    json_decref(in->root);
    result_destroy(in->r);
    free(in->why);
    in->root = NULL;
    in->r = NULL;
    in->why = NULL;
}

/* read_inputs: every input read (each_input), then the first failure, in the order of
 * the files, made the calling thread's error. CUTUNE_OK or that failure's status. */
static int read_inputs(input *in, int n)
{
    each_input(in, n, read_input);
    for (int k = 0; k < n; k++)
        if (in[k].rc != CUTUNE_OK)
            return in[k].why ? err_set(in[k].rc, "%s", in[k].why) : err_set(in[k].rc, "'%s': error", in[k].path);
    return CUTUNE_OK;
}

/* One entry: its configuration's ordinal, the input holding it and its place there. */
typedef struct entry {
    uint64_t ordinal;
    int file;
    size_t at;
} entry;

static int refuse(const char *a, const char *b, const char *why)
{
    return err_set(CUTUNE_EINVAL, "'%s' and '%s' do not go together: %s", a, b, why);
}

/* The shard indices input `in` holds (its index, or a partial merge's list): n of them
 * in `out` (room for its shard_count: merge_check_shape bounded the list by it). */
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
 * `missing`, empty when none is). CUTUNE_OK or CUTUNE_EINVAL (ENOMEM), the thread's error saying why. */
static int coverage(const input *in, int n, bool partial, int **owner, int *count, char *missing, size_t msize)
{
    *owner = NULL;
    missing[0] = '\0';
    for (int k = 0; k < n; k++)
        if (in[k].r->shard_count == 0) {
            return err_set(CUTUNE_EINVAL,
                           "'%s' is not a shard (it has no settings.shard): merge gathers the shards of one "
                           "`cutune SPEC --shard i/N` split",
                           in[k].path);
        }
    int N = in[0].r->shard_count;
    for (int k = 1; k < n; k++)
        if (in[k].r->shard_block != in[0].r->shard_block) {
            char why[200];
            snprintf(why, sizeof why, "their shards take ordinals in runs of %d and of %d", in[0].r->shard_block,
                     in[k].r->shard_block);
            return refuse(in[0].path, in[k].path, why);
        }
    for (int k = 1; k < n; k++)
        if (in[k].r->shard_count != N) {
            char why[200];
            snprintf(why, sizeof why, "they are shards of different splits (into %d and into %d)", N,
                     in[k].r->shard_count);
            return refuse(in[0].path, in[k].path, why);
        }
    int *own = calloc((size_t)N, sizeof *own), *held = malloc(sizeof *held * (size_t)N);
    if (!own || !held) {
        free(own);
        free(held);
        return err_set(CUTUNE_ENOMEM, "out of memory");
    }
    for (int k = 0; k < n; k++) {
        int h = shards_of(in[k].r, held);
        for (int j = 0; j < h; j++) {
            if (own[held[j]]) {
                char why[200];
                snprintf(why, sizeof why, "both hold shard %d of %d (overlapping shards)", held[j], N);
                int rc = refuse(in[own[held[j]] - 1].path, in[k].path, why);
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
        free(own);
        return err_set(CUTUNE_EINVAL,
                       "shard%s %s of %d %s missing from the files given (%s): merge every shard, or "
                       "pass --partial",
                       several ? "s" : "", missing, N, several ? "are" : "is", given);
    }
    *owner = own;
    *count = N;
    return CUTUNE_OK;
}

/* An entry with its configuration's values (for sorting by configuration). */
typedef struct config_ref {
    const cutune_variant *v;
    const entry *e;
} config_ref;

/* Orders configurations by their values' text, param by param. */
static int values_cmp(const cutune_variant *x, const cutune_variant *y)
{
    for (int i = 0; i < x->nparams && i < y->nparams; i++) {
        int c = strcmp(x->values[i], y->values[i]);
        if (c)
            return c;
    }
    return (x->nparams > y->nparams) - (x->nparams < y->nparams);
}

static int by_values(const void *a, const void *b)
{
    const config_ref *x = a, *y = b;
    int c = values_cmp(x->v, y->v);
    return c ? c : (x->e->ordinal > y->e->ordinal) - (x->e->ordinal < y->e->ordinal);
}

/* "(name value, name value)" of configuration v of result r into buf (control bytes
 * shown as '?'). */
static const char *config_text(const cutune_tune_result *r, const cutune_variant *v, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "(");
    for (int i = 0; i < v->nparams && i < r->nparams && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s %s", i ? ", " : "", r->param_names[i], v->values[i]);
    if (used < size)
        snprintf(buf + used, size - used, ")");
    for (char *c = buf; *c; c++) /* values from the file: nothing a terminal acts on */
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    return buf;
}

/* same_configuration: CUTUNE_OK when no configuration is held under two indices by
 * the m entries e (of the inputs in): the index is the configuration's place in the
 * listing, so two indices of one configuration mean an edited file or files of
 * different numberings. Else CUTUNE_EINVAL naming the configuration and the files. */
static int same_configuration(const input *in, const entry *e, size_t m)
{
    config_ref *refs = malloc(sizeof *refs * (m ? m : 1));
    if (!refs) {
        return err_set(CUTUNE_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < m; i++)
        refs[i] = (config_ref){&in[e[i].file].r->records[e[i].at]->v, &e[i]};
    qsort(refs, m, sizeof *refs, by_values);
    int rc = CUTUNE_OK;
    for (size_t i = 1; i < m && rc == CUTUNE_OK; i++) {
        const config_ref *x = &refs[i - 1], *y = &refs[i];
        if (values_cmp(x->v, y->v) != 0)
            continue; /* another configuration */
        char config[600];
        config_text(in[0].r, x->v, config, sizeof config);
        if (x->e->file == y->e->file)
            rc = err_set(CUTUNE_EINVAL,
                         "'%s' holds configuration %s twice, as entries %llu and %llu: the file was "
                         "edited",
                         in[x->e->file].path, config, (unsigned long long)x->e->ordinal,
                         (unsigned long long)y->e->ordinal);
        else
            rc = err_set(CUTUNE_EINVAL,
                         "'%s' and '%s' do not go together: both hold configuration %s, as entries %llu "
                         "and %llu (a file was edited, or they are of different numberings)",
                         in[x->e->file].path, in[y->e->file].path, config, (unsigned long long)x->e->ordinal,
                         (unsigned long long)y->e->ordinal);
    }
    free(refs);
    return rc;
}

static int by_ordinal(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    return x->ordinal < y->ordinal ? -1 : x->ordinal > y->ordinal ? 1 : x->file - y->file;
}

/* entries_of: every input's entries, sorted by ordinal, into *out (n_out of them), each
 * checked to be of its file's shards (owner, from coverage) and held once. CUTUNE_OK,
 * CUTUNE_EINVAL or CUTUNE_ENOMEM, the thread's error saying why. */
static int entries_of(const input *in, int n, const int *owner, int N, entry **out, size_t *n_out)
{
    size_t total = 0;
    uint64_t B = in[0].r->shard_block > 1 ? (uint64_t)in[0].r->shard_block : 1; /* coverage: the same in all */
    for (int k = 0; k < n; k++)
        total += in[k].r->n;
    entry *e = malloc(sizeof *e * (total + 1));
    if (!e) {
        return err_set(CUTUNE_ENOMEM, "out of memory");
    }
    size_t m = 0;
    for (int k = 0; k < n; k++)
        for (uint64_t i = 0; i < in[k].r->n; i++) {
            uint64_t ord = in[k].r->records[i]->v.ordinal;
            if (owner[space_shard_of(ord, (uint64_t)N, B)] != k + 1) {
                free(e);
                return err_set(CUTUNE_EINVAL,
                               "'%s' holds configuration %llu, which is not of its shard%s of %d "
                               "(ordinal / %llu %% %d == shard): the file was edited, or the shards are of "
                               "different numberings",
                               in[k].path, (unsigned long long)ord, in[k].r->nshard_merged > 0 ? "s" : "", N,
                               (unsigned long long)B, N);
            }
            e[m++] = (entry){ord, k, (size_t)i};
        }
    qsort(e, m, sizeof *e, by_ordinal);
    for (size_t i = 1; i < m; i++)
        if (e[i].ordinal == e[i - 1].ordinal) {
            char why[200];
            snprintf(why, sizeof why, "both hold configuration %llu (overlapping shards)",
                     (unsigned long long)e[i].ordinal);
            int rc = refuse(in[e[i - 1].file].path, in[e[i].file].path, why);
            free(e);
            return rc;
        }
    int rc = same_configuration(in, e, m);
    if (rc != CUTUNE_OK) {
        free(e);
        return rc;
    }
    *out = e;
    *n_out = m;
    return CUTUNE_OK;
}

/* The counts merge adds up over the inputs (merge_check_shape bounded each). */
typedef struct added {
    json_int_t evaluations, screened, profiled;
} added;

/* add_counts: the inputs' settings.search.evaluations and screened and summary.profiled
 * added up into *out. CUTUNE_OK, or CUTUNE_EINVAL when a sum would pass 2^63 - 1. */
static int add_counts(const input *in, int n, added *out)
{
    *out = (added){0, 0, 0};
    int rc = CUTUNE_OK;
    for (int k = 0; k < n && rc == CUTUNE_OK; k++) {
        json_t *search = json_object_get(json_object_get(in[k].root, "settings"), "search");
        json_t *sum = json_object_get(in[k].root, "summary");
        rc = merge_check_sum(&out->evaluations, json_object_get(search, "evaluations"), in[k].path,
                             "settings.search.evaluations");
        if (rc == CUTUNE_OK)
            rc = merge_check_sum(&out->screened, json_object_get(search, "screened"), in[k].path,
                                 "settings.search.screened");
        if (rc == CUTUNE_OK)
            rc = merge_check_sum(&out->profiled, json_object_get(sum, "profiled"), in[k].path, "summary.profiled");
    }
    return rc;
}

/* The merged object: the first input's header; settings without its shard (the held
 * shards' list when some are missing) and with merged_from and the search's counts
 * added up; the summary's seconds combined (its counts and winner are recounted on the
 * loaded result); the entries in ordinal order, as they stand in the files. */
static json_t *merged_root(const input *in, int n, const entry *e, size_t m, const int *owner, int N, bool complete,
                           const added *counts)
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
    /* each shard's spread is between its own GPUs: not the merged run's; the
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
        json_object_set_new(set, "shard",
                            json_pack("{s:o, s:i, s:i}", "merged", held, "count", N, "block",
                                      in[0].r->shard_block > 1 ? in[0].r->shard_block : 1));
    }
    for (int k = 0; k < n; k++)
        json_array_append_new(from, json_string(in[k].path));
    json_object_set_new(set, "merged_from", from);
    double wall = 0, compile = 0, compile_wall = 0, gpu = 0, timing = 0, profile = 0, first = 0;
    json_int_t threads = 0, compiled = 0, cached = 0;
    bool interrupted = false, counted = true; /* counted: every shard recorded its compile counts */
    for (int k = 0; k < n; k++) {
        const cutune_tune_summary *s = &in[k].r->summary;
        wall = fmax(wall, s->wall_seconds);
        compile_wall = fmax(compile_wall, s->compile_wall_seconds);
        compile += s->compile_seconds;
        gpu += s->gpu_seconds;
        timing += s->timing_seconds;
        profile += s->profile_seconds;
        threads = threads > s->threads ? threads : s->threads;
        counted = counted && s->compiled != UINT64_MAX && s->cached != UINT64_MAX;
        compiled += counted ? (json_int_t)s->compiled : 0;
        cached += counted ? (json_int_t)s->cached : 0;
        interrupted = interrupted || s->interrupted;
        if (s->first_variant_seconds > 0 && (first == 0 || s->first_variant_seconds < first))
            first = s->first_variant_seconds;
    }
    json_t *search = json_object_get(set, "search");
    if (json_is_object(search)) {
        json_object_set_new(search, "evaluations", json_integer(counts->evaluations));
        json_object_set_new(search, "screened", json_integer(counts->screened));
    }
    json_object_set_new(root, "settings", set);
    json_object_set_new(sum, "best", json_null()); /* picked again (recount) */
    json_object_set_new(sum, "wall_seconds", json_real(wall));
    json_object_set_new(sum, "compile_seconds", json_real(compile));
    json_object_set_new(sum, "compile_wall_seconds", json_real(compile_wall));
    json_object_set_new(sum, "gpu_seconds", json_real(gpu));
    json_object_set_new(sum, "timing_seconds", json_real(timing));
    json_object_set_new(sum, "threads", json_integer(threads));
    if (counted) {
        json_object_set_new(sum, "compiled", json_integer(compiled));
        json_object_set_new(sum, "cached", json_integer(cached));
    } else { /* one shard did not record them: the merge does not either */
        json_object_del(sum, "compiled");
        json_object_del(sum, "cached");
    }
    json_object_set_new(sum, "interrupted", json_boolean(interrupted));
    json_object_set_new(sum, "profiled", json_integer(counts->profiled));
    json_object_set_new(sum, "profile_seconds", json_real(profile));
    json_object_set_new(sum, "first_variant_seconds", first > 0 ? json_real(first) : json_null());
    json_object_set_new(root, "summary", sum);
    for (size_t i = 0; i < m; i++)
        json_array_append(results, json_array_get(json_object_get(in[e[i].file].root, "results"), e[i].at));
    json_object_set_new(root, "results", results);
    return root;
}

/* A count at `v` (a non-negative integer), else 0. */
static uint64_t count_of(json_t *v)
{
    return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v) : 0;
}

/* The longest strategy name and stop reason a results file may carry into a merge (the
 * longest cutune writes, "strategy finished", is 17 bytes). */
#define STRATEGY_NAME_MAX 16
#define STOP_REASON_MAX 32

/* carry_search: the search settings of the inputs (settings.search: the same in each,
 * merge_check_identity said) into the merged summary s, which the writer writes back:
 * strategy, seed, budget, time budget, patience, the added-up evaluations and screened,
 * and stopped_by when every input says the same. The strings are copied into r's arena
 * (NULL, or the strategy left as it was, when out of memory or longer than any cutune
 * writes). */
static void carry_search(cutune_tune_result *r, const input *in, int n, const added *counts)
{
    cutune_tune_summary *s = &r->summary;
    json_t *search = json_object_get(json_object_get(in[0].root, "settings"), "search");
    const char *name = json_string_value(json_object_get(search, "strategy"));
    if (name && strlen(name) < STRATEGY_NAME_MAX && (name = arena_strdup(r->arena, name)) != NULL)
        s->strategy = name;
    s->seed = count_of(json_object_get(search, "seed"));
    s->budget = count_of(json_object_get(search, "budget"));
    s->patience = count_of(json_object_get(search, "patience"));
    double t = record_num(json_object_get(search, "time_budget_s"), 0);
    s->time_limit_s = isfinite(t) && t > 0 ? t : 0;
    s->evaluations = (uint64_t)counts->evaluations;
    s->screened = (uint64_t)counts->screened;
    const char *stop = json_string_value(json_object_get(search, "stopped_by"));
    for (int k = 1; k < n && stop; k++) {
        const char *other = json_string_value(
            json_object_get(json_object_get(json_object_get(in[k].root, "settings"), "search"), "stopped_by"));
        if (!other || strcmp(other, stop) != 0)
            stop = NULL;
    }
    s->stop_reason = stop && *stop && strlen(stop) < STOP_REASON_MAX ? arena_strdup(r->arena, stop) : NULL;
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

int results_merge(cutune_tune_result **out, const char *const *paths, int n, bool partial, char *note, size_t notesize)
{
    *out = NULL;
    note[0] = '\0';
    input *in = calloc((size_t)(n > 0 ? n : 1), sizeof *in);
    if (!in) {
        return err_set(CUTUNE_ENOMEM, "out of memory");
    }
    for (int k = 0; k < n; k++)
        in[k].path = paths[k];
    int rc = n > 0 ? read_inputs(in, n) : err_set(CUTUNE_EINVAL, "no results files to merge");
    for (int k = 1; k < n && rc == CUTUNE_OK; k++)
        rc = merge_check_identity(in[0].root, in[0].r, in[0].path, in[k].root, in[k].r, in[k].path);
    int *owner = NULL, N = 0;
    entry *e = NULL;
    size_t m = 0;
    if (rc == CUTUNE_OK)
        rc = coverage(in, n, partial, &owner, &N, note, notesize);
    if (rc == CUTUNE_OK)
        rc = entries_of(in, n, owner, N, &e, &m);
    added counts;
    if (rc == CUTUNE_OK)
        rc = add_counts(in, n, &counts);
    if (rc == CUTUNE_OK) {
        json_t *root = merged_root(in, n, e, m, owner, N, note[0] == '\0', &counts);
        rc = root ? results_load_json(out, root, paths[0]) : err_set(CUTUNE_ENOMEM, "out of memory");
        json_decref(root);
    }
    if (rc == CUTUNE_OK) {
        recount(*out);
        carry_search(*out, in, n, &counts);
        (*out)->summary.results_path = NULL; /* not read from a file: the caller writes it */
    }
    free(e);
    free(owner);
    each_input(in, n, free_input);
    free(in);
    return rc;
}
