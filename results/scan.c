/* scan.c - a results file read one entry at a time (see scan.h).
 *
 * The reader walks the file's outer structure itself, a byte at a time: the top-level
 * object, its "sizes" array and each size's object, and the "results" arrays inside
 * them. Every other value, and each entry, is captured as raw text (strings, escapes
 * and nesting followed only far enough to find where it ends) and handed to jansson,
 * which checks it fully. So the scan holds one value at a time, and what it accepts is
 * exactly JSON. The walk is iterative and its depth fixed (object, array, object,
 * array); the nesting inside a value is jansson's to bound. */
#include "scan.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/err.h"
#include "../base/sys.h"
#include "load.h"

/* One "results" array: the file's, or one size's. */
typedef struct level {
    uint64_t count; /* entries, counted by the first pass */
    int64_t best;   /* summary.best as recorded (-1: none) */
    int nmetrics, cap;
    char **metrics; /* the entries' metric names, in order of first appearance */
} level;

/* What a walk over entries does with each. */
typedef enum walk_mode { W_COUNT, W_EMIT, W_SKIP } walk_mode;

struct results_scan {
    char *path;
    FILE *f;
    uint64_t offset; /* bytes read so far */
    char *buf;       /* the value being captured */
    size_t len, cap;
    uint64_t start; /* where it began */
    bool failed;
    int rc; /* the failure's status */
    cutune_tune_result *header;
    int version;
    level top;    /* the file's "results" */
    level *sizes; /* each size's (version 2) */
    int nsizes;
    uint64_t count;
    /* the second pass */
    results_scan_fn fn;
    void *ctx;
    int stopped;    /* fn's nonzero return */
    arena *scratch; /* one entry's strings, reset for each */
    record **records;
    uint64_t rcap;
};

static int fail(results_scan *s, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Keeps the first failure's message (the thread's error, code rc); returns -1. */
static int fail(results_scan *s, int rc, const char *fmt, ...)
{
    if (!s->failed) {
        char text[ERR_MESSAGE_MAX];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(text, sizeof text, fmt, ap);
        va_end(ap);
        err_set(rc, "%s", text);
        s->failed = true;
        s->rc = rc;
    }
    return -1;
}

static int not_json(results_scan *s, const char *what)
{
    return fail(s, CUTUNE_EIO, "'%s' is not JSON: byte %llu: %s", s->path, (unsigned long long)s->offset, what);
}

static int get(results_scan *s)
{
    int c = getc_unlocked(s->f);
    if (c != EOF)
        s->offset++;
    else if (ferror(s->f))
        fail(s, CUTUNE_EIO, "cannot read '%s': %s", s->path, sys_strerror(errno));
    return c;
}

/* The next character that is not JSON white space (EOF at the end). */
static int skip_ws(results_scan *s)
{
    int c;
    do
        c = get(s);
    while (c == ' ' || c == '\t' || c == '\n' || c == '\r');
    return c;
}

static int put(results_scan *s, int c)
{
    if (s->len + 1 >= s->cap) {
        if (s->cap >= RESULTS_SCAN_VALUE_LIMIT)
            return fail(s, CUTUNE_EIO,
                        "'%s': the value at byte %llu is larger than %zu MiB, more than cutune reads at "
                        "once",
                        s->path, (unsigned long long)s->start, RESULTS_SCAN_VALUE_LIMIT >> 20);
        size_t cap = s->cap ? s->cap * 2 : 4096;
        char *grown = realloc(s->buf, cap);
        if (!grown)
            return fail(s, CUTUNE_ENOMEM, "out of memory reading '%s'", s->path);
        s->buf = grown;
        s->cap = cap;
    }
    s->buf[s->len++] = (char)c;
    return 0;
}

/* Captures the raw text of the value that starts with c (already read) into buf: a
 * string to its closing quote, an object or array to its matching bracket, anything
 * else to the next delimiter (left unread). Whether it is valid is jansson's to say. */
static int capture(results_scan *s, int c)
{
    s->len = 0;
    s->start = s->offset - 1;
    if (c == EOF)
        return s->failed ? -1 : not_json(s, "a value expected, the file ends");
    if (put(s, c) < 0)
        return -1;
    if (c != '"' && c != '{' && c != '[') { /* a number or a literal */
        for (;;) {
            c = get(s);
            if (c == EOF || strchr(",}] \t\r\n", c)) {
                if (c != EOF) {
                    ungetc(c, s->f);
                    s->offset--;
                }
                return s->failed ? -1 : 0;
            }
            if (put(s, c) < 0)
                return -1;
        }
    }
    size_t depth = c == '"' ? 0 : 1;
    bool in_string = c == '"';
    while (in_string || depth > 0) {
        c = get(s);
        if (c == EOF)
            return s->failed ? -1 : not_json(s, "the file ends inside a value");
        if (put(s, c) < 0)
            return -1;
        if (in_string) {
            if (c == '\\') {
                if ((c = get(s)) == EOF)
                    return s->failed ? -1 : not_json(s, "the file ends inside a string");
                if (put(s, c) < 0)
                    return -1;
            } else if (c == '"') {
                in_string = false;
            }
        } else if (c == '"') {
            in_string = true;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            depth--;
        }
    }
    return 0;
}

/* The captured value, parsed; `where` names it (a JSON path) in the message. */
static json_t *parse(results_scan *s, const char *where)
{
    json_error_t jerr;
    json_t *v = json_loadb(s->buf, s->len, JSON_DECODE_ANY, &jerr);
    if (!v)
        fail(s, CUTUNE_EIO, "'%s' is not JSON: %s (byte %llu): %s", s->path, where,
             (unsigned long long)(s->start + (jerr.position > 0 ? (uint64_t)jerr.position : 0)), jerr.text);
    return v;
}

/* Adds the names of entry j's "metrics" to lv's, in order of first appearance. */
static int collect_metrics(results_scan *s, level *lv, json_t *j)
{
    const char *key;
    json_t *val;
    json_object_foreach(json_object_get(j, "metrics"), key, val)
    {
        (void)val;
        bool known = false;
        for (int k = 0; k < lv->nmetrics && !known; k++)
            known = strcmp(lv->metrics[k], key) == 0;
        if (known)
            continue;
        if (lv->nmetrics == lv->cap) {
            int cap = lv->cap ? lv->cap * 2 : 8;
            char **grown = realloc(lv->metrics, sizeof(char *) * (size_t)cap);
            if (!grown)
                return fail(s, CUTUNE_ENOMEM, "out of memory reading '%s'", s->path);
            lv->metrics = grown;
            lv->cap = cap;
        }
        if (!(lv->metrics[lv->nmetrics] = strdup(key)))
            return fail(s, CUTUNE_ENOMEM, "out of memory reading '%s'", s->path);
        lv->nmetrics++;
    }
    return 0;
}

/* The second pass's work on entry j, the index-th of `of` (size: its size's index, or
 * -1): read as results_load reads it, then to the callback. */
static int emit_entry(results_scan *s, const cutune_tune_result *of, int size, json_t *j, uint64_t index,
                      const char *where)
{
    /* A result like `of` whose records and strings are the scan's scratch: its names
     * are borrowed from `of`, which outlives it. */
    cutune_tune_result tmp = *of;
    arena_reset(s->scratch);
    tmp.arena = s->scratch;
    tmp.records = s->records;
    tmp.n = 0;
    tmp.cap = s->rcap;
    tmp.nsizes = 0;
    tmp.sizes = NULL;
    record *rec = result_append(&tmp);
    s->records = tmp.records;
    s->rcap = tmp.cap;
    if (!rec)
        return fail(s, CUTUNE_ENOMEM, "out of memory reading '%s'", s->path);
    if (results_check_entry(of, j, s->path, where) != CUTUNE_OK) { /* as results_load checks it */
        char what[ERR_MESSAGE_MAX];
        snprintf(what, sizeof what, "%s", err_last() ? err_last()->message : "an entry cannot be read");
        return fail(s, CUTUNE_EIO, "%s", what);
    }
    if (record_from_json(&tmp, rec, j, RECORD_WHOLE) < 0) {
        char what[512]; /* the codec's message, kept before anything else sets one */
        snprintf(what, sizeof what, "%s", err_last() ? err_last()->message : "an entry cannot be read");
        return fail(s, CUTUNE_EIO, "'%s' is not a cutune results file: %s (%s)", s->path, what, where);
    }
    rec->size = size;
    if ((int64_t)index == of->summary.best && !record_can_win(rec))
        return fail(s, CUTUNE_EIO,
                    "'%s': \"summary\".\"best\" is entry %llu, which %s: a winner must have run "
                    "correctly and been timed in full (the file was edited or is damaged)",
                    s->path, (unsigned long long)index,
                    rec->out != OUTCOME_OK ? "did not run correctly" : "was not timed in full");
    int rc = s->fn(s->ctx, of, rec, index);
    if (rc != 0) {
        s->stopped = rc;
        return -1;
    }
    return 0;
}

/* The entries of a "results" array whose '[' was just read: counted (and their metric
 * names collected) into lv, handed out, or skipped. */
static int walk_entries(results_scan *s, walk_mode mode, level *lv, const cutune_tune_result *of, int size,
                        const char *prefix)
{
    uint64_t i = 0;
    int c = skip_ws(s);
    char where[64];
    while (c != ']') {
        if (capture(s, c) < 0)
            return -1;
        if (mode != W_SKIP) {
            snprintf(where, sizeof where, "%sresults[%llu]", prefix, (unsigned long long)i);
            json_t *j = parse(s, where);
            if (!j)
                return -1;
            int rc = mode == W_COUNT ? collect_metrics(s, lv, j) : emit_entry(s, of, size, j, i, where);
            json_decref(j);
            if (rc < 0)
                return -1;
        }
        i++;
        c = skip_ws(s);
        if (c == ',')
            c = skip_ws(s);
        else if (c != ']')
            return s->failed ? -1 : not_json(s, "',' or ']' expected after an entry");
        else
            break;
        if (c == ']')
            return not_json(s, "an entry expected after ','");
    }
    if (mode == W_COUNT)
        lv->count = i;
    else if (mode == W_EMIT && i != lv->count)
        return fail(s, CUTUNE_EIO, "'%s' changed while it was read: %sresults holds %llu entries, not %llu", s->path,
                    prefix, (unsigned long long)i, (unsigned long long)lv->count);
    return 0;
}

static int walk_object(results_scan *s, json_t *obj, int depth, int size);
static int member(results_scan *s, json_t *obj, int depth, int size, const char *key, const char *where,
                  bool *seen_results, bool *seen_sizes);

/* The "sizes" array (its '[' just read): each size's object walked (depth 1), anything
 * else captured as it is, into arr (the first pass; NULL in the second). */
static int walk_sizes(results_scan *s, json_t *arr)
{
    int k = 0, c = skip_ws(s);
    while (c != ']') {
        if (k == 65536)
            return fail(s, CUTUNE_EIO, "'%s' is not a cutune results file: more than 65536 sizes", s->path);
        if (!arr && k >= s->nsizes)
            return fail(s, CUTUNE_EIO, "'%s' changed while it was read: more sizes than before", s->path);
        if (arr && k == s->nsizes) {
            level *grown = realloc(s->sizes, sizeof *grown * (size_t)(k + 1));
            if (!grown)
                return fail(s, CUTUNE_ENOMEM, "out of memory reading '%s'", s->path);
            s->sizes = grown;
            memset(&s->sizes[k], 0, sizeof *grown);
            s->nsizes = k + 1;
        }
        json_t *one = NULL;
        if (c == '{') {
            one = arr ? json_object() : NULL;
            if (arr && !one)
                return fail(s, CUTUNE_ENOMEM, "out of memory reading '%s'", s->path);
            if (walk_object(s, one, 1, k) < 0) {
                json_decref(one);
                return -1;
            }
        } else {
            char where[32];
            snprintf(where, sizeof where, "sizes[%d]", k);
            if (capture(s, c) < 0 || (arr && !(one = parse(s, where))))
                return -1;
        }
        if (arr && json_array_append_new(arr, one) != 0)
            return fail(s, CUTUNE_ENOMEM, "out of memory reading '%s'", s->path);
        k++;
        c = skip_ws(s);
        if (c == ',')
            c = skip_ws(s);
        else if (c == ']')
            break;
        else
            return s->failed ? -1 : not_json(s, "',' or ']' expected in \"sizes\"");
        if (c == ']')
            return not_json(s, "a size expected after ','");
    }
    return 0;
}

/* The members of an object whose '{' was just read: the top level (depth 0) or a size
 * (depth 1, the size's index `size`). The first pass (obj not NULL) keeps every member
 * but the entries in obj, "results" as []; the second hands out the entries of the
 * arrays the file's version reads and skips every other value. */
static int walk_object(results_scan *s, json_t *obj, int depth, int size)
{
    bool seen_results = false, seen_sizes = false;
    int c = skip_ws(s);
    char where[160];
    snprintf(where, sizeof where, depth == 0 ? "the top level" : "sizes[%d]", size);
    while (c != '}') {
        if (c != '"')
            return s->failed ? -1 : not_json(s, "a member's name expected");
        if (capture(s, c) < 0)
            return -1;
        json_t *name = parse(s, where);
        if (!name)
            return -1;
        int rc = member(s, obj, depth, size, json_string_value(name), where, &seen_results, &seen_sizes);
        json_decref(name);
        if (rc < 0)
            return -1;
        c = skip_ws(s);
        if (c == ',')
            c = skip_ws(s);
        else if (c == '}')
            break;
        else
            return s->failed ? -1 : not_json(s, "',' or '}' expected after a member");
        if (c == '}')
            return not_json(s, "a member expected after ','");
    }
    return 0;
}

/* One member of an object (walk_object's), its name `key` just read: the ':' and the
 * value. */
static int member(results_scan *s, json_t *obj, int depth, int size, const char *key, const char *where,
                  bool *seen_results, bool *seen_sizes)
{
    int c = skip_ws(s);
    if (c != ':')
        return s->failed ? -1 : not_json(s, "':' expected after a member's name");
    c = skip_ws(s);
    bool results = strcmp(key, "results") == 0 && c == '[', sizes = depth == 0 && strcmp(key, "sizes") == 0 && c == '[';
    if ((results && *seen_results) || (sizes && *seen_sizes))
        return fail(s, CUTUNE_EIO, "'%s' is not a cutune results file: %s holds \"%s\" twice", s->path, where, key);
    if (results) {
        *seen_results = true;
        level *lv = depth == 0 ? &s->top : &s->sizes[size];
        walk_mode mode = obj ? W_COUNT : (depth == 0) == (s->version == 1) ? W_EMIT : W_SKIP;
        const cutune_tune_result *of = obj                        ? NULL
                                       : depth == 0               ? s->header
                                       : size < s->header->nsizes ? s->header->sizes[size]
                                                                  : NULL;
        char prefix[40] = "";
        if (depth == 1)
            snprintf(prefix, sizeof prefix, "sizes[%d].", size);
        if (mode == W_EMIT && !of)
            mode = W_SKIP;
        if (walk_entries(s, mode, lv, of, depth == 0 ? -1 : size, prefix) < 0)
            return -1;
        if (obj && json_object_set_new(obj, key, json_array()) != 0)
            return fail(s, CUTUNE_ENOMEM, "out of memory reading '%s'", s->path);
    } else if (sizes) {
        *seen_sizes = true;
        json_t *arr = obj ? json_array() : NULL;
        if (obj && !arr)
            return fail(s, CUTUNE_ENOMEM, "out of memory reading '%s'", s->path);
        if (walk_sizes(s, arr) < 0) {
            json_decref(arr);
            return -1;
        }
        if (obj && json_object_set_new(obj, key, arr) != 0) /* takes arr, even when it fails */
            return fail(s, CUTUNE_ENOMEM, "out of memory reading '%s'", s->path);
    } else {
        if (capture(s, c) < 0)
            return -1;
        if (obj) {
            char at[240];
            snprintf(at, sizeof at, "%s, \"%.60s\"", where, key);
            json_t *v = parse(s, at);
            if (!v)
                return -1;
            if (json_object_set_new(obj, key, v) != 0)
                return fail(s, CUTUNE_ENOMEM, "out of memory reading '%s'", s->path);
        }
    }
    return 0;
}

/* One pass over the whole file, from its start: `root` (the first pass) or NULL. */
static int walk_file(results_scan *s, json_t *root)
{
    if (fseek(s->f, 0, SEEK_SET) != 0)
        return fail(s, CUTUNE_EIO, "cannot read '%s': %s", s->path, sys_strerror(errno));
    s->offset = 0;
    int c = skip_ws(s);
    if (c != '{') {
        if (s->failed)
            return -1;
        if (c == EOF)
            return not_json(s, "the file holds no JSON");
        if (capture(s, c) < 0)
            return -1;
        json_t *v = parse(s, "the top level");
        json_decref(v);
        return v ? fail(s, CUTUNE_EIO, "'%s' is not a cutune results file: it is not a JSON object", s->path) : -1;
    }
    if (walk_object(s, root, 0, 0) < 0)
        return -1;
    if ((c = skip_ws(s)) != EOF)
        return s->failed ? -1 : not_json(s, "more after the top-level object");
    return s->failed ? -1 : 0;
}

/* summary.best of the object `o` into *best (-1: none) and, when it is an index, set
 * to null in o: the loader checks it against entries it is not given. */
static void take_best(json_t *o, int64_t *best)
{
    json_t *sum = json_object_get(o, "summary"), *b = json_object_get(sum, "best");
    *best = -1;
    if (json_is_integer(b)) {
        *best = (int64_t)json_integer_value(b);
        json_object_set_new(sum, "best", json_null());
    }
}

/* The level's metric names and recorded best onto r, the loader's result of it (n 0). */
static int settle(results_scan *s, cutune_tune_result *r, const level *lv)
{
    if (lv->best < -1 || (lv->best >= 0 && (uint64_t)lv->best >= lv->count))
        return fail(s, CUTUNE_EIO,
                    "'%s' is not a cutune results file: \"summary\".\"best\" is not an index into "
                    "\"results\"",
                    s->path);
    r->summary.best = lv->best;
    if (r->summary.variants == 0)
        r->summary.variants = lv->count;
    r->metric_names = arena_alloc(r->arena, sizeof(char *) * (size_t)(lv->nmetrics + 1));
    if (!r->metric_names)
        return fail(s, CUTUNE_ENOMEM, "out of memory reading '%s'", s->path);
    for (int k = 0; k < lv->nmetrics; k++)
        if (!(r->metric_names[k] = arena_strdup(r->arena, lv->metrics[k])))
            return fail(s, CUTUNE_ENOMEM, "out of memory reading '%s'", s->path);
    r->nmetrics = lv->nmetrics;
    return 0;
}

/* The header: the first pass's root (the file less its entries) through the loader. */
static int make_header(results_scan *s, json_t *root)
{
    json_t *version = json_object_get(root, "version");
    s->version = json_is_integer(version) && json_integer_value(version) == 2 ? 2 : 1;
    json_t *sizes = json_object_get(root, "sizes");
    take_best(root, &s->top.best);
    for (size_t k = 0; s->version == 2 && k < json_array_size(sizes) && (int)k < s->nsizes; k++) {
        json_t *one = json_array_get(sizes, k);
        if (json_object_get(one, "summary"))
            take_best(one, &s->sizes[k].best);
        else
            s->sizes[k].best = s->top.best; /* the loader gives such a size the run's summary */
    }
    int rc = results_load_json(&s->header, root, s->path);
    if (rc != CUTUNE_OK) {
        char why[512]; /* the loader's message, kept before anything else sets one */
        snprintf(why, sizeof why, "%s", err_last() ? err_last()->message : "cannot read results");
        return fail(s, rc, "%s", why);
    }
    if (s->version == 1) {
        s->count = s->top.count;
        return settle(s, s->header, &s->top);
    }
    uint64_t variants = 0;
    for (int k = 0; k < s->header->nsizes && k < s->nsizes; k++) {
        if (settle(s, s->header->sizes[k], &s->sizes[k]) < 0)
            return -1;
        s->count += s->sizes[k].count;
        variants += s->header->sizes[k]->summary.variants;
    }
    cutune_tune_result *first = s->header->nsizes > 0 ? s->header->sizes[0] : NULL;
    s->header->summary.variants = variants;
    s->header->nmetrics = first ? first->nmetrics : 0; /* as the loader takes them: the first size's */
    s->header->metric_names = first ? first->metric_names : NULL;
    return 0;
}

int results_scan_open(results_scan **out, const char *path)
{
    *out = NULL;
    results_scan *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path)) || !(s->scratch = arena_new())) {
        results_scan_close(s);
        return err_set(CUTUNE_ENOMEM, "out of memory");
    }
    s->top.best = -1;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below). */
    int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    int e = 0;
    if (fd < 0)
        e = errno;
    else if (fstat(fd, &st) != 0)
        e = errno;
    else if (S_ISDIR(st.st_mode))
        e = EISDIR;
    else if (!S_ISREG(st.st_mode))
        e = SYS_ENOTREG;
    if (e == 0) {
        int flags = fcntl(fd, F_GETFL);
        if (flags >= 0)
            fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
        if (!(s->f = fdopen(fd, "rb")))
            e = errno;
    }
    if (e != 0) {
        if (fd >= 0 && !s->f)
            close(fd);
        err_set(e == ENOMEM ? CUTUNE_ENOMEM : CUTUNE_EIO, "cannot read '%s': %s", path, sys_strerror(e));
        results_scan_close(s);
        return err_last()->code;
    }
    json_t *root = json_object();
    int rc = !root ? fail(s, CUTUNE_ENOMEM, "out of memory reading '%s'", path) : walk_file(s, root);
    if (rc == 0)
        rc = make_header(s, root);
    json_decref(root);
    free(s->buf); /* the largest value's buffer: the second pass grows its own */
    s->buf = NULL;
    s->cap = 0;
    if (rc != 0) {
        int status = s->rc ? s->rc : CUTUNE_EIO;
        results_scan_close(s);
        return status;
    }
    *out = s;
    return CUTUNE_OK;
}

const cutune_tune_result *results_scan_header(const results_scan *s)
{
    return s->header;
}

uint64_t results_scan_count(const results_scan *s)
{
    return s->count;
}

int results_scan_each(results_scan *s, results_scan_fn fn, void *ctx)
{
    s->fn = fn;
    s->ctx = ctx;
    s->failed = false;
    s->stopped = 0;
    s->rc = 0;
    clearerr(s->f);
    int rc = walk_file(s, NULL);
    free(s->buf);
    s->buf = NULL;
    s->cap = 0;
    if (s->stopped)
        return s->stopped;
    return rc == 0 ? CUTUNE_OK : s->rc ? s->rc : CUTUNE_EIO;
}

static void level_free(level *lv)
{
    for (int k = 0; k < lv->nmetrics; k++)
        free(lv->metrics[k]);
    free(lv->metrics);
}

void results_scan_close(results_scan *s)
{
    if (!s)
        return;
    if (s->f)
        fclose(s->f);
    result_destroy(s->header);
    level_free(&s->top);
    for (int k = 0; k < s->nsizes; k++)
        level_free(&s->sizes[k]);
    free(s->sizes);
    free(s->records);
    arena_free(s->scratch);
    free(s->buf);
    free(s->path);
    free(s);
}
