/* devmemo.c - the device query's answer kept on disk (devmemo.h): the machine's key,
 * the file written and read back, every field checked.
 *
 * Ownership: every function works on the caller's memory; what it allocates (the
 * path, the JSON) it frees or hands over as its contract says. */
#include "devmemo.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#include "../base/sys.h"

enum {
    KEY_FILE_MAX = 64 * 1024, /* a /proc file the key reads: larger is no key */
    MEMO_MAX = 1 << 20,       /* the memo file: larger is a miss */
    WALK_DEPTH = 6,           /* capabilities/gpuN/mig/giN/ciN/access and one more */
    MEMO_VERSION = 1,
};

/* Appends "name\n<contents>\n" of the regular file `path`; a missing file adds "name -\n".
 * 0, or -1 when it is there but cannot be read whole within KEY_FILE_MAX. */
static int add_file(strbuf *out, const char *name, const char *path)
{
    size_t len = 0;
    char *text = sys_read_file(path, KEY_FILE_MAX, &len);
    if (!text) {
        if (errno != ENOENT)
            return -1;
        sb_printf(out, "%s -\n", name);
        return 0;
    }
    sb_printf(out, "%s\n", name);
    sb_addn(out, text, len);
    sb_addc(out, '\n');
    free(text);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in folder `dir` (not . or ..), sorted, into a heap array of heap strings
 * (*n of them; caller frees both). 0, or -1 when the folder cannot be read (missing
 * included) or out of memory. */
static int names_in(const char *dir, char ***out, int *n)
{
    *out = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    char **v = NULL;
    int cap = 0, rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d)) != NULL;) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            char **grown = cap < 4096 ? realloc(v, (size_t)cap * sizeof *v) : NULL;
            if (!grown) {
                rc = -1;
                break;
            }
            v = grown;
        }
        if (!(v[*n] = strdup(e->d_name)))
            rc = -1;
        else
            (*n)++;
    }
    closedir(d);
    if (rc == 0 && *n > 0)
        qsort(v, (size_t)*n, sizeof *v, by_name);
    *out = v;
    return rc;
}

static void names_free(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* Appends every name under `dir` (relative to `rel`), depth first in sorted order,
 * down to `depth` levels. A folder that cannot be listed adds nothing below it. */
static void add_tree(strbuf *out, const char *dir, const char *rel, int depth)
{
    char **v = NULL;
    int n = 0;
    if (depth <= 0 || names_in(dir, &v, &n) < 0) {
        names_free(v, n);
        return;
    }
    for (int i = 0; i < n; i++) {
        char sub[PATH_MAX], subrel[PATH_MAX];
        if (snprintf(sub, sizeof sub, "%s/%s", dir, v[i]) >= (int)sizeof sub ||
            snprintf(subrel, sizeof subrel, "%s/%s", rel, v[i]) >= (int)sizeof subrel)
            continue;
        sb_printf(out, "cap %s\n", subrel);
        add_tree(out, sub, subrel, depth - 1);
    }
    names_free(v, n);
}

int devmemo_key(const char *proc, strbuf *out)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/driver/nvidia/version", proc);
    size_t len = 0;
    char *version = sys_read_file(path, KEY_FILE_MAX, &len);
    if (!version)
        return -1; /* no NVIDIA kernel driver: nothing names the machine */
    sb_add(out, "cutune device memo 1\nversion\n");
    sb_addn(out, version, len);
    free(version);
    const char *env[] = {"CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER"};
    for (size_t i = 0; i < sizeof env / sizeof *env; i++) {
        const char *v = getenv(env[i]); /* NOLINT(concurrency-mt-unsafe): read only */
        sb_printf(out, "\n%s %s%s", env[i], v ? "=" : "unset", v ? v : "");
    }
    sb_addc(out, '\n');
    char gpus[PATH_MAX];
    snprintf(gpus, sizeof gpus, "%s/driver/nvidia/gpus", proc);
    char host[256] = "";
    (void)gethostname(host, sizeof host - 1); /* a home shared by nodes: a memo per node */
    sb_printf(out, "host %s\n", host);
    char **v = NULL;
    int n = 0, rc = -1; /* no GPU's information file to read: no key */
    if (names_in(gpus, &v, &n) == 0 && n > 0) {
        rc = 0;
        for (int i = 0; rc == 0 && i < n; i++) {
            if (snprintf(path, sizeof path, "%s/%s/information", gpus, v[i]) >= (int)sizeof path)
                rc = -1;
            else
                rc = add_file(out, v[i], path);
        }
    }
    names_free(v, n);
    snprintf(path, sizeof path, "%s/driver/nvidia/capabilities", proc);
    add_tree(out, path, "", WALK_DEPTH);
    return rc == 0 && sb_ok(out) ? 0 : -1;
}

char *devmemo_path(const char *dir, const char *key)
{
    char path[PATH_MAX];
    int k =
        snprintf(path, sizeof path, "%s/devices-%016llx.json", dir, (unsigned long long)XXH3_64bits(key, strlen(key)));
    return k > 0 && k < (int)sizeof path ? strdup(path) : NULL;
}

/* The fields of a device, in the file's order: name, then these ints. */
/* clang-format off */
#define DEVMEMO_INTS(X)                                                              \
    X(cc) X(sm_count) X(l2_bytes)                                                    \
    X(lim.warp_size) X(lim.max_threads_per_block) X(lim.max_threads_per_sm)          \
    X(lim.max_blocks_per_sm) X(lim.regs_per_sm) X(lim.regs_per_block)                \
    X(lim.smem_per_sm) X(lim.smem_per_block) X(lim.smem_per_block_optin)             \
    X(lim.smem_reserved_per_block)
/* clang-format on */

/* One device as a JSON object (NULL when out of memory). */
static json_t *device_json(const drv_device *d)
{
    json_t *o = json_object();
    int bad = !o || json_object_set_new(o, "name", json_string(d->name)) < 0;
#define PUT(f) bad |= json_object_set_new(o, #f, json_integer(d->f)) < 0;
    DEVMEMO_INTS(PUT)
#undef PUT
    if (bad) {
        json_decref(o);
        return NULL;
    }
    return o;
}

int devmemo_save(const char *path, const char *key, const devices *answer)
{
    if (!answer->answered || answer->count < 1 || answer->count > DEVICES_ASKED) {
        errno = EINVAL;
        return -1;
    }
    json_t *root = json_pack("{s:i, s:s, s:i, s:[]}", "cutune_device_memo", MEMO_VERSION, "key", key, "driver_version",
                             answer->driver_version, "devices");
    json_t *list = root ? json_object_get(root, "devices") : NULL;
    int bad = !list;
    for (int i = 0; !bad && i < answer->count; i++) {
        if (!answer->d[i].ok) { /* a device the driver did not read: its why is not kept */
            json_decref(root);
            errno = EINVAL;
            return -1;
        }
        bad = json_array_append_new(list, device_json(&answer->d[i].raw)) < 0;
    }
    char *text = bad ? NULL : json_dumps(root, JSON_COMPACT);
    json_decref(root);
    if (!text) {
        errno = ENOMEM;
        return -1;
    }
    int rc = 0;
    const char *slash = strrchr(path, '/');
    if (slash && slash > path) { /* the folder, made when missing */
        char dir[PATH_MAX];
        size_t len = (size_t)(slash - path);
        if (len >= sizeof dir) {
            errno = ENAMETOOLONG;
            rc = -1;
        } else {
            memcpy(dir, path, len);
            dir[len] = '\0';
            rc = sys_make_dirs(dir);
        }
    }
    if (rc == 0)
        rc = sys_write_text(path, text);
    free(text);
    return rc;
}

/* The integer `name` of object o into *v if it is in [lo, hi]; false otherwise. */
static bool int_in(const json_t *o, const char *name, long long lo, long long hi, int *v)
{
    const json_t *j = json_object_get(o, name);
    if (!json_is_integer(j) || json_integer_value(j) < lo || json_integer_value(j) > hi)
        return false;
    *v = (int)json_integer_value(j);
    return true;
}

/* One device read back from o, every field in range. */
static bool device_read(const json_t *o, drv_device *d)
{
    const json_t *name = json_object_get(o, "name");
    size_t len = json_is_string(name) ? json_string_length(name) : 0;
    if (len == 0 || len >= sizeof d->name || json_object_size(o) != 14)
        return false;
    memcpy(d->name, json_string_value(name), len);
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)d->name[i] < 0x20 || d->name[i] == 0x7f)
            return false; /* a device name never holds a control character (or a NUL) */
    bool ok = int_in(o, "cc", 10, 999, &d->cc);
#define GET(f) ok = ok && int_in(o, #f, 1, INT_MAX, &d->f);
    DEVMEMO_INTS(GET)
#undef GET
    return ok;
}

int devmemo_load(const char *path, const char *key, devices *out)
{
    memset(out, 0, sizeof *out);
    size_t len = 0;
    char *text = sys_read_file(path, MEMO_MAX, &len);
    json_t *root = text ? json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL) : NULL;
    free(text);
    const json_t *list = json_object_get(root, "devices");
    const json_t *k = json_object_get(root, "key");
    int version = 0;
    bool ok = json_is_object(root) && json_object_size(root) == 4 && json_is_string(k) &&
              strcmp(json_string_value(k), key) == 0 && int_in(root, "cutune_device_memo", 1, 1, &version) &&
              int_in(root, "driver_version", 1, INT_MAX, &out->driver_version) && json_is_array(list) &&
              json_array_size(list) >= 1 && json_array_size(list) <= DEVICES_ASKED;
    for (size_t i = 0; ok && i < json_array_size(list); i++)
        ok = device_read(json_array_get(list, i), &out->d[i].raw) && (out->d[i].ok = true);
    if (ok) {
        out->count = (int)json_array_size(list);
        out->answered = true;
    }
    json_decref(root);
    if (!ok)
        memset(out, 0, sizeof *out);
    return ok ? 0 : -1;
}

bool devmemo_same_device(const drv_device *a, const drv_device *b)
{
    bool same = strncmp(a->name, b->name, sizeof a->name) == 0;
#define SAME(f) same = same && a->f == b->f;
    DEVMEMO_INTS(SAME)
#undef SAME
    return same;
}
