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
 * The key (cache_key_for) covers what NVRTC is given: program name, source, options
 * (the toolkit's include folders too), name expression, architecture, NVRTC's version,
 * and the in-memory headers (every file
 * the source's #include lines reach in the user's folders, read by runtime/includes,
 * by canonical path and content). Callers give canonical paths for the source and its
 * include folders (session/session.c) so that a spec reached as a.tune, ./a.tune,
 * /abs/a.tune or through a symlinked folder shares its entries. */
#include "cache.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "../base/err.h"
#include "../base/strbuf.h"
#include "../base/sys.h"

#define CACHE_MAGIC "CUTUNE-CACHE-2\n"
#define CACHE_KEY_VERSION "cutune-cache-4" /* 4: a failure's ptxas error; the toolkit's folders */
#define CHECKSUM_PREFIX "xxh3:"
enum {
    CHECKSUM_HEX = 16,   /* hex digits of a 64-bit checksum */
    MAX_REGISTERS = 255, /* per thread, on every architecture */
    MAX_BARRIERS = 16,   /* named barriers per block */
    PATH_BUF = 4096,
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

/* Hashes the string `s` with its NUL (so that "ab","c" and "a","bc" differ). */
static void hash_str(XXH3_state_t *h, const char *s)
{
    XXH3_128bits_update(h, s, strlen(s) + 1);
}

int cache_key_for(const compile_job *job, cache_key *key)
{
    XXH3_state_t *h = XXH3_createState();
    if (!h) {
        err_set(-1, "out of memory");
        return -1;
    }
    XXH3_128bits_reset(h);
    int major = 0, minor = 0;
    char version[64];
    if (compile_nvrtc_version(&major, &minor) < 0) {
        XXH3_freeState(h);
        return -1;
    }
    snprintf(version, sizeof version, CACHE_KEY_VERSION " nvrtc %d.%d", major, minor);
    hash_str(h, version);
    hash_str(h, job->arch);
    hash_str(h, job->name_expression);
    for (int i = 0; i < job->noptions; i++)
        hash_str(h, job->options[i]);
    /* The toolkit's folders decide what <cub/...> and <cuda_fp16.h> are: another
     * toolkit, or CCCL where there was none, is another compile. */
    compile_includes includes;
    compile_default_includes(&includes);
    XXH3_128bits_update(h, &includes.noptions, sizeof includes.noptions);
    for (int i = 0; i < includes.noptions; i++)
        hash_str(h, includes.options[i]);
    /* The program name is NVRTC's input (__FILE__, the log): hashed as given. */
    hash_str(h, job->source_name);
    size_t len = strlen(job->source);
    XXH3_128bits_update(h, &len, sizeof len);
    XXH3_128bits_update(h, job->source, len);
    /* The in-memory headers are every user file the source reaches, by canonical
     * path (runtime/includes): exactly the bytes NVRTC compiles. */
    XXH3_128bits_update(h, &job->nheaders, sizeof job->nheaders);
    for (int i = 0; i < job->nheaders && i < job->nheader_texts; i++) {
        hash_str(h, job->header_names[i]);
        len = strlen(job->header_texts[i]);
        XXH3_128bits_update(h, &len, sizeof len);
        XXH3_128bits_update(h, job->header_texts[i], len);
    }
    XXH128_hash_t d = XXH3_128bits_digest(h);
    snprintf(key->hex, sizeof key->hex, "%016llx%016llx", (unsigned long long)d.high64, (unsigned long long)d.low64);
    XXH3_freeState(h);
    return 0;
}

/* The most bytes the cache adds to its folder's path: "/xx/<32 hex digits>.entry" and
 * the temporary name an entry is written under beside it (base/sys.c), with room. */
enum { ENTRY_TAIL = 128 };

/* dir_fits: 0 when every path the cache makes under `dir` fits the system's limits: the
 * whole within PATH_MAX with ENTRY_TAIL to spare, each name within NAME_MAX; else -1
 * with why in err (the path shown cut: it may be thousands of bytes). Checked before
 * anything is created, so that no folder is made at a path cut short. */
static int dir_fits(const char *dir)
{
    size_t len = strlen(dir);
    if (len == 0) {
        err_set(-1, "the cache folder is an empty path");
        return -1;
    }
    if (len + ENTRY_TAIL >= PATH_MAX) {
        err_set(-1,
                "the cache folder '%.60s...' (%zu bytes) is longer than the path limit allows (%d bytes, "
                "less %d for its entries' names): nothing was created",
                dir, len, PATH_MAX, (int)ENTRY_TAIL);
        return -1;
    }
    for (const char *p = dir; *p;) {
        size_t name = strcspn(p, "/");
        if (name > NAME_MAX) {
            err_set(-1,
                    "the cache folder '%.60s...' has a name of %zu bytes, longer than a name may be "
                    "(%d bytes): nothing was created",
                    dir, name, NAME_MAX);
            return -1;
        }
        p += name + (p[name] == '/');
    }
    return 0;
}

int cache_open(cache **out, const char *dir)
{
    *out = NULL;
    if (dir_fits(dir) < 0)
        return -1;
    if (sys_make_dirs(dir) < 0) {
        err_set(-1, "cannot create cache folder '%s': %s", dir, strerror(errno));
        return -1;
    }
    if (access(dir, W_OK) != 0) {
        err_set(-1, "cache folder '%s' is not writable: %s", dir, strerror(errno));
        return -1;
    }
    cache *c = calloc(1, sizeof *c);
    if (!c || !(c->dir = strdup(dir))) {
        free(c);
        err_set(-1, "out of memory");
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
    if (out->ok ? !json_is_string(lowered) || cubin_size == 0
                : (!json_is_string(lowered) && !json_is_null(lowered)) || cubin_size != 0)
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
    if (len < body_at || memcmp(data, CACHE_MAGIC, magic) != 0 || memcmp(data + magic, CHECKSUM_PREFIX, prefix) != 0 ||
        data[body_at - 1] != '\n')
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

int cache_put(cache *c, const cache_key *key, const compile_output *out)
{
    char dir[PATH_BUF], path[PATH_BUF];
    entry_path(c, key, dir, sizeof dir, false);
    entry_path(c, key, path, sizeof path, true);
    if (sys_make_dirs(dir) < 0) {
        err_set(-1, "cannot create '%s': %s", dir, strerror(errno));
        return -1;
    }
    json_t *meta = json_object();
    json_object_set_new(meta, "ok", json_boolean(out->ok));
    json_object_set_new(meta, "lowered_name", out->lowered_name ? json_string(out->lowered_name) : json_null());
    json_object_set_new(meta, "seconds", json_real(out->seconds));
    json_object_set_new(meta, "log", json_string(out->log ? out->log : ""));
    json_object_set_new(meta, "cubin_size", json_integer((json_int_t)out->cubin_size));
    if (out->has_resources) /* in this order: the entry's checksum covers the text */
        json_object_set_new(meta, "resources",
                            json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}", "registers", (json_int_t)out->res.registers,
                                      "barriers", (json_int_t)out->res.barriers, "static_smem",
                                      (json_int_t)out->res.static_smem, "stack_frame", (json_int_t)out->res.stack_frame,
                                      "spill_stores", (json_int_t)out->res.spill_stores, "spill_loads",
                                      (json_int_t)out->res.spill_loads));
    char *text = json_dumps(meta, JSON_COMPACT);
    json_decref(meta);
    size_t text_len = text ? strlen(text) : 0;
    char *body = text ? malloc(text_len + 1 + out->cubin_size) : NULL;
    if (!body) {
        free(text);
        err_set(-1, "out of memory");
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
        err_set(-1, "cannot write cache entry '%s': %s", path, sys_strerror(saved));
        return -1;
    }
    return 0;
}
