/* journal.c - the append-only tuning journal (see journal.h). */
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "../base/sys.h"

struct journal {
    int fd;
    json_t **by_ordinal;   /* outcomes read back, indexed by configuration ordinal */
    uint64_t size, count;
};

static int keep(journal *j, json_t *rec)
{
    json_t *idx = json_object_get(rec, "index");
    if (!json_is_integer(idx) || json_integer_value(idx) < 0)
        return -1;
    uint64_t k = (uint64_t)json_integer_value(idx);
    if (k >= j->size) {
        uint64_t size = j->size ? j->size : 256;
        while (size <= k)
            size *= 2;
        json_t **grown = realloc(j->by_ordinal, sizeof(json_t *) * size);
        if (!grown)
            return -1;
        memset(grown + j->size, 0, sizeof(json_t *) * (size - j->size));
        j->by_ordinal = grown;
        j->size = size;
    }
    if (j->by_ordinal[k])
        json_decref(j->by_ordinal[k]); /* the later line wins */
    else
        j->count++;
    j->by_ordinal[k] = json_incref(rec);
    return 0;
}

/* Reads an existing journal; -1 with err when it belongs to another run. */
static int read_back(journal *j, const char *path, json_t *identity, bool *has_header, off_t *whole,
                     char *err, size_t errsize)
{
    *has_header = false;
    *whole = 0;
    char *text = sys_read_file(path, SYS_LIMIT_STORED, NULL);
    if (!text && errno == ENOENT)
        return 0; /* no journal yet */
    if (!text) {
        snprintf(err, errsize, "cannot read the journal '%s': %s", path, sys_strerror(errno));
        return -1;
    }
    int rc = 0;
    char *line = text, *next;
    for (int n = 0; *line; line = next, n++) {
        next = strchr(line, '\n');
        if (!next)
            break; /* no newline: a line torn by a crash, ignored (and cut off) */
        *next++ = '\0';
        *whole = (off_t)(next - text);
        json_error_t jerr;
        json_t *v = json_loads(line, 0, &jerr);
        if (n == 0) {
            json_t *id = v ? json_object_get(v, "identity") : NULL;
            if (!v || !json_equal(id, identity)) {
                snprintf(err, errsize, "the journal '%s' belongs to another run (a changed spec, kernel, --set or "
                         "device): resume with the same ones, or start afresh with --fresh", path);
                rc = -1;
            }
            *has_header = rc == 0;
        } else if (v) {
            keep(j, v);
        }
        json_decref(v);
        if (rc < 0)
            break;
    }
    free(text);
    return rc;
}

int journal_open(journal **out, const char *path, json_t *identity, bool fresh, char *err, size_t errsize)
{
    *out = NULL;
    journal *j = calloc(1, sizeof *j);
    if (!j) {
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    j->fd = -1;
    bool has_header = false;
    off_t whole = 0;
    if (!fresh && read_back(j, path, identity, &has_header, &whole, err, errsize) < 0) {
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
        snprintf(err, errsize, "cannot open the journal '%s': %s", path, sys_strerror(errno == ELOOP ? SYS_ENOTREG : errno));
        journal_close(j);
        return -1;
    }
    if (has_header && ftruncate(j->fd, whole) != 0) { /* drop a torn last line */
        snprintf(err, errsize, "cannot repair the journal '%s': %s", path, strerror(errno));
        journal_close(j);
        return -1;
    }
    if (!has_header) {
        json_t *head = json_pack("{s:s, s:i, s:O}", "format", "cutune-journal", "version", 1, "identity", identity);
        int rc = head ? journal_append(j, head, err, errsize) : -1;
        json_decref(head);
        if (rc < 0) {
            journal_close(j);
            return -1;
        }
    }
    *out = j;
    return 0;
}

json_t *journal_find(const journal *j, uint64_t ordinal)
{
    return j && ordinal < j->size ? j->by_ordinal[ordinal] : NULL;
}

uint64_t journal_end(const journal *j)
{
    return j ? j->size : 0;
}

uint64_t journal_count(const journal *j)
{
    return j ? j->count : 0;
}

int journal_append(journal *j, json_t *record, char *err, size_t errsize)
{
    char *text = json_dumps(record, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (!text) {
        snprintf(err, errsize, "out of memory");
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
            snprintf(err, errsize, "cannot write the journal: %s", strerror(errno));
            free(text);
            return -1;
        }
        done += n;
    }
    free(text);
    if (fsync(j->fd) != 0) {
        snprintf(err, errsize, "cannot sync the journal: %s", strerror(errno));
        return -1;
    }
    return 0;
}

void journal_close(journal *j)
{
    if (!j)
        return;
    if (j->fd >= 0)
        close(j->fd);
    for (uint64_t i = 0; i < j->size; i++)
        json_decref(j->by_ordinal[i]);
    free(j->by_ordinal);
    free(j);
}
