/* cache.c - the compiled-variant cache (see cache.h).
 *
 * Entry file <dir>/<key[0..2]>/<key>.cubin-entry:
 *   "CUTUNE-CACHE-1\n", a JSON line (ok, lowered_name, resources, seconds, log,
 *   cubin_size), then the cubin's bytes. */
#include "cache.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "../base/strbuf.h"
#include "../base/sys.h"

#define CACHE_MAGIC "CUTUNE-CACHE-1\n"

struct cache {
    char *dir;
};

const char *cache_default_dir(char *buf, size_t size)
{
    const char *env = getenv("CUTUNE_CACHE_DIR");
    if (env && *env) {
        snprintf(buf, size, "%s", env);
        return buf;
    }
    env = getenv("XDG_CACHE_HOME");
    if (env && *env) {
        snprintf(buf, size, "%s/cutune", env);
        return buf;
    }
    env = getenv("HOME");
    if (env && *env) {
        snprintf(buf, size, "%s/.cache/cutune", env);
        return buf;
    }
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
typedef struct include_walk {
    char **seen;
    int nseen, cap;
    XXH3_state_t *hash;
    const char *const *dirs;
    int ndirs;
    char *err;
    size_t errsize;
} include_walk;

static bool already_seen(include_walk *w, const char *path)
{
    for (int i = 0; i < w->nseen; i++)
        if (strcmp(w->seen[i], path) == 0)
            return true;
    return false;
}

static int hash_file_and_includes(include_walk *w, const char *path, const char *text, size_t len);

static int follow_include(include_walk *w, const char *including, const char *name, bool quoted)
{
    char candidate[4096];
    /* "x": the including file's folder first; then every include folder. */
    int first = quoted ? -1 : 0;
    for (int i = first; i < w->ndirs; i++) {
        if (i < 0) {
            const char *slash = strrchr(including, '/');
            if (slash)
                snprintf(candidate, sizeof candidate, "%.*s/%s", (int)(slash - including), including, name);
            else
                snprintf(candidate, sizeof candidate, "%s", name);
        } else {
            snprintf(candidate, sizeof candidate, "%s/%s", w->dirs[i], name);
        }
        struct stat st;
        if (stat(candidate, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (already_seen(w, candidate))
            return 0;
        size_t len;
        char *text = sys_read_file(candidate, SYS_LIMIT_SOURCE, &len);
        if (!text) {
            snprintf(w->err, w->errsize, "cannot read '%s' (included by '%s'): %s", candidate, including,
                     sys_strerror(errno));
            return -1;
        }
        int rc = hash_file_and_includes(w, candidate, text, len);
        free(text);
        return rc;
    }
    return 0; /* not found: a system or built-in header (NVRTC's version covers those) */
}

static int hash_file_and_includes(include_walk *w, const char *path, const char *text, size_t len)
{
    char *copy = strdup(path);
    if (!copy) {
        snprintf(w->err, w->errsize, "out of memory");
        return -1;
    }
    if (w->nseen == w->cap) {
        int cap = w->cap ? w->cap * 2 : 16;
        char **grown = realloc(w->seen, sizeof(char *) * (size_t)cap);
        if (!grown) {
            free(copy);
            snprintf(w->err, w->errsize, "out of memory");
            return -1;
        }
        w->seen = grown;
        w->cap = cap;
    }
    w->seen[w->nseen++] = copy;
    XXH3_128bits_update(w->hash, path, strlen(path) + 1);
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
                    char name[1024];
                    snprintf(name, sizeof name, "%.*s", (int)(name_end - q - 1), q + 1);
                    if (follow_include(w, path, name, close == '"') < 0)
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
    XXH3_state_t *h = XXH3_createState();
    if (!h) {
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    XXH3_128bits_reset(h);
    int major = 0, minor = 0;
    char version[64];
    if (compile_nvrtc_version(&major, &minor, err, errsize) < 0) {
        XXH3_freeState(h);
        return -1;
    }
    snprintf(version, sizeof version, "cutune-cache-1 nvrtc %d.%d", major, minor);
    XXH3_128bits_update(h, version, strlen(version) + 1);
    XXH3_128bits_update(h, job->arch, strlen(job->arch) + 1);
    XXH3_128bits_update(h, job->name_expression, strlen(job->name_expression) + 1);
    for (int i = 0; i < job->noptions; i++)
        XXH3_128bits_update(h, job->options[i], strlen(job->options[i]) + 1);
    include_walk w = {NULL, 0, 0, h, include_dirs, ninclude_dirs, err, errsize};
    int rc = hash_file_and_includes(&w, job->source_name, job->source, strlen(job->source));
    for (int i = 0; i < w.nseen; i++)
        free(w.seen[i]);
    free(w.seen);
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

int cache_get(cache *c, const cache_key *key, compile_output *out)
{
    memset(out, 0, sizeof *out);
    char path[4096];
    entry_path(c, key, path, sizeof path, true);
    size_t len;
    char *data = sys_read_file(path, SYS_LIMIT_CACHE, &len);
    if (!data)
        return 0;
    int hit = 0;
    size_t magic = strlen(CACHE_MAGIC);
    char *json_end = len > magic && memcmp(data, CACHE_MAGIC, magic) == 0 ? memchr(data + magic, '\n', len - magic)
                                                                           : NULL;
    json_t *meta = NULL;
    if (!json_end)
        goto done;
    json_error_t jerr;
    meta = json_loadb(data + magic, (size_t)(json_end - data - (ptrdiff_t)magic), 0, &jerr);
    if (!meta)
        goto done;
    size_t cubin_size = (size_t)json_integer_value(json_object_get(meta, "cubin_size"));
    const char *cubin = json_end + 1;
    if ((size_t)(data + len - cubin) != cubin_size)
        goto done; /* torn or damaged */
    out->ok = json_is_true(json_object_get(meta, "ok"));
    const char *log = json_string_value(json_object_get(meta, "log"));
    const char *lowered = json_string_value(json_object_get(meta, "lowered_name"));
    out->log = strdup(log ? log : "");
    out->lowered_name = lowered ? strdup(lowered) : NULL;
    out->seconds = json_real_value(json_object_get(meta, "seconds"));
    json_t *res = json_object_get(meta, "resources");
    if (res) {
        out->has_resources = true;
        out->res.registers = (int)json_integer_value(json_object_get(res, "registers"));
        out->res.barriers = (int)json_integer_value(json_object_get(res, "barriers"));
        out->res.static_smem = json_integer_value(json_object_get(res, "static_smem"));
        out->res.stack_frame = json_integer_value(json_object_get(res, "stack_frame"));
        out->res.spill_stores = json_integer_value(json_object_get(res, "spill_stores"));
        out->res.spill_loads = json_integer_value(json_object_get(res, "spill_loads"));
    }
    if (cubin_size) {
        out->cubin = malloc(cubin_size);
        if (out->cubin)
            memcpy(out->cubin, cubin, cubin_size);
        out->cubin_size = cubin_size;
    }
    if (!out->log || (lowered && !out->lowered_name) || (cubin_size && !out->cubin) || (out->ok && !cubin_size)) {
        compile_output_free(out);
        goto done;
    }
    out->cached = true;
    hit = 1;
done:
    json_decref(meta);
    free(data);
    return hit;
}

int cache_put(cache *c, const cache_key *key, const compile_output *out, char *err, size_t errsize)
{
    char dir[4096], path[4096];
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
    if (!text) {
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    /* The one writer: a unique temporary beside the entry, renamed into place; not
     * synced (a lost or torn entry is a miss, see cache_get). */
    sys_piece pieces[] = {{CACHE_MAGIC, strlen(CACHE_MAGIC)}, {text, strlen(text)}, {"\n", 1},
                          {out->cubin, out->cubin_size}};
    int rc = sys_write_file(path, pieces, 4, SYS_WRITE_NOSYNC);
    int saved = errno;
    free(text);
    if (rc != 0) {
        snprintf(err, errsize, "cannot write cache entry '%s': %s", path, sys_strerror(saved));
        return -1;
    }
    return 0;
}
