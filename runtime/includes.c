/* includes.c - the files a kernel's #include lines reach (see includes.h).
 *
 * One walk over the program and, depth first, every file it reaches. Each file is read
 * once: a canonical path seen before (a header that includes itself, two that include
 * each other, one file reached through two spellings) is renamed but not read again.
 * A file takes its slot in the set when it is first reached and gets its text when its
 * own #include lines are done, so the set is complete only on success. */
#include "includes.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <xxhash.h>

#include "../base/err.h"
#include "../base/strbuf.h"
#include "../base/sys.h"

/* uthash (uthash-dev) for the set of files seen: never exit on a failed allocation
 * (library code), flag the element instead; keys hashed with XXH3. */
#define HASH_NONFATAL_OOM 1
#define uthash_nonfatal_oom(elt) ((elt)->oom = true)
#define HASH_FUNCTION(keyptr, keylen, hashv) ((hashv) = (unsigned)XXH3_64bits((keyptr), (keylen)))
#include <uthash.h>

enum { PATH_BUF = 4096 };

typedef struct seen_file {
    const char *path; /* canonical: the set's names[index] */
    int index;
    bool oom; /* set by uthash when adding it failed */
    UT_hash_handle hh;
} seen_file;

typedef struct walk {
    incl_set *set;
    int cap;                               /* slots allocated in set->names and set->texts */
    seen_file *seen;                       /* uthash head */
    const char *chain[INCL_MAX_DEPTH + 2]; /* the files being followed, as spelled */
    const char **dirs;                     /* the -I folders, borrowed from the options */
    int ndirs;
    size_t bytes;      /* read so far */
    int root;          /* the program's slot, or -1 */
    bool root_reached; /* a header includes the program */
} walk;

/* Sets the thread's error from `fmt` and its arguments; -1. */
static int fail(walk *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(walk *w, const char *fmt, ...)
{
    (void)w;
    char text[ERR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return err_set(-1, "%s", text);
}

static int oom(walk *w)
{
    (void)w;
    return err_set(-1, "out of memory");
}

/* Whether `candidate` is a file to read (1), not there or a folder (0: look further),
 * or something that must never be opened for reading (-1: a FIFO, a socket, a device). */
static int probe(const char *candidate)
{
    struct stat st;
    if (stat(candidate, &st) != 0 || S_ISDIR(st.st_mode))
        return 0;
    return S_ISREG(st.st_mode) ? 1 : -1;
}

/* Where the #include of `name` by `including` (as spelled) is, as NVRTC looks: into
 * `found` (PATH_BUF bytes). 1 found, 0 nowhere in the user's folders, -1 with err. */
static int locate(walk *w, const char *including, const char *name, bool quoted, char *found)
{
    int first = name[0] == '/' ? -2 : quoted ? -1 : 0;
    int last = name[0] == '/' ? -2 : w->ndirs - 1;
    for (int i = first; i <= last; i++) {
        int n;
        if (i == -2) {
            n = snprintf(found, PATH_BUF, "%s", name);
        } else if (i == -1) {
            const char *slash = strrchr(including, '/');
            n = slash ? snprintf(found, PATH_BUF, "%.*s/%s", (int)(slash - including), including, name)
                      : snprintf(found, PATH_BUF, "%s", name);
        } else {
            n = snprintf(found, PATH_BUF, "%s/%s", w->dirs[i], name);
        }
        if (n < 0 || n >= PATH_BUF)
            continue;
        int p = probe(found);
        if (p < 0)
            return fail(w, "cannot read '%s' (included by '%s'): %s", found, including, sys_strerror(SYS_ENOTREG));
        if (p > 0)
            return 1;
    }
    return 0;
}

/* A new slot for `canonical` (taken), remembered as seen; its index, or -1 with err. */
static int add_slot(walk *w, char *canonical)
{
    incl_set *s = w->set;
    if (s->nheaders == w->cap) {
        int cap = w->cap ? w->cap * 2 : 16;
        char **names = realloc(s->names, sizeof(char *) * (size_t)cap);
        if (names)
            s->names = names;
        char **texts = names ? realloc(s->texts, sizeof(char *) * (size_t)cap) : NULL;
        if (texts)
            s->texts = texts;
        if (!names || !texts) {
            free(canonical);
            return oom(w);
        }
        w->cap = cap;
    }
    seen_file *f = calloc(1, sizeof *f);
    if (f) {
        f->path = canonical;
        f->index = s->nheaders;
        HASH_ADD_KEYPTR(hh, w->seen, f->path, strlen(f->path), f);
    }
    if (!f || f->oom) {
        free(f);
        free(canonical);
        return oom(w);
    }
    s->names[s->nheaders] = canonical;
    s->texts[s->nheaders] = NULL;
    return s->nheaders++;
}

static int walk_text(walk *w, const char *path, const char *text, size_t len, int depth, strbuf *out);

/* Follows the #include of `name` by `including` at nesting `depth`: reads the file the
 * first time it is reached. *canonical: its canonical path (the walk's), or NULL when
 * it is left to NVRTC. 0, or -1 with err. */
static int follow(walk *w, const char *including, const char *name, bool quoted, int depth, const char **canonical)
{
    *canonical = NULL;
    char found[PATH_BUF];
    int rc = locate(w, including, name, quoted, found);
    if (rc <= 0)
        return rc;
    char *canon = sys_canonical_path(found);
    if (!canon)
        return fail(w, "cannot resolve '%s' (included by '%s'): %s", found, including, sys_strerror(errno));
    seen_file *f = NULL;
    HASH_FIND(hh, w->seen, canon, strlen(canon), f);
    if (f) {
        free(canon);
        w->root_reached |= f->index == w->root;
        *canonical = f->path;
        return 0;
    }
    if (w->set->nheaders >= INCL_MAX_FILES) {
        free(canon);
        err_set(-1, "more than %d files reached by #include from '%s' (the last: '%s')", INCL_MAX_FILES, w->chain[0],
                found);
        return -1;
    }
    int index = add_slot(w, canon);
    if (index < 0)
        return -1;
    size_t flen = 0;
    char *ftext = sys_read_file(canon, SYS_LIMIT_SOURCE, &flen);
    if (!ftext)
        return fail(w, "cannot read '%s' (included by '%s'): %s", found, including, sys_strerror(errno));
    if ((w->bytes += flen) > INCL_MAX_BYTES) {
        free(ftext);
        err_set(-1, "more than %zu MiB of files reached by #include from '%s' (the last: '%s')", INCL_MAX_BYTES >> 20,
                w->chain[0], found);
        return -1;
    }
    strbuf sb = STRBUF_INIT;
    /* Nested quoted includes are looked up beside the spelled path, as the compiler does. */
    rc = walk_text(w, found, ftext, flen, depth + 1, &sb);
    free(ftext);
    if (rc == 0 && !sb_ok(&sb))
        rc = oom(w);
    if (rc < 0) {
        sb_free(&sb);
        return -1;
    }
    w->set->texts[index] = sb_steal(&sb);
    if (!w->set->texts[index])
        return oom(w);
    *canonical = w->set->names[index];
    return 0;
}

/* Copies `text` (the file `path`, as spelled, at nesting `depth`) to `out`, each
 * #include line that names a file found in the user's folders renamed to the file's
 * canonical path, following each. 0, or -1 with err. */
static int walk_text(walk *w, const char *path, const char *text, size_t len, int depth, strbuf *out)
{
    w->chain[depth] = path;
    if (depth > INCL_MAX_DEPTH) {
        err_set(-1, "includes nested more than %d deep: %s -> %s -> ... -> %s -> %s", INCL_MAX_DEPTH, w->chain[0],
                w->chain[1], w->chain[depth - 1], w->chain[depth]);
        return -1;
    }
    const char *copied = text; /* copied to `out` up to here */
    for (const char *p = text; p < text + len;) {
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
                if (name_end && name_end - q - 1 < PATH_BUF) {
                    char name[PATH_BUF];
                    snprintf(name, sizeof name, "%.*s", (int)(name_end - q - 1), q + 1);
                    const char *canonical;
                    if (follow(w, path, name, close == '"', depth, &canonical) < 0)
                        return -1;
                    if (canonical && (strchr(canonical, close) || strchr(canonical, '\n')))
                        return fail(w, "cannot name '%s' (included by '%s') in an #include line: its path holds %s",
                                    canonical, path, close == '"' ? "a '\"'" : "a '>'");
                    if (canonical) {
                        sb_addn(out, copied, (size_t)(q + 1 - copied));
                        sb_add(out, canonical);
                        copied = name_end;
                    }
                }
            }
        }
        p = line_end + 1;
    }
    sb_addn(out, copied, (size_t)(text + len - copied));
    return 0;
}

/* The -I folders of `options` in order: "-IDIR", "--include-path=DIR", or either
 * flag alone followed by DIR. Borrowed strings in a heap array (caller frees). */
static const char **include_dirs(const char *const *options, int noptions, int *n)
{
    const char **dirs = malloc(sizeof(char *) * (size_t)(noptions + 1));
    *n = 0;
    for (int i = 0; dirs && i < noptions; i++) {
        const char *o = options[i];
        if ((strcmp(o, "-I") == 0 || strcmp(o, "--include-path") == 0) && i + 1 < noptions)
            dirs[(*n)++] = options[++i];
        else if (strncmp(o, "-I", 2) == 0 && o[2])
            dirs[(*n)++] = o + 2;
        else if (strncmp(o, "--include-path=", 15) == 0 && o[15])
            dirs[(*n)++] = o + 15;
    }
    return dirs;
}

int incl_resolve(incl_set *out, const char *source_name, const char *source, const char *const *options, int noptions)
{
    memset(out, 0, sizeof *out);
    walk w;
    memset(&w, 0, sizeof w);
    w.set = out;
    w.dirs = include_dirs(options, noptions, &w.ndirs);
    int rc = w.dirs ? 0 : oom(&w);
    /* A header that includes the program finds it seen, under the program's own name
     * (a program given as text alone, with no file behind its name, has nothing to
     * remember). */
    char *root = rc == 0 ? sys_canonical_path(source_name) : NULL;
    w.root = root ? add_slot(&w, root) : -1;
    if (root && w.root < 0)
        rc = -1;
    strbuf sb = STRBUF_INIT;
    if (rc == 0)
        rc = walk_text(&w, source_name, source, strlen(source), 0, &sb);
    if (rc == 0 && !sb_ok(&sb))
        rc = oom(&w);
    out->source = rc == 0 ? sb_steal(&sb) : NULL;
    sb_free(&sb);
    if (rc == 0 && !out->source)
        rc = oom(&w);
    if (rc == 0 && w.root >= 0 && w.root_reached) {
        /* A header includes the program: its slot holds the renamed text too. */
        if (!(out->texts[w.root] = strdup(out->source)))
            rc = oom(&w);
    } else if (rc == 0 && w.root >= 0) {
        /* Slot 0 (the first taken): not needed, so not handed to NVRTC. */
        free(out->names[0]);
        out->nheaders--;
        memmove(out->names, out->names + 1, sizeof(char *) * (size_t)out->nheaders);
        memmove(out->texts, out->texts + 1, sizeof(char *) * (size_t)out->nheaders);
    }
    seen_file *f, *next;
    HASH_ITER(hh, w.seen, f, next)
    {
        HASH_DEL(w.seen, f);
        free(f);
    }
    free(w.dirs);
    return rc;
}

void incl_set_free(incl_set *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nheaders; i++) {
        free(s->names[i]);
        free(s->texts[i]);
    }
    free(s->names);
    free(s->texts);
    free(s->source);
    memset(s, 0, sizeof *s);
}

int incl_compile(const compile_job *job, compile_output *out)
{
    incl_set inc;
    if (incl_resolve(&inc, job->source_name, job->source, job->options, job->noptions) < 0) {
        incl_set_free(&inc);
        memset(out, 0, sizeof *out);
        const err_info *why = err_last();
        if (!(out->log = strdup(why ? why->message : "error"))) {
            err_set(-1, "out of memory");
            return -1;
        }
        return 0;
    }
    compile_job resolved = *job;
    resolved.source = inc.source;
    resolved.header_names = (const char *const *)inc.names;
    resolved.header_texts = (const char *const *)inc.texts;
    resolved.nheaders = resolved.nheader_texts = inc.nheaders;
    int rc = compile_run(&resolved, out);
    incl_set_free(&inc);
    return rc;
}

/* ---- the memo ---------------------------------------------------------------------- */

enum { MEMO_MAX = 8 };

typedef struct memo_entry {
    char *key; /* name, text and -I folders, each NUL-terminated */
    size_t keylen;
    int rc;
    incl_set set;
    char *why; /* incl_resolve's message when rc < 0 (heap; NULL when out of memory) */
} memo_entry;

struct incl_memo {
    pthread_mutex_t lock;
    memo_entry entries[MEMO_MAX];
    int n;
};

int incl_memo_new(incl_memo **out)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return -1;
    pthread_mutex_init(&(*out)->lock, NULL);
    return 0;
}

void incl_memo_free(incl_memo *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->n; i++) {
        free(m->entries[i].key);
        free(m->entries[i].why);
        incl_set_free(&m->entries[i].set);
    }
    pthread_mutex_destroy(&m->lock);
    free(m);
}

/* The memo's key for these arguments (heap; NULL when out of memory). */
static char *memo_key(const char *source_name, const char *source, const char *const *options, int noptions,
                      size_t *len)
{
    int ndirs = 0;
    const char **dirs = include_dirs(options, noptions, &ndirs);
    strbuf sb = STRBUF_INIT;
    sb_addn(&sb, source_name, strlen(source_name) + 1);
    sb_addn(&sb, source, strlen(source) + 1);
    for (int i = 0; dirs && i < ndirs; i++)
        sb_addn(&sb, dirs[i], strlen(dirs[i]) + 1);
    *len = sb.len;
    char *key = dirs && sb_ok(&sb) ? sb_steal(&sb) : NULL;
    sb_free(&sb);
    free(dirs);
    return key;
}

int incl_memo_get(incl_memo *m, const char *source_name, const char *source, const char *const *options, int noptions,
                  incl_set *own, const incl_set **set)
{
    memset(own, 0, sizeof *own);
    *set = own;
    size_t len = 0;
    char *key = memo_key(source_name, source, options, noptions, &len);
    if (!key) {
        err_set(-1, "out of memory");
        return -1;
    }
    pthread_mutex_lock(&m->lock); /* held while resolving: the others would wait for the same files */
    memo_entry *e = NULL;
    for (int i = 0; i < m->n && !e; i++)
        if (m->entries[i].keylen == len && memcmp(m->entries[i].key, key, len) == 0)
            e = &m->entries[i];
    if (!e && m->n < MEMO_MAX) {
        e = &m->entries[m->n++];
        e->key = key;
        e->keylen = len;
        key = NULL;
        e->rc = incl_resolve(&e->set, source_name, source, options, noptions);
        if (e->rc < 0 && err_last())
            e->why = strdup(err_last()->message);
    }
    int rc;
    if (e) {
        rc = e->rc;
        *set = &e->set;
        if (rc < 0)
            err_set(-1, "%s", e->why ? e->why : "out of memory");
    }
    pthread_mutex_unlock(&m->lock);
    if (!e)
        rc = incl_resolve(own, source_name, source, options, noptions);
    free(key);
    return rc;
}
