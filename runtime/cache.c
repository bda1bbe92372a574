/* cache.c - the compiled-variant cache (see cache.h).
 *
 * Entry file <dir>/<key[0..2]>/<key>.entry:
 *   "CUTUNE-CACHE-2\n"                 the format (version 1 entries are misses)
 *   "xxh3:<16 hex digits>\n"           XXH3-64 of the key's hex digits, then of every
 *                                      byte after this line
 *   a JSON line                        {ok, lowered_name, seconds, log, cubin_size,
 *                                       resources?: {registers, barriers, static_smem,
 *                                       stack_frame, spill_stores, spill_loads}}
 *   the cubin's bytes                  exactly cubin_size of them
 *
 * What a read trusts: nothing it has not checked. The magic, the checksum (so an entry
 * edited by hand, torn by a crash, or copied under another key is a miss), then every
 * field: ok a boolean; log a string; lowered_name a string when ok (else a string or
 * null); seconds a finite number >= 0; cubin_size an integer equal to the bytes that
 * follow, above 0 exactly when ok; resources, when present, an object of integers in
 * range (registers 0..255, barriers 0..16, byte counts 0..1 GiB). Anything else is a
 * miss: the variant is compiled again and the entry rewritten, never served.
 *
 * The key (cache_key_for) covers what NVRTC is given (program name, source, options,
 * name expression, architecture, NVRTC's version) and every file the source's
 * #include lines reach, by canonical path and content. The walk over includes
 * compares canonical paths (a header that includes itself, or two that include each
 * other, are hashed once), stops with an error past CACHE_MAX_INCLUDE_DEPTH nested
 * includes or CACHE_MAX_INCLUDE_FILES files, and never follows a path twice. Callers
 * give canonical paths for the source and its include folders (tuner/session.c) so that
 * a spec reached as a.tune, ./a.tune, /abs/a.tune or through a symlinked folder shares
 * its entries. */
#include "cache.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "../base/strbuf.h"
#include "../base/sys.h"

/* uthash (uthash-dev) for the include walk's set of files seen: never exit on a failed
 * allocation (library code), flag the element instead; keys hashed with XXH3. */
#define HASH_NONFATAL_OOM 1
#define uthash_nonfatal_oom(elt) ((elt)->oom = true)
#define HASH_FUNCTION(keyptr, keylen, hashv) ((hashv) = (unsigned)XXH3_64bits((keyptr), (keylen)))
#include <uthash.h>

#define CACHE_MAGIC "CUTUNE-CACHE-2\n"
#define CACHE_KEY_VERSION "cutune-cache-2"
#define CHECKSUM_PREFIX "xxh3:"
enum {
    CHECKSUM_HEX = 16,             /* hex digits of a 64-bit checksum */
    MAX_REGISTERS = 255,           /* per thread, on every architecture */
    MAX_BARRIERS = 16,             /* named barriers per block */
    PATH_BUF = 4096,
    NAME_BUF = 1024,
};
#define MAX_ENTRY_BYTES ((int64_t)1 << 30) /* a bound on any byte count an entry records */

struct cache {
    char *dir;
};

/* `base` followed by `tail`, as a heap string (NULL when out of memory). */
static char *joined(const char *base, const char *tail)
{
    size_t a = strlen(base), b = strlen(tail);
    char *s = malloc(a + b + 1);
    if (s) {
        memcpy(s, base, a);
        memcpy(s + a, tail, b + 1);
    }
    return s;
}

char *cache_default_dir(void)
{
    const char *env = getenv("CUTUNE_CACHE_DIR");
    if (env && *env)
        return joined(env, "");
    env = getenv("XDG_CACHE_HOME");
    if (env && *env)
        return joined(env, "/cutune");
    env = getenv("HOME");
    if (env && *env)
        return joined(env, "/.cache/cutune");
    return NULL;
}

/* mkdir -p */
static int make_dirs(const char *path)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

/* The #include targets of `text`, in order: both "x" and <x> forms. Conditional
 * compilation is ignored, so this is a superset of what the compiler reads: an
 * unneeded file in the key costs at worst a needless recompile, a missing one would
 * cost a stale binary. */
typedef struct seen_file {
    char *path;                /* canonical; owned */
    bool oom;                  /* set by uthash when adding it failed */
    UT_hash_handle hh;
} seen_file;

typedef struct include_walk {
    seen_file *seen;           /* canonical paths of the files hashed so far (uthash head) */
    const char *chain[CACHE_MAX_INCLUDE_DEPTH + 2]; /* the includes being followed, as spelled */
    XXH3_state_t *hash;
    const char *const *dirs;
    int ndirs;
    char name[NAME_BUF];       /* scratch: one include's name (not needed across a recursion) */
    char candidate[PATH_BUF];  /* scratch: one place it may be */
    char *err;
    size_t errsize;
} include_walk;

/* Whether canonical path `path` has been hashed already. */
static bool already_seen(include_walk *w, const char *path)
{
    seen_file *f = NULL;
    HASH_FIND(hh, w->seen, path, strlen(path), f);
    return f != NULL;
}

/* The number of files in the seen set. */
static unsigned seen_count(const include_walk *w)
{
    return HASH_COUNT(w->seen);
}

/* Adds `canonical` (taken: freed on failure too) to the seen set. 0, or -1 with err. */
static int remember(include_walk *w, char *canonical)
{
    seen_file *f = calloc(1, sizeof *f);
    if (f) {
        f->path = canonical;
        HASH_ADD_KEYPTR(hh, w->seen, f->path, strlen(f->path), f);
    }
    if (!f || f->oom) {
        free(f);
        free(canonical);
        snprintf(w->err, w->errsize, "out of memory");
        return -1;
    }
    return 0;
}

/* Empties the seen set, freeing its paths. */
static void forget_all(include_walk *w)
{
    seen_file *f, *next;
    HASH_ITER(hh, w->seen, f, next) {
        HASH_DEL(w->seen, f);
        free(f->path);
        free(f);
    }
}

/* The error for an include nested too deep: the chain's first and last files. */
static int too_deep(include_walk *w, int depth)
{
    snprintf(w->err, w->errsize, "includes nested more than %d deep: %s -> %s -> ... -> %s -> %s",
             CACHE_MAX_INCLUDE_DEPTH, w->chain[0], w->chain[1], w->chain[depth - 1], w->chain[depth]);
    return -1;
}

static int hash_file_and_includes(include_walk *w, const char *path, const char *text, size_t len, int depth);

/* Follows `#include "name"` (quoted) or `<name>` of the file `including` (as spelled),
 * at nesting `depth`. 0 (found and hashed, seen before, or not found: a system or
 * built-in header, covered by NVRTC's version), or -1 with err. */
static int follow_include(include_walk *w, const char *including, bool quoted, int depth)
{
    /* "x": the including file's folder first; then every include folder. */
    int first = quoted ? -1 : 0;
    for (int i = first; i < w->ndirs; i++) {
        int n;
        if (i < 0) {
            const char *slash = strrchr(including, '/');
            n = slash ? snprintf(w->candidate, sizeof w->candidate, "%.*s/%s", (int)(slash - including), including,
                                 w->name)
                      : snprintf(w->candidate, sizeof w->candidate, "%s", w->name);
        } else {
            n = snprintf(w->candidate, sizeof w->candidate, "%s/%s", w->dirs[i], w->name);
        }
        struct stat st;
        if (n < 0 || (size_t)n >= sizeof w->candidate || stat(w->candidate, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        char *canonical = sys_canonical_path(w->candidate);
        if (!canonical) {
            snprintf(w->err, w->errsize, "cannot resolve '%s' (included by '%s'): %s", w->candidate, including,
                     sys_strerror(errno));
            return -1;
        }
        if (already_seen(w, canonical)) {
            free(canonical);
            return 0;
        }
        if (seen_count(w) >= CACHE_MAX_INCLUDE_FILES) {
            free(canonical);
            snprintf(w->err, w->errsize, "more than %d files reached by #include from '%s' (the last: '%s')",
                     CACHE_MAX_INCLUDE_FILES, w->chain[0], w->candidate);
            return -1;
        }
        char *spelled = strdup(w->candidate); /* the scratch is reused below */
        if (!spelled) {
            free(canonical);
            snprintf(w->err, w->errsize, "out of memory");
            return -1;
        }
        if (remember(w, canonical) < 0) {
            free(spelled);
            return -1;
        }
        size_t flen;
        char *ftext = sys_read_file(canonical, SYS_LIMIT_SOURCE, &flen);
        int rc;
        if (!ftext) {
            snprintf(w->err, w->errsize, "cannot read '%s' (included by '%s'): %s", spelled, including,
                     sys_strerror(errno));
            rc = -1;
        } else {
            /* The canonical path goes into the key (the spelling does not change the
             * binary); nested quoted includes are looked up beside the spelled path,
             * as the compiler does. */
            XXH3_128bits_update(w->hash, canonical, strlen(canonical) + 1);
            rc = hash_file_and_includes(w, spelled, ftext, flen, depth + 1);
        }
        free(ftext);
        free(spelled);
        return rc;
    }
    return 0; /* not found: a system or built-in header (NVRTC's version covers those) */
}

/* Hashes `text` (the file `path`, as spelled, at nesting `depth`) and the files its
 * #include lines reach. 0, or -1 with err. */
static int hash_file_and_includes(include_walk *w, const char *path, const char *text, size_t len, int depth)
{
    w->chain[depth] = path;
    if (depth > CACHE_MAX_INCLUDE_DEPTH)
        return too_deep(w, depth);
    XXH3_128bits_update(w->hash, &len, sizeof len);
    XXH3_128bits_update(w->hash, text, len);
    for (const char *p = text; p && p < text + len;) {
        const char *line_end = memchr(p, '\n', (size_t)(text + len - p));
        if (!line_end)
            line_end = text + len;
        const char *q = p;
        while (q < line_end && (*q == ' ' || *q == '\t'))
            q++;
        if (q < line_end && *q == '#') {
            q++;
            while (q < line_end && (*q == ' ' || *q == '\t'))
                q++;
            if ((size_t)(line_end - q) > 7 && strncmp(q, "include", 7) == 0) {
                q += 7;
                while (q < line_end && (*q == ' ' || *q == '\t'))
                    q++;
                char close = *q == '"' ? '"' : *q == '<' ? '>' : 0;
                const char *name_end = close ? memchr(q + 1, close, (size_t)(line_end - q - 1)) : NULL;
                if (name_end) {
                    snprintf(w->name, sizeof w->name, "%.*s", (int)(name_end - q - 1), q + 1);
                    if (follow_include(w, path, close == '"', depth) < 0)
                        return -1;
                }
            }
        }
        p = line_end + 1;
    }
    return 0;
}

int cache_key_for(const compile_job *job, const char *const *include_dirs, int ninclude_dirs, cache_key *key,
                  char *err, size_t errsize)
{
    include_walk *w = calloc(1, sizeof *w); /* on the heap: its scratch buffers are large */
    XXH3_state_t *h = XXH3_createState();
    if (!h || !w) {
        XXH3_freeState(h);
        free(w);
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    XXH3_128bits_reset(h);
    int major = 0, minor = 0;
    char version[64];
    if (compile_nvrtc_version(&major, &minor, err, errsize) < 0) {
        XXH3_freeState(h);
        free(w);
        return -1;
    }
    snprintf(version, sizeof version, CACHE_KEY_VERSION " nvrtc %d.%d", major, minor);
    XXH3_128bits_update(h, version, strlen(version) + 1);
    XXH3_128bits_update(h, job->arch, strlen(job->arch) + 1);
    XXH3_128bits_update(h, job->name_expression, strlen(job->name_expression) + 1);
    for (int i = 0; i < job->noptions; i++)
        XXH3_128bits_update(h, job->options[i], strlen(job->options[i]) + 1);
    /* The program name is NVRTC's input (__FILE__, the log): hashed as given. */
    XXH3_128bits_update(h, job->source_name, strlen(job->source_name) + 1);
    w->hash = h;
    w->dirs = include_dirs;
    w->ndirs = ninclude_dirs;
    w->err = err;
    w->errsize = errsize;
    /* A header that includes the source finds it seen (a source given as text alone,
     * with no file behind its name, has nothing to remember). */
    char *root = sys_canonical_path(job->source_name);
    int rc = root ? remember(w, root) : 0;
    if (rc == 0)
        rc = hash_file_and_includes(w, job->source_name, job->source, strlen(job->source), 0);
    forget_all(w);
    free(w);
    if (rc == 0) {
        XXH128_hash_t d = XXH3_128bits_digest(h);
        snprintf(key->hex, sizeof key->hex, "%016llx%016llx", (unsigned long long)d.high64,
                 (unsigned long long)d.low64);
    }
    XXH3_freeState(h);
    return rc;
}

int cache_open(cache **out, const char *dir, char *err, size_t errsize)
{
    *out = NULL;
    if (make_dirs(dir) < 0) {
        snprintf(err, errsize, "cannot create cache folder '%s': %s", dir, strerror(errno));
        return -1;
    }
    if (access(dir, W_OK) != 0) {
        snprintf(err, errsize, "cache folder '%s' is not writable: %s", dir, strerror(errno));
        return -1;
    }
    cache *c = calloc(1, sizeof *c);
    if (!c || !(c->dir = strdup(dir))) {
        free(c);
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    *out = c;
    return 0;
}

void cache_close(cache *c)
{
    if (!c)
        return;
    free(c->dir);
    free(c);
}

const char *cache_dir(const cache *c)
{
    return c->dir;
}

static void entry_path(const cache *c, const cache_key *key, char *buf, size_t size, bool with_file)
{
    if (with_file)
        snprintf(buf, size, "%s/%.2s/%s.entry", c->dir, key->hex, key->hex);
    else
        snprintf(buf, size, "%s/%.2s", c->dir, key->hex);
}

/* The checksum of an entry's body (everything after its checksum line), bound to its
 * key so that an entry renamed under another key does not verify. */
static uint64_t entry_checksum(const cache_key *key, const void *body, size_t len)
{
    XXH3_state_t *st = XXH3_createState();
    if (!st)
        return 0; /* never matches a stored checksum in practice; the entry is a miss */
    XXH3_64bits_reset(st);
    XXH3_64bits_update(st, key->hex, strlen(key->hex));
    XXH3_64bits_update(st, body, len);
    uint64_t h = XXH3_64bits_digest(st);
    XXH3_freeState(st);
    return h;
}

/* An integer field of `obj` in [lo, hi]; false when absent, of another type or out of
 * range. */
static bool int_field(json_t *obj, const char *name, int64_t lo, int64_t hi, int64_t *out)
{
    json_t *v = json_object_get(obj, name);
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return false;
    *out = (int64_t)json_integer_value(v);
    return true;
}

/* Reads the metadata `meta` and the `cubin_len` bytes at `cubin` into *out (heap
 * storage). true when every field is present, of its type and in range (see the
 * comment atop this file); false leaves *out empty. */
static bool entry_fields(json_t *meta, const char *cubin, size_t cubin_len, compile_output *out)
{
    json_t *ok = json_object_get(meta, "ok"), *log = json_object_get(meta, "log");
    json_t *lowered = json_object_get(meta, "lowered_name"), *seconds = json_object_get(meta, "seconds");
    int64_t cubin_size;
    if (!json_is_object(meta) || !json_is_boolean(ok) || !json_is_string(log) || !json_is_number(seconds) ||
        !(json_number_value(seconds) >= 0) || !isfinite(json_number_value(seconds)) ||
        !int_field(meta, "cubin_size", 0, MAX_ENTRY_BYTES, &cubin_size) || (size_t)cubin_size != cubin_len)
        return false;
    out->ok = json_is_true(ok);
    if (out->ok ? !json_is_string(lowered) || cubin_size == 0 : (!json_is_string(lowered) && !json_is_null(lowered)) ||
                                                                 cubin_size != 0)
        return false;
    json_t *res = json_object_get(meta, "resources");
    if (res) {
        int64_t regs, barriers;
        kernel_resources *r = &out->res;
        if (!json_is_object(res) || !int_field(res, "registers", 0, MAX_REGISTERS, &regs) ||
            !int_field(res, "barriers", 0, MAX_BARRIERS, &barriers) ||
            !int_field(res, "static_smem", 0, MAX_ENTRY_BYTES, &r->static_smem) ||
            !int_field(res, "stack_frame", 0, MAX_ENTRY_BYTES, &r->stack_frame) ||
            !int_field(res, "spill_stores", 0, MAX_ENTRY_BYTES, &r->spill_stores) ||
            !int_field(res, "spill_loads", 0, MAX_ENTRY_BYTES, &r->spill_loads))
            return false;
        r->registers = (int)regs;
        r->barriers = (int)barriers;
        out->has_resources = true;
    }
    out->seconds = json_number_value(seconds);
    out->log = strdup(json_string_value(log));
    out->lowered_name = json_is_string(lowered) ? strdup(json_string_value(lowered)) : NULL;
    out->cubin = cubin_len ? malloc(cubin_len) : NULL;
    if (!out->log || (json_is_string(lowered) && !out->lowered_name) || (cubin_len && !out->cubin)) {
        compile_output_free(out);
        return false;
    }
    if (cubin_len)
        memcpy(out->cubin, cubin, cubin_len);
    out->cubin_size = cubin_len;
    return true;
}

int cache_get(cache *c, const cache_key *key, compile_output *out)
{
    memset(out, 0, sizeof *out);
    char path[PATH_BUF];
    entry_path(c, key, path, sizeof path, true);
    size_t len;
    char *data = sys_read_file(path, SYS_LIMIT_CACHE, &len);
    if (!data)
        return 0;
    /* The magic, then the checksum line, then a body that verifies against it. */
    size_t magic = strlen(CACHE_MAGIC), prefix = strlen(CHECKSUM_PREFIX);
    size_t body_at = magic + prefix + CHECKSUM_HEX + 1;
    json_t *meta = NULL;
    int hit = 0;
    if (len < body_at || memcmp(data, CACHE_MAGIC, magic) != 0 ||
        memcmp(data + magic, CHECKSUM_PREFIX, prefix) != 0 || data[body_at - 1] != '\n')
        goto done;
    char hex[CHECKSUM_HEX + 1];
    memcpy(hex, data + magic + prefix, CHECKSUM_HEX);
    hex[CHECKSUM_HEX] = '\0';
    char want[CHECKSUM_HEX + 1];
    snprintf(want, sizeof want, "%016llx", (unsigned long long)entry_checksum(key, data + body_at, len - body_at));
    if (strcmp(hex, want) != 0)
        goto done; /* edited, torn, or another key's */
    char *json_end = memchr(data + body_at, '\n', len - body_at);
    if (!json_end)
        goto done;
    json_error_t jerr;
    meta = json_loadb(data + body_at, (size_t)(json_end - (data + body_at)), 0, &jerr);
    if (!meta || !entry_fields(meta, json_end + 1, (size_t)(data + len - (json_end + 1)), out))
        goto done;
    out->cached = true;
    hit = 1;
done:
    json_decref(meta);
    free(data);
    return hit;
}

int cache_put(cache *c, const cache_key *key, const compile_output *out, char *err, size_t errsize)
{
    char dir[PATH_BUF], path[PATH_BUF];
    entry_path(c, key, dir, sizeof dir, false);
    entry_path(c, key, path, sizeof path, true);
    if (make_dirs(dir) < 0) {
        snprintf(err, errsize, "cannot create '%s': %s", dir, strerror(errno));
        return -1;
    }
    json_t *meta = json_object();
    json_object_set_new(meta, "ok", json_boolean(out->ok));
    json_object_set_new(meta, "lowered_name", out->lowered_name ? json_string(out->lowered_name) : json_null());
    json_object_set_new(meta, "seconds", json_real(out->seconds));
    json_object_set_new(meta, "log", json_string(out->log ? out->log : ""));
    json_object_set_new(meta, "cubin_size", json_integer((json_int_t)out->cubin_size));
    if (out->has_resources) {
        json_t *res = json_object();
        json_object_set_new(res, "registers", json_integer(out->res.registers));
        json_object_set_new(res, "barriers", json_integer(out->res.barriers));
        json_object_set_new(res, "static_smem", json_integer(out->res.static_smem));
        json_object_set_new(res, "stack_frame", json_integer(out->res.stack_frame));
        json_object_set_new(res, "spill_stores", json_integer(out->res.spill_stores));
        json_object_set_new(res, "spill_loads", json_integer(out->res.spill_loads));
        json_object_set_new(meta, "resources", res);
    }
    char *text = json_dumps(meta, JSON_COMPACT);
    json_decref(meta);
    size_t text_len = text ? strlen(text) : 0;
    char *body = text ? malloc(text_len + 1 + out->cubin_size) : NULL;
    if (!body) {
        free(text);
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    memcpy(body, text, text_len);
    body[text_len] = '\n';
    if (out->cubin_size)
        memcpy(body + text_len + 1, out->cubin, out->cubin_size);
    size_t body_len = text_len + 1 + out->cubin_size;
    free(text);
    char sum[sizeof CHECKSUM_PREFIX + CHECKSUM_HEX + 1];
    snprintf(sum, sizeof sum, CHECKSUM_PREFIX "%016llx\n", (unsigned long long)entry_checksum(key, body, body_len));
    /* The one writer: a unique temporary beside the entry, renamed into place; not
     * synced (a lost or torn entry is a miss, see cache_get). */
    sys_piece pieces[] = {{CACHE_MAGIC, strlen(CACHE_MAGIC)}, {sum, strlen(sum)}, {body, body_len}};
    int rc = sys_write_file(path, pieces, 3, SYS_WRITE_NOSYNC);
    int saved = errno;
    free(body);
    if (rc != 0) {
        snprintf(err, errsize, "cannot write cache entry '%s': %s", path, sys_strerror(saved));
        return -1;
    }
    return 0;
}
