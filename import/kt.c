/* kt.c - Kernel Tuner's cache files and T4 results files as the results of a spec (see
 * kt.h; docs/kernel-tuner.md, "Importing Kernel Tuner's recordings").
 *
 * The file is another tool's and untrusted: every entry is checked against the spec
 * before it becomes a record, and the first thing wrong stops the import with the file
 * and the JSON path named ("c.json: cache.\"16,1\".block_size_x: 1.5 is not an
 * integer: ..."). An entry's params are the spec's, each value exactly of the param's
 * type and one of its domain's; its configuration is in the spec's space (a require it
 * breaks is named); no configuration comes twice. Each entry becomes a record in the
 * file's order (the order Kernel Tuner ran them), planned as the spec plans it, so that
 * the header and the report see the spec's launch geometry and macros.
 *
 * Outcomes keep their kind (the T4 `invalidity`, or the cache's error string):
 *   correct / a time          -> ok           compile / CompilationFailedConfig -> compile error
 *   runtime / RuntimeFailedConfig -> launch error     correctness -> wrong
 *   constraints / InvalidConfig   -> not run          timeout     -> timeout
 *   a time of 1e20 (older Kernel Tuner: failed to compile or to run, which is not recorded)
 *                                 -> launch error, its reason saying so
 * Times are Kernel Tuner's milliseconds (a T4 file's `metadata.timeunit` is honoured):
 * time_ms's figures are the statistics of its runtimes (`times`, `times.runtimes`), and
 * the objective is Kernel Tuner's own `time` (the mean of those runtimes: what its
 * strategies ranked by), so that a search replayed by `cutune simulate` sees what
 * Kernel Tuner saw; a spec whose objective is a metric gets it evaluated at that time.
 * compile_seconds is `compile_time`, timing_seconds `benchmark_time`, gpu_seconds
 * `benchmark_time + verification_time`. */
#include "kt.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../base/err.h"
#include "../compiler/eval.h"
#include "../compiler/plan.h"
#include "../compiler/space.h"
#include "../search/sspace.h"
#include "kt_internal.h"

/* A configuration met while reading: its key and the entry that gave it. */
typedef struct seen {
    uint64_t key;
    size_t entry;
} seen;

static int by_key(const void *pa, const void *pb)
{
    const seen *a = pa, *b = pb;
    return a->key < b->key ? -1 : a->key > b->key ? 1 : a->entry < b->entry ? -1 : a->entry > b->entry;
}

/* Sets the error to "FILE: WHERE: what" and returns CUTUNE_EIO. */
int kt_refuse(const kt_import_state *k, const char *where, const char *fmt, ...)
{
    char what[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return err_set(CUTUNE_EIO, "%s: %s: %s", k->path, where, what);
}

/* Days from 1970-01-01 to the civil date y-m-d (proleptic Gregorian; H. Hinnant's
 * days_from_civil): timegm is not POSIX. */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* digits: the number written by exactly `n` decimal digits at *p (no sign, no space),
 * *p moved past them; -1 when they are not there. sscanf's %d would also take a sign
 * and leading blanks, and cannot say that a field overflowed. */
static int digits(const char **p, int n)
{
    int v = 0;
    for (int k = 0; k < n; k++, (*p)++) {
        if (**p < '0' || **p > '9')
            return -1;
        v = v * 10 + (**p - '0');
    }
    return v;
}

/* expect: whether *p starts with the character c (then moved past it). */
static bool expect(const char **p, char c)
{
    if (**p != c)
        return false;
    (*p)++;
    return true;
}

/* The earliest of the entries' timestamps, as a results file's date (UTC,
 * "2023-12-22T09:53:48Z"), kept in k->date. Kernel Tuner writes "2023-12-22
 * 09:53:48.691683+00:00" (Python's isoformat: every field of its full width); an offset
 * is applied; a stamp that does not read so is skipped. */
void kt_note_timestamp(kt_import_state *k, json_t *stamp)
{
    const char *rest = json_string_value(stamp);
    if (!rest)
        return;
    int y = digits(&rest, 4), mo = expect(&rest, '-') ? digits(&rest, 2) : -1;
    int d = expect(&rest, '-') ? digits(&rest, 2) : -1;
    int h = expect(&rest, ' ') || expect(&rest, 'T') ? digits(&rest, 2) : -1;
    int mi = expect(&rest, ':') ? digits(&rest, 2) : -1, sec = expect(&rest, ':') ? digits(&rest, 2) : -1;
    if (y < 0 || mo < 0 || d < 0 || h < 0 || mi < 0 || sec < 0)
        return;
    if (*rest == '.')
        for (rest++; *rest >= '0' && *rest <= '9'; rest++)
            ;
    long offset = 0;
    if (*rest == '+' || *rest == '-') {
        long sign = *rest == '-' ? -1 : 1;
        rest++;
        int oh = digits(&rest, 2), om = expect(&rest, ':') ? digits(&rest, 2) : -1;
        if (oh < 0 || om < 0 || *rest != '\0')
            return;
        offset = sign * (oh * 3600L + om * 60L);
    } else if (!(*rest == '\0' || (rest[0] == 'Z' && rest[1] == '\0'))) {
        return;
    }
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
        return;
    time_t t = (time_t)(days_from_civil(y, mo, d) * 86400 + h * 3600L + mi * 60L + sec - offset);
    struct tm utc;
    char date[32];
    if (!gmtime_r(&t, &utc) || strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc) == 0)
        return;
    if (!k->date[0] || strcmp(date, k->date) < 0)
        snprintf(k->date, sizeof k->date, "%s", date);
}

/* The require of the spec that `vals` breaks, as "the require at FILE:LINE:COL", or ""
 * when none does on its own (what keeps it out is then not one require). */
static void broken_require(const model *m, const value *vals, char *out, size_t size)
{
    out[0] = '\0';
    eval_env env = {m, vals, false, 0, NULL, false, NAN, NAN};
    for (int i = 0; i < m->nrequires; i++) {
        bool holds = true;
        eval_error e;
        if (eval_bool(m->requires[i].expr, &env, &holds, &e) < 0 || !holds) {
            unsigned line = 0, col = 0;
            if (m->src)
                src_position(m->src, m->requires[i].loc.begin, &line, &col);
            snprintf(out, size, ": it breaks the require at %s:%u:%u", m->src ? m->src->path : "the spec", line, col);
            return;
        }
    }
}

/* The value of param p in the entry (JSON v at `where`), exactly of its type and in its
 * domain, into *out (a string points into the JSON); its domain index into *at.
 * CUTUNE_OK or CUTUNE_EIO. */
static int param_value(const kt_import_state *k, int p, json_t *v, const char *where, value *out, uint64_t *at)
{
    const m_param *mp = &k->m->params[p];
    char buf[80];
    switch (mp->dom.type) {
    case VT_INT:
        if (!json_is_integer(v))
            return kt_refuse(k, where,
                             "%s is not an integer: param '%s' is an int, whose value is a JSON integer (64, not "
                             "64.0, true or \"64\")",
                             record_shown(v, buf, sizeof buf), mp->name);
        *out = value_int((int64_t)json_integer_value(v));
        break;
    case VT_FLOAT:
        if (json_is_real(v))
            *out = value_float(json_real_value(v));
        else if (json_is_integer(v) && llabs((long long)json_integer_value(v)) <= (1LL << 53))
            *out = value_float((double)json_integer_value(v));
        else
            return kt_refuse(k, where, "%s is not a number a float param ('%s') holds exactly",
                             record_shown(v, buf, sizeof buf), mp->name);
        break;
    case VT_BOOL:
        if (!json_is_boolean(v))
            return kt_refuse(k, where, "%s is not true or false: param '%s' is a bool",
                             record_shown(v, buf, sizeof buf), mp->name);
        *out = value_bool(json_is_true(v));
        break;
    default:
        if (!json_is_string(v))
            return kt_refuse(k, where, "%s is not a string: param '%s' is a string", record_shown(v, buf, sizeof buf),
                             mp->name);
        *out = value_string(json_string_value(v));
        break;
    }
    int64_t i = model_domain_find(&mp->dom, *out);
    if (i < 0) {
        strbuf sb = STRBUF_INIT;
        uint64_t shown_n = mp->dom.size < 8 ? mp->dom.size : 8;
        for (uint64_t j = 0; j < shown_n; j++) {
            if (j)
                sb_add(&sb, ", ");
            value_format(model_domain_at(&mp->dom, j), &sb, true);
        }
        if (shown_n < mp->dom.size)
            sb_printf(&sb, ", ... (%llu values)", (unsigned long long)mp->dom.size);
        int rc = kt_refuse(k, where, "%s is not one of param '%s''s values in the spec (%s): outside its space",
                           record_shown(v, buf, sizeof buf), mp->name, sb_ok(&sb) ? sb_cstr(&sb) : "?");
        sb_free(&sb);
        return rc;
    }
    *at = (uint64_t)i;
    return CUTUNE_OK;
}

int kt_configuration(kt_import_state *k, json_t *config, const char *where, bool exact_keys, uint64_t *key)
{
    const model *m = k->m;
    char at[600];
    for (int p = 0; p < m->nparams; p++) {
        json_t *v = json_object_get(config, m->params[p].name);
        snprintf(at, sizeof at, "%s.%s", where, m->params[p].name);
        if (!v)
            return kt_refuse(k, at, "missing: every param of the spec has a value in every entry");
        int rc = param_value(k, p, v, at, &k->vals[p], &k->vec[p]);
        if (rc != CUTUNE_OK)
            return rc;
    }
    if (exact_keys && json_object_size(config) != (size_t)m->nparams) {
        const char *name;
        json_t *v;
        json_object_foreach(config, name, v)
        {
            bool known = false;
            for (int p = 0; p < m->nparams && !known; p++)
                known = strcmp(m->params[p].name, name) == 0;
            if (!known) {
                json_t *s = json_string(name);
                char buf[80];
                snprintf(at, sizeof at, "%s", where);
                int rc = kt_refuse(k, at, "%s is not a param of the spec: the file tunes another space",
                                   record_shown(s, buf, sizeof buf));
                json_decref(s);
                return rc;
            }
        }
    }
    *key = sspace_encode(k->sp, k->vec);
    if (!sspace_valid(k->sp, *key)) {
        strbuf sb = STRBUF_INIT;
        char why[600];
        space_describe_config(m, k->vals, ~(param_set)0, &sb);
        broken_require(m, k->vals, why, sizeof why);
        int rc = kt_refuse(k, where, "the configuration (%s) is not in the spec's space%s",
                           sb_ok(&sb) ? sb_cstr(&sb) : "?", why);
        sb_free(&sb);
        return rc;
    }
    return CUTUNE_OK;
}

/* The typed values of k->vals as the variant's text and type letters, and the
 * variant the spec plans for them, into rec (in the result's arena). */
static int plan_record(kt_import_state *k, record *rec, uint64_t key, const char *where)
{
    const model *m = k->m;
    arena *a = k->r->arena;
    cutune_variant *v = &rec->v;
    v->ordinal = sspace_ordinal(k->sp, key);
    v->nparams = m->nparams;
    const char **texts = arena_alloc(a, sizeof(char *) * ((size_t)m->nparams + 1));
    char *types = arena_alloc(a, (size_t)m->nparams + 1);
    rec->vals = arena_alloc(a, sizeof(value) * ((size_t)m->nparams + 1));
    if (!texts || !types || !rec->vals)
        return err_set(CUTUNE_ENOMEM, "out of memory importing '%s'", k->path);
    for (int p = 0; p < m->nparams; p++) {
        value x = k->vals[p];
        strbuf sb = STRBUF_INIT;
        value_format(x, &sb, false);
        texts[p] = sb_ok(&sb) ? arena_strdup(a, sb_cstr(&sb)) : NULL;
        sb_free(&sb);
        types[p] = x.type == VT_INT ? 'i' : x.type == VT_FLOAT ? 'f' : x.type == VT_BOOL ? 'b' : 's';
        if (x.type == VT_STRING)
            x.u.s = arena_strdup(a, x.u.s); /* the JSON's string outlives no import */
        if (!texts[p] || (x.type == VT_STRING && !x.u.s))
            return err_set(CUTUNE_ENOMEM, "out of memory importing '%s'", k->path);
        rec->vals[p] = x;
    }
    v->values = texts;
    v->types = types;
    variant plan;
    eval_error e;
    if (plan_variant(m, rec->vals, a, &plan, &e) < 0)
        return kt_refuse(k, where, "the spec cannot plan this configuration: %s", e.message);
    memcpy(v->block, plan.block, sizeof v->block);
    memcpy(v->grid, plan.grid, sizeof v->grid);
    v->block_dims = plan.block_dims;
    v->grid_dims = plan.grid_dims;
    v->smem_bytes = plan.smem_bytes;
    /* The plan's strings may be the model's (the kernel's name, the spec's options): the
     * result outlives the spec, so each is copied into its arena. */
    const char **defines = arena_alloc(a, sizeof(char *) * ((size_t)plan.ndefines + 1));
    const char **options = arena_alloc(a, sizeof(char *) * ((size_t)plan.noptions + 1));
    bool copied = defines && options && (v->name_expression = arena_strdup(a, plan.name_expression)) != NULL;
    for (int i = 0; copied && i < plan.ndefines; i++)
        copied = (defines[i] = arena_strdup(a, plan.defines[i])) != NULL;
    for (int i = 0; copied && i < plan.noptions; i++)
        copied = (options[i] = arena_strdup(a, plan.options[i])) != NULL;
    if (!copied)
        return err_set(CUTUNE_ENOMEM, "out of memory importing '%s'", k->path);
    v->defines = defines;
    v->ndefines = plan.ndefines;
    v->options = options;
    v->noptions = plan.noptions;
    v->ncommon_options = plan.ncommon_options;
    return CUTUNE_OK;
}

static int by_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* The q-quantile of sorted v (n > 0), linear between neighbours. */
static double quantile(const double *v, size_t n, double q)
{
    double at = q * (double)(n - 1);
    size_t lo = (size_t)floor(at), hi = lo + 1 < n ? lo + 1 : lo;
    return v[lo] + (v[hi] - v[lo]) * (at - (double)lo);
}

int kt_add(kt_import_state *k, const kt_entry *e, uint64_t key, const char *where)
{
    seen s = {key, k->nentries};
    if (k->nseen == k->cap_seen) {
        size_t cap = k->cap_seen ? k->cap_seen * 2 : 1024;
        seen *grown = realloc(k->seen, sizeof *grown * cap);
        if (!grown)
            return err_set(CUTUNE_ENOMEM, "out of memory importing '%s'", k->path);
        k->seen = grown;
        k->cap_seen = cap;
    }
    k->seen[k->nseen++] = s;
    k->nentries++;
    record *rec = result_append(k->r);
    if (!rec)
        return err_set(CUTUNE_ENOMEM, "out of memory importing '%s'", k->path);
    int rc = plan_record(k, rec, key, where);
    if (rc != CUTUNE_OK)
        return rc;
    cutune_measurement *m = &rec->m;
    result_set_outcome(k->r, rec, e->out, e->reason);
    m->compile_seconds = e->compile_ms / 1e3;
    m->timing_seconds = e->benchmark_ms / 1e3;
    m->gpu_seconds = (e->benchmark_ms + e->verification_ms) / 1e3;
    if (e->out != OUTCOME_OK) {
        k->failed++;
        return CUTUNE_OK;
    }
    m->timed = 1;
    m->batch = 1;
    if (e->nruntimes > 0) {
        double *t = malloc(sizeof(double) * e->nruntimes);
        if (!t)
            return err_set(CUTUNE_ENOMEM, "out of memory importing '%s'", k->path);
        memcpy(t, e->runtimes, sizeof(double) * e->nruntimes);
        qsort(t, e->nruntimes, sizeof *t, by_double);
        m->median_ms = quantile(t, e->nruntimes, 0.5);
        m->min_ms = t[0];
        m->max_ms = t[e->nruntimes - 1];
        m->q1_ms = quantile(t, e->nruntimes, 0.25);
        m->q3_ms = quantile(t, e->nruntimes, 0.75);
        m->reps = e->nruntimes > INT32_MAX ? INT32_MAX : (int)e->nruntimes;
        free(t);
    } else { /* only Kernel Tuner's time: no samples to take statistics of (reps 0) */
        m->median_ms = m->min_ms = m->max_ms = m->q1_ms = m->q3_ms = e->time_ms;
    }
    m->spread = m->median_ms > 0 ? (m->q3_ms - m->q1_ms) / m->median_ms : 0;
    /* The objective and metrics at Kernel Tuner's time (see the top of this file). */
    eval_env env = {k->m, rec->vals, true, e->time_ms * 1e-3, NULL, false, NAN, NAN};
    eval_error err;
    value v;
    if (!k->m->objective)
        m->objective = e->time_ms;
    else
        m->objective = eval_expr(k->m->objective, &env, &v, &err) < 0 ? NAN : value_as_double(v);
    for (int i = 0; i < k->m->nmetrics; i++)
        rec->metrics[i] = eval_expr(k->m->metrics[i].expr, &env, &v, &err) < 0 ? NAN : value_as_double(v);
    return CUTUNE_OK;
}

/* The entry of k->seen named by `entry` as its JSON path, into buf. */
static const char *entry_where(const kt_import_state *k, size_t entry, char *buf, size_t size)
{
    if (k->labels && k->labels[entry]) {
        json_t *s = json_string(k->labels[entry]);
        char shown[80];
        snprintf(buf, size, "cache.%s", record_shown(s, shown, sizeof shown));
        json_decref(s);
    } else {
        snprintf(buf, size, "results[%zu]", entry);
    }
    return buf;
}

/* No configuration twice; how many of the space's are missing (k->missing; -1 for a
 * space too large to list); under `complete`, none may be. */
static int check_coverage(kt_import_state *k, bool complete)
{
    qsort(k->seen, k->nseen, sizeof *k->seen, by_key);
    for (size_t i = 1; i < k->nseen; i++)
        if (k->seen[i].key == k->seen[i - 1].key) {
            char a[160], b[160];
            strbuf sb = STRBUF_INIT;
            value *vals = k->vals;
            sspace_values(k->sp, k->seen[i].key, vals);
            space_describe_config(k->m, vals, ~(param_set)0, &sb);
            int rc = kt_refuse(k, entry_where(k, k->seen[i].entry, b, sizeof b),
                               "the configuration (%s) again: %s has it already; each configuration is one entry",
                               sb_ok(&sb) ? sb_cstr(&sb) : "?", entry_where(k, k->seen[i - 1].entry, a, sizeof a));
            sb_free(&sb);
            return rc;
        }
    k->space = sspace_count(k->sp);
    if (!sspace_listed(k->sp)) {
        k->missing = -1;
        if (complete)
            return err_set(CUTUNE_EINVAL,
                           "%s: the spec's space (about %llu configurations) is too large to list, so a complete "
                           "recording cannot be checked",
                           k->path, (unsigned long long)k->space);
        return CUTUNE_OK;
    }
    k->missing = (int64_t)(k->space - k->nseen);
    if (complete && k->missing > 0) {
        uint64_t o = 0;
        for (size_t i = 0; i < k->nseen && sspace_at(k->sp, o) == k->seen[i].key; i++)
            o++;
        strbuf sb = STRBUF_INIT;
        sspace_values(k->sp, sspace_at(k->sp, o), k->vals);
        space_describe_config(k->m, k->vals, ~(param_set)0, &sb);
        int rc = err_set(CUTUNE_EIO, "%s: lacks %lld of the spec's %llu configurations (the first: %s)", k->path,
                         (long long)k->missing, (unsigned long long)k->space, sb_ok(&sb) ? sb_cstr(&sb) : "?");
        sb_free(&sb);
        return rc;
    }
    return CUTUNE_OK;
}

/* The summary over the records: counts, seconds, and the winner (the best objective of
 * those that can win, the first among equals). */
static void summarise(cutune_tune_result *r, bool maximize)
{
    result_count(r);
    cutune_tune_summary *s = &r->summary;
    s->evaluations = r->n;
    const record *best = NULL;
    for (uint64_t i = 0; i < r->n; i++) {
        const record *rec = r->records[i];
        s->compile_seconds += rec->m.compile_seconds;
        s->gpu_seconds += rec->m.gpu_seconds;
        s->timing_seconds += rec->m.timing_seconds;
        if (record_can_win(rec) &&
            (!best || (maximize ? rec->m.objective > best->m.objective : rec->m.objective < best->m.objective)))
            best = rec;
    }
    if (best)
        result_set_best(r, best);
}

int kt_import(cutune_tune_result **out, const model *m, const char *spec_path, const char *path, const kt_options *o)
{
    *out = NULL;
    kt_import_state k = {.m = m, .path = path, .missing = -1};
    json_t *root = NULL;
    bool gzipped = false, reopened = false;
    int rc = kt_read_json(&root, &gzipped, &reopened, path);
    if (rc != CUTUNE_OK)
        return rc;
    k.vals = calloc((size_t)m->nparams + 1, sizeof(value));
    k.vec = calloc((size_t)m->nparams + 1, sizeof(uint64_t));
    k.source = json_object();
    if (!k.vals || !k.vec || !k.source) {
        rc = err_set(CUTUNE_ENOMEM, "out of memory importing '%s'", path);
        goto cleanup;
    }
    if (sspace_new(&k.sp, m, 0) < 0) {
        rc = err_wrap(CUTUNE_EINVAL, "the spec's space");
        goto cleanup;
    }
    kt_format fmt = kt_detect(root);
    if (fmt == KT_NEITHER) {
        const char *other = json_string_value(json_object_get(root, "format"));
        if (other)
            rc = kt_refuse(&k, "format", "a file of format \"%.60s\", not a Kernel Tuner cache or T4 results file",
                           other);
        else
            rc = kt_refuse(&k, "(the top)",
                           "neither a Kernel Tuner cache file (an object with \"cache\") nor a T4 results file "
                           "(an object with \"results\")");
        goto cleanup;
    }
    /* The device: the file's, or the caller's for a file that names none. */
    const char *dev_name = kt_device_name(root, fmt);
    if (dev_name && o && o->device_name && strcmp(dev_name, o->device_name) != 0) {
        rc = err_set(CUTUNE_EIO, "%s: recorded on '%s', not on '%s'", path, dev_name, o->device_name);
        goto cleanup;
    }
    if (!dev_name && o)
        dev_name = o->device_name;
    cutune_device dev = {.name = dev_name ? dev_name : "", .arch = "", .ordinal = -1};
    if (!(k.r = result_new_for(m, spec_path, &dev))) {
        rc = err_set(CUTUNE_ENOMEM, "out of memory importing '%s'", path);
        goto cleanup;
    }
    rc = fmt == KT_CACHE ? kt_read_cache(&k, root) : kt_read_t4(&k, root);
    if (rc == CUTUNE_OK)
        rc = check_coverage(&k, o && o->complete);
    if (rc != CUTUNE_OK)
        goto cleanup;
    summarise(k.r, m->maximize);
    k.r->date = arena_strdup(k.r->arena, k.date);
    k.r->strategy = arena_strdup(k.r->arena, "");
    rc = kt_source(&k, fmt, gzipped, reopened, dev_name);
    if (rc == CUTUNE_OK) {
        char why[200];
        if (result_set_source(k.r, k.source, why, sizeof why) < 0)
            rc = err_set(CUTUNE_ENOMEM, "%s: %s", path, why);
    }
    if (rc == CUTUNE_OK && (!k.r->date || !k.r->strategy))
        rc = err_set(CUTUNE_ENOMEM, "out of memory importing '%s'", path);
cleanup:
    if (rc == CUTUNE_OK) {
        *out = k.r;
        k.r = NULL;
    }
    result_destroy(k.r);
    sspace_free(k.sp);
    free(k.vals);
    free(k.vec);
    free(k.seen);
    free(k.labels);
    json_decref(k.source);
    json_decref(root);
    return rc;
}
