/* journal.c - the append-only tuning journal (see journal.h for what is trusted). */
#include "journal.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "../base/err.h"
#include "../base/sys.h"
#include "../runtime/outcome.h"
#include "record.h"

/* The first bytes of every header journal_open writes (compact, in field order): a
 * torn first line is a torn header only when it starts like this. */
#define HEADER_START "{\"format\":\"" JOURNAL_FORMAT "\""

enum { FIRST_CAPACITY = 256 };

/* One record read back: its ordinal, its line number (the later line wins), the
 * record (owned: one reference). */
typedef struct entry {
    uint64_t ordinal, line;
    json_t *rec;
} entry;

/* How many ignored lines' reasons journal_ignored_why names (the rest are counted). */
enum { WHY_LINES = 5, WHY_SIZE = 1024 };

struct journal {
    int fd;
    int held;       /* journal_hold's depth: lines written but not synced until it ends */
    bool unsynced;  /* a line was written while held */
    entry *entries; /* sorted by ordinal, one per ordinal, after read_back */
    size_t count, cap;
    uint64_t bound, ignored;
    char why[WHY_SIZE]; /* "line 3: ...; line 9: ..." for the first WHY_LINES ignored lines */
};

/* untrusted: NULL when `rec` (the JSON of one whole line, NULL: not JSON) is a record
 * a resume may trust (journal.h), its ordinal in *ordinal; else why not, in buf. */
static const char *untrusted(const journal *j, json_t *rec, const json_error_t *jerr, uint64_t *ordinal, char *buf,
                             size_t size)
{
    if (!rec) {
        snprintf(buf, size, "not JSON (%s, at column %d)", jerr->text, jerr->column);
        return buf;
    }
    if (!json_is_object(rec))
        return "not a JSON object";
    json_t *idx = json_object_get(rec, "index");
    if (!json_is_integer(idx) || json_integer_value(idx) < 0 || (uint64_t)json_integer_value(idx) >= j->bound) {
        snprintf(buf, size, "no \"index\" from 0 to %llu (the space's configurations)",
                 (unsigned long long)(j->bound ? j->bound - 1 : 0));
        return buf;
    }
    const char *status = json_string_value(json_object_get(rec, "status"));
    outcome out;
    if (!status)
        return "no \"status\" string";
    if (!outcome_from_name(status, &out))
        return "a \"status\" this cutune does not write";
    if (!json_is_object(json_object_get(rec, "params")))
        return "no \"params\" object";
    *ordinal = (uint64_t)json_integer_value(idx);
    return NULL;
}

/* Counts an ignored line (`line`, 1 = the header) and, among the first WHY_LINES,
 * keeps why (bytes a terminal would act on, which a damaged line may hold, become '?'). */
static void ignore(journal *j, uint64_t line, const char *why)
{
    j->ignored++;
    if (j->ignored > WHY_LINES)
        return;
    size_t used = strlen(j->why);
    snprintf(j->why + used, sizeof j->why - used, "%sline %llu: %s", used ? "; " : "", (unsigned long long)line, why);
    for (char *c = j->why + used; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
}

/* Keeps `rec` (a new reference is taken) for `ordinal`. -1 when out of memory. */
static int keep(journal *j, json_t *rec, uint64_t ordinal, uint64_t line)
{
    if (j->count == j->cap) {
        if (j->cap > SIZE_MAX / 2 / sizeof(entry))
            return -1; /* cannot happen below the file size limit; never wraps */
        size_t cap = j->cap ? j->cap * 2 : FIRST_CAPACITY;
        entry *grown = realloc(j->entries, sizeof(entry) * cap);
        if (!grown)
            return -1;
        j->entries = grown;
        j->cap = cap;
    }
    j->entries[j->count++] = (entry){ordinal, line, json_incref(rec)};
    return 0;
}

static int by_ordinal_then_line(const void *pa, const void *pb)
{
    const entry *a = pa, *b = pb;
    if (a->ordinal != b->ordinal)
        return a->ordinal < b->ordinal ? -1 : 1;
    return (a->line > b->line) - (a->line < b->line);
}

/* Sorts the entries by ordinal and keeps only the last line of each ordinal. */
static void settle(journal *j)
{
    if (j->count == 0)
        return;
    qsort(j->entries, j->count, sizeof(entry), by_ordinal_then_line);
    size_t out = 0;
    for (size_t i = 0; i < j->count; i++) {
        if (out > 0 && j->entries[out - 1].ordinal == j->entries[i].ordinal) {
            json_decref(j->entries[out - 1].rec); /* the later line wins */
            j->entries[out - 1] = j->entries[i];
        } else {
            j->entries[out++] = j->entries[i];
        }
    }
    j->count = out;
}

/* Checks the header line `v` (NULL: not JSON). 0, or -1 with the error naming `path`. */
static int check_header(json_t *v, const char *path, json_t *identity)
{
    const char *format = json_string_value(json_object_get(v, "format"));
    if (!json_is_object(v) || !format || strcmp(format, JOURNAL_FORMAT) != 0) {
        err_set(CUTUNE_EIO,
                "'%s' is not a cutune journal (its first line has no \"format\": \"%s\"): give "
                "another --journal, or --fresh to replace it",
                path, JOURNAL_FORMAT);
        return -1;
    }
    json_t *version = json_object_get(v, "version");
    if (!json_is_integer(version) || json_integer_value(version) < 1) {
        err_set(CUTUNE_EIO,
                "the journal '%s' has no valid \"version\": give another --journal, or --fresh to "
                "replace it",
                path);
        return -1;
    }
    if (json_integer_value(version) > JOURNAL_VERSION) {
        err_set(CUTUNE_EIO,
                "the journal '%s' is of version %lld; this cutune reads version %d: give another "
                "--journal, or --fresh to replace it",
                path, (long long)json_integer_value(version), JOURNAL_VERSION);
        return -1;
    }
    if (!json_equal(json_object_get(v, "identity"), identity)) {
        err_set(CUTUNE_EIO,
                "the journal '%s' belongs to another run (a changed spec, kernel, --set or "
                "device): resume with the same ones, or start afresh with --fresh",
                path);
        return -1;
    }
    return 0;
}

/* Reads an existing journal; -1 with the error when it is not one of this run's. */
static int read_back(journal *j, const char *path, json_t *identity, bool *has_header, off_t *whole)
{
    *has_header = false;
    *whole = 0;
    size_t len;
    char *text = sys_read_file(path, SYS_LIMIT_STORED, &len);
    if (!text && errno == ENOENT)
        return 0; /* no journal yet */
    if (!text) {
        err_set(CUTUNE_EIO, "cannot read the journal '%s': %s", path, sys_strerror(errno));
        return -1;
    }
    if (!memchr(text, '\n', len)) { /* no whole header: empty, or torn while written */
        size_t start = strlen(HEADER_START);
        int rc = memcmp(text, HEADER_START, len < start ? len : start) == 0 ? 0 : -1;
        if (rc < 0)
            check_header(NULL, path, identity);
        free(text);
        return rc;
    }
    /* Lines end at '\n' and are taken with their length: a NUL byte inside one is
     * damage in that line, not its end. Only a last line without its newline is torn. */
    int rc = 0;
    const char *line = text, *stop = text + len;
    for (uint64_t n = 1; line < stop && rc == 0; n++) {
        const char *end = memchr(line, '\n', (size_t)(stop - line));
        if (!end)
            break; /* no newline: a line torn by a crash, ignored (and cut off) */
        size_t size = (size_t)(end - line);
        *whole = (off_t)(end + 1 - text);
        json_error_t jerr;
        json_t *v = json_loadb(line, size, 0, &jerr);
        const char *nul = memchr(line, '\0', size);
        uint64_t ordinal;
        char buf[300];
        const char *why = NULL;
        if (n == 1) {
            rc = check_header(v, path, identity);
            *has_header = rc == 0;
        } else if (nul) {
            snprintf(buf, sizeof buf, "a NUL byte at column %zu: a damaged record", (size_t)(nul - line) + 1);
            why = buf;
        } else if ((why = untrusted(j, v, &jerr, &ordinal, buf, sizeof buf)) == NULL && keep(j, v, ordinal, n) < 0) {
            err_set(CUTUNE_ENOMEM, "out of memory reading the journal '%s'", path);
            rc = -1;
        }
        if (why)
            ignore(j, n, why);
        json_decref(v);
        line = end + 1;
    }
    free(text);
    if (j->ignored > WHY_LINES) {
        size_t used = strlen(j->why);
        snprintf(j->why + used, sizeof j->why - used, "; and %llu more", (unsigned long long)(j->ignored - WHY_LINES));
    }
    settle(j);
    return rc;
}
int journal_open(journal **out, const char *path, json_t *identity, uint64_t bound, bool fresh)
{
    *out = NULL;
    journal *j = calloc(1, sizeof *j);
    if (!j) {
        err_set(CUTUNE_ENOMEM, "out of memory");
        return -1;
    }
    j->fd = -1;
    j->bound = bound;
    bool has_header = false;
    off_t whole = 0;
    if (!fresh && read_back(j, path, identity, &has_header, &whole) < 0) {
        journal_close(j);
        return -1;
    }
    /* No whole header line (new, empty, or torn at its very start): begin afresh. */
    /* O_NOFOLLOW: a link planted at the journal's path is refused, never written
     * through; anything but a regular file is refused after the open. */
    j->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | (has_header ? 0 : O_TRUNC),
                 0644);
    struct stat st;
    if (j->fd >= 0 && (fstat(j->fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        close(j->fd);
        j->fd = -1;
        errno = SYS_ENOTREG;
    }
    if (j->fd < 0) {
        err_set(CUTUNE_EIO, "cannot open the journal '%s': %s", path,
                sys_strerror(errno == ELOOP ? SYS_ENOTREG : errno));
        journal_close(j);
        return -1;
    }
    if (has_header && ftruncate(j->fd, whole) != 0) { /* drop a torn last line */
        err_set(CUTUNE_EIO, "cannot repair the journal '%s': %s", path, strerror(errno));
        journal_close(j);
        return -1;
    }
    if (!has_header) {
        json_t *head =
            json_pack("{s:s, s:i, s:O}", "format", JOURNAL_FORMAT, "version", JOURNAL_VERSION, "identity", identity);
        int rc = head ? journal_append(j, head) : err_set(CUTUNE_ENOMEM, "out of memory");
        json_decref(head);
        if (rc < 0) {
            journal_close(j);
            return -1;
        }
    }
    *out = j;
    return 0;
}

/* bsearch's order of an ordinal (key) against an entry. */
static int ordinal_order(const void *key, const void *item)
{
    uint64_t k = *(const uint64_t *)key, o = ((const entry *)item)->ordinal;
    return (k > o) - (k < o);
}

json_t *journal_find(const journal *j, uint64_t ordinal)
{
    if (!j || j->count == 0)
        return NULL;
    const entry *e = bsearch(&ordinal, j->entries, j->count, sizeof *j->entries, ordinal_order);
    return e ? e->rec : NULL;
}

uint64_t journal_count(const journal *j)
{
    return j ? j->count : 0;
}

json_t *journal_at(const journal *j, uint64_t i, uint64_t *ordinal)
{
    if (!j || i >= j->count)
        return NULL;
    *ordinal = j->entries[i].ordinal;
    return j->entries[i].rec;
}

uint64_t journal_ignored(const journal *j)
{
    return j ? j->ignored : 0;
}

const char *journal_ignored_why(const journal *j)
{
    return j ? j->why : "";
}

int journal_append(journal *j, json_t *line)
{
    char *text = json_dumps(line, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (!text) {
        err_set(CUTUNE_ENOMEM, "out of memory");
        return -1;
    }
    size_t len = strlen(text);
    text[len] = '\n'; /* json_dumps's terminator becomes the line's end */
    ssize_t done = 0;
    while ((size_t)done < len + 1) {
        ssize_t n = write(j->fd, text + done, len + 1 - (size_t)done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            err_set(CUTUNE_EIO, "cannot write the journal: %s", strerror(errno));
            free(text);
            return -1;
        }
        done += n;
    }
    free(text);
    if (j->held > 0) { /* synced when the hold ends */
        j->unsynced = true;
        return 0;
    }
    if (fsync(j->fd) != 0) {
        err_set(CUTUNE_EIO, "cannot sync the journal: %s", strerror(errno));
        return -1;
    }
    return 0;
}

void journal_hold(journal *j)
{
    if (j)
        j->held++;
}

int journal_release(journal *j)
{
    if (!j || j->held == 0 || --j->held > 0 || !j->unsynced)
        return 0;
    j->unsynced = false;
    if (fsync(j->fd) != 0) {
        err_set(CUTUNE_EIO, "cannot sync the journal: %s", sys_strerror(errno));
        return -1;
    }
    return 0;
}

void journal_close(journal *j)
{
    if (!j)
        return;
    if (j->fd >= 0 && j->unsynced) /* held at a failure: what was written, synced */
        (void)fsync(j->fd);
    if (j->fd >= 0)
        close(j->fd);
    for (size_t i = 0; i < j->count; i++)
        json_decref(j->entries[i].rec);
    free(j->entries);
    free(j);
}

/* ---- decoded: what the tuner reads and writes (no JSON above results/) ------------- */

int journal_open_run(journal **out, const char *path, const journal_identity *id, uint64_t bound, bool fresh)
{
    *out = NULL;
    json_t *identity = json_pack("{s:s, s:s, s:s, s:s, s:b}", "spec", id->spec, "kernel", id->kernel, "device",
                                 id->device, "arch", id->arch, "flush_l2", id->flush_l2);
    if (identity && id->shard_count > 1) /* a shard's journal is its own */
        json_object_set_new(identity, "shard", json_pack("[i, i]", id->shard_index, id->shard_count));
    if (identity && id->block >= 0) /* one block of a file of several: which one */
        json_object_set_new(identity, "block", json_integer(id->block));
    if (identity && id->size) /* a size is part of what is measured */
        json_object_set_new(identity, "size", json_string(id->size));
    if (identity && id->inputs && id->inputs[0] &&
        json_object_set_new(identity, "inputs", json_string(id->inputs)) < 0) {
        json_decref(identity);
        identity = NULL;
    }
    if (!identity) {
        err_set(CUTUNE_ENOMEM, "out of memory");
        return -1;
    }
    int rc = journal_open(out, path, identity, bound, fresh);
    json_decref(identity);
    return rc;
}

int journal_append_record(journal *j, const cutune_tune_result *r, const record *rec)
{
    json_t *line = record_to_json(r, rec);
    if (!line) {
        err_set(CUTUNE_ENOMEM, "out of memory");
        return -1;
    }
    int rc = journal_append(j, line);
    json_decref(line);
    return rc;
}

/* Whether a line's params are the configuration `vals` of model m (a guard: a journal
 * written under another numbering, e.g. an exhaustive run over a space too large to
 * list, whose indices are listing positions rather than keys, is not misread). */
static bool params_match(const model *m, const value *vals, json_t *line)
{
    json_t *params = json_object_get(line, "params");
    for (int i = 0; i < m->nparams; i++) {
        json_t *p = json_object_get(params, m->params[i].name);
        bool same;
        switch (vals[i].type) {
        case VT_INT: same = json_is_integer(p) && json_integer_value(p) == vals[i].u.i; break;
        case VT_FLOAT: same = json_is_number(p) && json_number_value(p) == vals[i].u.f; break;
        case VT_BOOL: same = json_is_boolean(p) && json_is_true(p) == vals[i].u.b; break;
        default: same = json_is_string(p) && strcmp(json_string_value(p), vals[i].u.s) == 0; break;
        }
        if (!same)
            return false;
    }
    return true;
}

const journal_entry *journal_lookup(const journal *j, uint64_t ordinal, const model *m, const value *vals)
{
    json_t *line = journal_find(j, ordinal);
    if (!line || !params_match(m, vals, line))
        return NULL;
    return (const journal_entry *)line;
}

const journal_entry *journal_entry_at(const journal *j, uint64_t i, uint64_t *ordinal)
{
    return (const journal_entry *)journal_at(j, i, ordinal);
}

bool journal_entry_is(const journal_entry *e, const model *m, const value *vals)
{
    return params_match(m, vals, (json_t *)e);
}

void journal_entry_read(const journal_entry *e, cutune_tune_result *r, record *rec, bool compiled)
{
    record_from_json(r, rec, (json_t *)e, compiled ? RECORD_RESUME : RECORD_READ_BACK); /* a resume never fails */
}

bool journal_entry_has_compile(const journal_entry *e)
{
    json_t *line = (json_t *)e;
    return json_is_object(json_object_get(line, "resources")) && json_is_object(json_object_get(line, "occupancy"));
}

outcome journal_entry_outcome(const journal_entry *e, double *objective)
{
    json_t *line = (json_t *)e;
    json_t *obj = json_object_get(line, "objective");
    *objective = json_is_number(obj) ? json_number_value(obj) : NAN;
    outcome o = OUTCOME_NOT_RUN; /* the line's edge: its status by name (a kept line has a known one) */
    outcome_from_name(json_string_value(json_object_get(line, "status")), &o);
    return o;
}
